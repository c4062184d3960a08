#!/usr/bin/env bash
# Valid UTF-8 that a terminal runs instead of showing must not reach it
# raw either: U+009B (bytes C2 9B) is CSI in xterm, so a NodeDescription
# "\u009b2K" erased a line as ESC [ 2K does, and U+202E (E2 80 AE)
# reverses the text after it (Trojan Source).  The text rule writes
# their bytes as \xNN (tables, matrix text/md/csv, audit, check, the
# notes on stderr); JSON keeps them (valid UTF-8, escaped by JSON).  A
# CSV cell starting with a tab (OWASP's CSV injection list) is defused
# like one starting with =.
source "$(dirname "$0")/lib.sh"
seed="$IBP_SRC/examples/seed"
# sm-01's node GUID: named by a node-name-map as a tenant could name its HCA
printf '0x506b4b0300a1b2ff "x\xc2\x9b2K\xe2\x80\xaeevil"\n' >nnm
printf '0x506b4b0300a1b300 "\t=1+1"\n' >nnm-tab
for args in "tables" "matrix" "matrix --format md" "matrix --format csv" \
  "audit" "check --opensm"; do
  set +e
  # shellcheck disable=SC2086
  "$IBPART" $args -t "$seed/seed.topo" --node-name-map nnm "$seed/partitions.conf" >out 2>err
  set -e
  if LC_ALL=C grep -q $'\xc2\x9b\|\xe2\x80\xae' out err; then
    fail "ibpart $args printed U+009B or U+202E raw: $(LC_ALL=C grep -a -m2 evil out err | cat -A)"
  fi
done
"$IBPART" tables -t "$seed/seed.topo" --node-name-map nnm "$seed/partitions.conf" >out 2>err
expect_grep 'x\\xc2\\x9b2K\\xe2\\x80\\xaeevil' out
"$IBPART" tables -t "$seed/seed.topo" --node-name-map nnm --format json "$seed/partitions.conf" >out 2>err
[[ $(jq -r '.ports[0].node_desc' out) == $'x\xc2\x9b2K\xe2\x80\xaeevil' ]] ||
  fail "JSON did not keep the name: $(jq '.ports[0].node_desc' out)"
"$IBPART" matrix -t "$seed/seed.topo" --node-name-map nnm-tab --format csv "$seed/partitions.conf" >out 2>err
expect_grep "^0x506b4b0300a1b301,\"'	=1+1\"" out

# Partition names come from the plan: the class summary printed them raw
# (an ESC reached the terminal), and Markdown took a '|' in a name or a
# NodeDescription as a column break and '<b>' as HTML.  Markdown cells
# now show the text form: | as \|, < > & as entities.
printf 'Default=0x7fff, ipoib : ALL=full ;\nx\033[2K\xc2\x9by|z=0x0001 : 0x506b4b0300a1b200=full, 0x506b4b0300a1b201 ;\n' >pn.conf
for f in text md; do
  "$IBPART" matrix -t "$seed/seed.topo" --grid-limit 1 --format "$f" pn.conf >out 2>err || true
  if LC_ALL=C grep -q $'\033\|\xc2\x9b' out err; then
    fail "matrix --format $f printed a partition name raw: $(LC_ALL=C grep -a -m2 0x0001 out | cat -A)"
  fi
done
expect_grep '^| x\\\\x1b\\\[2K\\\\xc2\\\\x9by\\|z | 0x0001 | 1 | 1 |$' out
printf '0x506b4b0300a1b2ff "a|b<b>x</b>"\n' >md.nnm
"$IBPART" matrix -t "$seed/seed.topo" --node-name-map md.nnm --format md "$seed/partitions.conf" >out 2>err
expect_grep '^| a\\|b&lt;b&gt;x&lt;/b&gt; | — |' out
# every row of the grid has the header's number of cells
cols=$(sed -n 3p out | sed 's/\\|//g' | tr -cd '|' | wc -c)
bad=$(sed -n '3,$p' out | grep '^|' | sed 's/\\|//g' | awk -F'|' -v c="$cols" 'NF-1 != c' | wc -l)
[[ $bad == 0 ]] || fail "$bad Markdown rows with another number of cells than the header's $cols"

# The HTML page's <title> is the plan's file name: its ESC went into the
# page raw (a `cat` of the report reached the terminal) and an invalid
# byte broke the page's UTF-8.  Now it shows as the text rule shows it.
f=$(printf 'plan\033[2K\xff.conf')
cp "$seed/partitions.conf" "$f"
"$IBPART" matrix -t "$seed/seed.topo" --format html -o page.html "$f" 2>err
if LC_ALL=C grep -q $'\033' page.html; then fail "an ESC in the HTML page: $(LC_ALL=C grep -a '<title>' page.html | cat -A)"; fi
iconv -f UTF-8 -t UTF-8 page.html >/dev/null 2>&1 || fail "the HTML page is not valid UTF-8"
expect_grep '<title>plan\\x1b\[2K\\xff.conf: P_Key reachability' page.html

# A plan whose file name is not UTF-8 lost every finding in check's JSON
# (issue 12): each finding is there, the name as U+FFFD and its exact
# bytes in file_hex.
printf 'Default=0x7fff : ALL=full ;\nA=0x1 : 0xzz ;\n' >"$f"
expect_status 2 "$IBPART" check --format json "$f"
[[ $(jq '.findings | length' out) == 2 && $(jq '.errors' out) == 1 ]] ||
  fail "check JSON on a non-UTF-8 file name: $(head -c 300 out)"
[[ $(jq -r '[.findings[].file_hex] | unique | .[0]' out) == "$(printf '%s' "$f" | od -An -tx1 | tr -d ' \n')" ]] ||
  fail "no file_hex with the name's bytes: $(jq -c '.findings[0]' out)"
finish
