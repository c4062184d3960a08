#!/bin/bash
# test_topo_ibsim.sh - the topology reader and writer against ibsim and
# ibnetdiscover.
#
# For each fabric: start ibsim on it (own IBSIM_SOCKNAME), run the real
# ibnetdiscover against it plain and with -s, -g, -f, load every output
# with our reader (`ibpart gen --dump`: nodes, types, port counts,
# descriptions, port GUIDs, links, all by GUID) and require it to equal
# the original file's dump.  Fabrics: the seed, ibsim's own example nets,
# a generated 100-CA fat tree (our writer's output, so ibsim loading it
# is tested too), and our rewrite of the seed and of an ibsim net.
# ibsim is lib.sh's: private, stopped also on failure.
. "$(dirname "$0")/lib.sh"
: "${IBPART:?IBPART must name the ibpart binary}"
ibp_init topo-ibsim

fails=0
bad() { echo "FAIL $*" >&2; fails=$((fails + 1)); }

# case_disc NAME TOPO SIM_HOST
case_disc() {
	local name=$1 topo=$2 d="$IBP_WORK/$1"
	mkdir -p "$d"
	if ! "$IBPART" gen --dump "$topo" 2>"$d/orig.err" | sort >"$d/orig.dump"; then
		bad "$name: our reader rejects the original: $(head -3 "$d/orig.err")"
		return
	fi
	export IBSIM_SOCKNAME="ibp-$$-topo-$name"
	IBP_SIM_HOST_USER=$3
	ibp_sim_start "$topo"
	local opt
	for opt in "" -s -g -f "-s -g"; do
		local tag=${opt// /}
		tag=${tag:-plain}
		# shellcheck disable=SC2086
		if ! ibp_sim_run timeout 60 ibnetdiscover $opt >"$d/disc$tag.topo" 2>"$d/disc$tag.err" ||
			[ ! -s "$d/disc$tag.topo" ]; then
			bad "$name: ibnetdiscover $opt failed: $(tail -3 "$d/disc$tag.err")"
			continue
		fi
		if ! "$IBPART" gen --dump "$d/disc$tag.topo" 2>"$d/load$tag.err" |
			sort >"$d/disc$tag.dump"; then
			bad "$name: our reader rejects ibnetdiscover $opt output: $(head -5 "$d/load$tag.err")"
		elif grep -q "error\|warning" "$d/load$tag.err"; then
			bad "$name: findings on ibnetdiscover $opt output: $(head -5 "$d/load$tag.err")"
		elif ! diff -u "$d/orig.dump" "$d/disc$tag.dump" >"$d/diff$tag"; then
			bad "$name: ibnetdiscover $opt output loads differently (- file, + discovered)"
			head -20 "$d/diff$tag" >&2
		else
			echo "ok   $name: ibnetdiscover ${opt:-(plain)}: $(grep -c ^node "$d/disc$tag.dump") nodes, $(grep -c ^port "$d/disc$tag.dump") linked ports identical"
		fi
	done
	ibp_sim_stop
}

SEED=$IBP_SRC/examples/seed/seed.topo
NETS=$IBP_SRC/tests/data/topo
W=$IBP_WORK
case_disc seed "$SEED" H-506b4b0300a1b2ff
for f in net net.1 net.2sw2path net.2sw2path4hca net.2sw2path4hca2port; do
	case_disc "ibsim-$f" "$NETS/ibsim-$f" Hca1
done
"$IBPART" gen --cas 100 --partitions 10 --storage 2 -o "$W/gen100.topo" --conf "$W/gen100.conf" 2>/dev/null ||
	ibp_fail "ibpart gen"
case_disc gen100 "$W/gen100.topo" H-e41d2d0300000000
"$IBPART" gen --rewrite "$SEED" -o "$W/seed.rw" || ibp_fail "rewrite"
case_disc seed-rewritten "$W/seed.rw" H-506b4b0300a1b2ff
"$IBPART" gen --rewrite "$NETS/ibsim-net.2sw2path4hca2port" -o "$W/net2.rw" || ibp_fail "rewrite"
case_disc ibsim-net.2sw2path4hca2port-rewritten "$W/net2.rw" Hca1
[ "$fails" -eq 0 ] || ibp_fail "$fails discoveries differ"
ibp_pass "9 fabrics, 5 ibnetdiscover modes each: our reader loads what ibnetdiscover prints as the original"
