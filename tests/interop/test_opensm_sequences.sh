#!/bin/bash
# test_opensm_sequences.sh - a fabric over time: the fixed sequences of
# plans (several P_Keys remembered at one index, indx0 moving, the
# default partition flipping, a full switch port 0, a port unlinked for a
# sweep, keep_pkey_indexes FALSE, a rejected file's indx0, and the
# rules of docs/opensm-behaviour.md that need a history) run through one
# OpenSM each by SIGHUP on ibsim, every step compared with `ibpart tables
# --state` carried along (tests/interop/seq_lib.sh).  The random
# sequences are test_opensm_random.sh (two tests, so that each keeps its
# CTest timeout's margin on a loaded machine).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/seq_lib.sh"
ibp_init opensm-sequences
ibp_require python3 jq
: "${IBPART:?IBPART must name the ibpart binary (CTest sets it)}"
T=$IBP_SRC/examples/seed/seed.topo
mkdir -p "$IBP_WORK/cases"
python3 "$IBP_SRC/tests/interop/seqgen.py" "$T" "$IBP_WORK/cases" --cases ||
	ibp_fail "seqgen --cases"
seq_run_all "$T" "$IBP_WORK/cases"
seq_done
