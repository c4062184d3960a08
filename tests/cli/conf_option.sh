#!/usr/bin/env bash
# Every command that reads a plan takes it as `-c CONF` or as its one
# argument, with the same result (matrix and audit took only the
# argument: `ibpart audit -c plan.conf -t fabric.topo`, as verify and
# apply are written, was a usage error); both at once is a usage error,
# exit 2 ("expected one CONF file", as check, convert and tables say it;
# verify, apply and monitor said "one CONF only", before any fabric).
source "$(dirname "$0")/lib.sh"
S=$IBP_SRC/examples/seed
for cmd in check convert tables matrix audit; do
  topo=(-t "$S/seed.topo")
  expect_status 0 "$IBPART" "$cmd" "${topo[@]}" -c "$S/partitions.conf"
  mv out with_c
  expect_status 0 "$IBPART" "$cmd" "${topo[@]}" "$S/partitions.conf"
  cmp -s out with_c || fail "$cmd: -c CONF and CONF give different output"
  [[ $cmd == check || -s with_c ]] || fail "$cmd -c: no output"
  expect_status 2 "$IBPART" "$cmd" "${topo[@]}" -c "$S/partitions.conf" "$S/partitions.conf"
  expect_grep "expected one CONF file" err
done
for cmd in verify "apply --direct" monitor; do
  # shellcheck disable=SC2086
  expect_status 2 "$IBPART" $cmd -c "$S/partitions.conf" "$S/partitions.conf"
  expect_grep "ibpart ${cmd%% *}: expected one CONF file" err
done
finish
