#!/usr/bin/env bash
# ibpartd_ufm_more.sh - the UFM calls beyond the P_Key CRUD that clients
# make (docs/ufm-api.md 1.2, 2.11, 2.12), over loopback HTTP:
#  - GET /app/tokens (NICo's runbook): the caller's tokens as UFM's
#    objects, never the token itself;
#  - GET /app/smconf (NICo's check_ib_fabric): OpenSM's subnet_prefix
#    and keys from --opensm-conf as hex strings, m_key_per_port a bool;
#    OpenSM's defaults without an opensm.conf (NICo fails on a 404);
#  - POST /resources/pkeys/hosts with the Slurm integration's body
#    (json.dumps: ", " and ": "), a compressed Slurm host list resolved
#    to every port of every HCA of each host (NodeDescription "HOSTNAME
#    DEVICE"), answered with UFM's job (polled at GET /jobs/{id}), and
#    DELETE /resources/pkeys/{pkey}/hosts/{hosts}.
# Expected GUIDs are read by hand off tests/data/topo/slurm-hosts.topo.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
TOPO=$IBP_SRC/tests/data/topo/slurm-hosts.topo
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
req() { REQ="$*"; ibpd_req "$@"; }
want() { # want CODE [JQ-EXPR VALUE]
	[[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $BODY"
	if [[ -n ${2-} ]]; then
		local got
		got=$(jq -c "$2" <<<"$BODY" 2>/dev/null) || got="(not JSON: $BODY)"
		[[ $got == "$3" ]] || fail "$REQ: $2 is $got, want $3"
	fi
}

# without an opensm.conf or a topology: smconf is OpenSM's defaults,
# hosts 400
ibpd_start || { fail "ibpartd did not start"; finish; }
req GET /ufmRest/app/smconf
want 200 '.' '{"subnet_prefix":"0xfe80000000000000","m_key":"0x0","sm_key":"0x1","sa_key":"0x1","m_key_per_port":false}'
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node01", "pkey": "0x5", "ip_over_ib": true, "index0": false}'
want 400 '.field' '"hosts_names"'
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# OpenSM's keys only to the role admin (issue 28)
printf 'op:%s:role=change\n' "$(openssl passwd -6 secret)" >>"$IBPD_USERS"
printf 'subnet_prefix 0xfe80000000000abc\nm_key 0x8a3c5e7f91b2d4e6\nm_key_protection_level 2\nsm_key 0x5ec2e7\nm_key_per_port TRUE\n' >opensm.conf
ibpd_start --topology "$TOPO" --opensm-conf opensm.conf || { fail "ibpartd did not start"; finish; }

# smconf: NICo parses each key as hex when 0x-prefixed
req GET /ufmRest/app/smconf
want 200 '.' '{"subnet_prefix":"0xfe80000000000abc","m_key":"0x8a3c5e7f91b2d4e6","sm_key":"0x5ec2e7","sa_key":"0x1","m_key_per_port":true}'
REQ="smconf as change"; ibpd_req_as "-u op:secret" GET /ufmRest/app/smconf
want 200 '.' '{"subnet_prefix":"0xfe80000000000abc","m_key_per_port":true}'

# tokens: two issued; the list has both, by their public part only
req POST /ufmRest/app/tokens; want 200
t1=$(jq -r .access_token <<<"$BODY")
req POST /ufmRest/app/tokens; want 200
t2=$(jq -r .access_token <<<"$BODY")
req GET /ufmRest/app/tokens
want 200 'map(.token_id)|sort' "$(jq -nc --arg a "${t1:0:16}" --arg b "${t2:0:16}" '[$a, $b]|sort')"
want 200 'map(.username)|unique' '["admin"]'
want 200 'map(.revoked)|unique' '[false]'
[[ $BODY != *"$t1"* && $BODY != *"$t2"* ]] || fail "GET /app/tokens shows a token: $BODY"
REQ="tokens over V3"; ibpd_req_as "Authorization: Basic $t2" GET /ufmRestV3/app/tokens
want 200 'length' 2

# Slurm: its exact body (json.dumps of a dict, SLURM_JOB_NODELIST raw)
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node[01-03],gpu7", "pkey": "0x2a", "ip_over_ib": true, "index0": false}'
want 200 '[.id == (.revision|tostring), .operation, (.status|test("^(running|completed)$"))]' '[true,"add_hosts_to_pkey",true]'
# UFM's job for it (the client in fabiendupont/nvidia-ufm-api polls
# GET /jobs/{id} until "completed"): without OpenSM, once the file is
# written
job=$(jq -r .id <<<"$BODY")
for ((i = 0; i < 100; i++)); do
	req GET "/ufmRest/jobs/$job"
	[[ $(jq -r .status <<<"$BODY") == completed ]] && break
	sleep 0.05
done
want 200 '[.id, .status]' "[\"$job\",\"completed\"]"
req GET /ufmRest/jobs/999; want 404
req GET /ufmRest/jobs/abc; want 404
req GET '/ufmRest/resources/pkeys/0x2a?guids_data=true'
want 200 '.guids|map(.guid)' '["0002c90000000101","0002c90000000201","0002c90000000301","0002c90000000311","0002c90000000312","0002c90000000701"]'
want 200 '.guids|map(.membership)|unique' '["full"]'
# values from ufm_slurm.conf arrive as strings; a zero-padded range
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node[010]", "pkey": "0x2a", "ip_over_ib": "true", "index0": "false"}'
want 200
req GET '/ufmRest/resources/pkeys/0x2a?guids_data=true'
want 200 '.guids|length' 7
# DELETE by hosts: node03's three ports and gpu7's leave
req DELETE '/ufmRest/resources/pkeys/0x2a/hosts/node03,gpu7'
want 200
req GET '/ufmRest/resources/pkeys/0x2a?guids_data=true'
want 200 '.guids|map(.guid)' '["0002c90000000101","0002c90000000201","0002c90000000801"]'

# bad input: 400 naming the field, nothing changed
rev=$(ibpd_req GET /ibpart/v1/status; jq .revision <<<"$BODY")
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node99,node98", "pkey": "0x2a"}'
want 400 '.field' '"hosts_names"'
[[ $BODY == *node99* ]] || fail "unknown host not named: $BODY"
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node[02-01]", "pkey": "0x2a"}'
want 400 '.field' '"hosts_names"'
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node[01", "pkey": "0x2a"}'
want 400 '.field' '"hosts_names"'
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node01", "pkey": "0x8000"}'
want 400 '.field' '"pkey"'
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node01", "pkey": "0x2a", "colour": 1}'
want 400 '.field' '"colour"'
req DELETE '/ufmRest/resources/pkeys/0x2a/hosts/nobody'
want 400 '.field' '"hosts_names"'
req GET /ibpart/v1/status
want 200 '.revision' "$rev"

# a job list with a host the fabric lacks (UFM's host resolution has to
# take the others): the known hosts join, the rest is reported in the
# answer's warnings (an extra field), the log and the status
req POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node01,node99", "pkey": "0x2b", "ip_over_ib": true, "index0": false}'
want 200 '.warnings|map([.code, .hosts])' '[["unknown-host",["node99"]]]'
req GET '/ufmRest/resources/pkeys/0x2b?guids_data=true'
want 200 '.guids|map(.guid)' '["0002c90000000101"]'
req GET /ibpart/v1/status
want 200 '[.warnings[0].revision == .revision, .warnings[0].warnings[0].hosts]' '[true,["node99"]]'
grep -q 'accepted with unknown-host: ' "$IBPD_LOG" || fail "the unknown host is not in the log"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
