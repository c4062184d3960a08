#!/usr/bin/env bash
# argv_random.sh - random command lines, reproducibly (a fixed seed):
# every subcommand with random options and values (numbers out of range,
# sizes, words, paths that are directories or missing, terminal escapes,
# 5,000-byte and non-UTF-8 values).  Whatever the line, ibpart must exit
# 0..3, write no terminal escape to stderr (every echo is escaped), and,
# in the ASan+UBSan build, report no sanitizer error or leak.
source "$(dirname "$0")/lib.sh"
S=$IBP_SRC/examples/seed
export IBPART_STATE_DIR=$T/state IBPART_LOCK_DIR=$T/lock
mkdir -p "$IBPART_STATE_DIR" "$IBPART_LOCK_DIR"
RANDOM=20261204
# 400 argument vectors; 200 under ASan+UBSan (each run costs ten times
# as much there, and the plain tree runs the 400)
N=${ARGV_RANDOM_RUNS:-$([[ ${IBP_SANITIZE:-0} == 1 ]] && echo 200 || echo 400)}
cmds=(check convert tables matrix audit sim demo discover verify apply gen monitor help nosuch)
opts=(-t -c --mode --format --part-enforce --enforce --max-errors --max-input-size
	--explain --form --grid-limit --lft-cap --mft-cap --lmc --ca-partition-cap
	--sm-port --dialect --node-name-map --tables --tenants --opensm-conf --fail-on
	-o --state --monitor --switch-ports --mad-loss -q --cas --partitions --direct
	--via-opensm --rollback --dry-run --count --sim --pingpong -W --timeout --mkey
	--help -- -)
long=$(printf 'x%.0s' {1..5000})
vals=(x 0 1 -1 4294967296 18446744073709551616 1K 1G 99999999999999999999G both
	unchanged json html md strict opensm $'\e[2J' $'\e]0;t\a' $'a\nb' '' $'\xff\xfe'
	"$S/seed.topo" "$S/partitions.conf" "$S/seed-block.conf" tenantA-node-01 leaf-01
	0x1 /nonexistent/x "$T" "$long")
# half the lines start from one that works, so the random part reaches
# the work and not only the option parser
bases=("tables -t $S/seed.topo $S/partitions.conf" "matrix -t $S/seed.topo $S/partitions.conf"
	"audit -t $S/seed.topo $S/partitions.conf" "check $S/partitions.conf"
	"convert -t $S/seed.topo $S/seed-block.conf" "gen --cas 20 --partitions 3 -o g.topo"
	"sim -q -t $S/seed.topo -c $S/partitions.conf counters"
	"monitor -q --sim -t $S/seed.topo -c $S/partitions.conf")
for ((i = 0; i < N; i++)); do
	if ((RANDOM % 2)); then
		read -r -a args <<<"${bases[RANDOM % ${#bases[@]}]}"
	else
		args=("${cmds[RANDOM % ${#cmds[@]}]}")
	fi
	for ((k = RANDOM % 3; k > 0; k--)); do
		args+=("${opts[RANDOM % ${#opts[@]}]}")
		((RANDOM % 5)) && args+=("${vals[RANDOM % ${#vals[@]}]}")
	done
	((RANDOM % 2)) && args+=("${vals[RANDOM % ${#vals[@]}]}")
	rc=0
	timeout 60 "$IBPART" "${args[@]}" >out 2>err </dev/null || rc=$?
	shown=$(printf '%q ' "${args[@]}")
	shown=${shown:0:300}
	((rc <= 3)) || fail "exit $rc: ibpart $shown"
	! grep -q 'Sanitizer\|runtime error' err || fail "sanitizer: ibpart $shown: $(head -c 600 err)"
	! grep -q $'\e' err || fail "a raw escape on stderr: ibpart $shown"
done
echo "$N command lines"
finish
