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
set -u
: "${IBPART:?}" "${IBP_SRC:?}"
P=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim.so$')
for t in ibsim ibnetdiscover; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
[ -n "$P" ] || { echo "SKIP: libumad2sim.so not found"; exit 77; }

W=$(mktemp -d /tmp/ibp-topo-ibsim.XXXXXX)
# umad2sim leaves a sys-<pid> directory in the working directory
cd "$W" || exit 1
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT INT TERM
stop() {
	kill "$1" 2>/dev/null || return 0
	for _ in $(seq 30); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

fail=0
n=0
# case NAME TOPO SIM_HOST
case_disc() {
	local name=$1 topo=$2 host=$3 d="$W/$1"
	mkdir -p "$d"
	export IBSIM_SOCKNAME="ibpti$$_$n" SIM_HOST=$host
	n=$((n + 1))
	if ! "$IBPART" gen --dump "$topo" 2>"$d/orig.err" | sort >"$d/orig.dump"; then
		echo "FAIL $name: our reader rejects the original"
		cat "$d/orig.err"
		fail=1
		return
	fi
	ibsim -s -n "$topo" >"$d/ibsim.log" 2>&1 &
	local sp=$!
	PIDS+=($sp)
	for _ in $(seq 50); do
		grep -q "parsed" "$d/ibsim.log" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.2
	if ! kill -0 $sp 2>/dev/null; then
		echo "FAIL $name: ibsim does not load it"
		tail -5 "$d/ibsim.log"
		fail=1
		return
	fi
	local opt
	for opt in "" -s -g -f "-s -g"; do
		local tag=${opt// /}
		tag=${tag:-plain}
		if ! LD_PRELOAD=$P timeout 60 ibnetdiscover $opt >"$d/disc$tag.topo" 2>"$d/disc$tag.err" ||
			[ ! -s "$d/disc$tag.topo" ]; then
			echo "FAIL $name: ibnetdiscover $opt failed"
			tail -3 "$d/disc$tag.err"
			fail=1
			continue
		fi
		if ! "$IBPART" gen --dump "$d/disc$tag.topo" 2>"$d/load$tag.err" |
			sort >"$d/disc$tag.dump"; then
			echo "FAIL $name: our reader rejects ibnetdiscover $opt output"
			head -5 "$d/load$tag.err"
			fail=1
		elif grep -q "error\|warning" "$d/load$tag.err"; then
			echo "FAIL $name: findings on ibnetdiscover $opt output"
			head -5 "$d/load$tag.err"
			fail=1
		elif ! diff -u "$d/orig.dump" "$d/disc$tag.dump" >"$d/diff$tag"; then
			echo "FAIL $name: ibnetdiscover $opt output loads differently (- file, + discovered)"
			head -20 "$d/diff$tag"
			fail=1
		else
			echo "ok   $name: ibnetdiscover ${opt:-(plain)}: $(grep -c ^node "$d/disc$tag.dump") nodes, $(grep -c ^port "$d/disc$tag.dump") linked ports identical"
		fi
	done
	stop $sp
}

SEED=$IBP_SRC/examples/seed/seed.topo
NETS=$IBP_SRC/tests/data/topo
case_disc seed "$SEED" H-506b4b0300a1b2ff
for f in net net.1 net.2sw2path net.2sw2path4hca net.2sw2path4hca2port; do
	case_disc "ibsim-$f" "$NETS/ibsim-$f" Hca1
done
"$IBPART" gen --cas 100 --partitions 10 --storage 2 -o "$W/gen100.topo" --conf "$W/gen100.conf" 2>/dev/null ||
	{ echo "FAIL: ibpart gen"; exit 1; }
case_disc gen100 "$W/gen100.topo" H-e41d2d0300000000
"$IBPART" gen --rewrite "$SEED" -o "$W/seed.rw" || { echo "FAIL: rewrite"; exit 1; }
case_disc seed-rewritten "$W/seed.rw" H-506b4b0300a1b2ff
"$IBPART" gen --rewrite "$NETS/ibsim-net.2sw2path4hca2port" -o "$W/net2.rw" ||
	{ echo "FAIL: rewrite"; exit 1; }
case_disc ibsim-net.2sw2path4hca2port-rewritten "$W/net2.rw" Hca1
exit $fail
