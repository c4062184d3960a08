#!/usr/bin/env bash
# test_live_apply_enforce.sh - `apply --direct --enforce E` programs what
# the real OpenSM programs with part_enforce E (-Z E) on a fresh copy of
# the fabric, every port read back with smpquery: with off, OpenSM copies
# no table onto the switch ports facing end ports, and neither does
# ibpart (they keep ibsim's 0xffff); with in, the copies are made as for
# both.  ibsim's SwitchInfo implements no enforcement bit, so no PortInfo
# Set is sent (enforce_ports 0) and verify checks none.
source "$(dirname "$0")/live_lib.sh"
live_init
D=$IBP_SRC/tests/interop/data
HOST=H-0002c90000000100
base=$IBSIM_SOCKNAME
cp "$D/live-2sw-a.conf" "$LIVE_DIR/a.conf"

for e in off in; do
	export IBSIM_SOCKNAME=${base}o$e
	live_ibsim "$D/live-2sw.topo" $HOST
	ibp_osm_start "$LIVE_DIR/a.conf" -Z "$e"
	live_read_all >"$LIVE_DIR/opensm-$e.txt"
	live_sim_stop

	export IBSIM_SOCKNAME=${base}i$e
	live_ibsim "$D/live-2sw.topo" $HOST
	out=$(live_ibpart apply -q --direct --enforce "$e" -c "$LIVE_DIR/a.conf" --format json) ||
		live_fail "apply --enforce $e: $out"
	[[ $(jq .complete <<<"$out") == true && $(jq .enforce_ports <<<"$out") == 0 ]] ||
		live_fail "apply --enforce $e: $out"
	[[ $e != in ]] || in_unsupported=$(jq .enforce_unsupported <<<"$out")
	live_read_all >"$LIVE_DIR/ours-$e.txt"
	diff -u "$LIVE_DIR/opensm-$e.txt" "$LIVE_DIR/ours-$e.txt" ||
		live_fail "--enforce $e: smpquery reads other tables than OpenSM -Z $e programs"
	v=$(live_ibpart verify -q --enforce "$e" -c "$LIVE_DIR/a.conf" --format json) ||
		live_fail "verify --enforce $e after apply: $v"
	[[ $(jq .enforcement_checked <<<"$v") == 0 ]] || live_fail "enforcement checked on ibsim: $v"
	live_ok "--enforce $e: the tables OpenSM -Z $e programs on all $(wc -l <"$LIVE_DIR/ours-$e.txt") ports, no PortInfo Set on ibsim"
	live_sim_stop
done
# unchanged: the tables as for both (copies on the leaf ports), PortInfo
# never looked at, so no switch is even counted as lacking the bits
export IBSIM_SOCKNAME=${base}u
live_ibsim "$D/live-2sw.topo" $HOST
out=$(live_ibpart apply -q --direct --enforce unchanged -c "$LIVE_DIR/a.conf" --format json) ||
	live_fail "apply --enforce unchanged: $out"
[[ $(jq .complete <<<"$out") == true && $(jq .enforce_unsupported <<<"$out") == 0 ]] ||
	live_fail "apply --enforce unchanged: $out"
[[ $in_unsupported -gt 0 ]] || live_fail "--enforce in counts no switch port lacking the bits: unchanged proves nothing"
live_read_all >"$LIVE_DIR/ours-unchanged.txt"
diff -u "$LIVE_DIR/opensm-in.txt" "$LIVE_DIR/ours-unchanged.txt" ||
	live_fail "--enforce unchanged: other tables than OpenSM -Z in programs"
live_ok "--enforce unchanged: the tables of both, no switch port's PortInfo considered ($in_unsupported with --enforce in)"
live_sim_stop
grep -q ' 0x7fff 0x8020$' "$LIVE_DIR/opensm-in.txt" || live_fail "OpenSM -Z in programmed nothing?"
cmp -s "$LIVE_DIR/opensm-off.txt" "$LIVE_DIR/opensm-in.txt" &&
	live_fail "-Z off and -Z in program the same tables: the test proves nothing"
live_ok "off and in differ (switch ports facing end ports), both matched"
