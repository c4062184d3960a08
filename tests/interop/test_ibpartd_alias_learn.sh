#!/usr/bin/env bash
# test_ibpartd_alias_learn.sh - ibpartd learns the fabric's alias GUIDs
# (SR-IOV VFs) by discovery, at start and at every collector sweep, with
# no --alias-guids (issue 27).  On ibsim with the real OpenSM 3.3.23 a
# host registers its VF's alias as an mlx4 driver does - a
# SubnAdmSet(GUIDInfoRecord) to OpenSM's SA (sa_guidinfo_set, libibumad
# alone) - and the real saquery reads it back from OpenSM's SA (ibsim's
# SMAs refuse the SubnSet(GUIDInfo) OpenSM then sends, so the SA is where
# the alias is).  Then ib-kubernetes' request naming the VF ends
# applied-partially with kind alias, the VF and its physical port; a
# second VF registered later is learned by the next sweep (waited for
# on /metrics, with a deadline), the learned map beside the database
# equals what saquery reads, and the guard refuses the two VFs of one
# port in two tenants' P_Keys (409 shared-physical-port).
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}" "${IBP_SA_GUIDINFO_SET:?}"
ibp_require saquery sminfo ibaddr
ibpd_live_opensm
NODEB=0x0002c90000000301 # node-b port 1 (leaf-2 port 3)
VF1=0002c903000a0301 VF2=0002c903000a0302

ibpd_vf_host "$NODEB"
B_LID=$HOST_LID
register() { ibpd_vf_register "$@"; } # INDEX ALIAS: node-b's VF INDEX asks the SM for ALIAS
# What the real saquery reads of OpenSM's GUIDInfoRecords: one
# "ALIAS PORT-GUID INDEX" line per alias, for every port.
sa_aliases() {
	ibpd_sim_tool saquery GIR "$B_LID" | awk -v pg="$NODEB" '
		/Block\.+/ { b = $1; sub(/.*\./, "", b) }
		/GUID [0-7]\.+/ { i = $2; v = $2; sub(/\..*/, "", i); sub(/.*\./, "", v)
			idx = b * 8 + i
			if (idx > 0 && v != "0x0000000000000000") print v, pg, idx }'
}
metric() { # NAME: its value on /metrics into M
	ibpd_req GET /metrics
	M=$(awk -v n="$1" '$1 == n { print $2 }' <<<"$BODY")
}
aliases_are() { metric ibpartd_alias_guids && [[ $M == "$1" ]]; }

register 1 "$VF1"
[[ $(sa_aliases) == "0x$VF1 $NODEB 1" ]] || live_fail "saquery GIR: [$(sa_aliases)]"
live_ok "node-b's VF 1 registered with OpenSM's SA; saquery GIR reads it"

ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 3000 --monitor-interval 1 ||
	live_fail "ibpartd did not start"
ibpd_wait_start || live_fail "start: no verification"
grep -q 'alias GUIDs learned.*1 alias GUIDs' "$IBPD_LOG" ||
	live_fail "no alias learned at start: $(grep alias "$IBPD_LOG")"

# ib-kubernetes' request with the VF's GUID
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["'$VF1'"]}'
[[ $CODE == 200 ]] || live_fail "add VF 1: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
ibpd_settled "$rev"
[[ $ST == applied-partially ]] || live_fail "VF 1: $ST, not applied-partially: $BODY"
absent=$(jq -c --argjson r "$rev" '[.revisions[] | select(.revision == $r) | .absent[] | {guid, kind}]' <<<"$BODY")
[[ $absent == '[{"guid":"0x'$VF1'","kind":"alias"}]' ]] || live_fail "absent: $absent"
hint=$(jq -r --argjson r "$rev" '.revisions[] | select(.revision == $r) | .absent[0].hint' <<<"$BODY")
[[ $hint == *"VF 1 of node-b port 1"* ]] || live_fail "hint: $hint"
live_ok "learned at start, no --alias-guids: VF 1 applied-partially, kind alias ($hint)"

# a second VF registered while ibpartd runs: the next sweep learns it
register 2 "$VF2"
ibpd_until aliases_are 2 || live_fail "the sweeps did not learn VF 2: ibpartd_alias_guids $M"
sort "$IBPD_DB.aliases" | awk '!/^#/ { print $1, $2, $3 }' >"$LIVE_DIR/ours"
sa_aliases | sort >"$LIVE_DIR/theirs"
diff -u "$LIVE_DIR/theirs" "$LIVE_DIR/ours" || live_fail "the learned map differs from saquery's GUIDInfoRecords"
live_ok "VF 2 learned by a sweep; $IBPD_DB.aliases is what saquery reads ($(wc -l <"$LIVE_DIR/ours") aliases)"

# the guard: node-b's two VFs in two tenants' P_Keys share its table
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000B", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["'$VF2'"]}'
[[ $CODE == 409 ]] || live_fail "VF 2 into another tenant's P_Key: $CODE, not 409: $BODY"
[[ $(jq -r '.findings[0].code' <<<"$BODY") == shared-physical-port ]] ||
	live_fail "409 without shared-physical-port: $BODY"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["'$VF2'"]}'
[[ $CODE == 200 ]] || live_fail "VF 2 into VF 1's P_Key: $CODE $BODY"
rev=$(jq .revision <<<"$BODY")
ibpd_settled "$rev"
kinds=$(jq -c --argjson r "$rev" '[.revisions[] | select(.revision == $r) | .absent[] | .kind]' <<<"$BODY")
[[ $ST == applied-partially && $kinds == '["alias","alias"]' ]] || live_fail "VF 1 and 2: $ST $kinds"
live_ok "guard: VF 2 into another tenant's P_Key refused (shared-physical-port); into VF 1's: applied-partially, both alias"
ibpd_stop || live_fail "ibpartd did not stop cleanly"

# --alias-guids merged in: the fabric's place of an alias wins over the
# file's; the file's other aliases stay
VFD=0002c903000a0601 # node-d's VF 1, known to the file only
printf '0x%s 0x0002c90000000401 5\n0x%s 0x0002c90000000601 1\n' "$VF1" "$VFD" >"$LIVE_DIR/file.aliases"
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --wait 3000 --monitor-interval 0 \
	--alias-guids "$LIVE_DIR/file.aliases" || live_fail "ibpartd did not start with --alias-guids"
ibpd_until aliases_are 3 || live_fail "merged map: ibpartd_alias_guids $M"
merged=$(awk '!/^#/ { print $1, $2, $3 }' "$IBPD_DB.aliases" | sort)
want=$(printf '0x%s 0x0002c90000000301 1\n0x%s 0x0002c90000000301 2\n0x%s 0x0002c90000000601 1\n' "$VF1" "$VF2" "$VFD" | sort)
[[ $merged == "$want" ]] || live_fail "merged map: [$merged]"
grep -q "1 more from $LIVE_DIR/file.aliases; 1 entries left out.*the fabric's place wins" "$IBPD_LOG" ||
	live_fail "merge log line: $(grep 'alias GUIDs learned' "$IBPD_LOG")"
live_ok "--alias-guids merged: VF 1 where the SA has it (not the file's node-c index 5), node-d's VF from the file"
ibpd_stop || live_fail "ibpartd did not stop cleanly"
ibp_pass
