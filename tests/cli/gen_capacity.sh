#!/usr/bin/env bash
# gen_capacity.sh - `ibpart gen` warns (stderr, exit 0) when its plan
# gives ports more P_Keys than a CA's 64-entry P_KeyTable holds: storage
# nodes are in 0x7fff and every tenant partition.  The count it gives is
# checked against `ibpart tables`, which computes the tables itself and
# reports each P_Key it drops.
source "$(dirname "$0")/lib.sh"

expect_status 0 "$IBPART" gen --cas 300 --partitions 100 --storage 4 -o x.topo --conf x.conf
[[ -s x.topo && -s x.conf ]] || fail "files not written"
expect_grep "^ibpart gen: warning: 4 CA port(s) need more P_Keys than their P_KeyTable holds: up to 101 in 64 entries" err
expect_grep "Use --partitions 63 or fewer" err
# the same ports, by the tables OpenSM would program: 4 storage nodes,
# 101 - 64 = 37 P_Keys dropped on each
expect_status 1 "$IBPART" tables --max-errors 0 -t x.topo x.conf
[[ $(grep -c '\[pkey-table-full\]' err) -eq $((4 * 37)) ]] || fail "tables: $(grep -c pkey-table-full err) dropped, want 148"
[[ $(grep -o 'the P_KeyTable of storage-[0-9]*' err | sort -u | wc -l) -eq 4 ]] || fail "tables: not the 4 storage nodes"
# by default a finding that repeats is shown --max-errors (20) times,
# then summed up in one line: 22 lines on stderr, not 150
expect_status 1 "$IBPART" tables -t x.topo x.conf
[[ $(grep -c '\[pkey-table-full\]$' err) -eq 20 ]] || fail "tables: $(grep -c 'pkey-table-full]$' err) shown, want 20"
expect_grep "^warning: 128 \[pkey-table-full\] findings more like the 20 above (148 in all; about storage-0001, storage-0002, storage-0003, storage-0004); --max-errors 0 shows each" err
[[ $(wc -l <err) -le 23 ]] || fail "tables: $(wc -l <err) lines on stderr"
# the audit: one capacity-overflow finding for the 4 storage nodes, which
# drop the same 37 P_Keys
"$IBPART" audit -t x.topo --format json x.conf >a.json 2>/dev/null || true
[[ $(jq -c '[.findings[] | select(.code == "capacity-overflow") | [(.ports | length), (.partitions | length)]]' a.json) == '[[4,37]]' ]] ||
	fail "audit: capacity-overflow not one finding of 4 ports: $(jq -c '[.findings[] | select(.code == "capacity-overflow") | .ports | length]' a.json)"
expect_status 1 "$IBPART" tables --max-errors 5 -t x.topo x.conf
[[ $(grep -c '\[pkey-table-full\]$' err) -eq 5 ]] || fail "tables --max-errors 5: $(grep -c 'pkey-table-full]$' err) shown"

# at 63 partitions the storage tables are exactly full: no warning, and
# tables drops nothing
expect_status 0 "$IBPART" gen --cas 300 --partitions 63 --storage 4 -o y.topo --conf y.conf
expect_no_grep "warning" err
expect_status 0 "$IBPART" tables -t y.topo y.conf
expect_no_grep "pkey-table-full" err
# without storage nodes no port needs more than 2 P_Keys
expect_status 0 "$IBPART" gen --cas 300 --partitions 100 -o z.topo --conf z.conf
expect_no_grep "warning" err
# no plan written, nothing to warn about
expect_status 0 "$IBPART" gen --cas 300 --partitions 100 --storage 4 -o w.topo
expect_no_grep "warning" err
finish
