#!/usr/bin/env bash
# make fuzz: run every libFuzzer target of BUILD_FUZZ for SECONDS each
# (in name order) over its checked-in corpus (tests/fuzz/corpus/NAME) and
# a working corpus (fuzz-out/NAME), each target's log in
# fuzz-out/NAME.log, then print one summary: per target the executions,
# the corpus size, the findings (crash-/leak-/timeout-/oom- files
# libFuzzer wrote in fuzz-out/NAME-artifacts) and its exit status.
# Exit 1 when any target found something.
#
#   [FUZZ_JOBS=N] scripts/fuzz.sh BUILD_FUZZ SECONDS [TARGET...]
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
JOBS=${FUZZ_JOBS:-1}
# one target: its run, then its summary row in $OUT/NAME.row
run_one() {
  local name=$1 rc execs cov corpus findings
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
  printf '%-20s %12s %8s %8s %9s %5s\n' "$name" "${execs:-?}" "${cov:-?}" \
    "$corpus" "$findings" "$rc" >"$OUT/$name.row"
}
mkdir -p "$OUT"
# FUZZ_JOBS=N runs N targets at once (each still SECONDS of wall time;
# they share the CPUs, so the execs column says what each got)
for name in "${targets[@]}"; do
  rm -f "$OUT/$name.row"
  if [[ $JOBS -gt 1 ]]; then
    while [[ $(jobs -rp | wc -l) -ge $JOBS ]]; do wait -n; done
    run_one "$name" &
  else
    run_one "$name"
  fi
done
wait
status=0
for name in "${targets[@]}"; do
  row=$(cat "$OUT/$name.row" 2>/dev/null) || row=$(printf '%-20s %12s' "$name" "no result")
  rows+=("$row")
  set -- $row
  [[ ${5:-1} == 0 && ${6:-1} == 0 ]] || status=1
done
echo
echo "== fuzz summary (${SECONDS_EACH}s per target) =="
printf '%-20s %12s %8s %8s %9s %5s\n' target execs cov corpus findings exit
for r in "${rows[@]}"; do echo "$r"; done
[[ $status -eq 0 ]] && echo "no findings" || echo "FINDINGS: see $OUT/*-artifacts and the logs"
exit $status
