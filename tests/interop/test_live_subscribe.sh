#!/usr/bin/env bash
# test_live_subscribe.sh - `ibpart monitor --subscribe` with the real
# OpenSM 3.3.23 on ibsim: the monitor, on ufm-server's port (a full member
# of the default partition, not the SM's), subscribes through OpenSM's SA
# to traps 257 and 259 (SubnAdmSet InformInfo; OpenSM logs "Adding event
# subscription" at its level 0x04, on here); an HCA's trap 257 and a
# switch's trap 259 sent to OpenSM as test_live_traps.sh sends them come
# back as SubnAdmReport(Notice)s, which the monitor answers and counts -
# with no --opensm-log, so from the Reports only - for the right tenants
# and ports; on exit (--count, and SIGTERM) it unsubscribes (OpenSM logs
# "Removing event subscription", and a trap sent afterwards is reported to
# nobody: ibsim logs no undeliverable Report).  With --sa-key 0 OpenSM
# refuses (ERR 430B, status ERR_REQ_INVALID): the monitor says so and
# counts from the log instead.
#
# ibsim hands a request for QP0/QP1 only to the client of that port that
# said it is an SM (SIM_SET_ISSM), so the monitor runs with it set; on
# hardware the kernel gives the Report to the agent registered for it.
# That flag sets IsSM in the port's CapabilityMask as libumad2sim starts
# (trap 144, so OpenSM sweeps), and OpenSM then asks the "other SM" for
# its SMInfo; libumad2sim (0.10) crashes on a request of a class the
# program has not registered yet (SIGSEGV in its receiver thread, seen
# under load).  The monitor is no SM, so OpenSM runs with -d 0 (ignore
# other SMs) and must never send it that request.
source "$(dirname "$0")/live_lib.sh"
live_init
[[ -n ${IBP_UMAD_PROBE:-} && -x $IBP_UMAD_PROBE ]] || live_fail "IBP_UMAD_PROBE not set"

live_ibsim "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff
cp "$IBP_SRC/examples/seed/partitions.conf" "$LIVE_DIR/seed.conf"
ibp_osm_start "$LIVE_DIR/seed.conf" -D 0x07 -d 0
LOG=$IBP_OSM_LOG
MON_HOST=H-506b4b0300a1b300 # ufm-server, port GUID 0x506b4b0300a1b301

mon() { # the monitor on ufm-server's port
	(cd "$LIVE_DIR" && LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$MON_HOST SIM_SET_ISSM=1 \
		IBPART_STATE_DIR=$LIVE_DIR/state IBPART_LOCK_DIR=$LIVE_DIR/lock exec "$IBPART" monitor "$@")
}
count() { grep -c -- "$1" "$LOG" || true; }
waitlog() { # PATTERN N: until OpenSM's log holds N lines with PATTERN
	for _ in $(seq 100); do
		[[ $(count "$1") -ge $2 ]] && return 0
		sleep 0.1
	done
	live_fail "OpenSM logged no '$1' ($2): $(grep -i 'subscri\|inform\|ERR' "$LOG" | tail -5)"
}

json=$(live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/seed.conf" --format json || true)
lid() { jq -r --arg d "$1" '.ports[] | select(.desc == $d and (.switch | not)) | .lid' <<<"$json"; }
la=$(lid tenantA-node-01)
lb=$(lid tenantB-node-01)
swlid=$(jq -r '.ports[] | select(.switch and .port == 5) | .lid' <<<"$json")
sm=$(LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$IBP_SIM_HOST sminfo | sed -n 's/^sminfo: sm lid \([0-9]*\) .*/\1/p')
[[ -n $la && -n $lb && -n $swlid && -n $sm ]] || live_fail "LIDs: A '$la' B '$lb' switch '$swlid' SM '$sm'"
traps() { # a 257 from tenantB-node-01's HCA, a 259 from the leaf's port 5
	LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=H-506b4b0300a1b201 "$IBP_UMAD_PROBE" \
		trap257 "$sm" "$la" "$lb" 0x8001 || live_fail "trap257 not sent"
	LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=S-506b4b0300a1b100 "$IBP_UMAD_PROBE" \
		trap259 "$sm" "$swlid" 5 "$la" "$lb" 0x8001 || live_fail "trap259 not sent"
}

added='Adding event subscription for port 0x506b4b0300a1b301'
removed='Removing event subscription for port 0x506b4b0300a1b301'
cd "$LIVE_DIR"
LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$MON_HOST SIM_SET_ISSM=1 "$IBPART" monitor --subscribe --retries 6 \
	-c "$LIVE_DIR/seed.conf" --format json --interval 1 --count 4 >"$LIVE_DIR/sub.json" 2>"$LIVE_DIR/sub.err" &
pid=$!
waitlog "$added" 2
live_ok "OpenSM: $(grep -m1 -- "$added" "$LOG" | sed 's/.* -> //')"
traps
set +e
wait $pid
rc=$?
set -e
[[ $rc -le 1 ]] || live_fail "monitor exit $rc: $(cat "$LIVE_DIR/sub.err")"
last=$(jq -s '.[-1]' "$LIVE_DIR/sub.json")
t() { jq -r --arg n "$2" ".tenants[] | select(.name == \$n) | .$3" <<<"$1"; }
[[ $(jq -s 'map(.bad_pkey_traps) | add' "$LIVE_DIR/sub.json") == 2 &&
	$(t "$last" TenantA bad_pkey_traps_from) == 2 && $(t "$last" TenantB bad_pkey_traps_toward) == 2 &&
	$(t "$last" TenantA bad_pkey_traps_toward) == 0 && $(t "$last" TenantB bad_pkey_traps_from) == 0 ]] ||
	live_fail "sweeps: $(jq -c '{bad_pkey_traps, tenants, trap_ports}' <<<"$last") $(cat "$LIVE_DIR/sub.err")"
[[ $(jq -c '.trap_ports' <<<"$last") == '[{"guid":"0x506b4b0300a1b100","port":5,"total":1},{"guid":"0x506b4b0300a1b201","port":1,"total":1}]' ||
	$(jq -c '.trap_ports' <<<"$last") == '[{"guid":"0x506b4b0300a1b201","port":1,"total":1},{"guid":"0x506b4b0300a1b100","port":5,"total":1}]' ]] ||
	live_fail "trap ports: $(jq -c .trap_ports <<<"$last")"
live_ok "from the Reports: 257 and 259, TenantA from 2, TenantB toward 2, the HCA port and the switch's port 5"
waitlog "$removed" 2
live_ok "on exit: OpenSM: $(grep -m1 -- "$removed" "$LOG" | sed 's/.* -> //')"
# unsubscribed: a trap now is reported to no one (ibsim would log the
# Report it could not deliver)
# OpenSM sends a subscriber's Report right after it logs the notice, in
# the same call: both notices logged, then ibsim's console answered, and
# a Report would have been logged by ibsim before (no clock decides)
notices=$(count 'Reporting Security Notice')
traps
waitlog 'Reporting Security Notice' $((notices + 2))
ibp_sim_console "# after the traps"
! grep -q 'no one to handle pkt: class 0x3' "$IBP_SIM_LOG" ||
	live_fail "a Report after the end of the subscription: $(grep 'no one' "$IBP_SIM_LOG" | tail -2)"
live_ok "no Report after the end of the subscription"

# SIGTERM ends the subscription too
cd "$LIVE_DIR"
LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$MON_HOST SIM_SET_ISSM=1 "$IBPART" monitor -q --subscribe \
	--retries 6 -c "$LIVE_DIR/seed.conf" --format json --interval 1 >/dev/null 2>"$LIVE_DIR/term.err" &
pid=$! # ibpart itself (a function's would be a subshell's)
waitlog "$added" 4
kill -TERM $pid
set +e
wait $pid
set -e
waitlog "$removed" 4
live_ok "SIGTERM: unsubscribed"

# refused: SM_Key 0 asks for security traps as an untrusted requester
set +e
out=$(mon --subscribe --sa-key 0 --retries 6 -c "$LIVE_DIR/seed.conf" --format json \
	--opensm-log "$LOG" 2>"$LIVE_DIR/refused.err")
set -e
grep -q 'ERR 430B' "$LOG" || live_fail "OpenSM did not refuse: $(grep ERR "$LOG" | tail -3)"
grep -q 'refused the subscription to trap 257: status 0x0200 (ERR_REQ_INVALID)' "$LIVE_DIR/refused.err" ||
	live_fail "no refusal said: $(cat "$LIVE_DIR/refused.err")"
grep -q 'counted from the OpenSM log' "$LIVE_DIR/refused.err" || live_fail "no fallback said"
[[ $(jq .bad_pkey_traps <<<"$out") == 4 && $(t "$out" TenantB bad_pkey_traps_toward) == 4 ]] ||
	live_fail "log fallback: $(jq -c '{bad_pkey_traps, tenants}' <<<"$out")"
live_ok "refused: $(grep -m1 refused "$LIVE_DIR/refused.err")"
live_ok "the log counted instead: 4 traps"
# a key that is not OpenSM's sa_key: its SA drops the MAD (ERR 1A04)
set +e
mon -q --subscribe --sa-key 0x42 --retries 1 -c "$LIVE_DIR/seed.conf" --format json >/dev/null 2>"$LIVE_DIR/nokey.err"
set -e
grep -q 'ERR 1A04' "$LOG" || live_fail "OpenSM did not drop the wrong key: $(grep ERR "$LOG" | tail -3)"
grep -q 'did not answer the subscription to trap 257 .*check --sa-key' "$LIVE_DIR/nokey.err" ||
	live_fail "no answer not said: $(cat "$LIVE_DIR/nokey.err")"
live_ok "wrong key: $(grep -m1 'did not answer' "$LIVE_DIR/nokey.err")"

# control for the "no Report after the end" check: a monitor killed with
# SIGKILL cannot unsubscribe, and ibsim then logs the Report OpenSM
# still sends that port
LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$MON_HOST SIM_SET_ISSM=1 "$IBPART" monitor -q --subscribe \
	--retries 6 -c "$LIVE_DIR/seed.conf" --format json --interval 1 >/dev/null 2>&1 &
pid=$!
waitlog "$added" 6
kill -KILL $pid
wait $pid 2>/dev/null || true
traps
for _ in $(seq 50); do
	grep -q 'no one to handle pkt: class 0x3' "$IBP_SIM_LOG" && break
	sleep 0.1
done
grep -q 'no one to handle pkt: class 0x3' "$IBP_SIM_LOG" ||
	live_fail "control: no undeliverable Report logged by ibsim: $(tail -3 "$IBP_SIM_LOG")"
live_ok "control: after SIGKILL (no unsubscription) ibsim logs: $(grep -m1 'no one to handle pkt: class 0x3' "$IBP_SIM_LOG")"
# the monitor's IsSM made OpenSM sweep, and -d 0 kept it from asking the
# monitor's port for SMInfo (the request libumad2sim cannot survive)
waitlog 'Ignoring SM on port 0x506b4b0300a1b301' 1
! grep -q 'Requesting SMInfo from port 0x506b4b0300a1b301' "$LOG" ||
	live_fail "OpenSM asked the monitor's port for SMInfo: $(grep -m1 'Requesting SMInfo' "$LOG")"
live_ok "OpenSM ignored the monitor's IsSM: $(grep -c 'Ignoring SM on port 0x506b4b0300a1b301' "$LOG") sweeps, no SMInfo request"
ibp_pass
