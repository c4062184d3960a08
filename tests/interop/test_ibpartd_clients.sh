#!/usr/bin/env bash
# test_ibpartd_clients.sh - each UFM client's workflow, as its own code
# runs it, against ibpartd in front of the real OpenSM on ibsim, to the
# end state the client intends, with the real smpquery reading every
# port the workflow changes.  The requests, their order and what each
# client accepts back are transcribed as facts from the clients' code
# (docs/ufm-api.md names the files); no client code is here.
#   ib-kubernetes PR #210  last_updated gate (null, UFM's format, >= the
#                          Date of HEAD /app/ufm_version), pKeyExists
#                          ({} is "no"), add, remove
#   NICo                   Ready ({} before the first bind), bind, QoS,
#                          its monitor's calls, unbind, Deleting ends on
#                          exactly {}
#   NCM                    validate, create (/add), verify created, add
#                          by GET-merge-PUT, verify, set, remove,
#                          retried remove, verify absent (its profile:
#                          not_found=404), the P_Key free again
#   Slurm                  two jobs sharing a node: prolog (hosts),
#                          refused without a profile, accepted with a
#                          warning under warn=tenant-bridge; epilog
#   OpenStack              bind (trailing slash, index0 true), unbind
#                          (retried), delete network (404 tolerated)
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm
for u in nico ncm slurm osk; do
	printf '%s:%s\n' "$u" "$(openssl passwd -6 "pw-$u")" >>"$IBPD_USERS"
done
# NCM's user is served by the profile its line names; Slurm's by the one
# named after it
sed -i 's/^ncm:.*/&:profile=written-for-404/' "$IBPD_USERS"
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 20000 \
	--profile written-for-404:not_found=404 --profile slurm:warn=tenant-bridge ||
	live_fail "ibpartd did not start"
ibpd_wait_start || live_fail "start: no verification"

# directed routes from the SM host (spine port 3) to each CA
A="0,1,4 1" B="0,1,1,3 1" C="0,1,1,4 1" DD="0,1,1,6 1"
GA=0002c90000000201 GB=0002c90000000301 GC=0002c90000000401 GD=0002c90000000601
as() { # as USER METHOD PATH [BODY]: a request as USER (Basic)
	local u=$1 p=pw-$1
	[[ $u == admin ]] && p=secret
	shift
	REQ="$u $*"
	ibpd_req_as "-u $u:$p" "$@"
}
want() { # want CODE [JQ-EXPR VALUE]
	[[ $CODE == "$1" ]] || live_fail "$REQ: HTTP $CODE, want $1: $BODY"
	if [[ -n ${2-} ]]; then
		local got
		got=$(jq -c "$2" <<<"$BODY" 2>/dev/null) || got="(not JSON: $BODY)"
		[[ $got == "$3" ]] || live_fail "$REQ: $2 is $got, want $3"
	fi
}
fabric() { # the fabric holds the last answer's revision
	ibpd_wait_fabric "$(jq .revision <<<"$BODY")" || live_fail "$REQ: $(tail -5 "$IBPD_LOG")"
}
holds() { # holds PORT-ROUTE PKEY yes|no: what smpquery reads
	local t
	t=$(live_smp_pkeys $1)
	if [[ $3 == yes ]]; then
		[[ " $t " == *" $2 "* ]] || live_fail "smpquery $1: [$t] lacks $2 ($REQ)"
	else
		[[ " $t " != *" $2 "* ]] || live_fail "smpquery $1: [$t] still holds $2 ($REQ)"
	fi
}

# ---- ib-kubernetes PR #210: the last_updated gate before every change
as admin GET /ufmRest/app/ufm_version
want 200
as admin GET /ufmRest/resources/pkeys/last_updated
want 200 '.' '{"last_updated":null}' # before any change: proceed
gate() { # HEAD's Date, the server's clock just before a change
	local h
	h=$(curl -s -I -u admin:secret "$IBPD_URL/ufmRest/app/ufm_version")
	[[ $h == "HTTP/1.1 200"* ]] || live_fail "HEAD /app/ufm_version: $h"
	GATE=$(sed -n 's/^[Dd]ate: \(.*\)\r$/\1/p' <<<"$h")
	GATE=$(date -d "$GATE" +%s) || live_fail "Date header: $h"
}
passed() { # is last_updated at or after the stored Date (UFM's format)
	as admin GET /ufmRest/resources/pkeys/last_updated
	local v
	v=$(jq -r .last_updated <<<"$BODY")
	[[ $v =~ ^[A-Z][a-z]{2}\ [A-Z][a-z]{2}\ [\ 1-3][0-9]\ [0-9:]{8}\ UTC\ [0-9]{4}$ ]] ||
		live_fail "last_updated is not UFM's format: $BODY"
	(($(date -d "$v" +%s) >= GATE))
}
gate_wait() { # the next change may go ahead (bounded: 40 s)
	local i
	for ((i = 0; i < 200; i++)); do
		passed && return 0
		sleep 0.2
	done
	live_fail "last_updated never reached the Date of the last change: $BODY"
}
gate
# pKeyExists of the limited partition: {} is "does not exist"
as admin GET /ufmRest/resources/pkeys/0x0001
want 200 '.' '{}'
as admin POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "guids": ["'$GB'"], "membership": "full", "index0": true}'
want 200
fabric
holds "$B" 0x800a yes
gate_wait
gate
# the same add again (a requeue): changes nothing, must not stall the gate
as admin POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "guids": ["'$GB'"], "membership": "full", "index0": true}'
want 200
gate_wait
gate
as admin POST /ufmRest/actions/remove_guids_from_pkey '{"pkey": "0x000A", "guids": ["'$GB'"]}'
want 200
fabric
holds "$B" 0x800a no
gate_wait
live_ok "ib-kubernetes PR #210: last_updated null, then UFM's format past each HEAD Date (a no-op add included); 0x800a on node-b and gone"

# ---- NICo (token, /ufmRestV3): its partition state machine
as nico POST /ufmRest/app/tokens
TOKEN=$(jq -r .access_token <<<"$BODY")
nico() { REQ="nico $*"; ibpd_req_as "Authorization: Basic $TOKEN" "$@"; }
nico GET '/ufmRestV3/resources/pkeys/0x2fb?qos_conf=true' # Ready: none yet
want 200
[[ $BODY == '{}' ]] || live_fail "NICo Ready before a bind: '$BODY' is not {}"
# its fabric monitor, every step of which must succeed to bind anything
nico GET /ufmRestV3/app/ufm_version
want 200 '.ufm_release_version|type' '"string"'
nico GET /ufmRestV3/app/smconf
want 200 '[.subnet_prefix, .m_key, .sm_key, .sa_key]|map(type)' '["string","string","string","string"]'
nico GET '/ufmRestV3/resources/pkeys/0x7fff?guids_data=true&qos_conf=true'
want 200 '[(.partition|type), (.ip_over_ib|type)]' '["string","boolean"]'
nico GET '/ufmRestV3/resources/ports?sys_type=Computer'
want 200 'map(select(.guid == "'$GD'"))|map([.name, .systemID, (.lid|type), .dname, .system_name, .physical_state, .logical_state])' \
	'[["'$GD'_1","0002c90000000600","number","1","node-d","Link Up","Active"]]'
nico GET '/ufmRestV3/resources/pkeys?qos_conf=true'
want 200 '[has("0x7fff"), (map(.qos_conf.mtu_limit)|all(. == 2 or . == 4))]' '[true,true]'
# bind: one GUID per call, its compact body
nico POST /ufmRestV3/resources/pkeys '{"pkey":"0x2fb","ip_over_ib":true,"membership":"full","index0":true,"guids":["'$GD'"]}'
want 200
nico GET '/ufmRestV3/resources/pkeys/0x2fb?qos_conf=true' # Ready
want 200 '[(.partition|type), .ip_over_ib, (.qos_conf|keys)]' '["string",true,["mtu_limit","rate_limit","service_level"]]'
nico PUT /ufmRestV3/resources/pkeys/qos_conf '{"pkey":"0x2fb","mtu_limit":4,"service_level":0,"rate_limit":200.0}'
want 200
fabric
holds "$DD" 0x82fb yes
nico GET '/ufmRestV3/resources/pkeys/0x2fb?guids_data=true&qos_conf=true'
want 200 '[.guids, .qos_conf]' '[[{"guid":"'$GD'","membership":"full","index0":true}],{"mtu_limit":4,"rate_limit":200,"service_level":0}]'
# unbind (instance release), then Deleting: done only on exactly {}
nico POST /ufmRestV3/actions/remove_guids_from_pkey '{"pkey":"0x2fb","guids":["'$GD'"]}'
want 200
fabric
holds "$DD" 0x82fb no
nico GET '/ufmRestV3/resources/pkeys/0x2fb?qos_conf=true'
want 200
[[ $BODY == '{}' ]] || live_fail "NICo Deleting: '$BODY' is not {} (the P_Key never returns to its pool)"
live_ok "NICo: Ready on {}, monitor calls, bind + QoS (smpquery: 0x82fb on node-d), unbind, Deleting ends on {}"

# ---- NCM (profile not_found=404): create, add, set, remove, delete
# its GUID discovery: a host port's peer switch and port name the cable
as ncm GET /ufmRest/resources/ports
want 200 'map(select(.guid == "'$GD'"))|map([.number, .label, .node_description, .system_name, .peer_node_name, .peer_port_dname, .peer_node_description])' \
	'[[1,"1","node-d","node-d","leaf-2","6","leaf-2"]]'
want 200 'map(select(.description == "Switch IB Port" and .system_name == "leaf-2" and .number == 6))|map(.peer_guid)' \
	'["'$GD'"]'
as ncm GET /ufmRest/resources/pkeys # validate_pkey_available
want 200 'has("0x5")' false
as ncm POST /ufmRest/resources/pkeys/add '{"pkey": "0x0005", "ip_over_ib": true}'
want 200
as ncm GET /ufmRest/resources/pkeys/0x0005 # verify_pkey_created
want 200 '[(.partition|type), .ip_over_ib]' '["string",true]'
as ncm GET '/ufmRest/resources/pkeys/0x0005?guids_data=true' # fetch
want 200 '.guids' '[]'
as ncm PUT /ufmRest/resources/pkeys/ '{"pkey": "0x0005", "guids": ["'$GA'", "'$GB'"], "memberships": ["full", "limited"], "ip_over_ib": true}'
want 200
fabric
holds "$A" 0x8005 yes
holds "$B" 0x0005 yes
as ncm GET '/ufmRest/resources/pkeys/0x0005?guids_data=true' # verify
want 200 '.guids|map([.guid, .membership])' '[["'$GA'","full"],["'$GB'","limited"]]'
as ncm PUT /ufmRest/resources/pkeys/ '{"pkey": "0x0005", "guids": ["'$GA'"], "memberships": ["full"], "ip_over_ib": true}'
want 200 # set_pkey_members: the exact set
fabric
holds "$B" 0x0005 no
as ncm DELETE "/ufmRest/resources/pkeys/0x0005/guids/$GA"
want 200
fabric
holds "$A" 0x8005 no
as ncm DELETE "/ufmRest/resources/pkeys/0x0005/guids/$GA" # Temporal's retry
want 200
as ncm GET '/ufmRest/resources/pkeys/0x0005?guids_data=true' # verify absent
want 404
as ncm GET /ufmRest/resources/pkeys # the next create finds it free
want 200 'has("0x5")' false
live_ok "NCM: /add, GET-merge-PUT (smpquery: node-a 0x8005, node-b 0x0005), set, remove and its retry, 404, the P_Key free again"

# ---- Slurm: two jobs share node-b (prolog, then epilog of the first)
as slurm GET /ufmRest/app/ufm_version
want 200
as slurm POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node-a,node-b", "pkey": "0x3039", "ip_over_ib": true, "index0": false}'
want 200
fabric
holds "$A" 0xb039 yes
# the second job by a user with no profile: the shared node bridges
# the two jobs' partitions (tenant-bridge): refused, as before
as admin POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node-b,node-c", "pkey": "0x303a", "ip_over_ib": true, "index0": false}'
want 409 '.findings[0].code' '"tenant-bridge"'
# Slurm's user: the operator said its shared nodes only warn
as slurm POST /ufmRest/resources/pkeys/hosts '{"hosts_names": "node-b,node-c", "pkey": "0x303a", "ip_over_ib": true, "index0": false}'
want 200 '.warnings|map(.code)|unique' '["tenant-bridge"]'
fabric
holds "$B" 0xb039 yes
holds "$B" 0xb03a yes
holds "$C" 0xb03a yes
grep -q 'by slurm accepted with tenant-bridge' "$IBPD_LOG" || live_fail "the warning is not logged"
as admin GET /ibpart/v1/status
want 200 '.warnings[0].user' '"slurm"'
# epilog of the first job: its hosts leave its P_Key (the last member
# gone: the P_Key too); node-b stays in the second job's
as slurm DELETE '/ufmRest/resources/pkeys/0x3039/hosts/node-a,node-b'
want 200
fabric
holds "$A" 0xb039 no
holds "$B" 0xb039 no
holds "$B" 0xb03a yes
as slurm DELETE '/ufmRest/resources/pkeys/0x303a/hosts/node-b,node-c'
want 200
fabric
holds "$C" 0xb03a no
live_ok "Slurm: a shared node refused without a profile, accepted with a warning (answer, log, status) under warn=tenant-bridge; epilogs leave each job's P_Key"

# ---- OpenStack networking-mlnx-baremetal: bind, unbind, delete network
as osk POST /ufmRest/resources/pkeys/ '{"guids": ["'$GC'"], "ip_over_ib": true, "index0": true, "membership": "full", "pkey": "0x1f4"}'
want 200
fabric
holds "$C" 0x81f4 yes
as osk DELETE "/ufmRest/resources/pkeys/0x1f4/guids/$GC" # update_port_postcommit
want 200
fabric
holds "$C" 0x81f4 no
as osk DELETE "/ufmRest/resources/pkeys/0x1f4/guids/$GC" # a retried postcommit
want 200
as osk DELETE /ufmRest/resources/pkeys/0x1f4 # delete_network_postcommit
want 404                                     # auto-deleted: 404 is tolerated
live_ok "OpenStack: bind (smpquery: node-c 0x81f4), unbind and its retry 200, the network's P_Key already gone (404)"

ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
ibp_pass
