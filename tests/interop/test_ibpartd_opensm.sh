#!/usr/bin/env bash
# test_ibpartd_opensm.sh - ibpartd in front of the real OpenSM on ibsim:
# ib-kubernetes' exact request sequence (docs/ufm-api.md 2.1-2.7:
# Validate, the list with its trailing slash, AddGuidsToPKey with index0,
# RemoveGuidsFromPKey), each change recorded, written into the generated
# section of OpenSM's partitions.conf, SIGHUP, SUBNET UP, verified over
# SMPs by ibpartd - and the real smpquery reading each port's P_KeyTable
# confirms it.  index0 as a second statement with indx0 is how OpenSM
# reads it: the P_Key lands at index 0 (docs/opensm-behaviour.md rule
# 13).  Then SIGKILL right after a 200 while OpenSM still has the old
# file: on restart the database is the truth and the fabric follows.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm
B="0,1,1,3 1" C="0,1,1,4 1" # node-b, node-c (leaf-2 ports 3, 4)
[[ $(live_smp_pkeys $B) == 0x7fff ]] || live_fail "node-b before: $(live_smp_pkeys $B)"

ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 20000 || live_fail "ibpartd did not start"
ibpd_wait_start || live_fail "start: no verification"
live_ok "start: file reconciled, OpenSM signalled, fabric verified"

# NICo's port list: the topology's CA ports, LIDs as OpenSM gave them
ibpd_req GET '/ufmRest/resources/ports?sys_type=Computer'
[[ $CODE == 200 && $(jq length <<<"$BODY") == 7 ]] || live_fail "ports: $CODE $BODY"
lid=$(jq '.[] | select(.guid == "0002c90000000401") | .lid' <<<"$BODY")
real=$(LD_PRELOAD=$LIVE_PRELOAD smpquery -D portinfo 0,1,1,4 1 | sed -n 's/^Lid:\.*//p')
[[ -n $lid && $lid == "$real" ]] || live_fail "node-c's LID: ibpartd says $lid, smpquery $real"
live_ok "resources/ports: 7 CA ports, node-c's LID $lid as smpquery reads it"

# ib-kubernetes: Validate, the list, AddGuidsToPKey (its exact body)
ibpd_req GET /ufmRest/app/ufm_version
[[ $CODE == 200 ]] || live_fail "ufm_version: $CODE"
ibpd_req GET '/ufmRest/resources/pkeys/?guids_data=true'
[[ $CODE == 200 && $(jq -r '.["0x7fff"].partition' <<<"$BODY") == Default ]] || live_fail "list: $CODE $BODY"
t0=$(date +%s%N)
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["0002c90000000301","0002c90000000401"]}'
[[ $CODE == 200 ]] || live_fail "AddGuidsToPKey: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
ibpd_wait_fabric "$rev" || live_fail "add: $(tail -5 "$IBPD_LOG")"
ms=$((($(date +%s%N) - t0) / 1000000))
# the real smpquery: 0x800a at index 0 (indx0), 0x7fff moved after it
[[ $(live_smp_pkeys $B) == "0x800a 0x7fff" ]] || live_fail "node-b after add: [$(live_smp_pkeys $B)]"
[[ $(live_smp_pkeys $C) == "0x800a 0x7fff" ]] || live_fail "node-c after add: [$(live_smp_pkeys $C)]"
ibpd_req GET /ufmRest/resources/pkeys/last_updated
# UFM's format, as ib-kubernetes parses it ("Mon Jan _2 15:04:05 MST 2006")
[[ $(jq -r .last_updated <<<"$BODY") =~ ^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\ (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\ [\ 1-3][0-9]\ [0-2][0-9]:[0-5][0-9]:[0-6][0-9]\ UTC\ 20[0-9][0-9]$ ]] ||
	live_fail "last_updated: $BODY"
live_ok "AddGuidsToPKey index0: on the fabric in $ms ms; smpquery reads 0x800a at index 0 on node-b and node-c"

# RemoveGuidsFromPKey (its exact body): node-c leaves 0xa
ibpd_req POST /ufmRest/actions/remove_guids_from_pkey '{"pkey": "0x000A", "guids": ["0002c90000000401"]}'
[[ $CODE == 200 ]] || live_fail "RemoveGuidsFromPKey: $CODE $BODY"
ibpd_wait_fabric "$(jq .revision <<<"$BODY")" || live_fail "remove: $(tail -5 "$IBPD_LOG")"
have=$(live_smp_pkeys $C)
[[ $have != *0x800a* && $have == *0x7fff* ]] || live_fail "node-c after remove: [$have]"
[[ $(live_smp_pkeys $B) == "0x800a 0x7fff" ]] || live_fail "node-b after remove: [$(live_smp_pkeys $B)]"
live_ok "RemoveGuidsFromPKey: smpquery reads node-c [$have] without 0x800a, node-b unchanged"

# NICo under /ufmRestV3 with a token: bind (its compact body), then its
# QoS (rate_limit a float): mtu=5, rate=17 in the file, which OpenSM
# takes; smpquery reads node-d in 0x5
ibpd_req POST /ufmRest/app/tokens
TOKEN=$(jq -r .access_token <<<"$BODY")
ibpd_req_as "Authorization: Basic $TOKEN" POST /ufmRestV3/resources/pkeys '{"pkey":"0x5","ip_over_ib":true,"membership":"full","index0":true,"guids":["0002c90000000601"]}'
[[ $CODE == 200 ]] || live_fail "NICo bind: $CODE $BODY"
ibpd_req_as "Authorization: Basic $TOKEN" PUT /ufmRestV3/resources/pkeys/qos_conf '{"pkey":"0x5","mtu_limit":4,"service_level":0,"rate_limit":200.0}'
[[ $CODE == 200 ]] || live_fail "NICo qos_conf: $CODE $BODY"
ibpd_wait_fabric "$(jq .revision <<<"$BODY")" || live_fail "NICo: $(tail -5 "$IBPD_LOG")"
grep -q '^api_pkey_0x5=0x0005, ipoib, mtu=5, rate=17, sl=0, indx0 :' "$IBPD_CONF" || live_fail "NICo: $(grep 0x0005 "$IBPD_CONF")"
D6="0,1,1,6 1" # node-d
[[ $(live_smp_pkeys $D6) == "0x8005 0x7fff" ]] || live_fail "node-d after NICo's bind: [$(live_smp_pkeys $D6)]"
ibpd_req_as "Authorization: Basic $TOKEN" GET '/ufmRestV3/resources/pkeys/0x5?guids_data=true&qos_conf=true'
[[ $(jq -c .qos_conf <<<"$BODY") == '{"mtu_limit":4,"rate_limit":200,"service_level":0}' ]] || live_fail "NICo get: $BODY"
live_ok "NICo over /ufmRestV3: bind + qos_conf (mtu=5, rate=17) taken by OpenSM; smpquery reads node-d [0x8005 0x7fff]"

# the guard: node-d full in 0xb (with node-a) and then in 0xa (node-b's)
# would bridge two tenants (tenant-bridge, high): 409, nothing written
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000B", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["0002c90000000601","0002c90000000201"]}'
[[ $CODE == 200 ]] || live_fail "add 0xb: $CODE $BODY"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["0002c90000000601"]}'
[[ $CODE == 409 && $(jq -r '.findings[0].code' <<<"$BODY") == tenant-bridge ]] || live_fail "bridge: $CODE $BODY"
live_ok "isolation guard: a tenant bridge is a 409 with the finding"
ibpd_req GET /ibpart/v1/audit
[[ $CODE == 200 && $(jq '.findings|map(select(.code == "tenant-bridge"))|length' <<<"$BODY") == 0 ]] ||
	live_fail "audit of the plan: $CODE $BODY"
live_ok "ibpart/v1/audit: the plan as it stands has no tenant bridge"

# SIGKILL right after a 200, before OpenSM could have the change
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000C", "index0": false, "ip_over_ib": true, "membership": "full", "guids": ["0002c90000000401"]}'
[[ $CODE == 200 ]] || live_fail "add 0xc: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
ibpd_kill
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 20000 || live_fail "no restart"
ibpd_wait_fabric "$rev" || live_fail "after restart: $(tail -5 "$IBPD_LOG")"
have=$(live_smp_pkeys $C)
[[ $have == *0x800c* ]] || live_fail "node-c after SIGKILL and restart: [$have]"
head -c "$(wc -c <"$LIVE_DIR/operator.conf")" "$IBPD_CONF" | cmp -s - "$LIVE_DIR/operator.conf" ||
	live_fail "the operator's lines changed"
"$IBPART" check "$IBPD_CONF" >/dev/null || live_fail "ibpart check refuses the file ibpartd wrote"
# ibpart apply --via-opensm refuses the file ibpartd manages
cp "$IBPD_CONF" "$LIVE_DIR/managed.before"
set +e
live_ibpart apply -q --via-opensm -c "$D/live-2sw-b.conf" --opensm-partitions "$IBPD_CONF" \
	--opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" >/dev/null 2>"$LIVE_DIR/via.err"
rc=$?
set -e
[[ $rc == 2 ]] && grep -q 'managed by ibpartd' "$LIVE_DIR/via.err" ||
	live_fail "apply --via-opensm on the managed file: exit $rc: $(cat "$LIVE_DIR/via.err")"
cmp -s "$IBPD_CONF" "$LIVE_DIR/managed.before" || live_fail "apply --via-opensm changed the managed file"
live_ok "apply --via-opensm refuses the file ibpartd manages"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
live_ok "SIGKILL after a 200: the change survived, restart put it on the fabric [$have]"

# --opensm-unit: OpenSM as a systemd unit's main PID; with no such unit
# (no systemd here) the cycle fails with the reason and is retried
ibpd_start --opensm-unit opensm@0x0002c90000000101.service --opensm-log "$LIVE_OSM_LOG" --wait 2000 ||
	live_fail "no start with --opensm-unit"
for ((i = 0; i < 100; i++)); do
	grep -q 'failed: systemd gives no main PID for opensm@0x0002c90000000101.service' "$IBPD_LOG" && break
	sleep 0.1
done
grep -q 'failed: systemd gives no main PID' "$IBPD_LOG" || live_fail "--opensm-unit: $(tail -3 "$IBPD_LOG")"
grep -q 'again in' "$IBPD_LOG" || live_fail "--opensm-unit: no retry"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
live_ok "--opensm-unit without systemd: the reason logged, retried with backoff"
ibp_pass
