#!/usr/bin/env bash
# test_live_safety.sh - `ibpart apply` when something else is going on,
# on a 1,000-CA ibsim fabric with no SM:
#   1. two applies at once from one port: the second refuses (exit 3,
#      naming the holder's pid) and changes nothing; with --lock-wait it
#      waits for the first and then runs (the first stops itself at its
#      first P_KeyTable Set, stop_at_push.c, so the second always finds
#      the lock held);
#   2. SIGINT in the middle of a push: the apply stops at a port boundary,
#      says INCOMPLETE, lists what it changed and what it did not reach,
#      exits 3, and the state file it saved first rolls the fabric back;
#      the signal is sent while the apply is stopped at its first Set,
#      so it always lands inside the push;
#   3. --via-opensm with a pid that is not OpenSM: refused (exit 2), the
#      partition file untouched.
source "$(dirname "$0")/live_lib.sh"
live_init
[[ -f ${IBP_STOP_AT_PUSH_SO:-} ]] || live_fail "IBP_STOP_AT_PUSH_SO does not name the shim (run through ctest)"

"$IBPART" gen --cas 1000 --partitions 8 -o "$LIVE_DIR/f.topo" --conf "$LIVE_DIR/a.conf" 2>/dev/null
# plan B: the same nodes in 16 tenants - nearly every port changes
"$IBPART" gen --cas 1000 --partitions 16 -o "$LIVE_DIR/unused.topo" --conf "$LIVE_DIR/b.conf" 2>/dev/null
host=$(awk '/^Ca/ { gsub(/"/, "", $3); print $3; exit }' "$LIVE_DIR/f.topo")
live_ibsim "$LIVE_DIR/f.topo" "$host"
live_ibpart apply -q --direct -c "$LIVE_DIR/a.conf" --state "$LIVE_DIR/s0.json" >/dev/null ||
	live_fail "apply A failed"

# bg_ibpart ARGS...: ibpart itself in the background ($! is its pid),
# with job control on: a background job of a script otherwise starts with
# SIGINT ignored, which ibpart respects.  It stops itself (SIGSTOP) just
# before its first P_KeyTable Set: mid-push, deterministically (on ibsim
# a push ends milliseconds after its "pushing" line, so freezing it from
# outside after that line raced it and lost on a loaded machine).
bg_ibpart() {
	set -m
	IBPART_LOCK_DIR=$LIVE_DIR/lock LD_PRELOAD="$IBP_STOP_AT_PUSH_SO $LIVE_PRELOAD" \
		IBP_STOP_AT_PUSH=1 SIM_HOST=$IBP_SIM_HOST "$IBPART" "$@" &
	set +m
}

# wait_stopped PID: until PID is stopped (state T; 30 s at most)
wait_stopped() {
	local i st
	for ((i = 0; i < 3000; i++)); do
		st=$(awk '{ print $3 }' /proc/"$1"/stat 2>/dev/null) ||
			live_fail "pid $1 ended before it reached its push"
		[[ $st == T ]] && return 0
		sleep 0.01
	done
	live_fail "pid $1 never reached its push"
}

# 1. The lock.  The first apply holds it from before it reads the tables
# until its push ends; it is stopped at its first Set while the second
# one tries, so the second always meets the held lock.
bg_ibpart apply --direct -c "$LIVE_DIR/b.conf" --state "$LIVE_DIR/s1.json" \
	>/dev/null 2>"$LIVE_DIR/first.err"
first=$!
wait_stopped $first
grep -q "pushing" "$LIVE_DIR/first.err" || live_fail "stopped before its push: $(cat "$LIVE_DIR/first.err")"
set +e
live_ibpart apply -q --direct -c "$LIVE_DIR/a.conf" --state "$LIVE_DIR/never.json" >/dev/null 2>"$LIVE_DIR/second.err"
rc=$?
kill -CONT $first
wait $first
rc1=$?
set -e
[[ $rc == 3 ]] || live_fail "second apply while the first pushes: exit $rc, want 3: $(cat "$LIVE_DIR/second.err")"
grep -q "another ibpart (pid $first) is changing the fabric" "$LIVE_DIR/second.err" ||
	live_fail "the refusal does not name the holder $first: $(cat "$LIVE_DIR/second.err")"
[[ ! -e $LIVE_DIR/never.json ]] || live_fail "the refused apply saved a state file"
[[ $rc1 == 0 ]] || live_fail "the first apply failed (exit $rc1): $(cat "$LIVE_DIR/first.err")"
live_ibpart verify -q -c "$LIVE_DIR/b.conf" --previous "$LIVE_DIR/s1.json" >/dev/null ||
	live_fail "after the two applies the fabric does not hold plan B (the second changed something?)"
live_ok "a second apply during a push: exit 3 naming pid $first, nothing changed; the first completes"

# --lock-wait: the second waits for the first (frozen a while), then runs.
bg_ibpart apply --direct -c "$LIVE_DIR/a.conf" --state "$LIVE_DIR/s2.json" \
	>/dev/null 2>"$LIVE_DIR/first.err"
first=$!
wait_stopped $first
grep -q "pushing" "$LIVE_DIR/first.err" || live_fail "stopped before its push: $(cat "$LIVE_DIR/first.err")"
live_ibpart apply --direct --lock-wait 60 -c "$LIVE_DIR/b.conf" --state "$LIVE_DIR/s3.json" \
	>/dev/null 2>"$LIVE_DIR/second.err" &
second=$!
# the event: the second has met the held lock and says it waits
for ((i = 0; i < 3000; i++)); do
	grep -q 'waiting up to 60 s for the lock held by pid' "$LIVE_DIR/second.err" && break
	kill -0 $second 2>/dev/null || break
	sleep 0.01
done
grep -q "waiting up to 60 s for the lock held by pid $first" "$LIVE_DIR/second.err" ||
	live_fail "--lock-wait did not wait for the frozen holder: $(cat "$LIVE_DIR/second.err")"
kill -0 $second 2>/dev/null || live_fail "--lock-wait ended while the holder was frozen"
kill -CONT $first
set +e
wait $first
rc1=$?
wait $second
rc=$?
set -e
[[ $rc1 == 0 && $rc == 0 ]] || live_fail "--lock-wait: exits $rc1 and $rc, want 0 and 0: $(cat "$LIVE_DIR/second.err")"
# the waiting one read the tables the first left (plan A), so it changed them to B
[[ $(jq '.ports | length' "$LIVE_DIR/s3.json") -gt 1000 ]] ||
	live_fail "the waiting apply's state does not hold the first one's result"
live_ibpart verify -q -c "$LIVE_DIR/b.conf" --previous "$LIVE_DIR/s3.json" >/dev/null ||
	live_fail "after --lock-wait the fabric does not hold plan B"
live_ok "--lock-wait 60: the second apply waits for the frozen first, then pushes plan B"

# 2. SIGINT mid-push, the push frozen by stopping ibsim.
bg_ibpart apply --direct --format json -c "$LIVE_DIR/a.conf" --state "$LIVE_DIR/s4.json" \
	>"$LIVE_DIR/int.json" 2>"$LIVE_DIR/int.err"
victim=$!
wait_stopped $victim
kill -INT $victim
kill -CONT $victim
set +e
wait $victim
rc=$?
set -e
[[ $rc == 3 ]] || live_fail "interrupted apply: exit $rc, want 3: $(cat "$LIVE_DIR/int.err")"
grep -q "stopping at the next port" "$LIVE_DIR/int.err" || live_fail "SIGINT not acknowledged"
grep -q "INCOMPLETE; \`ibpart apply --rollback $LIVE_DIR/s4.json\` restores" "$LIVE_DIR/int.err" ||
	live_fail "no rollback hint: $(cat "$LIVE_DIR/int.err")"
changed=$(jq '.ports_changed | length' "$LIVE_DIR/int.json")
left=$(jq '.ports_not_reached | length' "$LIVE_DIR/int.json")
[[ $(jq .complete "$LIVE_DIR/int.json") == false && $left -gt 0 ]] ||
	live_fail "interrupted apply: complete $(jq .complete "$LIVE_DIR/int.json"), $left not reached"
live_ok "SIGINT mid-push: exit 3, $changed port(s) changed, $left not reached, rollback hint printed"
live_ibpart apply -q --rollback "$LIVE_DIR/s4.json" >/dev/null || live_fail "rollback of the interrupted apply failed"
live_ibpart verify -q -c "$LIVE_DIR/b.conf" --previous "$LIVE_DIR/s4.json" >/dev/null ||
	live_fail "rollback did not put plan B back"
# and the real smpquery agrees on the ports the interrupted push changed
live_ibpart discover -q -o "$LIVE_DIR/disc.topo"
jq -r '[.ports_changed[] | select(.port_guid != "0x0000000000000000") | .port_guid][:5][]' \
	"$LIVE_DIR/int.json" >"$LIVE_DIR/changed.txt"
live_dr_paths "$LIVE_DIR/disc.topo" >"$LIVE_DIR/paths.txt"
while read -r pg; do
	read -r ng p want < <(jq -r --arg pg "$pg" '.ports[] | select(.port_guid == $pg) |
		"\(.node_guid) \(.port) \(.pkeys | map(select(. != "0x0000")) | join(" "))"' "$LIVE_DIR/s4.json")
	path=$(awk -v g="$(printf '%x' "$ng")" -v p="$p" '$1 == g && $2 == p { print $3 }' "$LIVE_DIR/paths.txt")
	[[ -n $path ]] || live_fail "no directed route to $ng port $p"
	keys=$(live_smp_pkeys "$path" "$p")
	[[ $keys == "$want" ]] || live_fail "smpquery on $pg after rollback: '$keys', state file: '$want'"
done <"$LIVE_DIR/changed.txt"
live_ok "rollback restores plan B (verify; smpquery on the changed ports)"

# 3. --via-opensm refuses a process that is not OpenSM.
printf 'Default=0x7fff : ALL=full ;\n' >"$LIVE_DIR/osm-partitions.conf"
cp "$LIVE_DIR/osm-partitions.conf" "$LIVE_DIR/before.conf"
set +e
live_ibpart apply -q --via-opensm --opensm-pid $$ --opensm-partitions "$LIVE_DIR/osm-partitions.conf" \
	-c "$LIVE_DIR/a.conf" >/dev/null 2>"$LIVE_DIR/notosm.err"
rc=$?
set -e
[[ $rc == 2 ]] || live_fail "--via-opensm to a shell: exit $rc, want 2"
grep -q "process $$ is not OpenSM" "$LIVE_DIR/notosm.err" || live_fail "no reason: $(cat "$LIVE_DIR/notosm.err")"
cmp -s "$LIVE_DIR/before.conf" "$LIVE_DIR/osm-partitions.conf" || live_fail "the partition file changed"
[[ ! -e $LIVE_DIR/osm-partitions.conf.bak ]] || live_fail "a .bak was made"
live_ok "--via-opensm with a pid that is not OpenSM: exit 2, nothing touched"
ibp_pass
