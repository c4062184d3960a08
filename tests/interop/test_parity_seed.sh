#!/bin/bash
# test_parity_seed.sh - ibpart's predicted tables against the real OpenSM
# 3.3.23 on the seed fabric, for the seed plan and every corner file in
# tests/data/interop/s*.conf (with and without allow_both_pkeys,
# part_enforce, another SM port): entry for entry, index for index, on every
# programmed port; every other port untouched.  Each case its own ibsim.
. "$(dirname "$0")/lib.sh"
ibp_init parity-seed

T=$IBP_SRC/examples/seed/seed.topo
D=$IBP_SRC/tests/data/interop

ibp_parity seed "$T" "$IBP_SRC/examples/seed/partitions.conf"
ibp_parity seed-W "$T" "$IBP_SRC/examples/seed/partitions.conf" --allow-both-pkeys -- -W
for c in "$D"/s[0-9]*.conf; do
	n=$(basename "$c" .conf)
	ibp_parity "$n" "$T" "$c"
done
# allow_both_pkeys changes placement (0x7fff is no longer found at index 0)
for n in s01-order s02-both s04-indx0 s05-words s08-defmember; do
	ibp_parity "$n-W" "$T" "$D/$n.conf" --allow-both-pkeys -- -W
done
# part_enforce: off leaves switch ports untouched; in/out mirror as both
for e in off in out; do
	ibp_parity "seed-enforce-$e" "$T" "$D/s02-both.conf" --part-enforce "$e" -- -Z "$e"
done
# the SM on another node (tenantB-node-01)
IBP_SIM_HOST_USER=H-506b4b0300a1b201 \
	ibp_parity seed-sm-tenantB "$T" "$D/s05-words.conf" --sm-port 0x506b4b0300a1b202
ibp_parity_done
