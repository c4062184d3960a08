# live_lib.sh - the live-fabric layer over lib.sh, shared by
# tests/interop/test_live_*.sh and bench/bench_live.sh: a private ibsim
# (its own IBSIM_SOCKNAME, console on a fifo so a test can inject faults),
# an OpenSM on it, ibpart run through libumad2sim, and P_Key tables read
# back with the real smpquery by directed route.  Starting and stopping
# are lib.sh's (OpenSM stopped before ibsim, SIGKILL after 5 s), so a
# daemon hanging in its exit path cannot hang a test; everything started
# is stopped by the EXIT trap, also on failure.
#
# Source it, then call live_init.  Needs: ibsim, opensm, smpquery,
# ibnetdiscover, jq; IBPART (the binary) and IBP_SRC from CTest.

set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

live_skip() { ibp_skip "$@"; }
live_fail() { ibp_fail "$@"; }
live_ok() { echo "ok - $*"; }

live_init() {
	: "${IBPART:?IBPART must name the ibpart binary}"
	ibp_require jq
	ibp_init "live-$(basename "$0" .sh)"
	LIVE_PRELOAD=$IBP_UMAD2SIM
	LIVE_DIR=$IBP_WORK
}

# live_ibsim TOPO SIM_HOST [console]: stop the running simulator (and
# OpenSM) if any, start ibsim on TOPO with the tools bound to SIM_HOST.
# The console is always there (a fifo); "console" is kept for callers
# that say they use it.
live_ibsim() {
	ibp_osm_stop
	ibp_sim_stop
	IBP_SIM_HOST_USER=$2
	ibp_sim_start "$1"
	export SIM_HOST=$IBP_SIM_HOST
}

# live_sim_stop: stop OpenSM (if running) and ibsim now.
live_sim_stop() {
	ibp_osm_stop
	ibp_sim_stop
}

# live_osm_stop: stop OpenSM now, leave ibsim running.
live_osm_stop() { ibp_osm_stop; }

# live_sim_cmd "Error \"S-…\" 20": one line to ibsim's console.
live_sim_cmd() { ibp_sim_console "$1"; }

# live_opensm CONF: start OpenSM with CONF as its partition file (and an
# empty options file), wait for SUBNET UP; sets LIVE_OSM_PID,
# LIVE_OSM_LOG and LIVE_OSM_PIDFILE (which holds the pid).
live_opensm() {
	ibp_osm_start "$1"
	LIVE_OSM_PID=$IBP_OSM_PID
	LIVE_OSM_LOG=$IBP_OSM_LOG
	LIVE_OSM_PIDFILE=$LIVE_DIR/opensm.pid
	echo "$LIVE_OSM_PID" >"$LIVE_OSM_PIDFILE"
}

# live_ibpart ARGS...: run ibpart on the simulated fabric.
live_ibpart() {
	# apply's default state files and its lock stay in the test's own
	# directory (parallel tests on other ibsims share CA names)
	IBPART_STATE_DIR=${IBPART_STATE_DIR:-$LIVE_DIR/state} \
		IBPART_LOCK_DIR=${IBPART_LOCK_DIR:-$LIVE_DIR/lock} \
		LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$IBP_SIM_HOST "$IBPART" "$@"
}

# live_read_all: every end port's and every switch port's table as the
# real smpquery reads it by directed route, one "NODE_GUID PORT KEYS..."
# line per port (the fabric found by the real ibnetdiscover).
live_read_all() {
	LD_PRELOAD=$LIVE_PRELOAD ibnetdiscover >"$LIVE_DIR/read-all.ibnd" 2>/dev/null ||
		live_fail "ibnetdiscover failed"
	live_dr_paths "$LIVE_DIR/read-all.ibnd" | while read -r g p path; do
		echo "$g $p $(live_smp_pkeys "$path" "$p")"
	done
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
		p += 0
		if (p > nports[cur]) nports[cur] = p
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
