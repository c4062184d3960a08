#!/bin/bash
# test_parity_vf_guids.sh - plans naming GUIDs OpenSM 3.3.23 skips, run
# through the real OpenSM on ibsim and through ibpart: GUIDs the fabric
# lacks (and a node GUID), and virtual functions' alias GUIDs (with the
# alias map of tests/data/vf/vf.aliases).  OpenSM's tables and ibpart's
# prediction agree port for port; OpenSM's log says it skipped each GUID
# ("port 0x... not found", osm_prtn_add_port, VERBOSE); ibpart's tables,
# check and audit name them (guid-unknown, guid-alias-ignored, with the
# count and the first GUIDs).
. "$(dirname "$0")/lib.sh"
ibp_init parity-vf-guids

T=$IBP_SRC/examples/seed/seed.topo
D=$IBP_SRC/tests/data/vf

# $1 case, $2 finding, $3.. GUIDs: OpenSM logged each as not found, and
# ibpart's tables named each in the finding
skipped_by_both()
{
	local c=$IBP_WORK/case-$1 code=$2 g log err
	shift 2
	log=$(cat "$c/opensm.log")
	err=$(cat "$c/ours.err")
	case $err in *"[$code]"*) ;; *)
		cat "$c/ours.err" >&2
		ibp_fail "$c: ibpart tables did not report $code" ;;
	esac
	for g in "$@"; do
		# OpenSM prints 0x%" PRIx64 (no leading zeros), ibpart 16 digits
		case $log in *"port $(printf '0x%x' "$g") not found"*) ;; *)
			ibp_fail "OpenSM did not log $g as not found" ;;
		esac
		case $err in *"$g"*) ;; *)
			ibp_fail "ibpart's $code does not name $g" ;;
		esac
	done
}

# VERBOSE (0x04) is the level of OpenSM's "not found" line
ibp_parity unknown "$T" "$D/unknown.conf" -- -D 0x07
skipped_by_both unknown guid-unknown 0x0002c90300ff0001 \
	0x0002c90300ff0002 0x506b4b0300a1b1ff
ibp_parity vf "$T" "$D/vf.conf" --alias-guids "$D/vf.aliases" -- -D 0x07
skipped_by_both vf guid-alias-ignored 0x0002c90300aa0101 \
	0x0002c90300aa0201 0x0002c90300aa0102

# check and audit say the same, with the counts
out=$("$IBPART" check -t "$T" "$D/unknown.conf" 2>&1)
case $out in *"3 GUID(s) of the plan are no port of the fabric"*"[guid-unknown]"*) ;;
*) echo "$out" >&2; ibp_fail "check: no guid-unknown with 3 GUIDs" ;; esac
out=$("$IBPART" audit -t "$T" --alias-guids "$D/vf.aliases" "$D/vf.conf" 2>&1)
case $out in *"3 alias GUID(s) of the plan"*"[guid-alias-ignored]"*) ;;
*) echo "$out" >&2; ibp_fail "audit: no guid-alias-ignored with 3 GUIDs" ;; esac
ibp_parity_done
