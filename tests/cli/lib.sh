# lib.sh - helpers for the CLI end-to-end tests (sourced, not run).
# Each test runs $IBPART (set by CTest) in a temp dir that is removed on
# exit, and fails with a message naming the assertion.
set -euo pipefail
: "${IBPART:?IBPART must name the ibpart binary}"
: "${IBP_SRC:?IBP_SRC must name the source tree}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
# expect_status N CMD...: run CMD, stdout to out, stderr to err, check status
expect_status() {
  local want=$1; shift
  set +e; "$@" >out 2>err; local got=$?; set -e
  [[ $got -eq $want ]] || { fail "'$*' exited $got, expected $want"; head -20 err | sed 's/^/  err: /' >&2; }
}
expect_grep() { grep -q -- "$1" "$2" || fail "'$1' not in $2: $(head -c 400 "$2")"; }
expect_no_grep() { ! grep -q -- "$1" "$2" || fail "'$1' unexpectedly in $2"; }
finish() { if [[ $fails -eq 0 ]]; then echo "ok"; else echo "$fails failure(s)"; exit 1; fi; }
