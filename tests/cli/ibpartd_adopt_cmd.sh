#!/usr/bin/env bash
# ibpartd_adopt_cmd.sh - `ibpartd adopt --db FILE --partitions FILE
# PKEY...`: with the daemon running it refuses (its database is locked;
# exit 3, pointing at POST /ibpart/v1/adopt) and changes nothing; with
# the daemon stopped it moves the operator's statements of each P_Key
# into the generated section (a comment in their place, their other
# lines byte for byte), one revision each, a file `ibpart check`
# accepts; the daemon started on it then manages the P_Key (the API's
# POST that was a 409 is a 200).  Bad input: exit 2, nothing changed.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
cat >"$IBPD_CONF" <<'CONF'
# The operator's partitions: this comment must survive.
Default=0x7fff, ipoib : ALL=limited, SELF=full ;
storage=0x0010, ipoib : 0x0002c90000000201=full ; # their own
backup=0x0011 : 0x0002c90000000202=full, 0x0002c90000000203=limited ;
mixed=0x0012 : ALL=limited, SELF=full ;
CONF
cp "$IBPD_CONF" operator.conf
A=("$IBPARTD" adopt --db "$IBPD_DB" --partitions "$IBPD_CONF")
req() { REQ="$*"; ibpd_req "$@"; }
want() { [[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $BODY"; }

ibpd_start || { fail "ibpartd did not start"; finish; }
req POST /ufmRest/resources/pkeys '{"pkey": "0x10", "guids": ["0002c90000000301"], "membership": "full"}'
want 409
# the daemon holds the database: refused, nothing changed (the file as
# the daemon wrote it at start: the operator's lines, an empty section)
cp "$IBPD_CONF" started.conf
expect_status 3 "${A[@]}" 0x10
expect_grep 'in use by another process' err
expect_grep 'POST /ibpart/v1/adopt' err
cmp -s "$IBPD_CONF" started.conf || fail "adopt while running changed the file"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# bad input: exit 2, the file as it was
expect_status 2 "${A[@]}"
expect_grep 'which P_Keys' err
expect_status 2 "$IBPARTD" adopt --partitions "$IBPD_CONF" 0x10
expect_grep '^ibpartd adopt: --db and --partitions are required$' err
expect_grep "^(see 'ibpartd adopt --help')$" err
# the daemon's own usage errors name it, not "ibpart ibpartd"
expect_status 2 "$IBPARTD" --bogus
expect_grep "^ibpartd: unknown option '--bogus'" err
expect_grep "^(see 'ibpartd --help')$" err
# what it quotes from its command line or its files is escaped
expect_status 2 "$IBPARTD" --config $'\e[2J'
expect_no_grep $'\e' err
expect_grep '^\\x1b\[2J: error: cannot read the config file$' err
printf 'listen 127.0.0.1:0\n\e]0;owned\a 1\n' >esc.cfg
expect_status 2 "$IBPARTD" --config esc.cfg
expect_no_grep $'\e' err
expect_grep '^esc.cfg:2:1: error: unknown key .\\x1b\]0;owned\\x07. (the long' err
expect_status 2 "${A[@]}" 0x99
expect_grep '0x99' err
expect_status 2 "${A[@]}" 0x12 # ALL=limited: the API lists GUIDs
cmp -s "$IBPD_CONF" started.conf || fail "a refused adopt changed the file"

# stopped: two P_Keys, one revision each
expect_status 0 "${A[@]}" 0x10 0x0011
[[ $(cat out) == $'0x10: adopted, revision 1\n0x0011: adopted, revision 2' ]] || fail "adopt said: $(cat out)"
grep -q '^# storage (P_Key 0x0010) adopted by ibpartd: now in its generated section # their own$' "$IBPD_CONF" ||
	fail "storage's line: $(grep -n storage "$IBPD_CONF")"
head -2 "$IBPD_CONF" | cmp -s - <(head -2 operator.conf) || fail "the operator's first lines changed"
grep -qx 'mixed=0x0012 : ALL=limited, SELF=full ;' "$IBPD_CONF" || fail "mixed's line changed"
gen=$(sed -n '/generated section, managed/,$p' "$IBPD_CONF")
grep -q '^storage=0x0010, ipoib :' <<<"$gen" || fail "storage not in the generated section: $gen"
grep -q '^backup=0x0011 :' <<<"$gen" || fail "backup not in the generated section: $gen"
expect_status 0 "$IBPART" check "$IBPD_CONF"
# the daemon started on it manages them
ibpd_start || { fail "ibpartd did not start"; finish; }
req GET '/ufmRest/resources/pkeys/0x11?guids_data=true'
want 200
[[ $(jq -c '[.managed_by, (.guids | map(.guid + ":" + .membership))]' <<<"$BODY") == \
	'["ibpartd",["0002c90000000202:full","0002c90000000203:limited"]]' ]] || fail "0x11: $BODY"
req POST /ufmRest/resources/pkeys '{"pkey": "0x10", "guids": ["0002c90000000301"], "membership": "full"}'
want 200
req GET /ibpart/v1/status
[[ $(jq -c '[.revisions[] | .op + " " + .pkey]' <<<"$BODY") == '["add_guids 0x10","adopt 0x11","adopt 0x10"]' ]] ||
	fail "revisions: $(jq -c .revisions <<<"$BODY")"
# the audit trail names who ran the command (issue 28)
req GET '/ibpart/v1/revisions?user='"$(id -un)"
[[ $(jq -c '[.revisions[] | [.revision, .via, .client, .request]]' <<<"$BODY") == \
	'[[2,"command","local","ibpartd adopt 0x0011"],[1,"command","local","ibpartd adopt 0x10"]]' ]] ||
	fail "the command's revisions: $BODY"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
