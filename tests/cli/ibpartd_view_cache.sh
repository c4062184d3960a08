#!/usr/bin/env bash
# ibpartd_view_cache.sh - the page at / and GET /ibpart/v1/status are
# rendered once per change of what they show, not once per request
# (issue 29): asked again and again they are served as kept (the
# renders counted in /metrics do not move), and a change (a POST, the
# operator editing the partitions file) is on the next one.  The
# partitions file is read once per change of it
# (ibpartd_partitions_file_reads_total).  A file changed within 100 ms
# is not trusted by its times, so each check first waits until two
# requests in a row render at most once.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
cat >"$IBPD_CONF" <<'CONF'
# The operator's partitions.
Default=0x7fff, ipoib : ALL=limited, SELF=full ;
storage=0x0010, ipoib : 0x0002c90000000201=full ;
CONF
req() { REQ="$*"; ibpd_req "$@"; }
want() { [[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $BODY"; }
metric() { # NAME: $M, the value of the metric NAME
	ibpd_req GET /metrics
	M=$(sed -n "s/^$1 //p" <<<"$BODY")
	[[ $M =~ ^[0-9]+$ ]] || { fail "/metrics has no $1"; finish; }
}
# kept PATH NAME: asking PATH twice rendered it at most once (the
# inputs settled: nothing changed within the last 100 ms)
kept() {
	metric "$2"
	local before=$M
	ibpd_req GET "$1"
	ibpd_req GET "$1"
	metric "$2"
	((M <= before + 1))
}
state_is() {
	ibpd_req GET /ibpart/v1/status
	[[ $(jq -r --argjson r "$1" '.revisions[] | select(.revision == $r) | .state' <<<"$BODY") == "$2" ]]
}

ibpd_start --topology "$IBP_SRC/tests/interop/data/live-2sw.topo" || { fail "ibpartd did not start"; finish; }
req POST /ufmRest/resources/pkeys '{"pkey": "0x204", "guids": ["0002c90000000301"], "membership": "full"}'
want 200
ibpd_until state_is "$(jq .revision <<<"$BODY")" applied || fail "0x204 not written: $BODY"

# 1. asked ten times: rendered once at most, the same bytes each time
for v in "/ ibpartd_page_renders_total" "/ibpart/v1/status ibpartd_status_renders_total"; do
	set -- $v
	ibpd_until kept "$1" "$2" || fail "$1 never settled"
	metric "$2"
	before=$M
	req GET "$1"
	want 200
	first=$BODY
	for ((i = 0; i < 9; i++)); do
		req GET "$1"
		[[ $BODY == "$first" ]] || fail "$1 changed with nothing changed"
	done
	metric "$2"
	[[ $M == "$before" ]] || fail "$1 rendered $((M - before)) times for 10 requests, nothing changed"
done
metric ibpartd_partitions_file_reads_total
reads=$M
for ((i = 0; i < 5; i++)); do req GET /ibpart/v1/status; req GET /; done
metric ibpartd_partitions_file_reads_total
[[ $M == "$reads" ]] || fail "the partitions file read $((M - reads)) times, unchanged"

# 2. a change: on the next page and status
metric ibpartd_page_renders_total
page_before=$M
req GET /
old_page=$BODY
req POST /ufmRest/resources/pkeys '{"pkey": "0x205", "guids": ["0002c90000000401"], "membership": "full"}'
want 200
rev=$(jq .revision <<<"$BODY")
req GET /ibpart/v1/status
[[ $(jq .revision <<<"$BODY") == "$rev" ]] || fail "status after the POST: $(jq .revision <<<"$BODY"), want $rev"
req GET /
[[ $BODY != "$old_page" ]] || fail "the page did not change with revision $rev"
[[ $BODY == *0x205* ]] || fail "the page does not show 0x205"
metric ibpartd_page_renders_total
((M > page_before)) || fail "the page was not rendered again for revision $rev"

# 3. the operator edits the file: the status sees it
ibpd_until state_is "$rev" applied || fail "0x205 not written"
ibpd_until kept /ibpart/v1/status ibpartd_status_renders_total || fail "status never settled"
sed -i '1i ops=0x0030 : 0x0002c90000000201=full ;' "$IBPD_CONF"
sed -i '1i ops2=0x0204 : 0x0002c90000000201=full ;' "$IBPD_CONF"
file_bad() { ibpd_req GET /ibpart/v1/status; [[ $(jq .partitions_file.ok <<<"$BODY") == false ]]; }
ibpd_until file_bad || fail "the operator's clash with 0x204 not in the status: $BODY"
[[ $(jq -r .partitions_file.problem <<<"$BODY") == *0x0204* ]] || fail "status problem: $BODY"
finish
