#!/usr/bin/env bash
# demo_seed.sh - `ibpart demo` (strict, the default) replays the seed: its
# 7x7 connectivity matrix equals the seed document's table cell by cell
# (the table below is transcribed from the seed document, not from our
# output), TenantA-01's table is the seed's, the pingpongs end as the seed
# says; `--mode opensm` runs too and shows the tenants reaching the SM.
source "$(dirname "$0")/lib.sh"

# The seed document's table, verbatim (rows and columns: SM Node, UFM
# Server, TenantA-01, TenantA-02, TenantB-01, TenantB-02, Storage Node).
cat >seed_table <<'TABLE'
| SM Node | — | ✓ | ✗ | ✗ | ✗ | ✗ | ✗ |
| UFM Server | ✓ | — | ✗ | ✗ | ✗ | ✗ | ✗ |
| TenantA | ✗ | ✗ | — | ✓ | ✗ | ✗ | ✓ |
| TenantA | ✗ | ✗ | ✓ | — | ✗ | ✗ | ✓ |
| TenantB | ✗ | ✗ | ✗ | ✗ | — | ✓ | ✓ |
| TenantB | ✗ | ✗ | ✗ | ✗ | ✓ | — | ✓ |
| Storage Node | ✗ | ✗ | ✓ | ✓ | ✓ | ✓ | — |
TABLE
names=(sm-01 ufm-server tenantA-node-01 tenantA-node-02 tenantB-node-01 tenantB-node-02 storage-node)

# The demo finds its files through $IBP_EXAMPLES, else next to the binary
# (../examples; ../share/ibpart/examples is install.sh's).  The build tree
# may be anywhere, so the binary-relative lookup is checked on a copy of
# the program laid out as in a source tree: $T/tree/{bin/ibpart,examples}.
# (The copy still finds libibpart.so: the build RPATH is absolute.)
mkdir -p tree/bin
cp "$IBPART" tree/bin/ibpart
ln -s "$IBP_SRC/examples" tree/examples
DEMO=$T/tree/bin/ibpart
# Run from another directory: the demo finds its files from the binary.
expect_status 0 env -u IBP_EXAMPLES "$DEMO" demo
cp out demo.txt
expect_grep "^fabric: $T/tree/bin/../examples/seed/seed.topo" demo.txt
# ... and through IBP_EXAMPLES, whichever build tree the program is in.
IBP_EXAMPLES=$IBP_SRC/examples expect_status 0 "$IBPART" demo
expect_grep "^fabric: $IBP_SRC/examples/seed/seed.topo" out
expect_grep 'equals the seed document.s table: all 42 cells' out
# Our matrix: the table printed in section 7.
sed -n '/^== 7\./,/^== 8\./p' demo.txt | grep '^| [a-z]' | grep -v '^| *|' >ours || true
[[ $(wc -l <ours) -eq 7 ]] || fail "expected 7 matrix rows, got: $(cat ours)"
# Header order must be the seed's.
hdr=$(sed -n '/^== 7\./,/^== 8\./p' demo.txt | grep '^|  |')
[[ $hdr == "|  | ${names[0]} | ${names[1]} | ${names[2]} | ${names[3]} | ${names[4]} | ${names[5]} | ${names[6]} |" ]] || fail "header: $hdr"
for i in 0 1 2 3 4 5 6; do
  want=$(sed -n "$((i + 1))p" seed_table | cut -d'|' -f3-)
  row=$(grep "^| ${names[$i]} |" ours | cut -d'|' -f3-)
  [[ "$row" == "$want" ]] || fail "row ${names[$i]}: seed '$want', simulated '$row'"
done
expect_grep 'equals the seed document.s table: all 42 cells' demo.txt
# TenantA-01's table: the seed's "Pkey[0] 0x8001, then empty slots".
expect_grep '^  Pkey\[0\] 0x8001 ' demo.txt
expect_grep '^  Pkey\[1\] 0x0000 ' demo.txt
# smpquery section, pingpongs.
expect_grep '^   0: 0x8001 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000 0x0000$' demo.txt
[[ $(grep -c '^1000 iters in' demo.txt) -eq 6 ]] || fail "3 successful pingpongs x 2 sides expected"
[[ $(grep -c '^Failed status transport retry counter exceeded (12) for wr_id 2$' demo.txt) -eq 2 ]] || fail "2 failed pingpongs expected"
expect_grep 'tenantA-node-01      0 -> 8' demo.txt
expect_no_grep UNEXPECTED demo.txt
expect_grep 'also reaches sm-01 ufm-server' demo.txt

# OpenSM mode: tenants hold 0x7fff (limited) and reach the SM.
IBP_EXAMPLES=$IBP_SRC/examples expect_status 0 "$IBPART" demo --mode opensm
expect_grep '^  Pkey\[0\] 0x7fff  <- management partition (limited)' out
row=$(sed -n '/^== 7\./,/^== 8\./p' out | grep '^| tenantA-node-01 |' | cut -d'|' -f3-)
[[ $row == " ✓ | ✓ | — | ✓ | ✗ | ✗ | ✓ |" ]] || fail "opensm row tenantA-node-01: $row"

# IBP_EXAMPLES that does not hold the seed: falls back to the binary's.
IBP_EXAMPLES=/nonexistent expect_status 0 "$DEMO" demo
expect_grep "^fabric: $T/tree/bin/../examples/seed/seed.topo" out
expect_status 2 "$DEMO" demo --mode lax
finish
