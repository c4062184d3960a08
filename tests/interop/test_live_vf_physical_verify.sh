#!/usr/bin/env bash
# test_live_vf_physical_verify.sh - `verify --vf-guids physical` on a
# fabric the real OpenSM 3.3.23 programmed from the rendering of a plan
# naming VF alias GUIDs (tests/data/vf/physical.conf, `ibpart convert
# --vf-guids physical`): verify reads every port over SMPs (ibsim) and
# finds no drift and no absent GUID; the same plan verified in the
# default mode (--vf-guids alias) is not what the fabric holds - the
# aliases are absent and the physical ports hold keys that plan does not
# give them.  apply --via-opensm --dry-run renders the same file.
source "$(dirname "$0")/live_lib.sh"
live_init
D=$IBP_SRC/tests/data/vf
A=$D/vf.aliases
T=$IBP_SRC/examples/seed/seed.topo

live_ibsim "$T" H-506b4b0300a1b2ff
"$IBPART" convert -t "$T" --alias-guids "$A" --vf-guids physical \
	-o "$LIVE_DIR/rendered.conf" "$D/physical.conf" 2>"$LIVE_DIR/convert.err" ||
	live_fail "convert: $(cat "$LIVE_DIR/convert.err")"
live_opensm "$LIVE_DIR/rendered.conf"

out=$(live_ibpart verify -q --retries 6 -c "$D/physical.conf" \
	--alias-guids "$A" --vf-guids physical --format json) ||
	live_fail "verify --vf-guids physical: exit $?: $out"
[[ $(jq .differences <<<"$out") == 0 && $(jq '.absent | length' <<<"$out") == 0 ]] ||
	live_fail "verify --vf-guids physical: $(jq -c '{differences, absent}' <<<"$out")"
live_ok "the plan's VFs on their physical ports: no drift, nothing absent ($(jq .ports_checked <<<"$out") ports)"

set +e
out=$(live_ibpart verify -q --retries 6 -c "$D/physical.conf" \
	--alias-guids "$A" --format json)
rc=$?
set -e
[[ $rc != 0 && $(jq .differences <<<"$out") -gt 0 && $(jq '[.absent[].kind] | unique' -c <<<"$out") == '["alias"]' ]] ||
	live_fail "verify in the default mode: exit $rc, $(jq -c '{differences, absent}' <<<"$out")"
live_ok "the default mode: $(jq .differences <<<"$out") difference(s), $(jq '.absent | length' <<<"$out") alias GUID(s) absent"
# apply --via-opensm renders the same file for OpenSM (a dry run prints
# it): the physical ports, no alias GUID as a member
out=$(live_ibpart apply -q --via-opensm --dry-run --opensm-pidfile "$LIVE_OSM_PIDFILE" \
	--opensm-partitions "$LIVE_DIR/apply.conf" -c "$D/physical.conf" \
	--alias-guids "$A" --vf-guids physical 2>"$LIVE_DIR/apply.err") ||
	live_fail "apply --via-opensm --dry-run: exit $?: $(cat "$LIVE_DIR/apply.err")"
case $out in *"	0x0002c90300aa"*) live_fail "apply renders an alias GUID: $out" ;; esac
case $out in *"0x506b4b0300a1b200=full,	# VF alias 0x0002c90300aa0101"*) ;;
*) live_fail "apply does not render VF 1 on its port: $out" ;; esac
live_ok "apply --via-opensm --vf-guids physical renders the physical ports"
ibp_pass "verify and apply --vf-guids physical"
