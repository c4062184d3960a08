#!/usr/bin/env bash
# ibpartd_views.sh - ibpart's own views of the service's plan over
# loopback HTTP, without a fabric: GET /ibpart/v1/tables, /matrix and
# /audit answer what `ibpart tables/matrix/audit --format json` print for
# the file the newest revision renders on --topology (the same library
# operations), and hold what the IBA rules say of the plan (written by
# hand below: 10.9.3's match rule, OpenSM's index order); with
# --opensm-conf the tables follow its allow_both_pkeys and the audit and
# GET /ibpart/v1/status carry its posture findings (the codes of `ibpart
# audit --opensm-conf`); --mkey-file is read as ibpart reads it (owner
# only, one key, never echoed); both are config-file keys.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
TOPO=$IBP_SRC/tests/interop/data/live-2sw.topo
printf '# the operator\nDefault=0x7fff, ipoib : 0x0002c90000000101=full ;\n' >"$IBPD_CONF"
req() { REQ="$*"; ibpd_req "$@"; }
want() { [[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $(head -c 300 <<<"$BODY")"; }

# without --topology there is nothing to compute them on: 404 with why
ibpd_start || { fail "ibpartd did not start"; finish; }
for v in tables matrix audit; do
	req GET /ibpart/v1/$v; want 404
	[[ $(jq -r .error <<<"$BODY") == *"without --topology"* ]] || fail "$v without topology: $BODY"
done
REQ="tables without credentials"
CODE=$(curl -s -o /dev/null -w '%{http_code}' "$IBPD_URL/ibpart/v1/tables"); want 401
# verify without a port to read the fabric from: 503 with the reason
req GET /ibpart/v1/verify; want 503
[[ $(jq -r .error <<<"$BODY") == "the fabric: "* ]] || fail "verify without a fabric: $BODY"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
# an opensm.conf without a topology: status says why there is no posture
printf 'm_key 0\n' >osm-only.conf
ibpd_start --opensm-conf osm-only.conf -C no-such-ca || { fail "ibpartd did not start"; finish; }
req GET /ibpart/v1/status; want 200
[[ $(jq -r .posture.error <<<"$BODY") == *"without --topology"* ]] || fail "posture without topology: $(jq -c .posture <<<"$BODY")"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

printf 'm_key 0\nsm_key 0x1\npart_enforce off\nallow_both_pkeys TRUE\n' >opensm.conf
ibpd_start --topology "$TOPO" --opensm-conf opensm.conf || { fail "ibpartd did not start"; finish; }
# node-b and node-c full in 0xa, node-d limited; node-b limited in 0xb
# too (allow_both_pkeys: a port may hold both keys of a partition)
req POST /ufmRest/resources/pkeys '{"pkey": "0xa", "guids": ["0002c90000000301", "0002c90000000401", "0002c90000000601"], "memberships": ["full", "full", "limited"], "ip_over_ib": true, "index0": false}'
want 200
req POST /ufmRest/resources/pkeys '{"pkey": "0xb", "guids": ["0002c90000000301"], "membership": "limited"}'
want 200
req GET /ibpart/v1/plan; want 200
jq -r .partitions_conf <<<"$BODY" >plan.conf

# tables: the CLI's JSON for the same plan, topology and opensm.conf
req GET /ibpart/v1/tables; want 200
jq -S . <<<"$BODY" >http-tables.json
"$IBPART" tables -t "$TOPO" --opensm-conf opensm.conf --format json plan.conf >cli.json 2>cli.err ||
	fail "ibpart tables: $(cat cli.err)"
jq -S . cli.json | cmp -s - http-tables.json || fail "tables differ from ibpart tables --format json"
# by hand, the entries each port holds (limited: the bit 15 clear;
# every end port limited in 0x7fff; 0x0000 an empty entry)
pk() { jq -r --arg g "$1" '[.ports[] | select(.port_guid == $g) | .pkeys[] | select(. != "0x0000")] | sort | join(" ")' http-tables.json; }
[[ $(pk 0x0002c90000000301) == "0x000b 0x7fff 0x800a" ]] || fail "node-b's table: $(pk 0x0002c90000000301)"
[[ $(pk 0x0002c90000000601) == "0x000a 0x7fff" ]] || fail "node-d's table: $(pk 0x0002c90000000601)"
[[ $(pk 0x0002c90000000201) == "0x7fff" ]] || fail "node-a's table: $(pk 0x0002c90000000201)"

# matrix: the CLI's JSON; node-b reaches node-d (full-limited in 0xa),
# node-d does not reach node-a (limited-limited in 0x7fff: IBA 10.9.3)
req GET /ibpart/v1/matrix; want 200
jq -S . <<<"$BODY" >http-matrix.json
"$IBPART" matrix -t "$TOPO" --format json plan.conf >cli.json 2>cli.err || fail "ibpart matrix: $(cat cli.err)"
jq -S . cli.json | cmp -s - http-matrix.json || fail "matrix differs from ibpart matrix --format json"
talk() { jq --arg a "$1" --arg b "$2" '(.endpoints | map(.port_guid)) as $e | .can_talk[($e | index($a))][($e | index($b))]' http-matrix.json; }
[[ $(talk 0x0002c90000000301 0x0002c90000000601) == true ]] || fail "node-b to node-d: $(talk 0x0002c90000000301 0x0002c90000000601)"
[[ $(talk 0x0002c90000000601 0x0002c90000000201) == false ]] || fail "node-d to node-a: $(talk 0x0002c90000000601 0x0002c90000000201)"

# audit: the CLI's JSON with the same opensm.conf; its posture codes
req GET /ibpart/v1/audit; want 200
jq -S . <<<"$BODY" >http-audit.json
set +e
"$IBPART" audit -t "$TOPO" --opensm-conf opensm.conf --format json plan.conf >cli.json 2>cli.err
set -e
jq -S . cli.json | cmp -s - http-audit.json || fail "audit differs from ibpart audit --opensm-conf --format json"
codes() { jq -r '[.findings[].code] | unique | join(" ")' "$1"; }
for c in mkey-not-set smkey-default sakey-default part-enforce-off; do
	[[ " $(codes http-audit.json) " == *" $c "* ]] || fail "audit without $c: $(codes http-audit.json)"
done
# status: the posture findings alone (opensm.conf's rules), nothing of
# the plan's (partition-single-member is the plan's, not posture)
req GET /ibpart/v1/status; want 200
jq .posture <<<"$BODY" >posture.json
[[ $(jq -r .opensm_conf posture.json) == opensm.conf ]] || fail "posture names no file: $(cat posture.json)"
got=$(codes posture.json)
[[ $got == "mkey-not-set part-enforce-off sakey-default smkey-default" ]] || fail "status posture: $got"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# a sound opensm.conf: no posture finding left but the SA_Key's info
printf 'm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\nsm_key 0x5ec2e7\npart_enforce both\n' >sound.conf
printf 'opensm-conf sound.conf\ntopology %s\n' "$TOPO" >ibpartd.conf
ibpd_start --config ibpartd.conf || { fail "ibpartd --config did not start"; finish; }
req GET /ibpart/v1/status; want 200
[[ $(jq -r '[.posture.findings[].code] | join(" ")' <<<"$BODY") == sakey-default ]] || fail "sound posture: $(jq -c .posture <<<"$BODY")"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# --sm-port: /ufmRest/resources/ports numbers the LIDs from the SM's
# port, not from the topology's first CA (sm-host).  By hand, OpenSM
# 3.3.23's rule on a fresh fabric: the SM's port LID 1, then every other
# end port by its port GUID read little-endian (the last byte first):
# spine-1 (..10 00) 2, leaf-2 (..20 00) 3, then ..01 01 sm-host,
# ..02 01 node-a, ..03 01 node-b, ..05 01 dual-host 1, ..06 01 node-d,
# ..05 02 dual-host 2.  With node-c (..04 01) the SM's port:
ibpd_start --topology "$TOPO" --sm-port 0x0002c90000000401 || { fail "ibpartd --sm-port did not start"; finish; }
req GET '/ufmRest/resources/ports?sys_type=Computer'; want 200
lids=$(jq -r 'map("\(.guid)=\(.lid)") | sort | join(" ")' <<<"$BODY")
[[ $lids == "0002c90000000101=4 0002c90000000201=5 0002c90000000301=6 0002c90000000401=1 0002c90000000501=7 0002c90000000502=9 0002c90000000601=8" ]] ||
	fail "CA LIDs from node-c's port: $lids"
req GET '/ufmRest/resources/ports?sys_type=Switch'; want 200
lids=$(jq -r 'map("\(.system_name)=\(.lid)") | unique | join(" ")' <<<"$BODY")
[[ $lids == "leaf-2=3 spine-1=2" ]] || fail "switch LIDs from node-c's port: $lids"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# bad inputs: exit 2, located, the key never echoed
refused() { # refused OPTION FILE GREP: ibpartd will not start on it
	expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$IBPD_DB" \
		--partitions "$IBPD_CONF" "$1" "$2"
	expect_grep "$3" err
	expect_no_grep 'c0ffee' err
}
printf 'm_key notanumber\n' >bad-osm.conf
refused --opensm-conf bad-osm.conf 'bad-osm.conf:1:'
printf '0x00c0ffee00c0ffee\n' >mk
chmod 644 mk
refused --mkey-file mk 'readable by others'
printf '0x00c0ffee00c0ffee 0x1111\n' >mk
chmod 600 mk
refused --mkey-file mk 'holds 2 words'
printf '0x00c0ffee00c0ffee\n' >mk
printf 'mkey-file mk\n' >mk.conf
ibpd_start --config mk.conf || fail "ibpartd with a good --mkey-file did not start"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
