#!/usr/bin/env bash
# test_live_nets.sh - verify and apply over libibumad on fabrics other than
# the two the other live tests are built around: ibsim's own example nets
# (a two-port host, four hosts over two parallel paths), mixed.topo
# (routers, a dual-port CA, a CA with an unlinked port 1, ports past 9,
# and a plan GUID no port has: listed as absent, not drift) and a generated
# fat tree of 60 CA ports with storage and management nodes.  For each:
#   1. the real OpenSM programs the plan; `ibpart verify` finds no drift,
#      and a plan with one member demoted finds exactly that port (and the
#      switch port facing it) as membership drift;
#   2. on a fresh copy of the fabric with no SM, `ibpart apply --direct`
#      programs the plan and the real smpquery reads back, on every end
#      port and switch port, exactly what OpenSM programmed; a second apply
#      sends no SubnSet.
source "$(dirname "$0")/live_lib.sh"
live_init
D=$IBP_SRC/tests/data/interop
base=$IBSIM_SOCKNAME
R=(--retries 6)

# demote CONF GUID: the plan with GUID's first "=full" made "=limited".
demote() {
	awk -v g="$2" '!done && index($0, g "=full") { sub(g "=full", g "=limited"); done = 1 } { print }' "$1"
}

check_net() {
	local name=$1 topo=$2 conf=$3 guid=$4 host
	host=$(ibp_first_ca "$topo")
	cp "$conf" "$LIVE_DIR/$name.conf"

	# 1. OpenSM programs it; verify against the same and a changed plan.
	export IBSIM_SOCKNAME=${base}-$name-o
	live_ibsim "$topo" "$host"
	live_opensm "$LIVE_DIR/$name.conf"
	local out rc
	out=$(live_ibpart verify -q "${R[@]}" -c "$conf" --format json) ||
		live_fail "$name: verify with OpenSM's own plan: exit $?: $out"
	[[ $(jq .differences <<<"$out") == 0 ]] || live_fail "$name: drift on OpenSM's plan: $out"
	local checked
	checked=$(jq .ports_checked <<<"$out")
	[[ $checked -ge 3 ]] || live_fail "$name: only $checked ports checked"
	# a GUID the plan names that no port has is listed, not drift
	if grep -q 0x0002c9000000ffff "$conf"; then
		[[ $(jq -c '[.absent[].port_guid]' <<<"$out") == '["0x0002c9000000ffff"]' ]] ||
			live_fail "$name: the plan's ghost GUID not listed as absent: $out"
	fi
	if [[ $name == mixed ]]; then
		# node-a's node GUID where its port GUID belongs: listed as
		# absent, with the port GUID that was probably meant
		{ cat "$conf"; echo 'Typo=0x0400 : 0x0002c90000004000=full ;'; } >"$LIVE_DIR/typo.conf"
		out=$(live_ibpart verify -q "${R[@]}" -c "$LIVE_DIR/typo.conf" --format json) ||
			live_fail "$name: verify with a node GUID in the plan: exit $?: $out"
		jq -e '.absent[] | select(.port_guid == "0x0002c90000004000") | .hint | test("node-a.*0x0002c90000004001")' \
			<<<"$out" >/dev/null || live_fail "$name: no hint for a node GUID: $(jq -c .absent <<<"$out")"
	fi
	live_read_all >"$LIVE_DIR/$name.osm"
	grep -qv ' 0xffff$' "$LIVE_DIR/$name.osm" || live_fail "$name: OpenSM programmed nothing?"

	demote "$conf" "$guid" >"$LIVE_DIR/$name.other.conf"
	! cmp -s "$conf" "$LIVE_DIR/$name.other.conf" || live_fail "$name: demote found no $guid=full"
	set +e
	out=$(live_ibpart verify -q "${R[@]}" -c "$LIVE_DIR/$name.other.conf" --format json)
	rc=$?
	set -e
	[[ $rc == 1 ]] || live_fail "$name: verify with a changed plan: exit $rc, want 1: $out"
	local ports kinds
	ports=$(jq -r '[.drift[].port_guid] | unique | join(" ")' <<<"$out")
	kinds=$(jq -r '[.drift[].kind] | unique | join(" ")' <<<"$out")
	[[ $kinds == membership ]] || live_fail "$name: drift kinds [$kinds], want membership: $out"
	grep -qi "${guid#0x}" <<<"$ports" || live_fail "$name: demoted port $guid not in drift [$ports]"
	[[ $(wc -w <<<"$ports") -le 2 ]] || live_fail "$name: drift on more than the port and its switch: [$ports]"
	live_ok "$name: verify agrees with OpenSM on $checked ports; a demoted member is exactly [$ports]"
	live_sim_stop

	# 2. ibpart as the partition manager on a fresh copy, no SM.
	export IBSIM_SOCKNAME=${base}-$name-i
	live_ibsim "$topo" "$host"
	out=$(live_ibpart apply -q "${R[@]}" --direct -c "$conf" --format json) ||
		live_fail "$name: apply --direct: exit $?: $out"
	live_read_all >"$LIVE_DIR/$name.ours"
	diff -u "$LIVE_DIR/$name.osm" "$LIVE_DIR/$name.ours" >&2 ||
		live_fail "$name: smpquery reads other tables after apply than OpenSM programs"
	local n
	n=$(wc -l <"$LIVE_DIR/$name.ours")
	out=$(live_ibpart apply -q "${R[@]}" --direct -c "$conf" --format json) ||
		live_fail "$name: second apply: exit $?: $out"
	[[ $(jq .smps_set <<<"$out") == 0 ]] || live_fail "$name: second apply sent SubnSet: $out"
	live_ok "$name: apply --direct gives OpenSM's tables on all $n ports read; again: 0 SubnSet"
	live_sim_stop
}

check_net net.2sw2path4hca "$D/net.2sw2path4hca" "$D/n01-net.conf" 0x0000000000100004
check_net net.2sw2path4hca2port "$D/net.2sw2path4hca2port" "$D/n01-net.conf" 0x0000000000100001
check_net mixed "$D/mixed.topo" "$D/m01-mixed.conf" 0x0002c90000004001

"$IBPART" gen --cas 60 --partitions 5 --storage 2 --mgmt 1 --radix 12 \
	-o "$LIVE_DIR/g60.topo" --conf "$LIVE_DIR/g60.conf" >/dev/null ||
	live_fail "gen failed"
# the first full member of tenant t0002
g=$(awk '/^t0002=/ { getline; sub(/^ +/, ""); sub(/=.*/, ""); print; exit }' "$LIVE_DIR/g60.conf")
[[ $g == 0x* ]] || live_fail "no member of t0002 in the generated plan"
check_net gen60 "$LIVE_DIR/g60.topo" "$LIVE_DIR/g60.conf" "$g"
