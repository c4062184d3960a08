#!/bin/bash
# test_parity_nets.sh - ibpart's predicted tables against the real OpenSM
# 3.3.23 on ibsim's own example nets (copied from ibsim-utils into
# tests/data/interop/net*) and on mixed.topo (routers, dual-port CAs,
# inter-switch links, a CA with an unlinked port), with and without
# allow_both_pkeys: every programmed port identical, every other port
# untouched.  Each case its own ibsim.
. "$(dirname "$0")/lib.sh"
ibp_init parity-nets

D=$IBP_SRC/tests/data/interop
for n in net net.1 net.2sw2path net.2sw2path4hca net.2sw2path4hca2port; do
	ibp_parity "$n-seedplan" "$D/$n" "$IBP_SRC/examples/seed/partitions.conf"
	ibp_parity "$n" "$D/$n" "$D/n01-net.conf"
done
ibp_parity net.2sw2path4hca2port-W "$D/net.2sw2path4hca2port" "$D/n01-net.conf" \
	--allow-both-pkeys -- -W
for c in m01-mixed m02-mixed-many; do
	ibp_parity "$c" "$D/mixed.topo" "$D/$c.conf"
	ibp_parity "$c-W" "$D/mixed.topo" "$D/$c.conf" --allow-both-pkeys -- -W
done
ibp_parity mixed-s05 "$D/mixed.topo" "$D/s05-words.conf"
ibp_parity mixed-enforce-off "$D/mixed.topo" "$D/m01-mixed.conf" --part-enforce off -- -Z off
ibp_parity_done
