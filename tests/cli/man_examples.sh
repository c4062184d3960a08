#!/usr/bin/env bash
# man_examples.sh - every man page has EXAMPLES, and they are true: each
# `ibpart SUB ...` and `ibpartd ...` line of an example names a command
# and options the program's --help lists, and the partitions.conf of
# ibpart-partitions(5)'s example is a file ibpart check accepts.
source "$(dirname "$0")/lib.sh"
: "${IBPARTD:?}"
# the text between .SH EXAMPLES and the next .SH, roff escapes undone,
# continued lines joined
examples() {
  awk '/^\.SH EXAMPLES/ { f = 1; next } /^\.SH / { f = 0 } f' "$1" |
    sed -e 's/\\-/-/g' -e 's/\\e$/\\/' | sed -e ':a' -e '/\\$/ { N; s/\\\n */ /; ba' -e '}'
}
# options OUT PROGRAM [SUB]: every option spelling PROGRAM SUB --help lists
options() {
  local out=$1
  shift
  "$@" --help >help.txt 2>&1 || fail "$* --help exited non-zero"
  grep -oE -- '(^|[ ,|[])--?[a-zA-Z][a-zA-Z0-9-]*' help.txt | sed 's/^[ ,|[]//' | sort -u >"$out"
}
checked=0
check_line() { # check_line PROGRAM ARGS...: the sub-command and options exist
  local prog=$1 sub= w
  shift
  if [[ $prog == ibpart || ($prog == ibpartd && ${1-} == adopt) ]]; then
    sub=$1
    shift
  fi
  local bin=$IBPART
  [[ $prog == ibpartd ]] && bin=$IBPARTD
  options opts.txt "$bin" ${sub:+"$sub"}
  for w in "$@"; do
    case $w in
    --*=*) w=${w%%=*} ;;
    -*) ;;
    *) continue ;;
    esac
    grep -qxF -- "$w" opts.txt || fail "$prog ${sub:+$sub }example uses $w, which --help does not list"
  done
  checked=$((checked + 1))
}
for page in ibpart.1 ibpart-partitions.5 ibpartd.8; do
  examples "$IBP_SRC/docs/$page" >ex.txt
  [[ -s ex.txt ]] || fail "$page has no EXAMPLES section"
  while read -r -a words; do
    case ${words[0]-} in
    ibpart | ibpartd) check_line "${words[@]}" ;;
    esac
  done <ex.txt
done
[[ $checked -ge 15 ]] || fail "only $checked example command lines read"
# the example partitions.conf, as OpenSM would read it
examples "$IBP_SRC/docs/ibpart-partitions.5" | awk '/^\.EX/ { f = 1; next } /^\.EE/ { exit } f' >example.conf
grep -q '^Default=0x7fff' example.conf || fail "no partitions.conf example read: $(cat example.conf)"
expect_status 0 "$IBPART" check --opensm example.conf
echo "$checked example command lines checked against --help"
finish
