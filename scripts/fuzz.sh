#!/usr/bin/env bash
# Fuzzes Iridia's parsers and replay with cargo-fuzz (libFuzzer) on the nightly toolchain (docs/fuzzing.md): the
# targets of fuzz/fuzz_targets, built without sanitizers (safe Rust; overflow checks and debug assertions stay on),
# each run from a seed corpus made from the fixtures. Installs cargo-fuzz when missing. Crashes go to
# $FUZZ_DIR/artifacts/TARGET/; a run's figures (executions, corpus size, peak memory) to $FUZZ_DIR/TARGET.log.
#
#   scripts/fuzz.sh                          # every target for FUZZ_SECONDS (60) each
#   FUZZ_RUNS=10000000 scripts/fuzz.sh dxbc  # one target for ten million executions
#
# Environment: FUZZ_DIR (default /tmp/iridia-fuzz: corpora, artifacts, logs), FUZZ_SECONDS, FUZZ_RUNS (instead of
# seconds), CARGO_TARGET_DIR (default target-fuzz beside the repository's target, as the fuzz build's flags differ).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
TARGETS=(capture_open replay inspect dxbc description)
[ $# -gt 0 ] && TARGETS=("$@")
FUZZ_DIR=${FUZZ_DIR:-/tmp/iridia-fuzz}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/target-fuzz}

if ! rustup toolchain list | grep -q '^nightly'; then
  echo "fuzz.sh: cargo-fuzz needs the nightly toolchain (rustup toolchain install nightly)" >&2
  exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz 0.13.2" >&2
  cargo install cargo-fuzz --version 0.13.2 --locked
fi
cargo +nightly fuzz build --sanitizer none --release --debug-assertions >&2
BIN=$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release

# seed corpora: small captures packed from the draw cases (a few KB each, so a run does thousands a second) and the
# smallest sample capture; every DXBC blob and every draw description among the fixtures
seed() {
  local target=$1 dir=$FUZZ_DIR/corpus/$1
  [ -d "$dir" ] && return
  mkdir -p "$dir"
  case "$target" in
    capture_open|replay|inspect)
      cargo build --quiet --release --bin iridia
      for description in fixtures/draw/cases/*.json; do
        "$CARGO_TARGET_DIR/release/iridia" pack -o "$dir/$(basename "$description" .json).iridia" "$description" \
          >/dev/null 2>&1 || true
      done
      cp fixtures/captures/03-post-process.iridia "$dir/" ;;
    dxbc) find fixtures -name '*.dxbc' -exec cp {} "$dir/" \; ;;
    description)
      local i=0
      while IFS= read -r file; do cp "$file" "$dir/$i.json"; i=$((i + 1)); done < <(find fixtures -name '*.json' -size -64k)
      ;;
  esac
}

status=0
for target in "${TARGETS[@]}"; do
  seed "$target"
  mkdir -p "$FUZZ_DIR/artifacts/$target"
  if [ -n "${FUZZ_RUNS:-}" ]; then limit=(-runs="$FUZZ_RUNS"); else limit=(-max_total_time="${FUZZ_SECONDS:-60}"); fi
  echo "fuzz.sh: $target (${limit[*]})" >&2
  if ! "$BIN/$target" "$FUZZ_DIR/corpus/$target" "${limit[@]}" -max_len=32768 -timeout=20 -rss_limit_mb=2048 \
    -artifact_prefix="$FUZZ_DIR/artifacts/$target/" -print_final_stats=1 >"$FUZZ_DIR/$target.log" 2>&1; then
    echo "fuzz.sh: $target failed: see $FUZZ_DIR/$target.log and $FUZZ_DIR/artifacts/$target/" >&2
    status=1
  fi
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' "$FUZZ_DIR/$target.log" \
    | sed "s/^/  $target /" >&2
  echo "  $target corpus: $(find "$FUZZ_DIR/corpus/$target" -type f | wc -l) inputs" >&2
done
exit $status
