#!/usr/bin/env bash
# Hostile input is refused with a reason and within bounds, never a hang
# or unbounded memory: a VT, FF or CR after a port line (the topology
# reader used to loop forever on them, one warning a pass), and endless
# inputs (/dev/zero as a plan or a topology), which stop at the input
# limit with exit 2.
source "$(dirname "$0")/lib.sh"
plan="$IBP_SRC/examples/seed/partitions.conf"

for c in '\v' '\f' '\r'; do
  printf "Switch 2 \"S-0000000000000001\"\n[1]\t\"H-0000000000000002\"[1]$c\n" >ws.topo
  set +e
  timeout 10 "$IBPART" matrix -t ws.topo "$plan" >out 2>err
  rc=$?
  set -e
  [[ $rc -eq 2 ]] || fail "a port line ending in $c: exit $rc, expected 2 (124 is a hang)"
  (( $(wc -c <err) < 4096 )) || fail "a port line ending in $c: $(wc -c <err) bytes of diagnostics"
  expect_grep 'ws.topo:2:' err
done

# Endless input: stops at the limit (1 GiB by default), exit 2, named;
# under ASan+UBSan, where reading 1 GiB takes minutes on a loaded
# machine, the same stop at 64 MiB
lim=()
[[ ${IBP_SANITIZE:-0} == 1 ]] && lim=(--max-input-size 64M)
set +e
timeout 120 "$IBPART" check "${lim[@]}" /dev/zero >out 2>err
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "check /dev/zero: exit $rc, expected 2"
expect_grep '/dev/zero: error: larger than the input limit' err

# A 500 KB line: OpenSM reads it in pieces of 4094 bytes, 123 of them
# (500,018 bytes), each but the last cut mid-line (122 long-line
# errors) and each holding a word that is no GUID (123 bad-guid): 245
# errors.  (This test once wanted 200: the reader kept only 100
# findings of a kind and dropped the rest, from the JSON too.)  Each
# quote is a window around the caret, not the line (72 MB of stderr
# before), messages are cut, and after 20 errors a count of the rest.
python3 -c "import sys; sys.stdout.write('Default=0x7fff : ALL=full ;\nA=0x0001 : ' + 'x'*500000 + ' 0xzz ;\n')" >long.conf
expect_status 2 "$IBPART" check long.conf
(( $(wc -c <err) < 20000 )) || fail "a 500 KB line: $(wc -c <err) bytes of stderr"
expect_grep '^long.conf:2:' err
expect_grep '…' err
expect_grep '^225 more findings not shown (225 errors' err
n=$(grep -c ': error: ' err)
[[ $n == 20 ]] || fail "--max-errors default 20: $n errors printed"
expect_status 2 "$IBPART" check --max-errors 0 long.conf
n=$(grep -c ': error: ' err)
[[ $n == 245 ]] || fail "--max-errors 0: $n errors printed, want 245"
expect_status 2 "$IBPART" check --max-errors=3 --format json long.conf
[[ $(jq '[.findings[] | select(.severity == "error")] | length' out) == 245 ]] ||
  fail "JSON does not hold every finding"
expect_status 2 "$IBPART" check --max-errors x long.conf
expect_grep "^ibpart: --max-errors wants a number 0..1000000000, not 'x'" err
expect_status 2 "$IBPART" check --max-errors $'\e[2J' long.conf
expect_no_grep $'\e' err  # the value echoed escaped (escape.h)
# so is an argument a command's usage error quotes (it went out raw)
for args in "tables --format $'\e[2J'" "sim --mode $'\e]0;x\a'" "gen --cas $'\e[1m'" \
  "$'\e[2Jx'" "help $'\e[2J'" "check --format text $'/\e[1m'"; do
  eval "expect_status 2 \"\$IBPART\" $args"
  expect_no_grep $'\e' err
  expect_grep '\\x1b' err
done

# Terminal control bytes and invalid UTF-8 in a file are escaped in text
# and kept (as U+FFFD plus the exact bytes in hex) in JSON.
printf 'Default=0x7fff : ALL=full ;\nA=0x0001 : \033[2K\r\xff ;\n' >esc.conf
expect_status 2 "$IBPART" check esc.conf
if LC_ALL=C grep -q $'\033' err; then fail "an ESC byte reached the terminal raw"; fi
expect_grep '\\x1b\[2K\\x0d\\xff' err
expect_status 2 "$IBPART" check --format json esc.conf
n=$(jq '.findings | length' out)
e=$(jq '.errors' out)
(( n >= e && e >= 1 )) || fail "JSON lost findings: $n findings, $e errors"
jq -e '[.findings[] | select(.message_hex)] | length >= 1' out >/dev/null ||
  fail "no message_hex beside a lossy message: $(cat out)"

# A NodeDescription with terminal control bytes and a spreadsheet
# formula (a tenant's HCA says what it likes): no output of any command
# carries the ESC raw, the CSV cell is defused, and JSON keeps it valid.
printf 'Switch 3 "S-0000000000000001" # "leaf" lid 1\n[1] "H-0000000000000002"[1]\n[2] "H-0000000000000004"[1]\n\nCa 1 "H-0000000000000002" # "sm-01"\n[1](0000000000000003) "S-0000000000000001"[1]\n\nCa 1 "H-0000000000000004" # "=HYPERLINK(1)\033[2K\r"\n[1](0000000000000005) "S-0000000000000001"[2]\n' >evil.topo
printf 'Default=0x7fff, ipoib : ALL=full ;\nA=0x0001 : 0x0000000000000005=full, 0x0000000000000003 ;\n' >evil.conf
for args in "tables -t evil.topo evil.conf" "tables -t evil.topo --format json evil.conf" \
  "matrix -t evil.topo evil.conf" "matrix -t evil.topo --format md evil.conf" \
  "matrix -t evil.topo --format csv evil.conf" "matrix -t evil.topo --format json evil.conf" \
  "matrix -t evil.topo --format html evil.conf" "audit -t evil.topo evil.conf" \
  "audit -t evil.topo --format json evil.conf" "check -t evil.topo evil.conf" \
  "sim -t evil.topo -c evil.conf probe-matrix" "sim -t evil.topo -c evil.conf counters"; do
  set +e
  # shellcheck disable=SC2086
  "$IBPART" $args >out 2>err
  set -e
  if LC_ALL=C grep -q $'\033' out err; then fail "ibpart $args printed an ESC raw"; fi
done
"$IBPART" matrix -t evil.topo --format csv evil.conf >out
expect_grep "\"'=HYPERLINK" out
"$IBPART" tables -t evil.topo --format json evil.conf >out
jq -e . out >/dev/null || fail "tables JSON is not valid JSON"

# A node-name-map name with a backslash-quote: rdma-core has no escapes
# and ignores the rest; ibpart says so instead of cutting silently.
printf '0x0002c90000000001 "a\\"b" trailing\n' >q.nnm
expect_status 0 "$IBPART" check -t "$IBP_SRC/examples/seed/seed.topo" --node-name-map q.nnm "$plan"
expect_grep 'q.nnm:1:24: warning: text after the quoted name is ignored' err

# --mkey-file: refused when others can read it, or when it holds no
# number; the key itself is never echoed.
echo 0x00c0ffee00c0ffee >mk
chmod 644 mk
expect_status 2 "$IBPART" verify -c evil.conf --mkey-file mk
expect_grep 'readable by others' err
expect_no_grep 'c0ffee' err
chmod 600 mk
printf '# nothing here\n' >mk0
chmod 600 mk0
expect_status 2 "$IBPART" verify -c evil.conf --mkey-file mk0
expect_grep 'holds no number' err
finish
