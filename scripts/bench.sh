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
#   ONLY=p1 scripts/bench.sh    # one of them (p1, p1b, p2)
#
# P1 is one draw of N instances of a full-target quad (N full-target passes), since refrender creates every entry
# of "draws" anew (programs included); P1b's reference figure includes that creation for each of its draws.
#
# P2 times `iridia inspect` of one pixel of a 1080p draw of 100,352 triangles (the reference renders the draw once,
# for the capture's recorded after); it has no reference figure, its target is 30 ms. The whole command is timed:
# process start, reading the draw (its blobs inflated and checked) and the pixel's history.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
REF=${D3D11_REF:-$REPO/../shared/tools/d3d11-ref}
RUNS=${RUNS:-3}
P1_N=${P1_N:-5}
# the reference is much faster: more passes, so that they stand out of Wine's start-up time
P1_REF_N=${P1_REF_N:-100}
P1B_N=${P1B_N:-300}
ONLY=${ONLY:-p1,p1b,p2}
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
