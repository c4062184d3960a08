#!/usr/bin/env bash
# test_discover_hostile_desc.sh - a NodeDescription off the wire that a
# topology file cannot hold: ibsim runs the seed fabric with one CA
# described as "evil<VT><CR>node<ESC>[8m" (as a tenant could name its
# HCA); `ibpart discover -o` writes it with the line break and control
# bytes as spaces, says so in one desc-replaced warning naming that node,
# and the file it wrote reads back (every node on its own line).
source "$(dirname "$0")/live_lib.sh"
live_init
topo=$LIVE_DIR/evil.topo
python3 - "$IBP_SRC/examples/seed/seed.topo" "$topo" <<'PY'
import sys
s = open(sys.argv[1], 'rb').read()
old = b'Ca\t1 "H-506b4b0300a1b1ff"\t\t# "tenantA-node-01"'
assert old in s
open(sys.argv[2], 'wb').write(s.replace(old, b'Ca\t1 "H-506b4b0300a1b1ff"\t\t# "evil\x0b\rnode\x1b[8m"'))
PY
live_ibsim "$topo" H-506b4b0300a1b2ff
live_ibpart discover -q -o "$LIVE_DIR/out.topo" 2>"$LIVE_DIR/err" ||
	live_fail "discover failed: $(cat "$LIVE_DIR/err")"
[[ $(grep -c 'desc-replaced' "$LIVE_DIR/err") -eq 1 ]] ||
	live_fail "not one desc-replaced warning: $(cat -A "$LIVE_DIR/err")"
grep -q '^.*out.topo: warning: the NodeDescription of H-506b4b0300a1b1ff (node GUID 0x506b4b0300a1b1ff) holds a line break, a control byte' "$LIVE_DIR/err" ||
	live_fail "the warning does not name the node and what it held: $(cat -A "$LIVE_DIR/err")"
! LC_ALL=C grep -q $'[\r\x0b\x1b]' "$LIVE_DIR/out.topo" ||
	live_fail "a raw control byte in the written topology"
[[ $(grep -c '# "evil  node \[8m"' "$LIVE_DIR/out.topo") -ge 2 ]] ||
	live_fail "the description is not written with spaces (header and peer lines)"
"$IBPART" tables -t "$LIVE_DIR/out.topo" "$IBP_SRC/examples/seed/partitions.conf" >/dev/null ||
	live_fail "the written topology does not read back"
live_ok "a NodeDescription with VT, CR and ESC: written with spaces, one warning"
