#!/usr/bin/env bash
# Re-records fixtures/captures/20-recorded.iridia: the recorder's test program (recorder/tests/wine/testapp.c) run
# under Wine with the recorder (recorder/, d3d11.dll), its second frame recorded (the draws of both devices:
# immediate, GetImmediateContext, ID3D11DeviceContext1, GetDevice, two deferred contexts, both swap chains, two
# render targets with a D24S8 target, sampled arrays and cube maps, a 4x multisampled pass: 14 draws, testapp.c's
# header) and its ResolveSubresource (format 1.2), then opened with `iridia info --check` and re-run with `iridia
# replay --all`; recorder/tests/recorded_fixture.rs checks it. Needs what `scripts/setup.sh --wine` installs. The
# capture differs from run to run only in its recorded times and file order.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/wine-env.sh
. scripts/wine-env.sh

out="$work/fixture"
rm -rf "$out"
mkdir -p "$out"
wine_build
cargo build --locked --bin iridia
wine_start
wine_step "record: testapp.exe, frame 1 (Presents 2 and 3) recorded"
IRIDIA_OUTPUT_DIR=$(windows_path "$out") IRIDIA_LOG_FILE=$(windows_path "$out/recorder.log") \
  IRIDIA_CAPTURE_KEY=none IRIDIA_TRIGGER_FILE=none IRIDIA_CAPTURE_FRAME=2 IRIDIA_CAPTURE_FRAMES=2 \
  IRIDIA_DEFLATE_LEVEL=9 wine_testapp "$(windows_path "$PWD/$wine_src/shaders")" "$(windows_path "$out")" 3 1
fixture=fixtures/captures/20-recorded.iridia
cp "$(ls "$out"/*.iridia)" "$fixture"
wine_step "record: $fixture ($(stat -c %s "$fixture") bytes)"
"$target_dir/debug/iridia" info --check "$fixture"
if "$target_dir/debug/iridia" help replay >/dev/null 2>&1; then
  status=0
  "$target_dir/debug/iridia" replay --all "$fixture" || status=$?
  [ "$status" -le 1 ] || { echo "record: iridia replay failed on $fixture (exit $status)" >&2; exit 1; }
else
  echo "record: this iridia has no replay command; skipped" >&2
fi
