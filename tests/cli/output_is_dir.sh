#!/usr/bin/env bash
# An output path that names a directory is the caller's mistake: every
# command that writes a file says so on stderr (naming the path), exits 2
# (bad input or usage, not 3: nothing failed in the system), and leaves
# nothing behind, in the directory or beside it.
source "$(dirname "$0")/lib.sh"
S=$IBP_SRC/examples/seed
mkdir d
check() { # what CMD...
  local what=$1; shift
  expect_status 2 "$@"
  grep -qi "d: error: .*is a directory" err || fail "$what: no is-a-directory error: $(head -c 300 err)"
  [[ -z $(ls -A d) ]] || fail "$what left $(ls -A d) in the directory"
  [[ -z $(ls -A . | grep -v -x -e d -e out -e err) ]] || fail "$what left $(ls -A .)"
}
check "gen -o" "$IBPART" gen --cas 10 -o "$T/d"
check "gen --conf" "$IBPART" gen --cas 10 -o "$T/x.topo" --conf "$T/d"
check "convert -o" "$IBPART" convert -c "$S/partitions.conf" -o "$T/d"
check "matrix -o" "$IBPART" matrix "$S/partitions.conf" -t "$S/seed.topo" --format json -o "$T/d"
check "tables --state" "$IBPART" tables -c "$S/partitions.conf" -t "$S/seed.topo" --state "$T/d"
check "monitor -o" "$IBPART" monitor --sim -c "$S/partitions.conf" -t "$S/seed.topo" -o "$T/d"
finish
