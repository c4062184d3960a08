#!/usr/bin/env bash
# Every input of every reader stops at its limit on an endless stream
# (issue 12: `-t /dev/zero` and `--state /dev/zero` read until memory ran
# out, as `check /dev/zero` did): the topology at its 1 GiB default, the
# state file, tables JSON, node-name-map, tenant map and opensm.conf at
# 64 MiB; each exit 2 naming the file, within seconds, nothing written
# (the state file is not created), and a directory as an input is exit 2
# too.
source "$(dirname "$0")/lib.sh"
seed="$IBP_SRC/examples/seed"
plan="$seed/partitions.conf"
topo="$seed/seed.topo"
run() { # run WHAT NAME CMD...: exit 2 within 120 s, the input NAME named
  local what=$1 name=$2; shift 2
  set +e
  timeout 120 "$IBPART" "$@" >out 2>err
  local rc=$?
  set -e
  [[ $rc == 2 ]] || fail "$what: exit $rc, expected 2 (124: no end) $(head -c 200 err)"
  expect_grep "$name: error: .*larger than the input limit" err
  [[ ! -s out ]] || fail "$what wrote to stdout"
}
# the topology's and the plan's 1 GiB default in the plain tree; under
# ASan+UBSan (where reading 1 GiB takes most of a minute idle, minutes
# on a loaded machine) the same stop at 64 MiB
if [[ ${IBP_SANITIZE:-0} == 1 ]]; then
  run "-t /dev/zero, 64M" /dev/zero tables -t /dev/zero --max-input-size 64M "$plan"
  run "a plan on stdin, 64M" "ibpart: -" check --max-input-size 64M - </dev/zero
else
  run "-t /dev/zero" /dev/zero tables -t /dev/zero "$plan"
  run "a plan on stdin" "ibpart: -" check - </dev/zero
fi
run "--state /dev/zero" /dev/zero tables -t "$topo" --state /dev/zero "$plan"
run "--tables /dev/zero" /dev/zero matrix -t "$topo" --tables /dev/zero
run "--node-name-map /dev/zero" /dev/zero tables -t "$topo" --node-name-map /dev/zero "$plan"
run "--tenants /dev/zero" /dev/zero audit -t "$topo" --tenants /dev/zero "$plan"
run "--opensm-conf /dev/zero" /dev/zero tables -t "$topo" --opensm-conf /dev/zero "$plan"
# matrix --monitor: an endless stream of valid sweeps (the reader took
# them one by one without a bound), at the limit --max-input-size gives
run "--monitor, endless sweeps" "/dev/fd/[0-9]*" matrix -t "$topo" --format html --max-input-size 1M \
  --monitor <(yes '{"tenants": []}') -o never.html "$plan"
[[ ! -e never.html ]] || fail "--monitor over the limit left never.html"
# a directory where a file is read: exit 2, said
for args in "check $T" "tables -t $T $plan" "tables -t $topo --state $T $plan" \
  "tables -t $topo --node-name-map $T $plan" "audit -t $topo --tenants $T $plan"; do
  set +e
  # shellcheck disable=SC2086
  "$IBPART" $args >out 2>err
  rc=$?
  set -e
  [[ $rc == 2 ]] || fail "ibpart $args (a directory): exit $rc, expected 2"
  expect_grep 'Is a directory' err
done
finish
