#!/usr/bin/env bash
# ibpart matrix --format html, the web view (docs/matrix.md), opened in
# real headless Chromium: the page is self-contained (no fetch), its
# tables are in the HTML itself (readable without JavaScript), the
# script runs without a console error, the sections a user needs are in
# the DOM, the search filters (a "#q=" fragment: by node name, by
# partition name - a port is matched by the P_Keys in its table - and by
# port GUID), a class's row in the matrix leads to its ports, a full
# P_KeyTable is marked on its port and its partitions, and --monitor
# draws a sparkline per tenant.  Screenshots at 7 ports (the seed) and
# 5,000 ports are kept in $IBP_BUILD/artefacts/ (web_seed.png,
# web_5000.png) for a person to look at.  Without chromium the HTML is
# checked as text only and the test reports itself skipped (77).
source "$(dirname "$0")/lib.sh"
S="$IBP_SRC/examples/seed"
ART=${IBP_BUILD:-$T}/artefacts
mkdir -p "$ART"

# tenantA-node-01 sends into TenantB over three sweeps: the totals
# monitor --format json --interval S writes, one object per sweep
for v in 0 3 8; do
  printf '{"tenants": [{"name": "TenantA", "pkey": 1, "ports": 3, "from": 0, "toward": 0, "pkey_violations": 0},
 {"name": "TenantB", "pkey": 2, "ports": 3, "from": 0, "toward": %d, "pkey_violations": 0}]}\n' "$v"
done >mon.json

expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict --format html --monitor mon.json \
  -o seed.html "$S/partitions.conf"
grep -q '^<!DOCTYPE html>' seed.html || fail "not HTML"
# self-contained: no external scripts, styles, images or fonts
grep -Eqi '<(script|img|iframe)[^>]* src=|<link[^>]* href=|url\(|@import|https?://' seed.html &&
  fail "the page refers to something outside itself"
# readable without JavaScript: the content is HTML, not data for a script
expect_grep '<tr><td>tenantA-node-01<td>1<td>0x506b4b0300a1b200<td>C1 <td>[0-9]*<td>8001' seed.html
expect_grep '<summary><b>TenantB</b> 0x0002 &mdash; 2 full, 1 limited members' seed.html
expect_grep '<th class=row>storage-node' seed.html
expect_grep '<svg class=spark' seed.html
expect_no_grep 'application/json' seed.html
expect_status 2 "$IBPART" matrix -t "$S/seed.topo" --format json --monitor mon.json "$S/partitions.conf"
echo '{"tenants": [' >bad.json
expect_status 2 "$IBPART" matrix -t "$S/seed.topo" --format html --monitor bad.json -o nope.html "$S/partitions.conf"
expect_grep 'bad.json:[0-9]*:[0-9]*: error' err
[[ ! -e nope.html ]] || fail "a bad --monitor file left an output file"

# 5,000 ports, 70 tenants: the storage nodes' tables (64 entries) overflow
"$IBPART" gen --cas 5000 --partitions 70 --storage 2 --mgmt 2 -o g.topo --conf g.conf 2>/dev/null ||
  fail "ibpart gen"
expect_status 0 "$IBPART" matrix -t g.topo --format html -o big.html g.conf
[[ $(stat -c %s big.html) -lt 1500000 ]] || fail "5,000 ports: $(stat -c %s big.html) bytes"
expect_grep '<tr class=ovf><td>storage-0001<td>.*table full: 7 dropped' big.html
expect_grep 'ovfb>dropped by 2 full tables' big.html
expect_grep '<th class=row><a href="#c[0-9]*">C[0-9]*: t0001 full' big.html

if ! command -v chromium >/dev/null; then
  [[ $fails -eq 0 ]] || finish
  echo "SKIP: chromium is absent; the HTML was checked as text only (scripts/deps.sh test)"
  exit 77
fi
# chrome URL OUT: the DOM after the script ran in OUT, console in OUT.log
chrome() {
  local prof; prof=$(mktemp -d -p "$T")
  timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
    --enable-logging=stderr --v=0 "$@"
}
dom() { chrome --dump-dom "$1" >"$2" 2>"$2.log" || fail "chromium --dump-dom $1"
  ! grep -q ':CONSOLE' "$2.log" || fail "console messages on $1: $(grep -m3 ':CONSOLE' "$2.log")"; }

dom "file://$T/seed.html" dom.html
for id in title cards nav q tenants matrix-table legend classes ports-table findings-table violations-table; do
  grep -q "id=\"$id\"" dom.html || fail "no #$id in the DOM"
done
expect_grep '<b>7 / 21</b>' dom.html
expect_no_grep '<tr hidden=' dom.html

# the search, by node name: TenantB's nodes hidden, TenantA's shown
dom "file://$T/seed.html#q=tenantA" qa.html
expect_grep '<tr hidden=""><td>tenantB-node-01</td><td>1</td>' qa.html
expect_grep '<tr><td>tenantA-node-01</td><td>1</td>' qa.html
expect_grep 'id="qcount">[0-9]* of [0-9]* rows and sections match' qa.html
# by partition name: storage-node matches by its P_KeyTable (0x0002)
dom "file://$T/seed.html#q=TenantB" qb.html
expect_grep '<tr><td>storage-node</td><td>1</td>' qb.html
expect_grep '<tr><td>tenantB-node-02</td><td>1</td>' qb.html
expect_grep '<tr hidden=""><td>tenantA-node-01</td><td>1</td>' qb.html
expect_grep '<tr hidden=""><td>sm-01</td><td>1</td>' qb.html
expect_grep '<details class="tenant f" id="p-0001" data-b="1" open="" hidden="">' qb.html
# by port GUID
dom "file://$T/seed.html#q=0x506b4b0300a1b301" qg.html
expect_grep '<tr><td>ufm-server</td><td>1</td>' qg.html
expect_grep '<tr hidden=""><td>sm-01</td><td>1</td>' qg.html
# the sparkline: TenantB's toward series rose by 8
expect_grep '<td>TenantB</td><td>toward</td><td><svg class="spark"[^>]*><polyline points="2.0,25.0 80.0,16.8 158.0,3.0"' dom.html
expect_grep '<td>8</td><td class="up">+8</td>' dom.html

# the large page: no console error, a class opens from its matrix row
dom "file://$T/big.html" bigdom.html
c=$(grep -m1 -o '<th class=row><a href="#c[0-9]*"' big.html)
c=${c##*#}
c=${c%\"}
dom "file://$T/big.html#$c" bigc.html
expect_grep "<details class=\"cls f\" id=\"$c\" data-k=\"[0-9a-f ]*\" open=\"\">" bigc.html
dom "file://$T/big.html#q=storage-0002" bigq.html
expect_grep '<tr class="ovf"><td>storage-0002</td><td>1</td>' bigq.html
expect_grep '<tr class="ovf" hidden=""><td>storage-0001</td><td>1</td>' bigq.html

chrome --screenshot="$ART/web_seed.png" --window-size=1280,1700 "file://$T/seed.html" >/dev/null 2>&1 ||
  fail "screenshot"
chrome --screenshot="$ART/web_5000.png" --window-size=1400,2400 "file://$T/big.html" >/dev/null 2>&1 ||
  fail "screenshot (5,000 ports)"
for p in "$ART/web_seed.png" "$ART/web_5000.png"; do
  [[ -s $p && $(head -c 8 "$p" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$p is not a PNG"
  [[ $(stat -c %s "$p") -gt 20000 ]] || fail "$p is suspiciously small (blank page?)"
done
echo "screenshots: $ART/web_seed.png $ART/web_5000.png"
finish
