#!/bin/bash
# test_opensm_sequences.sh - a fabric over time: sequences of plans run
# through one OpenSM each by SIGHUP on ibsim, every step compared with
# `ibpart tables --state` carried along (tests/interop/seq_lib.sh).
# First the fixed sequences of issue 10 (several P_Keys remembered at one
# index, indx0 moving, the default partition flipping, a full switch
# port 0, a port unlinked for a sweep, keep_pkey_indexes FALSE, a
# rejected file's indx0), then random ones from seqgen.py with fixed
# seeds.  IBP_SEQ_SEED, IBP_SEQ_COUNT, IBP_SEQ_STEPS choose them (`make
# interop-long` runs many more); IBP_SEQ_CASES=0 skips the fixed ones;
# IBP_SEQ_TOPO runs the random ones on another topology (the fixed ones
# are written for the seed fabric).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/seq_lib.sh"
ibp_init opensm-sequences
ibp_require python3 jq
: "${IBPART:?IBPART must name the ibpart binary (CTest sets it)}"
T=$IBP_SRC/examples/seed/seed.topo
G=$IBP_SRC/tests/interop/seqgen.py
mkdir -p "$IBP_WORK/cases" "$IBP_WORK/random"
if [ "${IBP_SEQ_CASES:-1}" != 0 ]; then
	python3 "$G" "$T" "$IBP_WORK/cases" --cases || ibp_fail "seqgen --cases"
	seq_run_all "$T" "$IBP_WORK/cases"
fi
R=${IBP_SEQ_TOPO:-$T}
python3 "$G" "$R" "$IBP_WORK/random" "${IBP_SEQ_SEED:-1}" \
	"${IBP_SEQ_COUNT:-4}" "${IBP_SEQ_STEPS:-6}" || ibp_fail "seqgen"
seq_run_all "$R" "$IBP_WORK/random"
seq_done
