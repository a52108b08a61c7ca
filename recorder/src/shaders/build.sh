#!/usr/bin/env bash
# Recompiles the recorder's sample-reading programs (ms_fullscreen.hlsl as vs_5_0; ms_load_*.hlsl as ps_5_0) into
# the *.dxbc beside them, which the recorder embeds, with d3d11-ref's hlslc.sh (D3D11_REF, default
# ../shared/tools/d3d11-ref beside the repository, else /work/shared/tools/d3d11-ref), one call at a time under
# /tmp/d3d11-ref.lock.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
ref=${D3D11_REF:-$root/../shared/tools/d3d11-ref}
[ -x "$ref/hlslc.sh" ] || ref=/work/shared/tools/d3d11-ref
flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/ms_fullscreen.hlsl" vs_main vs_5_0 "$here/ms_fullscreen.vs.dxbc"
for shader in float uint sint d24s8; do
  flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/ms_load_$shader.hlsl" ps_main ps_5_0 "$here/ms_load_$shader.ps.dxbc"
done
