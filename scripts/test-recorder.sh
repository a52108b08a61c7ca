#!/usr/bin/env bash
# The recorder (recorder/, a d3d11.dll for x86_64-pc-windows-gnu) under Wine: lints it for its real target, builds it,
# the test program (recorder/tests/wine/testapp.c) and the bcryptprimitives shim with mingw-w64, makes a Wine prefix
# of its own under the target folder, starts a private X server, and runs recorder/tests/wine.rs. Needs what
# `scripts/setup.sh --wine` installs. About a minute once built; the first prefix takes some seconds more.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*" >&2; }

target_dir=${CARGO_TARGET_DIR:-$PWD/target}
work="$target_dir/wine-test"
bin="$work/bin"
mkdir -p "$bin"

step "recorder: cargo clippy --target x86_64-pc-windows-gnu"
cargo clippy --locked -p iridia-recorder --target x86_64-pc-windows-gnu -- -D warnings
step "recorder: build d3d11.dll, testapp.exe, bcryptprimitives.dll"
cargo build --locked -p iridia-recorder --target x86_64-pc-windows-gnu
cp "$target_dir/x86_64-pc-windows-gnu/debug/d3d11.dll" "$bin/d3d11.dll"
src=recorder/tests/wine
x86_64-w64-mingw32-gcc -O2 -Wall -Werror -o "$bin/testapp.exe" "$src/testapp.c" -ld3d11 -ldxgi -ldxguid
x86_64-w64-mingw32-gcc -O2 -Wall -Werror -shared -o "$bin/bcryptprimitives.dll" "$src/bcryptprimitives.c" \
  "$src/bcryptprimitives.def" -ladvapi32

export WINEPREFIX="$work/prefix" WINEARCH=win64 WINEDEBUG=-all
if [ ! -d "$WINEPREFIX/drive_c" ]; then
  step "recorder: a Wine prefix in $WINEPREFIX"
  WINEDLLOVERRIDES="mscoree,mshtml=" wineboot -i >/dev/null 2>&1 || true
  wineserver -w
fi

# A private X server on a free display; it and the prefix's wineserver are stopped on the way out.
display_file=$(mktemp)
Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3>"$display_file" 2>/dev/null &
xvfb_pid=$!
cleanup() {
  wineserver -k 2>/dev/null || true
  kill "$xvfb_pid" 2>/dev/null || true
  rm -f "$display_file"
}
trap cleanup EXIT
for _ in $(seq 50); do [ -s "$display_file" ] && break; sleep 0.1; done
if [ ! -s "$display_file" ]; then
  echo "test-recorder: Xvfb did not start" >&2
  exit 1
fi
export DISPLAY=":$(head -n1 "$display_file")"

step "recorder: tests under Wine"
IRIDIA_WINE_BIN="$bin" IRIDIA_WINE_SHADERS="$PWD/$src/shaders" IRIDIA_WINE_OUT="$work/out" \
  cargo test --locked -p iridia-recorder --test wine -- --ignored
