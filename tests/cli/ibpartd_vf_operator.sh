#!/usr/bin/env bash
# ibpartd_vf_operator.sh - the VF GUIDs OpenSM skips are findings of
# every audit ibpartd and ibpart make (issue 27), over loopback HTTP
# without a fabric.  ibpartd --vf-guids physical writes the aliases of
# its generated section on their physical ports but the operator's own
# lines as they are, so an alias GUID there stays an alias that OpenSM
# 3.3.23 skips: GET /ibpart/v1/audit has guid-alias-ignored naming it
# (and only it: the API's VF, written on its port, is no such finding),
# guid-unknown names a GUID of no port, the page at / shows both, and
# GET /ibpart/v1/tables gives the operator's alias's port no key.
# `ibpart audit --format json` of the file ibpartd wrote says the same
# (the default --vf-guids alias reads it as OpenSM does: the generated
# section already names the ports), and `ibpart check`, `tables` and
# `matrix` warn of the same GUIDs.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
TOPO=$IBP_SRC/tests/interop/data/live-2sw.topo
# node-b (port 0x0002c90000000301): VFs 1 and 2; node-c (0x...0401): VF 1
B1=0x0002c903000a0301 B2=0x0002c903000a0302 C1=0x0002c903000a0401
NODEA=0x0002c90000000201 NOPORT=0x0002c903000aff01
printf '%s 0x0002c90000000301 1\n%s 0x0002c90000000301 2\n%s 0x0002c90000000401 1\n' \
	"$B1" "$B2" "$C1" >aliases
# the operator's lines: node-b's VF 2 and a GUID of no port beside node-a
cat >"$IBPD_CONF" <<EOF
Default=0x7fff, ipoib : ALL=limited, 0x0002c90000000101=full ;
op_vf=0x000c : $B2=full, $NODEA=full, $NOPORT=full ;
EOF
jqf() { jq -c "$1" <<<"$BODY"; }

ibpd_start --topology "$TOPO" --alias-guids aliases --vf-guids physical ||
	{ fail "ibpartd did not start"; finish; }
# ib-kubernetes' add of node-c's VF 1 to 0x000A: written on node-c
ibpd_req POST /ufmRest/resources/pkeys \
	'{"pkey": "0x0A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["'"${C1#0x}"'"]}'
[[ $CODE == 200 ]] || fail "ib-kubernetes' add: $CODE $BODY"
ibpd_req GET /ibpart/v1/audit
[[ $CODE == 200 ]] || fail "GET /ibpart/v1/audit: $CODE $BODY"
got=$(jqf '[.findings[] | select(.code == "guid-alias-ignored") | {severity, ports, partitions}]')
[[ $got == '[{"severity":"medium","ports":["'$B2'"],"partitions":["0x000c"]}]' ]] ||
	fail "GET /ibpart/v1/audit: guid-alias-ignored $got: $BODY"
[[ $(jqf '[.findings[] | select(.code == "guid-alias-ignored") | .message][0]') == *"VF 2 of node-b port 1"* ]] ||
	fail "guid-alias-ignored does not name VF 2 of node-b: $BODY"
got=$(jqf '[.findings[] | select(.code == "guid-unknown") | {ports, partitions}]')
[[ $got == '[{"ports":["'$NOPORT'"],"partitions":["0x000c"]}]' ]] ||
	fail "GET /ibpart/v1/audit: guid-unknown $got: $BODY"
audit_json=$BODY
# the page shows them too
ibpd_req GET /
[[ $CODE == 200 && $BODY == *guid-alias-ignored* && $BODY == *guid-unknown* ]] ||
	fail "the page at / lacks guid-alias-ignored or guid-unknown ($CODE)"
# the predicted tables: node-a and node-c hold their keys, node-b not 0x000c
ibpd_req GET /ibpart/v1/tables
keys() { jq -r --arg g "$1" '.ports[] | select(.port_guid == $g) | .pkeys[]' <<<"$BODY" | sort | xargs; }
[[ $(keys $NODEA) == *0x800c* && $(keys 0x0002c90000000401) == *0x800a* && $(keys 0x0002c90000000301) != *0x800c* ]] ||
	fail "tables: node-a [$(keys $NODEA)] node-b [$(keys 0x0002c90000000301)] node-c [$(keys 0x0002c90000000401)]"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# the file ibpartd wrote, audited by ibpart as OpenSM reads it
grep -q "^[[:space:]]*0x0002c90000000401=full" "$IBPD_CONF" || fail "node-c not written for its VF: $(cat "$IBPD_CONF")"
expect_status 0 "$IBPART" audit -t "$TOPO" --alias-guids aliases --format json "$IBPD_CONF"
for code in guid-alias-ignored guid-unknown; do
	[[ $(jq -c --arg c $code '[.findings[] | select(.code == $c)]' out) == \
		"$(jq -c --arg c $code '[.findings[] | select(.code == $c)]' <<<"$audit_json")" ]] ||
		fail "ibpart audit's $code differs from GET /ibpart/v1/audit's: $(cat out)"
done
# (check and tables exit 1 on warnings, matrix 0)
for cmd in check:1 tables:1 matrix:0; do
	expect_status ${cmd#*:} "$IBPART" ${cmd%:*} -t "$TOPO" --alias-guids aliases "$IBPD_CONF"
	expect_grep "1 alias GUID(s) of the plan: $B2 (VF 2 of node-b port 1).*\[guid-alias-ignored\]" err
	expect_grep "1 GUID(s) of the plan are no port of the fabric: $NOPORT.*\[guid-unknown\]" err
done
finish
