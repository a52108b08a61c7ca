#!/usr/bin/env bash
# The viewer's tests: type checks, the no-any check, the bundle, the unit tests (node's test runner) and the browser
# tests (playwright-core driving Debian's chromium headless against a server on a free port; screenshots in
# test-output/screenshots/). `npm run test:browser` runs this; scripts/test.sh runs it after the wasm build. The
# real-capture tests need the wasm module (scripts/build-wasm.sh) and run `cargo run --example
# expected_differences` for the numbers the page must show. With --update-docs, the README's screenshot
# (docs/screenshot.png) is replaced by the one this run took.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*" >&2; }

scripts/setup.sh --browser
step "tsc --noEmit (viewer, tests and scripts)"
node_modules/.bin/tsc -p www/tsconfig.json
node_modules/.bin/tsc -p tests/tsconfig.json
step "no any"
node scripts/check-no-any.mjs
step "bundle"
node scripts/build-www.mjs --tests
step "viewer unit tests"
node --test test-output/build/www/
step "browser tests"
# the real-capture tests load the wasm module; scripts/test.sh has just built it, a lone run builds it when missing
[ -f www/pkg/iridia_bg.wasm ] || scripts/build-wasm.sh
# one file at a time (each launches chromium; the real-capture tests time the replay), screenshots afresh
rm -rf test-output/screenshots test-output/measurements.json
node --test --test-concurrency=1 test-output/build/browser/
if [ "${1:-}" = "--update-docs" ]; then
  cp test-output/screenshots/readme.png docs/screenshot.png
  echo "updated docs/screenshot.png" >&2
fi
