#!/usr/bin/env bash
# run-tests.sh STAGE... - run CTest stages and total them.
#
#   STAGE is NAME=BUILD_DIR:LABEL_REGEX (an empty regex: every test), e.g.
#   run-tests.sh plain=build: asan=build-asan:'^(unit|cli)$' fuzz=build-fuzz:fuzz
#
# Every stage runs (a failure in one does not hide the others), then the
# output ends with one line per stage and an overall line:
#   plain: 57 passed, 0 failed, 0 skipped
#   total: 90 passed, 0 failed, 0 skipped
# Exit status 1 when any test failed, a stage did not run, or found no
# tests.  A skipped test (exit 77: a missing tool or peer) is counted as
# skipped, never as passed; under CI (CI=true, or IBP_NO_SKIP=1), where
# `make test` has installed every peer, a skip fails the run too.
# JOBS (default nproc) tests run at once.
set -uo pipefail

jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
no_skip=${IBP_NO_SKIP:-}
if [[ -z $no_skip ]]; then
  case ${CI:-} in "" | false | 0) no_skip=0 ;; *) no_skip=1 ;; esac
fi
[[ $# -gt 0 ]] || { echo "usage: run-tests.sh NAME=BUILD_DIR:LABEL_REGEX..." >&2; exit 2; }

lines=()
tp=0 tf=0 ts=0 status=0
for stage in "$@"; do
  name=${stage%%=*}
  rest=${stage#*=}
  dir=${rest%%:*}
  labels=${rest#*:}
  [[ $rest == *:* ]] || labels=
  echo "== $name: ctest in $dir${labels:+, labels $labels} =="
  if [[ ! -f $dir/CTestTestfile.cmake ]]; then
    echo "$name: $dir is not a configured build tree with tests" >&2
    lines+=("$name: 0 passed, 1 failed, 0 skipped")
    tf=$((tf + 1)) status=1
    continue
  fi
  junit=$(cd "$dir" && pwd)/Testing/junit-$name.xml
  rm -f "$junit"
  args=(--test-dir "$dir" --output-on-failure -j "$jobs" --no-tests=error --output-junit "$junit")
  [[ -n $labels ]] && args+=(-L "$labels")
  ctest "${args[@]}"
  rc=$?
  # Each <testcase>'s status: run (passed), fail, disabled (skipped),
  # notrun: skipped when it is <skipped message="SKIP_RETURN_CODE=77"/>
  # (or SKIP_REGULAR_EXPRESSION), otherwise (e.g. "Unable to find
  # executable") a failure, as CTest's own summary counts it.
  read -r n f s d < <(awk '
    function close_case() {
      if (st == "") return
      n++
      if (st == "run") ;
      else if (st == "disabled") d++
      else if (st == "notrun" && skipmsg ~ /^SKIP_/) s++
      else f++
      st = ""; skipmsg = ""
    }
    /<testcase / {
      close_case()
      st = $0; sub(/.* status="/, "", st); sub(/".*/, "", st)
      if (st == "") st = "?"
    }
    /<skipped message="/ { skipmsg = $0; sub(/.*<skipped message="/, "", skipmsg) }
    END { close_case(); printf "%d %d %d %d\n", n, f, s, d }
  ' "$junit" 2>/dev/null || echo "0 0 0 0")
  skipped=$((s + d))
  passed=$((n - f - skipped))
  ((passed < 0)) && passed=0
  # ctest failed but the report shows no failed test (no tests found, a
  # crash, an unreadable report): count the stage as one failure.
  if [[ $rc -ne 0 && $f -eq 0 ]]; then
    echo "$name: ctest exited $rc with no failed test in its report" >&2
    f=1
  fi
  if ((n == 0 && f == 0)); then
    echo "$name: no tests ran" >&2
    f=1
  fi
  ((f > 0)) && status=1
  if ((skipped > 0 && no_skip)); then
    echo "$name: $skipped test(s) skipped under CI, where every peer is installed: that is a failure" >&2
    status=1
  fi
  lines+=("$name: $passed passed, $f failed, $skipped skipped")
  tp=$((tp + passed)) tf=$((tf + f)) ts=$((ts + skipped))
done

echo
printf '%s\n' "${lines[@]}"
echo "total: $tp passed, $tf failed, $ts skipped"
exit $status
