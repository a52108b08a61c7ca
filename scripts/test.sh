#!/usr/bin/env bash
# Every test Iridia has: formatting, lints, the Rust tests, the wasm build. `npm test` runs this; so does `.ci/run`.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*" >&2; }

step setup
scripts/setup.sh
step "cargo fmt --check"
cargo fmt --all --check
step "cargo clippy"
cargo clippy --locked --workspace --all-targets -- -D warnings
step "cargo test"
cargo test --locked --workspace
step "wasm build"
scripts/build-wasm.sh
step "all tests passed"
