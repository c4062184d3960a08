#!/usr/bin/env bash
# bench_ibpartd_scale.sh - ibpartd at a fabric's full size (issue 29):
# the topology only (--topology, no OpenSM), a generated fat tree with
# its tenants' partitions as the operator's lines, beside the same at
# about 1,000 ports in the same run; then the same requests with the real
# OpenSM on ibsim at the largest size this bench runs it (ibpartd writes
# OpenSM's file, SIGHUPs it and verifies every port over SMPs while the
# clients post).  Per size: POST latency p50/p99
# from one client (each a real change: a P_Key's two members of one
# tenant, full then limited, over a bounded set of P_Keys so the plan
# stays the same size), changes/s from 100 clients (curl --parallel),
# GET of the list with at least 100,000 GUIDs (API partitions of hosts
# not on the fabric added first), the daemon's CPU time per change (the
# machine may be shared) and its RSS before, halfway through and after
# the changes, and the load average.  The issue's goals at 48k: p50 <=
# 20 ms, >= 200 changes/s, GET list <= 100 ms, memory flat.  Run by
# scripts/bench.sh (make bench); needs curl, openssl, jq.
# Knobs: BENCH_SCALE_IBPARTD_CAS="1000 44000", BENCH_SCALE_IBPARTD_LAT=200
# (one-client POSTs), BENCH_SCALE_IBPARTD_CHANGES=10000 (100 clients),
# BENCH_SCALE_IBPARTD_SIM_CAS=4000 (on ibsim with OpenSM; empty: none;
# OpenSM's first sweep of 10,000 CAs on ibsim takes about 2 minutes, of
# 4,000 about 30 s).
set -euo pipefail
IBPART=${IBPART:-build/ibpart}
IBPARTD=${IBPARTD:-$(dirname "$IBPART")/ibpartd}
IBP_SRC=${IBP_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
export IBPART IBPARTD IBP_SRC
source "$IBP_SRC/tests/interop/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibp_require curl openssl jq
live_init
W=$LIVE_DIR
trap 'rc=$?; set +e; ibpd_cleanup; (exit $rc); ibp_cleanup' EXIT
export IBPART_LOCK_DIR=$W/lock
LAT=${BENCH_SCALE_IBPARTD_LAT:-200}
CHANGES=${BENCH_SCALE_IBPARTD_CHANGES:-10000}
ms() { date +%s%3N; }
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$IBPD_PID/status"; }
# the daemon's CPU time (user + system) so far, in ms: the machine may be
# shared, so the figures say what a change cost beside how long it took
# the database transactions that recorded changes so far (the group
# commit's ibpartd_commits_total; empty for a daemon without it)
commits() {
	local m
	m=$(curl -s -u admin:secret "$IBPD_URL/metrics" || true)
	sed -n 's/^ibpartd_commits_total \([0-9]*\)$/\1/p' <<<"$m"
}
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$IBPD_PID/stat"; }

# post_cfg FILE FIRST COUNT: curl's config of COUNT POSTs, change i on
# P_Key 0x2000 + i % 200, the two GUIDs of tenant i % T, full in even
# rounds of 200 and limited in odd ones (each a change, the plan bounded)
post_cfg() {
	local f=$1 first=$2 n=$3 i k m
	: >"$f"
	for ((i = first; i < first + n; i++)); do
		((i > first)) && echo next >>"$f"
		k=$((i % 200))
		m=full
		(((i / 200) % 2)) && m=limited
		printf 'url = "%s/ufmRest/resources/pkeys"\nuser = "admin:secret"\nheader = "Content-Type: application/json"\noutput = "/dev/null"\nwrite-out = "%%{http_code} %%{time_total}\\n"\ndata = "{\\"pkey\\":\\"0x%x\\",\\"membership\\":\\"%s\\",\\"guids\\":[\\"%s\\",\\"%s\\"]}"\n' \
			"$IBPD_URL" $((0x2000 + k)) "$m" "${G1[k % NT]}" "${G2[k % NT]}" >>"$f"
	done
}

declare -A R
sizes=()
# fabric CAS: generate the fat tree of CAS CAs and its plan as $g.topo
# and $g.conf; LIDS is its LID count, G1/G2 two GUIDs of each tenant,
# ALL every CA port's GUID
fabric() {
	local cas=$1 radix=36 parts=$(($1 / 11))
	((cas > 20000)) && radix=64
	g=$W/g$cas
	"$IBPART" gen --cas "$cas" --radix "$radix" --partitions "$parts" -o "$g.topo" --conf "$g.conf" 2>"$W/gen.err"
	lids=$(sed -n 's/.*tiers*, \([0-9]*\) LIDs of.*/\1/p' "$W/gen.err")
	[[ -n $lids ]] || lids=$(sed -n 's/.*(\([0-9]*\) LIDs of.*/\1/p' "$W/gen.err")
	mapfile -t G1 < <(awk '/^t[0-9]+=/ { getline; gsub(/[ ,;]|=full/, ""); print substr($0, 3) }' "$g.conf")
	mapfile -t G2 < <(awk '/^t[0-9]+=/ { getline; getline; gsub(/[ ,;]|=full/, ""); print substr($0, 3) }' "$g.conf")
	mapfile -t ALL < <(grep -o '0x[0-9a-f]\{16\}=full' "$g.conf" | sed 's/^0x//; s/=full//')
	NT=${#G1[@]}
	ibpd_init "$W"
	rm -f "$IBPD_DB"*
	cp "$g.conf" "$IBPD_CONF"
}

# measure KEY: the figures of the running daemon into R[*,KEY]
measure() {
	local lids=$1 rss0 rssh rss1 c0 c1 c2 ok p50 p99 half t0 dt total k best t n i
	ibpd_req POST /ufmRest/resources/pkeys "{\"pkey\":\"0x1fff\",\"guids\":[\"${G1[0]}\"]}"
	[[ $CODE == 200 ]] || { echo "warm-up POST: $CODE $BODY" >&2; exit 1; }
	rss0=$(rss)
	c0=$(cpu)
	# one client
	post_cfg "$W/lat" 0 "$LAT"
	curl -s --no-progress-meter -K "$W/lat" >"$W/lat.out"
	ok=$(awk '$1 == 200' "$W/lat.out" | wc -l)
	read -r p50 p99 < <(awk '{ print $2 * 1000 }' "$W/lat.out" | sort -n |
		awk '{ v[NR] = $1 } END { i = int(NR * 0.5); j = int(NR * 0.99); if (i < 1) i = 1; if (j < 1) j = 1; printf "%.1f %.1f\n", v[i], v[j] }')
	c1=$(cpu)
	R[lat,$lids]="p50 $p50 ms, p99 $p99 ms ($ok/$LAT answered 200)"
	R[lcpu,$lids]="$(((c1 - c0) * 1000 / LAT)) us CPU a change (daemon, one client)"
	# 100 clients, in two halves: the RSS between them says whether the
	# memory still grows or has levelled
	half=$((CHANGES / 2))
	post_cfg "$W/par1" "$LAT" "$half"
	post_cfg "$W/par2" $((LAT + half)) $((CHANGES - half))
	x0=$(commits)
	t0=$(ms)
	curl -s --no-progress-meter --parallel --parallel-max 100 -K "$W/par1" >"$W/par.out"
	rssh=$(rss)
	curl -s --no-progress-meter --parallel --parallel-max 100 -K "$W/par2" >>"$W/par.out"
	dt=$(($(ms) - t0))
	c2=$(cpu)
	x1=$(commits)
	R[pcpu,$lids]="$(((c2 - c1) * 1000 / CHANGES)) us CPU a change (daemon, 100 clients)${x1:+, $((x1 - x0)) commits}"
	ok=$(awk '$1 == 200' "$W/par.out" | wc -l)
	R[par,$lids]="$((CHANGES * 1000 / (dt ? dt : 1)))/s ($ok/$CHANGES answered 200 in $dt ms)"
	rss1=$(rss)
	R[rss,$lids]="$((rss0 / 1024)) MB -> $((rssh / 1024)) MB -> $((rss1 / 1024)) MB after $((LAT + half)), $((LAT + CHANGES)) changes"
	# the list with 100,000 GUIDs or more: API partitions of 10,000
	# hosts each that are not on the fabric now (OpenSM skips them)
	total=${#ALL[@]}
	for ((k = 0; total < 100000; k++)); do
		awk -v k="$k" 'BEGIN { printf "{\"pkey\":\"0x%x\",\"membership\":\"limited\",\"guids\":[", 12288 + k
			for (i = 0; i < 10000; i++) printf "%s\"00aa%04x%08x\"", (i ? "," : ""), k, i
			printf "]}" }' >"$W/big.json"
		curl -s -o "$W/big.out" -w '%{http_code}' -u admin:secret -H 'Content-Type: application/json' \
			--data-binary @"$W/big.json" "$IBPD_URL/ufmRest/resources/pkeys" >"$W/big.code"
		[[ $(cat "$W/big.code") == 200 ]] || { echo "big POST: $(cat "$W/big.code") $(cat "$W/big.out")" >&2; exit 1; }
		total=$((total + 10000))
	done
	best=
	for i in 1 2 3 4 5; do
		t=$(curl -s -o "$W/list" -w '%{time_total}' -u admin:secret "$IBPD_URL/ufmRest/resources/pkeys/?guids_data=true")
		t=$(awk -v t="$t" 'BEGIN { printf "%d", t * 1000 }')
		[[ -z $best || $t -lt $best ]] && best=$t
	done
	n=$(jq '[.[] | .guids | length] | add' "$W/list")
	R[get,$lids]="$best ms ($n GUIDs, best of 5)"
}

for cas in ${BENCH_SCALE_IBPARTD_CAS:-1000 44000}; do
	fabric "$cas"
	sizes+=("$lids")
	ibpd_start --topology "$g.topo" --per-ip-connections 128
	measure "$lids"
	ibpd_stop
done

# the same on ibsim with the real OpenSM: ibsim's node, switch and port
# limits raised to the fabric's size; the daemon starts once OpenSM's
# first sweep is done and waits for its first revision verified
for cas in ${BENCH_SCALE_IBPARTD_SIM_CAS-4000}; do
	fabric "$cas"
	nodes=$(grep -c '^\(Ca\|Switch\)' "$g.topo")
	ports=$(grep -c '^\[' "$g.topo")
	export IBSIM_SOCKNAME=$W/sim$cas IBP_SIM_TIMEOUT=600 IBP_OSM_TIMEOUT=1800
	export IBP_SIM_ARGS="-N $((nodes + 100)) -S $((nodes - cas + 100)) -P $((ports + 1000))"
	t0=$(ms)
	live_ibsim "$g.topo" "$(awk '/^Ca/ { gsub(/"/, "", $3); print $3; exit }' "$g.topo")"
	live_opensm "$IBPD_CONF"
	up=$(($(ms) - t0))
	IBPD_PRELOAD=$LIVE_PRELOAD
	ibpd_start --opensm-pidfile "$LIVE_OSM_PIDFILE" --opensm-log "$LIVE_OSM_LOG" --wait 600000 --per-ip-connections 128
	for ((i = 0; i < 9000; i++)); do
		grep -q 'verified over SMPs' "$IBPD_LOG" && break
		sleep 0.2
	done
	((i < 9000)) || { echo "ibpartd: nothing verified in 30 minutes" >&2; exit 1; }
	sizes+=("$lids (ibsim)")
	measure "$lids (ibsim)"
	R[up,"$lids (ibsim)"]="ibsim + OpenSM SUBNET UP in $up ms"
	ibpd_stop
	live_sim_stop
	unset IBP_SIM_ARGS IBPD_PRELOAD
done

printf '%-34s' "LID-addressed ports:"
for s in "${sizes[@]}"; do printf ' | %-46s' "$s"; done
echo
for row in "up:" "lat:POST, one client" "lcpu:" "par:changes, 100 clients" "pcpu:" "get:GET list ?guids_data=true" "rss:RSS"; do
	printf '%-34s' "${row#*:}"
	for s in "${sizes[@]}"; do printf ' | %-46s' "${R[${row%%:*},$s]:-}"; done
	echo
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
