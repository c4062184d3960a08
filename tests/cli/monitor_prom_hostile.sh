#!/usr/bin/env bash
# monitor_prom_hostile.sh - the Prometheus exposition of `ibpart monitor`
# with a tenant (partition) name holding a double quote, a backslash, an
# invalid UTF-8 byte and an ESC: the label value is escaped as the text
# format wants (\" and \\), the invalid byte is U+FFFD, the output is
# valid UTF-8, and Prometheus' own parser (promtool check metrics) reads
# every line.  Its linter's one remark allowed is the name the issue
# fixes for ibpart_counter_saturated ("should not include type
# 'counter'"): a parse error, or any other remark, fails.
source "$(dirname "$0")/lib.sh"
command -v promtool >/dev/null || { echo "SKIP: promtool (prometheus) not installed" >&2; exit 77; }
# TenantB renamed: Ten"ant\B<0xC3>(<ESC>[2K  (0xC3 begins a UTF-8 pair
# that '(' does not continue: invalid)
sed $'s/^TenantB=/Ten"ant\\\\B\xc3(\x1b[2K=/' "$IBP_SRC/examples/seed/partitions.conf" >hostile.conf
grep -q $'^Ten"ant\\\\B\xc3(\x1b\\[2K=0x0002' hostile.conf || fail "the hostile plan was not written"
expect_status 1 "$IBPART" monitor -q --sim -t "$IBP_SRC/examples/seed/seed.topo" -c hostile.conf \
  --pingpong tenantA-node-01 tenantB-node-01 --pkey-index 1
cp out m.prom
# the exact sample: \" and \\ escaped, U+FFFD (EF BF BD) for 0xC3, the ESC
# kept (valid UTF-8, legal in a label value)
want=$'ibpart_tenant_constraint_errors_total{tenant="Ten\\"ant\\\\B\xef\xbf\xbd(\x1b[2K",direction="toward"} 8'
grep -qxF -- "$want" m.prom || fail "escaped tenant sample not found: $(head -5 <<<"$(grep -a 'direction="toward"} 8' m.prom | od -c)")"
iconv -f UTF-8 -t UTF-8 m.prom >/dev/null || fail "the exposition is not valid UTF-8"
set +e
promtool check metrics <m.prom >prom.out 2>&1
rc=$?
set -e
grep -q 'error while linting\|parsing error' prom.out && fail "promtool cannot parse it: $(head -3 prom.out)"
grep -v "^ibpart_counter_saturated metric name should not include type 'counter'$" prom.out >prom.other || true
[[ ! -s prom.other ]] || fail "promtool remarks: $(head -5 prom.other)"
[[ $rc -eq 0 || $rc -eq 3 ]] || fail "promtool exited $rc"
finish
