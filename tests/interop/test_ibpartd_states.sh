#!/usr/bin/env bash
# test_ibpartd_states.sh - every state ibpartd reports means what it
# says (issue 26), and the applier drives OpenSM the library's one way
# (issue 24), in front of the real OpenSM on ibsim, smpquery reading the
# ports:
#  - a revision naming node-b's node GUID where a port GUID belongs ends
#    applied-partially with that GUID (kind node-guid) - UFM's answer
#    stays 200 - while smpquery reads the P_Key on the real member;
#  - with OpenSM stopped (SIGSTOP) a QoS change, which changes no
#    P_KeyTable, ends applied ("not demonstrated"), never verified; the
#    QoS is listed as not verifiable over SMPs;
#  - without --opensm-log a change is verified by the fabric changing as
#    predicted, with no failed cycle first;
#  - with a local port that cannot be opened the file is still written
#    and OpenSM signalled (smpquery sees the change), the revision ends
#    applied with the reason, and the log names that revision.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm
B="0,1,1,3 1" C="0,1,1,4 1" # node-b, node-c (leaf-2 ports 3, 4)

# state_of REV: ST, the state GET /ibpart/v1/status (in BODY) gives
# revision REV
state_of() {
	ibpd_req GET /ibpart/v1/status
	ST=$(jq -r --argjson r "$1" '.revisions[]? | select(.revision == $r) | .state' <<<"$BODY")
}
# wait_state REV STATE...: until revision REV is in one of STATE (20 s)
wait_state() {
	local rev=$1 i
	shift
	for ((i = 0; i < 100; i++)); do
		state_of "$rev"
		[[ " $* " == *" $ST "* ]] && return 0
		sleep 0.2
	done
	echo "revision $rev: $ST, not $*: $BODY" >&2
	return 1
}

ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 3000 --monitor-interval 0 || live_fail "ibpartd did not start"
ibpd_wait_start || live_fail "start: no verification"

# node-b's node GUID (...0300) beside node-c's port GUID
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x0a", "membership": "full", "guids": ["0002c90000000300", "0002c90000000401"]}'
[[ $CODE == 200 ]] || live_fail "add with a node GUID: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
wait_state "$rev" applied-partially verified failed || live_fail "add: $(tail -3 "$IBPD_LOG")"
state_of "$rev"
[[ $ST == applied-partially ]] || live_fail "a node GUID: $BODY"
absent=$(jq -c --argjson r "$rev" '.revisions[] | select(.revision == $r) | [.absent[] | {guid, kind}]' <<<"$BODY")
[[ $absent == '[{"guid":"0x0002c90000000300","kind":"node-guid"}]' ]] || live_fail "absent: $absent"
[[ $(jq -r .state <<<"$BODY") == applied-partially ]] || live_fail "status state: $BODY"
[[ $(live_smp_pkeys $C) == *0x800a* ]] || live_fail "node-c: [$(live_smp_pkeys $C)]"
[[ $(live_smp_pkeys $B) != *0x800a* ]] || live_fail "node-b: [$(live_smp_pkeys $B)]"
ibpd_req GET /ufmRest/resources/pkeys/0xa
[[ $CODE == 200 ]] || live_fail "UFM's get: $CODE"
ibpd_req GET /metrics
[[ $BODY == *$'\nibpartd_revision_state{state="applied-partially"} 1\n'* ]] ||
	live_fail "metrics: $(grep revision_state <<<"$BODY")"
ibpd_req GET /
[[ $BODY == *"(applied-partially: 1 GUIDs it names are not ports of the fabric"* ]] ||
	live_fail "the page's status line: $(grep -o 'revision [0-9]* in the database[^<]*' <<<"$BODY")"
live_ok "a node GUID as a member: applied-partially, absent $absent; smpquery: node-c in 0x800a, node-b not"

# OpenSM stopped: a QoS change cannot be shown to be taken
kill -STOP "$LIVE_OSM_PID"
ibpd_req PUT /ufmRest/resources/pkeys/qos_conf '{"pkey": "0xa", "mtu_limit": 4, "service_level": 1, "rate_limit": 100}'
[[ $CODE == 200 ]] || live_fail "qos_conf: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
wait_state "$rev" applied verified applied-partially failed || { kill -CONT "$LIVE_OSM_PID"; live_fail "qos: $(tail -3 "$IBPD_LOG")"; }
kill -CONT "$LIVE_OSM_PID"
state_of "$rev"
[[ $ST == applied ]] || live_fail "QoS with OpenSM stopped: $BODY"
reason=$(jq -r --argjson r "$rev" '.revisions[] | select(.revision == $r) | .reason' <<<"$BODY")
[[ $reason == *"not demonstrated"* ]] || live_fail "reason: $reason"
nv=$(jq -c --argjson r "$rev" '.revisions[] | select(.revision == $r) | .not_verifiable' <<<"$BODY")
[[ $nv == '[{"pkey":"0xa","fields":["mtu","rate","sl","ipoib"]}]' ]] || live_fail "not_verifiable: $nv"
live_ok "QoS with OpenSM stopped: applied, \"$reason\"; not verifiable: $nv"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"

# no --opensm-log: the fabric changing as predicted is the witness
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --topology "$D/live-2sw.topo" --wait 10000 \
	--monitor-interval 0 || live_fail "no restart without --opensm-log"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x0b", "membership": "full", "guids": ["0002c90000000301"]}'
[[ $CODE == 200 ]] || live_fail "add 0xb: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
wait_state "$rev" verified applied-partially applied || live_fail "no log: $(tail -3 "$IBPD_LOG")"
state_of "$rev"
# (held, demonstrated: applied-partially, 0xa still names node-b's node GUID)
[[ $ST == applied-partially ]] || live_fail "without --opensm-log: $BODY"
[[ $(live_smp_pkeys $B) == *0x800b* ]] || live_fail "node-b: [$(live_smp_pkeys $B)]"
failed=$(grep -c 'revision [0-9]* failed' "$IBPD_LOG" || true)
[[ $failed == 0 ]] || live_fail "a failed cycle first: $(grep 'revision [0-9]* failed' "$IBPD_LOG")"
live_ok "without --opensm-log: held as the fabric changed, no failed cycle; smpquery: node-b in 0x800b"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"

# a local port that cannot be opened: written and signalled all the same
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" -C no_such_hca \
	--topology "$D/live-2sw.topo" --wait 10000 --monitor-interval 0 || live_fail "no start with -C no_such_hca"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x0c", "membership": "full", "guids": ["0002c90000000401"]}'
[[ $CODE == 200 ]] || live_fail "add 0xc: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
wait_state "$rev" applied verified failed || live_fail "no port: $(tail -3 "$IBPD_LOG")"
state_of "$rev"
[[ $ST == applied ]] || live_fail "without a port: $BODY"
reason=$(jq -r --argjson r "$rev" '.revisions[] | select(.revision == $r) | .reason' <<<"$BODY")
[[ $reason == *"not verified"* ]] || live_fail "reason: $reason"
grep -q "revision $rev applied: " "$IBPD_LOG" || live_fail "the log: $(tail -3 "$IBPD_LOG")"
grep -q '^api_pkey_0xc=0x000c' "$IBPD_CONF" || live_fail "not written: $(cat "$IBPD_CONF")"
for ((i = 0; i < 50; i++)); do
	[[ $(live_smp_pkeys $C) == *0x800c* ]] && break
	sleep 0.2
done
[[ $(live_smp_pkeys $C) == *0x800c* ]] || live_fail "OpenSM was not signalled: node-c [$(live_smp_pkeys $C)]"
live_ok "no usable port: written, OpenSM signalled (smpquery: node-c in 0x800c), revision $rev applied: $reason"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
ibp_pass
