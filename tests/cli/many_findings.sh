#!/usr/bin/env bash
# A file with a finding on each of its millions of lines stays within
# memory and its totals stay true: a list keeps the first 10,000
# findings of a kind in a file and counts the rest.  Before, a
# node-name-map of "x" lines took some 220 bytes of memory per line
# (7 GB for the 64 MB the map may be; a 200 MB topology of junk lines
# ran out of 4 GB after 75 s), and check capped its list at 100 of a
# kind and then reported "100 error(s)" for a million.
source "$(dirname "$0")/lib.sh"
seed="$IBP_SRC/examples/seed"
python3 -c "import sys; sys.stdout.write('Default=0x7fff : ALL=full ;\n' + 'A=0x1 : 0xzz ;\n' * 200000)" >e.conf
expect_status 2 "$IBPART" check e.conf
expect_grep '^e.conf: 200000 error(s), 1 warning(s)$' err
expect_grep '^error: 190000 more \[bad-guid\] findings of e.conf counted, not kept' err
expect_status 2 "$IBPART" check --format json e.conf
[[ $(jq -c '[.errors, (.findings | length), .not_kept[0].count, .not_kept[0].code]' out) == '[200000,10001,190000,"bad-guid"]' ]] ||
  fail "check JSON totals: $(jq -c '{errors, n: (.findings | length), not_kept}' out)"

# 3 million findings in a 6 MB node-name-map: within 300 MB of address
# space (the plain build: ASan's shadow memory needs terabytes of it)
python3 -c "import sys; sys.stdout.write('x\n' * 3000000)" >x.nnm
limit=unlimited
[[ ${IBP_SANITIZE:-} == 1 || ${IBP_SANITIZE:-} == ON || ${IBP_SANITIZE:-} == true ]] || limit=300000
set +e
(ulimit -v "$limit" && exec "$IBPART" tables -t "$seed/seed.topo" --node-name-map x.nnm "$seed/partitions.conf") >out 2>err
rc=$?
set -e
[[ $rc == 2 ]] || fail "a node-name-map of 3M bad lines: exit $rc, expected 2 ($(tail -c 300 err))"
expect_grep '^error: 2990000 more \[bad-guid\] findings of x.nnm counted, not kept' err

# a topology of 300,000 junk lines: warnings counted, "in all" true
cp "$seed/seed.topo" j.topo
python3 -c "import sys; sys.stdout.write('junk\n' * 300000)" >>j.topo
expect_status 0 "$IBPART" tables -t j.topo "$seed/partitions.conf"
expect_grep '\[ignored-line\] findings more like the 20 above (300000 in all)' err
expect_grep '^warning: 290000 more \[ignored-line\] findings of j.topo counted, not kept' err
finish
