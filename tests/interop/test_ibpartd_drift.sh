#!/usr/bin/env bash
# test_ibpartd_drift.sh - drift the collector finds moves the status
# (issue 26), in front of the real OpenSM on ibsim: ibpartd holds node-b
# in 0xa (verified), then `ibpart apply --direct` takes 0xa off node-b's
# port behind OpenSM's and ibpartd's back (OpenSM runs with -s 0: no
# sweep puts it back; smpquery reads it gone).  Within a sweep
# (--monitor-interval 1) GET /ibpart/v1/status says `drifted` with
# node-b's port in the reason, /metrics has
# ibpartd_revision_state{state="drifted"} 1, and the log has one line
# for it (not one per sweep).  With --repair-drift the revision is
# applied again and smpquery reads 0xa back on node-b.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm
B="0,1,1,3 1" # node-b (leaf-2 port 3)

state() { # ST: the newest revision's state (BODY: the status)
	ibpd_req GET /ibpart/v1/status
	ST=$(jq -r .state <<<"$BODY")
}
wait_state() { # STATE: until the newest revision is in it (20 s)
	local i
	for ((i = 0; i < 100; i++)); do
		state
		[[ $ST == "$1" ]] && return 0
		sleep 0.2
	done
	echo "state $ST, not $1: $BODY" >&2
	return 1
}
drift_behind() { # 0xa off node-b's port, as smpquery then reads it
	printf 'Default=0x7fff, ipoib : 0x0002c90000000101=full ;\nA=0x000a : 0x0002c90000000401=full ;\n' >"$LIVE_DIR/other.conf"
	live_ibpart apply -q --direct --force -c "$LIVE_DIR/other.conf" >/dev/null 2>"$LIVE_DIR/apply.err" ||
		live_fail "apply --direct: $(cat "$LIVE_DIR/apply.err")"
	[[ $(live_smp_pkeys $B) != *0x800a* ]] || live_fail "node-b still in 0xa: [$(live_smp_pkeys $B)]"
}

ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 10000 --monitor-interval 1 || live_fail "ibpartd did not start"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x0a", "membership": "full", "guids": ["0002c90000000301", "0002c90000000401"]}'
[[ $CODE == 200 ]] || live_fail "add: $CODE $BODY"
wait_state verified || live_fail "add: $(tail -3 "$IBPD_LOG")"
[[ $(live_smp_pkeys $B) == *0x800a* ]] || live_fail "node-b: [$(live_smp_pkeys $B)]"

drift_behind
wait_state drifted || live_fail "drift not reported: $(tail -3 "$IBPD_LOG")"
reason=$(jq -r '.revisions[0].reason' <<<"$BODY")
[[ $reason == *"0x0002c90000000301 port 1 missing"* ]] || live_fail "reason: $reason"
ibpd_req GET /metrics
[[ $BODY == *$'\nibpartd_revision_state{state="drifted"} 1\n'* ]] ||
	live_fail "metrics: $(grep revision_state <<<"$BODY")"
# two more sweeps: still one line
s0=$(sed -n 's/^ibpartd_monitor_sweeps_total //p' <<<"$BODY")
for ((i = 0; i < 100; i++)); do
	ibpd_req GET /metrics
	s1=$(sed -n 's/^ibpartd_monitor_sweeps_total //p' <<<"$BODY")
	((s1 >= s0 + 2)) && break
	sleep 0.2
done
lines=$(grep -c 'drift: the fabric no longer holds revision' "$IBPD_LOG" || true)
[[ $lines == 1 ]] || live_fail "$lines drift lines in the log"
live_ok "drift behind its back: status drifted ($reason), /metrics, one log line"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"

ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 10000 --monitor-interval 1 --repair-drift ||
	live_fail "ibpartd did not restart"
wait_state verified || live_fail "restart: $(tail -3 "$IBPD_LOG")"
[[ $(live_smp_pkeys $B) == *0x800a* ]] || live_fail "node-b after restart: [$(live_smp_pkeys $B)]"
drift_behind
for ((i = 0; i < 100; i++)); do
	[[ $(live_smp_pkeys $B) == *0x800a* ]] && break
	sleep 0.2
done
[[ $(live_smp_pkeys $B) == *0x800a* ]] || live_fail "not repaired: node-b [$(live_smp_pkeys $B)]: $(tail -3 "$IBPD_LOG")"
grep -q 'applying it again' "$IBPD_LOG" || live_fail "log: $(tail -3 "$IBPD_LOG")"
wait_state verified || live_fail "after the repair"
live_ok "--repair-drift: applied again, smpquery reads node-b in 0x800a, status verified"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
ibp_pass
