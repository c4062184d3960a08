#!/usr/bin/env bash
# test_cleanup_on_fail.sh - a test that fails stops what it started: a
# script on the harness of ibpartd's OpenSM tests (ibsim, OpenSM,
# ibpartd) fails on purpose, and afterwards none of its processes is
# left.  Under `set -e` an EXIT trap that ran `(exit $rc)` before the
# harness's own cleanup ended there, and every failing ibpartd test left
# its ibsim and OpenSM running.
source "$(dirname "$0")/lib.sh"
: "${IBPARTD:?}"
ibp_init cleanup-on-fail
inner=$IBP_WORK/inner.sh
cat >"$inner" <<'EOF'
source "$IBP_SRC/tests/interop/live_lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_live_opensm
ibpd_start || live_fail "ibpartd did not start"
echo "pids $IBP_SIM_PID $IBP_OSM_PID $IBPD_PID" >"$PIDS_OUT"
live_fail "failing on purpose"
EOF
export PIDS_OUT=$IBP_WORK/pids
set +e
IBSIM_SOCKNAME= bash -e "$inner" >"$IBP_WORK/inner.out" 2>&1
rc=$?
set -e
[[ $rc == 1 ]] || ibp_fail "the failing script exited $rc: $(tail -5 "$IBP_WORK/inner.out")"
read -r _ sim osm ibpd <"$PIDS_OUT" || ibp_fail "no pids: $(tail -5 "$IBP_WORK/inner.out")"
[[ -n $sim && -n $osm && -n $ibpd ]] || ibp_fail "pids '$sim' '$osm' '$ibpd'"
# what the failing script left, stopped here whatever happens next
trap 'rc=$?; set +e; for p in $sim $osm $ibpd; do kill -KILL $p 2>/dev/null; done; (exit $rc); ibp_cleanup' EXIT
for p in "$sim" "$osm" "$ibpd"; do
	# gone, or at most a zombie nobody reaps any more
	st=$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null || true)
	[[ -z $st || $st == Z ]] || ibp_fail "process $p ($(cat "/proc/$p/comm")) still runs after the failure"
done
echo "ok - a failing test stopped its ibsim ($sim), OpenSM ($osm) and ibpartd ($ibpd)"
ibp_pass
