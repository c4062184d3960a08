#!/usr/bin/env bash
# test_live_monitor.sh - `ibpart monitor` on ibsim with the real OpenSM:
# constraint error counters set through ibsim's console (PerformanceSet)
# on the leaf ports facing tenant hosts and on one HCA port; the real
# perfquery and `ibpart monitor` agree on every value of every port it
# reads; the tenant series carry them with the directions of
# docs/monitoring.md (sums written here by hand); ibsim's PMAs have no
# 64-bit error counters (ClassPortInfo CapabilityMask2 bit 1 clear), so
# the 8-bit PortCounters are read and 255 is reported saturated;
# --reset clears them (perfquery then reads 0) and the totals stay;
# -o writes the Prometheus text atomically, without timestamps.
source "$(dirname "$0")/live_lib.sh"
live_init
ibp_require perfquery

live_ibsim "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff
cp "$IBP_SRC/examples/seed/partitions.conf" "$LIVE_DIR/seed.conf"
live_opensm "$LIVE_DIR/seed.conf"

SW='"S-506b4b0300a1b100"'
pset() { ibp_sim_console "PerformanceSet $1 PortCounters.$2=$3"; }
pset "$SW[5]" PortXmitConstraintErrors 7 # facing tenantB-node-01
pset "$SW[5]" PortRcvConstraintErrors 3
pset "$SW[3]" PortRcvConstraintErrors 5 # facing tenantA-node-01
pset "$SW[7]" PortXmitConstraintErrors 255 # facing storage (A and B)
pset "$SW[7]" PortRcvConstraintErrors 1
pset '"H-506b4b0300a1b202"[1]' PortRcvConstraintErrors 2 # tenantB-node-02
pset '"H-506b4b0300a1b202"[1]' PortXmitConstraintErrors 4
grep -q "not found\|not valid\|does not match" "$IBP_SIM_LOG" &&
	live_fail "ibsim refused a PerformanceSet: $(cat "$IBP_SIM_LOG")"

set +e
json=$(live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/seed.conf" --format json)
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "monitor: exit $rc, want 1 (counters found): $json"
[[ $(jq '.ports | length' <<<"$json") == 14 && $(jq .unread <<<"$json") == 0 &&
	$(jq .full_member <<<"$json") == true ]] ||
	live_fail "monitor read: $(jq -c '{n: (.ports|length), unread, full_member}' <<<"$json")"
[[ $(jq '[.ports[] | select(.pma_64bit)] | length' <<<"$json") == 0 ]] ||
	live_fail "ibsim's PMAs have no 64-bit error counters, yet read so"

# Every port: ibpart's raw values are what perfquery reads.
n=0
while read -r lid port x r; do
	pq=$(LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$IBP_SIM_HOST perfquery "$lid" "$port") ||
		live_fail "perfquery $lid $port failed"
	px=$(sed -n 's/^PortXmitConstraintErrors:\.*//p' <<<"$pq")
	pr=$(sed -n 's/^PortRcvConstraintErrors:\.*//p' <<<"$pq")
	[[ $px == "$x" && $pr == "$r" ]] ||
		live_fail "LID $lid port $port: perfquery xmit $px rcv $pr, ibpart $x $r"
	n=$((n + 1))
done < <(jq -r '.ports[] | "\(.lid) \(.port) \(.counters.PortXmitConstraintErrors.raw) \(.counters.PortRcvConstraintErrors.raw)"' <<<"$json")
[[ $n == 14 ]] || live_fail "compared $n ports"
live_ok "perfquery and ibpart monitor agree on all 14 ports"

sat=$(jq -r '.ports[] | select(.counters.PortXmitConstraintErrors.saturated) | "\(.guid) \(.port)"' <<<"$json")
[[ $sat == "0x506b4b0300a1b100 7" ]] || live_fail "saturated: '$sat', want the storage leaf port"

# The tenant series (TenantA: tenantA-node-01/02 and storage; TenantB:
# tenantB-node-01/02 and storage).  Leaf port Rcv is "from", Xmit
# "toward"; an HCA's own Xmit "from", Rcv "toward":
#   TenantA from   = leaf3 rcv 5 + leaf7 rcv 1               = 6
#   TenantA toward = leaf7 xmit 255                          = 255
#   TenantB from   = leaf5 rcv 3 + leaf7 rcv 1 + HCA xmit 4  = 8
#   TenantB toward = leaf5 xmit 7 + leaf7 xmit 255 + HCA rcv 2 = 264
set +e
live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/seed.conf" -o "$LIVE_DIR/ib.prom"
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "monitor -o: exit $rc"
prom=$LIVE_DIR/ib.prom
want() { grep -qxF "$1" "$prom" || live_fail "no line '$1' in: $(grep -v '^#' "$prom" | grep -v ' 0$')"; }
want 'ibpart_tenant_constraint_errors_total{tenant="TenantA",direction="from"} 6'
want 'ibpart_tenant_constraint_errors_total{tenant="TenantA",direction="toward"} 255'
want 'ibpart_tenant_constraint_errors_total{tenant="TenantB",direction="from"} 8'
want 'ibpart_tenant_constraint_errors_total{tenant="TenantB",direction="toward"} 264'
want 'infiniband_switch_port_transmit_constraint_errors_total{guid="0x506b4b0300a1b100",port="5"} 7'
want 'infiniband_switch_port_receive_constraint_errors_total{guid="0x506b4b0300a1b100",port="3"} 5'
want 'infiniband_hca_port_receive_constraint_errors_total{guid="0x506b4b0300a1b202",port="1"} 2'
want 'ibpart_counter_saturated{guid="0x506b4b0300a1b100",port="7",counter="PortXmitConstraintErrors"} 1'
want '# TYPE ibpart_tenant_constraint_errors_total counter'
# the text format's sample lines: NAME{LABELS} VALUE, no timestamp
bad=$(grep -v '^#' "$prom" | grep -Ev '^[a-z_]+(\{[^}]*\})? [0-9.]+$' || true)
[[ -z $bad ]] || live_fail "sample lines not NAME{LABELS} VALUE: $bad"
! compgen -G "$LIVE_DIR/ib.prom.?*" >/dev/null || live_fail "temporary file left: $(ls "$LIVE_DIR")"
live_ok "tenant series carry the counters; -o file well-formed, no timestamps"

# --reset: read, then clear; perfquery reads 0 after, the totals stay
# (same run: --interval 1 --count 2).
set +e
out=$(live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/seed.conf" --reset --format text \
	--interval 1 --count 2)
set -e
pq=$(LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$IBP_SIM_HOST perfquery -G 0x506b4b0300a1b100 5)
grep -q '^PortXmitConstraintErrors:\.*0$' <<<"$pq" || live_fail "after --reset: $pq"
[[ $(grep -c 'TENANT "TenantB" pkey 0x0002 ports 3 from 8 toward 264' <<<"$out") == 2 ]] ||
	live_fail "--reset twice: totals not kept: $out"
live_ok "--reset clears the PMA counters (perfquery 0), totals kept across sweeps"
# Posture: the audit of the plan by severity and the drift of the
# fabric's P_KeyTables from it (as verify).  OpenSM took seed.conf:
# no drift of any kind; the seed plan's findings, by hand: a storage
# node that is a limited member of both tenants (shared-limited-member,
# medium), tenants limited in the default partition
# (default-limited-member, info), the multicast groups (info); the SM
# port is known (the master's), so no sm-port-assumed.
for k in missing extra membership index unreachable enforcement; do
	want "ibpart_drift_ports{kind=\"$k\"} 0"
done
want 'ibpart_audit_findings{severity="critical"} 0'
want 'ibpart_audit_findings{severity="high"} 0'
want 'ibpart_audit_findings{severity="medium"} 1'
want 'ibpart_audit_findings{severity="info"} 2'
want '# TYPE ibpart_drift_ports gauge'
# A plan change OpenSM has not taken: tenantB-node-02 (0x...b203) also a
# full member of TenantA.  Its HCA port lacks 0x8001, and so does the
# leaf port facing it, which OpenSM gives the CA's keys (part_enforce
# both): 2 ports missing, nothing else.
sed 's/^\( *0x506b4b0300a1b201=full,.*\)$/\1\n    0x506b4b0300a1b203=full,/' \
	"$LIVE_DIR/seed.conf" >"$LIVE_DIR/changed.conf"
[[ $(grep -c 0x506b4b0300a1b203 "$LIVE_DIR/changed.conf") == 2 ]] || live_fail "changed.conf: $(cat "$LIVE_DIR/changed.conf")"
set +e
live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/changed.conf" -o "$prom"
set -e
want 'ibpart_drift_ports{kind="missing"} 2'
for k in extra membership index unreachable enforcement; do
	want "ibpart_drift_ports{kind=\"$k\"} 0"
done
j=$(live_ibpart monitor -q --retries 6 -c "$LIVE_DIR/changed.conf" --format json || true)
[[ $(jq -c '[.ports_drifted, .drift_ports.missing, .audit_findings.medium]' <<<"$j") == "[2,2,1]" ]] ||
	live_fail "json posture: $(jq -c '{ports_drifted, drift_ports, audit_findings}' <<<"$j")"
live_ok "posture: drift 0 on the plan OpenSM took, missing 2 after a plan change; audit by severity"
ibp_pass
