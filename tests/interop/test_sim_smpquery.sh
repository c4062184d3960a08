#!/usr/bin/env bash
# test_sim_smpquery.sh - `ibpart sim ... smpquery pkeys` prints byte for
# byte what infiniband-diags' smpquery prints: the same fabric (seed.topo)
# is brought up on ibsim with the real OpenSM programming the same plan
# (examples/seed/partitions.conf), and the real smpquery's output for
# every port (each CA port, every switch port 0..N) is diffed with ours
# (--mode opensm).  Starts its own ibsim (own IBSIM_SOCKNAME) and OpenSM
# and stops both, also on failure.
set -euo pipefail
: "${IBPART:?IBPART must name the ibpart binary}"
: "${IBP_SRC:?IBP_SRC must name the source tree}"
for tool in ibsim opensm smpquery; do
  command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 0; }
done
P=$(dpkg -L libumad2sim0 2>/dev/null | grep 'libumad2sim.so$' | head -1 || true)
[[ -n $P ]] || { echo "SKIP: libumad2sim0 not installed"; exit 0; }

T=$(mktemp -d)
SIM_PID= OSM_PID=
cleanup() {
  local st=$?
  if [[ -n $OSM_PID ]]; then kill "$OSM_PID" 2>/dev/null || true; wait "$OSM_PID" 2>/dev/null || true; fi
  if [[ -n $SIM_PID ]]; then kill "$SIM_PID" 2>/dev/null || true; wait "$SIM_PID" 2>/dev/null || true; fi
  rm -rf "$T"
  exit $st
}
trap cleanup EXIT
cd "$T"
TOPO=$IBP_SRC/examples/seed/seed.topo
CONF=$IBP_SRC/examples/seed/partitions.conf
export IBSIM_SOCKNAME=ibpsimq$$ SIM_HOST=H-506b4b0300a1b2ff OSM_TMP_DIR=$T OSM_CACHE_DIR=$T
ibsim -s -n "$TOPO" </dev/null >ibsim.log 2>&1 &
SIM_PID=$!
sleep 0.5
LD_PRELOAD=$P opensm -d 2 -P "$CONF" -f "$T/osm.log" -s 0 </dev/null >osm.out 2>&1 &
OSM_PID=$!
for _ in $(seq 100); do grep -q 'SUBNET UP' osm.log 2>/dev/null && break; sleep 0.1; done
grep -q 'SUBNET UP' osm.log || { echo "FAIL: OpenSM did not bring the subnet up"; tail osm.log; exit 1; }
sleep 0.5 # let OpenSM finish its P_Key pass

fails=0 n=0
compare() { # LID PORT
  LD_PRELOAD=$P smpquery pkeys "$1" "$2" >real 2>real.err || { echo "FAIL: smpquery pkeys $1 $2: $(cat real.err)"; fails=$((fails+1)); return; }
  "$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery pkeys "$1" "$2" >ours 2>ours.err ||
    { echo "FAIL: ibpart sim smpquery pkeys $1 $2: $(cat ours.err)"; fails=$((fails+1)); return; }
  if ! cmp -s real ours; then
    echo "FAIL: smpquery pkeys $1 $2 differs:"; diff real ours | head -20
    fails=$((fails+1))
  fi
  n=$((n+1))
}
# CA LIDs (1 and 3..8 on the seed) port 1; the switch (LID 2) ports 0..24.
for lid in 1 3 4 5 6 7 8; do compare $lid 1; done
for port in $(seq 0 24); do compare 2 $port; done
# And a port given by GUID and by name answers the same as by LID.
"$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery pkeys 0x506b4b0300a1b200 1 >byguid 2>/dev/null
"$IBPART" sim -q --mode opensm -t "$TOPO" -c "$CONF" smpquery pkeys tenantA-node-01 1 >byname 2>/dev/null
LD_PRELOAD=$P smpquery pkeys 3 1 >real3 2>/dev/null
cmp -s byguid real3 || { echo "FAIL: by GUID differs from smpquery pkeys 3 1"; fails=$((fails+1)); }
cmp -s byname real3 || { echo "FAIL: by name differs from smpquery pkeys 3 1"; fails=$((fails+1)); }
# The LID really is tenantA-node-01's under OpenSM.
grep -q '^   0: 0x7fff 0x8001 0x0000' real3 || { echo "FAIL: LID 3 is not tenantA-node-01 under OpenSM"; fails=$((fails+1)); }
echo "$n ports compared byte for byte, $fails failure(s)"
[[ $n -eq 32 && $fails -eq 0 ]] || exit 1
