#!/usr/bin/env bash
# make fuzz: run every libFuzzer target of BUILD_FUZZ for SECONDS each
# (in name order) over its checked-in corpus (tests/fuzz/corpus/NAME) and
# a working corpus (fuzz-out/NAME), each target's log in
# fuzz-out/NAME.log, then print one summary: per target the executions,
# the corpus size, the findings (crash-/leak-/timeout-/oom- files
# libFuzzer wrote in fuzz-out/NAME-artifacts) and its exit status.
# Exit 1 when any target found something.
#
#   scripts/fuzz.sh BUILD_FUZZ SECONDS [TARGET...]
set -uo pipefail
BUILD=${1:-build-fuzz}
SECONDS_EACH=${2:-60}
shift 2 || true
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FUZZ_OUT:-fuzz-out}
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  for f in "$BUILD"/fuzz_*; do
    [[ -x $f && -f $f ]] && targets+=("$(basename "$f")")
  done
fi
if [[ ${#targets[@]} -eq 0 ]]; then
  echo "fuzz: no targets in $BUILD (make build-fuzz)" >&2
  exit 2
fi
declare -a rows
status=0
for name in "${targets[@]}"; do
  mkdir -p "$OUT/$name" "$OUT/$name-artifacts" "$SRC/tests/fuzz/corpus/$name"
  echo "== $name for ${SECONDS_EACH}s (log: $OUT/$name.log) =="
  "$BUILD/$name" -max_total_time="$SECONDS_EACH" -max_len=4096 \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$OUT/$name-artifacts/" \
    "$OUT/$name" "$SRC/tests/fuzz/corpus/$name" >"$OUT/$name.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/$name.log" | tail -1)
  [[ -n $execs ]] || execs=$(grep -o '#[0-9]*' "$OUT/$name.log" | tail -1 | tr -d '#')
  cov=$(grep -o 'cov: [0-9]*' "$OUT/$name.log" | tail -1 | cut -d' ' -f2)
  corpus=$(find "$OUT/$name" -type f | wc -l)
  findings=$(find "$OUT/$name-artifacts" -type f \
    \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  [[ $rc -ne 0 || $findings -ne 0 ]] && status=1
  rows+=("$(printf '%-20s %12s %8s %8s %9s %5s' "$name" "${execs:-?}" "${cov:-?}" \
    "$corpus" "$findings" "$rc")")
done
echo
echo "== fuzz summary (${SECONDS_EACH}s per target) =="
printf '%-20s %12s %8s %8s %9s %5s\n' target execs cov corpus findings exit
for r in "${rows[@]}"; do echo "$r"; done
[[ $status -eq 0 ]] && echo "no findings" || echo "FINDINGS: see $OUT/*-artifacts and the logs"
exit $status
