#!/usr/bin/env bash
# CI hardening: an AddressSanitizer + UndefinedBehaviorSanitizer build (clang) of the unit tier (every test of
# firelab_unit_tests: in process, no GL context, under SDL's dummy video driver as ctest runs it), and
# the libFuzzer targets (experiment files; list/range/value parsers) run for a bounded time each on the
# seed corpus in tests/fuzz/corpus/. Fails on any sanitizer report or fuzzer crash.
# Environment: FUZZ_SECONDS (default 60 per target), FIRELAB_FUZZ_BUILD_DIR (default build-fuzz/).
set -euo pipefail
export FIRELAB_EXTRA_PACKAGES="clang libclang-rt-14-dev"
FIRELAB_SKIP_BUILD=1 source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
dir="${FIRELAB_FUZZ_BUILD_DIR:-$FIRELAB_ROOT/build-fuzz}"
seconds="${FUZZ_SECONDS:-60}"

if [ ! -f "$dir/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$FIRELAB_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFIRELAB_SANITIZE=ON -DFIRELAB_FUZZ=ON -DFIRELAB_BUILD_BENCH=OFF >&2
fi
cmake --build "$dir" --parallel "$(nproc)" --target firelab_unit_tests experiment_fuzz values_fuzz >&2

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
start=$(date +%s)
echo "== ASan+UBSan: the unit tier"
SDL_VIDEODRIVER=dummy "$dir/tests/firelab_unit_tests" --gtest_brief=1
echo "== sanitizer tests took $(( $(date +%s) - start )) s"

for target in experiment_fuzz values_fuzz; do
  corpus="$FIRELAB_ROOT/tests/fuzz/corpus/${target%_fuzz}"
  work=$(mktemp -d)
  echo "== fuzzing $target for ${seconds} s (seed corpus: $corpus)"
  (cd "$work" && "$dir/tests/fuzz/$target" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
     -print_final_stats=1 "$work" "$corpus" 2>&1 | grep -E "stat::number_of_executed_units|stat::peak_rss|Done|ERROR|SUMMARY" )
  rm -rf "$work"
done
