#!/bin/bash
# test_topo_gen_opensm.sh - what `ibpart gen` writes works in the real
# tools: ibsim runs the generated 100-CA fat tree, OpenSM accepts the
# generated partitions.conf (no parse error, SUBNET UP), and programs it as
# planned: a tenant node holds its tenant's P_Key as full member, a
# storage node every tenant's P_Key as limited member, the management host
# the default partition as full member.  ibsim and OpenSM are lib.sh's.
. "$(dirname "$0")/lib.sh"
: "${IBPART:?IBPART must name the ibpart binary}"
ibp_init topo-gen

W=$IBP_WORK
"$IBPART" gen --cas 100 --partitions 10 --storage 2 -o "$W/g.topo" --conf "$W/g.conf" ||
	ibp_fail "ibpart gen"
ibp_sim_start "$W/g.topo"
ibp_osm_start "$W/g.conf"
ibp_osm_log_has "PARSE ERROR|retrying with default" && ibp_fail "OpenSM rejected the generated conf"

# pkeys NODE-DESC: the P_Keys of the node's port 1, by its LID
pkeys() {
	local guid pg lid
	guid=$("$IBPART" gen --dump "$W/g.topo" 2>/dev/null |
		awk -v d="\"$1\"" '$1=="node" && $5==d {print $2}')
	pg=$(printf '0x%016x' $((guid + 1)))
	lid=$("$IBPART" gen --print-lids "$W/g.topo" 2>/dev/null | awk -v g="$pg" '($2 "") == g {print $1}')
	[ -n "$lid" ] || ibp_fail "no LID for $1"
	ibp_sim_run smpquery pkeys "$lid" 1 2>/dev/null |
		awk '/^ *[0-9]+:/ {for (i = 2; i <= NF; i++) if ($i != "0x0000") print $i}' | sort | tr '\n' ' '
}
got=$(pkeys t0003-node-0002)
[ "$got" = "0x7fff 0x8003 " ] || ibp_fail "t0003-node-0002 has '$got', expected '0x7fff 0x8003 '"
got=$(pkeys storage-0002)
want="0x0001 0x0002 0x0003 0x0004 0x0005 0x0006 0x0007 0x0008 0x0009 0x000a 0x7fff "
[ "$got" = "$want" ] || ibp_fail "storage-0002 has '$got', expected '$want'"
got=$(pkeys mgmt-0001)
[ "$got" = "0xffff " ] || ibp_fail "mgmt-0001 has '$got', expected '0xffff '"
ibp_pass "ibsim runs the generated fat tree; OpenSM programs the generated plan"
