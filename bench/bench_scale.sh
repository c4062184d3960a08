#!/usr/bin/env bash
# bench_scale.sh - the offline commands at a subnet's sizes: tables
# (smpquery, json), matrix (every format; json and csv in the form auto
# picks, and the port form where it still fits), and audit (text, json),
# on generated fat trees with about 8,000 and 48,000 LID-addressed ports
# (CA ports + switches, every one with a LID), with wall time, peak
# memory (/usr/bin/time -v's maximum resident set) and output size.  Each
# line is also given as ratios: to `ibpart check` of the same plan on the
# same topology, measured in the same run (the parse-only baseline), and
# 48k/8k (about 6 is linear).  Run by scripts/bench.sh (make bench).
# Sizes: BENCH_SCALE_CAS="7000 44000" (radix 36 and 64).
set -euo pipefail
IBPART=${IBPART:-build/ibpart}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# run NAME CMD...: time and peak memory of CMD, its stdout counted
run() {
	local name=$1
	shift
	/usr/bin/time -f '%e %M' -o "$W/t" "$@" 2>/dev/null | wc -c >"$W/bytes" || true
	read -r secs kb < <(tail -n 1 "$W/t")
	echo "$name $secs $kb $(cat "$W/bytes")"
}

declare -A T M B
sizes=()
set -- ${BENCH_SCALE_CAS:-7000 44000}
for cas in "$@"; do
	radix=36
	((cas > 20000)) && radix=64
	g=$W/g$cas
	"$IBPART" gen --cas "$cas" --radix "$radix" --partitions 400 --storage 2 --mgmt 2 \
		-o "$g.topo" --conf "$g.conf" 2>"$W/gen.err"
	lids=$(sed -n 's/.*tiers*, \([0-9]*\) LIDs of.*/\1/p' "$W/gen.err")
	sizes+=("$lids")
	TOPO=$g.topo CONF=$g.conf
	{
		run check "$IBPART" check -t "$TOPO" "$CONF"
		run tables-smpquery "$IBPART" tables -t "$TOPO" "$CONF"
		run tables-json "$IBPART" tables -t "$TOPO" --format json "$CONF"
		for f in text md csv json html; do
			run "matrix-$f" "$IBPART" matrix -t "$TOPO" --format "$f" "$CONF"
		done
		if ((lids <= 10000)); then
			run matrix-csv-ports "$IBPART" matrix -t "$TOPO" --format csv --form ports "$CONF"
			run matrix-json-ports "$IBPART" matrix -t "$TOPO" --format json --form ports "$CONF"
		fi
		run audit-text "$IBPART" audit -t "$TOPO" "$CONF"
		run audit-json "$IBPART" audit -t "$TOPO" --format json "$CONF"
	} >"$W/r$lids"
	while read -r name secs kb bytes; do
		T[$name,$lids]=$secs M[$name,$lids]=$kb B[$name,$lids]=$bytes
	done <"$W/r$lids"
done

printf '%-18s' "LID-addressed:"
for s in "${sizes[@]}"; do printf ' | %-40s' "$s ports (s, MB peak, output, x check)"; done
printf ' | %s\n' "48k/8k time"
for name in check tables-smpquery tables-json matrix-text matrix-md matrix-csv matrix-json \
	matrix-html matrix-csv-ports matrix-json-ports audit-text audit-json; do
	printf '%-18s' "$name"
	for s in "${sizes[@]}"; do
		if [[ -z ${T[$name,$s]:-} ]]; then
			printf ' | %-40s' "(not run: ports^2 cells)"
			continue
		fi
		x=$(awk -v a="${T[$name,$s]}" -v b="${T[check,$s]}" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
		printf ' | %6ss %7.1f MB %10s B x%-6s' "${T[$name,$s]}" \
			"$(awk -v k="${M[$name,$s]}" 'BEGIN { print k / 1024 }')" "${B[$name,$s]}" "$x"
	done
	if ((${#sizes[@]} == 2)) && [[ -n ${T[$name,${sizes[0]}]:-} && -n ${T[$name,${sizes[1]}]:-} ]]; then
		awk -v a="${T[$name,${sizes[1]}]}" -v b="${T[$name,${sizes[0]}]}" \
			'BEGIN { printf " | %.1f\n", (b > 0 ? a / b : 0) }'
	else
		echo " | -"
	fi
done
