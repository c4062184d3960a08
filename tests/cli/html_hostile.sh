#!/usr/bin/env bash
# matrix --format html with hostile names: a NodeDescription holding
# <script>, <img onerror=...>, quotes, '&' and "<!--<script>" (from a
# node-name-map, as a tenant could name its HCA), a partition named
# x<b>&y and a plan file named with <, & and ".  In the page's source no
# name opens a tag (every name is entity-escaped: text, attributes,
# the title); opened in headless Chromium - also with a hostile search
# fragment, which the script only puts in the search box - no <img>
# element exists, the injected onerror never ran (the title is not
# PWNED) and the names show as text.  Without chromium only the source
# is checked and the test reports itself skipped (77).
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

# the source: the page's one script element, no name opens a tag
[[ $(grep -o '<script' h.html | wc -l) -eq 1 ]] || fail "more than the page's one <script> tag: $(grep -o '<script[^>]*' h.html)"
[[ $(grep -o '</script>' h.html | wc -l) -eq 1 ]] || fail "a name closes a script element"
expect_no_grep '<img' h.html
expect_no_grep '<!--' h.html
expect_no_grep '<b>&' h.html
nd='&lt;script&gt;alert(1)&lt;/script&gt; &quot;q&quot; &amp; &lt;img src=x onerror=document.title=&#39;PWNED&#39;&gt;'
expect_grep "<tr><td>$nd<td>1<td>0x0000000000000300<td>" h.html
expect_grep "<th class=row>$nd<td" h.html
expect_grep "title=\"$nd &rarr; &lt;!--&lt;script&gt;: can talk\"" h.html
expect_grep '<summary><b>x&lt;b&gt;&amp;y</b> 0x0001' h.html
expect_grep '<title>x&lt;i&gt;&amp;&quot;y.conf: P_Key reachability' h.html

if ! command -v chromium >/dev/null; then
  [[ $fails -eq 0 ]] || finish
  echo "SKIP: chromium is absent; the HTML was checked as text only"
  exit 77
fi
dom() {
  local prof; prof=$(mktemp -d -p "$T")
  timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
    --enable-logging=stderr --v=0 --dump-dom "$1" >"$2" 2>"$2.log" || fail "chromium --dump-dom $1"
  ! grep -q ':CONSOLE' "$2.log" || fail "console messages on $1: $(grep -m3 ':CONSOLE' "$2.log")"
}
dom "file://$T/h.html" dom.html
# the page ran (the search box counts) and the names are text
expect_grep '<tr><td>&lt;script&gt;alert(1)&lt;/script&gt; "q" &amp; &lt;img src=x onerror=document.title=.PWNED.&gt;</td><td>1</td>' dom.html
expect_grep '<summary><b>x&lt;b&gt;&amp;y</b> 0x0001' dom.html
expect_grep '<td>&lt;!--&lt;script&gt;</td><td>1</td>' dom.html
expect_no_grep '<img' dom.html
expect_no_grep 'PWNED</title>' dom.html
expect_grep '<title>x&lt;i&gt;&amp;"y.conf: P_Key reachability' dom.html
# a hostile search: the query is text in the box, never markup
dom "file://$T/h.html#q=%3Cimg%20src%3Dx%20onerror%3Ddocument.title%3D'PWNED'%3E" q.html
expect_grep 'id="qcount">[0-9]* of [0-9]* rows and sections match' q.html
expect_grep '<tr><td>&lt;script&gt;alert(1)' q.html
expect_grep '<tr hidden=""><td>sm-01</td>' q.html
expect_no_grep '<img' q.html
expect_no_grep 'PWNED</title>' q.html
finish
