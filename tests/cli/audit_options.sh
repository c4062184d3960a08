#!/usr/bin/env bash
# ibpart audit: usage errors, bad tenant maps and opensm.conf files
# (exit 2, located), -o written atomically, --tables input.
source "$(dirname "$0")/lib.sh"
D="$IBP_SRC/tests/data/audit"

expect_status 0 "$IBPART" audit --help
expect_grep "usage: ibpart audit" out
expect_grep "partition-no-full-member" out
expect_status 2 "$IBPART" audit "$D/sound-seed.conf"                 # no -t
expect_status 2 "$IBPART" audit -t "$D/seed.topo"                    # no CONF
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --fail-on low "$D/sound-seed.conf"
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --format xml "$D/sound-seed.conf"
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --mode loose "$D/sound-seed.conf"
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --bogus "$D/sound-seed.conf"
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --mode strict "$D/rejected.conf"
expect_grep "strict mode refuses it" err
# the seed dialect is the seed's own model: strict mode takes it
expect_status 1 "$IBPART" audit -t "$D/seed.topo" --mode strict "$D/seed-block.conf"
expect_grep "^high     plan-rejected: This plan is in the seed's" out

printf 'red: red-01\nblue red-02\n' >bad.map
expect_status 2 "$IBPART" audit -t "$D/two-leaf.topo" --tenants bad.map "$D/sound-two-leaf.conf"
expect_grep "bad.map:2:1: error" err
printf 'red: red-01\nblue: no-such-node\n' >bad2.map
expect_status 2 "$IBPART" audit -t "$D/two-leaf.topo" --tenants bad2.map "$D/sound-two-leaf.conf"
expect_grep "bad2.map:2:7: error: no such port in the topology: no-such-node" err
expect_status 2 "$IBPART" audit -t "$D/two-leaf.topo" --tenants missing.map "$D/sound-two-leaf.conf"
printf 'm_key zero\n' >bad-osm.conf
expect_status 2 "$IBPART" audit -t "$D/two-leaf.topo" --opensm-conf bad-osm.conf "$D/sound-two-leaf.conf"
expect_grep "bad-osm.conf:1:1: error: bad value 'zero' for m_key" err
# read as OpenSM reads it: an unknown part_enforce is both (a warning,
# not a refusal), so the plan audits as with the good file
printf 'm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\npart_enforce sometimes\n' >odd-osm.conf
expect_status 0 "$IBPART" audit -t "$D/two-leaf.topo" --opensm-conf odd-osm.conf "$D/sound-two-leaf.conf"
expect_grep "odd-osm.conf:3:1: warning: part_enforce 'sometimes': not both, in, out or off: OpenSM uses both" err

# -o: the file appears whole, nothing left behind; an unwritable
# directory fails with 3 and leaves nothing
expect_status 1 "$IBPART" audit -t "$D/seed.topo" --format json -o report.json "$D/rejected.conf"
[[ ! -s out ]] || fail "stdout not empty with -o"
jq -e '.findings[0].code == "plan-rejected"' report.json >/dev/null || fail "report.json"
[[ $(ls | grep -c 'report.json.tmp') == 0 ]] || fail "temp file left behind"
expect_status 3 "$IBPART" audit -t "$D/seed.topo" -o /nonexistent/dir/r.json "$D/sound-seed.conf"

# --tables: audit tables read elsewhere (here: everyone full in 0xffff
# besides their tenant partitions, the way a fail-open SM leaves them)
cat >tables.json <<'JSON'
{"mode": "live", "sm_port_guid": "0x506b4b0300a1b300",
 "ports": [
  {"node_guid": "0x506b4b0300a1b2ff", "port_guid": "0x506b4b0300a1b300", "port": 1, "node_type": "CA", "node_desc": "sm-01", "capacity": 64, "pkeys": ["0xffff"]},
  {"node_guid": "0x506b4b0300a1b300", "port_guid": "0x506b4b0300a1b301", "port": 1, "node_type": "CA", "node_desc": "ufm-server", "capacity": 64, "pkeys": ["0xffff"]},
  {"node_guid": "0x506b4b0300a1b1ff", "port_guid": "0x506b4b0300a1b200", "port": 1, "node_type": "CA", "node_desc": "tenantA-node-01", "capacity": 64, "pkeys": ["0xffff", "0x8001"]},
  {"node_guid": "0x506b4b0300a1b200", "port_guid": "0x506b4b0300a1b201", "port": 1, "node_type": "CA", "node_desc": "tenantA-node-02", "capacity": 64, "pkeys": ["0xffff", "0x8001"]},
  {"node_guid": "0x506b4b0300a1b201", "port_guid": "0x506b4b0300a1b202", "port": 1, "node_type": "CA", "node_desc": "tenantB-node-01", "capacity": 64, "pkeys": ["0xffff", "0x8002"]},
  {"node_guid": "0x506b4b0300a1b202", "port_guid": "0x506b4b0300a1b203", "port": 1, "node_type": "CA", "node_desc": "tenantB-node-02", "capacity": 64, "pkeys": ["0xffff", "0x0000", "0x8002"]},
  {"node_guid": "0x506b4b0300a1b20f", "port_guid": "0x506b4b0300a1b210", "port": 1, "node_type": "CA", "node_desc": "storage-node", "capacity": 64, "pkeys": ["0x7fff", "0x0001", "0x0002"]}
 ]}
JSON
expect_status 1 "$IBPART" audit -t "$D/seed.topo" --format json --tables tables.json
jq -e '.findings[] | select(.code=="default-full-member") | .ports == ["0x506b4b0300a1b200","0x506b4b0300a1b201","0x506b4b0300a1b202","0x506b4b0300a1b203"]' out >/dev/null ||
  fail "--tables: default-full-member: $(cat out)"
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --tables tables.json "$D/sound-seed.conf"  # both

# without --opensm-conf the M_Key and enforcement rules cannot run: the
# text report says so in its last line, JSON keeps its shape
NOTE="not checked without --opensm-conf: mkey-not-set, mkey-readable"
expect_status 0 "$IBPART" audit -t "$D/two-leaf.topo" "$D/sound-two-leaf.conf"
[[ $(tail -n 1 out) == "$NOTE, part-enforce-off, part-enforce-partial, smkey-default, sakey-default, sm-guids-open, mkey-per-port-off, sa-trust-basic (give OpenSM's opensm.conf)" ]] ||
  fail "unchecked rules line: '$(tail -n 1 out)'"
expect_status 0 "$IBPART" audit -t "$D/two-leaf.topo" --opensm-conf "$D/opensm-good.conf" "$D/sound-two-leaf.conf"
expect_no_grep "not checked" out
expect_status 0 "$IBPART" audit -t "$D/two-leaf.topo" --format json "$D/sound-two-leaf.conf"
jq -e 'keys == ["findings"]' out >/dev/null || fail "json shape without --opensm-conf"
expect_no_grep "not checked" out
# tables without switch enforcement states: nothing feeds those rules
expect_status 1 "$IBPART" audit -t "$D/seed.topo" --tables tables.json
[[ $(tail -n 1 out) == "$NOTE, part-enforce-off, part-enforce-partial, smkey-default, sakey-default, sm-guids-open, mkey-per-port-off, sa-trust-basic (give OpenSM's opensm.conf)" ]] ||
  fail "--tables, unchecked rules line: '$(tail -n 1 out)'"

# switch port enforcement as the switch reports it (simulator, live):
# off in front of tenantA-node-01 (leaf port 3), inbound only in front of
# tenantB-node-01 (port 5), both elsewhere or unknown
jq '.ports += [
  {"node_guid": "0x506b4b0300a1b100", "port": 3, "node_type": "SW", "pkeys": ["0x7fff", "0x8001"], "enforcement": "off"},
  {"node_guid": "0x506b4b0300a1b100", "port": 5, "node_type": "SW", "pkeys": ["0x7fff", "0x8002"], "enforcement": "in"},
  {"node_guid": "0x506b4b0300a1b100", "port": 4, "node_type": "SW", "pkeys": ["0x7fff", "0x8001"], "enforcement": "both"}]' \
  tables.json >tables-enf.json
expect_status 1 "$IBPART" audit -t "$D/seed.topo" --format json --tables tables-enf.json
jq -e '.findings[] | select(.code=="part-enforce-off") | .ports == ["0x506b4b0300a1b200"]' out >/dev/null ||
  fail "part-enforce-off from the switch state: $(jq -c '[.findings[] | [.code, .ports]]' out)"
jq -e '.findings[] | select(.code=="part-enforce-partial") | .ports == ["0x506b4b0300a1b202"]' out >/dev/null ||
  fail "part-enforce-partial from the switch state"
# ... the switch states feed part-enforce-*: only the M_Key rules are left
expect_status 1 "$IBPART" audit -t "$D/seed.topo" --tables tables-enf.json
expect_grep "^high     part-enforce-off: " out
[[ $(tail -n 1 out) == "$NOTE, smkey-default, sakey-default, sm-guids-open, mkey-per-port-off, sa-trust-basic (give OpenSM's opensm.conf)" ]] ||
  fail "--tables with enforcement, unchecked rules line: '$(tail -n 1 out)'"
jq '.ports[7].enforcement = "sometimes"' tables-enf.json >bad-enf.json
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --tables bad-enf.json
expect_grep "enforcement" err
echo '{"ports": [{"node_guid": "0x1234", "port": 1, "pkeys": []}]}' >unknown.json
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --tables unknown.json
expect_grep "no such port in the topology" err
echo '{"ports": [' >broken.json
expect_status 2 "$IBPART" audit -t "$D/seed.topo" --tables broken.json
expect_grep "broken.json:" err
finish
