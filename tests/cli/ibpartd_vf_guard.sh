#!/usr/bin/env bash
# ibpartd_vf_guard.sh - the isolation guard and virtual functions, over
# loopback HTTP without a fabric: with --alias-guids, ib-kubernetes'
# request shape (POST /ufmRest/resources/pkeys with VF GUIDs) that puts
# two VFs of one physical port into two tenants' P_Keys is refused with
# 409 and the finding shared-physical-port naming the port and both
# P_Keys, and changes nothing; VFs of different ports, or of one port in
# one P_Key, pass; a caller whose profile says warn=shared-physical-port
# gets its 200 with the finding in "warnings"; GET /ibpart/v1/audit and
# `ibpart audit --alias-guids` then report it.  Without --alias-guids the
# VF GUIDs are unknown GUIDs and the same request is a 200 (the old
# behaviour: the guard cannot judge what it cannot place).
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
TOPO=$IBP_SRC/tests/interop/data/live-2sw.topo
printf '# the operator\nDefault=0x7fff, ipoib : ALL=limited, 0x0002c90000000101=full ;\n' >"$IBPD_CONF"
cp "$IBPD_CONF" operator.conf
# node-b (port 0x0002c90000000301): VFs 1 and 2; node-c (0x...0401): VF 1
B1=0002c903000a0301 B2=0002c903000a0302 C1=0002c903000a0401
printf '0x%s 0x0002c90000000301 1\n0x%s 0x0002c90000000301 2\n0x%s 0x0002c90000000401 1\n' \
	"$B1" "$B2" "$C1" >aliases
printf 'k8s:%s:role=change\n' "$(openssl passwd -6 pw-k8s)" >>"$IBPD_USERS"
req() { REQ="$*"; ibpd_req "$@"; }
want() { # want CODE [JQ-EXPR VALUE]
	[[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $(head -c 400 <<<"$BODY")"
	if [[ -n ${2-} ]]; then
		local got
		got=$(jq -c "$2" <<<"$BODY" 2>/dev/null) || got="(not JSON)"
		[[ $got == "$3" ]] || fail "$REQ: $2 is $got, want $3"
	fi
}
k8s() { # ib-kubernetes' add: PKEY GUID...
	local pkey=$1 g
	shift
	local list=""
	for g in "$@"; do list+="${list:+, }\"$g\""; done
	REQ="add $pkey $*"
	ibpd_req_as "${AS:--u admin:secret}" POST /ufmRest/resources/pkeys \
		'{"pkey": "'"$pkey"'", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ['"$list"']}'
}

ibpd_start --topology "$TOPO" --alias-guids aliases --profile k8s:warn=shared-physical-port ||
	{ fail "ibpartd did not start"; finish; }
k8s 0x0A "$B1"
want 200
k8s 0x0B "$C1"
want 200
# node-b's second VF into another tenant's P_Key: refused, nothing changed
req GET /ibpart/v1/plan
before=$(jq -r .partitions_conf <<<"$BODY")
k8s 0x0B "$B2"
want 409
[[ $(jq -r .error <<<"$BODY") == *"shared-physical-port"* ]] || fail "409 without the finding: $BODY"
want 409 '[.findings[] | select(.code == "shared-physical-port") | {ports, partitions}]' \
	'[{"ports":["0x0002c90000000301"],"partitions":["0x000a","0x000b"]}]'
req GET /ibpart/v1/plan
[[ $(jq -r .partitions_conf <<<"$BODY") == "$before" ]] || fail "the refused change changed the plan"
# the same VF into its own tenant's P_Key passes
k8s 0x0A "$B2"
want 200
# the caller whose profile warns of it: 200, the finding in warnings
AS="-u k8s:pw-k8s" k8s 0x0B "$B2"
want 200 '[.warnings[]? | .code] | unique' '["shared-physical-port"]'
req GET /ibpart/v1/audit
want 200 '[.findings[] | select(.code == "shared-physical-port") | .ports[0]]' '["0x0002c90000000301"]'
# ibpart's audit of the same file says the same
req GET /ibpart/v1/plan
jq -r .partitions_conf <<<"$BODY" >plan.conf
expect_status 1 "$IBPART" audit -t "$TOPO" --alias-guids aliases --format json plan.conf
[[ $(jq -c '[.findings[] | select(.code == "shared-physical-port") | .partitions]' out) == '[["0x000a","0x000b"]]' ]] ||
	fail "ibpart audit: $(head -c 400 out)"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# without the alias map the guard cannot place a VF: the same sharing passes
rm -f "$IBPD_DB" "$IBPD_DB"-*
cp operator.conf "$IBPD_CONF"
ibpd_start --topology "$TOPO" || { fail "ibpartd did not start"; finish; }
k8s 0x0A "$B1"
want 200
k8s 0x0B "$B2"
want 200
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
