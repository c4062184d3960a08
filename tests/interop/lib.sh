# tests/interop/lib.sh - the harness every interop test sources: it starts
# a private ibsim fabric and (optionally) the real OpenSM on it, runs the
# real infiniband-diags against it, reads back every port's P_KeyTable in
# one normalized text form, and tears everything down on exit - also when
# the test fails or is interrupted.
#
# Usage (in a test):
#     . "$(dirname "$0")/lib.sh"
#     ibp_init NAME                 # work dir, socket name, cleanup trap
#     ibp_sim_start TOPO            # ibsim on TOPO, waits until it is ready
#     ibp_osm_start CONF [ARGS...]  # OpenSM with partitions.conf CONF, waits
#                                   # for SUBNET UP (fails after a timeout)
#     ibp_read_pkeys > tables.txt   # "<port guid> <port> <pkey0> <pkey1> ..."
#     ibp_sim_run smpquery pkeys 3 1
#     ibp_pass                      # or ibp_fail "message"
#
# Everything is private to the test: ibsim listens on its own
# IBSIM_SOCKNAME (ibp-<pid>-NAME), OpenSM's cache, log and dumps go into a
# mktemp directory ($IBP_WORK, removed on success, kept on failure when
# IBP_KEEP=1).  Tests that cannot find opensm/ibsim/smpquery/libumad2sim
# exit 77 (ctest "skipped" when SKIP_RETURN_CODE is set; otherwise a plain
# failure) - they never pretend to pass.
#
# Knobs (environment): IBP_SIM_TIMEOUT (s, default 10), IBP_OSM_TIMEOUT
# (s, default 20), IBP_KEEP=1 (keep $IBP_WORK), IBP_SIM_HOST_USER (the
# node the tools and OpenSM bind to; default the topology's first CA; set
# and empty: ibsim's own default, the file's first node),
# IBP_READ_JOBS (parallel smpquery processes, default 6; ibsim takes at
# most 10 clients at once, OpenSM is one of them).

IBP_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IBP_SRC=${IBP_SRC:-$(cd "$IBP_LIB_DIR/../.." && pwd)}
IBP_SIM_TIMEOUT=${IBP_SIM_TIMEOUT:-10}
IBP_OSM_TIMEOUT=${IBP_OSM_TIMEOUT:-20}
IBP_READ_JOBS=${IBP_READ_JOBS:-6}

IBP_NAME=""
IBP_WORK=""
IBP_SIM_PID=""
IBP_OSM_PID=""
IBP_OSM_LOG=""
IBP_SIM_LOG=""
IBP_SIM_CONSOLE_FD=""
IBP_FAILED=0

ibp_log() { echo "[$IBP_NAME] $*" >&2; }

# ibp_fail MESSAGE: report, show the logs that explain it, exit 1 (the
# trap then cleans up).
ibp_fail()
{
	IBP_FAILED=1
	echo "FAIL [$IBP_NAME]: $*" >&2
	if [ -n "$IBP_OSM_LOG" ] && [ -f "$IBP_OSM_LOG" ]; then
		echo "--- last lines of the OpenSM log ($IBP_OSM_LOG) ---" >&2
		tail -n 15 "$IBP_OSM_LOG" >&2
	fi
	exit 1
}

ibp_pass() { echo "PASS [$IBP_NAME]${1:+: $1}"; exit 0; }

# ibp_skip MESSAGE: the environment lacks a tool; exit 77.
ibp_skip() { echo "SKIP [$IBP_NAME]: $*" >&2; exit 77; }

ibp_require()
{
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || ibp_skip "$t not installed"
	done
}

# The preload library that makes libibumad talk to ibsim.
ibp_umad2sim()
{
	local p
	for p in /usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so \
		 /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so; do
		[ -f "$p" ] && { echo "$p"; return 0; }
	done
	p=$(dpkg -L libumad2sim0 2>/dev/null || true)
	p=$(grep -m1 'libumad2sim.so$' <<<"$p" || true)
	[ -n "$p" ] && [ -f "$p" ] && { echo "$p"; return 0; }
	return 1
}

ibp_cleanup()
{
	local rc=$?
	set +e
	ibp_osm_stop
	ibp_sim_stop
	if [ -n "$IBP_WORK" ] && [ -d "$IBP_WORK" ]; then
		if [ "$rc" -ne 0 ] || [ "$IBP_FAILED" -ne 0 ]; then
			if [ "${IBP_KEEP:-0}" = 1 ]; then
				echo "[$IBP_NAME] work dir kept: $IBP_WORK" >&2
			else
				rm -rf "$IBP_WORK"
			fi
		else
			rm -rf "$IBP_WORK"
		fi
	fi
	return "$rc"
}

# ibp_init NAME: set up the private work dir, socket name and traps.
ibp_init()
{
	IBP_NAME=${1:?ibp_init NAME}
	ibp_require ibsim opensm smpquery ibnetdiscover
	IBP_UMAD2SIM=$(ibp_umad2sim) || ibp_skip "libumad2sim (ibsim-utils) not installed"
	# libumad2sim builds a fake sysfs in the client's working directory
	# for every process: on tmpfs a smpquery takes 30 ms, on disk 180 ms.
	local base=${IBP_TMPDIR:-}
	if [ -z "$base" ]; then
		if [ -d /dev/shm ] && [ -w /dev/shm ]; then base=/dev/shm; else base=${TMPDIR:-/tmp}; fi
	fi
	IBP_WORK=$(mktemp -d "$base/ibp-$IBP_NAME.XXXXXX") || ibp_fail "mktemp"
	IBP_SRC=$(cd "$IBP_SRC" && pwd)
	export IBSIM_SOCKNAME="ibp-$$-$IBP_NAME"
	export OSM_TMP_DIR="$IBP_WORK/osm" OSM_CACHE_DIR="$IBP_WORK/osm"
	mkdir -p "$OSM_TMP_DIR"
	# every client (OpenSM, smpquery, ibpart under libumad2sim) starts
	# here, so its fake sysfs (sys-PID/) lands in the work dir, never in
	# the build tree or the source tree the test was started from
	cd "$IBP_WORK" || ibp_fail "cd $IBP_WORK"
	trap ibp_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# Is ibsim's control socket (abstract unix socket "@NAME:ctl") up?
ibp_sim_listening()
{
	grep -q "@$IBSIM_SOCKNAME:ctl" /proc/net/unix 2>/dev/null
}

# ibp_first_ca TOPO: the node id of the first CA in a topology file.
ibp_first_ca()
{
	awk '/^[ \t]*(Ca|Hca|Rt)[ \t]/ { if (match($0, /"[^"]*"/)) {
		print substr($0, RSTART + 1, RLENGTH - 2); exit } }' "$1"
}

# ibp_sim_start TOPO: start ibsim on TOPO (console on a fifo, see
# ibp_sim_console) and wait until it accepts clients.  IBP_SIM_ARGS adds
# options, e.g. ibsim's node/switch/port limits (-N -S -P) for a fabric
# larger than its defaults (2048 nodes).
ibp_sim_start()
{
	local topo=${1:?ibp_sim_start TOPO} i
	[ -f "$topo" ] || ibp_fail "no topology $topo"
	IBP_SIM_TOPO=$topo
	# IBP_SIM_HOST_USER unset: the first CA; set but empty: ibsim's
	# own default, the file's first node (a switch, in some nets)
	if [ -n "${IBP_SIM_HOST_USER+set}" ]; then
		IBP_SIM_HOST=$IBP_SIM_HOST_USER
	else
		IBP_SIM_HOST=$(ibp_first_ca "$topo")
		[ -n "$IBP_SIM_HOST" ] || ibp_fail "no CA in $topo"
	fi
	IBP_SIM_SEQ=$((${IBP_SIM_SEQ:-0} + 1))
	IBP_SIM_LOG="$IBP_WORK/ibsim.$IBP_SIM_SEQ.log"
	local fifo="$IBP_WORK/ibsim.$IBP_SIM_SEQ.console"
	mkfifo "$fifo"
	# shellcheck disable=SC2086 # IBP_SIM_ARGS is a list of options
	ibsim ${IBP_SIM_ARGS:-} -s "$topo" <"$fifo" >"$IBP_SIM_LOG" 2>&1 &
	IBP_SIM_PID=$!
	# Hold the console open for writing so ibsim never sees EOF.
	exec {IBP_SIM_CONSOLE_FD}>"$fifo"
	for ((i = 0; i < IBP_SIM_TIMEOUT * 50; i++)); do
		kill -0 "$IBP_SIM_PID" 2>/dev/null ||
			{ cat "$IBP_SIM_LOG" >&2; IBP_SIM_PID=""; ibp_fail "ibsim exited"; }
		if ibp_sim_listening && grep -q "simulator ready" "$IBP_SIM_LOG"; then
			return 0
		fi
		sleep 0.02
	done
	ibp_fail "ibsim not ready after ${IBP_SIM_TIMEOUT}s"
}

# ibp_sim_console COMMAND...: type a line at ibsim's console (Unlink,
# ReLink, Error, Clear, Guid ... see its `help`) and return once ibsim has
# carried it out; its output lands in $IBP_SIM_LOG.  ibsim reads its
# console one line at a time, so a word it does not know typed after the
# command is answered ("command 'W' unknown") only when the command is
# done: that answer is the event waited for (IBP_SIM_TIMEOUT seconds).
ibp_sim_console()
{
	[ -n "$IBP_SIM_CONSOLE_FD" ] || ibp_fail "ibsim not running"
	IBP_SIM_CONSOLE_SEQ=$((${IBP_SIM_CONSOLE_SEQ:-0} + 1))
	local mark="ibpart-sync-$IBP_SIM_CONSOLE_SEQ" i
	printf '%s\n%s\n' "$*" "$mark" >&"$IBP_SIM_CONSOLE_FD"
	for ((i = 0; i < IBP_SIM_TIMEOUT * 100; i++)); do
		grep -qF "'$mark' unknown" "$IBP_SIM_LOG" && return 0
		kill -0 "$IBP_SIM_PID" 2>/dev/null || ibp_fail "ibsim exited at '$*'"
		sleep 0.01
	done
	ibp_fail "ibsim did not carry out '$*' in ${IBP_SIM_TIMEOUT}s"
}

# ibp_stop_pid PID: SIGTERM, up to 5 s to exit, then SIGKILL; reaps it.
# Never fails (it runs in the EXIT trap, also under set -e): a daemon that
# hangs in its exit path must not hang the test until CTest's timeout.
ibp_stop_pid()
{
	local pid=$1 i
	[ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null || true
	for ((i = 0; i < 250; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

ibp_sim_stop()
{
	if [ -n "$IBP_SIM_CONSOLE_FD" ]; then
		exec {IBP_SIM_CONSOLE_FD}>&-
		IBP_SIM_CONSOLE_FD=""
	fi
	ibp_stop_pid "$IBP_SIM_PID"
	IBP_SIM_PID=""
}

# ibp_sim_run CMD...: run CMD as a client of our ibsim, bound to
# $IBP_SIM_HOST's port (SIM_HOST), through libumad2sim.  It runs in
# $IBP_WORK (libumad2sim's fake sysfs lands there), so give it absolute
# paths.
ibp_sim_run()
{
	# exec: the pid a caller gets with $! is the tool's own (OpenSM's,
	# for SIGHUP and for the kill at cleanup), not a subshell's
	(cd "$IBP_WORK" && LD_PRELOAD="$IBP_UMAD2SIM" SIM_HOST="$IBP_SIM_HOST" exec "$@")
}

# ibp_osm_start CONF [OPENSM ARGS...]: start OpenSM with partition file
# CONF (use /dev/null-like "" for none), sweeping off, log flushed per line,
# and wait for "SUBNET UP".  An empty options file is passed with -F unless
# the caller gives its own -F, so /etc/opensm/opensm.conf never leaks in.
ibp_osm_start()
{
	local conf=$1 i
	shift
	[ -z "$conf" ] || conf=$(realpath "$conf")
	local args=(-d 2 -f "$IBP_WORK/opensm.log" -s 0) g
	g=$(ibp_sim_host_guid)
	[ -n "$g" ] && args+=(-g "$g")
	[ -n "$conf" ] && args+=(-P "$conf")
	case " $* " in
	*" -F "* | *" --config "*) ;;
	*)
		: >"$IBP_WORK/opensm.conf"
		args+=(-F "$IBP_WORK/opensm.conf")
		;;
	esac
	IBP_OSM_LOG="$IBP_WORK/opensm.log"
	: >"$IBP_OSM_LOG"
	rm -rf "$OSM_TMP_DIR" && mkdir -p "$OSM_TMP_DIR"
	# not through ibp_sim_run: a backgrounded function is one more
	# subshell, and $! must be OpenSM itself (SIGHUP, the final kill)
	(cd "$IBP_WORK" && LD_PRELOAD="$IBP_UMAD2SIM" SIM_HOST="$IBP_SIM_HOST" \
		exec opensm "${args[@]}" "$@") >"$IBP_WORK/opensm.out" 2>&1 &
	IBP_OSM_PID=$!
	ibp_osm_wait_up 1
}

# ibp_osm_wait_up N: wait until the OpenSM log shows N "SUBNET UP" lines
# (a heavy sweep after SIGHUP logs another one).
ibp_osm_wait_up()
{
	local n=${1:-1} i
	for ((i = 0; i < IBP_OSM_TIMEOUT * 50; i++)); do
		if [ "$(grep -c 'SUBNET UP' "$IBP_OSM_LOG" 2>/dev/null)" -ge "$n" ]; then
			return 0
		fi
		if ! kill -0 "$IBP_OSM_PID" 2>/dev/null; then
			cat "$IBP_WORK/opensm.out" >&2
			IBP_OSM_PID=""
			ibp_fail "OpenSM exited before SUBNET UP"
		fi
		sleep 0.02
	done
	ibp_fail "OpenSM not up after ${IBP_OSM_TIMEOUT}s"
}

# ibp_osm_hup: make the running OpenSM re-read its partition file and
# re-sweep; wait for the next SUBNET UP.
ibp_osm_hup()
{
	local n
	n=$(grep -c 'SUBNET UP' "$IBP_OSM_LOG")
	kill -HUP "$IBP_OSM_PID" || ibp_fail "OpenSM not running"
	ibp_osm_wait_up $((n + 1))
}

# OpenSM first, then ibsim: OpenSM's exit path talks to the simulator.
ibp_osm_stop()
{
	ibp_stop_pid "$IBP_OSM_PID"
	IBP_OSM_PID=""
}

# ibp_osm_log_has REGEX: does OpenSM's log contain a line matching REGEX?
ibp_osm_log_has() { grep -qE -- "$1" "$IBP_OSM_LOG"; }

# ibp_ports: every port of the fabric as "<type> <lid> <port> <port guid>
# <peer>" (type CA, SW or RT; peer: the type at the other end of the link
# - CA, SW or RT -, "self" for a switch's port 0, "down" for a switch port
# without a link): CA/router ports that are linked, and every port of
# every switch including port 0 and unlinked ones.  Needs LIDs (after
# SUBNET UP).
ibp_ports()
{
	ibp_sim_run ibnetdiscover -p 2>/dev/null | awk '
		$1 == "CA" || $1 == "SW" || $1 == "RT" {
			g = tolower($4)
			peer = "down"
			for (i = 5; i < NF; i++) if ($i == "-") { peer = $(i + 1); break }
			print $1, $2, $3, g, peer
			if ($1 == "SW" && !(g in sw)) {
				sw[g] = 1
				print "SW", $2, 0, g, "self"
			}
		}' | sort -u -k4,4 -k3,3n
}

# ibp_read_pkeys [FILTER]: read every port's P_KeyTable with smpquery (CA
# ports, switch port 0, every switch external port) and print one
# normalized line per port, sorted by GUID then port number.  FILTER, a
# regex, limits it to the ibp_ports lines that match (e.g. '^(CA|RT) | (CA|RT|self)$':
# only end ports and switch ports facing one).
ibp_read_pkeys()
{
	local filter=${1:-.} ports
	ports="$IBP_WORK/ports.$RANDOM"
	ibp_ports | grep -E -- "$filter" | awk '{ print $2, $3, $4 }' >"$ports"
	[ -s "$ports" ] || { rm -f "$ports"; ibp_fail "no ports discovered"; }
	ibp_read_tables "" "$ports"
	rm -f "$ports"
}

# ibp_read_tables FLAG LIST: the P_KeyTable of every port LIST names, a
# line "ADDRESS PORT GUID" each (ADDRESS a LID, or with FLAG -D a
# directed route), read with `smpquery FLAG pkeys`, IBP_READ_JOBS at
# once: one normalized line a port, sorted by GUID then port.  Fails the
# test when a read fails.  One smpquery process a port and nothing else
# forked for it (a subshell and an awk a port cost twice the query
# itself); one awk normalizes them all at the end.
ibp_read_tables()
{
	local flag=$1 list=$2 tmp n i rc=0 files=()
	tmp="$IBP_WORK/read.$RANDOM"
	mkdir -p "$tmp"
	(
		cd "$IBP_WORK" || exit 1
		export LD_PRELOAD="$IBP_UMAD2SIM" SIM_HOST="$IBP_SIM_HOST"
		n=0 rc=0 pids=()
		while read -r addr port _; do
			# shellcheck disable=SC2086 # FLAG: empty or one option
			smpquery $flag pkeys "$addr" "$port" >"$tmp/$n.out" 2>"$tmp/$n.err" &
			pids+=($!)
			n=$((n + 1))
			if ((${#pids[@]} >= IBP_READ_JOBS)); then
				for p in "${pids[@]}"; do wait "$p" || rc=1; done
				pids=()
			fi
		done <"$list"
		for p in "${pids[@]}"; do wait "$p" || rc=1; done
		exit "$rc"
	) || rc=1
	n=$(wc -l <"$list")
	if [ "$rc" -ne 0 ]; then
		for ((i = 0; i < n; i++)); do
			[ -s "$tmp/$i.err" ] &&
				echo "smpquery $flag pkeys $(sed -n "$((i + 1))p" "$list" | cut -d' ' -f1,2) failed: $(cat "$tmp/$i.err")" >&2
		done
		rm -rf "$tmp"
		ibp_fail "reading P_KeyTables failed"
	fi
	for ((i = 0; i < n; i++)); do files+=("$tmp/$i.out"); done
	awk '
		function flush(   i, last, line) {
			if (cur == "") return
			last = -1
			for (i = 0; i < nk; i++) if (k[i] != "0x0000") last = i
			line = guid[cur] " " port[cur]
			for (i = 0; i <= last; i++) line = line " " k[i]
			print line
			cur = ""
		}
		FILENAME == ARGV[1] { guid[FNR - 1] = $3; port[FNR - 1] = $2; next }
		FNR == 1 {
			flush()
			cur = FILENAME; sub(/.*\//, "", cur); sub(/\.out$/, "", cur)
			nk = 0
		}
		/^ *[0-9]+:/ { for (i = 2; i <= NF; i++) k[nk++] = $i }
		END { flush() }' "$list" "${files[@]}" | sort -k1,1 -k2,2n
	rm -rf "$tmp"
}

# ibp_expect_eq WHAT EXPECTED ACTUAL: compare two texts, show a diff.
ibp_expect_eq()
{
	if [ "$2" != "$3" ]; then
		echo "--- expected $1" >&2
		diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") >&2
		ibp_fail "$1 differs"
	fi
}

# ibp_json_tables_normalize: `ibpart tables --format json` on stdin -> the
# normalized form of ibp_read_pkeys, sorted the same way.
ibp_json_tables_normalize()
{
	jq -r '.ports[] | ([.port_guid, (.port|tostring)] + .pkeys) | join(" ")' |
		sort -k1,1 -k2,2n
}

# ibp_sim_host_guid: the port GUID of $IBP_SIM_HOST's port 1 (OpenSM binds
# to it; without -g it would ask on a terminal when a CA has 2 ports).
ibp_sim_host_guid()
{
	awk -v id="$IBP_SIM_HOST" '
		/^[ \t]*(Ca|Hca|Rt)[ \t]/ { cur = ($0 ~ "\"" id "\"") ; next }
		/^(caguid|rtguid)=/ { g = substr($0, index($0, "=") + 1) }
		cur && /^\[1\]/ {
			if (match($0, /\((0x)?[0-9a-fA-F]+\)/)) {
				g = substr($0, RSTART + 1, RLENGTH - 2)
				sub(/^0x/, "", g); print "0x" g; exit
			}
		}' "$IBP_SIM_TOPO"
}

# ---- parity: ibpart's predicted tables against what OpenSM programs ----

IBP_PARITY_CASES=0
IBP_PARITY_FAILED=0
IBP_PARITY_PORTS=0

# ibp_parity NAME TOPO CONF [IBPART ARGS...] [-- OPENSM ARGS...]
# Predict with `ibpart tables --format json`, then run OpenSM with CONF on
# a fresh ibsim of TOPO, read every linked port with smpquery and compare:
# each port ibpart lists must hold exactly ibpart's table (entry for
# entry, index for index); every other port must be untouched (ibsim's
# initial 0xffff).  A mismatch is reported and counted; ibp_parity_done
# fails the test if any case differed.  IBP_PARITY_OSM_CONF, when set,
# is the file OpenSM reads instead of CONF.
ibp_parity()
{
	local name=$1 topo=$2 conf=$3 a seen=0 rc
	shift 3
	local iargs=() oargs=()
	for a in "$@"; do
		if [ "$a" = "--" ] && [ $seen = 0 ]; then seen=1; continue; fi
		if [ $seen = 0 ]; then iargs+=("$a"); else oargs+=("$a"); fi
	done
	local d="$IBP_WORK/case-$name"
	mkdir -p "$d"
	: "${IBPART:?IBPART must name the ibpart binary (CTest sets it)}"
	"$IBPART" tables -t "$topo" --format json "${iargs[@]}" "$conf" \
		>"$d/ours.json" 2>"$d/ours.err"
	rc=$?
	IBP_PARITY_CASES=$((IBP_PARITY_CASES + 1))
	if [ $rc -gt 1 ]; then
		cat "$d/ours.err" >&2
		echo "PARITY $name: ibpart tables failed (exit $rc)" >&2
		IBP_PARITY_FAILED=$((IBP_PARITY_FAILED + 1))
		return 1
	fi
	ibp_json_tables_normalize <"$d/ours.json" >"$d/ours.txt"
	ibp_sim_start "$topo"
	# IBP_PARITY_OSM_CONF: the file OpenSM reads, when it is not the
	# plan ibpart predicts from (a rendering of it: --vf-guids physical)
	ibp_osm_start "${IBP_PARITY_OSM_CONF:-$conf}" "${oargs[@]}"
	ibp_read_pkeys "${IBP_PARITY_FILTER:- (CA|SW|RT|self)$}" >"$d/theirs.txt"
	cp "$IBP_OSM_LOG" "$d/opensm.log"
	ibp_osm_stop
	ibp_sim_stop
	if ! awk '
		NR == FNR { k = $1 " " $2; ours[k] = $0; next }
		{
			k = $1 " " $2; seen[k] = 1
			if (k in ours) {
				if (ours[k] != $0) {
					print "  port " k ": OpenSM " substr($0, length(k) + 2) \
					      " | ibpart " substr(ours[k], length(k) + 2)
					bad = 1
				}
			} else if ($0 != k " 0xffff") {
				print "  port " k ": OpenSM " substr($0, length(k) + 2) \
				      " | ibpart: untouched (0xffff)"
				bad = 1
			}
		}
		END {
			for (k in ours) if (!(k in seen)) {
				print "  port " k ": ibpart " ours[k] " | not read back from the fabric"
				bad = 1
			}
			exit bad
		}' "$d/ours.txt" "$d/theirs.txt" >"$d/diff"; then
		echo "PARITY $name: DIFFERS ($(basename "$topo"), $(basename "$conf") ${iargs[*]} -- ${oargs[*]})" >&2
		cat "$d/diff" >&2
		IBP_PARITY_FAILED=$((IBP_PARITY_FAILED + 1))
		return 1
	fi
	local n
	n=$(wc -l <"$d/ours.txt")
	IBP_PARITY_PORTS=$((IBP_PARITY_PORTS + n))
	echo "PARITY $name: $n programmed ports identical ($(wc -l <"$d/theirs.txt") read)"
}

# ibp_parity_done: pass or fail the test on the cases run.
ibp_parity_done()
{
	if [ "$IBP_PARITY_FAILED" -ne 0 ]; then
		ibp_fail "$IBP_PARITY_FAILED of $IBP_PARITY_CASES parity cases differ"
	fi
	ibp_pass "$IBP_PARITY_CASES parity cases, $IBP_PARITY_PORTS programmed ports identical"
}
