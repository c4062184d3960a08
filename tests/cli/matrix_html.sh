#!/usr/bin/env bash
# ibpart matrix --format html: one self-contained page (no network
# fetch), opened in headless Chromium: the script runs (the fabric
# summary and the hover text of a pinned cell are in the DOM) and a
# screenshot is taken ($IBP_BUILD/matrix_html_seed.png and
# matrix_html_classes.png, for a person to look at).  When chromium is
# absent the HTML is checked as text only and the test reports itself
# skipped (exit 77), not passed: the page was never run.
source "$(dirname "$0")/lib.sh"
S="$IBP_SRC/examples/seed"
OUTDIR=${IBP_BUILD:-$T}

expect_status 0 "$IBPART" matrix -t "$S/seed.topo" --mode strict --format html -o seed.html "$S/partitions.conf"
grep -q '^<!DOCTYPE html>' seed.html || fail "not HTML"
# self-contained: no external scripts, styles, images or fonts
grep -Eqi '<(script|img|iframe)[^>]* src=|<link[^>]* href=|url\(|@import|https?://' seed.html &&
  fail "the page refers to something outside itself"
grep -q 'id="data">{' seed.html || fail "no embedded data"
grep -q 'storage-node' seed.html || fail "no node names"

# a large fabric: the heat map of classes
"$IBPART" gen --cas 600 --partitions 40 --storage 2 --mgmt 2 -o g.topo --conf g.conf 2>/dev/null ||
  fail "ibpart gen"
expect_status 0 "$IBPART" matrix -t g.topo --format html -o big.html g.conf
grep -q '"level":"classes"' big.html || fail "600 ports should be drawn as classes"

if ! command -v chromium >/dev/null; then
  [[ $fails -eq 0 ]] || finish
  echo "SKIP: chromium is absent; the HTML was checked as text only (scripts/deps.sh test)"
  exit 77
fi
chrome() {
  local prof; prof=$(mktemp -d -p "$T")
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" "$@" 2>>chrome.log
}
# the script ran: cards, partition table, pinned hover text
chrome --dump-dom "file://$T/seed.html#pin=6,2" >dom.html || fail "chromium --dump-dom"
grep -q '<b>7 / 21</b>' dom.html || fail "fabric summary card (7 / 21 pairs) not rendered"
grep -q 'TenantA (0x0001)</td><td>2</td><td>1</td>' dom.html || fail "partition summary not rendered"
grep -q '<b>storage-node</b>.*<b>tenantA-node-01</b>.*can talk.*TenantA (0x0001): limited (0x0001) / full (0x8001)' dom.html ||
  fail "hover text of storage-node -> tenantA-node-01: $(grep -o '<div id="tip".*' dom.html | head -c 400)"
chrome --dump-dom "file://$T/seed.html#pin=2,4" >dom2.html || true
grep -q 'cannot talk.*no shared partition' dom2.html || fail "hover text of tenantA-01 -> tenantB-01"

chrome --screenshot="$OUTDIR/matrix_html_seed.png" --window-size=1200,900 "file://$T/seed.html#pin=6,2" >/dev/null ||
  fail "screenshot"
chrome --screenshot="$OUTDIR/matrix_html_classes.png" --window-size=1200,1100 "file://$T/big.html#pin=3,40" >/dev/null ||
  fail "screenshot (classes)"
for p in "$OUTDIR/matrix_html_seed.png" "$OUTDIR/matrix_html_classes.png"; do
  [[ -s $p && $(head -c 8 "$p" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$p is not a PNG"
  [[ $(stat -c %s "$p") -gt 20000 ]] || fail "$p is suspiciously small (blank page?)"
done
echo "screenshots: $OUTDIR/matrix_html_seed.png $OUTDIR/matrix_html_classes.png"
finish
