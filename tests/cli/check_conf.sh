#!/usr/bin/env bash
# ibpart check: compiler-style findings (file:line:col, the line, a
# caret), every problem in one run, exit 0/1/2, JSON findings on stdout,
# and --opensm's account of what OpenSM 3.3.23 would do.
source "$(dirname "$0")/lib.sh"
EX=$IBP_SRC/examples/seed
C=$IBP_SRC/tests/data/conf/corners

# the seed's OpenSM file is clean
expect_status 0 "$IBPART" check "$EX/partitions.conf"
[[ ! -s err ]] || fail "findings on a clean file: $(cat err)"

# the missing comma: located, quoted, caret under the word
expect_status 2 "$IBPART" check "$C/c01-missing-comma.conf"
expect_grep "c01-missing-comma.conf:6:37: error: missing comma" err
expect_grep "\[missing-comma\]" err
expect_grep "^    6 | TenantA=0x0001 : 0x506b4b0300a1b200=full 0x506b4b0300a1b201=full" err
expect_grep "^      | *\^$" err
caret=$(grep -m1 '^      | ' err | sed 's/^      | //')
[[ ${#caret} -eq 37 ]] || fail "caret at column ${#caret}, expected 37"

# every problem, not just the first (the statement without ':' runs on
# to the ';' of line 3, as in OpenSM)
cat >many.conf <<'X'
A=0x1, rate=NDR, mtu=4096, ipob : ALL=fulll ;
B=0x2
C=0x3 : 0xzz=full, 0x5=limited ;
D=0x4 : 0x10=full, 0xzz=full ;
X
expect_status 2 "$IBPART" check many.conf
for code in rate-name mtu-range unknown-flag unknown-membership no-colon bad-guid; do
  expect_grep "\[$code\]" err
done
expect_grep "many.conf:1:13: error: OpenSM takes IBTA rate codes" err
expect_grep "many.conf:2:1: error: no ':'" err
expect_grep "rejects the whole file" err

# --opensm: what OpenSM would do
expect_status 2 "$IBPART" check --opensm many.conf
expect_grep "would reject this file" out
expect_grep 'PARSE ERROR: line 2: no partition definition found' out
expect_status 2 "$IBPART" check --opensm "$C/c01-missing-comma.conf"
expect_grep "would accept this file" out
expect_grep "silently read 1 thing" out

# warnings only: exit 1
printf 'T=0x1 : 0x10=limited, 0x11=limited ;\nU=0x2 : 0x12=full, 0x12=full ;\n' >warn.conf
expect_status 1 "$IBPART" check warn.conf
expect_grep "warn.conf:1:1: warning: partition 'T' (0x0001) has no full member" err
expect_grep "\[duplicate-member\]" err
expect_no_grep "error:" err

# JSON: the same findings as objects, on stdout
expect_status 2 "$IBPART" check --format json --opensm many.conf
python3 - out <<'P' || fail "bad JSON findings"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["findings"]
assert d["errors"] >= 6, d["errors"]
for x in f:
    assert set(x) >= {"file", "line", "column", "severity", "code", "message"}, x
assert any(x["code"] == "no-colon" and x["line"] == 2 and x["column"] == 1 for x in f)
assert d["opensm"]["rejected"] is True and d["opensm"]["line"] == 2
P

# a topology: GUIDs it does not have are warnings
printf 'T=0x1 : 0x506b4b0300a1b200=full, 0x1234=full ;\n' >topo.conf
expect_status 1 "$IBPART" check -t "$EX/seed.topo" topo.conf
expect_grep "topo.conf:1:34: warning: port GUID 0x1234 is not in the topology" err

# the seed dialect: names need the topology
expect_status 1 "$IBPART" check -t "$EX/seed.topo" "$IBP_SRC/tests/data/conf/seed-block.conf"
expect_grep "\[seed-dialect\]" err
expect_status 2 "$IBPART" check "$IBP_SRC/tests/data/conf/seed-block.conf"
expect_grep "\[unresolved-name\]" err

# CRLF and an empty file are rejected by OpenSM: errors
expect_status 2 "$IBPART" check "$C/c06-crlf-rejected.crlf"
expect_grep "c06-crlf-rejected.crlf:4:68: error: .*Windows CR LF line ends.*dos2unix.* \[no-colon\]$" err
# ... and the message says the CR is why, since the caret points past
# what an editor shows
printf 'Default=0x7fff : ALL=full ;\r\n' >crlf.conf
expect_status 2 "$IBPART" check crlf.conf
expect_grep "^crlf.conf:1:28: error: no ':' in this partition header: it is only the CR that ends the line.*(this file has Windows CR LF line ends: OpenSM reads the CR as part of the line; convert with dos2unix) \[no-colon\]$" err
expect_status 2 "$IBPART" check --format json crlf.conf
jq -e '.findings[0] | .code == "no-colon" and .severity == "error" and (.message | test("CR LF"))' out >/dev/null ||
  fail "crlf json: $(cat out)"
: >empty.conf
expect_status 2 "$IBPART" check --opensm empty.conf
expect_grep "would reject" out

# usage and unreadable input
expect_status 2 "$IBPART" check
expect_status 2 "$IBPART" check --format yaml warn.conf
expect_status 2 "$IBPART" check /nonexistent/partitions.conf
expect_grep "cannot open" err
# A node GUID where a port GUID belongs: OpenSM skips it; check names the
# port GUID that was meant (tenantA-node-01: node ...1ff, port ...200)
printf 'Default=0x7fff : ALL, SELF=full ;\nA=0x0001 : 0x506b4b0300a1b1ff=full ;\n' >ng.conf
expect_status 1 "$IBPART" check -t "$IBP_SRC/examples/seed/seed.topo" ng.conf
expect_grep "ng.conf:2:12: warning: 0x506b4b0300a1b1ff is the node GUID of 'tenantA-node-01', not a port GUID; .* its port GUID is 0x506b4b0300a1b200 (port 1) \[node-guid\]" err
expect_no_grep "unknown-guid" err
finish
