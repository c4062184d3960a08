#!/usr/bin/env bash
# ibpartd_one_audit.sh - one audit everywhere (issue 26): with
# --opensm-conf (OpenSM's defaults: no M_Key, default SM_Key and SA_Key)
# and --topology, GET /ibpart/v1/audit, the status's posture, the page's
# findings table and /metrics' ibpart_audit_findings by severity are the
# same result: the same codes and severities on the page as in the
# audit, the same counts per severity in /metrics, the posture's codes
# the audit's posture ones - mkey-not-set (high) in all of them.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
: >opensm.conf # every option at OpenSM's default
ibpd_start --topology "$IBP_SRC/tests/interop/data/live-2sw.topo" --opensm-conf opensm.conf \
	--monitor-interval 1 -C no_such_hca || { fail "ibpartd did not start"; finish; }
# a plan with findings of its own: node-d full in two tenants' P_Keys
# (limited in one: allowed), a P_Key of one port
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x0a", "guids": ["0002c90000000301", "0002c90000000401"]}'
[[ $CODE == 200 ]] || fail "add 0xa: $CODE $BODY"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey": "0x0b", "guids": ["0002c90000000201"], "membership": "full"}'
[[ $CODE == 200 ]] || fail "add 0xb: $CODE $BODY"

ibpd_req GET /ibpart/v1/audit
[[ $CODE == 200 ]] || fail "audit: $CODE $BODY"
audit=$(jq -r '.findings[] | "\(.severity) \(.code)"' <<<"$BODY" | sort)
[[ $audit == *"high mkey-not-set"* ]] || fail "the audit has no mkey-not-set: $audit"
n=$(wc -l <<<"$audit")

ibpd_req GET /
page=$(grep -o '<tr class="f sev-[a-z]*"><td>[a-z]*<td>[a-z0-9-]*' <<<"$BODY" | sed 's/.*<td>\([a-z]*\)<td>\(.*\)/\1 \2/' | sort)
[[ $page == "$audit" ]] || fail "the page's findings differ from the audit's:
page:  $(tr '\n' ',' <<<"$page")
audit: $(tr '\n' ',' <<<"$audit")"

ibpd_req GET /ibpart/v1/status
posture=$(jq -r '.posture.findings[] | "\(.severity) \(.code)"' <<<"$BODY" | sort)
[[ -n $posture && $(comm -23 <(echo "$posture") <(echo "$audit")) == "" ]] ||
	fail "the posture is not the audit's: $posture"
[[ $posture == *"high mkey-not-set"* ]] || fail "posture: $posture"

# /metrics: the collector's counts of a sweep that began after the
# changes above (it audits each sweep; it needs no port for the audit).
# Its cycles, swept or failed (-C no_such_hca), are counted: two more
# than now means one began after now.
cycles() {
	ibpd_req GET /metrics
	awk '/^ibpartd_monitor_sweep(s|_failures)_total /{n += $2} END{print n + 0}' <<<"$BODY"
}
c0=$(cycles)
for ((i = 0; i < 150; i++)); do
	(($(cycles) >= c0 + 2)) && break
	sleep 0.1
done
(($(cycles) >= c0 + 2)) || fail "the collector did not run two cycles in 15 s"
ibpd_req GET /metrics
for sev in critical high medium info; do
	want=$(grep -c "^$sev " <<<"$audit" || true)
	have=$(sed -n "s/^ibpart_audit_findings{severity=\"$sev\"} //p" <<<"$BODY")
	[[ $have == "$want" ]] || fail "/metrics $sev: $have, the audit has $want"
done
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
echo "$n findings, the same in the audit, the page, the posture and /metrics"
finish
