#!/usr/bin/env bash
# `ibpart audit --help` lists the library's rule catalog
# (ibp_audit_rule_get, laid out by tools/cmd_audit.c); docs/audit.md, written by hand, must describe
# exactly those rules at the same severity: a rule added to the audit
# without a doc entry (or the reverse) fails here.
source "$(dirname "$0")/lib.sh"

expect_status 0 "$IBPART" audit --help
# the layout: code from column 2, severity from 26, summary from 36
# wrapped before column 72
help=$(<out)
for row in '  partition-no-full-member medium   no two members can talk' \
  $'  plan-misread            high      OpenSM reads the plan otherwise\n                                    than it says (e.g. a missing comma)'; do
  [[ $'\n'"$help"$'\n' == *$'\n'"$row"$'\n'* ]] || fail "audit --help lacks the row: $row"
done
# help rows: "  CODE  SEVERITY  summary" (continuation lines start blank)
sed -n 's/^  \([a-z][a-z0-9-]*\) \+\(critical\|high\|medium\|info\) .*/\1 \2/p' \
  out | sort >help.rules
# doc headings: "### CODE (SEVERITY..."
sed -n 's/^### \([a-z][a-z0-9-]*\) (\(critical\|high\|medium\|info\).*/\1 \2/p' \
  "$IBP_SRC/docs/audit.md" | sort >doc.rules
[[ $(wc -l <help.rules) -ge 20 ]] || fail "help lists $(wc -l <help.rules) rules"
diff doc.rules help.rules >rules.diff || fail "docs/audit.md and audit --help differ: $(cat rules.diff)"
# the three rules the hand-written help once left out
for code in fallback-indx0 plan-indeterminate sm-port-assumed; do
  expect_grep "^$code " help.rules
done
# every code the audit reports on the fixtures is a rule of the list
D="$IBP_SRC/tests/data/audit"
for conf in "$D"/*.conf; do
  case $conf in */opensm-*) continue ;; esac
  for topo in seed two-leaf; do
    "$IBPART" audit -t "$D/$topo.topo" --opensm-conf "$D/opensm-weak.conf" \
      --format json "$conf" >f.json 2>/dev/null || true
    [[ -s f.json ]] || fail "audit wrote nothing for $conf on $topo"
    jq -r '.findings[].code' f.json >>codes.seen || fail "bad JSON for $conf"
  done
done
sort -u codes.seen >codes.uniq
[[ $(wc -l <codes.uniq) -ge 10 ]] || fail "only $(wc -l <codes.uniq) codes seen"
while read -r code; do
  grep -q "^$code " help.rules || fail "finding $code is not in audit --help"
done <codes.uniq
finish
