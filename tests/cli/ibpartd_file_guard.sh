#!/usr/bin/env bash
# ibpartd_file_guard.sh - the operator's lines and the API's never share
# a P_Key, and the operator's lines are never lost (issue 26):
#  - the operator adds a statement for a P_Key the API holds above the
#    marker: the next change is recorded (200) but the file is not
#    written (OpenSM would merge the two partitions), the revision fails
#    with the reason, GET /ibpart/v1/status, /metrics and the page say
#    so, the log says it once; when the operator takes the line back the
#    change is written;
#  - the file deleted: the operator's P_Keys stay theirs (the text last
#    seen is in the database: creating their 0x10 is a 409), nothing is
#    written until the file is back, and then their lines are all there;
#  - the marker line removed: detected, not read as "everything is the
#    operator's": the API's P_Key stays the API's (a 200, not a 409).
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
cat >"$IBPD_CONF" <<'CONF'
# The operator's partitions: this comment must survive.
Default=0x7fff, ipoib : ALL=limited, SELF=full ;
storage=0x0010, ipoib : 0x0002c90000000201=full ;
CONF
cp "$IBPD_CONF" operator.conf
req() { REQ="$*"; ibpd_req "$@"; }
want() { [[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $BODY"; }
rev_state() { # REV: ST, the state of revision REV
	ibpd_req GET /ibpart/v1/status
	ST=$(jq -r --argjson r "$1" '.revisions[] | select(.revision == $r) | .state' <<<"$BODY")
}
state_is() { rev_state "$1"; [[ $ST == "$2" ]]; }
file_ok() { ibpd_req GET /ibpart/v1/status; [[ $(jq .partitions_file.ok <<<"$BODY") == "$1" ]]; }
marker='# ---- ibpartd: generated section, managed through its API; do not edit below this line ----'

ibpd_start --topology "$IBP_SRC/tests/interop/data/live-2sw.topo" || { fail "ibpartd did not start"; finish; }
req POST /ufmRest/resources/pkeys '{"pkey": "0x204", "guids": ["0002c90000000301"], "membership": "full"}'
want 200
ibpd_until state_is "$(jq .revision <<<"$BODY")" applied || fail "0x204 not written: $BODY"

# 1. the operator's statement for the API's 0x204
sed -i "/^$marker\$/i mgmt=0x0204, ipoib : 0x0002c90000000201=full ;" "$IBPD_CONF"
cp "$IBPD_CONF" clash.conf
req POST /ufmRest/resources/pkeys '{"pkey": "0x30", "guids": ["0002c90000000401"]}'
want 200
rev=$(jq .revision <<<"$BODY")
ibpd_until state_is "$rev" failed || fail "the clash: revision $rev $ST: $BODY"
cmp -s "$IBPD_CONF" clash.conf || fail "the file was written with both 0x204s: $(cat "$IBPD_CONF")"
ibpd_req GET /ibpart/v1/status
[[ $(jq -r .partitions_file.problem <<<"$BODY") == *"0x0204 (the operator's mgmt)"* ]] || fail "status: $BODY"
reason=$(jq -r --argjson r "$rev" '.revisions[] | select(.revision == $r) | .reason' <<<"$BODY")
[[ $reason == *0x0204* ]] || fail "the revision's reason: $reason"
req GET /metrics
[[ $BODY == *$'\nibpartd_partitions_file_problem 1\n'* ]] || fail "metrics: $(grep partitions_file <<<"$BODY")"
req GET /
[[ $BODY == *"NOT WRITTEN"*0x0204* ]] || fail "the page does not say it"
ibpd_until grep -q "revision $rev failed: .*0x0204" "$IBPD_LOG" ||
	fail "log: $(grep -v ' access: ' "$IBPD_LOG" | tail -3)"
# the operator takes it back: written at the next try
sed -i '/^mgmt=0x0204/d' "$IBPD_CONF"
ibpd_until state_is "$rev" applied || fail "after the operator's fix: $ST"
grep -q '^api_pkey_0x30=0x0030' "$IBPD_CONF" || fail "0x30 not written: $(cat "$IBPD_CONF")"
ibpd_until file_ok true || fail "still a problem: $BODY"
req GET /metrics
[[ $BODY == *$'\nibpartd_partitions_file_problem 0\n'* ]] || fail "metrics after: $(grep partitions_file <<<"$BODY")"
# a clash the API resolves: the operator's ops=0x30, the API's 0x30
# deleted (a 200, not "the operator's P_Key"), then the file is written
sed -i "/^$marker\$/i ops=0x0030 : 0x0002c90000000201=full ;" "$IBPD_CONF"
ibpd_until file_ok false || fail "the second clash: $BODY"
req DELETE /ufmRest/resources/pkeys/0x30
want 200
rev=$(jq .revision <<<"$BODY")
ibpd_until state_is "$rev" applied || fail "after the API gave 0x30 up: $ST"
grep -q '^ops=0x0030' "$IBPD_CONF" || fail "the operator's ops line is lost"
! grep -q '^api_pkey_0x30=' "$IBPD_CONF" || fail "the API's 0x30 still written"
sed -i '/^ops=0x0030/d' "$IBPD_CONF"

# 2. the file deleted
cp "$IBPD_CONF" before-rm.conf
rm "$IBPD_CONF"
req POST /ufmRest/resources/pkeys '{"pkey": "0x10", "guids": ["0002c90000000401"]}'
want 409
req GET /ufmRest/resources/pkeys/0x10
[[ $(jq -r .managed_by <<<"$BODY") == operator ]] || fail "0x10 with the file gone: $BODY"
req POST /ufmRest/resources/pkeys '{"pkey": "0x31", "guids": ["0002c90000000401"]}'
want 200
rev=$(jq .revision <<<"$BODY")
ibpd_until state_is "$rev" failed || fail "missing file: revision $rev $ST"
[[ ! -e $IBPD_CONF ]] || fail "written without the operator's lines: $(cat "$IBPD_CONF")"
ibpd_req GET /ibpart/v1/status
[[ $(jq -r .partitions_file.problem <<<"$BODY") == *missing* ]] || fail "status: $BODY"
# a restart while it is missing: the service runs, and says so
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
ibpd_start --topology "$IBP_SRC/tests/interop/data/live-2sw.topo" || fail "no start with the file missing: $(tail -2 "$IBPD_LOG")"
ibpd_req GET /ibpart/v1/status
[[ $(jq -r .partitions_file.problem <<<"$BODY") == *missing* ]] || fail "status after a restart: $BODY"
[[ ! -e $IBPD_CONF ]] || fail "written at start without the operator's lines"
cp before-rm.conf "$IBPD_CONF"
ibpd_until state_is "$rev" applied || fail "after the file is back: $ST"
grep -qx 'storage=0x0010, ipoib : 0x0002c90000000201=full ;' "$IBPD_CONF" || fail "the operator's storage is lost"
grep -q '^api_pkey_0x31=0x0031' "$IBPD_CONF" || fail "0x31 not written"

# 3. the marker line removed
grep -vxF "$marker" "$IBPD_CONF" >nomarker.conf
cp nomarker.conf "$IBPD_CONF"
ibpd_until file_ok false || fail "no marker: not detected: $BODY"
[[ $(jq -r .partitions_file.problem <<<"$BODY") == *"marker line"* ]] || fail "status: $BODY"
req GET /ufmRest/resources/pkeys/0x204
[[ $(jq -r .managed_by <<<"$BODY") == ibpartd ]] || fail "0x204 without the marker: $BODY"
req POST /ufmRest/resources/pkeys '{"pkey": "0x204", "guids": ["0002c90000000601"]}'
want 200
cmp -s "$IBPD_CONF" nomarker.conf || fail "the file without its marker was rewritten"
# the applier logs it when it next looks (its cycle, or every 2 s)
ibpd_until grep -q 'marker line of ibpartd.s generated section is missing' "$IBPD_LOG" ||
	fail "log: $(grep -v ' access: ' "$IBPD_LOG" | tail -3)"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
