# tests/interop/seq_lib.sh - replay sequences of plans (written by
# seqgen.py) on ONE running OpenSM per sequence, and compare every step
# with `ibpart tables --state`, entry for entry and index for index.
#
# Usage (after sourcing lib.sh and ibp_init):
#     seq_run_all DIR      # every sequence directory under DIR
# then seq_done passes or fails the test.  Each sequence: a fresh ibsim
# on the base topology, OpenSM started on step 00 (with the sequence's
# seq.args), SIGHUP for each later step after the ibsim console lines of
# the step (Unlink, ReLink) and with the step's opensm.conf and
# partitions.conf in place (a step with NN.restart stops OpenSM and
# starts a new one instead, and ibpart's state loses what OpenSM
# remembered, as an `apply --state` file has it; a step with NN.crash is
# one OpenSM dies on, and the next starts a new one); ibpart gets the step's
# topology (the fabric as OpenSM sees it in that sweep), the same
# opensm.conf and the state file of the previous step.  A step that
# unlinks or relinks a CA is two sweeps: the one OpenSM runs on the
# switch's trap 128 (the previous plan, the fabric as it now is) and the
# SIGHUP; both are predicted and compared.  A mismatch is shown (the
# plan history, the ports that differ) and counted; seq_done reports the
# sweeps ("steps") compared.

SEQ_SEQS=0
SEQ_STEPS=0
SEQ_BAD_SEQS=0
SEQ_BAD_STEPS=0
SEQ_PORTS=0
SEQ_CRASHES=0

# seq_compare OURS THEIRS HELD: the ports that differ, one line each.  A
# port ibpart does not program (a switch port under part_enforce off)
# must hold what it held before the sweep (HELD, from the state file) or,
# never programmed, ibsim's initial 0xffff.
seq_compare()
{
	awk '
		FILENAME == ARGV[1] { k = $1 " " $2; ours[k] = $0; next }
		FILENAME == ARGV[2] { k = $1 " " $2; held[k] = $0; next }
		{
			k = $1 " " $2; seen[k] = 1
			if (!(k in ours)) {
				was = (k in held) ? held[k] : k " 0xffff"
				if ($0 != was) {
					print "  port " k ": OpenSM " substr($0, length(k) + 2) \
					      " | ibpart: not programmed, holds " substr(was, length(k) + 2)
					bad = 1
				}
			} else if (ours[k] != $0) {
				print "  port " k ": OpenSM " substr($0, length(k) + 2) \
				      " | ibpart " substr(ours[k], length(k) + 2)
				bad = 1
			}
		}
		END {
			for (k in ours) if (!(k in seen)) {
				print "  port " k ": ibpart " ours[k] " | not read back"
				bad = 1
			}
			exit bad
		}' "$1" "$3" "$2"
}

# seq_traps: how many trap 128 (link state change) lines OpenSM logged.
seq_traps() { grep -c 'trap 128' "$IBP_OSM_LOG" 2>/dev/null || true; }

# seq_type_console FILE: type FILE's ibsim console lines.
seq_type_console()
{
	local line
	while IFS= read -r line; do
		[ -n "$line" ] && ibp_sim_console "$line"
	done <"$1"
}

# seq_console_sweep FILE: type the ibsim console lines of FILE; a link
# that goes down or comes up makes the switch send trap 128, on which
# OpenSM runs a heavy sweep of its own - with the partitions.conf and
# opensm.conf still in place.  Waits until that sweep is over (no new
# trap for 0.5 s after the last SUBNET UP); returns 1 when no trap came,
# 2 when OpenSM died in that sweep (seq_wait_up: counted, reported).
seq_console_sweep()
{
	local t0 n0 i
	t0=$(seq_traps)
	n0=$(grep -c 'SUBNET UP' "$IBP_OSM_LOG")
	seq_type_console "$1"
	for ((i = 0; i < 150; i++)); do
		[ "$(seq_traps)" -gt "$t0" ] && break
		sleep 0.02
	done
	[ "$(seq_traps)" -gt "$t0" ] || return 1
	while :; do
		t0=$(seq_traps)
		seq_wait_up $((n0 + 1)) || return 2
		sleep 0.5
		[ "$(seq_traps)" = "$t0" ] && break
		n0=$(grep -c 'SUBNET UP' "$IBP_OSM_LOG")
	done
	return 0
}

# seq_start [WAITER]: ibp_osm_start for the step, but an OpenSM that
# dies before SUBNET UP is a difference of this sequence, reported, not
# the end of the run (seq_hup's rule): lib.sh's wait is swapped for
# WAITER (default seq_wait_up; `true` for a start awaited otherwise)
# while OpenSM starts.
seq_start()
{
	local waiter=${1:-seq_wait_up} saved rc=0
	saved=$(declare -f ibp_osm_wait_up)
	ibp_osm_wait_up() { "$waiter" "$@"; }
	# shellcheck disable=SC2086
	ibp_osm_start "$conf" -F "$osmconf" $args || rc=$?
	eval "$saved"
	return "$rc"
}

# seq_wait_up N: wait (with a deadline) for N "SUBNET UP" lines; 1 when
# OpenSM died first (counted and reported as a difference).
seq_wait_up()
{
	local n=${1:-1} i
	for ((i = 0; i < IBP_OSM_TIMEOUT * 50; i++)); do
		[ "$(grep -c 'SUBNET UP' "$IBP_OSM_LOG")" -ge "$n" ] && return 0
		if ! kill -0 "$IBP_OSM_PID" 2>/dev/null; then
			wait "$IBP_OSM_PID" 2>/dev/null
			IBP_OSM_PID=""
			SEQ_BAD_STEPS=$((SEQ_BAD_STEPS + 1))
			SEQ_STEPS=$((SEQ_STEPS + 1))
			echo "SEQUENCE $name ($args) sweep $tag: OpenSM died, ibpart did not say so" >&2
			return 1
		fi
		sleep 0.02
	done
	ibp_fail "OpenSM not up after ${IBP_OSM_TIMEOUT}s"
}

# seq_hup: ibp_osm_hup, with seq_wait_up's rule.
seq_hup()
{
	local n
	n=$(grep -c 'SUBNET UP' "$IBP_OSM_LOG")
	kill -HUP "$IBP_OSM_PID" || ibp_fail "OpenSM not running"
	seq_wait_up $((n + 1))
}

# seq_crash TAG [CONSOLE]: a sweep OpenSM dies in (NN.crash, or ibpart's
# opensm-crash): ibpart must have said so; SIGHUP (or, given a console
# FILE, its link change), then seq_death.  The ports then hold what
# they held.
seq_crash()
{
	local tag=$1 console=${2:-}
	seq_said_crash "$tag"
	if [ -n "$console" ]; then
		seq_type_console "$console"
	else
		kill -HUP "$IBP_OSM_PID" || ibp_fail "$name sweep $tag: OpenSM not running"
	fi
	seq_death "$tag"
}

# seq_crash_start TAG: a fresh OpenSM that dies in its first sweep (the
# file it starts on is one ibpart says kills it: rule 29 within one
# sweep), started as seq_start does, then seq_death.
seq_crash_start()
{
	seq_said_crash "$1"
	seq_start true
	seq_death "$1"
}

seq_said_crash()
{
	local err
	err=$(cat "$w/$1.err")
	[[ $err == *"[opensm-crash]"* ]] ||
		ibp_fail "$name sweep $1: ibpart does not say OpenSM dies: $err"
}

# seq_death TAG: wait (with a deadline) for OpenSM to end, by a signal,
# without a SUBNET UP after the signal or start; counted.
seq_death()
{
	local tag=$1 i st=0
	for ((i = 0; i < IBP_OSM_TIMEOUT * 50; i++)); do
		kill -0 "$IBP_OSM_PID" 2>/dev/null || break
		sleep 0.02
	done
	kill -0 "$IBP_OSM_PID" 2>/dev/null &&
		ibp_fail "$name sweep $tag: OpenSM still runs ${IBP_OSM_TIMEOUT}s after the sweep began"
	wait "$IBP_OSM_PID" || st=$?
	IBP_OSM_PID=""
	[ "$st" -gt 128 ] ||
		ibp_fail "$name sweep $tag: OpenSM ended with status $st, not by a signal"
	SEQ_CRASHES=$((SEQ_CRASHES + 1))
}

# seq_sweep NAME TOPO FN [CONSOLE]: predict a sweep with ibpart (the
# partitions.conf and opensm.conf in place, the state carried), let FN
# run it (start, hup, or console: the link change of the file CONSOLE,
# on whose trap OpenSM sweeps with the plan in place - the prediction is
# dropped when no trap comes), read the fabric, compare.  A sweep ibpart
# says OpenSM dies in is awaited as such.  1 on a difference (reported).
seq_sweep()
{
	local tag=$1 stopo=$2 fn=$3 console=${4:-} rc crc=0
	[ "$fn" = console ] && cp "$state" "$w/$tag.state-before"
	: >"$w/$tag.held"
	if [ -f "$state" ]; then
		jq -r '.ports[] | select(.pkeys) |
			([.port_guid, (.port|tostring)] + .pkeys) | join(" ")' \
			"$state" >"$w/$tag.held" ||
			ibp_fail "$name sweep $tag: the state file does not read"
	fi
	"$IBPART" tables -t "$stopo" --format json --state "$state" \
		--opensm-conf "$osmconf" "${iargs[@]}" "$conf" \
		>"$w/$tag.json" 2>"$w/$tag.err"
	rc=$?
	if [ $rc -gt 1 ]; then
		cat "$w/$tag.err" >&2
		ibp_fail "$name sweep $tag: ibpart tables failed (exit $rc)"
	fi
	ibp_json_tables_normalize <"$w/$tag.json" >"$w/$tag.ours"
	# a sweep ibpart says OpenSM dies in (rule 29); a step written to
	# show one (NN.crash) must be one
	if [[ $fn == @(start|hup|console) ]] && [[ $(cat "$w/$tag.err") == *"[opensm-crash]"* ]]; then
		fn=crash-$fn
	fi
	if [ -f "$d/$tag.crash" ] && [[ $fn != crash-* ]]; then
		ibp_fail "$name sweep $tag: ibpart does not say OpenSM dies here"
	fi
	case $fn in
	start) seq_start || return 1 ;;
	hup) seq_hup || return 1 ;;
	console)
		seq_console_sweep "$console" || crc=$?
		[ $crc = 2 ] && return 1
		if [ $crc = 1 ]; then
			# no trap, no sweep: nothing happened to predict
			mv "$w/$tag.state-before" "$state"
			return 0
		fi
		;;
	crash-start) seq_crash_start "$tag" ;;
	crash-hup) seq_crash "$tag" ;;
	crash-console) seq_crash "$tag" "$console" ;;
	esac
	ibp_read_pkeys '^(CA|RT) | (CA|RT|self)$' >"$w/$tag.osm"
	SEQ_STEPS=$((SEQ_STEPS + 1))
	if ! seq_compare "$w/$tag.ours" "$w/$tag.osm" "$w/$tag.held" >"$w/$tag.diff"; then
		SEQ_BAD_STEPS=$((SEQ_BAD_STEPS + 1))
		{
			echo "SEQUENCE $name ($args) differs at sweep $tag:"
			for ((i = 0; i <= 10#${tag%%[!0-9]*}; i++)); do
				printf '  step %02d: %s\n' "$i" "$(cat "$d/$(printf %02d $i).what")"
			done
			echo "  plan of that sweep:"
			sed 's/^/    /' "$conf"
			cat "$w/$tag.diff"
		} >&2
		return 1
	fi
	SEQ_PORTS=$((SEQ_PORTS + $(wc -l <"$w/$tag.osm")))
	return 0
}

# seq_run BASE_TOPO DIR: one sequence.
seq_run()
{
	local topo=$1 d=$2 name args step n bad=0
	name=$(basename "$d")
	read -r args <"$d/seq.args" || args=""
	local w="$IBP_WORK/seq-$name"
	mkdir -p "$w"
	local conf="$w/partitions.conf" state="$w/state.json"
	local osmconf="$IBP_WORK/opensm.conf"
	local iargs=()
	[ "$args" = "-W" ] && iargs+=(--allow-both-pkeys)
	ibp_sim_start "$topo"
	SEQ_SEQS=$((SEQ_SEQS + 1))
	for step in "$d"/[0-9][0-9].conf; do
		n=$(basename "$step" .conf)
		# a link change first: OpenSM sweeps on its trap with the
		# previous plan, on the fabric as it now is - one more sweep
		# to predict
		if [ -s "$d/$n.console" ] && [ -z "$IBP_OSM_PID" ]; then
			# no OpenSM (it died on the step before): the link
			# changes with nobody to sweep; the next start sees it
			seq_type_console "$d/$n.console"
		elif [ -s "$d/$n.console" ]; then
			seq_sweep "$n-trap" "$d/$n.topo" console "$d/$n.console" ||
				{ bad=1; break; }
		fi
		cp "$d/$n.conf" "$conf"
		cp "$d/$n.osmconf" "$osmconf"
		if [ -f "$d/$n.restart" ]; then
			# a fresh OpenSM on the same fabric: the state keeps what
			# the ports hold, nothing of what OpenSM remembered
			ibp_osm_stop
			jq 'del(.ports[].remembered) | del(.opensm)' "$state" >"$state.new" &&
				mv "$state.new" "$state"
		fi
		if [ "$n" = 00 ] || [ -f "$d/$n.restart" ] || [ -z "$IBP_OSM_PID" ]; then
			# (no OpenSM: it died on the step before)
			seq_sweep "$n" "$d/$n.topo" start || { bad=1; break; }
		else
			seq_sweep "$n" "$d/$n.topo" hup || { bad=1; break; }
		fi
	done
	ibp_osm_stop
	ibp_sim_stop
	[ $bad = 0 ] || SEQ_BAD_SEQS=$((SEQ_BAD_SEQS + 1))
	return 0
}

# seq_run_all BASE_TOPO DIR: every sequence under DIR, in name order
# (only those whose name matches the glob IBP_SEQ_ONLY when it is set).
seq_run_all()
{
	local topo=$1 d
	for d in "$2"/*/; do
		[ -f "$d/seq.args" ] || continue
		# shellcheck disable=SC2053
		[[ $(basename "$d") == ${IBP_SEQ_ONLY:-*} ]] || continue
		seq_run "$topo" "${d%/}"
	done
}

seq_done()
{
	local what="$SEQ_SEQS sequences, $SEQ_STEPS steps ($SEQ_PORTS ports, OpenSM crashes predicted: $SEQ_CRASHES)"
	if [ "$SEQ_BAD_SEQS" -ne 0 ]; then
		ibp_fail "$SEQ_BAD_SEQS of $SEQ_SEQS sequences differ ($SEQ_BAD_STEPS steps; $what)"
	fi
	ibp_pass "$what identical to OpenSM, entry for entry"
}
