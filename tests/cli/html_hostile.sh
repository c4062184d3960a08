#!/usr/bin/env bash
# matrix --format html with hostile names: a NodeDescription holding
# <script>, <img onerror=...>, quotes, '&' and "<!--<script>" (from a
# node-name-map, as a tenant could name its HCA), a partition named
# x<b>&y and a plan file named with <, & and ".  In the page's source no
# name can open a tag or end the data's <script> element (every '<' of
# the embedded JSON is \u003c, the title is entity-escaped); opened in
# headless Chromium, the hover text shows the names entity-escaped, no
# <img> element exists and the injected onerror never ran (the title is
# not PWNED).  Without chromium only the source is checked and the test
# reports itself skipped (77).
source "$(dirname "$0")/lib.sh"
cat >t.topo <<'TOPO'
switchguid=0x100
Switch 4 "S-100" # "leaf"
[1] "H-1ff"[1]
[2] "H-2ff"[1]
[3] "H-3ff"[1]

caguid=0x1ff
Ca 1 "H-1ff" # "sm-01"
[1](0x200) "S-100"[1]

caguid=0x2ff
Ca 1 "H-2ff" # "node-b"
[1](0x300) "S-100"[2]

caguid=0x3ff
Ca 1 "H-3ff" # "node-c"
[1](0x400) "S-100"[3]
TOPO
printf '%s\n' "0x2ff <script>alert(1)</script> \"q\" & <img src=x onerror=document.title='PWNED'>" \
  "0x3ff <!--<script>" >nnm
plan='x<i>&"y.conf'
printf '%s\n' 'Default=0x7fff : ALL=limited, SELF=full ;' 'x<b>&y=0x1 : 0x300=full, 0x400=full ;' >"$plan"
expect_status 0 "$IBPART" matrix -t t.topo --node-name-map nnm --format html -o h.html "$plan"

# the source: two script elements only, no name opens a tag
[[ $(grep -o '<script' h.html | wc -l) -eq 2 ]] || fail "more than the page's two <script> tags: $(grep -o '<script[^>]*' h.html)"
[[ $(grep -o '</script>' h.html | wc -l) -eq 2 ]] || fail "a name closes a script element"
expect_no_grep '<img' h.html
expect_no_grep '<!--' h.html
expect_grep '\\u003cscript>alert(1)\\u003c\\/script> \\"q\\" & \\u003cimg src=x' h.html
expect_grep '<title>x&lt;i&gt;&amp;&quot;y.conf: P_Key reachability' h.html

if ! command -v chromium >/dev/null; then
  [[ $fails -eq 0 ]] || finish
  echo "SKIP: chromium is absent; the HTML was checked as text only"
  exit 77
fi
prof=$(mktemp -d -p "$T")
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
  --dump-dom "file://$T/h.html#pin=1,2" >dom.html 2>chrome.log || fail "chromium --dump-dom"
# the page ran (the hover text of the pinned cell is there), escaped
expect_grep '<div id="tip"[^>]*><b>&lt;script&gt;alert(1)&lt;/script&gt; "q" &amp; &lt;img src=x onerror=document.title=.PWNED.&gt;</b>' dom.html
expect_grep '<b>&lt;!--&lt;script&gt;</b>' dom.html
expect_grep 'x&lt;b&gt;&amp;y (0x0001): full (0x8001) / full (0x8001)' dom.html
expect_no_grep '<img' dom.html
expect_no_grep 'PWNED</title>' dom.html
expect_grep '<title>x&lt;i&gt;&amp;"y.conf: P_Key reachability' dom.html
finish
