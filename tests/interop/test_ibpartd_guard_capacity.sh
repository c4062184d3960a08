#!/usr/bin/env bash
# test_ibpartd_guard_capacity.sh - ibpartd's table-overflow guard in front
# of the real OpenSM on ibsim: the guard judges with OpenSM's index
# memory (which ibpartd records after each verified revision) and the
# PartitionCap the fabric's NodeInfo gives, and what it predicts is what
# the real smpquery reads.  The port is leaf-2's port 0 (switch port 0:
# 8 P_Key entries in ibsim), the sequence docs/opensm-behaviour.md rule
# 22 established on OpenSM 3.3.23:
#   P1..P7 full        0x7fff 0x8001 .. 0x8007 (full)
#   P8                 9 P_Keys in 8 entries: 409
#   P2 limited         0x0002 at index 2 (0x8002 still remembered there)
#   P2 removed         a hole at 2
#   P8                 reuses the hole at 2 (OpenSM forgets 0x0002, not
#                      0x8002)
#   P1 removed         0x7fff 0x0000 0x8008 0x8003 .. 0x8007
#   P2 full            8 P_Keys in 8 entries fit by count, but 0x8002
#                      returns to index 2 over 0x8008: 409 - and the
#                      same file given to OpenSM behind ibpartd's back
#                      shows it: smpquery reads 0x8002 at 2, no 0x8008
#   P9                 into the hole at 1: accepted, on the fabric
#   P10                full: 409
# Every table below is written by hand from those rules.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm
SW=0002c90000002000 # leaf-2, its port 0
sw_pkeys() { live_smp_pkeys 0,1,1 0; }
[[ $(sw_pkeys) == 0x7fff ]] || live_fail "leaf-2 port 0 before: [$(sw_pkeys)]"

# --monitor-interval 0: no collector thread.  Its sweep and the
# applier's first cycle would otherwise open umad sessions at once, and
# libumad2sim cannot hold two in one process (its second sim_init
# panics: "can't bind ctl socket").
start() {
	ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
		--topology "$D/live-2sw.topo" --wait 20000 --monitor-interval 0 ||
		live_fail "ibpartd did not start"
	local i
	for ((i = 0; i < 200; i++)); do
		grep -q 'verified over SMPs' "$IBPD_LOG" && return 0
		sleep 0.1
	done
	live_fail "start: no verification: $(tail -3 "$IBPD_LOG")"
}

# add/remove: the switch port added to / removed from PKEY, accepted,
# on the fabric, and smpquery reads WANT.
add() { # PKEY MEMBERSHIP WANT
	ibpd_req POST /ufmRest/resources/pkeys "{\"pkey\": \"$1\", \"membership\": \"$2\", \"guids\": [\"$SW\"]}"
	[[ $CODE == 200 ]] || live_fail "add $1 $2: $CODE $BODY"
	ibpd_wait_fabric "$(jq .revision <<<"$BODY")" || live_fail "add $1: $(tail -5 "$IBPD_LOG")"
	[[ $(sw_pkeys) == "$3" ]] || live_fail "after add $1 $2: smpquery [$(sw_pkeys)], want [$3]"
}
remove() { # PKEY WANT
	ibpd_req POST /ufmRest/actions/remove_guids_from_pkey "{\"pkey\": \"$1\", \"guids\": [\"$SW\"]}"
	[[ $CODE == 200 ]] || live_fail "remove $1: $CODE $BODY"
	ibpd_wait_fabric "$(jq .revision <<<"$BODY")" || live_fail "remove $1: $(tail -5 "$IBPD_LOG")"
	[[ $(sw_pkeys) == "$2" ]] || live_fail "after remove $1: smpquery [$(sw_pkeys)], want [$2]"
}
# refused PKEY LOST WHY: a 409 whose one finding is capacity-overflow on
# the switch port, 8 entries as NodeInfo gives them, LOST (the finding's
# partition, by base) not fitting; nothing recorded, the fabric as it was.
refused() {
	local rev table
	ibpd_req GET /ibpart/v1/status
	rev=$(jq .revision <<<"$BODY")
	table=$(sw_pkeys)
	ibpd_req POST /ufmRest/resources/pkeys "{\"pkey\": \"$1\", \"membership\": \"full\", \"guids\": [\"$SW\"]}"
	[[ $CODE == 409 ]] || live_fail "add $1: $CODE $BODY, want 409"
	jq -e --arg lost "$2" '.findings | length == 1 and
		.[0].code == "capacity-overflow" and .[0].severity == "high" and
		.[0].ports == ["0x0002c90000002000"] and .[0].partitions == [$lost]' <<<"$BODY" >/dev/null ||
		live_fail "add $1: findings $BODY"
	local msg
	msg=$(jq -r '.findings[0].message' <<<"$BODY")
	[[ $msg == *"has 8 entries (PartitionCap, as the fabric's NodeInfo gives it)"* && $msg == *"$3"* ]] ||
		live_fail "add $1: message $msg"
	ibpd_req GET /ibpart/v1/status
	[[ $(jq .revision <<<"$BODY") == "$rev" ]] || live_fail "add $1: a revision was recorded: $BODY"
	[[ $(sw_pkeys) == "$table" ]] || live_fail "add $1: the fabric changed: [$(sw_pkeys)]"
}

start
want="0x7fff"
for k in 1 2 3 4 5 6 7; do
	want+=" 0x800$k"
	add "0x$k" full "$want"
done
live_ok "P1..P7: smpquery reads leaf-2 port 0 [$want]"
refused 0x8 0x0008 "the table cannot hold them all"
live_ok "P8: 9 P_Keys in 8 entries refused (409, capacity-overflow, 0x8008)"

add 0x2 limited "0x7fff 0x8001 0x0002 0x8003 0x8004 0x8005 0x8006 0x8007"
remove 0x2 "0x7fff 0x8001 0x0000 0x8003 0x8004 0x8005 0x8006 0x8007"
add 0x8 full "0x7fff 0x8001 0x8008 0x8003 0x8004 0x8005 0x8006 0x8007"
remove 0x1 "0x7fff 0x0000 0x8008 0x8003 0x8004 0x8005 0x8006 0x8007"
live_ok "P2 flipped and removed, P8 into its hole, P1 removed: smpquery as predicted"

refused 0x2 0x0008 "OpenSM remembers the index"
live_ok "P2 back: fits by count, refused by the index memory (0x8008 would be overwritten)"
# the memory was taken from the ports once, at the first verification;
# every revision after it was replayed by the model and matched the fabric
[[ $(grep -c "index memory taken from the tables" "$IBPD_LOG") == 1 ]] ||
	live_fail "the model did not follow OpenSM: $(grep 'index memory' "$IBPD_LOG")"

# The refused change given to OpenSM behind ibpartd's back: OpenSM
# really writes 0x8002 over 0x8008.  Then the file put back.
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
cp "$IBPD_CONF" "$LIVE_DIR/accepted.conf"
printf 'bypass=0x0002 : 0x%s=full ;\n' "$SW" >>"$IBPD_CONF"
ibp_osm_hup
[[ $(sw_pkeys) == "0x7fff 0x0000 0x8002 0x8003 0x8004 0x8005 0x8006 0x8007" ]] ||
	live_fail "OpenSM given P2 back: [$(sw_pkeys)]"
live_ok "the real OpenSM given that file: 0x8002 over 0x8008 at index 2, the hole at 1 left empty"
cp "$LIVE_DIR/accepted.conf" "$IBPD_CONF"
ibp_osm_hup
[[ $(sw_pkeys) == "0x7fff 0x0000 0x8008 0x8003 0x8004 0x8005 0x8006 0x8007" ]] ||
	live_fail "OpenSM given the file back: [$(sw_pkeys)]"

# a restart of ibpartd: the memory is in its database (and the same
# OpenSM, so it is replayed, not taken from the ports again)
start
! grep -q "index memory taken from the tables" "$IBPD_LOG" ||
	live_fail "after the restart the memory was not replayed: $(grep 'index memory' "$IBPD_LOG")"
refused 0x2 0x0008 "OpenSM remembers the index"
add 0x9 full "0x7fff 0x8009 0x8008 0x8003 0x8004 0x8005 0x8006 0x8007"
live_ok "after a restart: P2 still refused; P9 accepted into the hole at 1, smpquery as predicted"
refused 0xa 0x000a "the table cannot hold them all"
live_ok "P10: the table full, refused"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
ibp_pass
