#!/usr/bin/env bash
# bench_ibpartd_store.sh - the shared store's cost and the SM pair's
# failover (issue 30, docs/ha.md), each beside its baseline in the same
# run:
#  - changes per second from 20 clients at once (curl --parallel): one
#    ibpartd on SQLite, one on PostgreSQL (--store), and two on the same
#    PostgreSQL taking half the clients each (every change serialised by
#    the store's writers' lock);
#  - POST-to-verified latency on ibsim with the real OpenSM (SIGHUP,
#    SUBNET UP, every table read back over SMPs), SQLite beside
#    PostgreSQL, the median of BENCH_STORE_ROUNDS changes;
#  - the failover time of tests/interop/test_ibpartd_ha.sh (two OpenSMs,
#    the master SIGKILLed): OpenSM's own takeover (its "Entering MASTER
#    state") beside the fabric verified by the standby's ibpartd,
#    BENCH_STORE_FAILOVERS runs.
# Run by scripts/bench.sh (make bench); needs PostgreSQL, ibsim, opensm,
# curl, openssl, jq.  Knobs: BENCH_STORE_N (changes, default 400),
# BENCH_STORE_ROUNDS (5), BENCH_STORE_FAILOVERS (3).
set -euo pipefail
IBPART=$(realpath "${IBPART:-build/ibpart}")
IBPARTD=${IBPARTD:-$(dirname "$IBPART")/ibpartd}
IBP_SRC=${IBP_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
export IBPART IBPARTD IBP_SRC
source "$IBP_SRC/tests/interop/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
source "$IBP_SRC/tests/interop/pg_lib.sh"
ibp_require curl openssl
live_init
SECOND=""
trap 'rc=$?; set +e; [[ -n $SECOND ]] && kill -KILL $SECOND; ibpd_cleanup; pg_cleanup; (exit $rc); ibp_cleanup' EXIT
export IBPART_LOCK_DIR=$LIVE_DIR/lock
ms() { date +%s%3N; }
N=${BENCH_STORE_N:-400}
pg_init "$LIVE_DIR" || exit 1
pg_start || exit 1

# posts FILE URL FIRST COUNT: a curl config of COUNT changes, each a GUID
# of its own added to one of 16 P_Keys
posts() {
	local i
	for ((i = $3; i < $3 + $4; i++)); do
		((i > $3)) && echo next
		printf 'url = "%s/ufmRest/resources/pkeys"\nuser = "admin:secret"\nheader = "Content-Type: application/json"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\ndata = "{\\"pkey\\":\\"0x%x\\",\\"guids\\":[\\"00000000%08x\\"]}"\n' \
			"$2" $((i % 16 + 1)) $((i + 1))
	done >"$1"
}
rate() { # rate NAME MS OK
	printf '%-44s %5d changes (%d answered 200) in %6d ms = %5d/s\n' "$1" "$N" "$3" "$2" $((N * 1000 / ($2 ? $2 : 1)))
}

# --- changes per second, no fabric
ibpd_init "$LIVE_DIR"
printf 'Default=0x7fff : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
ibpd_start --monitor-interval 0
posts "$LIVE_DIR/p1" "$IBPD_URL" 0 "$N"
t0=$(ms)
curl -s --no-progress-meter --parallel --parallel-max 20 -K "$LIVE_DIR/p1" >"$LIVE_DIR/c1"
t_sqlite=$(($(ms) - t0))
rate "SQLite (--db), one ibpartd" "$t_sqlite" "$(grep -c '^200$' "$LIVE_DIR/c1" || true)"
ibpd_stop
rm -f "$IBPD_DB"*
ibpd_start --monitor-interval 0 --store "$PG_URL" --host-name one
posts "$LIVE_DIR/p2" "$IBPD_URL" 0 "$N"
t0=$(ms)
curl -s --no-progress-meter --parallel --parallel-max 20 -K "$LIVE_DIR/p2" >"$LIVE_DIR/c2"
t_pg=$(($(ms) - t0))
rate "PostgreSQL (--store), one ibpartd" "$t_pg" "$(grep -c '^200$' "$LIVE_DIR/c2" || true)"
# a second instance on the same store, half the clients each
cp "$IBPD_CONF" "$LIVE_DIR/second.conf"
: >"$LIVE_DIR/second.log"
"$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$LIVE_DIR/second.db" \
	--partitions "$LIVE_DIR/second.conf" --store "$PG_URL" --host-name two \
	--monitor-interval 0 2>"$LIVE_DIR/second.log" &
SECOND=$!
for ((i = 0; i < 200; i++)); do
	port=$(sed -n 's/.*listening on port \([0-9]*\) .*/\1/p' "$LIVE_DIR/second.log")
	[[ -n $port ]] && break
	sleep 0.05
done
posts "$LIVE_DIR/p3" "$IBPD_URL" "$N" $((N / 2))
posts "$LIVE_DIR/p4" "http://127.0.0.1:$port" $((N + N / 2)) $((N / 2))
t0=$(ms)
curl -s --no-progress-meter --parallel --parallel-max 10 -K "$LIVE_DIR/p3" >"$LIVE_DIR/c3" &
c3=$!
curl -s --no-progress-meter --parallel --parallel-max 10 -K "$LIVE_DIR/p4" >"$LIVE_DIR/c4"
wait $c3
t_pg2=$(($(ms) - t0))
rate "PostgreSQL (--store), two ibpartd" "$t_pg2" "$(cat "$LIVE_DIR/c3" "$LIVE_DIR/c4" | grep -c '^200$' || true)"
kill -TERM $SECOND
wait $SECOND || true
SECOND=""
ibpd_stop
printf 'the store at %.2fx of SQLite alone (one ibpartd), %.2fx (two)\n' \
	"$(awk -v a="$t_sqlite" -v b="$t_pg" 'BEGIN { print a / b }')" \
	"$(awk -v a="$t_sqlite" -v b="$t_pg2" 'BEGIN { print a / b }')"

# --- a POST's 200 to the fabric verified, with the real OpenSM
D=$IBP_SRC/tests/interop/data
live_ibsim "$D/live-2sw.topo" H-0002c90000000100
printf 'Default=0x7fff, ipoib : ALL=limited, 0x0002c90000000101=full ;\n' >"$IBPD_CONF"
live_opensm "$IBPD_CONF"
IBPD_PRELOAD=$LIVE_PRELOAD
# latency STORE-ARGS...: the median of ROUNDS changes, POST to verified
latency() {
	local k t0 all=()
	rm -f "$IBPD_DB"*
	ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" \
		--monitor-interval 0 --wait 20000 "$@"
	ibpd_wait_start
	for ((k = 0; k < ${BENCH_STORE_ROUNDS:-5}; k++)); do
		t0=$(ms)
		ibpd_req POST /ufmRest/resources/pkeys "{\"pkey\":\"0x$((k % 2 + 2))0\",\"guids\":[\"0002c90000000$((k % 4 + 2))01\"]}"
		[[ $CODE == 200 ]] || { echo "POST: $CODE $BODY" >&2; exit 1; }
		ibpd_wait_fabric "$(jq .revision <<<"$BODY")" 60
		all+=($(($(ms) - t0)))
	done
	ibpd_stop
	printf '%s\n' "${all[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}
l_sqlite=$(latency)
pg_sql "DROP SCHEMA public CASCADE; CREATE SCHEMA public" >/dev/null
l_pg=$(latency --store "$PG_URL" --host-name one)
printf '\nPOST 200 -> fabric verified (median of %d): SQLite %d ms, PostgreSQL %d ms\n' \
	"${BENCH_STORE_ROUNDS:-5}" "$l_sqlite" "$l_pg"
live_sim_stop
pg_stop

# --- the failover, as the interop test runs it
printf '\n%-4s | %-34s | %s\n' run "OpenSM's own takeover (standby)" "fabric verified by its ibpartd"
for ((k = 1; k <= ${BENCH_STORE_FAILOVERS:-3}; k++)); do
	out=$(IBSIM_SOCKNAME= bash "$IBP_SRC/tests/interop/test_ibpartd_ha.sh" 2>&1) || { echo "$out" >&2; exit 1; }
	line=$(grep '^failover:' <<<"$out")
	osm=$(sed -n 's/.*takeover in \([0-9]*\) ms.*/\1/p' <<<"$line")
	ibpd=$(sed -n 's/.*ibpartd in \([0-9]*\) ms.*/\1/p' <<<"$line")
	printf '%-4s | %-34s | %s\n' "$k" "$osm ms" "$ibpd ms"
done
