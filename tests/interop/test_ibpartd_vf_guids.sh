#!/usr/bin/env bash
# test_ibpartd_vf_guids.sh - ib-kubernetes' exact requests (docs/ufm-api.md
# section 3, master) naming SR-IOV VF GUIDs, in front of the real OpenSM
# on ibsim (issue 27).  OpenSM 3.3.23 adds port GUIDs only
# (osm_prtn_add_port), so it programs nothing for a VF's alias GUID: the
# client still gets its 200s, but the revision ends applied-partially,
# never verified, its absent GUIDs of kind "alias" naming the VF and its
# port (--alias-guids); smpquery reads no 0x800a on the physical port.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm
B="0,1,1,3 1" # node-b (leaf-2 port 3), port GUID 0x0002c90000000301
VF1=0002c903000a0301 VF2=0002c903000a0302 # node-b's VFs 1 and 2
printf '# node-b VFs (alias GUIDs)\n0x%s 0x0002c90000000301 1\n0x%s 0x0002c90000000301 2\n' \
	"$VF1" "$VF2" >"$LIVE_DIR/aliases"


ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --alias-guids "$LIVE_DIR/aliases" \
	--wait 3000 --monitor-interval 0 || live_fail "ibpartd did not start"
ibpd_wait_start || live_fail "start: no verification"

ibpd_req GET /ufmRest/app/ufm_version
[[ $CODE == 200 ]] || live_fail "ufm_version: $CODE"
ibpd_req GET '/ufmRest/resources/pkeys/?guids_data=true'
[[ $CODE == 200 ]] || live_fail "pkeys: $CODE"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["'$VF1'", "'$VF2'"]}'
[[ $CODE == 200 ]] || live_fail "add VF GUIDs: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
ibpd_settled "$rev"
[[ $ST == applied-partially ]] || live_fail "VF GUIDs: $ST, not applied-partially: $BODY"
absent=$(jq -c --argjson r "$rev" '[.revisions[] | select(.revision == $r) | .absent[] | {guid, kind}]' <<<"$BODY")
[[ $absent == '[{"guid":"0x'$VF1'","kind":"alias"},{"guid":"0x'$VF2'","kind":"alias"}]' ]] ||
	live_fail "absent: $absent"
hint=$(jq -r --argjson r "$rev" '.revisions[] | select(.revision == $r) | .absent[0].hint' <<<"$BODY")
[[ $hint == *"VF 1 of node-b port 1"* ]] || live_fail "hint: $hint"
[[ $(live_smp_pkeys $B) != *0x800a* ]] || live_fail "node-b holds 0x800a: [$(live_smp_pkeys $B)]"
ibpd_req POST /ufmRest/actions/remove_guids_from_pkey '{"pkey": "0x000A", "guids": ["'$VF1'"]}'
[[ $CODE == 200 ]] || live_fail "remove a VF GUID: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
ibpd_settled "$rev"
[[ $ST == applied-partially ]] || live_fail "after the removal: $ST: $BODY"
live_ok "ib-kubernetes with VF GUIDs: 200s, revisions applied-partially (absent $absent), never verified; node-b holds no 0x800a"
ibpd_stop || live_fail "ibpartd did not stop cleanly"
ibp_pass
