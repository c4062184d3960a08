# tables_opensm_conf.sh - `ibpart tables --opensm-conf` and the state
# file across runs: opensm.conf read as OpenSM 3.3.23 reads it (TRUE only
# when exactly TRUE), allow_both_pkeys taken at OpenSM's start only (a
# later run with --state is a SIGHUP), keep_pkey_indexes FALSE packing
# the tables, flags overriding the file, and the two older state formats
# still loading.  Expected tables are OpenSM's (docs/opensm-behaviour.md
# rules 9 and 19, tests/interop/test_opensm_state.sh).
source "$IBP_SRC/tests/cli/lib.sh"
S=$IBP_SRC/examples/seed/seed.topo
D=$IBP_SRC/tests/data/interop
B200='.ports[] | select(.port_guid == "0x506b4b0300a1b200") | .pkeys | join(" ")'
STOR='.ports[] | select(.port_guid == "0x506b4b0300a1b210") | .pkeys | join(" ")'
WBOTH="0x0000 0x0001 0x8001 0x0002 0x8002 0x7fff"
NOBOTH="0x7fff 0x8001 0x8002"

expect_status 0 "$IBPART" tables --help
expect_grep "--opensm-conf FILE" out

# allow_both_pkeys TRUE in opensm.conf: the tables of -W (rule 9)
printf 'allow_both_pkeys TRUE\n' >ab.conf
expect_status 0 "$IBPART" tables -t "$S" --format json --opensm-conf ab.conf "$D/s02-both.conf"
[ "$(jq -r "$B200" out)" = "$WBOTH" ] || fail "allow_both_pkeys TRUE: $(jq -r "$B200" out)"
# "true" is not TRUE to OpenSM: FALSE, and a warning (exit 1)
printf '# comment\nallow_both_pkeys true\n' >lower.conf
expect_status 1 "$IBPART" tables -t "$S" --format json --opensm-conf lower.conf "$D/s02-both.conf"
[ "$(jq -r "$B200" out)" = "$NOBOTH" ] || fail "allow_both_pkeys true must read FALSE"
expect_grep "lower.conf:2:1: warning: allow_both_pkeys 'true': OpenSM takes a boolean as TRUE only when it is exactly TRUE" err
# the flag overrides the file
expect_status 1 "$IBPART" tables -t "$S" --format json --opensm-conf lower.conf --allow-both-pkeys "$D/s02-both.conf"
[ "$(jq -r "$B200" out)" = "$WBOTH" ] || fail "--allow-both-pkeys overrides opensm.conf"
expect_status 2 "$IBPART" tables -t "$S" --opensm-conf missing.conf "$D/s02-both.conf"

# allow_both_pkeys is read at OpenSM's start only: with a state that
# records the running OpenSM, a changed opensm.conf keeps it
rm -f st.json
expect_status 0 "$IBPART" tables -t "$S" --format json --state st.json --opensm-conf ab.conf "$D/s02-both.conf"
jq -e '.format == "ibpart-state" and .version == 2 and .opensm.allow_both_pkeys == true' st.json >/dev/null ||
	fail "the state records OpenSM's options"
printf 'allow_both_pkeys FALSE\n' >noab.conf
expect_status 0 "$IBPART" tables -t "$S" --format json --state st.json --opensm-conf noab.conf "$D/s02-both.conf"
[ "$(jq -r "$B200" out)" = "$WBOTH" ] || fail "SIGHUP must not change allow_both_pkeys"

# keep_pkey_indexes FALSE (re-read on SIGHUP): holes closed, as on a
# fresh fabric
rm -f st.json
expect_status 0 "$IBPART" tables -t "$S" --format json --state st.json "$D/h01-before.conf"
expect_status 0 "$IBPART" tables -t "$S" --format json "$D/h02-after.conf"
cp out fresh.json
printf 'keep_pkey_indexes FALSE\n' >compact.conf
expect_status 0 "$IBPART" tables -t "$S" --format json --state st.json --opensm-conf compact.conf "$D/h02-after.conf"
[ "$(jq -r "$STOR" out)" = "$(jq -r "$STOR" fresh.json)" ] || fail "keep_pkey_indexes FALSE must pack"
[ "$(jq -r "$STOR" out)" != "0x7fff 0x0000 0x0002 0x0003 0x8100" ] || fail "keep_pkey_indexes FALSE left the hole"

# version 0: the first --state format (tables JSON, "remembered" arrays)
cat >v0.json <<'X'
{"mode": "opensm", "sm_port_guid": "0x506b4b0300a1b300", "ports": [
 {"node_guid": "0x506b4b0300a1b20f", "port_guid": "0x506b4b0300a1b210", "port": 1,
  "pkeys": ["0x7fff", "0x0000", "0x0002", "0x0003", "0x8100"],
  "remembered": ["0x7fff", "0x0001", "0x0002", "0x0003", "0x8100"]}]}
X
expect_status 0 "$IBPART" tables -t "$S" --format json --state v0.json "$D/h03-again.conf"
[ "$(jq -r "$STOR" out)" = "0x7fff 0x0001 0x0002 0x0000 0x0000 0x0005" ] ||
	fail "version 0 state: $(jq -r "$STOR" out)"
jq -e '.version == 2' v0.json >/dev/null || fail "a state is rewritten as version 2"
# version 1: `apply --state` (what the ports held, nothing remembered: a
# fresh OpenSM finds the tables as they are)
cat >v1.json <<'X'
{"format": "ibpart-pkey-state-1", "ports": [
 {"node_guid": "0x506b4b0300a1b20f", "port_guid": "0x506b4b0300a1b210", "port": 1,
  "node_desc": "storage-node", "capacity": 64,
  "pkeys": ["0x7fff", "0x0000", "0x0002", "0x0003", "0x8100"]},
 {"node_guid": "0x506b4b0300a1b100", "port_guid": "0x506b4b0300a1b100", "port": 9,
  "node_desc": "leaf-01", "capacity": 64, "pkeys": ["0xffff"], "enforcement": "in"}]}
X
expect_status 0 "$IBPART" tables -t "$S" --format json --state v1.json "$D/h03-again.conf"
[ "$(jq -r "$STOR" out)" = "0x7fff 0x0000 0x0002 0x0001 0x0005" ] ||
	fail "version 1 state: $(jq -r "$STOR" out)"
jq -e '[.ports[] | select(.port == 9 and .node_guid == "0x506b4b0300a1b100")][0] |
	.enforcement == "in" and .pkeys == ["0xffff"]' v1.json >/dev/null ||
	fail "a port not programmed keeps its table and enforcement bits"
echo '{"format": "ibpart-state", "version": 9, "ports": []}' >v9.json
expect_status 2 "$IBPART" tables -t "$S" --state v9.json "$D/h03-again.conf"
expect_grep "newer than this ibpart reads" err
finish
