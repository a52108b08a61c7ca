#!/usr/bin/env bash
# Re-records fixtures/captures/21-imgui.iridia: Dear ImGui's DirectX 11 example (a program nobody here wrote, built
# from $repo/../shared/thirdparty/imgui or IRIDIA_IMGUI_DIR by scripts/wine-env.sh's imgui_build) run under Wine
# with the recorder (recorder/, d3d11.dll), its frame 5 recorded at deflate level 9 and checked by
# recorder/tests/imgui.rs (the capture opens, holds every draw of the frame, and `iridia replay --all` compares each),
# then copied here and opened with `iridia info --check`. Needs what `scripts/setup.sh --wine` installs. The capture
# differs from run to run in its recorded times and file order, and in the few pixels of the example's frame-rate
# text ("Application average ... ms/frame").
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/wine-env.sh
. scripts/wine-env.sh

out="$work/imgui-fixture"
wine_build
imgui_build
cargo build --locked --bin iridia
wine_start "$imgui_screen"
wine_step "record: imgui-dx11.exe, frame 5 recorded (recorder/tests/imgui.rs)"
IRIDIA_IMGUI_DEFLATE_LEVEL=9 imgui_test "$out"
fixture=fixtures/captures/21-imgui.iridia
cp "$(ls "$out"/*.iridia)" "$fixture"
wine_step "record: $fixture ($(stat -c %s "$fixture") bytes)"
"$target_dir/debug/iridia" info --check "$fixture"
status=0
"$target_dir/debug/iridia" replay --all "$fixture" || status=$?
[ "$status" -le 1 ] || { echo "record: iridia replay failed on $fixture (exit $status)" >&2; exit 1; }
