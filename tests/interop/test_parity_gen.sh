#!/bin/bash
# test_parity_gen.sh - ibpart's predicted tables against the real OpenSM
# 3.3.23 on fat trees made by `ibpart gen` (leaves, spines, tenants,
# shared storage limited in every tenant, management hosts): the plan
# gen writes, and the same plan with extra lines (switch port 0 and a
# storage node overflowing, indx0, SELF, allow_both_pkeys).
. "$(dirname "$0")/lib.sh"
ibp_init parity-gen
: "${IBPART:?IBPART must name the ibpart binary (CTest sets it)}"

G=$IBP_WORK/gen
"$IBPART" gen --cas 96 --partitions 12 --storage 2 --mgmt 2 --radix 12 \
	-o "$G.topo" --conf "$G.conf" 2>/dev/null || ibp_fail "ibpart gen failed"
IBP_PARITY_FILTER="^(CA|RT) | (CA|RT|self)$" ibp_parity gen-96 "$G.topo" "$G.conf"

# (inter-switch ports, never programmed, are not read back here: 16 leaves
# and 8 spines have a lot of them; test_parity_nets checks them.)
# storage-0001 in 70 more partitions (its 64 entries overflow), the
# switches' port 0 in 10 (capacity 8), tenant 3 at index 0
s1=$(awk '/^Ca.*"storage-0001"/ { getline; if (match($0, /\((0x)?[0-9a-f]+\)/)) {
	g = substr($0, RSTART + 1, RLENGTH - 2); sub(/^0x/, "", g); print "0x" g } }' "$G.topo")
t3=$(awk '/^t0003=/ { getline; if (match($0, /0x[0-9a-f]+/)) print substr($0, RSTART, RLENGTH) }' "$G.conf")
[ -n "$s1" ] && [ -n "$t3" ] || ibp_fail "no storage-0001 or t0003 in $G.*"
{
	cat "$G.conf"
	for i in $(seq 1 70); do
		printf 'X%d=0x%04x : %s=full%s ;\n' "$i" $((0x1000 + i * 3)) "$s1" \
			"$([ "$i" -le 10 ] && echo ', ALL_SWITCHES')"
	done
	echo "T3=0x0003, indx0 : $t3=full ;"
	echo "Self=0x0777 : SELF=both, ALL_SWITCHES=limited ;"
} >"$G-more.conf"
IBP_PARITY_FILTER="^(CA|RT) | (CA|RT|self)$" ibp_parity gen-96-more "$G.topo" "$G-more.conf"
IBP_PARITY_FILTER="^(CA|RT) | (CA|RT|self)$" ibp_parity gen-96-more-W "$G.topo" "$G-more.conf" --allow-both-pkeys -- -W
ibp_parity_done
