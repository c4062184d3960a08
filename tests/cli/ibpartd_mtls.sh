#!/usr/bin/env bash
# ibpartd_mtls.sh - client certificates as NICo's ufmclient uses them
# (docs/ufm-api.md 1.2: with a certificate it calls /ufmRest, sends
# "Authorization:" with an empty value, "User-Agent: carbide-ib-fabric"
# and "Content-Type: application/json"): over HTTPS with --client-ca, a
# certificate that CA signed authenticates every prefix; one another CA
# signed, an expired one, or none is a 401 unless the request carries
# other valid credentials.  The CAs and certificates are made here by
# openssl; the server asks for the certificate in the first handshake
# (TLS 1.3 and 1.2 both checked).
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
mkca() { # mkca NAME: a self-signed CA
	openssl req -x509 "${ec[@]}" -days 2 -subj "/CN=$1" -keyout "$1.key" -out "$1.crt" 2>/dev/null ||
		fail "openssl: CA $1"
}
mkcert() { # mkcert NAME CA DAYS [EXT]: a certificate CA signs
	openssl req "${ec[@]}" -subj "/CN=$1" -keyout "$1.key" -out "$1.csr" 2>/dev/null &&
		openssl x509 -req -in "$1.csr" -CA "$2.crt" -CAkey "$2.key" -CAcreateserial \
			-days "$3" ${4:+-extfile <(printf '%s\n' "$4")} -out "$1.crt" 2>/dev/null ||
		fail "openssl: certificate $1"
	chmod 600 "$1.key"
}
mkca fabric-ca
mkca other-ca
mkcert server fabric-ca 2 "subjectAltName=IP:127.0.0.1"
mkcert carbide fabric-ca 2 "extendedKeyUsage=clientAuth"
mkcert intruder other-ca 2 "extendedKeyUsage=clientAuth"
# an expired one the right CA signed (openssl ca sets the dates)
openssl req "${ec[@]}" -subj "/CN=stale" -keyout stale.key -out stale.csr 2>/dev/null
mkdir cadb && : >cadb/index.txt && echo 01 >cadb/serial
printf '[ca]\ndefault_ca = c\n[c]\ndatabase = cadb/index.txt\nnew_certs_dir = cadb\nserial = cadb/serial\ndefault_md = sha256\npolicy = p\n[p]\ncommonName = supplied\n' >ca.cnf
openssl ca -batch -config ca.cnf -cert fabric-ca.crt -keyfile fabric-ca.key -in stale.csr \
	-startdate 20200101000000Z -enddate 20200102000000Z -out stale.crt >/dev/null 2>&1 || fail "openssl ca: stale"

# --client-ca is for HTTPS only
expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --http --client-ca fabric-ca.crt --users "$IBPD_USERS" \
	--db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep 'client-ca needs HTTPS' err

IBPD_TRANSPORT=(--cert server.crt --key server.key --client-ca fabric-ca.crt)
IBPD_SCHEME=https
ibpd_start || { fail "ibpartd did not start"; finish; }
# NICo's request, its headers as it sends them
nico() { # nico CERT METHOD PATH [BODY] [CURL-ARGS...]: sets CODE, BODY
	local cert=$1 method=$2 path=$3 body=${4-}
	shift $(($# < 4 ? $# : 4))
	local -a c=() d=()
	[[ -n $cert ]] && c=(--cert "$cert.crt" --key "$cert.key")
	[[ -n $body ]] && d=(--data-binary "$body")
	CODE=$(curl -s --cacert fabric-ca.crt "${c[@]}" "$@" -o resp -w '%{http_code}' -X "$method" \
		-H 'Authorization;' -H 'User-Agent: carbide-ib-fabric' -H 'Content-Type: application/json' \
		"${d[@]}" "$IBPD_URL$path")
	BODY=$(cat resp)
}
nico carbide GET /ufmRest/app/ufm_version
[[ $CODE == 200 && $(jq -r '.ufm_release_version|type' <<<"$BODY") == string ]] || fail "version with the cert: $CODE $BODY"
nico carbide POST /ufmRest/resources/pkeys '{"pkey":"0x5","ip_over_ib":true,"membership":"full","index0":true,"guids":["1070fd0300176625"]}'
[[ $CODE == 200 ]] || fail "NICo's bind with the cert: $CODE $BODY"
nico carbide GET '/ufmRest/resources/pkeys/0x5?guids_data=true&qos_conf=true'
[[ $CODE == 200 && $(jq -c '.guids|map(.guid)' <<<"$BODY") == '["1070fd0300176625"]' ]] || fail "NICo's get: $CODE $BODY"
grep -q 'access: POST /ufmRest/resources/pkeys 200 user=cert:carbide ' "$IBPD_LOG" ||
	fail "the access log does not name the certificate: $(grep access: "$IBPD_LOG" | tail -2)"
# every prefix; TLS 1.2 too (the certificate asked in the first handshake)
nico carbide GET /ibpart/v1/status
[[ $CODE == 200 ]] || fail "status with the cert: $CODE"
nico carbide GET /ufmRestV3/app/ufm_version "" --tlsv1.2 --tls-max 1.2
[[ $CODE == 200 ]] || fail "V3 over TLS 1.2 with the cert: $CODE $BODY"

# refused: another CA's certificate, none, an expired one
nico intruder GET /ufmRest/app/ufm_version
[[ $CODE == 401 ]] || fail "another CA's certificate: $CODE $BODY"
nico intruder POST /ufmRest/resources/pkeys '{"pkey":"0x6","membership":"full","guids":["1070fd0300176626"]}'
[[ $CODE == 401 ]] || fail "another CA's certificate, a change: $CODE $BODY"
nico "" GET /ufmRest/resources/pkeys
[[ $CODE == 401 ]] || fail "no certificate: $CODE $BODY"
nico stale GET /ufmRest/resources/pkeys
[[ $CODE == 401 ]] || fail "an expired certificate: $CODE $BODY"
# nothing the intruder sent was taken
nico carbide GET /ufmRest/resources/pkeys/0x6
[[ $CODE == 200 && $BODY == '{}' ]] || fail "0x6 exists after a 401: $CODE $BODY"
# Basic still works without a certificate
CODE=$(curl -s --cacert fabric-ca.crt -o /dev/null -w '%{http_code}' -u admin:secret "$IBPD_URL/ufmRest/app/ufm_version")
[[ $CODE == 200 ]] || fail "Basic without a certificate: $CODE"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# a certificate whose CN names a user of the users file has its role
# (issue 28): carbide as read may look, not change; "*" is no password
printf 'carbide:*:role=read\n' >>"$IBPD_USERS"
ibpd_start || { fail "ibpartd did not start"; finish; }
nico carbide GET /ufmRest/resources/pkeys
[[ $CODE == 200 ]] || fail "read with the cert of a read user: $CODE $BODY"
nico carbide POST /ufmRest/resources/pkeys '{"pkey":"0x7","membership":"full","guids":["1070fd0300176627"]}'
[[ $CODE == 403 ]] || fail "a change with the cert of a read user: $CODE $BODY"
grep -q 'access: POST /ufmRest/resources/pkeys 403 user=carbide via=cert:carbide ' "$IBPD_LOG" ||
	fail "the access log does not say how carbide came: $(grep access: "$IBPD_LOG" | tail -1)"
CODE=$(curl -s --cacert fabric-ca.crt -o /dev/null -w '%{http_code}' -u 'carbide:*' "$IBPD_URL/ufmRest/app/ufm_version")
[[ $CODE == 401 ]] || fail "Basic with the password '*': $CODE"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# a config-file key too
printf 'client-ca fabric-ca.crt\ncert server.crt\nkey server.key\n' >mtls.conf
IBPD_TRANSPORT=(--config mtls.conf)
ibpd_start || { fail "ibpartd --config did not start"; finish; }
nico carbide GET /ufmRest/app/ufm_version
[[ $CODE == 200 ]] || fail "client-ca from the config file: $CODE"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
