#!/usr/bin/env bash
# bench_ibpartd.sh - ibpartd's figures (issue 14): requests per second
# for GETs and POSTs from 100 clients at once over loopback (curl
# --parallel), and, on generated ibsim fabrics of 100 and 1,000 CA ports
# with the real OpenSM, the time from a POST's 200 to /ibpart/v1/status
# saying the fabric holds it (SIGHUP, SUBNET UP, every table verified
# over SMPs), beside OpenSM's own SIGHUP-to-SUBNET-UP time measured on
# the same fabric in the same run.  Run by scripts/bench.sh (make
# bench); needs ibsim, opensm, curl, openssl, jq.
# Sizes: BENCH_IBPARTD_SIZES="100 1000"; requests: BENCH_IBPARTD_N=2000.
set -euo pipefail
IBPART=${IBPART:-build/ibpart}
IBPARTD=${IBPARTD:-$(dirname "$IBPART")/ibpartd}
IBP_SRC=${IBP_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
export IBPART IBPARTD IBP_SRC
source "$IBP_SRC/tests/interop/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibp_require curl openssl
live_init
trap 'rc=$?; set +e; ibpd_cleanup; (exit $rc); ibp_cleanup' EXIT
export IBPART_LOCK_DIR=$LIVE_DIR/lock
ms() { date +%s%3N; }
N=${BENCH_IBPARTD_N:-2000}

# --- requests per second, no fabric (the applier only writes the file)
ibpd_init "$LIVE_DIR"
printf 'Default=0x7fff : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
# 100 clients from one address: over the default 32 per address
ibpd_start --per-ip-connections 128
K=$LIVE_DIR/curl.get
: >"$K"
for ((i = 0; i < N; i++)); do
	((i)) && echo next >>"$K"
	printf 'url = "%s/ufmRest/resources/pkeys/?guids_data=true"\nuser = "admin:secret"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n' "$IBPD_URL" >>"$K"
done
P=$LIVE_DIR/curl.post
: >"$P"
for ((i = 0; i < N; i++)); do
	((i)) && echo next >>"$P"
	printf 'url = "%s/ufmRest/resources/pkeys"\nuser = "admin:secret"\nheader = "Content-Type: application/json"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\ndata = "{\\"pkey\\":\\"0x%x\\",\\"guids\\":[\\"00000000%08x\\"]}"\n' \
		"$IBPD_URL" $((i % 64 + 1)) $((i + 1)) >>"$P"
done
t0=$(ms)
curl -s --no-progress-meter --parallel --parallel-max 100 -K "$P" >"$LIVE_DIR/post.codes"
tp=$(($(ms) - t0))
t0=$(ms)
curl -s --no-progress-meter --parallel --parallel-max 100 -K "$K" >"$LIVE_DIR/get.codes"
tg=$(($(ms) - t0))
okp=$(grep -c '^200$' "$LIVE_DIR/post.codes" || true)
okg=$(grep -c '^200$' "$LIVE_DIR/get.codes" || true)
ibpd_req GET /ibpart/v1/status
printf 'POST /resources/pkeys, 100 clients: %d requests (%d answered 200) in %d ms = %d/s; %s revisions\n' \
	"$N" "$okp" "$tp" $((N * 1000 / (tp ? tp : 1))) "$(jq .revision <<<"$BODY")"
printf 'GET /resources/pkeys/?guids_data=true (64 P_Keys, %d GUIDs), 100 clients: %d requests (%d answered 200) in %d ms = %d/s\n' \
	"$N" "$N" "$okg" "$tg" $((N * 1000 / (tg ? tg : 1)))
# the baseline: the same number of GETs of the version (no store work),
# the HTTP server's and curl's own ceiling
V=$LIVE_DIR/curl.version
: >"$V"
for ((i = 0; i < N; i++)); do
	((i)) && echo next >>"$V"
	printf 'url = "%s/ufmRest/app/ufm_version"\nuser = "admin:secret"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n' "$IBPD_URL" >>"$V"
done
t0=$(ms)
curl -s --no-progress-meter --parallel --parallel-max 100 -K "$V" >"$LIVE_DIR/version.codes"
tv=$(($(ms) - t0))
printf 'baseline GET /app/ufm_version, 100 clients: %d requests in %d ms = %d/s (POST at %.2fx, GET list at %.2fx of it)\n' \
	"$N" "$tv" $((N * 1000 / (tv ? tv : 1))) "$(awk -v a="$tv" -v b="$tp" 'BEGIN { print a / b }')" "$(awk -v a="$tv" -v b="$tg" 'BEGIN { print a / b }')"
ibpd_stop

# --- from a POST's 200 to the fabric holding it, beside OpenSM's own time
printf '\n%-6s %-8s | %-40s | %s\n' ports nodes "POST 200 -> fabric verified (ibpartd)" "OpenSM SIGHUP -> SUBNET UP"
base=$IBSIM_SOCKNAME
for n in ${BENCH_IBPARTD_SIZES:-100 1000}; do
	topo=$LIVE_DIR/g$n.topo
	"$IBPART" gen --cas "$n" --partitions 8 -o "$topo" --conf "$LIVE_DIR/a$n.conf" >/dev/null 2>&1
	host=$(awk '/^Ca/ { gsub(/"/, "", $3); print $3; exit }' "$topo")
	nodes=$(grep -c '^\(Ca\|Switch\)' "$topo")
	export IBSIM_SOCKNAME=${base}d$n
	live_ibsim "$topo" "$host"
	rm -f "$IBPD_DB"*
	cp "$LIVE_DIR/a$n.conf" "$IBPD_CONF"
	live_opensm "$IBPD_CONF"
	# OpenSM alone: SIGHUP with the file unchanged, to SUBNET UP
	off=$(wc -c <"$LIVE_OSM_LOG")
	t0=$(ms)
	kill -HUP "$LIVE_OSM_PID"
	until grep -q 'SUBNET UP' < <(tail -c +$((off + 1)) "$LIVE_OSM_LOG"); do sleep 0.005; done
	hup=$(($(ms) - t0))
	IBPD_PRELOAD=$LIVE_PRELOAD
	ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" --wait 60000
	until grep -q 'verified over SMPs' "$IBPD_LOG"; do sleep 0.05; done
	# the port GUID of the third CA (a tenant node)
	g=$(awk '/^Ca/ { getline; if (++k == 3) { s = $0; sub(/^\[1\]\(/, "", s); sub(/\).*/, "", s); print s; exit } }' "$topo")
	t0=$(ms)
	ibpd_req POST /ufmRest/resources/pkeys "{\"pkey\":\"0x7000\",\"index0\":true,\"membership\":\"full\",\"guids\":[\"$(printf %016x $((16#${g#0x})))\"]}"
	[[ $CODE == 200 ]] || { echo "POST: $CODE $BODY" >&2; exit 1; }
	ibpd_wait_fabric "$(jq .revision <<<"$BODY")" 120
	fab=$(($(ms) - t0))
	ibpd_stop
	live_sim_stop
	printf '%-6s %-8s | %-40s | %s ms\n' "$n" "$nodes" "$fab ms" "$hup"
done
