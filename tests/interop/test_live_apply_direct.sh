#!/usr/bin/env bash
# test_live_apply_direct.sh - with no SM running, `ibpart apply --direct`
# programs a plan and the real smpquery (by directed route) reads back on
# every port exactly what the real OpenSM programs from the same plan on a
# fresh copy of the fabric; a second apply sends no SubnSet; --dry-run
# sends nothing; a change touches only its ports; --rollback restores; a
# plan OpenSM would reject changes nothing.
source "$(dirname "$0")/live_lib.sh"
live_init
D=$IBP_SRC/tests/interop/data
HOST=H-0002c90000000100
base=$IBSIM_SOCKNAME

read_all() { live_read_all; }

# 1. Ground truth: the real OpenSM with plan A on a fresh fabric.
export IBSIM_SOCKNAME=${base}o
live_ibsim "$D/live-2sw.topo" $HOST
cp "$D/live-2sw-a.conf" "$LIVE_DIR/a.conf"
live_opensm "$LIVE_DIR/a.conf"
read_all >"$LIVE_DIR/opensm.txt"
LD_PRELOAD=$LIVE_PRELOAD smpquery -D portinfo 0,1,1 4 >"$LIVE_DIR/osm-leaf-pi.txt"
# With OpenSM running, --direct would fight it: refused (exit 2, nothing
# sent); a dry run is still fine.
set +e
live_ibpart apply -q --direct -c "$D/live-2sw-b.conf" >/dev/null 2>"$LIVE_DIR/sm.err"
rc=$?
set -e
[[ $rc == 2 ]] || live_fail "apply --direct with OpenSM running: exit $rc, want 2"
grep -q 'an SM is running' "$LIVE_DIR/sm.err" || live_fail "no reason: $(cat "$LIVE_DIR/sm.err")"
read_all | diff -u "$LIVE_DIR/opensm.txt" - || live_fail "a refused apply changed the fabric"
live_ibpart apply -q --direct --dry-run -c "$D/live-2sw-b.conf" >/dev/null ||
	live_fail "dry run with OpenSM running failed"
live_ok "apply --direct refuses while OpenSM is the SM (exit 2, nothing changed); --dry-run still plans"
# Fail closed: OpenSM gone and its port unplugged, node-a's MasterSMLID
# still names it but nothing answers there - an SM may be running, so
# --direct still refuses (it used to take "no answer" for "no SM").
ibp_osm_stop
live_sim_cmd 'Unlink "H-0002c90000000100"[1]'
set +e
IBP_SIM_HOST=H-0002c90000000200 live_ibpart apply --direct -c "$D/live-2sw-b.conf" \
	>/dev/null 2>"$LIVE_DIR/gone.err"
rc=$?
set -e
[[ $rc == 2 ]] || live_fail "apply --direct with an unanswering MasterSMLID: exit $rc, want 2: $(cat "$LIVE_DIR/gone.err")"
grep -q 'assuming an SM runs' "$LIVE_DIR/gone.err" || live_fail "no word of the silent master SM: $(cat "$LIVE_DIR/gone.err")"
grep -q 'an SM is running' "$LIVE_DIR/gone.err" || live_fail "no refusal reason: $(cat "$LIVE_DIR/gone.err")"
live_ok "a MasterSMLID that does not answer: --direct refuses (an SM may be running)"
live_sim_stop
grep -q ' 0x7fff 0x8020$' "$LIVE_DIR/opensm.txt" || live_fail "OpenSM programmed nothing?"
[[ $(grep -c 'PartEnforce\(Inb\|Outb\):\.*0$' "$LIVE_DIR/osm-leaf-pi.txt") == 2 ]] ||
	live_fail "OpenSM's leaf port 4 enforcement bits: $(cat "$LIVE_DIR/osm-leaf-pi.txt")"

# 2. ibpart as the partition manager on another fresh fabric, no SM.
export IBSIM_SOCKNAME=${base}i
live_ibsim "$D/live-2sw.topo" $HOST
read_all >"$LIVE_DIR/fresh.txt"
live_ibpart apply -q --dry-run --direct -c "$D/live-2sw-a.conf" >"$LIVE_DIR/dry.txt" ||
	live_fail "dry run failed"
grep -q '^SubnSet(P_KeyTable)' "$LIVE_DIR/dry.txt" || live_fail "dry run printed no plan"
# a CA port by its port GUID, as the push report and verify name it
grep -q '^SubnSet(P_KeyTable) 0x0002c90000000401 port 1 ' "$LIVE_DIR/dry.txt" ||
	live_fail "dry run does not name node-c by its port GUID: $(grep node-c "$LIVE_DIR/dry.txt")"
read_all | diff -u "$LIVE_DIR/fresh.txt" - || live_fail "--dry-run changed the fabric"
live_ok "dry run: $(grep -c '^SubnSet' "$LIVE_DIR/dry.txt") SubnSets planned, none sent"

out=$(live_ibpart apply -q --direct -c "$D/live-2sw-a.conf" --state "$LIVE_DIR/s0.json" --format json) ||
	live_fail "apply A: exit $?: $out"
[[ $(jq .complete <<<"$out") == true ]] || live_fail "apply A incomplete: $out"
# --enforce both is the default, but ibsim's SwitchInfo implements neither
# enforcement bit: the SM reads that and leaves PortInfo alone, as OpenSM
# does there (its leaf ports read 0 0 after OpenSM too).
[[ $(jq .enforce_ports <<<"$out") == 0 && $(jq .enforce_unsupported <<<"$out") -gt 0 ]] ||
	live_fail "enforcement on ibsim's switches: $out"
# the state file keeps the leaf ports' bits as read (0 0 on ibsim) for a
# rollback, and only for switch ports facing end ports
[[ $(jq -c '[.ports[] | select(.enforcement) | .enforcement] | unique' "$LIVE_DIR/s0.json") == '["off"]' ]] ||
	live_fail "state file enforcement: $(jq -c '[.ports[] | [.node_desc, .port, .enforcement]]' "$LIVE_DIR/s0.json")"
[[ $(jq '[.ports[] | select(.enforcement and .port == 0)] | length' "$LIVE_DIR/s0.json") == 0 ]] ||
	live_fail "enforcement recorded on a port 0"
read_all >"$LIVE_DIR/ours.txt"
diff -u "$LIVE_DIR/opensm.txt" "$LIVE_DIR/ours.txt" ||
	live_fail "smpquery reads other tables than OpenSM programs"
live_ok "apply --direct: smpquery reads OpenSM's tables on all $(wc -l <"$LIVE_DIR/ours.txt") ports ($(jq .ports_changed\|length <<<"$out") changed, $(jq .smps <<<"$out") SMPs)"

out=$(live_ibpart apply -q --direct -c "$D/live-2sw-a.conf" --format json) || live_fail "second apply failed"
[[ $(jq .smps_set <<<"$out") == 0 && $(jq .smps_push <<<"$out") == 0 ]] ||
	live_fail "second apply sent SMPs to change things: $out"
live_ok "second apply: 0 SubnSet ($(jq .smps <<<"$out") SMPs, all reads)"

# 3. Plan B moves node-c: only node-c's port and its leaf port change.
out=$(live_ibpart apply -q --direct -c "$D/live-2sw-b.conf" --state "$LIVE_DIR/s1.json" --format json) ||
	live_fail "apply B failed: $out"
got=$(jq -c '[.ports_changed[] | [.port_guid, .port]] | sort' <<<"$out")
[[ $got == '[["0x0002c90000000401",1],["0x0002c90000002000",4]]' ]] ||
	live_fail "plan B changed $got"
live_ok "plan B: exactly node-c and leaf-2 port 4 changed, $(jq .smps_set <<<"$out") SubnSet"
live_ibpart verify -q -c "$D/live-2sw-b.conf" --previous "$LIVE_DIR/s1.json" >/dev/null ||
	live_fail "verify B after apply B found drift"

# 4. Rollback to what was read before plan B.
live_ibpart apply -q --rollback "$LIVE_DIR/s1.json" >/dev/null || live_fail "rollback failed"
read_all | diff -u "$LIVE_DIR/opensm.txt" - || live_fail "rollback did not restore plan A's tables"
live_ok "rollback restores the tables read before"

# 4b. Without --state the state file goes to the state directory under a
# name of its own: two applies that change ports leave two files, and the
# report names each (a rollback needs what was there).
export IBPART_STATE_DIR=$LIVE_DIR/state
first=""
for plan in b a; do
	out=$(live_ibpart apply -q --direct -c "$D/live-2sw-$plan.conf" --format json) ||
		live_fail "apply $plan without --state failed: $out"
	f=$(jq -r .state_file <<<"$out")
	[[ $f == "$IBPART_STATE_DIR"/ibpart-state-*.json && -s $f ]] ||
		live_fail "apply $plan: state file '$f' not in $IBPART_STATE_DIR"
	first=${first:-$f}
done
n=$(find "$IBPART_STATE_DIR" -name 'ibpart-state-*.json' | wc -l)
[[ $n == 2 ]] || live_fail "two applies left $n state files, want 2"
[[ $(stat -c %a "$IBPART_STATE_DIR") == 700 ]] || live_fail "state directory not private"
unset IBPART_STATE_DIR
# the first file holds what was there before both: plan A as OpenSM left it
live_ibpart apply -q --rollback "$first" >/dev/null || live_fail "rollback to $first failed"
read_all | diff -u "$LIVE_DIR/opensm.txt" - || live_fail "rollback to the first default state file did not restore plan A"
live_ok "without --state: one new state file per apply in \$IBPART_STATE_DIR (0700), each a working rollback"

# 5. Fail closed: a plan OpenSM would reject changes nothing.
printf 'Default=0x7fff : ALL=full ;\nBroken line without colon\n' >"$LIVE_DIR/bad.conf"
set +e
live_ibpart apply -q --direct -c "$LIVE_DIR/bad.conf" >/dev/null 2>"$LIVE_DIR/bad.err"
rc=$?
set -e
[[ $rc == 2 ]] || live_fail "bad plan: exit $rc, want 2"
read_all | diff -u "$LIVE_DIR/opensm.txt" - || live_fail "a rejected plan changed the fabric"
live_ok "a plan OpenSM would reject: exit 2, nothing changed"
