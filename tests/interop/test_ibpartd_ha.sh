#!/usr/bin/env bash
# test_ibpartd_ha.sh - an SM pair with ibpartd on each SM host and one
# plan in a shared PostgreSQL store (issue 30, docs/ha.md), on ibsim with
# the real OpenSM:
#  - two OpenSMs on two CAs (sm-host priority 10, node-d priority 5),
#    each with its own partitions file, log, cache and umad port
#    (libumad2sim, SIM_HOST); two ibpartd with --store, one per SM;
#  - changes through both instances at once (concurrent clients), a
#    removal among them: both files hold the newest revision; only the
#    master's ibpartd signals OpenSM and verifies;
#  - SIGKILL of the master OpenSM and of its ibpartd, a change made
#    through the survivor meanwhile: the standby OpenSM takes over, its
#    ibpartd notices (log, status, /metrics), verifies, and the real
#    smpquery reads every tenant port with exactly the P_Keys of every
#    acknowledged change - none lost, the removed GUID not back;
#  - PostgreSQL stopped and restarted, then again under two streams of
#    changes: 503s while it is down, the file left alone, every change
#    acknowledged with 200 on the fabric at the end;
#  - the old master returns as a standby (priority 1): its ibpartd
#    catches up from the store before it writes, its file is the plan.
# Timings (OpenSM's own takeover and ibpartd's verified one) are printed.
source "$(dirname "$0")/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
source "$IBP_SRC/tests/interop/pg_lib.sh"
: "${IBPARTD:?}"
ibp_require curl openssl smpquery python3
live_init
PIDS=()
ha_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	pg_cleanup
}
trap 'rc=$?; set +e; ha_cleanup; (exit $rc); ibp_cleanup' EXIT
D=$IBP_SRC/tests/interop/data
W=$LIVE_DIR
live_ibsim "$D/live-2sw.topo" H-0002c90000000100
pg_init "$W" || live_fail "initdb"
pg_start || live_fail "PostgreSQL did not start"
ibpd_init "$W"
H='Content-Type: application/json'
SM_A=0x0002c90000000101 SM_B=0x0002c90000000601
# every port limited in the default partition, both SM ports full
printf 'Default=0x7fff, ipoib : ALL=limited, %s=full, %s=full ;\n' $SM_A $SM_B >"$W/a.conf"
cp "$W/a.conf" "$W/b.conf"
# a standby notices a silent master after 2 polls 500 ms apart.  No
# sweep on traps: on ibsim the master OpenSM now and then stops sweeping
# for good after the heavy sweep that a joining SM's trap 144 starts (3
# runs in 16 of this test under load, its log ending at the trap), and
# then no SIGHUP gets a SUBNET UP.  The SMs find each other without it:
# the joining SM's own discovery and the standby's SMInfo polling.
printf 'sminfo_polling_timeout 500\npolling_retry_number 2\nsweep_on_trap FALSE\n' >"$W/osm.conf"

# osm NAME SIM_HOST GUID PRIORITY: OpenSM for host NAME (pid in NAME.pid)
osm() {
	local n=$1 host=$2 guid=$3 prio=$4
	mkdir -p "$W/osm-$n"
	(cd "$W" && LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$host OSM_TMP_DIR=$W/osm-$n \
		OSM_CACHE_DIR=$W/osm-$n exec opensm -d 2 -f "$W/$n.osm.log" -s 0 -g "$guid" \
		-p "$prio" -P "$W/$n.conf" -F "$W/osm.conf") >"$W/$n.osm.out" 2>&1 &
	echo $! >"$W/$n.pid"
	PIDS+=($!)
}
# wait_log FILE REGEX [SECONDS]: until FILE has a line matching REGEX
wait_log() {
	local i
	for ((i = 0; i < ${3:-20} * 20; i++)); do
		grep -qE -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	live_fail "$1: no '$2' after ${3:-20} s: $(tail -3 "$1")"
}
# ibpd NAME SIM_HOST: ibpartd for host NAME; URL in NAME_URL
ibpd() {
	local n=$1 host=$2 i port=""
	: >>"$W/$n.ibpd.log"
	local off
	off=$(wc -l <"$W/$n.ibpd.log")
	(cd "$W" && IBPART_LOCK_DIR=$W/lock-$n LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$host \
		exec "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" \
		--db "$W/$n.db" --partitions "$W/$n.conf" --store "$PG_URL" --host-name "sm-$n" \
		--opensm-pidfile "$W/$n.pid" --opensm-log "$W/$n.osm.log" \
		--monitor-interval 0 --wait 20000) 2>>"$W/$n.ibpd.log" &
	eval "${n^^}_IBPD=$!"
	PIDS+=($!)
	for ((i = 0; i < 200; i++)); do
		port=$(tail -n +$((off + 1)) "$W/$n.ibpd.log" | sed -n 's/.*listening on port \([0-9]*\) .*/\1/p')
		[[ -n $port ]] && break
		sleep 0.05
	done
	[[ -n $port ]] || live_fail "ibpartd $n did not start: $(tail -3 "$W/$n.ibpd.log")"
	eval "${n^^}_URL=http://127.0.0.1:$port"
}
# post URL PATH BODY: the HTTP code; the body in $W/resp.$BASHPID
post() {
	curl -s -m 30 -o "$W/resp.$BASHPID" -w '%{http_code}' -u admin:secret -H "$H" -X POST \
		--data-binary "$3" "$1$2"
}
# status_of URL JQ: a field of the instance's status
status_of() { curl -s -m 30 -u admin:secret "$1/ibpart/v1/status" | jq -r "$2"; }
# wait_verified REV: until the fabric holds REV as the master's ibpartd
# verified it, whichever host that is (40 s)
wait_verified() {
	local i u v
	for ((i = 0; i < 400; i++)); do
		for u in "$A_URL" "$B_URL"; do
			v=$(status_of "$u" .fabric_revision 2>/dev/null) || v=0
			[[ ${v:-0} -ge $1 ]] && return 0
		done
		sleep 0.1
	done
	live_fail "revision $1 never verified: $(pg_sql "SELECT host, sm_state, file_rev, fabric_rev FROM hosts"): $(grep -hv "access: " "$W"/[ab].ibpd.log | tail -n 12)"
}

osm a H-0002c90000000100 $SM_A 10
wait_log "$W/a.osm.log" "Entering MASTER state"
osm b H-0002c90000000600 $SM_B 5
wait_log "$W/b.osm.log" "Entering STANDBY state"
ibpd a H-0002c90000000100
ibpd b H-0002c90000000600
wait_log "$W/a.ibpd.log" "verified over SMPs" 60
wait_log "$W/b.ibpd.log" "OpenSM here is STANDBY" 30
live_ok "two OpenSMs (a MASTER, b STANDBY, as their logs say), an ibpartd on each host"

# the tenants: node-a, node-b, node-c, dual-host's two ports
NA=0002c90000000201 NB=0002c90000000301 NC=0002c90000000401 X1=0002c90000000501 X2=0002c90000000502
# concurrent clients on both instances
posts=()
(post "$A_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x11\",\"guids\":[\"$NA\",\"$NB\"]}" >"$W/c1") &
posts+=($!)
(post "$B_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x12\",\"guids\":[\"$NB\",\"$NC\"]}" >"$W/c2") &
posts+=($!)
(post "$A_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x13\",\"guids\":[\"$NC\",\"$X1\"]}" >"$W/c3") &
posts+=($!)
(post "$B_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x14\",\"guids\":[\"$X2\",\"$NA\"]}" >"$W/c4") &
posts+=($!)
wait "${posts[@]}"
for i in 1 2 3 4; do [[ $(cat "$W/c$i") == 200 ]] || live_fail "concurrent change $i: HTTP $(cat "$W/c$i")"; done
# a removal through the standby's instance
code=$(post "$B_URL" /ufmRest/actions/remove_guids_from_pkey "{\"pkey\":\"0x11\",\"guids\":[\"$NB\"]}")
[[ $code == 200 ]] || live_fail "removal: HTTP $code"
rev=$(pg_sql "SELECT max(rev) FROM revisions")
[[ $rev == 5 ]] || live_fail "the store's newest revision is $rev, want 5"
wait_verified 5
for ((i = 0; i < 100; i++)); do
	[[ $(status_of "$B_URL" '.store.hosts[] | select(.host == "sm-b") | .file_revision') == 5 ]] && break
	sleep 0.1
done
gen() { sed -n '/^# ---- ibpartd: generated section/,$p' "$1"; }
[[ $(gen "$W/a.conf") == "$(gen "$W/b.conf")" ]] || live_fail "the two files differ"
grep -q "$NB" <<<"$(sed -n '/0x0011/,/;/p' "$W/b.conf")" && live_fail "the standby's file still has node-b in 0x11"
signalled_b=$(grep -c "verified over SMPs" "$W/b.ibpd.log" || true)
[[ $signalled_b == 0 ]] || live_fail "the standby's ibpartd verified (it must only write the file)"
live_ok "5 changes through both instances: revision 5 in both files, verified by the master's ibpartd only"

# the failover: SIGKILL the master OpenSM and its ibpartd
t0=$(date +%s%N)
kill -KILL "$(cat "$W/a.pid")" "$A_IBPD"
wait "$(cat "$W/a.pid")" "$A_IBPD" 2>/dev/null || true
# a change through the survivor while the fabric has no master
code=$(post "$B_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x15\",\"guids\":[\"$NB\"]}")
[[ $code == 200 ]] || live_fail "a change during the failover: HTTP $code"
wait_log "$W/b.osm.log" "Entering MASTER state" 30
t_osm=$((($(date +%s%N) - t0) / 1000000))
wait_log "$W/b.ibpd.log" "failover done" 60
t_ibpd=$((($(date +%s%N) - t0) / 1000000))
echo "failover: OpenSM's own takeover in $t_osm ms, verified by ibpartd in $t_ibpd ms"
[[ $(status_of "$B_URL" '.store.hosts[] | select(.host == "sm-b") | .sm_state') == MASTER ]] ||
	live_fail "status: sm-b is not MASTER: $(status_of "$B_URL" .store)"
m=$(curl -s -m 30 -u admin:secret "$B_URL/metrics")
grep -q '^ibpartd_failovers_total 1$' <<<"$m" || live_fail "/metrics: $(grep failover <<<"$m")"
grep -q '^ibpartd_sm_master 1$' <<<"$m" || live_fail "/metrics: not master"
[[ $(status_of "$B_URL" .fabric_revision) -ge 6 ]] || live_fail "the fabric's revision after the failover"

# smpquery on every tenant port (from sm-host's CA, by directed route)
# port PATH PORT WANT: the P_Keys besides the default, in order
check_port() {
	local got
	got=$(live_smp_pkeys "$1" "$2" | tr ' ' '\n' | grep -v -e 0x7fff -e 0xffff -e 0x0000 | sort | tr '\n' ' ')
	[[ "$got" == "$3" ]] || live_fail "port $1 $2 (${4}): [$got], want [$3]"
}
check_all() {
	check_port 0,1,4 1 "0x8011 0x8014 " node-a
	check_port 0,1,1,3 1 "0x8012 0x8015 " node-b # removed from 0x11
	check_port 0,1,1,4 1 "0x8012 0x8013 " node-c
	check_port 0,1,5 1 "0x8013 " dual-host-1
	check_port 0,1,1,5 2 "0x8014 ${1-}" dual-host-2
}
check_all
live_ok "standby OpenSM took over; its ibpartd verified; smpquery reads every acknowledged change, node-b not back in 0x11"

# PostgreSQL stopped and restarted under a stream of changes through b
acked=() refused=0
i=0
stream() { # one change; adds 0x16's members one GUID at a time
	local g=$1 code
	code=$(post "$B_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x16\",\"guids\":[\"$g\"]}")
	if [[ $code == 200 ]]; then acked+=("$g"); elif [[ $code == 503 ]]; then refused=$((refused + 1)); else live_fail "stream: HTTP $code"; fi
}
stream $X2
wait_verified "$(pg_sql "SELECT max(rev) FROM revisions")"
before=$(md5sum <"$W/b.conf")
pg_stop
stream $X2
[[ $refused -ge 1 ]] || live_fail "no 503 while the store was down"
[[ $(md5sum <"$W/b.conf") == "$before" ]] || live_fail "b.conf changed while the store was down"
pg_start || live_fail "PostgreSQL did not restart"
for ((i = 0; i < 50; i++)); do
	code=$(post "$B_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x16\",\"guids\":[\"$X2\"]}")
	[[ $code == 200 ]] && break
	sleep 0.1
done
[[ $code == 200 ]] || live_fail "no change accepted after the store came back"
code=$(post "$B_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x17\",\"guids\":[\"$X2\"]}")
[[ $code == 200 ]] || live_fail "a change after the restart: HTTP $code"
rev=$(pg_sql "SELECT max(rev) FROM revisions")
wait_verified "$rev"
check_all "0x8016 0x8017 "
live_ok "PostgreSQL stopped and restarted: $refused change(s) refused with 503, the file untouched meanwhile, every acknowledged one on the fabric (revision $rev)"

# and under load: two clients on the survivor while the store stops and
# restarts; every change acknowledged with 200 ends on the fabric
# load URL FIRST GUID: up to 6 changes, each a new P_Key for GUID
load() {
	local k
	for ((k = $2; k < $2 + 6; k++)); do
		[[ -e $W/load.stop ]] && break
		echo "$(post "$1" /ufmRest/resources/pkeys "{\"pkey\":\"$(printf 0x%x $k)\",\"guids\":[\"$3\"]}") $(printf 0x%x $((k | 0x8000)))"
		sleep 0.25
	done
}
load "$B_URL" $((0x40)) $NA >"$W/load.a" &
la=$!
load "$B_URL" $((0x50)) $NC >"$W/load.b" &
lb=$!
count() { cat "$W/load.a" "$W/load.b" | grep -c "^$1 " || true; }
for ((i = 0; i < 100 && $(count 200) < 2; i++)); do sleep 0.05; done
pg_stop
for ((i = 0; i < 100 && $(count 503) < 1; i++)); do sleep 0.05; done
pg_start || live_fail "PostgreSQL did not restart under load"
touch "$W/load.stop"
wait $la $lb
bad=$(cat "$W/load.a" "$W/load.b" | grep -v -e '^200 ' -e '^503 ' || true)
[[ -z $bad ]] || live_fail "under load: $bad"
[[ $(count 503) -ge 1 ]] || live_fail "under load: no 503 while the store was down"
# one more change so the fabric is verified after the last of them
code=000
for ((i = 0; i < 50 && code != 200; i++)); do
	code=$(post "$B_URL" /ufmRest/resources/pkeys "{\"pkey\":\"0x18\",\"guids\":[\"$X2\"]}")
	[[ $code == 200 ]] || sleep 0.1
done
[[ $code == 200 ]] || live_fail "under load: no change accepted after the store came back"
wait_verified "$(pg_sql "SELECT max(rev) FROM revisions")"
have_a=$(live_smp_pkeys 0,1,4 1) have_c=$(live_smp_pkeys 0,1,1,4 1)
while read -r code pk; do
	[[ $have_a == *"$pk"* ]] || live_fail "node-a lacks $pk, acknowledged under load: [$have_a]"
done < <(grep '^200 ' "$W/load.a")
while read -r code pk; do
	[[ $have_c == *"$pk"* ]] || live_fail "node-c lacks $pk, acknowledged under load: [$have_c]"
done < <(grep '^200 ' "$W/load.b")
live_ok "under load: $(count 200) changes acknowledged, $(count 503) refused with 503 while the store was down; every acknowledged one on the fabric"
# last (ibsim's OpenSM master may stop sweeping once the old master is
# back as a standby: a SIGHUP then gets no SUBNET UP, which ibpartd
# reports as the revision failed; the steps above do not depend on it)
# the old master returns as a standby; its ibpartd catches up first
mv "$W/a.osm.log" "$W/a.osm.log.1"
osm a H-0002c90000000100 $SM_A 1
wait_log "$W/a.osm.log" "Entering STANDBY state" 30
ibpd a H-0002c90000000100
for ((i = 0; i < 100; i++)); do
	[[ $(gen "$W/a.conf") == "$(gen "$W/b.conf")" ]] && break
	sleep 0.1
done
[[ $(gen "$W/a.conf") == "$(gen "$W/b.conf")" ]] || live_fail "the old master's file did not catch up"
live_ok "the old master is back as STANDBY; its ibpartd caught up: its file holds the newest revision"
ibp_pass
