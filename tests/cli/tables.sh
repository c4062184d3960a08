# tables.sh - `ibpart tables` end to end: smpquery layout, the JSON of
# docs/json-schemas.md, strict mode on the seed (TenantA-01 exactly
# 0x8001), findings and exit statuses, capacities from the options,
# --sm-port by name, --state written atomically and read back.
source "$IBP_SRC/tests/cli/lib.sh"
S=$IBP_SRC/examples/seed/seed.topo
C=$IBP_SRC/examples/seed/partitions.conf
D=$IBP_SRC/tests/data/interop

expect_status 0 "$IBPART" tables --help
expect_grep "--state FILE" out
expect_status 2 "$IBPART" tables "$C"                      # no -t
expect_status 2 "$IBPART" tables -t "$S" --mode lax "$C"
expect_status 2 "$IBPART" tables -t "$S" --format xml "$C"
expect_status 2 "$IBPART" tables -t "$S" --ca-partition-cap 0 "$C"
expect_status 2 "$IBPART" tables -t "$S" --sm-port no-such-node "$C"

# smpquery layout: header, rows of 8, capacity line
expect_status 0 "$IBPART" tables -t "$S" "$C"
expect_grep "^# tenantA-node-01 port 1 (0x506b4b0300a1b200) CA$" out
grep -A1 "^# tenantA-node-01 port 1" out | tail -1 >row
expect_grep "^   0: 0x7fff 0x8001 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000$" row
expect_grep "^64 pkeys capacity for this port$" out
expect_grep "^8 pkeys capacity for this port$" out

# JSON: the schema of docs/json-schemas.md
expect_status 0 "$IBPART" tables -t "$S" --format json "$C"
jq -e '.mode == "opensm" and .sm_port_guid == "0x506b4b0300a1b300"' out >/dev/null || fail "json header"
jq -e '[.ports[] | select(.port_guid == "0x506b4b0300a1b200")][0] |
	.node_guid == "0x506b4b0300a1b1ff" and .port == 1 and .node_type == "CA" and
	.node_desc == "tenantA-node-01" and .capacity == 64 and .pkeys == ["0x7fff","0x8001"]' out >/dev/null ||
	fail "json port entry"
jq -e '[.ports[] | select(.node_type == "SW" and .port == 7)][0].pkeys == ["0x7fff","0x0001","0x0002"]' out >/dev/null ||
	fail "mirrored switch port"
[ "$(jq '.ports | length' out)" = 15 ] || fail "15 programmed ports expected"

# strict: the seed's model
expect_status 0 "$IBPART" tables -t "$S" --mode strict --format json "$C"
jq -e '[.ports[] | select(.node_desc == "tenantA-node-01")][0].pkeys == ["0x8001"]' out >/dev/null ||
	fail "strict: TenantA-01 must hold exactly 0x8001"
expect_status 2 "$IBPART" tables -t "$S" --mode strict "$D/s06-failopen.conf"

# findings: fail-open and overflow exit 1, tables still printed
expect_status 1 "$IBPART" tables -t "$S" --format json "$D/s06-failopen.conf"
expect_grep "opensm-fallback" err
jq -e '[.ports[].pkeys] | all(. == ["0xffff"])' out >/dev/null || fail "fallback: all 0xffff"
expect_status 1 "$IBPART" tables -t "$S" --format json --ca-partition-cap 2 "$C"
expect_grep "pkey-table-full" err
jq -e '[.ports[] | select(.node_desc == "storage-node" and .node_type == "CA")][0] |
	.capacity == 2 and .pkeys == ["0x7fff","0x0001"]' out >/dev/null || fail "capacity option"

# --sm-port by description: that port becomes the full member
expect_status 0 "$IBPART" tables -t "$S" --sm-port tenantB-node-01 --format json "$C"
jq -e '.sm_port_guid == "0x506b4b0300a1b202"' out >/dev/null || fail "--sm-port by name"

# --state: written (atomically, no temp file left), read back next run
expect_status 0 "$IBPART" tables -t "$S" --format json --state st.json "$D/h01-before.conf"
[ -f st.json ] || fail "--state file not written"
ls st.json.tmp* >/dev/null 2>&1 && fail "temp file left behind"
expect_status 0 "$IBPART" tables -t "$S" --format json --state st.json "$D/h02-after.conf"
jq -e '[.ports[] | select(.node_desc == "storage-node" and .node_type == "CA")][0].pkeys ==
	["0x7fff","0x0000","0x0002","0x0003","0x8100"]' out >/dev/null || fail "--state index stability"
# The seed dialect means the plan it describes, in either mode: the same
# tables as the hand-written OpenSM file of the same plan
# (examples/seed/partitions.conf), not OpenSM's fail-open reading of it.
for m in opensm strict; do
	expect_status 0 "$IBPART" tables -t "$S" --mode $m --format json "$IBP_SRC/examples/seed/partitions.conf"
	mv out want.json
	expect_status 0 "$IBPART" tables -t "$S" --mode $m --format json "$IBP_SRC/examples/seed/seed-block.conf"
	cmp -s out want.json || fail "seed dialect, --mode $m: other tables than partitions.conf"
done
jq -e '[.ports[] | select(.node_desc == "tenantA-node-01" and .node_type == "CA")][0].pkeys == ["0x8001"]' out >/dev/null ||
	fail "strict: tenantA-node-01 should hold exactly 0x8001"

echo '{"ports": 3}' >bad.json
expect_status 2 "$IBPART" tables -t "$S" --state bad.json "$C"
finish
