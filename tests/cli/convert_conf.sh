#!/usr/bin/env bash
# ibpart convert: the seed dialect to canonical OpenSM syntax (names
# resolved through the topology), output that `ibpart check` finds clean,
# and an atomic -o that leaves nothing behind on error.
source "$(dirname "$0")/lib.sh"
EX=$IBP_SRC/examples/seed
SEED=$IBP_SRC/tests/data/conf/seed-block.conf

expect_status 0 "$IBPART" convert -t "$EX/seed.topo" "$SEED"
expect_grep "^Default=0x7fff, ipoib, rate=21, mtu=5 :$" out
expect_grep "^TenantA=0x0001, ipoib, rate=21, mtu=5 :$" out
expect_grep "^TenantB=0x0002, ipoib, rate=21, mtu=5 :$" out
expect_grep "0x506b4b0300a1b300=full,.*# sm-01" out
expect_grep "0x506b4b0300a1b210=limited ;.*# storage-node" out
[[ $(grep -c '0x506b4b0300a1b210=limited' out) -eq 2 ]] || fail "storage-node not limited in both tenants"
cp out converted.conf
expect_status 0 "$IBPART" check --opensm -t "$EX/seed.topo" converted.conf
expect_grep "would accept this file" out
[[ ! -s err ]] || fail "findings on converted output: $(cat err)"

# -o: written atomically, mode 0644
expect_status 0 "$IBPART" convert -t "$EX/seed.topo" -o part.conf "$SEED"
[[ -s part.conf ]] || fail "part.conf not written"
cmp -s part.conf converted.conf || fail "-o differs from stdout"
[[ $(stat -c %a part.conf) == 644 ]] || fail "mode $(stat -c %a part.conf)"

# errors: nothing written, an existing file left as it was
printf 'PartitionConfig {\nT = rate=7 ;\nnobody = full ;\n}\n' >bad.conf
expect_status 2 "$IBPART" convert -t "$EX/seed.topo" -o new.conf bad.conf
expect_grep "bad.conf:3:1: error: no node named 'nobody'" err
[[ ! -e new.conf ]] || fail "new.conf created on error"
echo keep >old.conf
expect_status 2 "$IBPART" convert -t "$EX/seed.topo" -o old.conf bad.conf
[[ $(cat old.conf) == keep ]] || fail "old.conf changed on error"
expect_status 2 "$IBPART" convert -o x.conf "$SEED"
[[ ! -e x.conf ]] || fail "x.conf created without a topology"
! compgen -G '*.conf.*' >/dev/null || fail "temporary file left: $(ls -A)"

# an OpenSM file with a silent misreading is refused
expect_status 2 "$IBPART" convert "$IBP_SRC/tests/data/conf/corners/c01-missing-comma.conf"
# a clean OpenSM file converts to the same tables (same P_Keys, explicit)
expect_status 0 "$IBPART" convert "$EX/partitions.conf"
expect_grep "^TenantA=0x0001, ipoib, rate=21, mtu=5 :" out
expect_status 2 "$IBPART" convert
expect_status 3 "$IBPART" convert -o /nonexistent/dir/x.conf "$EX/partitions.conf"
finish
