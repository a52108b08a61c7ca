#!/usr/bin/env bash
# Every test Iridia has: formatting, lints, the Rust tests, the recorder under Wine (scripts/test-recorder.sh), the
# wasm build, then the viewer's type checks, bundle, unit and browser tests (scripts/test-browser.sh). `npm test` runs
# this; so does `.ci/run`.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*" >&2; }

step setup
scripts/setup.sh --browser --wine
step "cargo fmt --check"
cargo fmt --all --check
step "cargo clippy"
cargo clippy --locked --workspace --all-targets -- -D warnings
step "cargo test"
cargo test --locked --workspace
scripts/test-recorder.sh
step "wasm build"
scripts/build-wasm.sh
scripts/test-browser.sh
step "all tests passed"
