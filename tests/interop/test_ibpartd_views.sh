#!/usr/bin/env bash
# test_ibpartd_views.sh - ibpart's own views of ibpartd in front of the
# real OpenSM on ibsim: GET /ibpart/v1/tables predicts every port's
# P_KeyTable and the real smpquery reads exactly that once OpenSM has
# the change; GET /ibpart/v1/verify reads the fabric over SMPs now (with
# the M_Key of --mkey-file and OpenSM's own opensm.conf) and answers
# what `ibpart verify --format json` says - no drift after the change,
# and the drift an `ibpart apply --direct` behind OpenSM's back makes on
# node-b, which smpquery confirms; status lists the opensm.conf's
# posture findings.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
: "${IBPARTD:?}"
ibpd_live_opensm
OSM_CONF=$LIVE_DIR/opensm.conf # the options file OpenSM runs with
printf '# the M_Key SMPs carry (ibsim checks none)\n0x00000000c0ffee01\n' >"$LIVE_DIR/mkey"
chmod 600 "$LIVE_DIR/mkey"
B="0,1,1,3 1" # node-b: leaf-2 port 3

ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$D/live-2sw.topo" --opensm-conf "$OSM_CONF" --mkey-file "$LIVE_DIR/mkey" \
	--wait 20000 || live_fail "ibpartd did not start"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": false, "ip_over_ib": true, "membership": "full", "guids": ["0002c90000000301","0002c90000000401"]}'
[[ $CODE == 200 ]] || live_fail "add: $CODE $BODY"
ibpd_wait_fabric "$(jq .revision <<<"$BODY")" || live_fail "add: $(tail -5 "$IBPD_LOG")"

# the tables ibpartd predicts are the ones the real smpquery reads
ibpd_req GET /ibpart/v1/tables
[[ $CODE == 200 ]] || live_fail "tables: $CODE $BODY"
printf '%s\n' "$BODY" >"$LIVE_DIR/tables.json"
LD_PRELOAD=$LIVE_PRELOAD ibnetdiscover >"$LIVE_DIR/found.topo" 2>/dev/null || live_fail "ibnetdiscover failed"
live_check_tables "$LIVE_DIR/tables.json" "$LIVE_DIR/found.topo" || live_fail "GET /ibpart/v1/tables is not what OpenSM programmed"
[[ $LIVE_CHECKED -ge 8 ]] || live_fail "only $LIVE_CHECKED ports checked"
live_ok "GET /ibpart/v1/tables: smpquery reads exactly the predicted table on all $LIVE_CHECKED ports"

# verify: no drift, as ibpart verify says from the same port
ibpd_req GET /ibpart/v1/verify
[[ $CODE == 200 ]] || live_fail "verify: $CODE $BODY"
cli=$(live_ibpart verify -q -c "$IBPD_CONF" --opensm-conf "$OSM_CONF" --mkey-file "$LIVE_DIR/mkey" --format json) ||
	live_fail "ibpart verify: exit $?: $cli"
keys='{differences, ports_checked, sm_port_guid, drift}'
[[ $(jq -c "$keys" <<<"$BODY") == $(jq -c "$keys" <<<"$cli") ]] ||
	live_fail "verify: ibpartd $(jq -c "$keys" <<<"$BODY"), ibpart $(jq -c "$keys" <<<"$cli")"
[[ $(jq .differences <<<"$BODY") == 0 && $(jq .ports_checked <<<"$BODY") -ge 8 ]] || live_fail "verify: $BODY"
live_ok "GET /ibpart/v1/verify: no drift on $(jq .ports_checked <<<"$BODY") ports, as ibpart verify says"

# drift behind OpenSM's back (it runs with -s 0: no sweep puts it
# back): node-b's table without 0xa
printf 'Default=0x7fff, ipoib : 0x0002c90000000101=full ;\nA=0x000a : 0x0002c90000000401=full ;\n' >"$LIVE_DIR/other.conf"
live_ibpart apply -q --direct --force -c "$LIVE_DIR/other.conf" >/dev/null 2>"$LIVE_DIR/apply.err" ||
	live_fail "apply --direct: $(cat "$LIVE_DIR/apply.err")"
have=$(live_smp_pkeys $B)
[[ $have != *0x800a* ]] || live_fail "node-b still in 0xa after apply --direct: [$have]"
ibpd_req GET /ibpart/v1/verify
[[ $CODE == 200 ]] || live_fail "verify after the drift: $CODE $BODY"
miss=$(jq -r '[.drift[] | select(.port_guid == "0x0002c90000000301") | .kind] | join(" ")' <<<"$BODY")
[[ $miss == *missing* ]] || live_fail "verify after the drift: node-b [$miss]: $(jq -c .drift <<<"$BODY")"
live_ok "GET /ibpart/v1/verify: node-b's 0xa missing, as smpquery reads it [$have]"

# status: OpenSM's options file (empty: every default) as posture
ibpd_req GET /ibpart/v1/status
p=$(jq -r '[.posture.findings[].code] | sort | join(" ")' <<<"$BODY")
[[ $p == "mkey-not-set sakey-default smkey-default" ]] || live_fail "posture: [$p] $(jq -c .posture <<<"$BODY")"
live_ok "status: the posture of OpenSM's opensm.conf [$p]"
ibpd_stop || live_fail "ibpartd exited $? on SIGTERM"
