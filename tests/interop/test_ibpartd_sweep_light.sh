#!/usr/bin/env bash
# test_ibpartd_sweep_light.sh - the collector does not rediscover the
# fabric at every sweep when nothing changed (issue 29): on ibsim with
# the real OpenSM (not sweeping, -s 0), ibpartd with --opensm-log and a
# sweep every second discovers the whole fabric once and then keeps it,
# counted in ibpartd_monitor_discoveries_total{kind="full"|"light"};
# a change it makes OpenSM take (a POST: SIGHUP, heavy sweep, SUBNET UP
# in the log) makes the next sweep a full one; --full-discovery-every N
# is the backstop; a kept discovery that no longer holds (a host
# unlinked behind OpenSM's back, which logs nothing at -s 0) is found
# by its failed reads and the sweep discovers again; and what the light
# sweeps read is the same as the full ones (the drift, the tables).
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm

metrics() { # FULL LIGHT SWEEPS from one /metrics
	ibpd_req GET /metrics
	FULL=$(awk '$1 == "ibpartd_monitor_discoveries_total{kind=\"full\"}" { print $2 }' <<<"$BODY")
	LIGHT=$(awk '$1 == "ibpartd_monitor_discoveries_total{kind=\"light\"}" { print $2 }' <<<"$BODY")
	SWEEPS=$(awk '$1 == "ibpartd_monitor_sweeps_total" { print $2 }' <<<"$BODY")
	DRIFT=$(awk '$1 == "ibpart_drift_ports{kind=\"missing\"}" { print $2 }' <<<"$BODY")
}
sweeps_at_least() { metrics && [[ -n $SWEEPS && $SWEEPS -ge $1 ]]; }
full_at_least() { metrics && [[ -n $FULL && $FULL -ge $1 ]]; }

ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 3000 --monitor-interval 1 \
	--full-discovery-every 1000 || live_fail "ibpartd did not start"
ibpd_wait_start || live_fail "start: no verification"
# the start's SIGHUP (the file reconciled) logs a SUBNET UP: the sweep
# after it discovers; from there on nothing changes
ibpd_until sweeps_at_least 3 || live_fail "3 sweeps not done: $SWEEPS"
metrics
full=$FULL light=$LIGHT sweeps=$SWEEPS
ibpd_until sweeps_at_least $((sweeps + 5)) || live_fail "5 more sweeps not done: $SWEEPS"
metrics
[[ $full -le 2 && $FULL == "$full" && $((LIGHT - light)) == $((SWEEPS - sweeps)) && $DRIFT == 0 ]] ||
	live_fail "nothing changed: $FULL full (was $full), $LIGHT light (was $light) of $SWEEPS sweeps (drift $DRIFT)"
live_ok "nothing changed: $FULL full discoveries (start), $LIGHT light of $SWEEPS sweeps"

# a change OpenSM takes: SIGHUP, heavy sweep, SUBNET UP -> a full sweep
ups=$(grep -c 'SUBNET UP' "$LIVE_OSM_LOG")
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["0002c90000000301"]}'
[[ $CODE == 200 ]] || live_fail "POST: $CODE $BODY"
ibpd_settled "$(jq .revision <<<"$BODY")"
[[ $ST == verified ]] || live_fail "the change: $ST"
[[ $(grep -c 'SUBNET UP' "$LIVE_OSM_LOG") -gt $ups ]] || live_fail "OpenSM logged no SUBNET UP"
ibpd_until full_at_least $((full + 1)) || live_fail "no full discovery after SUBNET UP: $FULL full, $LIGHT light"
metrics
light=$LIGHT
ibpd_until sweeps_at_least $((SWEEPS + 2)) || live_fail "sweeps stopped"
metrics
[[ $FULL == $((full + 1)) && $LIGHT -gt $light && $DRIFT == 0 ]] ||
	live_fail "after SUBNET UP: $FULL full, $LIGHT light (before $light), drift $DRIFT"
live_ok "SUBNET UP after the change: one full discovery, then light again ($FULL full, $LIGHT light of $SWEEPS)"

# a host gone behind OpenSM's back (-s 0: no sweep, nothing logged): the
# light sweep's reads along the kept routes fail, and it discovers again
full=$FULL
live_sim_cmd 'Unlink "H-0002c90000000400"'
ibpd_until full_at_least $((full + 1)) || live_fail "the unlinked host did not make a sweep discover: $FULL full"
live_ok "a host unlinked unseen by OpenSM: the kept routes failed, full discovery ($FULL full, $LIGHT light)"
ibpd_stop || live_fail "ibpartd did not stop cleanly"

# the backstop: at least every N sweeps
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 3000 --monitor-interval 1 \
	--full-discovery-every 3 || live_fail "ibpartd did not start again"
# past the start's SUBNET UP, one full sweep in every 3
ibpd_until sweeps_at_least 3 || live_fail "3 sweeps not done: $SWEEPS"
metrics
full=$FULL light=$LIGHT sweeps=$SWEEPS
ibpd_until sweeps_at_least $((sweeps + 6)) || live_fail "6 more sweeps not done: $SWEEPS"
metrics
n=$((SWEEPS - sweeps)) f=$((FULL - full))
# one full in every 3 sweeps: n/3 of them, rounded either way
((f * 3 >= n - 2 && f * 3 <= n + 2 && f + LIGHT - light == n)) ||
	live_fail "--full-discovery-every 3: $((FULL - full)) full, $((LIGHT - light)) light of $((SWEEPS - sweeps))"
live_ok "--full-discovery-every 3: of $((SWEEPS - sweeps)) sweeps $((FULL - full)) full, $((LIGHT - light)) light"
ibpd_stop || live_fail "ibpartd did not stop cleanly"
ibp_pass
