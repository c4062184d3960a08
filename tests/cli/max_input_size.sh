#!/usr/bin/env bash
# --max-input-size SIZE (a common option, wherever it stands): an input
# over the limit - a file, a pipe, the standard input, any of a command's
# inputs - is bad input, exit 2, with the reason and the file named, and
# no output written; under the limit every kind of stream still reads
# ("-", a pipe, process substitution); SIZE takes K/M/G; a bad SIZE is a
# usage error; --help shows it.
source "$(dirname "$0")/lib.sh"
plan="$IBP_SRC/examples/seed/partitions.conf"
topo="$IBP_SRC/examples/seed/seed.topo"
psize=$(stat -c %s "$plan")
tsize=$(stat -c %s "$topo")

# a file over the limit: exit 2, the reason, nothing on stdout
expect_status 2 "$IBPART" check --max-input-size $((psize - 1)) "$plan"
expect_grep "partitions.conf: error: larger than the input limit of $((psize - 1)) bytes" err
[[ ! -s out ]] || fail "check over the limit wrote to stdout"
# exactly at the limit: read
expect_status 0 "$IBPART" check --max-input-size "$psize" "$plan"
# before the command or after it, --name=value too
expect_status 2 "$IBPART" --max-input-size=10 check "$plan"
expect_grep 'larger than the input limit of 10 bytes' err

# the standard input and a pipe: over the limit refused, under it read
set +e
"$IBPART" check --max-input-size 10 - <"$plan" >out 2>err
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "check - over the limit: exit $rc, expected 2"
expect_grep 'ibpart: -: error: larger than the input limit of 10 bytes' err
set +e
cat "$plan" | "$IBPART" check --max-input-size 1M - >out 2>err
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "check - from a pipe under the limit: exit $rc"
set +e
"$IBPART" check --max-input-size 64K <(cat "$plan") >out 2>err
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "check <(...) under the limit: exit $rc"
# an endless stream stops at the limit
set +e
timeout 20 "$IBPART" check --max-input-size 1K /dev/zero >out 2>err
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "check /dev/zero: exit $rc, expected 2"
expect_grep '/dev/zero: error: larger than the input limit of 1024 bytes' err

# every input of a command: the topology, the plan of tables, a tenant map
expect_status 2 "$IBPART" check --max-input-size $((tsize - 1)) -t "$topo" "$plan"
expect_grep 'seed.topo: error: cannot read topology: larger than the input limit' err
expect_status 2 "$IBPART" tables --max-input-size $((psize - 1)) -t "$topo" "$plan"
expect_grep 'larger than the input limit' err
[[ ! -s out ]] || fail "tables over the limit wrote to stdout"
expect_status 0 "$IBPART" tables --max-input-size 1M -t "$topo" "$plan"
# (a tenant map larger than the topology and the plan, which are read)
lim=$(( (psize > tsize ? psize : tsize) + 1 ))
{ echo 'red: sm-01'; head -c "$lim" /dev/zero | tr '\0' '#'; echo; } >tenants.txt
expect_status 2 "$IBPART" audit --max-input-size "$lim" -t "$topo" "$plan" --tenants tenants.txt
expect_grep "tenants.txt: error: larger than the input limit of $lim bytes" err
# the output file of a refused input is not created
expect_status 2 "$IBPART" convert --max-input-size 10 "$plan" -o conv.conf
[[ ! -e conv.conf ]] || fail "convert over the limit created its output"

# sizes: K/M/G, and a bad one is a usage error
expect_status 0 "$IBPART" check --max-input-size 1G "$plan"
for bad in 5x -1 '' 1.5M 99999999999999999999G; do
  expect_status 2 "$IBPART" check --max-input-size "$bad" "$plan"
  expect_grep "^ibpart: --max-input-size wants bytes, or a number with K, M or G, not '$bad'" err
done

# documented
expect_status 0 "$IBPART" --help
expect_grep '--max-input-size SIZE' out
finish
