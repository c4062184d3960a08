#!/usr/bin/env bash
# bench_conf_opensm.sh - the plan parser against OpenSM's own cost of the
# same file, side by side in one run.  bench_conf --write makes the ~50 MB
# plan of bench_conf (1,000,000 port GUID members in 1,000 partitions)
# and a trivial one ("Default=0x7fff : ALL=full ;"); then, each RUNS
# times, alternating:
#
#   ibpart   `ibpart check FILE` (no topology): wall time of the process,
#            and its peak RSS
#   OpenSM   OpenSM 3.3.23 started on a private ibsim fabric (as
#            tests/interop/lib.sh starts it) with FILE as its partition
#            file: from its first log line to "SUBNET UP" (the log's own
#            microsecond timestamps)
#
# Each cost is the median with the big file less the median with the
# trivial one (what the file itself costs, start-up excluded), and the
# ratio OpenSM/ibpart is printed (goal: >= 2).  Without ibsim, OpenSM or
# libumad2sim the OpenSM half is skipped with a message and the ibpart
# figures still print.  RUNS (default 5) sets the repetitions.
set -euo pipefail
IBPART=${IBPART:-build/ibpart}
IBP_BUILD=${IBP_BUILD:-$(dirname "$IBPART")}
IBP_SRC=${IBP_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
RUNS=${RUNS:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/ibp-bench-conf.XXXXXX")
trap 'rm -rf "$work"' EXIT
big=$work/big.conf small=$work/small.conf
"$IBP_BUILD/bench_conf" --write "$big"
printf 'Default=0x7fff : ALL=full ;\n' >"$small"
bytes=$(stat -c %s "$big")

ns() { date +%s%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ibpart check: wall ns and peak RSS (KB) of one run
check_once() {
	local f=$1 t0 t1 rc=0
	t0=$(ns)
	/usr/bin/time -f %M -o "$work/rss" "$IBPART" check "$f" >/dev/null 2>&1 || rc=$?
	t1=$(ns)
	[ "$rc" -eq 0 ] || { echo "bench_conf_opensm: ibpart check $f exited $rc" >&2; exit 1; }
	echo "$((t1 - t0)) $(tail -n 1 "$work/rss")"
}
: >"$work/ib_big" && : >"$work/ib_small" && : >"$work/rss_big"
for ((i = 0; i < RUNS; i++)); do
	read -r t rss < <(check_once "$big")
	echo "$t" >>"$work/ib_big"
	echo "$rss" >>"$work/rss_big"
	read -r t rss < <(check_once "$small")
	echo "$t" >>"$work/ib_small"
done
ib_big=$(median <"$work/ib_big") ib_small=$(median <"$work/ib_small")
ib=$((ib_big - ib_small))
rss=$(median <"$work/rss_big")
awk -v b="$bytes" -v big="$ib_big" -v small="$ib_small" -v d="$ib" -v rss="$rss" 'BEGIN {
	printf "plan: %.1f MB, 1000000 members in 1000 partitions (median of runs)\n", b / 1e6
	printf "ibpart check: %.3f s - %.3f s (trivial file) = %.3f s: %.0f MB/s; peak RSS %.0f MB (%.2fx the file)\n",
		big / 1e9, small / 1e9, d / 1e9, b / 1e6 / (d / 1e9), rss / 1024, rss * 1024 / b
}'

missing=""
for t in ibsim opensm; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done
umad=""
for p in /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so /usr/lib/*/umad2sim/libumad2sim.so; do
	[ -f "$p" ] && umad=$p && break
done
[ -n "$umad" ] || missing="$missing libumad2sim"
if [ -n "$missing" ]; then
	echo "OpenSM baseline skipped:$missing not installed (no ratio)"
	exit 0
fi

# OpenSM on a private ibsim, started and stopped as the interop tests do
# (lib.sh: its own IBSIM_SOCKNAME, OpenSM's files in a temporary
# directory, everything stopped by a trap)
export IBP_OSM_TIMEOUT=${IBP_OSM_TIMEOUT:-60}
# shellcheck source=../tests/interop/lib.sh
source "$IBP_SRC/tests/interop/lib.sh"
ibp_init bench-conf
trap 'ibp_cleanup; rm -rf "$work"' EXIT
ibp_sim_start "$IBP_SRC/tests/data/topo/ibsim-net.2sw2path4hca"
# microseconds from OpenSM's first log line to its first SUBNET UP
osm_once() {
	ibp_osm_start "$1"
	awk '{ split($3, t, ":"); us = ((t[1] * 60 + t[2]) * 60 + t[3]) * 1e6 + $4 }
	     NR == 1 { first = us } / SUBNET UP/ { printf "%d\n", (us - first) * 1000; exit }' "$IBP_OSM_LOG"
	ibp_osm_stop
}
: >"$work/osm_big" && : >"$work/osm_small"
for ((i = 0; i < RUNS; i++)); do
	osm_once "$big" >>"$work/osm_big"
	osm_once "$small" >>"$work/osm_small"
done
osm_big=$(median <"$work/osm_big") osm_small=$(median <"$work/osm_small")
osm=$((osm_big - osm_small))
awk -v b="$bytes" -v big="$osm_big" -v small="$osm_small" -v d="$osm" -v ib="$ib" 'BEGIN {
	printf "OpenSM 3.3.23 start to SUBNET UP on ibsim: %.3f s - %.3f s (trivial file) = %.3f s: %.0f MB/s\n",
		big / 1e9, small / 1e9, d / 1e9, b / 1e6 / (d / 1e9)
	printf "ratio OpenSM/ibpart cost of the file: %.2f (goal >= 2)\n", d / ib
}'
