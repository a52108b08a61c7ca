#!/usr/bin/env bash
# Builds the library for wasm32-unknown-unknown and runs wasm-bindgen over it, into www/pkg/.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --locked --lib --release --target wasm32-unknown-unknown
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
wasm-bindgen --target web --out-dir www/pkg "$target_dir/wasm32-unknown-unknown/release/iridia.wasm"
