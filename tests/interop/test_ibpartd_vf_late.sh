#!/usr/bin/env bash
# test_ibpartd_vf_late.sh - ibpartd --vf-guids physical (issue 27) in
# front of the real OpenSM 3.3.23 on ibsim, where the alias map is not
# what it was when the request came, and where the operator's own lines
# name a VF.
#  - A late-learned alias: ib-kubernetes' request (docs/ufm-api.md
#    section 3, row 3) names VF 1 of node-b before the host has
#    registered it, so the GUID is unknown and the revision ends
#    applied-partially (kind unknown; smpquery: no 0x800a on node-b).
#    The host then registers it with OpenSM's SA (sa_guidinfo_set, as an
#    mlx4 driver does), a collector sweep learns it, and ibpartd writes
#    the file again with node-b's port GUID in the VF's place: the same
#    revision becomes verified and the real smpquery reads 0x800a on
#    node-b.
#  - The operator's alias: a line above the marker names VF 2 of node-b
#    (registered) and node-a's port in P_Key 0x000c.  ibpartd writes the
#    operator's lines as they are, so OpenSM skips the alias: smpquery
#    reads 0x800c on node-a and not on node-b.  GET /ibpart/v1/tables
#    says what smpquery reads on both ports, GET /ibpart/v1/audit has
#    node-a alone in 0x000c (partition-single-member), and the revision
#    is applied-partially with VF 2 absent (kind alias): what OpenSM is
#    given, not the generated section's rendering applied to the
#    operator's lines.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}" "${IBP_SA_GUIDINFO_SET:?}"
ibp_require sminfo ibaddr jq
ibpd_live_opensm
NODEA=0x0002c90000000201 A="0,1,4 1" # node-a port 1 (spine-1 port 4)
NODEB=0x0002c90000000301 B="0,1,1,3 1" # node-b port 1 (leaf-2 port 3)
VF1=0002c903000a0301 VF2=0002c903000a0302
ibpd_vf_host "$NODEB"
start() {
	ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
		--topology "$D/live-2sw.topo" --vf-guids physical --wait 3000 --monitor-interval 1 \
		--profile 'admin:warn=shared-physical-port' || live_fail "ibpartd did not start"
	ibpd_wait_start || live_fail "start: no verification"
}
# post_settled PKEY GUID: ib-kubernetes' add (row 3) of GUID to PKEY;
# REV, its settled state ST and its absent GUIDs with their kinds ABSENT
post_settled() {
	ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "'$1'", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["'$2'"]}'
	[[ $CODE == 200 ]] || live_fail "add $2 to $1: $CODE $BODY"
	REV=$(jq .revision <<<"$BODY")
	ibpd_settled "$REV"
	ABSENT=$(jq -c --argjson r "$REV" '[.revisions[] | select(.revision == $r) | .absent[]? | {guid, kind}]' <<<"$BODY")
}
# The P_Keys of port GUID $1 in GET /ibpart/v1/tables, sorted
view_keys() {
	ibpd_req GET /ibpart/v1/tables
	[[ $CODE == 200 ]] || live_fail "GET /ibpart/v1/tables: $CODE $BODY"
	jq -r --arg g "$1" '.ports[] | select(.port_guid == $g) | .pkeys[]' <<<"$BODY" | sort | xargs
}
smp_keys() { live_smp_pkeys "$@" | tr ' ' '\n' | sort | xargs; }

# --- a late-learned alias
start
post_settled 0x000A "$VF1"
[[ $ST == applied-partially && $ABSENT == '[{"guid":"0x'$VF1'","kind":"unknown"}]' ]] ||
	live_fail "VF 1 before its host registered it: $ST, absent $ABSENT: $BODY"
keys=$(live_smp_pkeys $B)
[[ $keys != *0x800a* ]] || live_fail "node-b holds 0x800a before VF 1 is known: [$keys]"
live_ok "VF 1 not registered yet: revision $REV $ST (absent $ABSENT); node-b [$keys]"

ibpd_vf_register 1 "$VF1"
verified() { ibpd_state_of "$REV" && [[ $ST == verified ]]; }
ibpd_until verified || live_fail "VF 1 learned: revision $REV stays $ST: $BODY $(grep alias "$IBPD_LOG")"
grep -q 'alias GUIDs learned.*1 alias GUIDs' "$IBPD_LOG" || live_fail "no sweep learned VF 1: $(grep alias "$IBPD_LOG")"
file=$(<"$IBPD_CONF")
[[ $file == *"$NODEB=full"*"# VF alias 0x$VF1"* ]] || live_fail "the file does not name node-b for VF 1: $file"
keys=$(live_smp_pkeys $B)
[[ $keys == *0x800a* ]] || live_fail "revision $REV verified but node-b holds [$keys]"
[[ $(smp_keys $B) == "$(view_keys $NODEB)" ]] || live_fail "tables: node-b [$(view_keys $NODEB)], smpquery [$keys]"
live_ok "a sweep learned VF 1: the file names node-b, revision $REV verified, smpquery reads [$keys] on node-b"
ibpd_stop || live_fail "ibpartd did not stop cleanly"

# --- the operator's alias: VF 2 named above the marker
ibpd_vf_register 2 "$VF2"
awk -v line="op_vf=0x000c : 0x$VF2=full, $NODEA=full ;" '
	/^# ---- ibpartd: generated section/ { print line }
	{ print }' "$IBPD_CONF" >"$LIVE_DIR/edited.conf"
cp "$LIVE_DIR/edited.conf" "$IBPD_CONF"
start
# a change, so that the file is written and OpenSM reads it again
post_settled 0x000D 0x0002c90000000401
[[ $ST == applied-partially && $ABSENT == '[{"guid":"0x'$VF2'","kind":"alias"}]' ]] ||
	live_fail "the operator's VF 2: revision $REV $ST, absent $ABSENT: $BODY"
[[ $(<"$IBPD_CONF") == *"0x$VF2=full, $NODEA=full"* ]] || live_fail "the operator's line is not as written: $(<"$IBPD_CONF")"
akeys=$(smp_keys $A) bkeys=$(smp_keys $B)
[[ $akeys == *0x800c* && $bkeys != *0x800c* ]] ||
	live_fail "OpenSM did not skip the operator's alias: node-a [$akeys], node-b [$bkeys]"
va=$(view_keys $NODEA) vb=$(view_keys $NODEB)
[[ $va == "$akeys" && $vb == "$bkeys" ]] ||
	live_fail "GET /ibpart/v1/tables: node-a [$va] node-b [$vb]; smpquery: node-a [$akeys] node-b [$bkeys]"
ibpd_req GET /ibpart/v1/audit
one=$(jq -c '[.findings[] | select(.code == "partition-single-member" and .partitions == ["0x000c"]) | .ports]' <<<"$BODY")
[[ $one == '[["'$NODEA'"]]' ]] ||
	live_fail "audit: 0x000c is not node-a's alone: partition-single-member $one: $BODY"
live_ok "the operator's VF 2: smpquery node-a [$akeys] node-b [$bkeys], the same as GET /ibpart/v1/tables; audit: 0x000c node-a's alone $one; revision $REV $ST, absent $ABSENT"
ibpd_stop || live_fail "ibpartd did not stop cleanly"
ibp_pass
