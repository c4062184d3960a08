#!/bin/bash
# test_opensm_seed.sh - the seed fabric and plan (examples/seed/) through
# the real OpenSM 3.3.23 on ibsim: every port's P_KeyTable as read back
# with smpquery must be what docs/opensm-behaviour.md and the observed
# reference say (default partition limited for everyone but the SM and UFM,
# tenants in their own partitions, storage limited in both, the leaf
# switch's port 0 holding only 0x7fff, the leaf's external ports mirroring
# the CA behind them, switch ports with nothing behind them untouched).
# The expected tables are written out by hand below from those documents.
. "$(dirname "$0")/lib.sh"
ibp_init opensm-seed

ibp_sim_start "$IBP_SRC/examples/seed/seed.topo"
ibp_osm_start "$IBP_SRC/examples/seed/partitions.conf"
ibp_read_pkeys >"$IBP_WORK/got"

sw=0x506b4b0300a1b100
{
	echo "0x506b4b0300a1b200 1 0x7fff 0x8001" # tenantA-node-01
	echo "0x506b4b0300a1b201 1 0x7fff 0x8001" # tenantA-node-02
	echo "0x506b4b0300a1b202 1 0x7fff 0x8002" # tenantB-node-01
	echo "0x506b4b0300a1b203 1 0x7fff 0x8002" # tenantB-node-02
	echo "0x506b4b0300a1b210 1 0x7fff 0x0001 0x0002" # storage-node
	echo "0x506b4b0300a1b300 1 0xffff" # sm-01, the SM's port
	echo "0x506b4b0300a1b301 1 0xffff" # ufm-server
	echo "$sw 0 0x7fff"                # leaf-01 port 0
	echo "$sw 1 0xffff"                # faces sm-01
	echo "$sw 2 0xffff"                # faces ufm-server
	echo "$sw 3 0x7fff 0x8001"
	echo "$sw 4 0x7fff 0x8001"
	echo "$sw 5 0x7fff 0x8002"
	echo "$sw 6 0x7fff 0x8002"
	echo "$sw 7 0x7fff 0x0001 0x0002"
	for p in $(seq 8 24); do echo "$sw $p 0xffff"; done # nothing behind
} | sort -k1,1 -k2,2n >"$IBP_WORK/want"

ibp_expect_eq "P_KeyTables of the seed fabric" "$(cat "$IBP_WORK/want")" \
	"$(cat "$IBP_WORK/got")"
ibp_osm_log_has "retrying with default config" &&
	ibp_fail "OpenSM rejected the seed plan"
ibp_pass "$(wc -l <"$IBP_WORK/got") ports as documented"
