#!/usr/bin/env bash
# bench_live.sh - side by side with OpenSM on generated ibsim fabrics of
# 100 and 1,000 CA ports: a change touching a few ports (one tenant node
# made a limited member: its port and the leaf port facing it), applied by
# `ibpart apply --direct` (time, SMPs: discovery, table reads, push,
# SubnSets; with 4 SMPs in flight, and against the one-at-a-time baseline
# measured in the same run) on one fabric with no SM, and by OpenSM re-reading its
# partitions.conf after SIGHUP (time from the signal to SUBNET UP in its
# log) on another copy of the fabric.  Run by scripts/bench.sh (make
# bench); needs ibsim, opensm, jq.  Sizes: BENCH_LIVE_SIZES="100 1000".
set -euo pipefail
IBPART=${IBPART:-build/ibpart}
IBP_SRC=${IBP_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
export IBPART IBP_SRC
source "$IBP_SRC/tests/interop/live_lib.sh"
live_init
base=$IBSIM_SOCKNAME
ms() { date +%s%3N; }

printf '%-6s %-8s | %-72s | %-16s | %s\n' ports nodes "ibpart apply --direct (change), 4 SMPs in flight" "1 in flight" "OpenSM SIGHUP -> SUBNET UP"
for n in ${BENCH_LIVE_SIZES:-100 1000}; do
	topo=$LIVE_DIR/g$n.topo
	"$IBPART" gen --cas "$n" --partitions 8 -o "$topo" --conf "$LIVE_DIR/a$n.conf" >/dev/null 2>&1
	# B: the first member of t0001 becomes limited.
	awk '/^t0001=/ {in1 = 1} in1 && !done && /=full/ {sub(/=full/, "=limited"); done = 1} {print}' \
		"$LIVE_DIR/a$n.conf" >"$LIVE_DIR/b$n.conf"
	host=$(awk '/^Ca/ { gsub(/"/, "", $3); print $3; exit }' "$topo")
	nodes=$(grep -c '^\(Ca\|Switch\)' "$topo")

	# ibpart, no SM: program A, then time the change to B.
	export IBSIM_SOCKNAME=${base}i$n
	live_ibsim "$topo" "$host"
	live_ibpart apply -q --direct -c "$LIVE_DIR/a$n.conf" --state "$LIVE_DIR/s$n.json" >/dev/null
	# the same change one SMP at a time (the baseline), then back, then
	# with OpenSM's default of 4 in flight
	out1=$(live_ibpart apply -q --direct --max-wire-smps 1 -c "$LIVE_DIR/b$n.conf" --state "$LIVE_DIR/t$n.json" --format json)
	live_ibpart apply -q --direct -c "$LIVE_DIR/a$n.conf" --state "$LIVE_DIR/u$n.json" >/dev/null
	out=$(live_ibpart apply -q --direct -c "$LIVE_DIR/b$n.conf" --state "$LIVE_DIR/v$n.json" --format json)
	ib=$(jq -r '"\(.elapsed_ms) ms, \(.smps) SMPs (\(.smps_discover) disc + \(.smps_read) read + \(.smps_push) push, \(.smps_set) Set), \(.ports_changed|length) ports"' <<<"$out")
	ib1=$(jq -r .elapsed_ms <<<"$out1")
	ib4=$(jq -r .elapsed_ms <<<"$out")
	live_sim_stop

	# OpenSM: bring it up with A, then SIGHUP with B in place.
	export IBSIM_SOCKNAME=${base}o$n
	live_ibsim "$topo" "$host"
	cp "$LIVE_DIR/a$n.conf" "$LIVE_DIR/osm$n.conf"
	t0=$(ms)
	live_opensm "$LIVE_DIR/osm$n.conf"
	up=$(($(ms) - t0))
	cp "$LIVE_DIR/b$n.conf" "$LIVE_DIR/osm$n.conf"
	off=$(wc -c <"$LIVE_OSM_LOG")
	t0=$(ms)
	kill -HUP "$LIVE_OSM_PID"
	until grep -q 'SUBNET UP' < <(tail -c +$((off + 1)) "$LIVE_OSM_LOG"); do sleep 0.005; done
	hup=$(($(ms) - t0))
	live_sim_stop
	printf '%-6s %-8s | %-72s | %-16s | %s ms\n' "$n" "$nodes" "$ib" "$ib1 ms ($(awk -v a="$ib1" -v b="$ib4" 'BEGIN { printf "%.1fx", a / b }'))" "$hup"
done
