# live_lib.sh - shared by tests/interop/test_live_*.sh and bench/bench_live.sh:
# start a private ibsim (its own IBSIM_SOCKNAME, optionally with its console
# on a fifo so a test can inject faults), an OpenSM on it, run tools through
# libumad2sim, and read P_Key tables back with the real smpquery by directed
# route.  Everything started is stopped by the EXIT trap, also on failure.
#
# Source it, then call live_init.  Needs: ibsim, opensm, smpquery,
# ibnetdiscover, jq; IBPART (the binary) and IBP_SRC from CTest.

set -euo pipefail

live_skip() { echo "SKIP: $*"; exit 77; }
live_fail() { echo "FAIL: $*" >&2; exit 1; }
live_ok() { echo "ok - $*"; }

live_init() {
	for t in ibsim opensm smpquery ibnetdiscover jq; do
		command -v "$t" >/dev/null || live_skip "$t not installed"
	done
	LIVE_PRELOAD=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim.so$' || true)
	[[ -n $LIVE_PRELOAD ]] || live_skip "libumad2sim0 not installed"
	: "${IBPART:?IBPART must name the ibpart binary}"
	: "${IBP_SRC:?IBP_SRC must name the source directory}"
	LIVE_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ibp-live.XXXXXX")
	export IBSIM_SOCKNAME="ibp$$r$RANDOM"
	export OSM_TMP_DIR=$LIVE_DIR OSM_CACHE_DIR=$LIVE_DIR
	LIVE_PIDS=()
	LIVE_CON_FD=
	trap live_cleanup EXIT
}

live_cleanup() {
	local rc=$?
	local p
	for p in "${LIVE_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
	for p in "${LIVE_PIDS[@]}"; do
		wait "$p" 2>/dev/null || true
	done
	if [[ -n ${LIVE_KEEP:-} ]]; then
		echo "kept $LIVE_DIR" >&2
	else
		rm -rf "$LIVE_DIR"
	fi
	exit $rc
}

# live_ibsim TOPO SIM_HOST [console]: start ibsim on TOPO; with "console",
# its console reads from a fifo (live_sim_cmd writes to it).
live_ibsim() {
	local topo=$1
	export SIM_HOST=$2
	if [[ ${3:-} == console ]]; then
		mkfifo "$LIVE_DIR/console"
		ibsim -s "$topo" <"$LIVE_DIR/console" >"$LIVE_DIR/ibsim.log" 2>&1 &
		LIVE_PIDS+=($!)
		exec {LIVE_CON_FD}>"$LIVE_DIR/console"
	else
		ibsim -s -n "$topo" >"$LIVE_DIR/ibsim.log" 2>&1 &
		LIVE_PIDS+=($!)
	fi
	local i
	for i in $(seq 1 100); do
		if LD_PRELOAD=$LIVE_PRELOAD smpquery -D nodeinfo 0 >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.1
	done
	cat "$LIVE_DIR/ibsim.log" >&2
	live_fail "ibsim did not come up"
}

# live_sim_cmd "Error \"S-…\" 20": one line to ibsim's console.
live_sim_cmd() {
	[[ -n $LIVE_CON_FD ]] || live_fail "ibsim has no console"
	echo "$1" >&"$LIVE_CON_FD"
	sleep 0.2
}

# live_opensm CONF: start OpenSM with CONF as its partition file, wait
# for SUBNET UP; sets LIVE_OSM_PID, LIVE_OSM_LOG, LIVE_OSM_PIDFILE.
live_opensm() {
	LIVE_OSM_LOG=$LIVE_DIR/opensm.log
	LIVE_OSM_PIDFILE=$LIVE_DIR/opensm.pid
	LD_PRELOAD=$LIVE_PRELOAD opensm -d 2 -P "$1" -f "$LIVE_OSM_LOG" -s 0 \
		>"$LIVE_DIR/opensm.out" 2>&1 &
	LIVE_OSM_PID=$!
	LIVE_PIDS+=($LIVE_OSM_PID)
	echo "$LIVE_OSM_PID" >"$LIVE_OSM_PIDFILE"
	local i
	for i in $(seq 1 200); do
		grep -q 'SUBNET UP' "$LIVE_OSM_LOG" 2>/dev/null && return 0
		sleep 0.05
	done
	cat "$LIVE_OSM_LOG" >&2 || true
	live_fail "OpenSM did not reach SUBNET UP"
}

# live_ibpart ARGS...: run ibpart on the simulated fabric.
live_ibpart() {
	LD_PRELOAD=$LIVE_PRELOAD "$IBPART" "$@"
}

# live_dr_paths TOPO: from an ibnetdiscover topology, print one line per
# end port and switch external port that faces a CA:
#   NODE_GUID PORT DR_PATH
# DR_PATH is the directed route from the local CA (the file's "Initiated
# from node" line) to that node, as smpquery -D takes it.  A CA port is
# reached through the switch port it is linked to (a CA answers a
# P_KeyTable Get for the port the SMP came in by, IBA 14.2.5.7), the local
# CA's ports too (out to the switch and back).
live_dr_paths() {
	awk '
	function g(s) { sub(/^0x/, "", s); sub(/^0+/, "", s); return tolower(s) }
	/^# Initiated from node/ { start = g($5) }
	/^(switchguid|caguid|rtguid)=/ {
		split($0, a, "="); cur = g(a[2]); sub(/\(.*/, "", cur)
		type[cur] = substr($0, 1, 2)
		if (type[cur] == "sw") nswitch++
	}
	/^\[[0-9]+\]/ && cur != "" {
		p = $0; sub(/^\[/, "", p); sub(/\].*/, "", p)
		peer = $0; sub(/^[^"]*"/, "", peer)
		pid = peer; sub(/".*/, "", pid); sub(/^[HSR]-/, "", pid)
		pp = peer; sub(/^[^"]*"/, "", pp); sub(/^\[/, "", pp); sub(/\].*/, "", pp)
		link[cur, p] = g(pid) SUBSEP pp
		nports[cur] = (p > nports[cur] ? p : nports[cur])
	}
	END {
		# BFS from the start node; the path to the start is "0".
		path[start] = "0"; q[0] = start; qh = 0; qt = 1
		while (qh < qt) {
			n = q[qh++]
			for (p = 1; p <= nports[n]; p++) {
				if (!((n, p) in link)) continue
				split(link[n, p], pr, SUBSEP)
				m = pr[1]
				if (m in path) continue
				# a CA is left by its port only at the start
				if (type[n] != "sw" && n != start) continue
				path[m] = path[n] "," p
				q[qt++] = m
			}
		}
		for (n in path) {
			if (type[n] != "sw") continue
			print n, 0, path[n]
			for (p = 1; p <= nports[n]; p++) {
				if (!((n, p) in link)) continue
				split(link[n, p], pr, SUBSEP)
				if (type[pr[1]] == "sw") continue
				print n, p, path[n]
				# the CA port behind it, reached through it
				print pr[1], pr[2], path[n] "," p
			}
		}
		if (!(start in nports) || nswitch == 0)
			print start, 1, "0"
	}' "$1" | sort
}

# live_smp_pkeys PATH PORT: the P_Key table smpquery reads by directed
# route, as "0x7fff 0x8001" (index order, up to the last non-zero entry).
live_smp_pkeys() {
	LD_PRELOAD=$LIVE_PRELOAD smpquery -D pkeys "$1" "$2" | awk '
		/^ *[0-9]+:/ { for (i = 2; i <= NF; i++) k[n++] = $i }
		END {
			last = -1
			for (i = 0; i < n; i++) if (k[i] != "0x0000") last = i
			s = ""
			for (i = 0; i <= last; i++) s = s (i ? " " : "") k[i]
			print s
		}'
}

# live_check_tables TABLES_JSON TOPO: every port of `ibpart tables
# --format json` output holds exactly its predicted table, read back by
# the real smpquery by directed route.  Prints mismatches; returns the
# number of ports checked through LIVE_CHECKED.
live_check_tables() {
	local json=$1 topo=$2 bad=0 n=0
	local paths=$LIVE_DIR/paths.txt
	live_dr_paths "$topo" >"$paths"
	while read -r guid port want; do
		guid=$(echo "$guid" | sed 's/^0*//' | tr A-F a-f)
		local path
		path=$(awk -v g="$guid" -v p="$port" '$1 == g && $2 == p { print $3 }' "$paths")
		[[ -n $path ]] || { echo "no DR path to $guid port $port" >&2; bad=$((bad + 1)); continue; }
		local have
		have=$(live_smp_pkeys "$path" "$port")
		n=$((n + 1))
		if [[ "$have" != "$want" ]]; then
			echo "port $guid/$port ($path): smpquery reads [$have], predicted [$want]" >&2
			bad=$((bad + 1))
		fi
	done < <(jq -r '.ports[] | "\(.node_guid | ltrimstr("0x")) \(.port) \(.pkeys | join(" "))"' "$json")
	LIVE_CHECKED=$n
	return $bad
}

# live_topo_norm TOPO: the fabric of an ibnetdiscover/ibsim topology file
# reduced to what must agree between two discoveries of the same fabric:
#   N NODE_GUID TYPE NPORTS     one per node
#   L GUID PORT GUID PORT       one per link, lower end first
# Node ids ("H-…", "S-…", or names) are resolved to node GUIDs.
live_topo_norm() {
	awk '
	function g(s) { sub(/^0x/, "", s); sub(/\(.*/, "", s); sub(/^0+/, "", s); return tolower(s) }
	FNR == NR {
		if ($0 ~ /^(switchguid|caguid|rtguid)=/) { split($0, a, "="); pend = g(a[2]) }
		else if ($0 ~ /^(Switch|Ca|Rt)[ \t]/ && pend != "") {
			id = $0; sub(/^[^"]*"/, "", id); sub(/".*/, "", id)
			guid[id] = pend
			t = $1; np = $2
			print "N", pend, t, np
			pend = ""
		}
		next
	}
	/^(Switch|Ca|Rt)[ \t]/ { id = $0; sub(/^[^"]*"/, "", id); sub(/".*/, "", id); cur = guid[id]; next }
	/^\[[0-9]+\]/ && cur != "" {
		p = $0; sub(/^\[/, "", p); sub(/\].*/, "", p)
		peer = $0; sub(/^[^"]*"/, "", peer)
		pid = peer; sub(/".*/, "", pid)
		pp = peer; sub(/^[^"]*"/, "", pp); sub(/^\[/, "", pp); sub(/\].*/, "", pp)
		if (!(pid in guid)) { print "L?", cur, p, pid, pp; next }
		x = cur " " p; y = guid[pid] " " pp
		if (x > y) { t = x; x = y; y = t }
		print "L", x, y
	}
	/^$/ { cur = "" }' "$1" "$1" | sort -u
}
