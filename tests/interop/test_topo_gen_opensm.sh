#!/bin/bash
# test_topo_gen_opensm.sh - what `ibpart gen` writes works in the real
# tools: ibsim runs the generated 100-CA fat tree, OpenSM accepts the
# generated partitions.conf (no parse error, SUBNET UP), and programs it as
# planned: a tenant node holds its tenant's P_Key as full member, a
# storage node every tenant's P_Key as limited member, the management host
# the default partition as full member.
set -u
: "${IBPART:?}" "${IBP_SRC:?}"
P=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim.so$')
for t in ibsim opensm smpquery; do
	command -v $t >/dev/null || { echo "SKIP: $t is not installed"; exit 77; }
done
[ -n "$P" ] || { echo "SKIP: libumad2sim.so not found"; exit 77; }
W=$(mktemp -d /tmp/ibp-topo-gen.XXXXXX)
# umad2sim leaves a sys-<pid> directory in the working directory
cd "$W" || exit 1
SP="" OP=""
cleanup() {
	[ -n "$OP" ] && kill -9 "$OP" 2>/dev/null
	[ -n "$SP" ] && kill -9 "$SP" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; tail -5 "$W/osm.log" 2>/dev/null; exit 1; }

"$IBPART" gen --cas 100 --partitions 10 --storage 2 -o "$W/g.topo" --conf "$W/g.conf" ||
	fail "ibpart gen"
export IBSIM_SOCKNAME="ibptg$$" SIM_HOST=H-e41d2d0300000000 OSM_TMP_DIR=$W OSM_CACHE_DIR=$W
ibsim -s -n "$W/g.topo" >"$W/ibsim.log" 2>&1 &
SP=$!
for _ in $(seq 50); do
	grep -q "parsed" "$W/ibsim.log" 2>/dev/null && break
	sleep 0.1
done
sleep 0.2
kill -0 $SP 2>/dev/null || fail "ibsim does not run the generated topology"
LD_PRELOAD=$P opensm -d 2 -P "$W/g.conf" -f "$W/osm.log" -s 0 >/dev/null 2>&1 &
OP=$!
for _ in $(seq 150); do
	grep -q "SUBNET UP" "$W/osm.log" 2>/dev/null && break
	sleep 0.1
done
grep -q "SUBNET UP" "$W/osm.log" || fail "no SUBNET UP"
grep -qi "PARSE ERROR\|retrying with default" "$W/osm.log" && fail "OpenSM rejected the conf"

# pkeys NODE-DESC: the P_Keys of the node's port 1, by its LID
pkeys() {
	local guid
	guid=$("$IBPART" gen --dump "$W/g.topo" 2>/dev/null |
		awk -v d="\"$1\"" '$1=="node" && $5==d {print $2}')
	local pg
	pg=$(printf '0x%016x' $((guid + 1)))
	local lid
	lid=$("$IBPART" gen --print-lids "$W/g.topo" 2>/dev/null | awk -v g="$pg" '($2 "") == g {print $1}')
	[ -n "$lid" ] || fail "no LID for $1"
	LD_PRELOAD=$P smpquery pkeys "$lid" 1 2>/dev/null |
		awk '/^ *[0-9]+:/ {for (i = 2; i <= NF; i++) if ($i != "0x0000") print $i}' | sort | tr '\n' ' '
}
got=$(pkeys t0003-node-0002)
[ "$got" = "0x7fff 0x8003 " ] || fail "t0003-node-0002 has '$got', expected '0x7fff 0x8003 '"
got=$(pkeys storage-0002)
want="0x0001 0x0002 0x0003 0x0004 0x0005 0x0006 0x0007 0x0008 0x0009 0x000a 0x7fff "
[ "$got" = "$want" ] || fail "storage-0002 has '$got', expected '$want'"
got=$(pkeys mgmt-0001)
[ "$got" = "0xffff " ] || fail "mgmt-0001 has '$got', expected '0xffff '"
echo "ok: ibsim runs the generated fat tree; OpenSM programs the generated plan"
exit 0
