#!/usr/bin/env bash
# test_ibpartd_metrics.sh - ibpartd's /metrics scraped by the real
# Prometheus (Debian's prometheus 2.x), on ibsim with the real OpenSM:
# ibsim's console sets PortXmitConstraintErrors=7 on the leaf port
# facing tenantB-node-01 (seed fabric, S-…b100 port 5); ibpartd, in
# front of that OpenSM with --monitor-interval 1, sweeps the counters
# with the plan it holds; Prometheus scrapes /metrics every second with
# basic_auth from the users file this test makes; the PromQL query
# ibpart_tenant_constraint_errors_total{tenant="TenantB",direction="toward"}
# over Prometheus' HTTP API (/api/v1/query) returns 7 and TenantA's
# "toward" 0 (docs/monitoring.md: a leaf port's Xmit errors count toward
# the tenants of the node it faces; tenantB-node-01 is in TenantB only).
# promtool check metrics reads /metrics; every family has one TYPE line;
# the drift of the start's verification (none: OpenSM took the file) and
# the audit's findings by severity (those `ibpart audit` gives on the
# same file) are there.  Prometheus, ibpartd, OpenSM and ibsim are
# stopped by the EXIT trap, also on failure.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibp_require curl openssl jq prometheus promtool python3
live_init
PROM_PID=""
prom_stop() { [[ -z $PROM_PID ]] || ibp_stop_pid "$PROM_PID"; PROM_PID=""; }
trap 'rc=$?; set +e; prom_stop; ibpd_cleanup; (exit $rc); ibp_cleanup' EXIT

live_ibsim "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff
ibpd_init "$LIVE_DIR"
cp "$IBP_SRC/examples/seed/partitions.conf" "$IBPD_CONF"
live_opensm "$IBPD_CONF"
ibp_sim_console 'PerformanceSet "S-506b4b0300a1b100"[5] PortCounters.PortXmitConstraintErrors=7'
grep -q "not found\|not valid\|does not match" "$IBP_SIM_LOG" &&
	live_fail "ibsim refused the PerformanceSet: $(cat "$IBP_SIM_LOG")"

IBPD_PRELOAD=$LIVE_PRELOAD
export IBPART_LOCK_DIR=$LIVE_DIR/lock # the apply lock, private to this test
ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
	--topology "$IBP_SRC/examples/seed/seed.topo" --monitor-interval 1 --wait 20000 ||
	live_fail "ibpartd did not start"

# Prometheus on a free loopback port of its own, its storage here
PROM_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# with the scrape job the packages ship (examples/prometheus/ibpartd.yml),
# pointed at this daemon: plain HTTP, its admin user, every second
printf secret >"$LIVE_DIR/ibpartd.password"
sed -e 's/scheme: https/scheme: http/' -e 's/scrape_interval: 30s/scrape_interval: 1s/' \
	-e 's/scrape_timeout: 10s/scrape_timeout: 1s/' -e 's/username: prometheus/username: admin/' \
	-e "s|/etc/prometheus/ibpartd.password|$LIVE_DIR/ibpartd.password|" \
	-e '/tls_config:/d' -e '/ca_file:/d' -e "s|sm-host.example:8443|127.0.0.1:$IBPD_PORT|" \
	"$IBP_SRC/examples/prometheus/ibpartd.yml" >"$LIVE_DIR/prometheus.yml"
promtool check config "$LIVE_DIR/prometheus.yml" >"$LIVE_DIR/promtool.out" 2>&1 ||
	live_fail "promtool refuses the shipped scrape job: $(cat "$LIVE_DIR/promtool.out")"
prometheus --config.file="$LIVE_DIR/prometheus.yml" \
	--web.listen-address="127.0.0.1:$PROM_PORT" \
	--storage.tsdb.path="$LIVE_DIR/prom-data" >"$LIVE_DIR/prometheus.log" 2>&1 &
PROM_PID=$!

# PromQL over the HTTP API until it answers 7 (bounded: 20 s)
# (empty while Prometheus is not listening yet, or has no sample)
query() {
	local out
	out=$(curl -s -G "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1") || return 0
	jq -r '.data.result[0].value[1] // empty' <<<"$out" 2>/dev/null || true
}
Q_B='ibpart_tenant_constraint_errors_total{tenant="TenantB",direction="toward"}'
Q_A='ibpart_tenant_constraint_errors_total{tenant="TenantA",direction="toward"}'
got=""
for ((i = 0; i < 100; i++)); do
	kill -0 "$PROM_PID" 2>/dev/null || live_fail "prometheus exited: $(tail -5 "$LIVE_DIR/prometheus.log")"
	got=$(query "$Q_B")
	[[ -n $got ]] && break
	sleep 0.2
done
[[ $got == 7 ]] || live_fail "PromQL $Q_B: '$got', want 7; target: $(curl -s "http://127.0.0.1:$PROM_PORT/api/v1/targets" | jq -c '.data.activeTargets[0] | {health, lastError}'); ibpartd: $(tail -5 "$IBPD_LOG")"
[[ $(query "$Q_A") == 0 ]] || live_fail "PromQL $Q_A: '$(query "$Q_A")', want 0"
[[ $(query 'up{job="ibpartd"}') == 1 ]] || live_fail "up{job=ibpartd} is not 1"
live_ok "Prometheus scraped ibpartd's /metrics: PromQL TenantB toward = 7, TenantA toward = 0"
prom_stop

# The exposition itself: Prometheus' parser reads it; one TYPE per family
ibpd_req GET /metrics
[[ $CODE == 200 ]] || live_fail "/metrics: $CODE"
printf '%s\n' "$BODY" >"$LIVE_DIR/m.prom"
set +e
promtool check metrics <"$LIVE_DIR/m.prom" >"$LIVE_DIR/promtool.out" 2>&1
rc=$?
set -e
grep -q 'error while linting\|parsing error' "$LIVE_DIR/promtool.out" &&
	live_fail "promtool cannot parse /metrics: $(head -3 "$LIVE_DIR/promtool.out")"
# its linter's one remark allowed: the name issue 15 fixes for
# ibpart_counter_saturated
grep -v "^ibpart_counter_saturated metric name should not include type 'counter'$" \
	"$LIVE_DIR/promtool.out" >"$LIVE_DIR/promtool.other" || true
[[ ! -s $LIVE_DIR/promtool.other ]] || live_fail "promtool: $(head -5 "$LIVE_DIR/promtool.other")"
[[ $rc -eq 0 || $rc -eq 3 ]] || live_fail "promtool exited $rc"
dup=$(awk '$1 == "#" && $2 == "TYPE" { print $3 }' "$LIVE_DIR/m.prom" | sort | uniq -d)
[[ -z $dup ]] || live_fail "families typed twice: $dup"
grep -qxF 'infiniband_switch_port_transmit_constraint_errors_total{guid="0x506b4b0300a1b100",port="5"} 7' "$LIVE_DIR/m.prom" ||
	live_fail "no leaf port sample of 7: $(grep transmit_constraint "$LIVE_DIR/m.prom" | grep -v ' 0$')"
grep -q '^ibpartd_monitor_sweeps_total [1-9]' "$LIVE_DIR/m.prom" || live_fail "no sweep counted"
for k in missing extra membership index unreachable enforcement; do
	grep -qxF "ibpart_drift_ports{kind=\"$k\"} 0" "$LIVE_DIR/m.prom" ||
		live_fail "drift $k: $(grep ibpart_drift_ports "$LIVE_DIR/m.prom")"
done
# the audit: the same counts as `ibpart audit` on the file ibpartd holds
set +e
"$IBPART" audit -t "$IBP_SRC/examples/seed/seed.topo" --format json "$IBPD_CONF" >"$LIVE_DIR/audit.json"
set -e
for s in critical high medium info; do
	want=$(jq --arg s "$s" '[.findings[] | select(.severity == $s)] | length' "$LIVE_DIR/audit.json")
	grep -qxF "ibpart_audit_findings{severity=\"$s\"} $want" "$LIVE_DIR/m.prom" ||
		live_fail "audit $s: want $want, /metrics: $(grep ibpart_audit_findings "$LIVE_DIR/m.prom")"
done
live_ok "promtool reads /metrics, one TYPE per family, drift 0 of every kind, audit counts as ibpart audit's"

# The web view at /: credentials needed; the page of the plan ibpartd
# holds, with the audit's findings and the revisions as its status line
ibpd_req_as "-u admin:wrong" GET /
[[ $CODE == 401 ]] || live_fail "GET / without valid credentials: $CODE"
ibpd_req GET /
[[ $CODE == 200 ]] || live_fail "GET /: $CODE $(head -c 300 <<<"$BODY")"
ctype=$(curl -s "${IBPD_CURL[@]}" -u admin:secret -o /dev/null -w '%{content_type}' "$IBPD_URL/")
[[ $ctype == "text/html; charset=utf-8" ]] || live_fail "GET / Content-Type: $ctype"
printf '%s\n' "$BODY" >"$LIVE_DIR/web.html"
for want in '<title>ibpartd: the partitions OpenSM is given</title>' 'TenantA' 'TenantB' \
	'tenantB-node-01' 'verified on the fabric'; do
	grep -qF -- "$want" "$LIVE_DIR/web.html" || live_fail "GET / lacks '$want'"
done
# the findings it shows are the audit's (same codes as /ibpart/v1/audit)
ibpd_req GET /ibpart/v1/audit
for code in $(jq -r '.findings[].code' <<<"$BODY" | sort -u); do
	grep -qF -- "$code" "$LIVE_DIR/web.html" || live_fail "GET / lacks the finding $code"
done
# and a real browser renders it without a console message
if command -v chromium >/dev/null; then
	timeout 60 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--dump-dom "file://$LIVE_DIR/web.html" >"$LIVE_DIR/web.dom" 2>"$LIVE_DIR/web.log" || true
	grep -q 'tenantB-node-01' "$LIVE_DIR/web.dom" || live_fail "chromium did not render GET /'s page"
	grep -q 'CONSOLE' "$LIVE_DIR/web.log" && live_fail "console messages: $(grep -m3 CONSOLE "$LIVE_DIR/web.log")"
fi
live_ok "GET / is the web view of the plan ibpartd holds (401 without credentials; its findings the audit's; rendered by chromium)"

ibpd_stop || live_fail "ibpartd exited non-zero: $(tail -5 "$IBPD_LOG")"
ibp_pass
