#!/bin/bash
# test_topo_lids.sh - ibp_fabric_assign_lids() against the real OpenSM.
#
# For each fabric: start ibsim (own IBSIM_SOCKNAME), attach OpenSM at a
# chosen CA (SIM_HOST), wait for SUBNET UP, read every LID with
# `ibnetdiscover -p`, and compare (LID, port GUID) pairs with what
# `ibpart gen --print-lids TOPO --sm-port GUID` predicts.  Fabrics: the
# seed (SM on its first CA and on a middle one), ibsim's example nets
# (unlinked CA ports, an SM on a switch's port 0), a generated fat tree.
set -u
: "${IBPART:?}" "${IBP_SRC:?}"
P=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim.so$')
for t in ibsim opensm ibnetdiscover; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
[ -n "$P" ] || { echo "SKIP: libumad2sim.so not found"; exit 77; }

W=$(mktemp -d /tmp/ibp-topo-lids.XXXXXX)
# umad2sim leaves a sys-<pid> directory in the working directory
cd "$W" || exit 1
PIDS=()
cleanup() {
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

# stop PID: TERM, then KILL if it lingers (OpenSM can hang on exit when
# its simulator went away first)
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
# case NAME TOPO SIM_HOST SM_PORT_GUID
case_lids() {
	local name=$1 topo=$2 host=$3 sm=$4 d="$W/$1"
	mkdir -p "$d"
	export IBSIM_SOCKNAME="ibptl$$_$n" OSM_TMP_DIR="$d" OSM_CACHE_DIR="$d"
	n=$((n + 1))
	if [ -n "$host" ]; then export SIM_HOST=$host; else unset SIM_HOST; fi
	ibsim -s -n "$topo" >"$d/ibsim.log" 2>&1 &
	local sp=$!
	PIDS+=($sp)
	# ibsim prints "FILE: parsed N lines" once it has the fabric
	for _ in $(seq 50); do
		grep -q "parsed" "$d/ibsim.log" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.2
	LD_PRELOAD=$P opensm -d 2 -f "$d/osm.log" -s 0 >"$d/osm.out" 2>&1 &
	local op=$!
	PIDS+=($op)
	local up=0
	for _ in $(seq 150); do
		grep -q "SUBNET UP" "$d/osm.log" 2>/dev/null && { up=1; break; }
		sleep 0.1
	done
	if [ $up = 0 ]; then
		echo "FAIL $name: OpenSM did not reach SUBNET UP"
		tail -5 "$d/osm.log" "$d/ibsim.log"
		fail=1
	else
		LD_PRELOAD=$P ibnetdiscover -p >"$d/disc.txt" 2>"$d/disc.err"
		# "CA 8 1 0x… …" and "SW 2 7 0x… …": (LID, port GUID), a
		# switch's ports all carry its port-0 LID and GUID
		awk '$1=="CA"||$1=="SW"||$1=="RT" {print $2, $4}' "$d/disc.txt" |
			sort -u | sort -n >"$d/osm.lids"
		"$IBPART" gen --print-lids "$topo" --sm-port "$sm" >"$d/our.txt" ||
			{ echo "FAIL $name: ibpart gen --print-lids failed"; fail=1; }
		awk '{print $1, $2}' "$d/our.txt" >"$d/our.lids"
		if [ ! -s "$d/osm.lids" ]; then
			echo "FAIL $name: ibnetdiscover found no ports"
			fail=1
		elif diff -u "$d/osm.lids" "$d/our.lids" >"$d/diff"; then
			echo "ok   $name: $(wc -l <"$d/our.lids") LIDs identical"
		else
			echo "FAIL $name: LIDs differ (- OpenSM, + ibpart)"
			head -20 "$d/diff"
			fail=1
		fi
	fi
	# OpenSM lingers on SIGTERM (it waits on the simulator); nothing of it
	# is needed any more
	kill -9 $op 2>/dev/null
	wait $op 2>/dev/null
	stop $sp
}

SEED=$IBP_SRC/examples/seed/seed.topo
NETS=$IBP_SRC/tests/data/topo
case_lids seed "$SEED" H-506b4b0300a1b2ff 0x506b4b0300a1b300
case_lids seed-sm-tenantB "$SEED" H-506b4b0300a1b201 0x506b4b0300a1b202
case_lids ibsim-net "$NETS/ibsim-net" Hca1 Hca1
case_lids ibsim-net-sm-on-switch "$NETS/ibsim-net" "" Switch1
case_lids ibsim-net.2sw2path4hca "$NETS/ibsim-net.2sw2path4hca" Hca3 Hca3
case_lids ibsim-net.2sw2path4hca2port "$NETS/ibsim-net.2sw2path4hca2port" Hca2 0x100004
"$IBPART" gen --cas 300 --partitions 12 --storage 3 --mgmt 2 -o "$W/gen300.topo" 2>/dev/null ||
	{ echo "FAIL: ibpart gen"; exit 1; }
case_lids gen300 "$W/gen300.topo" H-e41d2d0300000000 mgmt-0001
case_lids gen300-sm-mid "$W/gen300.topo" H-e41d2d0300000100 0xe41d2d0300000101
exit $fail
