#!/bin/bash
# test_topo_lids.sh - ibp_fabric_assign_lids() against the real OpenSM.
#
# For each fabric: start ibsim (own IBSIM_SOCKNAME), attach OpenSM at a
# chosen node (SIM_HOST), wait for SUBNET UP, read every LID with
# `ibnetdiscover -p`, and compare (LID, port GUID) pairs with what
# `ibpart gen --print-lids TOPO --sm-port GUID` predicts.  Fabrics: the
# seed (SM on its first CA and on a middle one), ibsim's example nets
# (unlinked CA ports, an SM on a switch's port 0), a generated fat tree.
# ibsim and OpenSM are lib.sh's: private, stopped also on failure.
. "$(dirname "$0")/lib.sh"
: "${IBPART:?IBPART must name the ibpart binary}"
ibp_init topo-lids

fails=0
# case_lids NAME TOPO SIM_HOST SM_PORT: SIM_HOST "" binds to ibsim's
# default node (the file's first: a switch in ibsim's nets)
case_lids() {
	local name=$1 topo=$2 sm=$4 d="$IBP_WORK/$1"
	mkdir -p "$d"
	export IBSIM_SOCKNAME="ibp-$$-lids-$name"
	IBP_SIM_HOST_USER=$3
	ibp_sim_start "$topo"
	ibp_osm_start ""
	# "CA 8 1 0x… …" and "SW 2 7 0x… …": (LID, port GUID), a switch's
	# ports all carry its port-0 LID and GUID
	ibp_sim_run ibnetdiscover -p 2>/dev/null |
		awk '$1=="CA"||$1=="SW"||$1=="RT" {print $2, $4}' |
		sort -u | sort -n >"$d/osm.lids"
	"$IBPART" gen --print-lids "$topo" --sm-port "$sm" | awk '{print $1, $2}' >"$d/our.lids" ||
		ibp_fail "$name: ibpart gen --print-lids failed"
	if [ ! -s "$d/osm.lids" ]; then
		echo "FAIL $name: ibnetdiscover found no ports" >&2
		fails=$((fails + 1))
	elif diff -u "$d/osm.lids" "$d/our.lids" >"$d/diff"; then
		echo "ok   $name: $(wc -l <"$d/our.lids") LIDs identical"
	else
		echo "FAIL $name: LIDs differ (- OpenSM, + ibpart)" >&2
		head -20 "$d/diff" >&2
		fails=$((fails + 1))
	fi
	ibp_osm_stop
	ibp_sim_stop
}

SEED=$IBP_SRC/examples/seed/seed.topo
NETS=$IBP_SRC/tests/data/topo
case_lids seed "$SEED" H-506b4b0300a1b2ff 0x506b4b0300a1b300
case_lids seed-sm-tenantB "$SEED" H-506b4b0300a1b201 0x506b4b0300a1b202
case_lids ibsim-net "$NETS/ibsim-net" Hca1 Hca1
case_lids ibsim-net-sm-on-switch "$NETS/ibsim-net" "" Switch1
case_lids ibsim-net.2sw2path4hca "$NETS/ibsim-net.2sw2path4hca" Hca3 Hca3
case_lids ibsim-net.2sw2path4hca2port "$NETS/ibsim-net.2sw2path4hca2port" Hca2 0x100004
"$IBPART" gen --cas 300 --partitions 12 --storage 3 --mgmt 2 -o "$IBP_WORK/gen300.topo" 2>/dev/null ||
	ibp_fail "ibpart gen"
case_lids gen300 "$IBP_WORK/gen300.topo" H-e41d2d0300000000 mgmt-0001
case_lids gen300-sm-mid "$IBP_WORK/gen300.topo" H-e41d2d0300000100 0xe41d2d0300000101
[ "$fails" -eq 0 ] || ibp_fail "$fails fabric(s) with other LIDs than OpenSM's"
ibp_pass "8 fabrics: OpenSM's LIDs predicted exactly"
