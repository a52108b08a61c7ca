#!/usr/bin/env bash
# Installs what building and testing Iridia needs, idempotently, on a fresh Debian machine with rustup, Node.js and
# npm: the wasm32 target, the wasm-bindgen CLI at the exact version Cargo.lock has for the wasm-bindgen crate, the npm
# packages, (with --browser) Debian's chromium for the browser tests, and (with --wine) what the recorder's tests
# need: Debian's Wine, Xvfb, Mesa's software OpenGL and the mingw-w64 C and C++ cross compilers, and the Rust target
# x86_64-pc-windows-gnu. Prints what it installs; silent otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=0
wine=0
for arg in "$@"; do
  case "$arg" in
    --browser) browser=1 ;;
    --wine) wine=1 ;;
    *) echo "setup.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target" >&2
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    rustup component add "$component"
  fi
done

# the wasm-bindgen CLI must be the crate's exact version, or the generated glue does not match the module
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$want" ]; then
  echo "setup: Cargo.lock names no wasm-bindgen version" >&2
  exit 2
fi
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  echo "setup: installing wasm-bindgen-cli $want (have: ${have:-none})" >&2
  # --locked first, for the CLI's own tested dependency set; a registry mirror may lack one of those exact
  # versions (seen: webpki-roots 1.0.11), and then the newest compatible ones do
  cargo install --locked --quiet wasm-bindgen-cli --version "$want" ||
    cargo install --quiet wasm-bindgen-cli --version "$want"
fi

if [ -f package-lock.json ]; then
  stamp=node_modules/.package-lock.json
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
    echo "setup: installing npm packages" >&2
    npm ci --no-audit --no-fund --loglevel=error
  fi
fi

if [ "$browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  echo "setup: installing Debian's chromium" >&2
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi

if [ "$wine" = 1 ]; then
  missing=""
  installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
  { command -v wine >/dev/null && installed wine64; } || missing="$missing wine wine64 libwine"
  command -v Xvfb >/dev/null || missing="$missing xvfb xauth"
  command -v x86_64-w64-mingw32-gcc >/dev/null || missing="$missing gcc-mingw-w64-x86-64"
  # C++ for the Dear ImGui example the recorder's tests record (scripts/wine-env.sh, imgui_build).
  command -v x86_64-w64-mingw32-g++ >/dev/null || missing="$missing g++-mingw-w64-x86-64"
  [ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || missing="$missing libgl1-mesa-dri libgl1 libglx-mesa0 libegl1"
  if [ -n "$missing" ]; then
    echo "setup: installing Debian's$missing" >&2
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get update -qq
    # shellcheck disable=SC2086 # a list of package names
    $sudo_cmd apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
  if ! rustup target list --installed | grep -qx x86_64-pc-windows-gnu; then
    echo "setup: adding the x86_64-pc-windows-gnu target" >&2
    rustup target add x86_64-pc-windows-gnu
  fi
fi
