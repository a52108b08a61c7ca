#!/usr/bin/env bash
# The viewer's tests: type checks, the no-any check, the bundle, the unit tests (node's test runner) and the browser
# tests (playwright-core driving Debian's chromium headless against a server on a free port; screenshots in
# test-output/screenshots/). `npm run test:browser` runs this; scripts/test.sh runs it after the wasm build.
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
node --test test-output/build/browser/
