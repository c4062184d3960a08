#!/bin/bash
# test_opensm_random.sh - random sequences of plans from seqgen.py
# (membership flips, removals, indx0 moves, link flaps, rejected files,
# keep_pkey_indexes toggled...) run through one OpenSM each by SIGHUP on
# ibsim, every step compared with `ibpart tables --state` carried along
# (tests/interop/seq_lib.sh).  IBP_SEQ_SEED, IBP_SEQ_COUNT, IBP_SEQ_STEPS
# choose them (4 of 6 steps from seed 1 in `make test`; `make
# interop-long` runs hundreds through this script); IBP_SEQ_TOPO runs them
# on another topology.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/seq_lib.sh"
ibp_init opensm-random
ibp_require python3 jq
: "${IBPART:?IBPART must name the ibpart binary (CTest sets it)}"
R=${IBP_SEQ_TOPO:-$IBP_SRC/examples/seed/seed.topo}
mkdir -p "$IBP_WORK/random"
python3 "$IBP_SRC/tests/interop/seqgen.py" "$R" "$IBP_WORK/random" \
	"${IBP_SEQ_SEED:-1}" "${IBP_SEQ_COUNT:-4}" "${IBP_SEQ_STEPS:-6}" ||
	ibp_fail "seqgen"
seq_run_all "$R" "$IBP_WORK/random"
seq_done
