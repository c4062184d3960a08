#!/usr/bin/env bash
# monitor_sim.sh - `ibpart monitor --sim`: on the simulated seed fabric a
# cross-tenant RC pingpong (TenantA's key toward a TenantB node) is
# refused 8 times (1 + retry_cnt 7) at the egress of the leaf port facing
# the responder, and the monitor reports exactly that: the switch port
# series, TenantB "toward" 8, nothing else; JSON and text forms; -o
# writes the file whole; usage and bad input exit 2 without output.
source "$(dirname "$0")/lib.sh"
M=(monitor -q --sim -t "$IBP_SRC/examples/seed/seed.topo" -c "$IBP_SRC/examples/seed/partitions.conf")

expect_status 0 "$IBPART" "${M[@]}"
expect_grep '^ibpart_tenant_constraint_errors_total{tenant="TenantB",direction="toward"} 0$' out
expect_grep '^ibpart_monitor_full_member 1$' out
# the posture (docs/monitoring.md): the plan the simulated fabric was
# brought up with has no drift; the seed plan's findings by hand:
# shared-limited-member (medium), default-limited-member and
# multicast-groups (info)
for k in missing extra membership index unreachable enforcement; do
  expect_grep "^ibpart_drift_ports{kind=\"$k\"} 0\$" out
done
expect_grep '^ibpart_audit_findings{severity="medium"} 1$' out
expect_grep '^ibpart_audit_findings{severity="info"} 2$' out
expect_grep '^ibpart_audit_findings{severity="high"} 0$' out

expect_status 1 "$IBPART" "${M[@]}" --pingpong tenantA-node-01 tenantB-node-01 --pkey-index 1
expect_grep '^infiniband_switch_port_transmit_constraint_errors_total{guid="0x506b4b0300a1b100",port="5"} 8$' out
expect_grep '^ibpart_tenant_constraint_errors_total{tenant="TenantB",direction="toward"} 8$' out
expect_grep '^# HELP infiniband_switch_port_transmit_constraint_errors_total ' out
expect_grep '^# TYPE infiniband_switch_port_transmit_constraint_errors_total counter$' out
# every other counter sample is 0; the 8 refusals at leaf-01's egress
# each raised a trap 259 (IBA 14.2.5.1) from that port, sender TenantA's
# node, destination TenantB's
nz=$(grep -v '^#' out | grep -E '_total\{' | grep -v ' 0$' | sort)
want=$'ibpart_port_bad_pkey_traps_total{guid="0x506b4b0300a1b100",port="5"} 8\nibpart_tenant_bad_pkey_traps_total{tenant="TenantA",direction="from"} 8\nibpart_tenant_bad_pkey_traps_total{tenant="TenantB",direction="toward"} 8\nibpart_tenant_constraint_errors_total{tenant="TenantB",direction="toward"} 8\ninfiniband_switch_port_transmit_constraint_errors_total{guid="0x506b4b0300a1b100",port="5"} 8'
[[ $nz == "$want" ]] || fail "non-zero series: $nz"

expect_status 1 "$IBPART" "${M[@]}" --pingpong tenantA-node-01 tenantB-node-01 --pkey-index 1 --format json
[[ $(jq -r '.tenants[] | select(.name == "TenantB") | "\(.from) \(.toward)"' out) == "0 8" ]] ||
  fail "json tenants: $(jq -c .tenants out)"
[[ $(jq -r '.ports[] | select(.counters.PortXmitConstraintErrors.total > 0) | "\(.desc) \(.port) \(.facing_desc) \(.tenants|join(","))"' out) == "leaf-01 5 tenantB-node-01 TenantB" ]] ||
  fail "json ports"
expect_status 1 "$IBPART" "${M[@]}" --pingpong tenantA-node-01 tenantB-node-01 --format text
expect_grep '^PORT 0x506b4b0300a1b201 port 1 "tenantB-node-01" facing "tenantB-node-01" P_KeyViolations=8$' out
# refused by the receiving HCA: 8 traps 257 naming B's node as destination
expect_grep '^TENANT "TenantB" pkey 0x0002 ports 3 from 0 toward 0 pkey_violations 8 bad_pkey_traps from 0 toward 8$' out
expect_grep '^AUDIT critical 0 high 0 medium 1 info 2$' out
expect_grep '^DRIFT ports 0: missing 0 extra 0 membership 0 index 0 unreachable 0 enforcement 0$' out

# strict mode: the plan gives the tenants' HCAs and the switch's port 0
# no key of the default partition, so no GMP could reach their PMAs:
# none is sent, they are read with SMPs only (not counted unread); the
# management hosts (full members of mgmt = the default partition) are.
expect_status 0 "$IBPART" monitor -q --sim --mode strict -t "$IBP_SRC/examples/seed/seed.topo" \
  -c "$IBP_SRC/examples/seed/seed-block.conf" --format json
[[ $(jq -c '[.smp_only, .unread, ([.ports[] | select(.pma_read) | .desc] | sort)]' out) == '[12,0,["sm-01","ufm-server"]]' ]] ||
  fail "strict: $(jq -c '[.smp_only, .unread, [.ports[] | select(.pma_read) | .desc]]' out)"

# -o: the whole text, stdout empty
expect_status 0 "$IBPART" "${M[@]}" -o "$T/m.prom" --interval 1 --count 2
[[ ! -s out ]] || fail "-o: stdout not empty"
expect_grep '^ibpart_last_sweep_timestamp_seconds [0-9.]*$' "$T/m.prom"

# usage and bad input: exit 2, no output file
expect_status 2 "$IBPART" monitor --sim -c "$IBP_SRC/examples/seed/partitions.conf"
expect_grep 'needs -t' err
expect_status 2 "$IBPART" "${M[@]}" --format yaml
# an OpenSM log that cannot be read is bad input, no output file
expect_status 2 "$IBPART" "${M[@]}" --opensm-log "$T/no-such.log" -o "$T/y.prom"
expect_grep 'no-such.log' err
[[ ! -e $T/y.prom ]] || fail "-o written despite the unreadable log"
expect_status 2 "$IBPART" monitor -q --sim -t "$IBP_SRC/examples/seed/seed.topo" -c "$T/nope.conf" -o "$T/x.prom"
[[ ! -e $T/x.prom ]] || fail "output created on bad input"
printf 'Default=0x7fff : ALL=full ;\nBroken line without colon\n' >bad.conf
expect_status 2 "$IBPART" monitor -q --sim -t "$IBP_SRC/examples/seed/seed.topo" -c bad.conf -o "$T/x.prom"
expect_grep 'bad.conf:2:' err
[[ ! -e $T/x.prom ]] || fail "output created on bad input"
# an output that cannot be written after a good sweep: exit 3, as for
# every command's -o (it was 2, as if the input were bad)
expect_status 3 "$IBPART" "${M[@]}" -o /nonexistent/dir/m.prom
expect_grep "^ibpart: /nonexistent/dir/m.prom: error: cannot create a temporary file" err
expect_status 0 "$IBPART" monitor --help
expect_grep 'clear the constraint error counters' out
# --subscribe on the simulated fabric: it has no SA; said, not fatal
expect_status 0 "$IBPART" monitor --sim -t "$IBP_SRC/examples/seed/seed.topo" \
	-c "$IBP_SRC/examples/seed/partitions.conf" --subscribe --format text
expect_grep 'the sim transport has no SA.*\[trap-subscription-refused\]' err
finish
