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
  x86_64-w64-mingw32-gcc -O2 -Wall -Werror -o "$bin/testapp.exe" "$wine_src/testapp.c" -ld3d11 -ldxgi -ldxguid -ld3d9
  x86_64-w64-mingw32-gcc -O2 -Wall -Werror -shared -o "$bin/bcryptprimitives.dll" "$wine_src/bcryptprimitives.c" \
    "$wine_src/bcryptprimitives.def" -ladvapi32
}

# Makes the Wine prefix (once) and starts the X server, its screen $1 (WIDTHxHEIGHT, default 640x480: Wine keeps a
# window no larger than the screen); exports WINEPREFIX, WINEARCH, WINEDEBUG and DISPLAY.
wine_start() {
  local screen=${1:-640x480}
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
  Xvfb -displayfd 3 -screen 0 "${screen}x24" -nolisten tcp 3>"$wine_display_file" 2>/dev/null &
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

# Dear ImGui (MIT, ocornut/imgui), a real program nobody here wrote: shared/thirdparty/imgui beside the repository's
# clone (CI clones the repository with shared/ beside it), or IRIDIA_IMGUI_DIR (a git worktree elsewhere names the
# copy beside the main clone). Read from there, never copied into the project.
imgui_src=${IRIDIA_IMGUI_DIR:-$PWD/../shared/thirdparty/imgui}
# The X server's screen for it (wine_start): the example's window is 1280x800 at (100, 100), and Wine, like Windows,
# keeps a window no larger than the screen (a 640x480 screen leaves a 644x465 client area, off which the demo window
# lies).
imgui_screen=1600x1000

# Builds Dear ImGui's DirectX 11 example (examples/example_win32_directx11/main.cpp, which draws the demo window
# every frame until its window is closed) with mingw-w64's g++ into $bin/imgui-dx11.exe, with our own
# recorder/tests/imgui/markers.cpp linked in: the linker's --wrap makes the example's calls of the DirectX 11
# backend's Init, RenderDrawData and Shutdown go through it, which wraps each frame's render in the program's
# markers (BeginEvent(L"ImGui")/EndEvent) and leaves ImGui's sources as they are. Compiling ImGui takes a
# minute or two, so the build is kept: it is redone only when a source or header, the command or the compiler
# changes (their hash is kept beside the program).
imgui_build() {
  wine_step "recorder: build Dear ImGui's DirectX 11 example (imgui-dx11.exe)"
  if [ ! -f "$imgui_src/examples/example_win32_directx11/main.cpp" ] || [ ! -f "$imgui_src/imgui.cpp" ]; then
    echo "recorder: Dear ImGui is not at $imgui_src: the tests expect shared/thirdparty/imgui beside the" \
      "repository's clone (\$repo/../shared/thirdparty/imgui), or IRIDIA_IMGUI_DIR naming a copy" >&2
    exit 1
  fi
  if ! command -v x86_64-w64-mingw32-g++ >/dev/null; then
    echo "recorder: x86_64-w64-mingw32-g++ is missing: run scripts/setup.sh --wine" >&2
    exit 1
  fi
  local exe="$bin/imgui-dx11.exe"
  local command=(x86_64-w64-mingw32-g++ -O2 -std=c++17 -static -I "$imgui_src" -I "$imgui_src/backends"
    "$imgui_src/examples/example_win32_directx11/main.cpp" "$imgui_src"/imgui*.cpp
    "$imgui_src/backends/imgui_impl_dx11.cpp" "$imgui_src/backends/imgui_impl_win32.cpp"
    recorder/tests/imgui/markers.cpp
    -Wl,--wrap=_Z19ImGui_ImplDX11_InitP12ID3D11DeviceP19ID3D11DeviceContext
    -Wl,--wrap=_Z29ImGui_ImplDX11_RenderDrawDataP10ImDrawData -Wl,--wrap=_Z23ImGui_ImplDX11_Shutdownv
    -o "$exe.tmp" -ld3d11 -ld3dcompiler -ldxgi -lgdi32 -ldwmapi -limm32)
  local stamp
  stamp=$({
    printf '%s\n' "${command[@]}"
    x86_64-w64-mingw32-g++ --version
    (cd "$imgui_src" && find . -type f \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z | xargs -0 sha256sum)
    sha256sum recorder/tests/imgui/markers.cpp
  } | sha256sum | cut -d' ' -f1)
  if [ -f "$exe" ] && [ "$(cat "$exe.sha256" 2>/dev/null)" = "$stamp" ]; then
    echo "recorder: $exe is up to date with $imgui_src" >&2
    return
  fi
  rm -f "$exe" "$exe.sha256"
  "${command[@]}"
  mv "$exe.tmp" "$exe"
  printf '%s\n' "$stamp" >"$exe.sha256"
}

# Runs recorder/tests/imgui.rs: Dear ImGui's example under Wine with the recorder recording one frame into the folder
# $1 (emptied first), the capture checked and re-run with `iridia replay --all` (its report in $1/replay.txt).
# Needs imgui_build, wine_build, `cargo build --bin iridia` and wine_start done; IRIDIA_IMGUI_DEFLATE_LEVEL, if set,
# is the recorder's deflate_level.
imgui_test() {
  IRIDIA_IMGUI_BIN="$bin" IRIDIA_IMGUI_OUT="$1" IRIDIA_IMGUI_CLI="$target_dir/debug/iridia" \
    cargo test --locked -p iridia-recorder --test imgui -- --ignored --test-threads=1
}
