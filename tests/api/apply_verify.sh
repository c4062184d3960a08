#!/usr/bin/env bash
# examples/api/apply_verify.c, built on the public API alone, applies the
# seed plan to the simulated seed fabric and verifies it: drift before,
# none after; a bad plan is exit 2 with its place and pushes nothing.
source "$(dirname "$0")/../cli/lib.sh"
: "${IBP_EXAMPLE:?IBP_EXAMPLE must name the example program}"
ex="$IBP_SRC/examples/seed"

expect_status 0 "$IBP_EXAMPLE" "$ex/seed.topo" "$ex/partitions.conf"
cp out run.out
expect_grep '^libibpart [0-9.]* (headers [0-9.]*)$' run.out
expect_grep 'discovering the fabric by directed route' run.out
diffs=$(sed -n 's/^verify: \([0-9]*\) ports checked, \([0-9]*\) differences.*/\2/p' run.out)
before=${diffs%%$'\n'*}
after=${diffs##*$'\n'}
[[ "$before" -gt 0 ]] || fail "a fresh simulated fabric showed no drift before the apply ($before)"
# the differences read item by item through the drift's accessors
expect_grep '^  node [0-9]* port [0-9]*: \(missing\|extra\|membership\|index\)' run.out
[[ "$after" == 0 ]] || fail "drift after the apply: $after"
expect_grep '^apply: [1-9][0-9]* ports changed, [1-9][0-9]* SubnSet, complete: yes$' run.out
expect_grep '^the fabric holds the plan' run.out
# the library writes nothing to stderr itself: progress went through
# the callback (to stdout here), and a clean run leaves stderr empty
[[ ! -s err ]] || fail "the library wrote to stderr: $(head -3 err)"

# a bad plan: exit 2 with the place, nothing pushed
printf 'Default=0x7fff, ipoib : ALL=full ;\nA=0x8001 : 0xzz ;\n' >bad.conf
expect_status 2 "$IBP_EXAMPLE" "$ex/seed.topo" bad.conf
expect_grep 'bad.conf:2:' err
# the findings walked one by one (ibp_diags_count, ibp_diags_get): each
# with its place, severity and code
expect_grep '^bad.conf:2:12: error: .*0xzz.* \[bad-guid\]$' err
expect_grep '^bad.conf:2:3: warning: .* \[pkey-high-bit\]$' err
expect_no_grep '^apply:' out
finish
