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
# remembered, as an `apply --state` file has it); ibpart gets the step's
# topology (the fabric as OpenSM sees it in that sweep), the same
# opensm.conf and the state file of the previous step.  A mismatch is shown (the plan history, the
# ports that differ) and counted.

SEQ_SEQS=0
SEQ_STEPS=0
SEQ_BAD_SEQS=0
SEQ_BAD_STEPS=0
SEQ_PORTS=0

# seq_compare OURS THEIRS: the ports that differ, one line each.
seq_compare()
{
	awk '
		NR == FNR { k = $1 " " $2; ours[k] = $0; next }
		{
			k = $1 " " $2; seen[k] = 1
			if (!(k in ours)) {
				print "  port " k ": OpenSM " substr($0, length(k) + 2) " | ibpart: not programmed"
				bad = 1
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
		}' "$1" "$2"
}

# seq_run BASE_TOPO DIR: one sequence.
seq_run()
{
	local topo=$1 d=$2 name args step i=0 n bad=0 rc
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
		cp "$d/$n.conf" "$conf"
		cp "$d/$n.osmconf" "$osmconf"
		if [ -f "$d/$n.restart" ]; then
			# a fresh OpenSM on the same fabric: the state keeps what
			# the ports hold, nothing of what OpenSM remembered
			ibp_osm_stop
			jq 'del(.ports[].remembered) | del(.opensm)' "$state" >"$state.new" &&
				mv "$state.new" "$state"
		fi
		"$IBPART" tables -t "$d/$n.topo" --format json --state "$state" \
			--opensm-conf "$osmconf" "${iargs[@]}" "$conf" \
			>"$w/$n.json" 2>"$w/$n.err"
		rc=$?
		if [ $rc -gt 1 ]; then
			cat "$w/$n.err" >&2
			ibp_fail "$name step $n: ibpart tables failed (exit $rc)"
		fi
		ibp_json_tables_normalize <"$w/$n.json" >"$w/$n.ours"
		while IFS= read -r line; do
			[ -n "$line" ] && ibp_sim_console "$line"
		done <"$d/$n.console"
		# the console is asynchronous: give ibsim the lines first
		[ -s "$d/$n.console" ] && sleep 0.2
		if [ "$n" = 00 ] || [ -f "$d/$n.restart" ]; then
			# shellcheck disable=SC2086
			ibp_osm_start "$conf" -F "$osmconf" $args
		else
			ibp_osm_hup
		fi
		ibp_read_pkeys '^(CA|RT) | (CA|RT|self)$' >"$w/$n.osm"
		SEQ_STEPS=$((SEQ_STEPS + 1))
		if ! seq_compare "$w/$n.ours" "$w/$n.osm" >"$w/$n.diff"; then
			bad=1
			SEQ_BAD_STEPS=$((SEQ_BAD_STEPS + 1))
			{
				echo "SEQUENCE $name ($args) differs at step $n:"
				for ((i = 0; i <= 10#$n; i++)); do
					printf '  step %02d: %s\n' "$i" "$(cat "$d/$(printf %02d $i).what")"
				done
				echo "  plan of step $n:"
				sed 's/^/    /' "$d/$n.conf"
				cat "$w/$n.diff"
			} >&2
			break
		fi
		SEQ_PORTS=$((SEQ_PORTS + $(wc -l <"$w/$n.osm")))
	done
	ibp_osm_stop
	ibp_sim_stop
	[ $bad = 0 ] || SEQ_BAD_SEQS=$((SEQ_BAD_SEQS + 1))
	return 0
}

# seq_run_all BASE_TOPO DIR: every sequence under DIR, in name order.
seq_run_all()
{
	local topo=$1 d
	for d in "$2"/*/; do
		[ -f "$d/seq.args" ] || continue
		seq_run "$topo" "${d%/}"
	done
}

seq_done()
{
	local what="$SEQ_SEQS sequences, $SEQ_STEPS steps ($SEQ_PORTS ports)"
	if [ "$SEQ_BAD_SEQS" -ne 0 ]; then
		ibp_fail "$SEQ_BAD_SEQS of $SEQ_SEQS sequences differ ($SEQ_BAD_STEPS steps; $what)"
	fi
	ibp_pass "$what identical to OpenSM, entry for entry"
}
