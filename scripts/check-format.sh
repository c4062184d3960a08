#!/usr/bin/env bash
# Fails when a tracked C file does not follow .clang-format.
set -euo pipefail
cd "${1:-.}"
files=$(git ls-files '*.c' '*.h' 2>/dev/null || find include src tools tests bench -name '*.[ch]')
[[ -z "$files" ]] && exit 0
clang-format --dry-run --Werror $files
echo "clang-format: $(echo "$files" | wc -w) files follow .clang-format"
