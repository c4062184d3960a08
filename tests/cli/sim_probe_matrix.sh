#!/usr/bin/env bash
# sim_probe_matrix.sh - the probe matrix (packets through the data plane)
# equals the matrix computed here from the tables the ports hold (read
# with smpquery) by the IBA rule: same 15-bit base, at least one full.
# Checked in both modes; then `counters` shows what the failed probes did.
source "$(dirname "$0")/lib.sh"
TOPO=$IBP_SRC/examples/seed/seed.topo CONF=$IBP_SRC/examples/seed/seed-block.conf
names=(sm-01 ufm-server tenantA-node-01 tenantA-node-02 tenantB-node-01 tenantB-node-02 storage-node)
for mode in strict opensm; do
  expect_status 0 "$IBPART" sim -q --mode $mode -t "$TOPO" -c "$CONF" probe-matrix
  cp out probe.$mode
  : >keys
  for n in "${names[@]}"; do
    expect_status 0 "$IBPART" sim -q --mode $mode -t "$TOPO" -c "$CONF" smpquery pkeys "$n" 1
    echo "$n $(grep -o '0x[0-9a-f]\{4\}' out | grep -v '^0x0000$\|^0x8000$' | tr '\n' ' ')" >>keys
  done
  # expected[i][j] by the rule, computed from the tables with awk
  awk '
    function val(k,   v, i) { v = 0; for (i = 3; i <= 6; i++) v = v * 16 + index("0123456789abcdef", substr(k, i, 1)) - 1; return v }
    function base(k) { return val(k) % 32768 }
    function full(k) { return val(k) >= 32768 }
    { name[NR] = $1; cnt[NR] = NF - 1; for (f = 2; f <= NF; f++) key[NR, f - 1] = $f }
    END {
      for (i = 1; i <= NR; i++) {
        line = "| " name[i] " |"
        for (j = 1; j <= NR; j++) {
          if (i == j) { line = line " — |"; continue }
          ok = 0
          for (a = 1; a <= cnt[i]; a++) for (b = 1; b <= cnt[j]; b++)
            if (base(key[i, a]) == base(key[j, b]) && (full(key[i, a]) || full(key[j, b]))) ok = 1
          line = line (ok ? " ✓ |" : " ✗ |")
        }
        print line
      }
    }' keys >expected
  grep '^| [a-z]' probe.$mode >got
  diff expected got >/dev/null || { fail "$mode: probe matrix differs from the rule"; diff expected got >&2; }
done
# Failed probes are real drops: counters and traps show them.
expect_status 0 "$IBPART" sim -q --mode strict -t "$TOPO" -c "$CONF" probe-matrix counters
expect_grep 'SM (sm-01): traps received [1-9]' out
expect_grep 'lost 0$' out
finish
