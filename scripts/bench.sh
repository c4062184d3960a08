#!/usr/bin/env bash
# make bench: run every benchmark program built from bench/*.c and every
# bench/*.sh script, in name order.  Each prints its own figures, always
# beside a baseline measured in the same run, as a ratio.
set -euo pipefail
# absolute: the benches that run ibsim work in their own directory
BUILD=$(cd "${1:-build}" && pwd)
SRC=$(cd "$(dirname "$0")/.." && pwd)
export IBPART="$BUILD/ibpart" IBP_SRC="$SRC" IBP_BUILD="$BUILD"
shopt -s nullglob
status=0
for src in "$SRC"/bench/*.c "$SRC"/bench/*.sh; do
  name=$(basename "${src%.*}")
  echo "=== $name ==="
  if [[ $src == *.c ]]; then
    "$BUILD/$name" || status=1
  else
    bash "$src" || status=1
  fi
  echo
done
exit $status
