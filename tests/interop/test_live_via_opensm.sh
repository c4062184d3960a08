#!/usr/bin/env bash
# test_live_via_opensm.sh - `ibpart apply --via-opensm` changes a running
# OpenSM's partitions: the canonical file is installed atomically (the old
# one kept as .bak), OpenSM re-reads it on SIGHUP, and the verify that
# follows confirms the new tables - which the real smpquery reads too.  A
# plan OpenSM would reject never reaches OpenSM.
source "$(dirname "$0")/live_lib.sh"
live_init
D=$IBP_SRC/tests/interop/data
live_ibsim "$D/live-2sw.topo" H-0002c90000000100
cp "$D/live-2sw-a.conf" "$LIVE_DIR/partitions.conf"
live_opensm "$LIVE_DIR/partitions.conf"
O=(--opensm-partitions "$LIVE_DIR/partitions.conf" --opensm-pidfile "$LIVE_OSM_PIDFILE"
	--opensm-log "$LIVE_OSM_LOG" --wait 20000 --retries 6)

# node-c (leaf-2 port 4, DR path 0,1,1,4) holds Red before.
[[ $(live_smp_pkeys 0,1,1,4 1) == "0x7fff 0x8020" ]] || live_fail "plan A not in place"

live_ibpart apply -q --via-opensm -c "$D/live-2sw-b.conf" "${O[@]}" >"$LIVE_DIR/out.txt" 2>"$LIVE_DIR/err.txt" ||
	{ cat "$LIVE_DIR/out.txt" "$LIVE_DIR/err.txt" >&2; live_fail "apply --via-opensm: exit $?"; }
grep -q 'no drift' "$LIVE_DIR/out.txt" || live_fail "verify after SIGHUP: $(cat "$LIVE_DIR/out.txt")"
cmp -s "$LIVE_DIR/partitions.conf.bak" "$D/live-2sw-a.conf" || live_fail "old file not kept as .bak"
grep -q '0x0002c90000000401' "$LIVE_DIR/partitions.conf" || live_fail "new file lacks node-c"
have=$(live_smp_pkeys 0,1,1,4 1)
grep -q '0x8010' <<<"$have" && ! grep -q '0x8020' <<<"$have" ||
	live_fail "smpquery reads node-c as [$have] after the change"
live_ok "via OpenSM: file installed (.bak kept), OpenSM re-read it, verify and smpquery see node-c in Blue [$have]"
# A later verify of the same plan, with no state file: OpenSM left 0x8010
# at index 2 (after the old 0x8020's slot), which is where the port holds
# it - no drift, not a false "index" alarm.
live_ibpart verify -q -c "$D/live-2sw-b.conf" >"$LIVE_DIR/v.txt" ||
	live_fail "verify after OpenSM's change: exit $?: $(cat "$LIVE_DIR/v.txt")"
live_ok "verify after OpenSM's own change, no state file: no drift"

# OpenSM's log as most run it - buffered (no -d 2, force_log_flush FALSE):
# here a log that never shows SUBNET UP.  apply watches the fabric itself
# and is done when it holds the plan (back to plan A).
: >"$LIVE_DIR/silent.log"
live_ibpart apply -q --via-opensm -c "$D/live-2sw-a.conf" --opensm-partitions "$LIVE_DIR/partitions.conf" \
	--opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_DIR/silent.log" --wait 20000 --retries 6 \
	>"$LIVE_DIR/out2.txt" 2>"$LIVE_DIR/err2.txt" ||
	{ cat "$LIVE_DIR/out2.txt" "$LIVE_DIR/err2.txt" >&2; live_fail "apply --via-opensm with a silent log: exit $?"; }
grep -q 'holds the plan' "$LIVE_DIR/err2.txt" || live_fail "silent log: $(cat "$LIVE_DIR/err2.txt")"
grep -q 'no drift' "$LIVE_DIR/out2.txt" || live_fail "silent log, verify: $(cat "$LIVE_DIR/out2.txt")"
[[ $(live_smp_pkeys 0,1,1,4 1) == "0x7fff 0x8020" || $(live_smp_pkeys 0,1,1,4 1) == *0x8020* ]] ||
	live_fail "node-c not back in Red: $(live_smp_pkeys 0,1,1,4 1)"
live_ok "via OpenSM with a log that never says SUBNET UP: converged on the fabric itself"

# A plan OpenSM would reject: refused, the file and OpenSM untouched.
printf 'Default=0x7fff : ALL=full ;\nBroken line without colon\n' >"$LIVE_DIR/bad.conf"
cp "$LIVE_DIR/partitions.conf" "$LIVE_DIR/before.conf"
# OpenSM is stopped while the apply runs: a SIGHUP sent to it stays
# pending (its ShdPnd mask, bit 0) until SIGCONT, so "not signalled" is
# read from the kernel once the apply has exited, not waited for.
kill -STOP "$LIVE_OSM_PID"
for ((i = 0; i < 1000; i++)); do # until it is stopped (state T)
	[[ $(awk '{ print $3 }' "/proc/$LIVE_OSM_PID/stat") == T ]] && break
	sleep 0.01
done
[[ $(awk '{ print $3 }' "/proc/$LIVE_OSM_PID/stat") == T ]] || live_fail "OpenSM did not stop"
set +e
live_ibpart apply -q --via-opensm -c "$LIVE_DIR/bad.conf" "${O[@]}" >/dev/null 2>&1
rc=$?
set -e
pending=$(awk '/^(ShdPnd|SigPnd):/ { print $2 }' "/proc/$LIVE_OSM_PID/status")
kill -CONT "$LIVE_OSM_PID"
[[ $rc == 2 ]] || live_fail "bad plan via OpenSM: exit $rc, want 2"
cmp -s "$LIVE_DIR/partitions.conf" "$LIVE_DIR/before.conf" || live_fail "the bad plan reached OpenSM's file"
for m in $pending; do
	(((16#$m & 1) == 0)) || live_fail "OpenSM was signalled (pending signals $pending)"
done
live_ok "a plan OpenSM would reject never reaches it"

# --opensm-conf is OpenSM's opensm.conf: its partition_config_file is the
# file to install; one that names none (say, the partition file itself,
# what --opensm-conf meant before) is refused, nothing touched.
set +e
live_ibpart apply -q --via-opensm -c "$D/live-2sw-b.conf" --opensm-conf "$LIVE_DIR/partitions.conf" \
	--opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" >/dev/null 2>"$LIVE_DIR/err3.txt"
rc=$?
set -e
[[ $rc == 2 ]] || live_fail "--opensm-conf naming no partition_config_file: exit $rc, want 2"
grep -q 'names no partition_config_file' "$LIVE_DIR/err3.txt" || live_fail "refusal: $(cat "$LIVE_DIR/err3.txt")"
cmp -s "$LIVE_DIR/partitions.conf" "$LIVE_DIR/before.conf" || live_fail "the partition file changed"
printf 'partition_config_file %s\n' "$LIVE_DIR/partitions.conf" >"$LIVE_DIR/opensm.conf"
live_ibpart apply -q --via-opensm -c "$D/live-2sw-b.conf" --opensm-conf "$LIVE_DIR/opensm.conf" \
	--opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" --wait 20000 --retries 6 \
	>"$LIVE_DIR/out4.txt" 2>"$LIVE_DIR/err4.txt" ||
	{ cat "$LIVE_DIR/out4.txt" "$LIVE_DIR/err4.txt" >&2; live_fail "apply --opensm-conf: exit $?"; }
grep -q '0x0002c90000000401' "$LIVE_DIR/partitions.conf" || live_fail "partition_config_file not installed"
live_ok "--opensm-conf: the partition file is opensm.conf's partition_config_file; none named, refused"
