#!/usr/bin/env bash
# Builds everything and serves the viewer. Until the viewer exists (issue 6), it builds the wasm module and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-wasm.sh
echo "The wasm module is built in www/pkg/; the viewer that serves it is not written yet." >&2
