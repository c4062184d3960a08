#!/bin/bash
# test_opensm_state.sh - a changed plan on a running OpenSM (SIGHUP makes
# it re-read partitions.conf and re-sweep): surviving P_Keys keep their
# index, removed ones leave holes, new ones go after the highest index
# used before.  ibpart predicts each step with --state (the previous
# tables, written back atomically after each run); every programmed
# port must match OpenSM's, index for index.
. "$(dirname "$0")/lib.sh"
ibp_init opensm-state
: "${IBPART:?IBPART must name the ibpart binary (CTest sets it)}"
T=$IBP_SRC/examples/seed/seed.topo
D=$IBP_SRC/tests/data/interop
conf=$IBP_WORK/partitions.conf
state=$IBP_WORK/state.json

step()
{
	local name=$1 src=$2
	cp "$src" "$conf"
	"$IBPART" tables -t "$T" --format json --state "$state" "$conf" \
		>"$IBP_WORK/$name.json" 2>/dev/null
	[ $? -le 1 ] || ibp_fail "$name: ibpart tables failed"
	jq -e ".ports | length > 0 and all(has(\"remembered\") or .node_type == \"SW\")" "$state" >/dev/null ||
		ibp_fail "$name: --state file lacks what OpenSM remembers"
	ibp_json_tables_normalize <"$IBP_WORK/$name.json" >"$IBP_WORK/$name.ours"
	if [ "$name" = before ]; then
		ibp_osm_start "$conf"
	else
		ibp_osm_hup
	fi
	ibp_read_pkeys '^(CA|RT) | (CA|RT|self)$' >"$IBP_WORK/$name.osm"
	ibp_expect_eq "$name: tables (ibpart --state vs OpenSM after SIGHUP)" \
		"$(cat "$IBP_WORK/$name.ours")" "$(cat "$IBP_WORK/$name.osm")"
	echo "step $name: $(wc -l <"$IBP_WORK/$name.osm") ports identical"
}

ibp_sim_start "$T"
step before "$D/h01-before.conf"
step after "$D/h02-after.conf"
step again "$D/h03-again.conf"

# the storage node's table through the three steps, written out by hand
# from the rules (docs/opensm-behaviour.md): the holes and the appends
grep '^0x506b4b0300a1b210 ' "$IBP_WORK/before.osm" "$IBP_WORK/after.osm" "$IBP_WORK/again.osm" |
	sed 's|.*/||' >"$IBP_WORK/storage"
ibp_expect_eq "storage-node through the changes" "$(cat <<'X'
before.osm:0x506b4b0300a1b210 1 0x7fff 0x0001 0x0002 0x0003
after.osm:0x506b4b0300a1b210 1 0x7fff 0x0000 0x0002 0x0003 0x8100
again.osm:0x506b4b0300a1b210 1 0x7fff 0x0001 0x0002 0x0000 0x0000 0x0005
X
)" "$(cat "$IBP_WORK/storage")"
ibp_pass "3 plans on one running OpenSM, surviving indexes kept"
