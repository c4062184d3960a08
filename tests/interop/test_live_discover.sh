#!/usr/bin/env bash
# test_live_discover.sh - `ibpart discover` over libibumad against ibsim
# agrees with the real ibnetdiscover on the same fabric: the same nodes
# (GUID, type, port count) and the same links, on the seed fabric and on
# a two-switch fabric with parallel inter-switch links and a dual-port CA.
# What it writes loads back into ibsim itself and into our topo reader.
source "$(dirname "$0")/live_lib.sh"
live_init

check_fabric() {
	local topo=$1 host=$2 name=$3
	live_ibsim "$topo" "$host"
	live_ibpart discover -q -o "$LIVE_DIR/$name.ours" ||
		live_fail "$name: ibpart discover failed"
	LD_PRELOAD=$LIVE_PRELOAD ibnetdiscover >"$LIVE_DIR/$name.ibnd" 2>/dev/null ||
		live_fail "$name: ibnetdiscover failed"
	live_topo_norm "$LIVE_DIR/$name.ours" >"$LIVE_DIR/$name.ours.norm"
	live_topo_norm "$LIVE_DIR/$name.ibnd" >"$LIVE_DIR/$name.ibnd.norm"
	# the comparison must be about something
	local nodes links
	nodes=$(grep -c '^N ' "$LIVE_DIR/$name.ibnd.norm")
	links=$(grep -c '^L ' "$LIVE_DIR/$name.ibnd.norm")
	[[ $nodes -ge 8 && $links -ge 7 ]] || live_fail "$name: ibnetdiscover saw too little"
	diff -u "$LIVE_DIR/$name.ibnd.norm" "$LIVE_DIR/$name.ours.norm" ||
		live_fail "$name: discover differs from ibnetdiscover"
	# our description strings are the nodes' NodeDescription
	grep -q '"sm-\(01\|host\)"' "$LIVE_DIR/$name.ours" ||
		live_fail "$name: node descriptions missing"
	# both name the port that ran the discovery, the same one
	local ours theirs
	ours=$(grep '^# Initiated from node' "$LIVE_DIR/$name.ours" | awk '{print $7}')
	theirs=$(grep '^# Initiated from node' "$LIVE_DIR/$name.ibnd" | awk '{print $7}')
	[[ -n $ours && ${ours,,} == "${theirs,,}" ]] ||
		live_fail "$name: Initiated-from port: ours '$ours', ibnetdiscover '$theirs'"
	live_ok "$name: $nodes nodes, $links links, as ibnetdiscover"
	# stop this simulator before the next
	live_sim_stop
}

check_fabric "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff seed
check_fabric "$IBP_SRC/tests/interop/data/live-2sw.topo" H-0002c90000000100 twosw

# What we wrote is a fabric ibsim itself runs, and discovering that gives
# the same fabric again.
export IBSIM_SOCKNAME="${IBSIM_SOCKNAME}b"
live_ibsim "$LIVE_DIR/twosw.ours" H-0002c90000000100
live_ibpart discover -q -o "$LIVE_DIR/again.topo" || live_fail "re-discover failed"
diff -u "$LIVE_DIR/twosw.ours.norm" <(live_topo_norm "$LIVE_DIR/again.topo") ||
	live_fail "the written topology does not run the same fabric in ibsim"
live_ok "written topology runs in ibsim and discovers the same"

# No fabric: a clean system failure (exit 3), nothing written.
live_ibpart discover -q -C no-such-ca -o "$LIVE_DIR/none.topo" &&
	live_fail "discover on a missing CA succeeded"
rc=$?
[[ $rc -eq 3 ]] || live_fail "missing CA: exit $rc, want 3"
[[ ! -e $LIVE_DIR/none.topo ]] || live_fail "a file was written on failure"
live_ok "missing CA: exit 3, nothing written"
