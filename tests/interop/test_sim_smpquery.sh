#!/usr/bin/env bash
# test_sim_smpquery.sh - `ibpart sim ... smpquery pkeys` prints byte for
# byte what infiniband-diags' smpquery prints.  The same fabric
# (examples/seed/seed.topo) runs on ibsim with the real OpenSM programming
# the same plan (examples/seed/partitions.conf); for every port ibnetdiscover
# reports (each CA port, every switch port 0..24) the real smpquery's
# output is diffed with ours (--mode opensm, LIDs in OpenSM's order).
# ibsim and OpenSM are private to this test and stopped also on failure
# (tests/interop/lib.sh).
. "$(dirname "$0")/lib.sh"
: "${IBPART:?IBPART must name the ibpart binary}"
ibp_init sim_smpquery
TOPO=$IBP_SRC/examples/seed/seed.topo
CONF=$IBP_SRC/examples/seed/partitions.conf
ibp_sim_start "$TOPO"
ibp_osm_start "$CONF"
# OpenSM logs SUBNET UP before its last P_Key writes land; wait until
# the storage node's table is final.
for _ in $(seq 100); do
	t=$(ibp_sim_run smpquery pkeys 8 1 2>/dev/null) || true
	grep -q '^   0: 0x7fff 0x0001 0x0002' <<<"$t" && break
	sleep 0.1
done

ibp_ports >"$IBP_WORK/ports"
n=0 fails=0
while read -r type lid port guid; do
	ibp_sim_run smpquery pkeys "$lid" "$port" >"$IBP_WORK/real" 2>"$IBP_WORK/real.err" ||
		ibp_fail "smpquery pkeys $lid $port: $(cat "$IBP_WORK/real.err")"
	"$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery pkeys "$lid" "$port" \
		>"$IBP_WORK/ours" 2>"$IBP_WORK/ours.err" ||
		ibp_fail "ibpart sim smpquery pkeys $lid $port: $(cat "$IBP_WORK/ours.err")"
	if ! cmp -s "$IBP_WORK/real" "$IBP_WORK/ours"; then
		echo "smpquery pkeys $lid $port ($type $guid) differs:" >&2
		diff "$IBP_WORK/real" "$IBP_WORK/ours" >"$IBP_WORK/diff" || true
		head -20 "$IBP_WORK/diff" >&2
		fails=$((fails + 1))
	fi
	n=$((n + 1))
done <"$IBP_WORK/ports"
[ "$n" -eq 32 ] || ibp_fail "expected 32 ports (7 CA + 25 switch), compared $n"
[ "$fails" -eq 0 ] || ibp_fail "$fails of $n ports differ"

# A port named by GUID and by description answers as its LID does; the
# LID really is tenantA-node-01's under OpenSM.
ibp_sim_run smpquery pkeys 3 1 >"$IBP_WORK/real3"
grep -q '^   0: 0x7fff 0x8001 0x0000' "$IBP_WORK/real3" || ibp_fail "LID 3 is not tenantA-node-01"
for spec in 0x506b4b0300a1b200 tenantA-node-01; do
	"$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery pkeys "$spec" 1 >"$IBP_WORK/by"
	cmp -s "$IBP_WORK/by" "$IBP_WORK/real3" || ibp_fail "smpquery pkeys $spec 1 differs from LID 3"
done

# smpquery's own ways of naming a port: -D (a directed route from the
# tools' port, sm-01: 0 itself, 0,1 the leaf, 0,1,P the CA on leaf port
# P) and -G (a port GUID): the same bytes as the real smpquery.
m=0
while read -r path port; do
	ibp_sim_run smpquery -D pkeys "$path" "$port" >"$IBP_WORK/real" 2>/dev/null ||
		ibp_fail "smpquery -D pkeys $path $port failed"
	"$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery -D pkeys "$path" "$port" \
		>"$IBP_WORK/ours" 2>"$IBP_WORK/ours.err" ||
		ibp_fail "ibpart sim smpquery -D pkeys $path $port: $(cat "$IBP_WORK/ours.err")"
	cmp -s "$IBP_WORK/real" "$IBP_WORK/ours" || ibp_fail "smpquery -D pkeys $path $port differs"
	m=$((m + 1))
done < <(echo "0 1"; for p in $(seq 0 24); do echo "0,1 $p"; done; for p in $(seq 1 7); do echo "0,1,$p 1"; done)
ibp_sim_run smpquery -G pkeys 0x506b4b0300a1b200 1 >"$IBP_WORK/real"
"$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery -G pkeys 0x506b4b0300a1b200 1 >"$IBP_WORK/ours"
cmp -s "$IBP_WORK/real" "$IBP_WORK/ours" || ibp_fail "smpquery -G pkeys differs"
cmp -s "$IBP_WORK/real3" "$IBP_WORK/ours" || ibp_fail "smpquery -G pkeys is not LID 3's table"
# a route that leads nowhere is bad input, said as such
if "$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery -D pkeys 0,9,9 1 >/dev/null 2>"$IBP_WORK/ours.err"; then
	ibp_fail "a route to nowhere answered"
fi
grep -q "no node answers at the end of the directed route 0,9,9" "$IBP_WORK/ours.err" ||
	ibp_fail "no reason for the route to nowhere: $(cat "$IBP_WORK/ours.err")"
ibp_pass "$n ports byte for byte by LID, $m by directed route, -G too"
