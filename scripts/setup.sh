#!/usr/bin/env bash
# Installs the Debian packages firelab needs (only the missing ones; sudo when not root), then
# configures and builds it (Release, incremental). Sourced by scripts/firelab and scripts/test.sh.
# Environment: FIRELAB_BUILD_DIR (default build/), FIRELAB_CMAKE_ARGS (extra configure arguments),
# FIRELAB_SKIP_BUILD=1 (install only), FIRELAB_SETUP_FUNCTIONS_ONLY=1 (define firelab_install_missing and
# firelab_build [TARGET...] and run neither: the caller times them as stages).
set -euo pipefail

FIRELAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FIRELAB_BUILD_DIR="${FIRELAB_BUILD_DIR:-$FIRELAB_ROOT/build}"

FIRELAB_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libsdl2-dev libepoxy-dev libglm-dev libimgui-dev libgtest-dev libbenchmark-dev
  libstb-dev libcli11-dev libtomlplusplus-dev nlohmann-json3-dev
  libfftw3-dev                   # spectra of a fire's record (src/physics)
  libegl-mesa0 libgl1-mesa-dri   # Mesa's EGL and llvmpipe: headless OpenGL without a GPU
  python3-matplotlib             # plots (scripts/plot.py, run by /usr/bin/python3)
  python3-numpy                  # the CFD reference's reducer (scripts/cfd_reduce.py) and its test
  xvfb xauth                     # a real X window for the viewer's tests
  chromium fonts-dejavu-core     # headless browser test of report.html (tests/report)
)
# Extra packages for one caller (e.g. clang and its sanitizer/libFuzzer runtime for scripts/sanitize_fuzz.sh).
# shellcheck disable=SC2206
FIRELAB_PACKAGES+=(${FIRELAB_EXTRA_PACKAGES:-})

firelab_install_missing() {
  local missing=()
  for p in "${FIRELAB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "firelab: installing missing packages: ${missing[*]}" >&2
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q >&2 || return
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

# firelab_build [TARGET...]: configures when needed, then builds the targets (every target when none is named).
firelab_build() {
  local args=(-S "$FIRELAB_ROOT" -B "$FIRELAB_BUILD_DIR" -G Ninja) targets=()
  # shellcheck disable=SC2206
  [ -n "${FIRELAB_CMAKE_ARGS:-}" ] && args+=($FIRELAB_CMAKE_ARGS)
  if [ ! -f "$FIRELAB_BUILD_DIR/build.ninja" ] || [ -n "${FIRELAB_CMAKE_ARGS:-}" ]; then
    cmake "${args[@]}" >&2 || return
  fi
  [ $# -eq 0 ] || targets=(--target "$@")
  cmake --build "$FIRELAB_BUILD_DIR" --parallel "$(nproc)" "${targets[@]}" >&2
}

if [ "${FIRELAB_SETUP_FUNCTIONS_ONLY:-0}" != 1 ]; then
  firelab_install_missing
  [ "${FIRELAB_SKIP_BUILD:-0}" = 1 ] || firelab_build
fi
