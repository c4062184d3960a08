#!/usr/bin/env bash
# The standard input can be read once: `tables -t - -` read the topology
# from it and then the plan as an empty file, and printed OpenSM's
# fallback tables (every port a full member of 0xffff) for a plan it
# never saw; `tables --state -` read the state from stdin and wrote the
# new one to a file named "-".  Both are usage errors now (exit 2),
# nothing written; one - per command still reads, and -o - is stdout.
source "$(dirname "$0")/lib.sh"
seed="$IBP_SRC/examples/seed"
for args in "tables -t - -" "check -t - -" "convert -t - -" "matrix -t - -" \
  "audit -t - -" "tables -t $seed/seed.topo --node-name-map - -" \
  "audit -t $seed/seed.topo --tenants - -" "tables -t - --opensm-conf - $seed/partitions.conf"; do
  set +e
  # shellcheck disable=SC2086
  "$IBPART" $args <"$seed/seed.topo" >out 2>err
  rc=$?
  set -e
  [[ $rc == 2 ]] || fail "ibpart $args: exit $rc, expected 2"
  expect_grep 'the standard input (-) is given for 2 inputs; it can be read once' err
  [[ ! -s out ]] || fail "ibpart $args wrote to stdout"
done
expect_status 2 "$IBPART" tables -t "$seed/seed.topo" --state - "$seed/partitions.conf"
expect_grep 'state needs a file (it is rewritten), not -' err
[[ ! -e ./- ]] || fail "a file named - was written"
# apply: --state is written before anything changes, so not to "-"; and
# its inputs share stdin as the others' do (refused before any port is
# opened: exit 2, not 3 for the missing CA)
expect_status 2 "$IBPART" apply --direct --state - -c "$seed/partitions.conf" -C no-such-ca
expect_grep 'state needs a file, not -' err
expect_status 2 "$IBPART" apply --direct -t - -c - -C no-such-ca
expect_grep 'it can be read once' err
[[ ! -e ./- ]] || fail "apply wrote a file named -"
# one - is fine, and -o - is the standard output
"$IBPART" tables -t - "$seed/partitions.conf" <"$seed/seed.topo" >out 2>err || fail "tables -t - failed"
"$IBPART" convert -o - - <"$seed/partitions.conf" >out 2>err || fail "convert -o - - failed"
expect_grep '^Default=0x7fff' out
finish
