#!/usr/bin/env bash
# The JSON documents ibpart reads back - the state file (tables --state)
# and a P_KeyTables document (matrix/audit --tables) - are strict: a key
# given twice, a field nobody writes, a GUID that is not "0x" and 1 to
# 16 hex digits (strtoull took " 0x..", "-0x1" and wrapped it), a
# capacity outside 1..65535 or below the P_Keys listed, a node type
# other than CA/SW/RT: exit 2 naming the JSON path, and a state file
# refused is left as it was.
source "$(dirname "$0")/lib.sh"
seed="$IBP_SRC/examples/seed"
"$IBPART" tables -t "$seed/seed.topo" --state st.json "$seed/partitions.conf" >/dev/null 2>&1
"$IBPART" tables -t "$seed/seed.topo" --format json "$seed/partitions.conf" >tj.json 2>/dev/null

# state file: each mutation refused, the file untouched
while IFS='|' read -r jqexpr want; do
  jq "$jqexpr" st.json >bad.json
  cp bad.json before.json
  expect_status 2 "$IBPART" tables -t "$seed/seed.topo" --state bad.json "$seed/partitions.conf"
  expect_grep "bad.json: error: $want" err
  cmp -s bad.json before.json || fail "a refused state file was rewritten ($jqexpr)"
done <<'CASES'
.ports[0].zzz = 1|ports\[0\]: unknown field 'zzz'
.zzz = 1|unknown field 'zzz'
.opensm.x = true|opensm: unknown field 'x'
.ports[0].remembered.x = 1|ports\[0\].remembered: unknown field 'x'
.ports[0].port_guid = "-0x1"|ports\[0\].port_guid: '-0x1' is not a GUID
.ports[0].port_guid = " 0x506b4b0300a1b300"|ports\[0\].port_guid: ' 0x506b4b0300a1b300' is not a GUID
.ports[0].node_guid = "0x1506b4b0300a1b2ff"|ports\[0\].node_guid: '0x1506b4b0300a1b2ff' is not a GUID
.sm_port_guid = "x"|sm_port_guid: 'x' is not a GUID
.mode = "x"|mode: 'x' is not opensm or strict
.ports[0].node_type = "XX"|ports\[0\].node_type: 'XX' is not CA, SW or RT
.ports[0].capacity = 0|ports\[0\].capacity: 0 is not a P_KeyTable size
.ports[0].capacity = 1099511627776|ports\[0\].capacity: 1099511627776 is not a P_KeyTable size
.ports[4].capacity = 1|ports\[4\].capacity: 1 is less than the 2 P_Keys listed
.ports[0].pkeys = [" 0xffff"]|ports\[0\].pkeys\[0\]: not a P_Key
CASES

# a P_KeyTables document (matrix --tables): a duplicate key no longer
# "last wins", an unknown field and a bad GUID are refused
sed '0,/"port": 1,/s//"port": 1, "port": 2,/' tj.json >dup.json
expect_status 2 "$IBPART" matrix -t "$seed/seed.topo" --tables dup.json
expect_grep 'dup.json:[0-9]*:[0-9]*: error: JSON: duplicate object key' err
jq '.ports[0].zzz = 1' tj.json >unk.json
expect_status 2 "$IBPART" matrix -t "$seed/seed.topo" --tables unk.json
expect_grep "unk.json: error: JSON: ports\[0\]: unknown field 'zzz'" err
jq '.ports[0].port_guid = "-0x1" | .ports[0].node_guid = "0x1"' tj.json >neg.json
expect_status 2 "$IBPART" audit -t "$seed/seed.topo" --tables neg.json
expect_grep "neg.json: error: JSON: ports\[0\].port_guid: '-0x1' is not a GUID" err
# an error that quotes the input (a JSON key) stays one line, with
# nothing a terminal acts on: the key's newline and ESC went out raw
jq '.ports[0].remembered.pkeys["x\ny\u001b[2K"] = 1' st.json >nl.json
expect_status 2 "$IBPART" tables -t "$seed/seed.topo" --state nl.json "$seed/partitions.conf"
expect_grep "^ibpart: nl.json: error: ports\[0\].remembered: 'x\\\\x0ay\\\\x1b\[2K' is not a P_Key$" err
if LC_ALL=C grep -q $'\033' err; then fail "an ESC of the input in an error message"; fi
jq '.ports[0]["a\nb"] = 1' tj.json >nlk.json
expect_status 2 "$IBPART" matrix -t "$seed/seed.topo" --tables nlk.json
expect_grep "^ibpart: nlk.json: error: JSON: ports\[0\]: unknown field 'a\\\\x0ab'$" err
# what ibpart writes still reads
expect_status 0 "$IBPART" matrix -t "$seed/seed.topo" --tables tj.json
expect_status 0 "$IBPART" matrix -t "$seed/seed.topo" --tables st.json
finish
