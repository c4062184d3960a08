#!/bin/bash
# test_parity_lidless.sh - ports without a LID still get a table
# (docs/opensm-behaviour.md, rule 1a).  A generated 300-CA fat tree with
# LMC 7 on ibsim, whose switches forward LIDs up to 30719 only: OpenSM
# runs out of LIDs (ERR 0307) and never reports SUBNET UP, yet it sets the
# P_KeyTable of every CA port it discovered by directed route and mirrors
# it onto the switch port facing it.  `ibpart tables --lmc 7 --lft-cap
# 30720` predicts every one of them (and says `no-lid`); each CA port and
# its switch port is read back by directed route (smpquery -D: no LID
# needed) and compared entry for entry.
. "$(dirname "$0")/lib.sh"
ibp_init parity-lidless
ibp_require python3 jq
: "${IBPART:?IBPART must name the ibpart binary (CTest sets it)}"
T=$IBP_WORK/gen300.topo
C=$IBP_WORK/p.conf
"$IBPART" gen --cas 300 --partitions 12 --storage 3 --mgmt 2 -o "$T" 2>"$IBP_WORK/gen.err" ||
	ibp_fail "ibpart gen: $(cat "$IBP_WORK/gen.err")"
printf 'Default=0x7fff : ALL=full ;\nP=0x0010 : ALL_CAS=full ;\n' >"$C"
SM=0xe41d2d0300000001 # mgmt-0001's port

rc=0
"$IBPART" tables -t "$T" --lmc 7 --lft-cap 30720 --sm-port "$SM" --format json "$C" \
	>"$IBP_WORK/ours.json" 2>"$IBP_WORK/ours.err" || rc=$?
[ "$rc" = 1 ] || ibp_fail "tables: exit $rc, want 1 (no-lid): $(cat "$IBP_WORK/ours.err")"
err=$(cat "$IBP_WORK/ours.err")
[[ $err =~ ([0-9]+)\ end\ port\(s\)\ get\ no\ LID ]] ||
	ibp_fail "tables: no no-lid finding: $err"
ours_lidless=${BASH_REMATCH[1]}
[[ $err == *"no P_KeyTable"* ]] && ibp_fail "the no-lid finding still says 'no P_KeyTable': $err"
ibp_json_tables_normalize <"$IBP_WORK/ours.json" >"$IBP_WORK/ours.txt"

IBP_SIM_HOST_USER=H-e41d2d0300000000
ibp_sim_start "$T"
# OpenSM as ibp_osm_start runs it, with LMC 7; no SUBNET UP will come:
# wait (with a deadline) for the end of its first sweep instead, which
# comes after the P_Key manager's Sets are answered
IBP_OSM_LOG="$IBP_WORK/opensm.log"
: >"$IBP_OSM_LOG"
: >"$IBP_WORK/opensm.conf"
rm -rf "$OSM_TMP_DIR" && mkdir -p "$OSM_TMP_DIR"
(cd "$IBP_WORK" && LD_PRELOAD="$IBP_UMAD2SIM" SIM_HOST="$IBP_SIM_HOST" \
	exec opensm -d 2 -f "$IBP_OSM_LOG" -s 0 -g "$SM" -P "$C" \
	-F "$IBP_WORK/opensm.conf" -l 7) >"$IBP_WORK/opensm.out" 2>&1 &
IBP_OSM_PID=$!
done_sweep=0
for ((i = 0; i < IBP_OSM_TIMEOUT * 3 * 50; i++)); do
	if grep -q 'Errors during initialization' "$IBP_OSM_LOG" 2>/dev/null; then
		done_sweep=1
		break
	fi
	kill -0 "$IBP_OSM_PID" 2>/dev/null || ibp_fail "OpenSM exited: $(cat "$IBP_WORK/opensm.out")"
	sleep 0.02
done
[ "$done_sweep" = 1 ] || ibp_fail "OpenSM's sweep did not end in $((IBP_OSM_TIMEOUT * 3))s"
osm_lidless=$(grep -c 'ERR 0307' "$IBP_OSM_LOG" || true)
[ "$osm_lidless" -gt 0 ] || ibp_fail "OpenSM did not run out of LIDs (no ERR 0307)"
ibp_osm_log_has 'SUBNET UP' && ibp_fail "OpenSM brought the subnet up: LIDs did not run out"

# read every CA port and the switch port facing it by directed route
python3 "$IBP_SRC/tests/interop/dr_paths.py" "$T" "$IBP_SIM_HOST" >"$IBP_WORK/routes" ||
	ibp_fail "dr_paths.py"
ibp_read_tables -D "$IBP_WORK/routes" >"$IBP_WORK/theirs.txt"

# every port read must hold ibpart's table; the ports without a LID among
# them (LID 0 in ibpart's JSON? no: by the no-lid list) are counted
if ! awk '
	NR == FNR { k = $1 " " $2; ours[k] = $0; next }
	{
		k = $1 " " $2
		if (!(k in ours)) { print "  port " k ": OpenSM " $0 " | ibpart: no table"; bad = 1 }
		else if (ours[k] != $0) { print "  port " k ": OpenSM " $0 " | ibpart " ours[k]; bad = 1 }
	}
	END { exit bad }' "$IBP_WORK/ours.txt" "$IBP_WORK/theirs.txt" >"$IBP_WORK/diff"; then
	cat "$IBP_WORK/diff" >&2
	ibp_fail "tables of ports OpenSM programmed without LIDs differ"
fi
read_n=$(wc -l <"$IBP_WORK/theirs.txt")
ibp_pass "$read_n ports (CA ports and the switch ports facing them) identical, read by directed route; OpenSM ran out of LIDs for $osm_lidless port(s), ibpart's no-lid names $ours_lidless"
