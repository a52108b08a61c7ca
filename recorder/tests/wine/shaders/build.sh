#!/usr/bin/env bash
# Recompiles the test program's shaders (color.hlsl, textured.hlsl: vs_main as vs_4_0, ps_main as ps_4_0; mrt.hlsl,
# sampled.hlsl: ps_main as ps_4_0, drawn with color's and textured's vertex programs; ms_read.hlsl: vs_main, ps_colour,
# ps_depth as 5_0) into the
# committed *.dxbc with d3d11-ref's hlslc.sh (D3D11_REF, default ../shared/tools/d3d11-ref beside the repository,
# else /work/shared/tools/d3d11-ref), one call at a time under /tmp/d3d11-ref.lock; and gs_copy.asm, hs_tri.asm,
# ds_tri.asm, ps_uav.asm and cs_fill.asm, geometry, hull, domain, pixel (atomics and a counter) and compute programs
# the reference compiler does not build, into gs_copy.gs.dxbc, hs_tri.hs.dxbc, ds_tri.ds.dxbc, ps_uav.ps.dxbc and
# cs_fill.cs.dxbc with Iridia's own assembler (`iridia asm`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
ref=${D3D11_REF:-$root/../shared/tools/d3d11-ref}
[ -x "$ref/hlslc.sh" ] || ref=/work/shared/tools/d3d11-ref
for shader in color textured; do
  flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/$shader.hlsl" vs_main vs_4_0 "$here/$shader.vs.dxbc"
  flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/$shader.hlsl" ps_main ps_4_0 "$here/$shader.ps.dxbc"
done
flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/ms_read.hlsl" vs_main vs_5_0 "$here/ms_read.vs.dxbc"
flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/ms_read.hlsl" ps_colour ps_5_0 "$here/ms_read_colour.ps.dxbc"
flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/ms_read.hlsl" ps_depth ps_5_0 "$here/ms_read_depth.ps.dxbc"
for shader in mrt sampled; do
  flock /tmp/d3d11-ref.lock "$ref/hlslc.sh" "$here/$shader.hlsl" ps_main ps_4_0 "$here/$shader.ps.dxbc"
done
(cd "$root" && cargo run --quiet --release -- asm "$here/gs_copy.asm" -o "$here/gs_copy.gs.dxbc")
(cd "$root" && cargo run --quiet --release -- asm "$here/hs_tri.asm" -o "$here/hs_tri.hs.dxbc")
(cd "$root" && cargo run --quiet --release -- asm "$here/ds_tri.asm" -o "$here/ds_tri.ds.dxbc")
(cd "$root" && cargo run --quiet --release -- asm "$here/ps_uav.asm" -o "$here/ps_uav.ps.dxbc")
(cd "$root" && cargo run --quiet --release -- asm "$here/cs_fill.asm" -o "$here/cs_fill.cs.dxbc")
