#!/usr/bin/env bash
# ibpartd_http.sh - ibpartd over loopback HTTP without a fabric: UFM's
# clients' exact requests (docs/ufm-api.md: ib-kubernetes, NICo, NCM,
# ufm_sdk's ufm_pkeys, OpenStack) answered in UFM's shapes under
# /ufmRest (Basic) and /ufmRestV3 (a token from POST /app/tokens); every
# bad input a 4xx naming the field with nothing changed; 401 without
# credentials; an operator's P_Key 409; a users file others can read
# refused; the operator's comments still in partitions.conf after a
# hundred changes; 24 clients adding GUIDs to one P_Key at once, none
# lost; the database surviving a SIGKILL.  Expected bodies are written
# by hand from UFM's documented shapes.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
command -v curl >/dev/null && command -v openssl >/dev/null && command -v jq >/dev/null ||
	{ echo "SKIP: curl, openssl and jq are needed" >&2; exit 77; }
trap 'ibpd_cleanup; rm -rf "$T"' EXIT
ibpd_init "$T"
cat >"$IBPD_CONF" <<'CONF'
# The operator's partitions: this comment must survive.
Default=0x7fff, ipoib : ALL=limited, SELF=full ;   # SM full
storage=0x0010, ipoib : 0x0002c90000000201=full ; # their own
CONF
cp "$IBPD_CONF" operator.conf

want() { # want CODE [JQ-EXPR [VALUE]]: check the last answer
	[[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $BODY"
	if [[ -n ${2-} ]]; then
		local got
		got=$(jq -c "$2" <<<"$BODY" 2>/dev/null) || got="(not JSON: $BODY)"
		[[ $got == "$3" ]] || fail "$REQ: $2 is $got, want $3"
	fi
}
req() { REQ="$*"; ibpd_req "$@"; }

# a users file group or others may read: refused, exit 2
chmod 640 "$IBPD_USERS"
expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "group or others may access" err
chmod 600 "$IBPD_USERS"
# HTTPS is the default: without --http it needs --cert and --key
expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "needs --cert and --key" err
# the guard's topology is read at start: a missing one is exit 2, named
expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF" --topology "$T/no.topo"
expect_grep "ibpartd: error: $T/no.topo: cannot read the topology the isolation guard audits" err
expect_status 0 "$IBPARTD" --help
expect_grep "opensm-pidfile FILE" out

# a config file with the same keys; a key it does not know is located
printf '# ibpartd.conf\nlisten 127.0.0.1:0\nhttp\nusers %s\ndb %s\npartitions %s\n' \
	"$IBPD_USERS" "$IBPD_DB" "$IBPD_CONF" >ibpartd.conf
printf 'listen 127.0.0.1:0\ncolour red\n' >bad.conf
expect_status 2 "$IBPARTD" --config bad.conf
expect_grep "bad.conf:2:1: error: unknown key 'colour'" err
"$IBPARTD" --config ibpartd.conf --threads 2 2>cfg.log &
cfgpid=$!
for ((i = 0; i < 100; i++)); do
	grep -q 'listening on port' cfg.log && break
	sleep 0.05
done
port=$(sed -n 's/.*listening on port \([0-9]*\) .*/\1/p' cfg.log)
REQ="config file"; CODE=$(curl -s -o /dev/null -w '%{http_code}' -u admin:secret "http://127.0.0.1:$port/ufmRest/app/ufm_version"); want 200
kill -TERM "$cfgpid"; wait "$cfgpid" || fail "ibpartd --config exited $? on SIGTERM"

ibpd_start || { fail "ibpartd did not start"; finish; }

# 401 without or with wrong credentials, on every prefix
REQ="no credentials"; CODE=$(curl -s -o /dev/null -w '%{http_code}' "$IBPD_URL/ufmRest/app/ufm_version"); want 401
REQ="wrong password"; ibpd_req_as "-u admin:nope" GET /ufmRest/resources/pkeys; want 401
REQ="bad token"; ibpd_req_as "Authorization: Basic 0123456789abcdef0123" GET /ufmRestV3/resources/pkeys; want 401
REQ="status without"; CODE=$(curl -s -o /dev/null -w '%{http_code}' "$IBPD_URL/ibpart/v1/status"); want 401
# the log cannot be forged: a URL without credentials and a refused JSON
# value carry a newline and a terminal escape; both are written escaped
REQ="forged URL"; CODE=$(curl -s -o /dev/null -w '%{http_code}' "$IBPD_URL/ufmRest/x%0aibpartd:%20access:%20FORGED%1b%5b2J"); want 401
req POST /ufmRest/resources/pkeys '{"pkey":"0x1\u001b[2J\nibpartd: access: FORGED2","guids":[]}'; want 400
grep -q '^ibpartd: access: FORGED' "$IBPD_LOG" && fail "a request forged a log line: $(grep -n FORGED "$IBPD_LOG")"
grep -q $'\e' "$IBPD_LOG" && fail "a terminal escape reached the log raw"
grep -q 'access: GET /ufmRest/x\\x0aibpartd: access: FORGED\\x1b\[2J 401 user=-' "$IBPD_LOG" ||
	fail "the forged URL is not in the log, escaped: $(grep -a FORGED "$IBPD_LOG")"
grep -q 'refused (400): pkey: "0x1\\x1b\[2J\\x0aibpartd: access: FORGED2"' "$IBPD_LOG" ||
	fail "the refused value is not in the log, escaped: $(grep -a FORGED2 "$IBPD_LOG")"

# ib-kubernetes: Validate, then its AddGuidsToPKey body byte for byte
req GET /ufmRest/app/ufm_version; want 200 '.ufm_release_version|type' '"string"'
req POST /ufmRest/resources/pkeys '{"pkey": "0x000A", "index0": true, "ip_over_ib": true, "membership": "full", "guids": ["020000000000003e","02000ff000ff0009"]}'
want 200 '.revision' 1
req GET '/ufmRest/resources/pkeys/?guids_data=true'
want 200 '.["0xa"].guids|map(.guid)' '["020000000000003e","02000ff000ff0009"]'
want 200 '.["0x7fff"].partition' '"Default"'
want 200 '.["0x10"].managed_by' '"operator"'
want 200 '.["0xa"].managed_by' '"ibpartd"'
want 200 '.["0x7fff"].membership' '"limited"'
# its RemoveGuidsFromPKey
req POST /ufmRest/actions/remove_guids_from_pkey '{"pkey": "0x000A", "guids": ["020000000000003e"]}'
want 200 '.revision' 2

# NICo: a token, then its compact bodies under /ufmRestV3
req POST /ufmRest/app/tokens
want 200 '.username' '"admin"'
TOKEN=$(jq -r .access_token <<<"$BODY")
v3() { REQ="V3 $*"; ibpd_req_as "Authorization: Basic $TOKEN" "$@"; }
v3 POST /ufmRestV3/resources/pkeys '{"pkey":"0x5","ip_over_ib":true,"membership":"full","index0":true,"guids":["1070fd0300176625"]}'
want 200 '.revision' 3
v3 GET '/ufmRestV3/resources/pkeys/0x5?guids_data=true&qos_conf=true'
want 200 '.' '{"partition":"api_pkey_0x5","ip_over_ib":true,"managed_by":"ibpartd","guids":[{"guid":"1070fd0300176625","membership":"full","index0":true}],"qos_conf":{"mtu_limit":2,"rate_limit":10,"service_level":0}}'
v3 PUT /ufmRestV3/resources/pkeys/qos_conf '{"pkey":"0x5","mtu_limit":4,"service_level":0,"rate_limit":200.0}'
want 200
v3 GET '/ufmRestV3/resources/pkeys/0x5?qos_conf=true'
want 200 '.qos_conf' '{"mtu_limit":4,"rate_limit":200,"service_level":0}'
v3 GET '/ufmRestV3/resources/pkeys?qos_conf=true'
want 200 '.["0x5"].qos_conf.rate_limit' 200
v3 POST /ufmRestV3/actions/remove_guids_from_pkey '{"pkey":"0x5","guids":["1070fd0300176625"]}'
want 200
# the last member gone: UFM deletes the P_Key (NICo waits for that, and
# reads exactly the two bytes {} as "not found")
v3 GET '/ufmRestV3/resources/pkeys/0x5?qos_conf=true'
want 200
[[ $BODY == '{}' ]] || fail "$REQ: NICo's not-found is the body {}, not '$BODY'"

# NCM: create empty, PUT the set (trailing slash), DELETE guids by path
req POST /ufmRest/resources/pkeys/add '{"pkey": "0x0010", "ip_over_ib": true, "index0": null}'
want 409 '.field' '"pkey"'
req POST /ufmRest/resources/pkeys/add '{"pkey": "0x0011", "ip_over_ib": true, "index0": null}'
want 200
req GET /ufmRest/resources/pkeys/0x0011
want 200 '.partition' '"api_pkey_0x11"'
req PUT /ufmRest/resources/pkeys/ '{"pkey": "0x0011", "guids": ["0002c90000000301", "0002c90000000401"], "memberships": ["full", "limited"], "ip_over_ib": true, "index0": null}'
want 200
req GET '/ufmRest/resources/pkeys/0x0011?guids_data=true'
want 200 '.guids|map(.membership)' '["full","limited"]'
req DELETE /ufmRest/resources/pkeys/0x0011/guids/0002c90000000301,0002C90000000401
want 200
# made by /add, but it has had members: the last to leave deletes it, as
# UFM does (NCM's delete workflow relies on it, and its next create of
# 0x11 must not find it "already in use")
req GET '/ufmRest/resources/pkeys/0x0011?guids_data=true'
want 200 '.' '{}'
# the same removal retried (a workflow engine's retry): done, not 404
req DELETE /ufmRest/resources/pkeys/0x0011/guids/0002c90000000301,0002C90000000401
want 200
# made by /add and never given a member: kept empty until deleted
req POST /ufmRest/resources/pkeys/add '{"pkey": "0x0011", "ip_over_ib": true, "index0": null}'
want 200
req GET '/ufmRest/resources/pkeys/0x0011?guids_data=true'
want 200 '.guids' '[]'
# ufm_sdk: DELETE with body {}; then 404
req DELETE /ufmRest/resources/pkeys/0x11 '{}'
want 200
req DELETE /ufmRest/resources/pkeys/0x11 '{}'
want 404
# /add with every field (UFM 6.22)
req POST /ufmRest/resources/pkeys/add '{"pkey":"0x12", "index0":false, "ip_over_ib":true, "mtu_limit":2, "service_level":0, "rate_limit":2.5, "partition_name":"user_partition"}'
want 200
req GET '/ufmRest/resources/pkeys/0x12?qos_conf=true'
want 200 '.' '{"partition":"user_partition","ip_over_ib":true,"managed_by":"ibpartd","qos_conf":{"mtu_limit":2,"rate_limit":2.5,"service_level":0}}'

# bad input: 4xx naming the field, nothing changed
rev=$(ibpd_req GET /ibpart/v1/status; jq .revision <<<"$BODY")
cp "$IBPD_DB" db.before 2>/dev/null || true
bad() { # bad CODE FIELD METHOD PATH BODY
	req "$3" "$4" "${5-}"
	want "$1" '.field' "\"$2\""
}
bad 400 pkey POST /ufmRest/resources/pkeys '{"pkey":"0x8001","guids":["0002c90000000301"]}'
bad 400 pkey POST /ufmRest/resources/pkeys '{"pkey":"0x7fff","guids":["0002c90000000301"]}'
bad 400 pkey POST /ufmRest/resources/pkeys '{"pkey":"0x0000","guids":["0002c90000000301"]}'
bad 400 'guids[0]' POST /ufmRest/resources/pkeys '{"pkey":"0x6","guids":["0002c9000000030"]}'
bad 400 'guids[1]' POST /ufmRest/resources/pkeys '{"pkey":"0x6","guids":["0002c90000000301","xyz"]}'
bad 400 body POST /ufmRest/resources/pkeys '{"pkey":"0x6","guids":['
bad 400 colour POST /ufmRest/resources/pkeys '{"pkey":"0x6","guids":["0002c90000000301"],"colour":"red"}'
bad 400 memberships POST /ufmRest/resources/pkeys '{"pkey":"0x6","guids":["0002c90000000301"],"memberships":["full","full"]}'
bad 400 rate_limit POST /ufmRest/resources/pkeys/add '{"pkey":"0x6","rate_limit":3}'
bad 400 mtu_limit PUT /ufmRest/resources/pkeys/qos_conf '{"pkey":"0x12","mtu_limit":8}'
bad 400 pkey GET /ufmRest/resources/pkeys/0x10000
bad 404 pkey DELETE /ufmRest/resources/pkeys/0x6
bad 409 pkey PUT /ufmRest/resources/pkeys '{"pkey":"0x10","guids":["0002c90000000301"]}'
bad 409 pkey DELETE /ufmRest/resources/pkeys/0x10
bad 409 pkey DELETE /ufmRest/resources/pkeys/0x10/guids/0002c90000000201
req GET /ibpart/v1/status
want 200 '.revision' "$rev"
req GET /ufmRest/no/such/thing; want 404
req PATCH /ufmRest/resources/pkeys; want 405

# 24 clients at once, one GUID each, into one P_Key: none lost
pids=()
for i in $(seq 1 24); do
	g=$(printf '00000000000a%04x' "$i")
	curl -s -o /dev/null -w '%{http_code}\n' -u admin:secret -X POST \
		-H 'Content-Type: application/json' --data-binary "{\"pkey\":\"0x0020\",\"guids\":[\"$g\"]}" \
		"$IBPD_URL/ufmRest/resources/pkeys" >"code.$i" &
	pids+=($!)
done
wait "${pids[@]}"
[[ $(cat code.* | sort -u) == 200 ]] || fail "concurrent adds: $(cat code.* | sort | uniq -c)"
req GET '/ufmRest/resources/pkeys/0x20?guids_data=true'
want 200 '.guids|length' 24

# a hundred changes: the operator's lines still there, byte for byte
for i in $(seq 1 50); do
	ibpd_req POST /ufmRest/resources/pkeys "{\"pkey\":\"0x30\",\"guids\":[\"0000000000b0$(printf %04x "$i")\"]}"
	ibpd_req POST /ufmRest/actions/remove_guids_from_pkey "{\"pkey\":\"0x30\",\"guids\":[\"0000000000b0$(printf %04x "$i")\"]}"
done
for i in $(seq 1 50); do
	grep -q '^api_pkey_0x20=' "$IBPD_CONF" && break
	sleep 0.1
done
head -c "$(wc -c <operator.conf)" "$IBPD_CONF" | cmp -s - operator.conf || fail "the operator's lines changed"
[[ $(grep -c 'generated section' "$IBPD_CONF") == 1 ]] || fail "the generated section is not there once"
# the file is one OpenSM reads as meant
expect_status 0 "$IBPART" check "$IBPD_CONF"

# changes arriving together were coalesced: fewer reloads than revisions
ibpd_req GET /ibpart/v1/status
writes=$(grep -c 'written to' "$IBPD_LOG")
((writes < $(jq .revision <<<"$BODY"))) || fail "$writes reloads for $(jq .revision <<<"$BODY") revisions"

# adopt: the operator's 0x10 becomes the API's; their other lines stay
req POST /ibpart/v1/adopt '{"pkey":"0x7fff"}'
want 400 '.field' '"pkey"'
req POST /ibpart/v1/adopt '{"pkey":"0x99"}'
want 404
req POST /ibpart/v1/adopt '{"pkey":"0x10"}'
want 200
grep -q '^# storage (P_Key 0x0010) adopted by ibpartd: now in its generated section # their own$' "$IBPD_CONF" ||
	fail "adopt: the operator's line: $(grep -n storage "$IBPD_CONF")"
head -2 "$IBPD_CONF" | cmp -s - <(head -2 operator.conf) || fail "adopt: the operator's other lines changed"
grep -q '^storage=0x0010, ipoib :' <<<"$(sed -n '/generated section, managed/,$p' "$IBPD_CONF")" || fail "adopt: not in the generated section"
req GET '/ufmRest/resources/pkeys/0x10?guids_data=true'
want 200 '.managed_by' '"ibpartd"'
want 200 '.guids[0].guid' '"0002c90000000201"'
req POST /ufmRest/resources/pkeys '{"pkey":"0x10","membership":"limited","guids":["0002c90000000301"]}'
want 200
expect_status 0 "$IBPART" check "$IBPD_CONF"

# ibpart's own: the plan file of the newest revision; no audit without
# a topology
req GET /ibpart/v1/plan
want 200 '.partitions_conf|startswith("# The operator'"'"'s partitions")' true
req GET /ibpart/v1/audit
want 404

# /metrics: credentials needed unless --metrics-no-auth (restarted so)
REQ="metrics without"; CODE=$(curl -s -o /dev/null -w '%{http_code}' "$IBPD_URL/metrics"); want 401
req GET /metrics
[[ $CODE == 200 ]] && grep -q '^ibpartd_revision [0-9]' <<<"$BODY" && grep -q '^ibpartd_requests_total{code="4xx"} [1-9]' <<<"$BODY" ||
	fail "metrics: $CODE $BODY"

# SIGKILL right after a 200: the change is in the database
req POST /ufmRest/resources/pkeys '{"pkey":"0x40","guids":["0002c90000000601"]}'
want 200
ibpd_kill
ibpd_start --metrics-no-auth || fail "no restart"
REQ="metrics open"; CODE=$(curl -s -o /dev/null -w '%{http_code}' "$IBPD_URL/metrics"); want 200
REQ="status still closed"; CODE=$(curl -s -o /dev/null -w '%{http_code}' "$IBPD_URL/ibpart/v1/status"); want 401
req GET '/ufmRest/resources/pkeys/0x40?guids_data=true'
want 200 '.guids[0].guid' '"0002c90000000601"'
# the token too
v3 GET /ufmRestV3/resources/pkeys/0x40; want 200
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# HTTPS (the default): a self-signed certificate for 127.0.0.1; a key
# others can read is refused
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
	-keyout tls.key -out tls.crt 2>/dev/null || fail "openssl req"
chmod 644 tls.key
expect_status 2 "$IBPARTD" --listen 127.0.0.1:0 --cert tls.crt --key tls.key --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "private key" err
chmod 600 tls.key
IBPD_TRANSPORT=(--cert tls.crt --key tls.key)
IBPD_SCHEME=https
IBPD_CURL=(--cacert tls.crt)
ibpd_start || fail "no HTTPS start"
req GET '/ufmRest/resources/pkeys/0x40?guids_data=true'
want 200 '.guids[0].guid' '"0002c90000000601"'
REQ="plain HTTP to the HTTPS port"
CODE=$(curl -s -o /dev/null -w '%{http_code}' -u admin:secret "http://127.0.0.1:$IBPD_PORT/ufmRest/app/ufm_version" || true)
[[ $CODE != 200 ]] || fail "plain HTTP answered on the HTTPS port"
ibpd_stop || fail "ibpartd (HTTPS) exited $? on SIGTERM"
finish
