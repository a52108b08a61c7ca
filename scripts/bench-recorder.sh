#!/usr/bin/env bash
# The recorder's cost under Wine (Wine's d3d11 on Mesa's llvmpipe, so the GPU is the CPU):
#  1. no capture triggered: testapp.exe's bench mode (DRAWS draws a frame at WIDTH x HEIGHT, each with its dynamic
#     constant buffer mapped anew, then Present) with and without the recorder, RUNS runs each, alternating; prints
#     each configuration's median frame time (frames 2 onwards of each run) and the difference in percent;
#  2. a capture triggered (IRIDIA_CAPTURE_FRAME) on a frame of TRIGGERED_DRAWS draws: the recorded frame's time
#     against the frame before it, in milliseconds per draw, and the capture's size in bytes per draw.
# usage: scripts/bench-recorder.sh   (settings by variable: DRAWS=1000 FRAMES=12 RUNS=3 WIDTH=1920 HEIGHT=1080
#        TRIGGERED_DRAWS=100)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/wine-env.sh
. scripts/wine-env.sh

draws=${DRAWS:-1000}
frames=${FRAMES:-12}
runs=${RUNS:-3}
width=${WIDTH:-1920}
height=${HEIGHT:-1080}
triggered_draws=${TRIGGERED_DRAWS:-100}
out="$work/bench"
rm -rf "$out"
mkdir -p "$out"
shaders=$(windows_path "$PWD/$wine_src/shaders")

wine_build
wine_start
export IRIDIA_CAPTURE_KEY=none IRIDIA_TRIGGER_FILE=none IRIDIA_OUTPUT_DIR IRIDIA_LOG_FILE
IRIDIA_OUTPUT_DIR=$(windows_path "$out")
IRIDIA_LOG_FILE=$(windows_path "$out/recorder.log")
unset IRIDIA_CAPTURE_FRAME

# The frame times (ms) of one bench run, warm-up frames 0 and 1 left out.
frame_times() { grep '^frame ' | awk '$2 + 0 >= 2 { print $3 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

wine_step "bench: $draws draws a frame at ${width}x$height, $frames frames, $runs runs with and without the recorder"
: >"$out/plain.txt"
: >"$out/recorder.txt"
for run in $(seq "$runs"); do
  RECORDER=0 wine_testapp "$shaders" bench "$draws" "$frames" "$width" "$height" | frame_times >>"$out/plain.txt"
  RECORDER=1 wine_testapp "$shaders" bench "$draws" "$frames" "$width" "$height" | frame_times >>"$out/recorder.txt"
  echo "run $run done" >&2
done
plain=$(median <"$out/plain.txt")
hooked=$(median <"$out/recorder.txt")
grep -q "hooked DrawIndexed" "$out/recorder.log" || { echo "bench: the recorder did not hook the draws" >&2; exit 1; }

wine_step "bench: a capture of a frame of $triggered_draws draws at ${width}x$height"
rm -f "$out/recorder.log"
IRIDIA_CAPTURE_FRAME=3 RECORDER=1 wine_testapp "$shaders" bench "$triggered_draws" 5 "$width" "$height" \
  >"$out/triggered.txt"
capture=$(ls "$out"/*.iridia)
before_ms=$(awk '$2 == "2:" { print $3 }' "$out/triggered.txt")
recorded_ms=$(awk '$2 == "3:" { print $3 }' "$out/triggered.txt")
bytes=$(stat -c %s "$capture")
recorded=$(sed -n 's/.*capture ended: \([0-9]*\) draws recorded.*/\1/p' "$out/recorder.log")

printf '\nrecorder overhead, no capture: %s draws a frame at %sx%s, median of %s frames each\n' "$draws" "$width" \
  "$height" "$(wc -l <"$out/plain.txt")"
awk -v p="$plain" -v h="$hooked" -v d="$draws" 'BEGIN {
  printf "  without the recorder  %9.3f ms a frame\n  with the recorder     %9.3f ms a frame\n", p, h
  printf "  difference            %+9.3f ms (%+.2f%%), %+.2f us a draw\n", h - p, (h - p) / p * 100, (h - p) / d * 1000 }'
printf 'a capture: %s draws at %sx%s (%s recorded), %s\n' "$triggered_draws" "$width" "$height" "$recorded" \
  "$capture"
awk -v b="$before_ms" -v r="$recorded_ms" -v d="$recorded" -v s="$bytes" 'BEGIN {
  printf "  frame before %.1f ms, recorded frame %.1f ms: %.2f ms a draw more\n", b, r, (r - b) / d
  printf "  capture %d bytes: %.0f bytes a draw\n", s, s / d }'
