#!/usr/bin/env bash
# manpage_complete.sh - docs/ibpart.1 names every command the top-level
# --help lists and every option any command's --help prints.  The
# per-command option lists in the manual are generated from --help by
# scripts/man-options.sh; this test fails when the committed manual is
# behind the program (run `scripts/man-options.sh build/ibpart
# docs/ibpart.1`), and, independently of the generator, when an option
# spelling is nowhere in the manual.
source "$(dirname "$0")/lib.sh"
man="$IBP_SRC/docs/ibpart.1"
[[ -r $man ]] || { echo "no $man" >&2; exit 1; }
# the manual as plain words: \- -> -, font escapes dropped
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man" >man.txt

"$IBPART" --help >top.txt
cmds=$(awk '/^Commands:/{on=1; next} on && /^  [a-z]/{print $1} on && /^$/{on=0}' top.txt)
[[ $(wc -w <<<"$cmds") -ge 10 ]] || fail "commands read from ibpart --help: '$cmds'"
n=0
# the options every command takes, listed once in the top-level help
for o in $(grep -oE '^  --[a-z][-a-z0-9]*' top.txt); do
  n=$((n + 1))
  grep -qF -- "$o" man.txt || fail "ibpart $o (every command) is not in ibpart.1"
done
for c in $cmds; do
  [[ $c == help ]] && continue
  grep -qx "\.SS ibpart $c" man.txt || fail "command '$c' has no option list in ibpart.1"
  "$IBPART" "$c" --help >"help-$c.txt" 2>&1 || fail "ibpart $c --help exited non-zero"
  # option lines "  -x, --long ARG" / "      --long ARG", and every
  # spelling on them ("-t, --topo, --topology")
  for o in $(grep -E '^ {2,8}-' "help-$c.txt" | sed 's/^ *//; s/  .*//' |
    grep -oE -- '--[A-Za-z][-A-Za-z0-9]*' | sort -u); do
    n=$((n + 1))
    grep -qF -- "$o" man.txt || fail "ibpart $c $o is not in ibpart.1"
  done
done
[[ $n -gt 100 ]] || fail "only $n options read from --help: the parse is broken"

# the generated block is what the program prints now
bash "$IBP_SRC/scripts/man-options.sh" "$IBPART" >block.txt
sed -n '/^\.\\" BEGIN OPTIONS/,/^\.\\" END OPTIONS/p' "$man" >committed.txt
diff -u committed.txt block.txt >block.diff ||
  fail "docs/ibpart.1 is behind --help (scripts/man-options.sh BUILD/ibpart docs/ibpart.1): $(head -20 block.diff)"
# and it is troff without warnings
if command -v groff >/dev/null; then
  groff -man -ww -z "$man" 2>groff.err || true
  [[ ! -s groff.err ]] || fail "groff warns on ibpart.1: $(head -5 groff.err)"
fi
# ibpartd(8): every option `ibpartd --help` prints
man8="$IBP_SRC/docs/ibpartd.8"
if [[ -n ${IBPARTD:-} ]]; then
  sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man8" >man8.txt
  "$IBPARTD" --help >helpd.txt 2>&1 || fail "ibpartd --help exited non-zero"
  m=0
  for o in $(grep -E '^ {2,8}-' helpd.txt | sed 's/^ *//; s/  .*//' | grep -oE -- '--?[A-Za-z][-A-Za-z0-9]*' | sort -u); do
    m=$((m + 1))
    grep -qF -- "$o" man8.txt || fail "ibpartd $o is not in ibpartd.8"
  done
  [[ $m -gt 15 ]] || fail "only $m options read from ibpartd --help"
  n=$((n + m))
  if command -v groff >/dev/null; then
    groff -man -ww -z "$man8" 2>groff8.err || true
    [[ ! -s groff8.err ]] || fail "groff warns on ibpartd.8: $(head -5 groff8.err)"
  fi
else
  fail "IBPARTD is not set: ibpartd.8 not checked"
fi
# ibpart-partitions(5): every finding code the plan reader can report
# (the codes its sources pass to conf_diag) and every audit finding
# docs/audit.md lists
man5="$IBP_SRC/docs/ibpart-partitions.5"
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man5" >man5.txt
codes=$(grep -ohE 'conf_diag\([^"]*"[a-z0-9-]+"' "$IBP_SRC"/src/conf/*.c | grep -oE '"[a-z0-9-]+"' | tr -d '"' | sort -u)
[[ $(wc -w <<<"$codes") -gt 30 ]] || fail "only $(wc -w <<<"$codes") check codes read from src/conf"
for c in $codes; do
  grep -qx "\.B $c" man5.txt || fail "check code $c has no entry in ibpart-partitions.5"
done
for c in $(sed -n 's/^### \([a-z0-9-]*\) (.*/\1/p' "$IBP_SRC/docs/audit.md"); do
  grep -qx "\.B $c" man5.txt || fail "audit code $c has no entry in ibpart-partitions.5"
done
if command -v groff >/dev/null; then
  groff -man -ww -z "$man5" 2>groff5.err || true
  [[ ! -s groff5.err ]] || fail "groff warns on ibpart-partitions.5: $(head -5 groff5.err)"
fi
echo "$n option spellings checked"
finish
