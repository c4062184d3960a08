#!/usr/bin/env bash
# test_ibpartd_web_series.sh - ibpartd's page at GET / draws what its
# collector kept of its last sweeps, on ibsim with the real OpenSM:
# ibsim's console sets PortXmitConstraintErrors=7 on the leaf port
# facing tenantB-node-01 (seed fabric, S-...b100 port 5), then 9; the
# page's violations table has TenantB's "toward" series with the last
# value 9 and the increase +2 over the sweeps (docs/monitoring.md: a
# leaf port's Xmit errors count toward the tenants of the node it faces;
# tenantB-node-01 is in TenantB only).  Then a drift: OpenSM stopped, a
# change through the API makes a partition 0x0003 of tenantB-node-02,
# so the file
# ibpartd holds wants 0x8003 on its HCA port and on the leaf port facing
# it (OpenSM copies a CA's keys there) that nobody programs:
# ibpart_drift_ports{kind="missing"} 2 on /metrics, and the page's
# "(fabric)" series ends at 2, its drift table names both ports.  Real headless Chromium renders the page
# without a console message.  ibpartd, OpenSM and ibsim are stopped by
# the EXIT trap, also on failure.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibp_require curl openssl jq
live_init
trap 'rc=$?; set +e; ibpd_cleanup; (exit $rc); ibp_cleanup' EXIT

live_ibsim "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff
ibpd_init "$LIVE_DIR"
cp "$IBP_SRC/examples/seed/partitions.conf" "$IBPD_CONF"
live_opensm "$IBPD_CONF"
pset() {
	ibp_sim_console "PerformanceSet \"S-506b4b0300a1b100\"[5] PortCounters.PortXmitConstraintErrors=$1"
	! grep -q "not found\|not valid\|does not match" "$IBP_SIM_LOG" ||
		live_fail "ibsim refused the PerformanceSet: $(cat "$IBP_SIM_LOG")"
}
pset 7

IBPD_PRELOAD=$LIVE_PRELOAD
export IBPART_LOCK_DIR=$LIVE_DIR/lock # the apply lock, private to this test
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$IBP_SRC/examples/seed/seed.topo" --monitor-interval 1 --wait 5000 ||
	live_fail "ibpartd did not start"

# until /metrics has a line (bounded: 30 s)
metric() {
	local i
	for ((i = 0; i < 150; i++)); do
		ibpd_req GET /metrics
		grep -qxE -- "$1" <<<"$BODY" && return 0
		sleep 0.2
	done
	live_fail "/metrics never had '$1': $(grep -E 'drift|toward|sweep' <<<"$BODY"); log: $(tail -5 "$IBPD_LOG")"
}
metric 'ibpart_tenant_constraint_errors_total\{tenant="TenantB",direction="toward"\} 7'
metric 'ibpartd_monitor_sweeps_total [2-9][0-9]*'
pset 9
metric 'ibpart_tenant_constraint_errors_total\{tenant="TenantB",direction="toward"\} 9'
metric 'ibpart_drift_ports\{kind="missing"\} 0'

ibpd_req GET /
[[ $CODE == 200 ]] || live_fail "GET /: $CODE $(head -c 300 <<<"$BODY")"
printf '%s\n' "$BODY" >"$LIVE_DIR/web1.html"
row() { # the violations table's row of TENANT COUNTER in FILE
	grep -F "<tr class=f><td>$1<td>$2<td><svg" "$3" || true
}
r=$(row TenantB toward "$LIVE_DIR/web1.html")
[[ $r == *'<td>9<td class="up">+2<td>'* ]] ||
	live_fail "TenantB toward row: '$r'"
r=$(row TenantA toward "$LIVE_DIR/web1.html")
[[ $r == *'<td>0<td class="">+0<td>'* ]] || live_fail "TenantA toward row: '$r'"
r=$(row '(fabric)' 'ports drifted' "$LIVE_DIR/web1.html")
[[ $r == *'<td>0<td class="">+0<td>'* ]] || live_fail "drift row: '$r'"
! grep -q '<section id=drift>' "$LIVE_DIR/web1.html" || live_fail "a drift table while the fabric holds the plan"
live_ok "GET / draws TenantB's violations over the sweeps: 7 then 9 (last 9, +2); no drift"

# A drift: OpenSM gone, a plan change nobody programs
live_osm_stop
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x0003", "membership": "full", "guids": ["506b4b0300a1b203"]}'
[[ $CODE == 200 ]] || live_fail "POST pkeys: $CODE $BODY"
metric 'ibpart_drift_ports\{kind="missing"\} 2'
for k in extra membership index unreachable enforcement; do
	grep -qxF "ibpart_drift_ports{kind=\"$k\"} 0" <<<"$BODY" ||
		live_fail "drift $k: $(grep ibpart_drift_ports <<<"$BODY")"
done
# one more sweep kept: until the last sweep's time moves past the one
# that saw the drift (bounded: 30 s)
sweep_time() { sed -n 's/^ibpart_last_sweep_timestamp_seconds //p' <<<"$BODY"; }
t0=$(sweep_time)
for ((i = 0; i < 150; i++)); do
	ibpd_req GET /metrics
	[[ $(sweep_time) != "$t0" ]] && break
	sleep 0.2
done
[[ $(sweep_time) != "$t0" ]] || live_fail "no sweep after $t0: $(tail -5 "$IBPD_LOG")"
ibpd_req GET /
printf '%s\n' "$BODY" >"$LIVE_DIR/web2.html"
r=$(row '(fabric)' 'ports drifted' "$LIVE_DIR/web2.html")
[[ $r == *'<td>2<td class="up">+2<td>'* ]] || live_fail "drift row after the drift: '$r'"
# the samples' wall-clock span, as UTC
[[ $r =~ \<time\ datetime=\"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z\"\> ]] || live_fail "no sweep time in: '$r'"
# and which ports: the HCA port (port 1 of tenantB-node-02) and the leaf
# port facing it, both missing 0x8003 (full), as verify prints them
grep -q '<section id=drift><h2>Drift (2)</h2>' "$LIVE_DIR/web2.html" ||
	live_fail "no drift table of 2 ports: $(grep -o '<section id=drift>.\{0,60\}' "$LIVE_DIR/web2.html")"
grep -q '<td>1<td>0x506b4b0300a1b203<td>missing<td>0x8003 wanted at index [0-9]*, not in the table' "$LIVE_DIR/web2.html" ||
	live_fail "the HCA port's drift row: $(grep -m1 -A3 'id=drift-table' "$LIVE_DIR/web2.html")"
[[ $(grep -c '<td>missing<td>0x8003 wanted at index' "$LIVE_DIR/web2.html") == 2 ]] ||
	live_fail "not two missing-0x8003 rows: $(grep -A4 'id=drift-table' "$LIVE_DIR/web2.html")"
live_ok "a plan change OpenSM never took: /metrics missing 2, GET /'s drift series ends at 2, its drift table names both ports"

if ! command -v chromium >/dev/null; then
	[[ ${CI:-} != true ]] || live_fail "chromium is absent (CI)"
	live_skip "chromium is absent: the page was checked as text only"
fi
prof=$(mktemp -d -p "$LIVE_DIR")
timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
	--enable-logging=stderr --v=0 --dump-dom "file://$LIVE_DIR/web2.html" \
	>"$LIVE_DIR/web2.dom" 2>"$LIVE_DIR/web2.log" || live_fail "chromium --dump-dom failed"
grep -q 'id="violations-table"' "$LIVE_DIR/web2.dom" || live_fail "no violations table in the DOM"
grep -q '(fabric)' "$LIVE_DIR/web2.dom" || live_fail "no drift series in the DOM"
! grep -q ':CONSOLE' "$LIVE_DIR/web2.log" ||
	live_fail "console messages: $(grep -m3 ':CONSOLE' "$LIVE_DIR/web2.log")"
live_ok "chromium renders GET / with the series, no console message"
ibpd_stop || live_fail "ibpartd exited non-zero: $(tail -5 "$IBPD_LOG")"
ibp_pass
