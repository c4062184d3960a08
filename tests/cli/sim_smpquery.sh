#!/usr/bin/env bash
# sim_smpquery.sh - `ibpart sim smpquery pkeys`: smpquery's layout (rows of
# eight, the capacity line) for a CA port, a switch port 0 (PartitionCap 8)
# and a switch external port (PartitionEnforcementCap 64); a port named by
# LID, port GUID and description answers the same; a bad port is refused.
source "$(dirname "$0")/lib.sh"
S=(sim -q --mode strict -t "$IBP_SRC/examples/seed/seed.topo" -c "$IBP_SRC/examples/seed/seed-block.conf")

expect_status 0 "$IBPART" "${S[@]}" smpquery pkeys 3 1
cp out by_lid
[[ $(wc -l <by_lid) -eq 9 ]] || fail "a 64-entry table is 8 rows + the capacity line"
[[ $(head -1 by_lid) == "   0: 0x8001 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000" ]] || fail "row 0: $(head -1 by_lid)"
[[ $(sed -n 8p by_lid) == "  56: 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000" ]] || fail "row 56: $(sed -n 8p by_lid)"
[[ $(tail -1 by_lid) == "64 pkeys capacity for this port" ]] || fail "capacity line"
expect_status 0 "$IBPART" "${S[@]}" smpquery pkeys 0x506b4b0300a1b200 1
cmp -s out by_lid || fail "by port GUID differs from by LID"
expect_status 0 "$IBPART" "${S[@]}" smpquery pkeys tenantA-node-01 1
cmp -s out by_lid || fail "by node description differs from by LID"

# Storage: limited members of both tenants (strict: no 0x7fff).
expect_status 0 "$IBPART" "${S[@]}" smpquery pkeys storage-node 1
expect_grep '^   0: 0x0001 0x0002 0x0000' out

# The switch's port 0 holds 8 entries: one row.
expect_status 0 "$IBPART" "${S[@]}" smpquery pkeys 2 0
[[ $(wc -l <out) -eq 2 ]] || fail "switch port 0: $(cat out)"
expect_grep '^8 pkeys capacity for this port$' out
# External port 5 (tenantB-node-01's leaf port) mirrors its CA.
expect_status 0 "$IBPART" "${S[@]}" smpquery pkeys 2 5
expect_grep '^   0: 0x8002 0x0000' out
expect_grep '^64 pkeys capacity for this port$' out
# A port the switch does not have.
expect_status 2 "$IBPART" "${S[@]}" smpquery pkeys 2 30
expect_grep 'invalid port number' err
# Unknown address.
expect_status 2 "$IBPART" "${S[@]}" smpquery pkeys no-such-node 1
# Without --mode, sim programs what OpenSM does, as tables/matrix/audit
# predict it: tenantA-node-01 holds 0x7fff (limited) and 0x8001.
expect_status 0 "$IBPART" sim -q -t "$IBP_SRC/examples/seed/seed.topo" \
  -c "$IBP_SRC/examples/seed/partitions.conf" smpquery pkeys tenantA-node-01 1
expect_grep '^   0: 0x7fff 0x8001 0x0000' out
finish
