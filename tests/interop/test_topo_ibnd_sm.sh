#!/bin/bash
# test_topo_ibnd_sm.sh - the SM port from real ibnetdiscover output.
# ibnetdiscover run from the storage node (not the file's first CA)
# writes "# Initiated from node ... port ..."; `ibpart tables -t` on that
# file, with no --sm-port, must take that port as the SM's, as the real
# OpenSM running on the storage node does: the storage node a full member
# of the default partition (0xffff), no tenant port 0xffff, every table
# equal to OpenSM's entry for entry (ibp_parity, lib.sh).
. "$(dirname "$0")/lib.sh"
: "${IBPART:?IBPART must name the ibpart binary}"
ibp_init topo-ibnd-sm
STORAGE=H-506b4b0300a1b20f # storage-node, the seed file's last CA
export IBP_SIM_HOST_USER=$STORAGE
ibp_sim_start "$IBP_SRC/examples/seed/seed.topo"
ibp_sim_run ibnetdiscover >"$IBP_WORK/ibnd.topo" 2>/dev/null || ibp_fail "ibnetdiscover failed"
ibp_sim_stop
grep -q '^# Initiated from node 506b4b0300a1b20f port 506b4b0300a1b210' "$IBP_WORK/ibnd.topo" ||
	ibp_fail "ibnetdiscover did not run from the storage node: $(grep Initiated "$IBP_WORK/ibnd.topo")"
# ours, from the file alone
"$IBPART" tables -t "$IBP_WORK/ibnd.topo" --format json "$IBP_SRC/examples/seed/partitions.conf" \
	>"$IBP_WORK/t.json" 2>"$IBP_WORK/t.err" || ibp_fail "tables failed: $(cat "$IBP_WORK/t.err")"
# the CA ports that are full members of the default partition: the two
# the plan names (sm-01, ufm-server) and the SM's port - no tenant node
full=$(jq -r '[.ports[] | select(.port_guid != .node_guid and .port != 0)
	| select(.pkeys | index("0xffff") != null) | .port_guid] | sort | join(" ")' "$IBP_WORK/t.json")
[[ $full == "0x506b4b0300a1b210 0x506b4b0300a1b300 0x506b4b0300a1b301" ]] ||
	ibp_fail "CA ports holding 0xffff: '$full', want storage-node (the SM), sm-01 and ufm-server"
# the file's first CA is not the storage node: the Initiated line decided
first=$(awk '/^caguid=/ { print $1; exit }' "$IBP_WORK/ibnd.topo")
[[ $first != caguid=0x506b4b0300a1b20f ]] || ibp_fail "the storage node is listed first: the test proves nothing"
grep -q "assumed 0x506b4b0300a1b210 (storage-node), the port the topology says ran the discovery" "$IBP_WORK/t.err" ||
	ibp_fail "tables did not say which SM port it assumed: $(cat "$IBP_WORK/t.err")"
# and the real OpenSM on the storage node programs exactly that
ibp_parity ibnd-storage "$IBP_WORK/ibnd.topo" "$IBP_SRC/examples/seed/partitions.conf"
ibp_parity_done
