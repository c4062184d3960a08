#!/bin/bash
# test_convert.sh - the seed document's "PartitionConfig { ... }" block
# (tests/data/conf/seed-block.conf, node names from examples/seed/seed.topo)
# converted by `ibpart convert`, then given to the real OpenSM 3.3.23 on
# ibsim: OpenSM must accept the result and program the tables the plan
# intends, read back with smpquery: tenants full members of their own
# partition, the storage node a limited member of both, sm-01 and
# ufm-server full members of the default partition.  The expected tables
# are written out by hand below.  Then the same block given to OpenSM
# verbatim: OpenSM rejects it and every port becomes a full member of
# 0xffff - what `ibpart check` warns about.
. "$(dirname "$0")/lib.sh"
ibp_init convert
: "${IBPART:?IBPART must name the ibpart binary}"

"$IBPART" convert -t "$IBP_SRC/examples/seed/seed.topo" \
	-o "$IBP_WORK/partitions.conf" "$IBP_SRC/tests/data/conf/seed-block.conf" \
	2>"$IBP_WORK/convert.err" || { cat "$IBP_WORK/convert.err" >&2; ibp_fail "convert failed"; }

ibp_sim_start "$IBP_SRC/examples/seed/seed.topo"
ibp_osm_start "$IBP_WORK/partitions.conf"
ibp_osm_log_has "retrying with default config" &&
	ibp_fail "OpenSM rejected the converted file"
ibp_read_pkeys '^CA|^SW [0-9]+ 0 ' >"$IBP_WORK/got"
{
	echo "0x506b4b0300a1b100 0 0x7fff"             # leaf-01 port 0
	echo "0x506b4b0300a1b200 1 0x7fff 0x8001"      # tenantA-node-01
	echo "0x506b4b0300a1b201 1 0x7fff 0x8001"      # tenantA-node-02
	echo "0x506b4b0300a1b202 1 0x7fff 0x8002"      # tenantB-node-01
	echo "0x506b4b0300a1b203 1 0x7fff 0x8002"      # tenantB-node-02
	echo "0x506b4b0300a1b210 1 0x7fff 0x0001 0x0002" # storage-node
	echo "0x506b4b0300a1b300 1 0xffff"             # sm-01
	echo "0x506b4b0300a1b301 1 0xffff"             # ufm-server
} | sort -k1,1 -k2,2n >"$IBP_WORK/want"
ibp_expect_eq "tables from the converted seed block" "$(cat "$IBP_WORK/want")" \
	"$(cat "$IBP_WORK/got")"
ibp_osm_stop
ibp_sim_stop

# the block verbatim: OpenSM falls back to ALL=full
ibp_sim_start "$IBP_SRC/examples/seed/seed.topo"
ibp_osm_start "$IBP_SRC/tests/data/conf/seed-block.conf"
ibp_osm_log_has "PARSE ERROR: line 3: no partition definition found" ||
	ibp_fail "OpenSM did not reject the seed block where ibpart says"
ibp_read_pkeys '^CA' | awk '{ $1 = ""; $2 = ""; print }' | sort -u >"$IBP_WORK/got2"
ibp_expect_eq "tables from the verbatim block" "  0xffff" "$(cat "$IBP_WORK/got2")"
ibp_pass "converted block programs the plan; verbatim block fails open"
