#!/usr/bin/env bash
# sim_vf_pingpong.sh - two tenants' VFs on one physical port, in the
# simulator (--alias-guids registers the VFs in the port's GUIDInfo; a
# VF's P_KeyTable is the host's mapping of its port's): the plan's
# physical port is a member of tenant A's 0x0a01 and tenant B's 0x0b01,
# its VF 1 is A's and VF 2 B's.  The port's table holds 0x7fff 0x8a01
# 0x8b01 (OpenSM's order: the default partition, then the file's).  As
# long as the host maps the whole table into each VF, B's VF sends with
# A's P_Key at its index 1 and A's VF - and A's other host - take it
# (IBA 10.9.3: same base, a full member): the sharing the audit reports
# as shared-physical-port for the same files.  Once the host maps VF 1
# to entries 0,1 and VF 2 to 0,2, B's VF has only 0x8b01 besides the
# default key: A's VF drops its packets at the receiving QP (8
# P_KeyViolations and traps 257, one per RC try), while B's own host
# still answers.
source "$(dirname "$0")/lib.sh"
D=$IBP_SRC/tests/data/vf
S=(sim -q -t "$IBP_SRC/examples/seed/seed.topo" -c "$D/shared-port.conf" --alias-guids "$D/vf.aliases")
VF_A=0x0002c90300aa0101 VF_B=0x0002c90300aa0102

expect_status 0 "$IBPART" "${S[@]}" smpquery pkeys 0x506b4b0300a1b200 \
	pingpong $VF_B $VF_A -n 5 --pkey-index 1 \
	pingpong $VF_B tenantA-node-02 -n 5 --pkey-index 1
expect_grep '^   0: 0x7fff 0x8a01 0x8b01 0x0000' out
expect_grep '^pingpong VF 2 of tenantA-node-01 -> VF 1 of tenantA-node-01 ' out
expect_grep '^  requester QP: P_Key index 1 = 0x8a01; responder QP: P_Key index 1 = 0x8a01$' out
expect_grep '^pingpong VF 2 of tenantA-node-01 -> tenantA-node-02 ' out
[[ $(grep -c '^5 iters in' out) -eq 4 ]] || fail "both exchanges should complete: $(cat out)"

# the audit of the same files
expect_status 1 "$IBPART" audit -t "$IBP_SRC/examples/seed/seed.topo" \
	--alias-guids "$D/vf.aliases" "$D/shared-port.conf"
expect_grep '^high  *shared-physical-port: 3 GUIDs of physical port 0x506b4b0300a1b200 ' out

# the host keeps them apart: each VF maps its own tenant's entry only
M=(vf-map $VF_A 0,1 vf-map $VF_B 0,2)
expect_status 1 "$IBPART" "${S[@]}" "${M[@]}" \
	pingpong $VF_B $VF_A -n 5 --pkey-index 1
expect_grep "^vf-map: $VF_B's P_KeyTable is its port's entries 0,2$" out
expect_grep '^  requester QP: P_Key index 1 = 0x8b01; responder QP: P_Key index 0 = 0x7fff (no entry of the responder matches)$' out
expect_grep "each dropped by the receiver's P_Key check" out
expect_grep '^  VF 1 of tenantA-node-01 0 -> 8$' out
expect_grep '257 Bad P_Key: 8' out
expect_status 0 "$IBPART" "${S[@]}" "${M[@]}" \
	pingpong $VF_B tenantB-node-02 -n 5 --pkey-index 1
expect_grep '^  requester QP: P_Key index 1 = 0x8b01; responder QP: P_Key index 1 = 0x8b01$' out

# bad input: a GUID that is no VF, an index list that is none
expect_status 2 "$IBPART" "${S[@]}" vf-map 0x506b4b0300a1b200 0 counters
expect_grep 'is no VF' err
expect_status 2 "$IBPART" "${S[@]}" vf-map $VF_A 1,x counters
expect_grep 'vf-map' err
finish
