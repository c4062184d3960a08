#!/bin/bash
# test_convert_corners.sh - every corner file of tests/data/conf/corners/
# through the real OpenSM 3.3.23 on ibsim (seed fabric): the P_KeyTables
# smpquery reads back must be the ones written by hand in the file's
# "#! NODE: ..." lines (or all 0xffff for "#! rejected"), and where
# OpenSM logs a PARSE ERROR, the line it names must be the one
# `ibpart check --opensm --format json` predicts.  The unit test
# test_conf_corners checks ibpart's own reading against the same lines.
. "$(dirname "$0")/lib.sh"
ibp_init convert-corners
: "${IBPART:?IBPART must name the ibpart binary}"
TOPO=$IBP_SRC/examples/seed/seed.topo
shopt -s nullglob
declare -A name=(
	[0x506b4b0300a1b100]=leaf-01 [0x506b4b0300a1b300]=sm-01
	[0x506b4b0300a1b301]=ufm-server [0x506b4b0300a1b200]=tenantA-node-01
	[0x506b4b0300a1b201]=tenantA-node-02 [0x506b4b0300a1b202]=tenantB-node-01
	[0x506b4b0300a1b203]=tenantB-node-02 [0x506b4b0300a1b210]=storage-node)
for g in "${!name[@]}"; do echo "$g ${name[$g]}"; done >"$IBP_WORK/names"
n=0
for f in "$IBP_SRC"/tests/data/conf/corners/*.conf "$IBP_SRC"/tests/data/conf/corners/*.crlf; do
	base=$(basename "$f")
	rejected=0
	grep -q '^#! rejected' "$f" && rejected=1
	ibp_sim_start "$TOPO"
	if grep -q '^#! crash' "$f"; then
		# OpenSM must die of a signal, and ibpart must say so
		rc=0
		ibp_sim_run timeout 20 opensm -d 2 -f "$IBP_WORK/crash.log" -s 0 \
			-F /dev/null -P "$f" >/dev/null 2>&1 || rc=$?
		[ $rc -gt 128 ] && [ $rc -ne 143 ] && [ $rc -ne 124 ] ||
			ibp_fail "$base: OpenSM did not crash (status $rc)"
		"$IBPART" check --opensm --format json "$f" >"$IBP_WORK/check.json" 2>/dev/null || true
		[ "$(jq -r '.opensm.crashes' "$IBP_WORK/check.json")" = true ] ||
			ibp_fail "$base: ibpart does not predict the crash"
		ibp_sim_stop
		n=$((n + 1))
		continue
	fi
	ibp_osm_start "$f"
	ibp_read_pkeys '^CA|^SW [0-9]+ 0 ' >"$IBP_WORK/got"
	# each port against the file's "#! NODE: P_KEYS" lines, as sets (one
	# awk for all ports: a pipeline of tools a port made this test slow)
	if ! bad=$(awk -v rejected=$rejected '
			function sorted(s,   a, n, i, j, t, out) {
				n = split(s, a, " ")
				for (i = 2; i <= n; i++) {
					t = a[i]
					for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
					a[j + 1] = t
				}
				out = ""
				for (i = 1; i <= n; i++) out = out a[i] " "
				return out
			}
			FILENAME == ARGV[1] {
				sub(/\r$/, "")
				if (match($0, /^#! [^:]*:/)) {
					node = substr($0, 4, RLENGTH - 4)
					want[node] = (node in want ? want[node] "\n" : "") substr($0, RLENGTH + 1)
				}
				next
			}
			FILENAME == ARGV[2] { name[$1] = $2; next }
			{
				node = name[$1]
				if (rejected) w = "0xffff"
				else if (node in want && want[node] != "") w = want[node]
				else w = (node == "sm-01") ? "0xffff" : "0x7fff"
				gsub(/\n/, " ", w)
				got = ""
				for (i = 3; i <= NF; i++) if ($i != "0x0000") got = got " " $i
				if (sorted(w) != sorted(got)) {
					x = w; gsub(/^ +| +$/, "", x)
					y = $0; sub(/^[^ ]+ [^ ]+ ?/, "", y)
					print node ": expected [" x "], OpenSM programmed [" y "]"
					exit 1
				}
			}' "$f" "$IBP_WORK/names" "$IBP_WORK/got"); then
		ibp_fail "$base: $bad"
	fi
	[ "$(wc -l <"$IBP_WORK/got")" -eq 8 ] || ibp_fail "$base: $(wc -l <"$IBP_WORK/got") ports read"
	if ibp_osm_log_has "retrying with default config"; then
		[ $rejected = 1 ] || ibp_fail "$base: OpenSM rejected it"
	else
		[ $rejected = 0 ] || ibp_fail "$base: OpenSM accepted it"
	fi
	osm_line=$(grep -m1 -o 'PARSE ERROR: line [0-9]*' "$IBP_OSM_LOG" || true)
	osm_line=${osm_line##* }
	"$IBPART" check --opensm --format json "$f" >"$IBP_WORK/check.json" 2>/dev/null || true
	ours=$(jq -r '.opensm.opensm_log_line' "$IBP_WORK/check.json")
	if [ -n "$osm_line" ] && [ "$osm_line" != "$ours" ]; then
		ibp_fail "$base: OpenSM's PARSE ERROR is at line $osm_line, ibpart says $ours"
	fi
	ibp_osm_stop
	ibp_sim_stop
	n=$((n + 1))
done
[ $n -ge 16 ] || ibp_fail "only $n corner files"
ibp_pass "$n corner files programmed as written by hand"
