# Sourced by the recorder's scripts (test-recorder.sh, bench-recorder.sh, record-fixture.sh): builds the recorder
# (recorder/, a d3d11.dll for x86_64-pc-windows-gnu), the test program (recorder/tests/wine/testapp.c) and the
# bcryptprimitives shim with mingw-w64 into $bin; makes a Wine prefix of their own under the target folder (reused
# once made); starts a private X server (stopped on exit, with the prefix's wineserver). Needs what
# `scripts/setup.sh --wine` installs. Expects to be sourced from the repository's root with `set -euo pipefail`.

target_dir=${CARGO_TARGET_DIR:-$PWD/target}
work="$target_dir/wine-test"
bin="$work/bin"
wine_src=recorder/tests/wine
mkdir -p "$bin"
wine_step() { printf '\n== %s\n' "$*" >&2; }

# A path as Wine's Z: drive names it.
windows_path() { printf 'Z:%s' "$1" | tr / '\\'; }

# Builds d3d11.dll, testapp.exe and bcryptprimitives.dll into $bin.
wine_build() {
  wine_step "recorder: build d3d11.dll, testapp.exe, bcryptprimitives.dll"
  cargo build --locked -p iridia-recorder --target x86_64-pc-windows-gnu
  cp "$target_dir/x86_64-pc-windows-gnu/debug/d3d11.dll" "$bin/d3d11.dll"
  x86_64-w64-mingw32-gcc -O2 -Wall -Werror -o "$bin/testapp.exe" "$wine_src/testapp.c" -ld3d11 -ldxgi -ldxguid
  x86_64-w64-mingw32-gcc -O2 -Wall -Werror -shared -o "$bin/bcryptprimitives.dll" "$wine_src/bcryptprimitives.c" \
    "$wine_src/bcryptprimitives.def" -ladvapi32
}

# Makes the Wine prefix (once) and starts the X server; exports WINEPREFIX, WINEARCH, WINEDEBUG and DISPLAY.
wine_start() {
  export WINEPREFIX="$work/prefix" WINEARCH=win64 WINEDEBUG=-all
  if [ ! -f "$WINEPREFIX/.iridia-ready" ]; then
    wine_step "recorder: a Wine prefix in $WINEPREFIX (the first boot takes a minute or so)"
    rm -rf "$WINEPREFIX"
    if ! WINEDLLOVERRIDES="mscoree,mshtml=" timeout 300 wineboot -i >/dev/null 2>&1 || ! timeout 120 wineserver -w; then
      echo "recorder: Wine could not make its prefix in $WINEPREFIX within 7 minutes (wineboot -i);" \
        "is scripts/setup.sh --wine done and does 'wine --version' work?" >&2
      exit 1
    fi
    touch "$WINEPREFIX/.iridia-ready"
  fi
  wine_display_file=$(mktemp)
  Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3>"$wine_display_file" 2>/dev/null &
  wine_xvfb_pid=$!
  trap wine_stop EXIT
  for _ in $(seq 100); do [ -s "$wine_display_file" ] && break; sleep 0.1; done
  if [ ! -s "$wine_display_file" ]; then
    echo "recorder: Xvfb did not start within 10 s" >&2
    exit 1
  fi
  export DISPLAY=":$(head -n1 "$wine_display_file")"
}

# Stops the prefix's wineserver and the X server.
wine_stop() {
  wineserver -k 2>/dev/null || true
  kill "$wine_xvfb_pid" 2>/dev/null || true
  rm -f "$wine_display_file"
}

# Runs testapp.exe under Wine with its arguments: with the recorder when RECORDER=1 (the default), without it
# (Wine's own d3d11) when RECORDER=0; the IRIDIA_* settings come from the caller's environment.
wine_testapp() {
  local overrides="mscoree,mshtml=;d3d11,bcryptprimitives=n,b"
  [ "${RECORDER:-1}" = 1 ] || overrides="mscoree,mshtml=;d3d11=b;bcryptprimitives=n,b"
  WINEDLLOVERRIDES="$overrides" timeout 600 wine "$bin/testapp.exe" "$@"
}
