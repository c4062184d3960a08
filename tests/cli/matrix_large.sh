#!/usr/bin/env bash
# ibpart matrix on generated fabrics (ibpart gen): the text output
# summarises by class and partition instead of printing every column;
# JSON still has every pair, and its cells follow the IBA rule for the
# generator's plan (tenants full in their own partition, storage limited
# in every tenant, mgmt full in Default, OpenSM's limited 0x7fff for
# everyone else).  A storage node in more partitions than its table holds
# loses the last ones, and the audit says so.
source "$(dirname "$0")/lib.sh"

"$IBPART" gen --cas 400 --partitions 30 --storage 2 --mgmt 2 -o g.topo --conf g.conf 2>/dev/null || fail "gen"
expect_status 0 "$IBPART" matrix -t g.topo g.conf
expect_grep "^Reachability (data plane, IBA 10.9.3): 400 end ports, 32 classes, 31 partitions" out
expect_grep "^Classes (end ports with the same membership" out
expect_grep "^Partitions (end ports that are full / limited members" out
expect_grep "^  0x0001 t0001 " out
[[ $(wc -L <out) -lt 400 ]] || fail "text lines too long for a summary"
expect_status 0 "$IBPART" matrix -t g.topo --format md g.conf
expect_grep "^| class | ports | e.g. | P_Keys | reaches ports | reaches classes |" out

expect_status 0 "$IBPART" matrix -t g.topo --format json g.conf
jq -r '.endpoints | to_entries[] | "\(.key) \(.value.node_desc)"' out >idx
ix() { awk -v n="$1" '$2 == n {print $1}' idx; }
cell() { jq -r ".can_talk[$(ix "$1")][$(ix "$2")]" out; }
[[ $(jq '.endpoints | length' out) == 400 ]] || fail "400 endpoints"
[[ $(cell t0001-node-0001 t0001-node-0002) == true ]] || fail "same tenant"
[[ $(cell t0001-node-0001 t0002-node-0001) == false ]] || fail "two tenants"
[[ $(cell storage-0001 t0030-node-0001) == true ]] || fail "storage serves tenants"
[[ $(cell storage-0001 storage-0002) == false ]] || fail "storage-storage is limited-limited"
[[ $(cell mgmt-0002 t0007-node-0003) == true ]] || fail "mgmt full in 0x7fff"
[[ $(cell t0001-node-0001 storage-0002) == true ]] || fail "symmetric"

# more tenants than a storage node's 64 entries: the last ones lose it
"$IBPART" gen --cas 600 --partitions 80 --storage 1 --mgmt 1 -o h.topo --conf h.conf 2>/dev/null || fail "gen 2"
expect_status 0 "$IBPART" matrix -t h.topo --format json h.conf
jq -r '.endpoints | to_entries[] | "\(.key) \(.value.node_desc)"' out >idx
[[ $(cell storage-0001 t0001-node-0001) == true ]] || fail "storage reaches t0001"
[[ $(cell storage-0001 t0080-node-0001) == false ]] || fail "t0080 does not fit in storage's table"
expect_status 1 "$IBPART" audit -t h.topo --format json h.conf
jq -e 'any(.findings[]; .code == "capacity-overflow" and .severity == "high" and (.partitions | index("0x0040")))' out >/dev/null ||
  fail "capacity-overflow for storage-0001 naming 0x0040"
finish
