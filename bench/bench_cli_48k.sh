#!/usr/bin/env bash
# bench_cli_48k.sh - issue 29's CLI figures, at about 1,000 and 48,000
# LID-addressed ports (gen: 960 CAs radix 36, 44,000 CAs radix 64 with
# 4,000 partitions), each beside a baseline measured in the same run:
#
#   tables --format json   CPU and wall time, peak memory (/usr/bin/time
#                          -v's maximum resident set); beside `tables` in
#                          smpquery form (the same computation, the small
#                          writer) and `check -t` (read only); goal at
#                          48k: 0.4 s (issue 29 measured 1.15 s, 237 MB)
#   check, plan layouts    the same plan written one member per line (as
#                          gen writes it: "    0x…=full,"), one per line
#                          as by hand (a tab and the GUID alone, so a
#                          limited member: OpenSM's default) and four to
#                          a line (as ibpartd renders it); and bench_conf's
#                          million-member file (a comment on every line)
#                          beside the same members one per line, no
#                          comments.  Goal: one member per line as fast.
#
# The topology reader's MB/s is bench_topo's (1,000 and 48,000 CA ports,
# beside a plain scan of the same bytes).  Run by scripts/bench.sh.
set -euo pipefail
IBPART=${IBPART:-build/ibpart}
BUILD=${IBP_BUILD:-$(dirname "$IBPART")}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# run NAME CMD...: "NAME cpu_s wall_s peak_kb" (stdout discarded)
run() {
	local name=$1
	shift
	/usr/bin/time -f '%U %S %e %M' -o "$W/t" "$@" >/dev/null 2>&1 || true
	read -r u s e kb < <(tail -n 1 "$W/t")
	echo "$name $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $e $kb"
}

# one member per line as written by hand: a tab and the GUID alone
hand() {
	sed -E 's/^[ \t]+(0x[0-9a-fA-F]+)=full/\t\1/' "$1"
}

# four members to a line: the plan's member lines joined
four() {
	awk '/^[ \t]+0x/ { sub(/^[ \t]+/, ""); b = b (b == "" ? "\t" : " ") $0; n++
		if (n == 4 || /;/) { print b; b = ""; n = 0 }; next }
	{ if (b != "") { print b; b = ""; n = 0 }; print }' "$1"
}

printf '%-26s | %-34s | %-34s\n' "" "~1,000 ports (CPU s, wall s, MB)" \
	"~48,000 ports (CPU s, wall s, MB)"
declare -A R
for size in small large; do
	if [[ $size == small ]]; then
		args=(--cas 960 --radix 36 --partitions 80)
	else
		args=(--cas 44000 --radix 64 --partitions 4000)
	fi
	g=$W/$size
	"$IBPART" gen "${args[@]}" -o "$g.topo" --conf "$g.conf" 2>/dev/null
	four "$g.conf" >"$g.four.conf"
	hand "$g.conf" >"$g.hand.conf"
	{
		run tables-json "$IBPART" tables -t "$g.topo" --format json "$g.conf"
		run tables-smpquery "$IBPART" tables -t "$g.topo" "$g.conf"
		run check-1-per-line "$IBPART" check -t "$g.topo" "$g.conf"
		run check-1-by-hand "$IBPART" check -t "$g.topo" "$g.hand.conf"
		run check-4-per-line "$IBPART" check -t "$g.topo" "$g.four.conf"
	} >"$W/r.$size"
	while read -r name cpu wall kb; do
		R[$name,$size]=$(awk -v c="$cpu" -v w="$wall" -v k="$kb" \
			'BEGIN { printf "%6.2f %6.2f %7.1f", c, w, k / 1024 }')
	done <"$W/r.$size"
done
for name in tables-json tables-smpquery check-1-per-line check-1-by-hand check-4-per-line; do
	printf '%-26s | %-34s | %-34s\n' "$name" "${R[$name,small]}" "${R[$name,large]}"
done
echo "(issue 29, before: tables-json at 48k 1.15 s and 237 MB; goal 0.4 s)"

# bench_conf's million members: its layout beside one member per line
if [[ -x $BUILD/bench_conf ]]; then
	IBP_BENCH_MEMBERS=${IBP_BENCH_MEMBERS:-1000000} "$BUILD/bench_conf" --write "$W/b.conf" >/dev/null
	sed -E '/^\t0x/{s/[ \t]*#.*$//; s/^\t/  /}' "$W/b.conf" >"$W/b1.conf"
	a=$(run check-bench-layout "$IBPART" check "$W/b.conf")
	b=$(run check-1-per-line "$IBPART" check "$W/b1.conf")
	read -r _ ca wa ka <<<"$a"
	read -r _ cb wb kb <<<"$b"
	awk -v ca="$ca" -v cb="$cb" -v wa="$wa" -v wb="$wb" -v ka="$ka" -v kb="$kb" \
		-v sa="$(stat -c %s "$W/b.conf")" -v sb="$(stat -c %s "$W/b1.conf")" 'BEGIN {
		printf "check, 1M members, bench_conf layout:  %6.2f s CPU %6.2f s wall %7.1f MB (%.0f MB file)\n", ca, wa, ka / 1024, sa / 1e6
		printf "check, 1M members, one per line:       %6.2f s CPU %6.2f s wall %7.1f MB (%.0f MB file)\n", cb, wb, kb / 1024, sb / 1e6
		printf "one per line / bench layout, CPU time: %.2f\n", (ca > 0 ? cb / ca : 0) }'
fi
