#!/usr/bin/env bash
# Every C++ file under src/ and tests/ (*.cpp, *.h) is as the root .clang-format lays it out: clang-format 14
# (Debian 12's) with --dry-run --Werror, which names each file and line that differs. The fix is
# `clang-format -i FILE`. Another major version lays some code out otherwise, so it is not used. Without
# clang-format 14 the test skips (exit 77), except under CI (CI=true), where it fails.
# Usage: tests/format_test.sh [SOURCE_DIR]   (default: the checkout this script is in)
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$root"

unavailable() {
  echo "format_test: $1" >&2
  if [ -n "${CI:-}" ] && [ "${CI}" != false ]; then exit 1; fi
  exit 77
}
tool=""
for candidate in "${CLANG_FORMAT:-}" clang-format-14 clang-format; do
  [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1 || continue
  if "$candidate" --version | grep -qE 'version 14\.'; then tool="$candidate"; break; fi
done
[ -n "$tool" ] || unavailable "no clang-format 14 (apt-get install clang-format; or CLANG_FORMAT=PATH)"
[ -f .clang-format ] || { echo "format_test: no .clang-format in $root" >&2; exit 1; }

mapfile -d '' files < <(find src tests -type f \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z)
[ "${#files[@]}" -gt 0 ] || { echo "format_test: no C++ file under $root/src or $root/tests" >&2; exit 1; }
if ! "$tool" --style=file --dry-run --Werror "${files[@]}"; then
  echo "format_test: the files above differ from .clang-format's layout; fix each with: $tool -i FILE" >&2
  exit 1
fi
echo "format_test: ${#files[@]} files as .clang-format lays them out ($("$tool" --version))"
