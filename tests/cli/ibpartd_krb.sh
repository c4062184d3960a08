#!/usr/bin/env bash
# ibpartd_krb.sh - /ufmRestKrb, Kerberos as Slurm's UFM integration uses
# it (docs/ufm-api.md section 7, auth_type=kerberos_auth): a KDC of its
# own (MIT krb5kdc on a loopback port, its own realm and database), the
# service key in a keytab given to --krb-keytab, the Slurm user's ticket
# from kinit.  Replayed as the client's code runs: one krb5 token per
# run, built once and sent on every request of the run (prolog: GET
# ufm_version then POST /resources/pkeys/hosts; epilog: GET ufm_version
# then DELETE .../hosts/... with the host list's brackets literal), over
# HTTPS with verification off.  Also
# the README's check (`curl --negotiate -u :`, SPNEGO after a 401
# challenge), and the refusals: no token, a forged one, a principal the
# users file does not name, Basic on this prefix, --http, a bad keytab,
# the prefix without --krb-keytab.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
for t in krb5kdc kdb5_util kadmin.local kinit base64; do
	command -v $t >/dev/null || { echo "SKIP: $t is needed (krb5-kdc, krb5-admin-server, krb5-user)" >&2; exit 77; }
done
[[ -x ${IBP_KRB_TOKEN-} ]] || { echo "SKIP: krb_token is not built" >&2; exit 77; }
ibpd_setup_cli "$T"
KDC_PID=
trap '[[ -n $KDC_PID ]] && kill "$KDC_PID" 2>/dev/null; ibpd_cleanup; rm -rf "$T"' EXIT
TOPO=$IBP_SRC/tests/data/topo/slurm-hosts.topo
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"

# ---- the realm and its KDC ----
K=$T/krb
mkdir -p "$K"
realm=IBPART.TEST
export KRB5_CONFIG=$K/krb5.conf KRB5_KDC_PROFILE=$K/kdc.conf KRB5CCNAME=FILE:$K/cc
write_conf() { # write_conf PORT
	cat >"$KRB5_CONFIG" <<EOF
[libdefaults]
 default_realm = $realm
 dns_lookup_kdc = false
 dns_lookup_realm = false
 rdns = false
 dns_canonicalize_hostname = false
 udp_preference_limit = 1
[realms]
 $realm = {
  kdc = 127.0.0.1:$1
 }
[domain_realm]
 localhost = $realm
EOF
	cat >"$KRB5_KDC_PROFILE" <<EOF
[kdcdefaults]
 kdc_ports = $1
 kdc_tcp_ports = $1
[realms]
 $realm = {
  database_name = $K/principal
  key_stash_file = $K/stash
  acl_file = $K/kadm5.acl
 }
[logging]
 kdc = FILE:$K/kdc.log
EOF
}
write_conf 88
: >"$K/kadm5.acl"
kdb5_util create -s -r $realm -P master-secret >"$K/kdb.out" 2>&1 || { cat "$K/kdb.out" >&2; fail "kdb5_util create"; finish; }
for q in "addprinc -pw slurm-secret slurm" "addprinc -pw stranger-secret stranger" \
	"addprinc -randkey HTTP/localhost" "ktadd -k $K/http.keytab HTTP/localhost"; do
	kadmin.local -r $realm -q "$q" >>"$K/kadmin.out" 2>&1 || { cat "$K/kadmin.out" >&2; fail "kadmin.local $q"; finish; }
done
# a free loopback port: the KDC either takes it (kinit answers) or
# exits (taken), then the next
kinit_as() { # kinit_as PRINCIPAL PASSWORD
	kinit "$1" <<<"$2" >"$K/kinit.out" 2>&1
}
for ((try = 0; try < 5; try++)); do
	kport=$((10000 + RANDOM % 20000)) # below the ephemeral range
	write_conf $kport
	krb5kdc -n -r $realm 2>>"$K/kdc.err" &
	KDC_PID=$!
	up=0
	for ((i = 0; i < 200; i++)); do
		kill -0 "$KDC_PID" 2>/dev/null || break
		if kinit_as slurm slurm-secret; then up=1; break; fi
		sleep 0.05
	done
	((up)) && break
	kill "$KDC_PID" 2>/dev/null || true
	wait "$KDC_PID" 2>/dev/null || true
	KDC_PID=
done
((up)) || { cat "$K/kdc.err" "$K/kinit.out" >&2; fail "the KDC did not start"; finish; }

# ---- refusals at start ----
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
	-subj /CN=localhost -keyout server.key -out server.crt 2>/dev/null || fail "openssl"
chmod 600 server.key
expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --http --krb-keytab "$K/http.keytab" --users "$IBPD_USERS" \
	--db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep 'krb-keytab needs HTTPS' err
: >"$K/empty.keytab"
expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --cert server.crt --key server.key --krb-keytab "$K/empty.keytab" \
	--users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep 'krb-keytab .*empty.keytab' err

# ---- without --krb-keytab the prefix does not exist ----
IBPD_TRANSPORT=(--cert server.crt --key server.key)
IBPD_SCHEME=https
IBPD_CURL=(-k)
ibpd_start --topology "$TOPO" || { fail "ibpartd did not start"; finish; }
CODE=$(curl -s -k -o resp -w '%{http_code}' -u admin:secret "$IBPD_URL/ufmRestKrb/app/ufm_version")
[[ $CODE == 404 ]] || fail "/ufmRestKrb without --krb-keytab: $CODE, want 404"
ibpd_stop

# the users file: slurm may change (its line's password is never used
# here: Kerberos alone authenticates it); stranger has no line
printf 'slurm:*:role=change\n' >>"$IBPD_USERS"
IBPD_TRANSPORT=(--cert server.crt --key server.key --krb-keytab "$K/http.keytab")
ibpd_start --topology "$TOPO" || { fail "ibpartd did not start with --krb-keytab"; finish; }
URL=https://localhost:$IBPD_PORT

# slurm_req TOKEN METHOD PATH [BODY]: one request as the Slurm client
# sends it (verification off, its Content-Type); sets CODE, BODY, HDRS
slurm_req() {
	local tok=$1 method=$2 path=$3 body=${4-}
	local -a d=()
	[[ -n $body ]] && d=(--data-binary "$body")
	CODE=$(curl -s -k -g -D hdrs -o resp -w '%{http_code}' -X "$method" \
		-H "Authorization: Negotiate $tok" -H 'Content-Type: application/json; charset=utf-8' \
		"${d[@]}" "$URL$path")
	BODY=$(cat resp)
	HDRS=$(cat hdrs)
}
token() { # token: a new token from the current ticket into TOKEN
	"$IBP_KRB_TOKEN" localhost >tok.bin 2>tok.err || { cat tok.err >&2; fail "krb_token"; }
	TOKEN=$(base64 -w0 tok.bin)
}

# ---- the prolog: one token, two requests ----
token
slurm_req "$TOKEN" GET /ufmRestKrb/app/ufm_version
[[ $CODE == 200 ]] || fail "prolog ufm_version: $CODE $BODY"
jq -e . <<<"$BODY" >/dev/null || fail "prolog ufm_version: not JSON: $BODY"
slurm_req "$TOKEN" POST /ufmRestKrb/resources/pkeys/hosts \
	'{"hosts_names": "node[01-02]", "pkey": "0x3039", "ip_over_ib": true, "index0": false}'
[[ $CODE == 200 ]] || fail "prolog hosts with the same token again: $CODE $BODY"
expect_grep 'user=slurm via=krb:slurm' "$IBPD_LOG"
ibpd_req GET '/ufmRest/resources/pkeys/0x3039?guids_data=true'
got=$(jq -c '.guids|map(.guid)' <<<"$BODY")
[[ $got == '["0002c90000000101","0002c90000000201"]' ]] || fail "0x3039 after the prolog: $got"
# the revision's author is the Kerberos user
ibpd_req GET '/ibpart/v1/revisions?user=slurm'
[[ $(jq -r 'length > 0' <<<"$BODY") == true ]] || fail "no revision by slurm: $BODY"

# ---- the epilog: a new run, a new token, two requests ----
token
slurm_req "$TOKEN" GET /ufmRestKrb/app/ufm_version
[[ $CODE == 200 ]] || fail "epilog ufm_version: $CODE $BODY"
slurm_req "$TOKEN" DELETE '/ufmRestKrb/resources/pkeys/0x3039/hosts/node[01-02]'
[[ $CODE == 200 ]] || fail "epilog hosts: $CODE $BODY"
ibpd_req GET '/ufmRest/resources/pkeys/0x3039'
[[ $BODY == '{}' ]] || fail "0x3039 after the epilog: $CODE $BODY, want {} (gone)"

# ---- the README's check: curl's SPNEGO after the challenge ----
CODE=$(curl -s -k -D hdrs -o resp -w '%{http_code}' --negotiate -u : "$URL/ufmRestKrb/app/ufm_version")
[[ $CODE == 200 ]] || fail "curl --negotiate: $CODE $(cat resp)"

# ---- refusals ----
CODE=$(curl -s -k -D hdrs -o resp -w '%{http_code}' "$URL/ufmRestKrb/app/ufm_version")
[[ $CODE == 401 ]] || fail "no token: $CODE"
grep -qi '^WWW-Authenticate: Negotiate' hdrs || fail "no token: no Negotiate challenge: $(cat hdrs)"
slurm_req "$(printf 'not a token at all' | base64 -w0)" GET /ufmRestKrb/app/ufm_version
[[ $CODE == 401 ]] || fail "a forged token: $CODE $BODY"
CODE=$(curl -s -k -o resp -w '%{http_code}' -u admin:secret "$URL/ufmRestKrb/app/ufm_version")
[[ $CODE == 401 ]] || fail "Basic on /ufmRestKrb: $CODE, want 401"
kinit_as stranger stranger-secret || fail "kinit stranger"
token
slurm_req "$TOKEN" GET /ufmRestKrb/app/ufm_version
[[ $CODE == 403 ]] || fail "a principal without a users-file line: $CODE $BODY"
[[ $BODY == *'stranger'*'users file'* ]] || fail "403 does not name the principal: $BODY"
ibpd_stop || fail "ibpartd did not stop cleanly (status $?)"
finish
