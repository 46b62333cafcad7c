#!/usr/bin/env bash
# Installs what is missing, builds, then runs the tests through ctest (GL tests headless), each stage timed.
#   scripts/test.sh               every tier: unit, gl, the benchmark smoke run and e2e (tests/CMakeLists.txt says
#                                 what each holds), a test per core at once (the e2e tests that time processes,
#                                 signals, locks or a window run alone: RUN_SERIAL); then the ten slowest tests
#   scripts/test.sh --fast        the unit tier alone (ctest -L unit: in process, no GL, no binary), in under a
#                                 minute; in a configured build folder only firelab_unit_tests is rebuilt
#   scripts/test.sh --quick [--base REV]
#                                 a change's proof before a full .ci/run: the unit tier, then the gl and e2e tests
#                                 of the rooms the change touches (the paths changed against REV, default the
#                                 upstream branch or else HEAD, untracked files included; docs/development.md)
#   scripts/test.sh ARGS...       ctest's arguments (-L gl, -L e2e, -R Merge, -j2 ...), with --fast too
#
# Shaders: every run starts an empty Mesa shader cache of its own (build/mesa-shader-cache), shared by its tests,
# so that a shader is compiled once a run rather than once a test. The shader test (Shaders.*, in the gl tier)
# turns the cache off for itself and compiles every shader on the debug context, failing on any warning: a warm
# cache once hid a shader's warning, and that test is where such a warning is caught.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode=full
base=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fast) mode=fast ;;
    --quick) mode=quick ;;
    --base)
      [ $# -ge 2 ] || { echo "test.sh: --base needs a revision (a branch, tag or commit)" >&2; exit 2; }
      base="$2"
      shift ;;
    *) args+=("$1") ;;
  esac
  shift
done
if [ -n "$base" ] && [ "$mode" != quick ]; then
  echo "test.sh: --base '$base' goes with --quick (the rooms changed against it)" >&2
  exit 2
fi
if [ "$mode" = quick ] && [ "${#args[@]}" -gt 0 ]; then
  echo "test.sh: --quick takes no ctest arguments (got '${args[*]}'); use --base REV to choose the change" >&2
  exit 2
fi

build_dir="${FIRELAB_BUILD_DIR:-$here/../build}"
# clang-format (Debian 12's, 14) for the unit tier's clang_format test (tests/format_test.sh): only the tests need it.
export FIRELAB_EXTRA_PACKAGES="${FIRELAB_EXTRA_PACKAGES:-} clang-format"
FIRELAB_SETUP_FUNCTIONS_ONLY=1 source "$here/setup.sh"
source "$here/stages.sh"

stage "packages" firelab_install_missing
[ "$stage_status" = 0 ] || { stage_summary; exit "$stage_status"; }
if [ "$mode" = fast ] && [ -f "$build_dir/build.ninja" ] && [ -z "${FIRELAB_CMAKE_ARGS:-}" ]; then
  stage "build (unit tests)" firelab_build firelab_unit_tests
else
  stage "build" firelab_build
fi
[ "$stage_status" = 0 ] || { stage_summary; exit "$stage_status"; }

export SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-offscreen}"
export MESA_SHADER_CACHE_DIR="$FIRELAB_BUILD_DIR/mesa-shader-cache"
export MESA_SHADER_CACHE_DISABLE="${MESA_SHADER_CACHE_DISABLE:-false}"  # a caller's true (no cache at all) wins
rm -rf "$MESA_SHADER_CACHE_DIR"
mkdir -p "$MESA_SHADER_CACHE_DIR"
cd "$FIRELAB_BUILD_DIR"
logs="$FIRELAB_BUILD_DIR/test-logs"
rm -rf "$logs"
mkdir -p "$logs"

[ "$mode" = fast ] && args=(-L unit --parallel "$(nproc)" "${args[@]}")
if [ "${#args[@]}" -gt 0 ]; then
  exec ctest --output-on-failure --timeout 900 "${args[@]}"
fi

# tier NAME CTEST-ARGS...: one ctest run, its output kept in test-logs/NAME.log for the slowest-tests table.
tier() {
  local name="$1"
  shift
  ctest --output-on-failure --timeout 900 --parallel "$(nproc)" "$@" 2>&1 | tee "$logs/$name.log"
}

# The ten slowest tests of this run, from ctest's lines ("  3/214 Test  #12: Suite.Name ....   Passed   3.21 sec").
slowest() {
  echo "== the ten slowest tests (wall clock, a test per core at once)"
  sed -nE 's/^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: ([^ ]+) .* ([0-9]+\.[0-9]+) sec$/\2 \1/p' "$logs"/*.log |
    sort -rn | awk 'NR <= 10 { printf "  %8.1f s  %s\n", $1, $2 }'
}

# The rooms (ctest labels of the gl and e2e tests, by their folder under tests/) that the paths changed against
# BASE touch, one per line. A path outside every room (a build file, a script) adds none: the unit tier holds it.
rooms_changed() {
  local rev="$1" path
  { git -C "$FIRELAB_ROOT" diff --name-only "$rev" -- && git -C "$FIRELAB_ROOT" ls-files --others --exclude-standard; } |
    while read -r path; do
      case "$path" in
        src/core/* | tests/core/*) echo core ;;
        src/sim/* | tests/sim/*) echo sim ;;
        src/fluid/* | tests/fluid/* | shaders/fluid*) echo fluid ;;
        src/physics/* | tests/physics/*) echo physics ;;
        src/render/* | tests/render/* | shaders/* | textures/*) echo render ;;
        src/image/* | src/harness/* | tests/harness/* | experiments/* | effects/*) echo harness ;;
        src/app/* | tests/app/* | docs/*) echo app ;;
        scripts/*.py | tests/report/*) echo report ;;
        tests/bench/*) echo bench ;;
        *) echo "test.sh --quick: $path is in no room: the unit tier checks it" >&2 ;;
      esac
    done | sort -u
}

if [ "$mode" = quick ]; then
  if [ -z "$base" ]; then
    base="$(git -C "$FIRELAB_ROOT" rev-parse --abbrev-ref --symbolic-full-name '@{upstream}' 2>/dev/null || echo HEAD)"
  fi
  git -C "$FIRELAB_ROOT" rev-parse --verify --quiet "$base^{commit}" >/dev/null ||
    { echo "test.sh: --base '$base' is not a revision of this repository" >&2; exit 2; }
  mapfile -t rooms < <(rooms_changed "$base")
  echo "== test.sh --quick: the change against $base touches: ${rooms[*]:-no room}"
  stage "unit tier" tier unit -L '^unit$'
  if [ "${#rooms[@]}" -gt 0 ]; then
    pattern="^($(IFS='|'; echo "${rooms[*]}"))\$"
    stage "gl and e2e of ${rooms[*]}" tier rooms -LE '^unit$' -L "$pattern"
  fi
  slowest
  stage_summary
  exit "$stage_status"
fi

stage "unit tier" tier unit -L '^unit$'
stage "gl tier" tier gl -L '^gl$' -LE '^bench$'
stage "benchmark smoke run" tier bench -L '^bench$'
stage "e2e tier" tier e2e -L '^e2e$'
slowest
stage_summary
exit "$stage_status"
