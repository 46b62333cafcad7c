#!/usr/bin/env bash
# CI hardening: an AddressSanitizer + UndefinedBehaviorSanitizer build (clang) of the unit tier (every test of
# firelab_unit_tests: in process, no GL context, under SDL's dummy video driver as ctest runs it), and
# the libFuzzer targets (experiment files; list/range/value parsers) run for a bounded time each, side by side
# (a core each), on the seed corpus in tests/fuzz/corpus/. Fails on any sanitizer report or fuzzer crash.
# The build is -O1 with line tables only (what a sanitizer report needs: file and line of each frame) and the
# libraries a unity build (src/CMakeLists.txt), since its compile is a large part of CI. Each step is a stage of
# scripts/stages.sh.
# Environment: FUZZ_SECONDS (default 60 per target), FIRELAB_FUZZ_BUILD_DIR (default build-fuzz/).
set -euo pipefail
export FIRELAB_EXTRA_PACKAGES="clang libclang-rt-14-dev ${FIRELAB_EXTRA_PACKAGES:-}"
FIRELAB_SETUP_FUNCTIONS_ONLY=1 source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
source "$FIRELAB_ROOT/scripts/stages.sh"
dir="${FIRELAB_FUZZ_BUILD_DIR:-$FIRELAB_ROOT/build-fuzz}"
seconds="${FUZZ_SECONDS:-60}"

build() {
  if [ ! -f "$dir/build.ninja" ]; then
    CC=clang CXX=clang++ cmake -S "$FIRELAB_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
      -DCMAKE_UNITY_BUILD=ON -DFIRELAB_SANITIZE=ON -DFIRELAB_FUZZ=ON -DFIRELAB_BUILD_BENCH=OFF >&2 || return
  fi
  cmake --build "$dir" --parallel "$(nproc)" --target firelab_unit_tests experiment_fuzz values_fuzz >&2
}

# The unit tier under the sanitizers in one gtest shard per core (GTEST_TOTAL_SHARDS: each test in exactly one),
# side by side; every shard's failures are printed, and any failing shard fails the stage.
unit_tier() {
  local shards pids=() rc=0 i logs
  shards="$(nproc)"
  logs="$(mktemp -d)"
  for ((i = 0; i < shards; i++)); do
    GTEST_TOTAL_SHARDS="$shards" GTEST_SHARD_INDEX="$i" SDL_VIDEODRIVER=dummy \
      "$dir/tests/firelab_unit_tests" --gtest_brief=1 >"$logs/$i.log" 2>&1 &
    pids+=($!)
  done
  for ((i = 0; i < shards; i++)); do
    wait "${pids[i]}" || { rc=$?; echo "shard $((i + 1))/$shards failed (exit $rc):"; tail -n 80 "$logs/$i.log"; }
    grep -E "^\[  (PASSED|FAILED) +\]" "$logs/$i.log" | sed "s|^|shard $((i + 1))/$shards: |"
  done
  rm -rf "$logs"
  return "$rc"
}

# fuzz TARGET: one libFuzzer target for FUZZ_SECONDS on its seed corpus, its summary lines kept.
fuzz() {
  local target="$1" corpus work rc=0
  corpus="$FIRELAB_ROOT/tests/fuzz/corpus/${target%_fuzz}"
  work=$(mktemp -d)
  (cd "$work" && "$dir/tests/fuzz/$target" -max_total_time="$seconds" -max_len=4096 -timeout=10 -print_final_stats=1 \
     "$work" "$corpus" >"$work/log" 2>&1) || rc=$?
  grep -E "stat::number_of_executed_units|stat::peak_rss|Done|ERROR|SUMMARY" "$work/log" | sed "s/^/$target: /"
  [ "$rc" = 0 ] || tail -n 60 "$work/log" | sed "s/^/$target: /"
  rm -rf "$work"
  return "$rc"
}

# Both fuzzers at once, a core each; fails if either does.
fuzzers() {
  echo "fuzzing experiment_fuzz and values_fuzz for $seconds s each, side by side (seed corpus: tests/fuzz/corpus)"
  fuzz experiment_fuzz & local first=$!
  fuzz values_fuzz & local second=$!
  local rc=0
  wait "$first" || rc=$?
  wait "$second" || rc=$?
  return "$rc"
}

stage "packages" firelab_install_missing
stage "sanitized build (clang, ASan+UBSan)" build
[ "$stage_status" = 0 ] || exit "$stage_status"
# For the unit tier and the fuzzers, not the build (whose test discovery runs the sanitized tests' listing).
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
stage "sanitized unit tier (a shard per core)" unit_tier
stage "fuzzers (${seconds} s each, side by side)" fuzzers
exit "$stage_status"
