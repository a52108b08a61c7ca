#!/usr/bin/env bash
# Builds everything and serves the viewer on localhost: installs what is missing (scripts/setup.sh), builds the wasm
# module into www/pkg/ (scripts/build-wasm.sh), bundles the TypeScript into www/dist/ (scripts/build-www.mjs), and
# serves www/ with fixtures/ (scripts/serve.mjs), printing the URL. Nothing is fetched from outside at run time.
#
#   npm start                                    port 8080 (or a free one), the first fixtures/captures/*.iridia
#   PORT=9000 IRIDIA_CAPTURE=fixtures/captures/x.iridia npm start
#   npm start -- --capture fixtures/captures/x.iridia
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build-wasm.sh
node scripts/build-www.mjs
exec node scripts/serve.mjs --port "${PORT:-8080}" "$@"
