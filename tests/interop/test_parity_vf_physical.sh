#!/bin/bash
# test_parity_vf_physical.sh - `--vf-guids physical` against the real
# OpenSM 3.3.23 on ibsim: the plan's VF alias GUIDs (tests/data/vf) are
# rendered on their physical ports by `ibpart convert`, OpenSM is given
# that file, and every port's P_KeyTable (smpquery) is what `ibpart
# tables --vf-guids physical` predicted from the plan itself.
#  - physical.conf: VFs of two ports in two tenants' partitions; the
#    audit still reports shared-physical-port on both ports;
#  - physical-conflict.conf: a VF full and its port limited in one
#    P_Key.  OpenSM's own rule for a port named twice, shown on the file
#    written in place: the later line (limited) wins, and with -W
#    (allow_both_pkeys) too; the rendering writes the port full whatever
#    the order (vf-physical-full), with -W `both` (both keys held).
#  - switch.conf: a switch port 0's alias is written on port 0, and a
#    GUID the alias map also holds as an alias but that is a port GUID
#    stays that port's member, as OpenSM reads it.
. "$(dirname "$0")/lib.sh"
ibp_init parity-vf-physical

T=$IBP_SRC/examples/seed/seed.topo
D=$IBP_SRC/tests/data/vf
A=$D/vf.aliases

# render PLAN OUT [ARGS...]: ibpart's file for OpenSM
render()
{
	local plan=$1 out=$2
	shift 2
	"$IBPART" convert -t "$T" --alias-guids "$A" --vf-guids physical \
		"$@" -o "$out" "$plan" 2>"$out.err" ||
		{ cat "$out.err" >&2; ibp_fail "convert $plan failed"; }
}

render "$D/physical.conf" "$IBP_WORK/physical.osm.conf"
out=$(cat "$IBP_WORK/physical.osm.conf")
case $out in *"	0x0002c90300aa"*) echo "$out" >&2
	ibp_fail "the rendered file still names an alias GUID" ;; esac
IBP_PARITY_OSM_CONF=$IBP_WORK/physical.osm.conf \
	ibp_parity physical "$T" "$D/physical.conf" --alias-guids "$A" \
	--vf-guids physical
# the default mode is unchanged: the aliases are skipped
case $(cat "$IBP_WORK/case-physical/ours.err") in
*"[guid-alias-ignored]"*) ibp_fail "physical: guid-alias-ignored reported" ;;
*"3 alias GUID member(s) of the plan are written on their physical ports"*) ;;
*) cat "$IBP_WORK/case-physical/ours.err" >&2
	ibp_fail "physical: no guid-alias-physical note" ;;
esac
# both shared ports are still the audit's high finding
out=$("$IBPART" audit -t "$T" --alias-guids "$A" --vf-guids physical \
	"$D/physical.conf" 2>&1)
for p in 0x506b4b0300a1b200 0x506b4b0300a1b202; do
	case $out in *"shared-physical-port: "*"physical port $p"*) ;;
	*) echo "$out" >&2; ibp_fail "audit: no shared-physical-port on $p" ;;
	esac
done

# OpenSM's rule for a port named twice in one P_Key, on the file that
# writes the VF's port in place of its alias: later line wins (limited)
sed 's/0x0002c90300aa0101/0x506b4b0300a1b200/' "$D/physical-conflict.conf" \
	>"$IBP_WORK/in-place.conf"
ibp_parity in-place "$T" "$IBP_WORK/in-place.conf"
ibp_parity in-place-W "$T" "$IBP_WORK/in-place.conf" --allow-both-pkeys -- -W
held=$(grep '^0x506b4b0300a1b200 ' "$IBP_WORK/case-in-place/theirs.txt")
case $held in *" 0x0a01"*) ;; *) ibp_fail "OpenSM: b200 not limited in 0x0a01 ($held)" ;; esac
# measured: with -W too, a full line then a limited one leave the
# limited key only
held=$(grep '^0x506b4b0300a1b200 ' "$IBP_WORK/case-in-place-W/theirs.txt")
case $held in *" 0x8a01"*) ibp_fail "OpenSM -W: b200 holds the full key ($held)" ;;
*" 0x0a01"*) ;; *) ibp_fail "OpenSM -W: b200 not limited in 0x0a01 ($held)" ;; esac

# the rendering: full whatever the order, both with -W
render "$D/physical-conflict.conf" "$IBP_WORK/conflict.osm.conf"
IBP_PARITY_OSM_CONF=$IBP_WORK/conflict.osm.conf \
	ibp_parity conflict "$T" "$D/physical-conflict.conf" \
	--alias-guids "$A" --vf-guids physical
case $(cat "$IBP_WORK/case-conflict/ours.err") in *"[vf-physical-full]"*) ;;
*) ibp_fail "conflict: no vf-physical-full" ;; esac
held=$(grep '^0x506b4b0300a1b200 ' "$IBP_WORK/case-conflict/theirs.txt")
case $held in *" 0x8a01"*) ;; *) ibp_fail "OpenSM: b200 not full in 0x0a01 ($held)" ;; esac
# with allow_both_pkeys the port is written `both`: its table holds the
# limited and the full key
render "$D/physical-conflict.conf" "$IBP_WORK/conflict-W.osm.conf" \
	--allow-both-pkeys
IBP_PARITY_OSM_CONF=$IBP_WORK/conflict-W.osm.conf \
	ibp_parity conflict-W "$T" "$D/physical-conflict.conf" \
	--alias-guids "$A" --vf-guids physical --allow-both-pkeys -- -W
held=$(grep '^0x506b4b0300a1b200 ' "$IBP_WORK/case-conflict-W/theirs.txt")
case $held in *" 0x0a01"*" 0x8a01"*|*" 0x8a01"*" 0x0a01"*) ;;
*) ibp_fail "OpenSM -W: b200 does not hold both keys ($held)" ;; esac

# a switch port 0's alias, and an alias that is also a port GUID
A=$D/switch.aliases render "$D/switch.conf" "$IBP_WORK/switch.osm.conf"
IBP_PARITY_OSM_CONF=$IBP_WORK/switch.osm.conf \
	ibp_parity switch "$T" "$D/switch.conf" \
	--alias-guids "$D/switch.aliases" --vf-guids physical
for p in 0x506b4b0300a1b100 0x506b4b0300a1b210; do
	held=$(grep "^$p " "$IBP_WORK/case-switch/theirs.txt")
	case $held in *" 0x8d01"*) ;; *) ibp_fail "OpenSM: $p not full in 0x0d01 ($held)" ;; esac
done
ibp_parity_done
