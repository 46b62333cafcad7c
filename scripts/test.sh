#!/usr/bin/env bash
# Installs what is missing, builds, then runs the tests through ctest (GL tests headless), as a fresh machine
# sees them: no Mesa shader cache (a warm one hid a shader's compile warning from the tests).
#   scripts/test.sh             every tier: unit, gl and e2e (tests/CMakeLists.txt says what each holds); unit and
#                               gl a test per core at once, then e2e one at a time
#   scripts/test.sh --fast      the unit tier alone (ctest -L unit: in process, no GL, no binary), in under a
#                               minute; in a configured build folder only firelab_unit_tests is rebuilt
#   scripts/test.sh ARGS...     ctest's arguments (-L gl, -L e2e, -R Merge, -j2 ...), with --fast too
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
fast=0
args=()
for a in "$@"; do
  if [ "$a" = --fast ]; then fast=1; else args+=("$a"); fi
done
build_dir="${FIRELAB_BUILD_DIR:-$here/../build}"
# clang-format (Debian 12's, 14) for the unit tier's clang_format test (tests/format_test.sh): only the tests need it.
export FIRELAB_EXTRA_PACKAGES="${FIRELAB_EXTRA_PACKAGES:-} clang-format"
if [ "$fast" = 1 ] && [ -f "$build_dir/build.ninja" ] && [ -z "${FIRELAB_CMAKE_ARGS:-}" ]; then
  FIRELAB_SKIP_BUILD=1 source "$here/setup.sh"
  cmake --build "$FIRELAB_BUILD_DIR" --parallel "$(nproc)" --target firelab_unit_tests >&2
else
  source "$here/setup.sh"
fi
export SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-offscreen}"
export MESA_SHADER_CACHE_DISABLE=true
[ "$fast" = 1 ] && args=(-L unit "${args[@]}")
cd "$FIRELAB_BUILD_DIR"
if [ "${#args[@]}" -gt 0 ]; then
  exec ctest --output-on-failure --timeout 900 "${args[@]}"
fi
# Every tier: unit and gl a test per core at once (with no shader cache most of a gl test's time is the
# single-threaded GLSL compiler), then e2e one at a time (its tests time processes, signals and kills).
status=0
ctest --output-on-failure --timeout 900 -LE e2e --parallel "$(nproc)" || status=$?
ctest --output-on-failure --timeout 900 -L e2e || status=$?
exit "$status"
