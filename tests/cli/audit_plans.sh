#!/usr/bin/env bash
# ibpart audit on the broken and sound plans of tests/data/audit: every
# expected finding code present (with its severity), no finding at or
# above `high` on the sound plans, exit status by --fail-on.  The
# expectations are the IBA rules and OpenSM's observed behaviour
# (docs/audit.md), written here by hand.
source "$(dirname "$0")/lib.sh"
D="$IBP_SRC/tests/data/audit"

# audit_case TOPO CONF "EXTRA ARGS" EXIT "code:severity ..." "absent codes"
audit_case() {
  local topo=$1 conf=$2 extra=$3 want=$4 present=$5 absent=$6
  # shellcheck disable=SC2086
  expect_status "$want" "$IBPART" audit -t "$D/$topo" --format json $extra "$D/$conf"
  if ! jq -e . out >/dev/null 2>&1; then fail "$conf: output is not JSON"; return; fi
  for cs in $present; do
    local code=${cs%%:*} sev=${cs#*:}
    jq -e --arg c "$code" --arg s "$sev" \
      'any(.findings[]; .code == $c and .severity == $s)' out >/dev/null ||
      fail "$conf: no $code ($sev) finding: $(jq -c '[.findings[].code]' out)"
  done
  for code in $absent; do
    jq -e --arg c "$code" 'any(.findings[]; .code == $c)' out >/dev/null &&
      fail "$conf: unexpected $code: $(jq -c --arg c "$code" '.findings[] | select(.code == $c) | .message' out)"
  done
  # the JSON shape scripts depend on
  jq -e '(keys == ["findings"]) and all(.findings[];
          (keys_unsorted == ["code","severity","ports","partitions","message","fix"])
          and (.severity | IN("critical","high","medium","info"))
          and all(.ports[]; test("^0x[0-9a-f]{16}$"))
          and all(.partitions[]; test("^0x[0-9a-f]{4}$")))' out >/dev/null ||
    fail "$conf: JSON shape"
}

BAD_ALARMS="default-full-member cross-tenant-reach tenant-bridge plan-rejected plan-misread capacity-overflow partition-no-full-member"

# sound plans
audit_case seed.topo sound-seed.conf "" 0 \
  "shared-limited-member:medium default-limited-member:info" "$BAD_ALARMS no-sa-path"
audit_case seed.topo sound-seed.conf "--mode strict" 0 \
  "shared-limited-member:medium no-sa-path:medium" "$BAD_ALARMS default-limited-member"
audit_case two-leaf.topo sound-two-leaf.conf "" 0 \
  "shared-limited-member:medium default-limited-member:info" "$BAD_ALARMS no-sa-path partition-single-member"
audit_case two-leaf.topo sound-two-leaf.conf "--tenants $D/tenants.map --opensm-conf $D/opensm-good.conf" 0 \
  "shared-limited-member:medium" "$BAD_ALARMS mkey-not-set mkey-readable part-enforce-off part-enforce-partial"

# broken plans
audit_case two-leaf.topo default-all-full.conf "" 1 "default-full-member:critical" "tenant-bridge"
audit_case two-leaf.topo storage-full-bridge.conf "" 1 "tenant-bridge:high" "shared-limited-member default-full-member"
audit_case seed.topo rejected.conf "" 1 "plan-rejected:critical" ""
# the seed dialect: audited as the plan it describes (no full member of
# the default partition among tenants), flagged high as a file that must
# not reach OpenSM
audit_case seed.topo seed-block.conf "" 1 "plan-rejected:high shared-limited-member:medium" "default-full-member"
audit_case two-leaf.topo missing-comma.conf "" 1 "plan-misread:high" ""
audit_case two-leaf.topo dead-partitions.conf "" 0 \
  "partition-no-full-member:medium partition-single-member:info" "tenant-bridge"
audit_case two-leaf.topo dead-partitions.conf "--fail-on medium" 1 "partition-no-full-member:medium" ""
audit_case two-leaf.topo wrong-tenant.conf "--tenants $D/tenants.map" 1 "cross-tenant-reach:critical" ""
audit_case two-leaf.topo capacity.conf "" 1 "capacity-overflow:high" "tenant-bridge"
audit_case two-leaf.topo sound-two-leaf.conf "--opensm-conf $D/opensm-weak.conf" 1 \
  "mkey-not-set:high part-enforce-off:high" "part-enforce-partial"
audit_case two-leaf.topo sound-two-leaf.conf "--opensm-conf $D/opensm-readable.conf" 0 \
  "mkey-readable:medium part-enforce-partial:medium" "mkey-not-set part-enforce-off"

# details: the right ports and partitions
"$IBPART" audit -t "$D/two-leaf.topo" --format json "$D/storage-full-bridge.conf" >j || true
[[ $(jq -c '.findings[] | select(.code=="tenant-bridge") | [.ports, .partitions]' j) == \
   '[["0x0002c90000001801"],["0x0010","0x0020"]]' ]] || fail "bridge ports/partitions: $(cat j)"
"$IBPART" audit -t "$D/two-leaf.topo" --format json --tenants "$D/tenants.map" "$D/wrong-tenant.conf" >j || true
jq -e '.findings[] | select(.code=="cross-tenant-reach") | (.ports | index("0x0002c90000001501")) and (.partitions == ["0x0010"])' j >/dev/null ||
  fail "cross-tenant-reach does not name blue-01 in 0x0010"
"$IBPART" audit -t "$D/two-leaf.topo" --format json "$D/missing-comma.conf" >j || true
jq -e '.findings[] | select(.code=="plan-misread") | (.ports == ["0x0002c90000001101","0x0002c90000001201"]) and (.partitions == ["0x0010"])' j >/dev/null ||
  fail "plan-misread ports/partitions: $(jq -c '.findings[0]' j)"
"$IBPART" audit -t "$D/two-leaf.topo" --format json "$D/default-all-full.conf" >j || true
[[ $(jq '.findings[] | select(.code=="default-full-member") | .ports | length' j) == 6 ]] ||
  fail "default-full-member should name the 6 tenant ports"

# 100 partitions on two 64-entry ports: 101 P_Keys with the default, so
# the same 37 do not fit on each: one finding for both ports, naming all
# 37 (not a first few)
for i in $(seq 1 100); do
  printf 'P%d=0x%04x : 0x0002c90000001101=full, 0x0002c90000001201=full ;\n' "$i" "$i"
done >cap100.conf
"$IBPART" audit -t "$D/two-leaf.topo" --format json cap100.conf >j || true
[[ $(jq -c '[.findings[] | select(.code=="capacity-overflow") | [(.partitions | length), (.ports | length)]]' j) == '[[37,2]]' ]] ||
  fail "capacity-overflow on 100 partitions: $(jq -c '[.findings[] | select(.code=="capacity-overflow") | .message]' j)"
jq -e '.findings[] | select(.code=="capacity-overflow") | .message | test("^2 ports \\(0x0002c90000001101, 0x0002c90000001201\\) should each hold 101 P_Keys.* 37 partition")' j >/dev/null ||
  fail "capacity-overflow message count"

# text output and --fail-on
expect_status 1 "$IBPART" audit -t "$D/seed.topo" "$D/rejected.conf"
expect_grep "^critical plan-rejected: " out
expect_grep "fix: " out
expect_status 0 "$IBPART" audit -t "$D/seed.topo" --fail-on critical "$D/sound-seed.conf"
expect_status 1 "$IBPART" audit -t "$D/seed.topo" --fail-on info "$D/sound-seed.conf"
finish
