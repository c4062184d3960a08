#!/bin/bash
# run_sequences_long.sh - `make interop-long`: several hundred random plan
# sequences through the real OpenSM on ibsim (test_opensm_random.sh),
# in chunks of 10 sequences run SEQ_JOBS at a time, each chunk with its
# own ibsim, OpenSM and work directory.  One chunk in four runs sequences
# twice as long (24 steps by default), so long runs of rejected plans,
# indx0 moves, flaps and full tables are in every report.  Prints a line
# per chunk as it ends and the totals: sequences and steps identical to
# OpenSM, and those that differ (with the chunk's log kept).  Exit 0 when
# every sequence matched, 1 otherwise, 2 on bad settings.
#
# Settings (environment; the Makefile passes its SEQ_* variables):
#   IBPART, IBP_SRC     the binary and the source tree (required)
#   SEQ_SEED  (1000)    the first seed; chunk k uses SEQ_SEED + 10k
#   SEQ_COUNT (300)     sequences in all
#   SEQ_STEPS (12)      steps a sequence (twice that in every 4th chunk)
#   SEQ_JOBS  (2)       chunks at once
#   SEQ_TOPO            another topology (ibnetdiscover text)
set -u
if [ -z "${IBPART:-}" ] || [ -z "${IBP_SRC:-}" ]; then
	echo "run_sequences_long.sh: error: IBPART (the binary) and IBP_SRC (the source tree) must be set" >&2
	exit 2
fi
seed=${SEQ_SEED:-1000} count=${SEQ_COUNT:-300} steps=${SEQ_STEPS:-12}
jobs=${SEQ_JOBS:-2}
for v in "$seed" "$count" "$steps" "$jobs"; do
	[[ $v =~ ^[0-9]+$ ]] && [ "$v" -gt 0 ] || {
		echo "run_sequences_long.sh: error: SEQ_SEED, SEQ_COUNT, SEQ_STEPS and SEQ_JOBS must be positive integers" >&2
		exit 2
	}
done
logs=$(mktemp -d "${TMPDIR:-/tmp}/ibpart-interop-long.XXXXXX") || exit 2
chunks=$(((count + 9) / 10))
echo "interop-long: $count sequences ($chunks chunks of 10, $jobs at a time), seeds from $seed, logs in $logs"

# chunk K: its sequences, one line of result into $logs/K.result
chunk()
{
	local k=$1 n=10 st=$steps s0 out line
	[ $((k + 1)) -eq "$chunks" ] && n=$((count - 10 * k))
	[ $((k % 4)) -eq 3 ] && st=$((2 * steps))
	s0=$((seed + 10 * k))
	out="$logs/chunk-$k.log"
	IBP_SEQ_SEED=$s0 IBP_SEQ_COUNT=$n IBP_SEQ_STEPS=$st \
		IBP_SEQ_TOPO=${SEQ_TOPO:-} \
		bash "$IBP_SRC/tests/interop/test_opensm_random.sh" >"$out" 2>&1
	line=$(grep -E '^(PASS|FAIL|SKIP)' "$out")
	line=${line##*$'\n'}
	printf '%s\t%s\t%s\t%s\n' "$k" "$s0" "$st" "${line:-no result (see $out)}" \
		>"$logs/$k.result"
}

running=0 k=0
while [ "$k" -lt "$chunks" ] || [ "$running" -gt 0 ]; do
	if [ "$k" -lt "$chunks" ] && [ "$running" -lt "$jobs" ]; then
		chunk "$k" &
		running=$((running + 1)) k=$((k + 1))
		continue
	fi
	wait -n
	running=$((running - 1))
	for f in "$logs"/*.result; do
		[ -e "$f" ] || continue
		IFS=$'\t' read -r ck cs cst res <"$f"
		echo "[chunk $((ck + 1))/$chunks] seeds $cs.., $cst steps: $res"
		mv "$f" "$f.seen"
	done
done

# totals from the chunks' PASS/FAIL lines
seqs=0 steps_ok=0 bad_seqs=0 bad_steps=0 missing=0
for f in "$logs"/*.result.seen; do
	IFS=$'\t' read -r ck _ _ res <"$f"
	if [[ $res =~ ^PASS.*:\ ([0-9]+)\ sequences,\ ([0-9]+)\ steps ]]; then
		seqs=$((seqs + BASH_REMATCH[1]))
		steps_ok=$((steps_ok + BASH_REMATCH[2]))
		rm -f "$logs/chunk-$ck.log"
	elif [[ $res =~ ([0-9]+)\ of\ ([0-9]+)\ sequences\ differ\ \(([0-9]+)\ steps\;\ [0-9]+\ sequences,\ ([0-9]+)\ steps ]]; then
		seqs=$((seqs + BASH_REMATCH[2]))
		bad_seqs=$((bad_seqs + BASH_REMATCH[1]))
		bad_steps=$((bad_steps + BASH_REMATCH[3]))
		steps_ok=$((steps_ok + BASH_REMATCH[4] - BASH_REMATCH[3]))
	else
		missing=$((missing + 1))
	fi
done
echo "interop-long: $((seqs - bad_seqs)) of $seqs sequences and $steps_ok of $((steps_ok + bad_steps)) steps identical to OpenSM; $bad_seqs sequences differ ($bad_steps steps); $missing chunks without a result"
if [ "$bad_seqs" -eq 0 ] && [ "$missing" -eq 0 ]; then
	rm -rf "$logs"
	exit 0
fi
echo "interop-long: the logs of the chunks that differ are in $logs" >&2
exit 1
