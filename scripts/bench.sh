#!/usr/bin/env bash
# The speed benchmarks of docs/performance.md, side by side with the reference in one run: each times the same draw
# descriptions (benches/reference/generate.py) through a real D3D11 (llvmpipe through ../shared/tools/d3d11-ref's
# refrender) and through `iridia draw` (release build), and prints both and their ratio.
#
# A figure is per draw: (time of an N-draw run - time of a 1-draw run) / (N - 1), so process start, reading and
# dumping cancel out; each run is repeated RUNS times and the median taken. Run it with nothing else busy.
#
#   scripts/bench.sh            # P1 and P1b
#   RUNS=5 scripts/bench.sh     # more repetitions (default 3)
#   ONLY=p1 scripts/bench.sh    # one of them (p1, p1b, p2, p3, browser)
#
# P1 is one draw of N instances of a full-target quad (N full-target passes), since refrender creates every entry
# of "draws" anew (programs included); P1b's reference figure includes that creation for each of its draws.
#
# P2 times `iridia inspect` of one pixel of a 1080p draw of 100,352 triangles (the reference renders the draw once,
# for the capture's recorded after); it has no reference figure, its target is 30 ms. The whole command is timed:
# process start, reading the draw (its blobs inflated and checked) and the pixel's history.
#
# P3 times `iridia info` (open and list the draws) of a capture of about 1 GB (examples/large_capture.rs: P1b's draw
# recorded until its blobs hold 1000 MiB); its target is 1 s.
#
# "browser" times the wasm build in headless chromium (scripts/bench-browser.mjs) on captures of the same draws,
# packed with the reference's renders as their recorded afters: a P1 pass, a P1b draw (of a 10-draw frame, through
# "Replay all"), the P2 pixel click after the draw's replay, and opening the P3 capture; each beside the native
# figure where there is one.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
REF=${D3D11_REF:-$REPO/../shared/tools/d3d11-ref}
RUNS=${RUNS:-3}
P1_N=${P1_N:-5}
# the reference is much faster: more passes, so that they stand out of Wine's start-up time
P1_REF_N=${P1_REF_N:-100}
P1B_N=${P1B_N:-300}
ONLY=${ONLY:-p1,p1b,p2,p3,browser}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

step() { printf '== %s\n' "$*" >&2; }

step "release build of iridia"
cargo build --quiet --release --locked --bin iridia
IRIDIA=${CARGO_TARGET_DIR:-$REPO/target}/release/iridia

step "programs (committed DXBC; HLSL beside it)"
SHADERS=$REPO/benches/reference/shaders
for p in vs_lit ps_lit; do
  if [ ! -f "$SHADERS/$p.dxbc" ]; then
    profile=${p%%_*}_5_0
    flock /tmp/d3d11-ref.lock "$REF/hlslc.sh" -asm "$SHADERS/$p.asm" "$SHADERS/$p.hlsl" main "$profile" "$SHADERS/$p.dxbc"
  fi
  cp "$SHADERS/$p.dxbc" "$WORK/"
done

step "descriptions"
python3 "$REPO/benches/reference/generate.py" "$WORK" "1,$P1_N,$P1_REF_N" "1,$P1B_N"  # also p2.json

# seconds (wall clock, as a decimal) one run of "$@" takes
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s.%N)
  python3 -c "print($end - $start)"
}

# the median of RUNS timings of "$@"
median() {
  local times=()
  for _ in $(seq "$RUNS"); do times+=("$(seconds "$@")"); done
  printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

# per-draw milliseconds of a runner for descriptions NAME_1 and NAME_N: runner NAME OUT
per_draw() {
  local runner=$1 name=$2 n=$3 one many
  one=$(median "$runner" "$WORK/${name}_1.json" "$WORK/out_${name}_1")
  many=$(median "$runner" "$WORK/${name}_$n.json" "$WORK/out_${name}_$n")
  python3 -c "print(($many - $one) / ($n - 1) * 1000)"
}

reference() { flock /tmp/d3d11-ref.lock "$REF/refrender.sh" -q "$1" "$2"; }
iridia() { "$IRIDIA" draw --out "$2" "$1"; }

# warm both up once (Wine's prefix, the page cache)
reference "$WORK/p1_1.json" "$WORK/warm" || { echo "the reference failed on P1; see $REF/README.md" >&2; exit 1; }
iridia "$WORK/p1_1.json" "$WORK/warm"

printf '\n%-44s %14s %14s %10s\n' "benchmark (median of $RUNS runs)" "llvmpipe ms" "iridia ms" "ratio"
row() {
  local what=$1 name=$2 n=$3 ref_n=${4:-$3} ref ours
  step "$what"
  ref=$(per_draw reference "$name" "$ref_n")
  ours=$(per_draw iridia "$name" "$n")
  printf '%-44s %14.1f %14.1f %9.1fx\n' "$what" "$ref" "$ours" "$(python3 -c "print($ours / $ref)")"
}
case ",$ONLY," in *,p1,*) row "P1 1920x1080 textured lit pass (per pass)" p1 "$P1_N" "$P1_REF_N" ;; esac
case ",$ONLY," in
  *,p1b,*)
    row "P1b 1080p mesh draws, overdraw ~3 (per draw)" p1b "$P1B_N"
    echo "(P1b per frame: multiply its per-draw figures by $P1B_N)"
    ;;
esac
case ",$ONLY," in
  *,p2,*)
    step "P2: the reference renders the draw once; iridia pack makes the capture"
    reference "$WORK/p2.json" "$WORK/p2_ref"
    "$IRIDIA" pack --recorded "$WORK/p2_ref" -o "$WORK/p2.iridia" "$WORK/p2.json" >/dev/null
    for pixel in 960,540 1087,23 5,1070; do
      step "P2 inspect pixel $pixel"
      ms=$(python3 -c "print($(median "$IRIDIA" inspect "$WORK/p2.iridia" --draw 0 --pixel "$pixel") * 1000)")
      printf '%-44s %14s %14.1f %10s\n' "P2 inspect $pixel, 100k triangles" "-" "$ms" "(30 ms)"
    done
    ;;
esac
P3_MIB=${P3_MIB:-1000}
case ",$ONLY," in
  *,p3,*|*,browser,*)
    step "P3: a capture of $P3_MIB MiB (examples/large_capture.rs)"
    cargo build --quiet --release --locked --example large_capture
    "${CARGO_TARGET_DIR:-$REPO/target}/release/examples/large_capture" "$WORK/p1b_1.json" "$WORK/large.iridia" "$P3_MIB" 2>/dev/null
    ;;
esac
case ",$ONLY," in
  *,p3,*)
    ms=$(python3 -c "print($(median "$IRIDIA" info "$WORK/large.iridia") * 1000)")
    printf '%-44s %14s %14.1f %10s\n' "P3 iridia info of $(du -h "$WORK/large.iridia" | cut -f1)B capture" "-" "$ms" "(1000 ms)"
    ;;
esac
case ",$ONLY," in
  *,browser,*)
    step "browser: captures of P1 (1 and 2 passes), a 10-draw P1b frame and P2, each draw's after rendered by the reference"
    BROWSER=$WORK/browser
    mkdir -p "$BROWSER"
    python3 "$REPO/benches/reference/generate.py" "$WORK" "1,2" "1,10" >/dev/null
    for n in p1_1 p1_2; do
      reference "$WORK/$n.json" "$WORK/ref_$n"
      "$IRIDIA" pack --recorded "$WORK/ref_$n" -o "$BROWSER/$n.iridia" "$WORK/$n.json" >/dev/null
    done
    # each draw of the frame needs its own recorded after: the reference renders the frame's first k draws
    recorded=()
    for k in $(seq 1 10); do
      python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['draws']=d['draws'][:$k]; json.dump(d,open(sys.argv[2],'w'))" \
        "$WORK/p1b_10.json" "$WORK/p1b_10_upto$k.json"
      reference "$WORK/p1b_10_upto$k.json" "$WORK/ref_upto$k"
      recorded+=(--recorded "$WORK/ref_upto$k")
    done
    "$IRIDIA" pack "${recorded[@]}" -o "$BROWSER/p1b_10.iridia" "$WORK/p1b_10.json" >/dev/null
    [ -f "$WORK/p2.iridia" ] || {
      reference "$WORK/p2.json" "$WORK/p2_ref"
      "$IRIDIA" pack --recorded "$WORK/p2_ref" -o "$WORK/p2.iridia" "$WORK/p2.json" >/dev/null
    }
    cp "$WORK/p2.iridia" "$WORK/large.iridia" "$BROWSER/"
    step "browser: the viewer's build and the wasm module"
    scripts/setup.sh --browser >/dev/null
    scripts/build-wasm.sh >/dev/null
    node scripts/build-www.mjs >/dev/null
    step "browser: timing in headless chromium"
    figures=$(node scripts/bench-browser.mjs "$BROWSER" "${BROWSER_RUNS:-1}")
    native_p1=$(per_draw iridia p1 "$P1_N")
    get() { python3 -c "import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2], float('nan')))" "$figures" "$1"; }
    printf '\n%-44s %14s %14s %10s\n' "wasm in chromium (one worker)" "native ms" "wasm ms" "ratio"
    printf '%-44s %14.1f %14.1f %9.1fx\n' "P1 1080p pass" "$native_p1" "$(get p1_pass)" "$(python3 -c "print($(get p1_pass) / $native_p1)")"
    printf '%-44s %14s %14.1f %10s\n' "P1b draw of a 10-draw frame (Replay all)" "-" "$(get p1b_draw)" ""
    printf '%-44s %14s %14.1f %10s\n' "P2 pixel click after the replay" "-" "$(get p2_click)" "(50 ms)"
    printf '%-44s %14s %14.1f %10s\n' "P3 open a $(du -h "$WORK/large.iridia" | cut -f1)B capture" "-" "$(get p3_open)" "(1000 ms)"
    ;;
esac
