#!/usr/bin/env bash
# test_live_opensm_verify.sh - the real OpenSM programs a plan on ibsim;
# `ibpart verify` (SMPs over libibumad, through the same SM code as the
# simulator) finds no drift with the same plan, and with a different plan
# exactly the difference: the ports and entries the two plans disagree on;
# --matrix and --audit describe what the fabric holds.
source "$(dirname "$0")/live_lib.sh"
live_init

# --- the seed fabric and plan ------------------------------------------
live_ibsim "$IBP_SRC/examples/seed/seed.topo" H-506b4b0300a1b2ff
cp "$IBP_SRC/examples/seed/partitions.conf" "$LIVE_DIR/seed.conf"
live_opensm "$LIVE_DIR/seed.conf"

out=$(live_ibpart verify -q --retries 6 -c "$LIVE_DIR/seed.conf" --format json) ||
	live_fail "verify with OpenSM's own plan: exit $? (want 0): $out"
[[ $(jq .differences <<<"$out") == 0 ]] || live_fail "drift reported: $out"
[[ $(jq .ports_checked <<<"$out") -ge 8 ]] || live_fail "too few ports checked: $out"
live_ok "seed: OpenSM's tables match the plan, $(jq .ports_checked <<<"$out") ports"

# Run from another host (tenantB-node-02's HCA) with no --sm-port: the
# SM's port is found from the local PortInfo MasterSMLID and a LID-routed
# NodeInfo to it, so the plan's full default membership lands on sm-01,
# not on the host ibpart runs on.
out=$(LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=H-506b4b0300a1b202 "$IBPART" verify -q --retries 6 \
	-c "$LIVE_DIR/seed.conf" --format json) ||
	live_fail "verify from another host: exit $?: $out"
[[ $(jq -r .sm_port_guid <<<"$out") == 0x506b4b0300a1b300 && $(jq .differences <<<"$out") == 0 ]] ||
	live_fail "verify from another host: $(jq -c '{sm_port_guid, differences}' <<<"$out")"
live_ok "seed: verify from tenantB-node-02 finds OpenSM's port (sm-01) and no drift"

# A plan OpenSM would reject (it then falls back to ALL=full) is not
# verified against: exit 2, never "no drift".
printf 'Default=0x7fff : ALL=full ;\nBroken line without colon\n' >"$LIVE_DIR/bad.conf"
set +e
live_ibpart verify -q -c "$LIVE_DIR/bad.conf" >"$LIVE_DIR/bad.out" 2>"$LIVE_DIR/bad.err"
rc=$?
set -e
[[ $rc == 2 ]] || live_fail "verify with a plan OpenSM rejects: exit $rc, want 2: $(cat "$LIVE_DIR/bad.out")"
grep -q 'reject' "$LIVE_DIR/bad.err" || live_fail "no reason given: $(cat "$LIVE_DIR/bad.err")"
live_ok "seed: a plan OpenSM would reject is refused by verify (exit 2)"

# What the fabric holds, proven: the matrix of the tables read (tenant A
# and B apart, storage reaching both) and the audit of them, which sees
# the leaf ports' PortInfo enforcement bits OpenSM left at 0 on ibsim.
# (part-enforce-off is high: --fail-on critical lets it pass, exit 0)
out=$(live_ibpart verify -q --retries 6 --matrix --audit --fail-on critical -c "$LIVE_DIR/seed.conf" --format json) ||
	live_fail "verify --matrix --audit --fail-on critical: exit $?"
talk() { # talk A B: can_talk between node descriptions A and B
	jq --arg a "$1" --arg b "$2" '.matrix as $m
		| ($m.endpoints | map(.node_desc) | index($a)) as $i
		| ($m.endpoints | map(.node_desc) | index($b)) as $j
		| $m.can_talk[$i][$j]' <<<"$out"
}
[[ $(talk tenantA-node-01 tenantA-node-02) == true && $(talk tenantA-node-01 tenantB-node-01) == false &&
	$(talk tenantB-node-02 storage-node) == true && $(talk tenantA-node-01 sm-01) == true ]] ||
	live_fail "matrix of the fabric: $(jq -c .matrix <<<"$out")"
jq -e '.audit.findings[] | select(.code == "part-enforce-off" and (.ports | length) == 7)' <<<"$out" >/dev/null ||
	live_fail "audit of the fabric: no part-enforce-off on the 7 leaf ports: $(jq -c '.audit.findings | map(.code)' <<<"$out")"
jq -e '[.audit.findings[].code] | index("default-full-member") == null' <<<"$out" >/dev/null ||
	live_fail "audit of the fabric: a tenant is a full member of the default partition?"
live_ok "seed: --matrix shows tenants apart, --audit sees enforcement off on 7 leaf ports"
# the audit's exit codes, as `ibpart audit` has them: default --fail-on high
set +e
live_ibpart verify -q --retries 6 --audit -c "$LIVE_DIR/seed.conf" >/dev/null
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "verify --audit with a high finding and no drift: exit $rc, want 1"
live_ok "verify --audit: exit 1 on a high finding (no drift), 0 with --fail-on critical"

# tenantB-node-01 full -> limited: its port and the leaf port facing it
# (OpenSM mirrors a CA's table onto the switch port) differ, nothing else.
sed 's/0x506b4b0300a1b202=full/0x506b4b0300a1b202=limited/' \
	"$LIVE_DIR/seed.conf" >"$LIVE_DIR/other.conf"
set +e
out=$(live_ibpart verify -q --retries 6 -c "$LIVE_DIR/other.conf" --format json)
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "verify with another plan: exit $rc, want 1"
got=$(jq -c '[.drift[] | [.port_guid, .port, .kind, .want, .have, .want_index, .have_index]] | sort' <<<"$out")
want='[["0x506b4b0300a1b100",5,"membership","0x0002","0x8002",1,1],["0x506b4b0300a1b202",1,"membership","0x0002","0x8002",1,1]]'
[[ $got == "$want" ]] || live_fail "seed drift: got $got, want $want"
live_ok "seed: a membership change is exactly 2 drift items"

# text output names the port and the kind
set +e
txt=$(live_ibpart verify -q --retries 6 -c "$LIVE_DIR/other.conf")
set -e
grep -q 'tenantB-node-01 .*membership' <<<"$txt" || live_fail "text output: $txt"
live_ok "text output names port and kind"

live_sim_stop

# --- two switches: OpenSM programs plan A, verify against plan B --------
export IBSIM_SOCKNAME="${IBSIM_SOCKNAME}b"
D=$IBP_SRC/tests/interop/data
live_ibsim "$D/live-2sw.topo" H-0002c90000000100
cp "$D/live-2sw-a.conf" "$LIVE_DIR/a.conf"
live_opensm "$LIVE_DIR/a.conf"
live_ibpart verify -q --retries 6 -c "$D/live-2sw-a.conf" -t "$D/live-2sw.topo" >&2 ||
	live_fail "2sw: verify plan A against OpenSM's plan A found drift"
set +e
out=$(live_ibpart verify -q --retries 6 -c "$D/live-2sw-b.conf" -t "$D/live-2sw.topo" --format json)
rc=$?
set -e
[[ $rc == 1 ]] || live_fail "2sw: verify B on A: exit $rc"
# B moves node-c (port GUID ...401, on leaf-2 port 4) from Red (0x0020)
# to Blue (0x0010): on both ports 0x8010 is missing at index 1 and 0x8020
# is extra there.
got=$(jq -c '[.drift[] | [.port_guid, .port, .kind, (.want // .have)]] | sort' <<<"$out")
want='[["0x0002c90000000401",1,"extra","0x8020"],["0x0002c90000000401",1,"missing","0x8010"],["0x0002c90000002000",4,"extra","0x8020"],["0x0002c90000002000",4,"missing","0x8010"]]'
[[ $got == "$want" ]] || live_fail "2sw drift: got $got, want $want"
live_ok "2sw: plan B against OpenSM's plan A is exactly node-c and its leaf port"
