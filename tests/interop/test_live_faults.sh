#!/usr/bin/env bash
# test_live_faults.sh - apply and verify survive a lossy fabric: with
# ibsim's console `Error` dropping 20% of the MADs at both switches, apply
# --direct still converges (the SM re-sends what is lost) and verify
# passes.  A port taken away by ibsim's `Clear` is reported as drift and
# apply refuses to half-apply; after `ReLink` and a port reset (ibsim's
# Clear resets PortInfo but keeps the P_KeyTable, so the reset a rebooted
# HCA does - 0xffff at index 0 - is written as a one-port state), verify
# reports the drift and a second apply repairs it.
source "$(dirname "$0")/live_lib.sh"
live_init
D=$IBP_SRC/tests/interop/data
live_ibsim "$D/live-2sw.topo" H-0002c90000000100 console
R=(--retries 15 --timeout 50)

live_sim_cmd 'Error "S-0002c90000001000" 20'
live_sim_cmd 'Error "S-0002c90000002000" 20'
out=$(live_ibpart apply -q "${R[@]}" --direct -c "$D/live-2sw-a.conf" --state "$LIVE_DIR/s0.json" --format json) ||
	live_fail "apply under 20% loss: exit $?: $out"
[[ $(jq .complete <<<"$out") == true ]] || live_fail "incomplete: $out"
[[ $(jq .timeouts <<<"$out") -gt 0 ]] || live_fail "no MAD was lost - the fault was not injected: $out"
live_ok "apply under 20% MAD loss: $(jq .smps <<<"$out") SMPs, $(jq .timeouts <<<"$out") lost and re-sent"
live_ibpart verify -q "${R[@]}" -c "$D/live-2sw-a.conf" >/dev/null ||
	live_fail "verify under loss found drift"
live_sim_cmd 'Error "S-0002c90000001000" 0'
live_sim_cmd 'Error "S-0002c90000002000" 0'
live_ibpart verify -q -c "$D/live-2sw-a.conf" >/dev/null || live_fail "verify without loss found drift"
live_ok "verify passes, with and without loss"

# Clear node-c's port: the port is gone.
live_sim_cmd 'Clear "H-0002c90000000400"[1]'
set +e
out=$(live_ibpart verify -q -c "$D/live-2sw-a.conf" -t "$D/live-2sw.topo" --format json)
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "verify after Clear: exit $rc, want 1"
jq -e '.drift[] | select(.port_guid == "0x0002c90000000401" and .kind == "unreachable")' <<<"$out" >/dev/null ||
	live_fail "Clear'd port not reported: $out"
set +e
live_ibpart apply -q --direct -c "$D/live-2sw-a.conf" -t "$D/live-2sw.topo" >/dev/null 2>&1
rc=$?
set -e
[[ $rc == 3 ]] || live_fail "apply with a port missing: exit $rc, want 3"
live_ok "after Clear: verify reports node-c unreachable, apply refuses (exit 3)"

live_sim_cmd 'ReLink "H-0002c90000000400"[1]'
# node-c's table as a rebooted HCA has it: 0xffff at index 0.
jq '.ports |= map(select(.port_guid == "0x0002c90000000401"))' "$LIVE_DIR/s0.json" >"$LIVE_DIR/reset.json"
[[ $(jq '.ports | length' "$LIVE_DIR/reset.json") == 1 ]] || live_fail "no reset state for node-c"
live_ibpart apply -q --rollback "$LIVE_DIR/reset.json" >/dev/null || live_fail "port reset failed"
set +e
out=$(live_ibpart verify -q -c "$D/live-2sw-a.conf" --format json)
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "verify after reset: exit $rc"
got=$(jq -c '[.drift[] | [.port_guid, .kind]] | sort' <<<"$out")
[[ $got == '[["0x0002c90000000401","membership"],["0x0002c90000000401","missing"]]' ]] ||
	live_fail "drift after reset: $got"
out=$(live_ibpart apply -q --direct -c "$D/live-2sw-a.conf" --format json) || live_fail "repair failed"
[[ $(jq -c '[.ports_changed[].port_guid]' <<<"$out") == '["0x0002c90000000401"]' ]] ||
	live_fail "repair changed other ports: $out"
live_ibpart verify -q -c "$D/live-2sw-a.conf" >/dev/null || live_fail "drift after repair"
live_ok "reset port: verify reports it, a second apply repairs exactly it"

# A topology that says a host is plugged in where none is (leaf-2 port 7
# has no link on this fabric): verify -t reports that host's port and the
# switch port facing it as unreachable - not as a table of 0xffff with
# the wrong membership.
awk '{ print }
	/^\[6\]\t"H-0002c90000000600"\[1\]/ { print "[7]\t\"H-0002c90000000700\"[1]\t\t# \"ghost\"" }
	END { print ""; print "caguid=0x0002c90000000700"; print "Ca\t1 \"H-0002c90000000700\"\t\t# \"ghost\"";
	      print "[1]\t\"S-0002c90000002000\"[7]" }' "$D/live-2sw.topo" >"$LIVE_DIR/ghost.topo"
grep -q '^\[7\].*ghost' "$LIVE_DIR/ghost.topo" || live_fail "ghost topology not built"
set +e
out=$(live_ibpart verify -q -c "$D/live-2sw-a.conf" -t "$LIVE_DIR/ghost.topo" --format json)
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "verify -t with a ghost host: exit $rc, want 1: $out"
got=$(jq -c '[.drift[] | [.node_desc, .port, .kind]] | unique' <<<"$out")
[[ $got == '[["ghost",1,"unreachable"],["leaf-2",7,"unreachable"]]' ]] ||
	live_fail "ghost host drift: $got"
live_ok "a host the topology has and the fabric lacks: it and its switch port unreachable, nothing else"
