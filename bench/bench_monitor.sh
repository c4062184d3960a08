#!/usr/bin/env bash
# bench_monitor.sh - one `ibpart monitor` sweep on generated ibsim
# fabrics of 100 and 1,000 CA ports with the real OpenSM as SM: the
# sweep's time (the library's figure, discovery excluded: a service
# discovers once) and its MADs (ClassPortInfo and PortCounters GMPs,
# PortInfo SMPs), with 16 MADs in flight against the one-at-a-time
# baseline measured in the same run (best of three each).  Each run
# sweeps twice (--interval 1 --count 2), as a service does: the first
# sweep reads every node's ClassPortInfo, the second (the figure) finds
# it in the monitor's state and sends only the counters' GMPs; both GMP
# counts are shown.  Run by
# scripts/bench.sh (make bench); needs ibsim, opensm, jq.  Sizes:
# BENCH_MONITOR_SIZES="100 1000".
set -euo pipefail
IBPART=${IBPART:-build/ibpart}
IBP_SRC=${IBP_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
export IBPART IBP_SRC
source "$IBP_SRC/tests/interop/live_lib.sh"
live_init

best() { # best WINDOW: the fastest of three second sweeps, "ms gmps smps ports unread first-gmps"
	local i out b=""
	for i in 1 2 3; do
		out=$(live_ibpart monitor -q --retries 6 --max-wire-smps "$1" -c "$conf" --format json \
			--interval 1 --count 2 || true)
		out=$(jq -rs '.[0].gmps as $g1 | .[1] | "\(.elapsed_ms) \(.gmps) \(.smps) \(.ports|length) \(.unread) \($g1)"' <<<"$out")
		if [[ -z $b ]] || awk -v a="${out%% *}" -v c="${b%% *}" 'BEGIN { exit !(a < c) }'; then
			b=$out
		fi
	done
	echo "$b"
}

printf '%-6s %-7s | %-72s | %s\n' ports read "ibpart monitor sweep, 16 MADs in flight" "1 in flight"
for n in ${BENCH_MONITOR_SIZES:-100 1000}; do
	topo=$LIVE_DIR/g$n.topo
	conf=$LIVE_DIR/a$n.conf
	"$IBPART" gen --cas "$n" --partitions 8 -o "$topo" --conf "$conf" >/dev/null 2>&1
	host=$(awk '/^Ca/ { gsub(/"/, "", $3); print $3; exit }' "$topo")
	live_ibsim "$topo" "$host"
	live_opensm "$conf"
	read -r ms16 g s ports unread g1 <<<"$(best 16)"
	read -r ms1 _ _ _ _ _ <<<"$(best 1)"
	live_sim_stop
	printf '%-6s %-7s | %-72s | %s\n' "$n" "$ports" \
		"$(printf '%.1f ms, %s GMPs (first sweep %s) + %s SMPs, %s unread' "$ms16" "$g" "$g1" "$s" "$unread")" \
		"$(awk -v a="$ms1" -v b="$ms16" 'BEGIN { printf "%.1f ms (%.1fx)", a, a / b }')"
done
