#!/usr/bin/env bash
# test_live_discover.sh - `ibpart discover` over libibumad against ibsim
# agrees with the real ibnetdiscover on the same fabric: the same nodes
# (GUID, type, port count) and the same links, on the seed fabric and on
# a two-switch fabric with parallel inter-switch links and a dual-port CA.
# What it writes loads back into ibsim itself and into our topo reader.
# With OpenSM up (LIDs assigned), the LIDs and link rates in the comments
# match ibnetdiscover's port for port, ibsim loads the file without a
# warning, and the real ibswitches and ibhosts print the same from both.
source "$(dirname "$0")/live_lib.sh"
live_init

# live_topo_comments FILE: per node and port line, what the comments say
# besides descriptions ("lid 5 lmc 0 lid 2 4xSDR", "base port 0 lid 2
# lmc 0"), keyed by node GUID and port, sorted.
live_topo_comments() {
	awk '
	function g(s) { sub(/^0x/, "", s); sub(/\(.*/, "", s); sub(/^0+/, "", s); return tolower(s) }
	function rest(l) { sub(/^[^#]*#/, "", l); gsub(/"[^"]*"/, "", l); gsub(/[ \t]+/, " ", l); sub(/^ /, "", l); sub(/ $/, "", l); return l }
	/^(switchguid|caguid|rtguid)=/ { split($0, a, "="); cur = g(a[2]); next }
	/^(Switch|Ca|Rt)[ \t]/ { print cur, "-", rest($0); next }
	/^\[[0-9]+\]/ { p = $0; sub(/^\[/, "", p); sub(/\].*/, "", p); print cur, p, rest($0) }' "$1" | sort
}

# discover_both NAME: $LIVE_DIR/NAME.ours by ibpart, NAME.ibnd by the real
# ibnetdiscover, of the running simulator.
discover_both() {
	live_ibpart discover -q -o "$LIVE_DIR/$1.ours" ||
		live_fail "$1: ibpart discover failed"
	LD_PRELOAD=$LIVE_PRELOAD ibnetdiscover >"$LIVE_DIR/$1.ibnd" 2>/dev/null ||
		live_fail "$1: ibnetdiscover failed"
}

check_lids() {
	local name=$1
	live_opensm ""
	discover_both "$name.lids"
	live_topo_comments "$LIVE_DIR/$name.lids.ibnd" >"$LIVE_DIR/$name.lids.ibnd.c"
	live_topo_comments "$LIVE_DIR/$name.lids.ours" >"$LIVE_DIR/$name.lids.ours.c"
	# about something: assigned LIDs and rates are there
	grep -q ' lid [1-9][0-9]* 4xSDR$' "$LIVE_DIR/$name.lids.ibnd.c" ||
		live_fail "$name: ibnetdiscover shows no LIDs: $(head -3 "$LIVE_DIR/$name.lids.ibnd.c")"
	diff -u "$LIVE_DIR/$name.lids.ibnd.c" "$LIVE_DIR/$name.lids.ours.c" ||
		live_fail "$name: LIDs and rates differ from ibnetdiscover's"
	local tool
	for tool in ibswitches ibhosts; do
		diff -u <("$tool" "$LIVE_DIR/$name.lids.ibnd" | sort) \
			<("$tool" "$LIVE_DIR/$name.lids.ours" | sort) ||
			live_fail "$name: $tool prints differently from our file"
	done
	grep -q 'base port 0 lid [1-9]' <(ibswitches "$LIVE_DIR/$name.lids.ours") ||
		live_fail "$name: ibswitches shows no switch LID from our file"
	live_ok "$name: $(grep -c . "$LIVE_DIR/$name.lids.ours.c") LID/rate comments as ibnetdiscover's; ibswitches, ibhosts agree"
	live_osm_stop
}

check_fabric() {
	local topo=$1 host=$2 name=$3
	live_ibsim "$topo" "$host"
	discover_both "$name"
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
	check_lids "$name"
	# stop this simulator before the next
	live_sim_stop
}

check_fabric "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff seed
check_fabric "$IBP_SRC/tests/interop/data/live-2sw.topo" H-0002c90000000100 twosw

# What we wrote is a fabric ibsim itself runs, and discovering that gives
# the same fabric again.
export IBSIM_SOCKNAME="${IBSIM_SOCKNAME}b"
live_ibsim "$LIVE_DIR/twosw.ours" H-0002c90000000100
! grep -i 'ibwarn\|cannot parse' "$IBP_SIM_LOG" ||
	live_fail "ibsim warned loading our topology"
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
