#!/usr/bin/env bash
# The recorder's cost under Wine (Wine's d3d11 on Mesa's llvmpipe, so the GPU is the CPU):
#  1. no capture triggered: testapp.exe's bench mode (DRAWS draws a frame at WIDTH x HEIGHT, each with its dynamic
#     constant buffer mapped anew, then Present) with and without the recorder, RUNS runs each, alternating; prints
#     each configuration's frame time, submission time (the program's CPU time in the calls, where the draw and Map
#     hooks add theirs) and Present time (where the Present hook adds its own) — 25th percentile and median over
#     frames 2 onwards of each run — and the differences;
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

# A column of the bench runs' frame lines (3: frame ms, 6: submission ms, 9: Present ms), warm-up frames 0 and 1
# left out.
column() { awk -v c="$1" '$1 == "frame" && $2 + 0 >= 2 { print $c }' "${@:2}"; }
# The P-th percentile (0 to 100, nearest rank) of the numbers on stdin.
percentile() { sort -g | awk -v p="$1" '{ v[NR] = $1 } END { if (NR == 0) exit 1; r = int(NR * p / 100 + 0.999); print v[r < 1 ? 1 : r] }'; }

wine_step "bench: $draws draws a frame at ${width}x$height, $frames frames, $runs runs with and without the recorder"
# One bench run into FILE; Wine 8 sometimes crashes in the program's exit after the last frame (with or without the
# recorder), which is not what is measured: a run counts when every frame was printed.
bench_run() {
  local file=$1
  shift
  local status=0
  wine_testapp "$shaders" bench "$@" >"$file" || status=$?
  if [ "$(grep -c '^frame ' "$file")" -ne "$2" ]; then
    echo "bench: testapp.exe bench $* stopped early (exit $status): $(cat "$file")" >&2
    exit 1
  fi
  [ "$status" = 0 ] || echo "bench: (testapp.exe exited with $status after its last frame)" >&2
}
for run in $(seq "$runs"); do
  RECORDER=0 bench_run "$out/plain-$run.txt" "$draws" "$frames" "$width" "$height"
  RECORDER=1 bench_run "$out/recorder-$run.txt" "$draws" "$frames" "$width" "$height"
  echo "run $run done" >&2
done
grep -q "hooked DrawIndexed" "$out/recorder.log" || { echo "bench: the recorder did not hook the draws" >&2; exit 1; }

wine_step "bench: a capture of a frame of $triggered_draws draws at ${width}x$height"
rm -f "$out/recorder.log"
IRIDIA_CAPTURE_FRAME=3 RECORDER=1 bench_run "$out/triggered.txt" "$triggered_draws" 5 "$width" "$height"
capture=$(ls "$out"/*.iridia)
before_ms=$(awk '$2 == "2:" { print $3 }' "$out/triggered.txt")
recorded_ms=$(awk '$2 == "3:" { print $3 }' "$out/triggered.txt")
bytes=$(stat -c %s "$capture")
recorded=$(sed -n 's/.*capture ended: \([0-9]*\) draws recorded.*/\1/p' "$out/recorder.log")

printf '\nrecorder overhead, no capture: %s draws a frame at %sx%s, %s frames each (after 2 warm-up frames a run)\n' \
  "$draws" "$width" "$height" "$(column 3 "$out"/plain-*.txt | wc -l)"
# The 25th percentile is the steadier figure on a shared machine: other work only ever adds time to a frame.
for p in 25 50; do
  for c in 3 6 9; do
    without=$(column $c "$out"/plain-*.txt | percentile $p)
    with=$(column $c "$out"/recorder-*.txt | percentile $p)
    awk -v p="$p" -v c="$c" -v a="$without" -v b="$with" -v d="$draws" 'BEGIN {
      printf "  %-10s p%d  without %9.3f ms, with %9.3f ms: %+8.3f ms (%+.2f%%), %+.3f us a draw\n",
        (c == 3 ? "frame" : c == 6 ? "submission" : "Present"), p, a, b, b - a, (b - a) / a * 100, (b - a) / d * 1000 }'
  done
done
printf 'a capture: %s draws at %sx%s (%s recorded), %s\n' "$triggered_draws" "$width" "$height" "$recorded" \
  "$capture"
awk -v b="$before_ms" -v r="$recorded_ms" -v d="$recorded" -v s="$bytes" 'BEGIN {
  printf "  frame before %.1f ms, recorded frame %.1f ms: %.2f ms a draw more\n", b, r, (r - b) / d
  printf "  capture %d bytes: %.0f bytes a draw\n", s, s / d }'
