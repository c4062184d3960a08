#!/usr/bin/env bash
# ibpartd_cred_cache.sh - HTTP Basic passwords and tokens that passed
# crypt(3) are not checked with crypt(3) again on the next requests
# (daemon/cred_cache.c, issue 29), and nothing else is let through:
# counted by /metrics' ibpartd_auth_crypts_total (crypt(3) runs) and
# ibpartd_auth_cache_hits_total.  A wrong password, a user that does not
# exist (checked against a real user's hash, even with that user's
# password) and a revoked token run crypt(3) every time and are refused;
# a second user's password is checked on its own; the right password
# after wrong ones is still found verified.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
printf 'ops:%s:role=read\n' "$(openssl passwd -6 other)" >>"$IBPD_USERS"
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
ibpd_start --login-failures 100

want() { [[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $BODY"; }
as() { local a=$1; shift; REQ="as $a: $*"; ibpd_req_as "$a" "$@"; }
# metrics: C and H, the crypt(3) runs and the hits so far (read as
# admin: once admin's password is known, one more hit)
metrics() {
	ibpd_req GET /metrics
	C=$(awk '$1 == "ibpartd_auth_crypts_total" { print $2 }' <<<"$BODY")
	H=$(awk '$1 == "ibpartd_auth_cache_hits_total" { print $2 }' <<<"$BODY")
	[[ -n $C && -n $H ]] || { fail "/metrics has no ibpartd_auth_ counters"; C=0 H=0; }
}

as "-u admin:secret" GET /ufmRest/app/ufm_version; want 200
metrics; c0=$C h0=$H
for i in 1 2 3 4 5 6 7 8; do
	as "-u admin:secret" GET /ufmRest/app/ufm_version; want 200
done
metrics; c1=$C h1=$H
((c1 == c0)) || fail "the same password ran crypt(3) $((c1 - c0)) more times"
((h1 - h0 >= 8)) || fail "cache hits went from $h0 to $h1 over 8 requests"

# wrong passwords: each one crypt(3), each one refused
for i in 1 2 3; do
	as "-u admin:secret2" GET /ufmRest/app/ufm_version; want 401
done
as "-u admin:" GET /ufmRest/app/ufm_version; want 401
metrics; c2=$C
((c2 - c1 == 4)) || fail "4 wrong passwords ran crypt(3) $((c2 - c1)) times"
as "-u admin:secret" GET /ufmRest/app/ufm_version; want 200
# no such user: crypt(3) against admin's hash, admin's password too
for i in 1 2; do
	as "-u nobody:secret" GET /ufmRest/app/ufm_version; want 401
	as "-u nobody:other" GET /ufmRest/app/ufm_version; want 401
done
metrics; c3=$C
((c3 - c2 == 4)) || fail "4 logins of a user not there ran crypt(3) $((c3 - c2)) times"

# another user: once, then found; its password is not admin's
as "-u ops:other" GET /ufmRest/app/ufm_version; want 200
as "-u ops:other" GET /ufmRest/app/ufm_version; want 200
as "-u ops:secret" GET /ufmRest/app/ufm_version; want 401
as "-u admin:other" GET /ufmRest/app/ufm_version; want 401
metrics; c4=$C
((c4 - c3 == 3)) || fail "ops twice and two wrong pairs ran crypt(3) $((c4 - c3)) times, want 3"
as "-u ops:other" POST /ufmRest/resources/pkeys '{"pkey":"0x10","guids":["0002c900000a0001"]}'; want 403

# tokens: checked once, found after; a revoked one refused all the same
as "-u admin:secret" POST /ufmRest/app/tokens; want 200
TK=$(jq -r .access_token <<<"$BODY")
ID=$(jq -r .token_id <<<"$BODY")
metrics; c5=$C
for i in 1 2 3; do
	as "Authorization: Basic $TK" GET /ufmRestV3/app/ufm_version; want 200
done
metrics; c6=$C
((c6 - c5 == 1)) || fail "3 requests with one token ran crypt(3) $((c6 - c5)) times, want 1"
last=0
[[ ${TK: -1} == 0 ]] && last=1
as "Authorization: Basic ${TK%?}$last" GET /ufmRestV3/app/ufm_version; want 401
as "-u admin:secret" DELETE "/ufmRest/app/tokens/$ID"; want 200
as "Authorization: Basic $TK" GET /ufmRestV3/app/ufm_version; want 401

ibpd_stop
finish
