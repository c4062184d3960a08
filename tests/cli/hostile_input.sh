#!/usr/bin/env bash
# Hostile input is refused with a reason and within bounds, never a hang
# or unbounded memory: a VT, FF or CR after a port line (the topology
# reader used to loop forever on them, one warning a pass), and endless
# inputs (/dev/zero as a plan or a topology), which stop at the input
# limit with exit 2.
source "$(dirname "$0")/lib.sh"
plan="$IBP_SRC/examples/seed/partitions.conf"

for c in '\v' '\f' '\r'; do
  printf "Switch 2 \"S-0000000000000001\"\n[1]\t\"H-0000000000000002\"[1]$c\n" >ws.topo
  set +e
  timeout 10 "$IBPART" matrix -t ws.topo "$plan" >out 2>err
  rc=$?
  set -e
  [[ $rc -eq 2 ]] || fail "a port line ending in $c: exit $rc, expected 2 (124 is a hang)"
  (( $(wc -c <err) < 4096 )) || fail "a port line ending in $c: $(wc -c <err) bytes of diagnostics"
  expect_grep 'ws.topo:2:' err
done

# Endless input: stops at the limit (1 GiB by default), exit 2, named.
set +e
timeout 60 "$IBPART" check /dev/zero >out 2>err
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "check /dev/zero: exit $rc, expected 2"
expect_grep '/dev/zero: error: larger than the input limit' err
finish
