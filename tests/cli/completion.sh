#!/usr/bin/env bash
# completion.sh - the bash completion (completions/ibpart) under the real
# bash-completion: commands, a command's options (every one --help
# prints), the word lists of --format and --mode, files for -c, and node
# names from -t TOPO for --sm-port and sim's pingpong.
source "$(dirname "$0")/lib.sh"
bc=/usr/share/bash-completion/bash_completion
[[ -r $bc ]] || { echo "SKIP: bash-completion not installed" >&2; exit 77; }
cp "$IBP_SRC/examples/seed/seed.topo" seed.topo
cp "$IBP_SRC/examples/seed/partitions.conf" plan.conf
mkdir -p bin && ln -s "$IBPART" bin/ibpart
# complete LINE: the completions bash offers for LINE (cursor at its end)
complete_line() {
  PATH="$T/bin:$PATH" bash -c '
    source "$1"; source "$2"
    COMP_LINE=$3; COMP_POINT=${#COMP_LINE}
    read -r -a COMP_WORDS <<<"$COMP_LINE"
    [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _ibpart
    printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$IBP_SRC/completions/ibpart" "$1" | sort
}
complete_line "ibpart " >cmds
for c in check convert tables matrix audit sim demo discover verify apply gen; do
  grep -qx "$c" cmds || fail "command $c not offered: $(tr '\n' ' ' <cmds)"
done
complete_line "ibpart ta" >ta
[[ $(cat ta) == tables ]] || fail "'ibpart ta' completes to '$(cat ta)'"
complete_line "ibpart verify --" >vopts
for o in --conf --topology --previous --max-wire-smps --mkey-file --enforce --max-errors; do
  grep -qx -- "$o" vopts || fail "verify option $o not offered"
done
# every option verify --help prints is offered
for o in $("$IBPART" verify --help | grep -E '^ {2,8}-' | sed 's/^ *//; s/  .*//' | grep -oE -- '--[A-Za-z][-A-Za-z0-9]*'); do
  grep -qx -- "$o" vopts || fail "verify $o (in --help) not offered"
done
complete_line "ibpart tables --format " >fmt
[[ $(tr '\n' ' ' <fmt) == "json smpquery " ]] || fail "tables --format offers '$(tr '\n' ' ' <fmt)'"
complete_line "ibpart tables --mode s" >mode
[[ $(cat mode) == strict ]] || fail "--mode s offers '$(cat mode)'"
complete_line "ibpart check -c pl" >files
[[ $(cat files) == plan.conf ]] || fail "-c pl offers '$(cat files)'"
complete_line "ibpart tables -t seed.topo --sm-port tenantA" >ports
grep -qx tenantA-node-01 ports || fail "--sm-port from the topology offers '$(tr '\n' ' ' <ports)'"
grep -q '^H-' ports && fail "node GUID-names offered as names: $(tr '\n' ' ' <ports)"
complete_line "ibpart sim -t seed.topo -c plan.conf pingpong tenantB" >pp
grep -qx tenantB-node-01 pp || fail "sim pingpong offers '$(tr '\n' ' ' <pp)'"
finish
