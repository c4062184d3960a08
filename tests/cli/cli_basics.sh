#!/usr/bin/env bash
# The CLI skeleton: --help, --version, help COMMAND, exit statuses for
# usage errors, every listed command has a --help.
source "$(dirname "$0")/lib.sh"

expect_status 0 "$IBPART" --help
expect_grep "Exit status:" out
expect_grep "  2  bad input or usage" out
expect_status 0 "$IBPART" --version
expect_grep "^ibpart [0-9]" out
expect_status 2 "$IBPART"
expect_status 2 "$IBPART" no-such-command
expect_grep "not a command" err
expect_status 2 "$IBPART" help no-such-command

# every command the main help lists answers --help and `help NAME`
"$IBPART" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF>1 && $1!="Commands:" {print $1}' >cmds
[[ -s cmds ]] || fail "no commands listed"
while read -r c; do
  [[ $c == help ]] && continue
  expect_status 0 "$IBPART" "$c" --help
  expect_grep "usage: ibpart $c" out
  expect_status 0 "$IBPART" help "$c"
  expect_grep "usage: ibpart $c" out
done <cmds
# A named input that does not exist is bad input (2) for every command,
# the topology as much as the plan.
EXS=$IBP_SRC/examples/seed
for cmd in tables matrix audit; do
	expect_status 2 "$IBPART" $cmd -t /nonexistent/x.topo "$EXS/partitions.conf"
	expect_grep "/nonexistent/x.topo" err
	expect_status 2 "$IBPART" $cmd -t "$EXS/seed.topo" /nonexistent/x.conf
done
expect_status 2 "$IBPART" check -t /nonexistent/x.topo "$EXS/partitions.conf"
expect_status 2 "$IBPART" sim -t /nonexistent/x.topo -c "$EXS/partitions.conf" counters
# Output that cannot be written (a full disk) is a failure, 3, for every
# command, not only those that write with -o.
if [ -w /dev/full ]; then
	set +e
	"$IBPART" check --format json "$EXS/partitions.conf" >/dev/full 2>err
	rc1=$?
	"$IBPART" sim -q -t "$EXS/seed.topo" -c "$EXS/partitions.conf" probe-matrix >/dev/full 2>err
	rc2=$?
	set -e
	[ "$rc1" -eq 3 ] || fail "check > /dev/full: exit $rc1, want 3"
	[ "$rc2" -eq 3 ] || fail "sim probe-matrix > /dev/full: exit $rc2, want 3"
	set +e
	grep -q "cannot write the output" err || fail "no message for a failed write"
	# --help and --version too (they exited 0 on a full disk)
	for args in "--help" "--version" "help tables" "apply --help"; do
		# shellcheck disable=SC2086
		"$IBPART" $args >/dev/full 2>err
		rc=$?
		[ "$rc" -eq 3 ] || fail "ibpart $args > /dev/full: exit $rc, want 3"
	done
	set -e
fi
# -c CONF works where CONF is positional, as in sim/verify/apply
expect_status 0 "$IBPART" tables -t "$EXS/seed.topo" --format json -c "$EXS/partitions.conf"
jq -e '.ports | length > 0' out >/dev/null || fail "tables -c: no ports"
expect_status 0 "$IBPART" check -c "$EXS/partitions.conf"
expect_status 2 "$IBPART" check -c "$EXS/partitions.conf" "$EXS/partitions.conf"

# One option parser for every command (tools/cli_args.c): the same
# spellings and the same usage errors everywhere.
expect_status 0 "$IBPART" tables -t "$EXS/seed.topo" --format=json "$EXS/partitions.conf"
jq -e '.ports | length > 0' out >/dev/null || fail "--format=json: not JSON"
expect_status 0 "$IBPART" tables "-t$EXS/seed.topo" "$EXS/partitions.conf"
expect_grep "^# " out
for cmd in check convert tables matrix audit sim demo discover verify apply gen; do
	expect_status 2 "$IBPART" $cmd --no-such-option
	expect_grep "ibpart $cmd: unknown option '--no-such-option'" err
done
expect_status 2 "$IBPART" tables -t
expect_grep "tables: -t needs a value" err
expect_status 2 "$IBPART" matrix -t "$EXS/seed.topo" --explain sm-01
expect_grep "explain needs two values" err
expect_status 2 "$IBPART" check --opensm=yes "$EXS/partitions.conf"
expect_grep "opensm takes no value" err
expect_status 2 "$IBPART" gen --cas 12x -o x.topo
expect_grep "gen: --cas wants a number 0\.\.[0-9]*, not '12x'" err
[ ! -e x.topo ] || fail "gen wrote a file after a usage error"
expect_status 2 "$IBPART" verify --timeout=0
expect_grep "timeout wants a number 1\.\.600000, not '0'" err
expect_status 2 "$IBPART" tables -t "$EXS/seed.topo" --format xml "$EXS/partitions.conf"
expect_grep "format is one of smpquery|json, not 'xml'" err
# every word-valued option is refused in the one wording, with the words
expect_status 2 "$IBPART" matrix -t "$EXS/seed.topo" --format xml "$EXS/partitions.conf"
expect_grep "matrix: --format is one of text|md|csv|json|html, not 'xml'" err
expect_status 2 "$IBPART" verify -c "$EXS/partitions.conf" --enforce bogus
expect_grep "verify: --enforce is one of both|in|out|off|unchanged, not 'bogus'" err
expect_status 2 "$IBPART" tables -t "$EXS/seed.topo" --part-enforce on "$EXS/partitions.conf"
expect_grep "tables: --part-enforce is one of both|in|out|off, not 'on'" err
expect_status 2 "$IBPART" demo --mode lax
expect_grep "mode is one of opensm|strict, not 'lax'" err
expect_status 2 "$IBPART" tables -t "$EXS/seed.topo" "$EXS/partitions.conf" extra.conf
expect_grep "unexpected argument 'extra.conf'" err
# A plan OpenSM rejects: tables, matrix and sim all still answer (for the
# fallback OpenSM programs: every port 0xffff) and all exit 1.
printf 'Default=0x7fff : ALL=full ;\nbroken line\n' >rejected.conf
expect_status 1 "$IBPART" tables -t "$EXS/seed.topo" rejected.conf
expect_status 1 "$IBPART" matrix -t "$EXS/seed.topo" --format json rejected.conf
jq -e '[.can_talk[][] | select(. == false)] | length == 0' out >/dev/null ||
	fail "matrix of the fallback: some pair cannot talk"
expect_status 1 "$IBPART" sim -q -t "$EXS/seed.topo" -c rejected.conf counters
expect_grep "opensm-fallback" err
# the seed's own dialect is read as the plan it describes: not a rejection
expect_status 0 "$IBPART" matrix -t "$EXS/seed.topo" "$EXS/seed-block.conf"

# "did you mean": commands, options, node names
expect_status 2 "$IBPART" tabels
expect_grep "'tabels' is not a command (did you mean 'tables'?)" err
expect_status 2 "$IBPART" xyzzy
expect_no_grep "did you mean" err
expect_status 2 "$IBPART" tables --fromat json
expect_grep "unknown option '--fromat'; did you mean '--format'?" err
expect_status 2 "$IBPART" apply --dryrun
expect_grep "did you mean '--dry-run'?" err
expect_status 2 "$IBPART" matrix -t "$EXS/seed.topo" --explain tenantA-nod-01 storage-node "$EXS/seed-block.conf"
expect_grep 'no port "tenantA-nod-01" in the fabric (did you mean "tenantA-node-01"?)' err
# "--" ends the options: a file named like an option is an argument
cp "$EXS/partitions.conf" ./-odd.conf
expect_status 0 "$IBPART" check -- -odd.conf
finish
