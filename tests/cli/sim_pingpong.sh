#!/usr/bin/env bash
# sim_pingpong.sh - `ibpart sim pingpong`: inside a partition the RC
# exchange completes and prints ibv_rc_pingpong's summary lines with the
# latency model labelled; across partitions the requester fails with
# "transport retry counter exceeded", the fabric's counters (the
# responder's P_KeyViolations with switch enforcement off, the switch's
# PortXmitConstraintErrors with it on) and the SM's trap count go up.
source "$(dirname "$0")/lib.sh"
S=(sim -q --mode strict -t "$IBP_SRC/examples/seed/seed.topo" -c "$IBP_SRC/examples/seed/seed-block.conf")

expect_status 0 "$IBPART" "${S[@]}" pingpong tenantA-node-01 tenantA-node-02 -n 500
expect_grep '^  local address:  LID 0x0003, QPN 0x[0-9a-f]\{6\}, PSN 0x[0-9a-f]\{6\}, GID ::$' out
expect_grep '^  remote address: LID 0x0004, QPN' out
expect_grep '^4096000 bytes in [0-9.]* seconds = [0-9.]* Mbit/sec$' out
expect_grep '^500 iters in [0-9.]* seconds = [0-9.]* usec/iter$' out
expect_grep 'latency model (a model, not a measurement)' out
[[ $(grep -c 'iters in' out) -eq 2 ]] || fail "both endpoints' summaries expected"

# Across partitions, switch enforcement on (OpenSM's default).
expect_status 1 "$IBPART" "${S[@]}" pingpong tenantB-node-01 tenantA-node-01 counters
expect_grep '^Failed status transport retry counter exceeded (12) for wr_id 2$' out
expect_grep 'switch outbound partition enforcement' out
expect_grep 'SM traps received: 0 -> 8 (257 Bad P_Key: 0, 259 switch port: 8)' out
expect_grep '^leaf-01 *3 *2 *0 *0 *0 *8$' out

# Switch enforcement off: the responder's HCA drops every try.
expect_status 1 "$IBPART" sim -q --mode strict --part-enforce off -t "$IBP_SRC/examples/seed/seed.topo" -c "$IBP_SRC/examples/seed/seed-block.conf" pingpong tenantB-node-01 tenantA-node-01 counters
expect_grep "the receiver's P_Key check" out
expect_grep '^  tenantA-node-01      0 -> 8$' out
expect_grep '^  tenantB-node-01      0 -> 0$' out
expect_grep 'SM traps received: 0 -> 8 (257 Bad P_Key: 8, 259 switch port: 0)' out
expect_grep '^tenantA-node-01 *1 *3 *8 ' out

# Storage (limited) serves a full tenant member; --pkey-index selects.
expect_status 0 "$IBPART" "${S[@]}" pingpong tenantB-node-02 storage-node -n 10
expect_grep 'responder QP: P_Key index 1 = 0x0002' out
# An empty P_Key index: the HCA refuses the QP.
expect_status 1 "$IBPART" "${S[@]}" pingpong tenantA-node-01 tenantA-node-02 --pkey-index 7
expect_grep 'Failed to modify QP to INIT' out
expect_status 2 "$IBPART" "${S[@]}" pingpong tenantA-node-01
# ports the session cannot use, and a fabric without a CA for the SM:
# usage errors in the one form (ibpart: error: ...), nothing run
expect_status 2 "$IBPART" "${S[@]}" pingpong leaf-01/3 tenantA-node-01
expect_grep "^ibpart: error: 'leaf-01' is a switch: its end port is port 0 (leaf-01/0)$" err
expect_status 2 "$IBPART" "${S[@]}" pingpong tenantA-node-01 nosuch
expect_grep '^ibpart: error: no port "nosuch" in the fabric$' err
[[ ! -s out ]] || fail "a pingpong ran with an unknown port"
printf 'Switch\t4 "S-0000000000000001"\t\t# "sw-only" base port 0 lid 1 lmc 0\n\n' >sw.topo
expect_status 2 "$IBPART" sim -t sw.topo -c "$IBP_SRC/examples/seed/partitions.conf" counters
expect_grep '^ibpart: error: the fabric has no CA port for the SM$' err
finish
