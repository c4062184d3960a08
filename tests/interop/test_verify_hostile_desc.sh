#!/usr/bin/env bash
# test_verify_hostile_desc.sh - verify against a port whose NodeDescription
# a tenant chose to hide its drift (issue 12): ibsim runs the seed fabric
# with tenantA-node-01 described as "\r\e[2K\e[8m" and an invalid UTF-8
# byte.  Nothing is applied, so every planned port drifts.  The text
# report has that port's DRIFT lines, the description escaped (\x0d\x1b...)
# and no raw CR or ESC anywhere; the JSON report is valid UTF-8 and holds
# that port's drift with the exact bytes in node_desc_hex.
source "$(dirname "$0")/live_lib.sh"
live_init
topo=$LIVE_DIR/evil.topo
python3 - "$IBP_SRC/examples/seed/seed.topo" "$topo" <<'PY'
import sys
s = open(sys.argv[1], 'rb').read()
old = b'Ca\t1 "H-506b4b0300a1b1ff"\t\t# "tenantA-node-01"'
assert old in s
open(sys.argv[2], 'wb').write(s.replace(old, b'Ca\t1 "H-506b4b0300a1b1ff"\t\t# "\r\x1b[2K\x1b[8mhid\xffden"'))
PY
live_ibsim "$topo" H-506b4b0300a1b2ff
plan=$IBP_SRC/examples/seed/partitions.conf
set +e
live_ibpart verify -q -c "$plan" >"$LIVE_DIR/out" 2>"$LIVE_DIR/err"
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "verify on an unprogrammed fabric: exit $rc, expected 1 (drift): $(head -c 300 "$LIVE_DIR/err")"
! LC_ALL=C grep -q $'[\r\x1b]' "$LIVE_DIR/out" "$LIVE_DIR/err" ||
	live_fail "a raw CR or ESC in verify's report: $(LC_ALL=C grep -a hid "$LIVE_DIR/out" | cat -A)"
# tenantA-node-01's port GUID (the seed's): its drift is there, the
# description escaped on the line
n=$(grep -c '^DRIFT 0x506b4b0300a1b200 port 1 *\\x0d\\x1b\[2K\\x1b\[8mhid\\xffden ' "$LIVE_DIR/out" || true)
((n >= 1)) || live_fail "no DRIFT line for the hidden port: $(grep -a 0x506b4b0300a1b200 "$LIVE_DIR/out" | cat -A)"
set +e
live_ibpart verify -q --format json -c "$plan" >"$LIVE_DIR/out.json" 2>"$LIVE_DIR/err"
set -e
iconv -f UTF-8 -t UTF-8 "$LIVE_DIR/out.json" >/dev/null 2>&1 || live_fail "verify's JSON is not valid UTF-8"
jq -e '[.. | objects | select(.port_guid? == "0x506b4b0300a1b200" and .node_desc_hex? == "0d1b5b324b1b5b386d686964ff64656e")] | length >= 1' \
	"$LIVE_DIR/out.json" >/dev/null ||
	live_fail "the hidden port's drift is not in the JSON with node_desc_hex: $(jq -c '[.. | objects | select(.port_guid? == "0x506b4b0300a1b200")] | tostring | .[:600]' "$LIVE_DIR/out.json")"
live_ok "a NodeDescription with CR, ESC and an invalid byte: its drift shown escaped, in JSON with the exact bytes"
