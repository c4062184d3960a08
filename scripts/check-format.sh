#!/usr/bin/env bash
# Fails when a tracked C file does not follow .clang-format.
set -euo pipefail
# Without clang-format nothing was checked: exit 77, a skip under CTest.
command -v clang-format >/dev/null ||
  { echo "SKIP: clang-format is not installed (scripts/deps.sh test)"; exit 77; }
cd "${1:-.}"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find include src tools tests bench -name '*.[ch]')
[[ -z "$files" ]] && exit 0
clang-format --dry-run --Werror $files
echo "clang-format: $(echo "$files" | wc -w) files follow .clang-format"
