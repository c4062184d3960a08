#!/usr/bin/env bash
# test_umad_routes.sh - the libibumad transport sends both kinds of SMP
# (IBA vol. 1 14.2.1-14.2.2): on an ibsim fabric whose LIDs the real
# OpenSM assigned, a LID-routed SubnGet(NodeInfo) to every LID that
# ibnetdiscover reports comes back with the node GUID the real smpquery
# reads at that LID; a directed-route one with hop count 0 reaches the
# local node; a LID nobody holds times out and is reported, not invented.
. "$(dirname "$0")/lib.sh"
: "${IBP_UMAD_PROBE:?IBP_UMAD_PROBE must name the umad_probe test driver}"
ibp_init umad_routes
D=$IBP_SRC/tests/data/interop
ibp_sim_start "$D/mixed.topo"
ibp_osm_start "$D/m01-mixed.conf"

ibp_ports | awk '$2 != 0 { print $2 }' | sort -un >"$IBP_WORK/lids"
n=$(wc -l <"$IBP_WORK/lids")
[ "$n" -ge 8 ] || ibp_fail "only $n LIDs assigned"
# shellcheck disable=SC2046
ibp_sim_run "$IBP_UMAD_PROBE" $(cat "$IBP_WORK/lids") >"$IBP_WORK/ours" 2>"$IBP_WORK/ours.err" ||
	ibp_fail "LID-routed NodeInfo failed: $(cat "$IBP_WORK/ours.err")"
while read -r lid; do
	want=$(ibp_sim_run smpquery nodeinfo "$lid" | awk -F. '/^Guid:/ { print $NF }')
	have=$(awk -v l="$lid" '$1 == l { print $2 }' "$IBP_WORK/ours")
	[ -n "$want" ] || ibp_fail "smpquery nodeinfo $lid printed no Guid"
	[ "$have" = "$want" ] || ibp_fail "LID $lid: LID-routed NodeInfo says [$have], smpquery [$want]"
done <"$IBP_WORK/lids"

host=$(ibp_sim_run smpquery -D nodeinfo 0 | awk -F. '/^Guid:/ { print $NF }')
have=$(ibp_sim_run "$IBP_UMAD_PROBE" dr | awk '{ print $2 }')
[ "$have" = "$host" ] || ibp_fail "directed route to the local node: [$have], smpquery -D [$host]"

unused=$(($(tail -n1 "$IBP_WORK/lids") + 100))
if ibp_sim_run "$IBP_UMAD_PROBE" "$unused" >/dev/null 2>"$IBP_WORK/none.err"; then
	ibp_fail "LID $unused (unassigned) answered"
fi
grep -q 'no response' "$IBP_WORK/none.err" || ibp_fail "unassigned LID: $(cat "$IBP_WORK/none.err")"
ibp_pass "$n LIDs answered LID-routed SMPs with smpquery's GUIDs; DR to self; LID $unused times out"
