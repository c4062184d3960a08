#!/usr/bin/env bash
# test_ibpartd_vf_physical.sh - ibpartd's --vf-guids physical and
# --opensm-conf virt_enabled 2 (issue 27), in front of the real OpenSM
# 3.3.23 on ibsim.  node-b's host registers two VFs' alias GUIDs with
# OpenSM's SA as an mlx4 driver does (sa_guidinfo_set: SubnAdmSet
# GUIDInfoRecord), and ibpartd learns them at start (no --alias-guids).
#  - physical: ib-kubernetes' request (docs/ufm-api.md section 3, row 3)
#    naming VF 1 gets its 200; the file OpenSM is given names node-b's
#    port GUID, not the alias; the real smpquery reads 0x800a on node-b
#    and the revision is verified.  VF 2 into another tenant's P_Key
#    (row 9's shape; the caller's profile warns of shared-physical-port
#    instead of refusing) puts both tenants' keys in node-b's table
#    (smpquery), and GET /ibpart/v1/audit says shared-physical-port on
#    node-b's port.
#  - alias (the default), a fresh database: the same request ends
#    applied-partially (kind alias) and node-b holds no 0x800a.
#  - --opensm-conf with virt_enabled 2: the same request is not
#    verified - state applied, "not verifiable", the absent GUID of kind
#    vport - and the audit has vport-unmodelled naming it.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}" "${IBP_SA_GUIDINFO_SET:?}"
ibp_require sminfo ibaddr jq
ibpd_live_opensm
NODEB=0x0002c90000000301 # node-b port 1 (leaf-2 port 3)
B="0,1,1,3 1"
VF1=0002c903000a0301 VF2=0002c903000a0302

ibpd_vf_host "$NODEB"
ibpd_vf_register 1 "$VF1"
ibpd_vf_register 2 "$VF2"
learned() { grep -q 'alias GUIDs learned.*2 alias GUIDs' "$IBPD_LOG"; }
# ib-kubernetes' add (row 3) of GUID $1 to P_Key 0x000A: REV
add_a() {
	ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["'$1'"]}'
	[[ $CODE == 200 ]] || live_fail "add $1 to 0xa: $CODE $BODY"
	REV=$(jq .revision <<<"$BODY")
}

# --- physical
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --vf-guids physical --wait 3000 --monitor-interval 0 \
	--profile 'admin:warn=shared-physical-port' || live_fail "ibpartd did not start"
ibpd_wait_start || live_fail "start: no verification"
ibpd_until learned || live_fail "the VFs were not learned: $(grep alias "$IBPD_LOG")"
add_a "$VF1"
ibpd_settled "$REV"
[[ $ST == verified ]] || live_fail "physical: VF 1 ends $ST, not verified: $BODY"
file=$(<"$IBPD_CONF")
[[ $file == *"$NODEB=full,"*"# VF alias 0x$VF1"* || $file == *"$NODEB=full ;"*"# VF alias 0x$VF1"* ]] ||
	live_fail "the file OpenSM is given does not name node-b for VF 1: $file"
[[ $file != *$'\t'"0x$VF1="* ]] || live_fail "the file still names the alias as a member: $file"
keys=$(live_smp_pkeys $B)
[[ $keys == *0x800a* ]] || live_fail "node-b does not hold 0x800a: [$keys]"
live_ok "physical: VF 1 (learned from the SA) written as node-b's port; smpquery reads [$keys]; revision $REV verified"

ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000B", "guids": ["'$VF2'"], "membership": "full", "index0": false}'
[[ $CODE == 200 ]] || live_fail "VF 2 into 0xb (warned): $CODE $BODY"
REV=$(jq .revision <<<"$BODY")
ibpd_settled "$REV"
[[ $ST == verified ]] || live_fail "physical: VF 2 ends $ST, not verified: $BODY"
keys=$(live_smp_pkeys $B)
[[ $keys == *0x800a* && $keys == *0x800b* ]] || live_fail "node-b does not hold both tenants' keys: [$keys]"
ibpd_req GET /ibpart/v1/audit
spp=$(jq -c '[.findings[] | select(.code == "shared-physical-port") | {ports, partitions}]' <<<"$BODY")
[[ $spp == '[{"ports":["'$NODEB'"],"partitions":["0x000a","0x000b"]}]' ]] ||
	live_fail "audit: shared-physical-port $spp: $BODY"
live_ok "physical: VF 2 in 0xb: node-b holds [$keys], verified; the audit says shared-physical-port $spp"
ibpd_stop || live_fail "ibpartd did not stop cleanly"

# --- alias (the default), a fresh database
IBPD_DB=$LIVE_DIR/alias.db
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 3000 --monitor-interval 0 || live_fail "ibpartd (alias) did not start"
ibpd_wait_start || live_fail "alias start: no verification"
ibpd_until learned || live_fail "alias: the VFs were not learned"
add_a "$VF1"
ibpd_settled "$REV"
absent=$(jq -c --argjson r "$REV" '[.revisions[] | select(.revision == $r) | .absent[]? | {guid, kind}]' <<<"$BODY")
[[ $ST == applied-partially && $absent == '[{"guid":"0x'$VF1'","kind":"alias"}]' ]] ||
	live_fail "alias: VF 1 ends $ST, absent $absent: $BODY"
keys=$(live_smp_pkeys $B)
[[ $keys != *0x800a* ]] || live_fail "alias: node-b holds 0x800a: [$keys]"
live_ok "alias: the same request ends applied-partially (absent $absent), node-b [$keys]"
ibpd_stop || live_fail "ibpartd did not stop cleanly"

# --- NVIDIA OpenSM's virtualization, a fresh database
IBPD_DB=$LIVE_DIR/virt.db
printf '# NVIDIA OpenSM with SR-IOV virtualization\nvirt_enabled 2\n' >"$LIVE_DIR/virt.conf"
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --opensm-conf "$LIVE_DIR/virt.conf" --wait 3000 \
	--monitor-interval 0 || live_fail "ibpartd (virt) did not start"
ibpd_wait_start || live_fail "virt start: no verification"
ibpd_until learned || live_fail "virt: the VFs were not learned"
add_a "$VF1"
ended() { ibpd_state_of "$REV" && [[ -n $ST && $ST != pending ]]; }
ibpd_until ended || live_fail "virt: revision $REV never ended: $BODY"
reason=$(jq -r --argjson r "$REV" '.revisions[] | select(.revision == $r) | .reason' <<<"$BODY")
absent=$(jq -c --argjson r "$REV" '[.revisions[] | select(.revision == $r) | .absent[]? | {guid, kind}]' <<<"$BODY")
[[ $ST == applied && $reason == "not verifiable: 1 GUIDs"*vports* ]] ||
	live_fail "virt: VF 1 ends $ST ($reason), not applied and not verifiable: $BODY"
[[ $absent == '[{"guid":"0x'$VF1'","kind":"vport"}]' ]] || live_fail "virt: absent $absent"
ibpd_req GET /ibpart/v1/audit
vp=$(jq -c '[.findings[] | select(.code == "vport-unmodelled") | {ports, partitions}]' <<<"$BODY")
[[ $vp == '[{"ports":["0x'$VF1'"],"partitions":["0x000a"]}]' ]] || live_fail "virt: audit $vp: $BODY"
[[ $BODY != *guid-alias-ignored* ]] || live_fail "virt: the audit calls the VF ignored: $BODY"
live_ok "virt_enabled 2: VF 1 is $ST ($reason), absent $absent, audit vport-unmodelled $vp"
ibpd_stop || live_fail "ibpartd did not stop cleanly"
ibp_pass
