#!/usr/bin/env bash
# test_live_verify_osmconf.sh - `verify --opensm-conf` reads OpenSM's
# options as OpenSM does.  The real OpenSM runs on the seed fabric with
# an opensm.conf saying allow_both_pkeys TRUE and a plan with a 'both'
# member: the port then holds the full and the limited key.  verify
# without the file predicts OpenSM's default (both read as full) and
# reports the limited key as drift (exit 1); with --opensm-conf it
# predicts exactly what the port holds (exit 0).
source "$(dirname "$0")/live_lib.sh"
live_init
T=$IBP_SRC/examples/seed/seed.topo
live_ibsim "$T" H-506b4b0300a1b2ff
cat >"$LIVE_DIR/p.conf" <<'CONF'
Default=0x7fff, ipoib : ALL, SELF=full ;
TenantA=0x0001, ipoib : 0x506b4b0300a1b200=both, 0x506b4b0300a1b201=full ;
CONF
printf '# OpenSM options\nallow_both_pkeys TRUE\n' >"$LIVE_DIR/osm.conf"
ibp_osm_start "$LIVE_DIR/p.conf" -F "$LIVE_DIR/osm.conf"
# what OpenSM really did: tenantA-node-01 holds 0x8001 and 0x0001
keys=$(live_smp_pkeys 0,1,3 1)
[[ $keys == *0x8001* && $keys == *0x0001* ]] || live_fail "OpenSM with allow_both_pkeys: tenantA-node-01 holds '$keys'"
set +e
live_ibpart verify -q --retries 6 -c "$LIVE_DIR/p.conf" --format json >"$LIVE_DIR/plain.json"
rc1=$?
live_ibpart verify -q --retries 6 -c "$LIVE_DIR/p.conf" --opensm-conf "$LIVE_DIR/osm.conf" \
	--format json >"$LIVE_DIR/osm.json"
rc2=$?
set -e
[[ $rc1 == 1 ]] || live_fail "verify without --opensm-conf: exit $rc1, want 1 (drift)"
jq -e '[.. | objects | select(has("kind")) | .kind] | index("extra") != null' "$LIVE_DIR/plain.json" >/dev/null ||
	live_fail "no 'extra' drift without --opensm-conf: $(head -c 600 "$LIVE_DIR/plain.json")"
[[ $rc2 == 0 ]] || live_fail "verify --opensm-conf: exit $rc2, want 0: $(head -c 600 "$LIVE_DIR/osm.json")"
live_ok "verify --opensm-conf (allow_both_pkeys TRUE): no drift; without it: the limited key is extra"
ibp_pass
