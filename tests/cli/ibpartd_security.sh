#!/usr/bin/env bash
# ibpartd_security.sh - ibpartd's trust model (issue 28), attacked over
# loopback HTTP: credentials are checked before the body (a 1 MiB body
# announced without credentials is answered 401 at once and logged),
# per-route body limits (413 naming the limit), long targets (414; a
# DELETE naming 40 GUIDs works), the failed-login limit (429, per
# address and per user, the same for a user that does not exist, and
# as slow), NUL in a path, header or password (400, nothing deleted),
# one framing (Content-Length with Transfer-Encoding, two lengths: 400),
# JSON bodies labelled JSON (415), a cross-site Origin refused, no Basic
# challenge to a browser, mtu_limit out of range (400, not truncated),
# the users file (owner, symlink, a long line read whole, attributes),
# roles and P_Key ranges, tokens (expiry, revocation, dying with their
# user, listing with last use) and the audit trail across a restart.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
command -v python3 >/dev/null || { echo "SKIP: python3 is needed" >&2; exit 77; }
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"

want() { # want CODE [JQ-EXPR [VALUE]]: check the last answer
	[[ $CODE == "$1" ]] || fail "$REQ: HTTP $CODE, want $1: $BODY"
	if [[ -n ${2-} ]]; then
		local got
		got=$(jq -c "$2" <<<"$BODY" 2>/dev/null) || got="(not JSON: $BODY)"
		[[ $got == "$3" ]] || fail "$REQ: $2 is $got, want $3"
	fi
}
req() { REQ="$*"; ibpd_req "$@"; }
as() { local a=$1; shift; REQ="as $a: $*"; ibpd_req_as "$a" "$@"; }

# raw HOST PORT TIMEOUT: send stdin's bytes as they are (\r\n kept),
# print the status of the answer (000 when none came within TIMEOUT s)
cat >raw.py <<'PY'
import socket, sys
host, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
data = sys.stdin.buffer.read()
s = socket.create_connection((host, port), timeout=timeout)
try:
    s.sendall(data)
    got = b""
    while b"\r\n" not in got:
        chunk = s.recv(4096)
        if not chunk:
            break
        got += chunk
    parts = got.split(b" ", 2)
    print(parts[1].decode() if len(parts) > 1 else "000")
except (socket.timeout, ConnectionResetError, BrokenPipeError):
    print("000")
finally:
    s.close()
PY
raw() { python3 raw.py 127.0.0.1 "$IBPD_PORT" "${1:-5}"; }
AUTH=$(printf admin:secret | base64)

# ---- the users file ----
pw=$(openssl passwd -6 secret)
{
	printf 'admin:%s\n' "$pw"
	printf 'reader:%s:role=read\n' "$pw"
	printf 'k8s:%s:role=change pkeys=0x100-0x1ff,0x300 profile=ib-kubernetes\n' "$pw"
	printf 'temp:%s:role=change\n' "$pw"
	# a comment over the old 1,023-byte buffer: its tail was a user
	printf '#%s' "$(head -c 1022 /dev/zero | tr '\0' x)"
	printf 'evil:%s\n' "$pw"
} >"$IBPD_USERS"
# the evil line above must be inside the comment, not a line of its own
[[ $(grep -c '^evil:' "$IBPD_USERS") == 0 && $(grep -c 'evil:' "$IBPD_USERS") == 1 ]] ||
	fail "test setup: the long comment is not one line"
chmod 600 "$IBPD_USERS"

# an attribute it does not know, a bad role, a bad range: refused, located
# (each start bounded: a daemon that took the file would run on)
cp "$IBPD_USERS" good.users
printf 'x:%s:rol=read\n' "$pw" >>"$IBPD_USERS"
expect_status 2 timeout 10 "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "unknown attribute 'rol'" err
cp good.users "$IBPD_USERS"
printf 'x:%s:role=root\n' "$pw" >>"$IBPD_USERS"
expect_status 2 timeout 10 "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "the role is read, change or admin" err
cp good.users "$IBPD_USERS"
printf 'x:%s:pkeys=0x200-0x100\n' "$pw" >>"$IBPD_USERS"
expect_status 2 timeout 10 "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "P_Keys are ranges" err
cp good.users "$IBPD_USERS"
# owned by another user: refused
if [[ $(id -u) == 0 ]]; then
	chown nobody "$IBPD_USERS"
	expect_status 2 timeout 10 "$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$IBPD_DB" --partitions "$IBPD_CONF"
	expect_grep "not by the daemon's user" err
	chown 0 "$IBPD_USERS"
fi
# a symlink in a directory others may write (not sticky): refused
mkdir -m 0777 open
chmod 0777 open
ln -s "$IBPD_USERS" open/users
expect_status 2 timeout 10 "$IBPARTD" --listen 127.0.0.1:0 --http --users open/users --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "symlink another user could have made" err
# the file itself inside such a directory: refused too
cp "$IBPD_USERS" open/users2 && chmod 600 open/users2
expect_status 2 timeout 10 "$IBPARTD" --listen 127.0.0.1:0 --http --users open/users2 --db "$IBPD_DB" --partitions "$IBPD_CONF"
expect_grep "writable by others" err

ibpd_start --login-failures 5 || { fail "ibpartd did not start"; finish; }

# the long comment made no user
as "-u evil:secret" GET /ufmRest/app/ufm_version; want 401

# ---- credentials first ----
# 1 MiB announced, no credentials, no body sent: 401 at once (the body
# was once read first), and the refusal is in the access log
CODE=$(printf 'POST /ufmRest/resources/pkeys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n' | raw 5)
REQ="1 MiB without credentials"; BODY=""; want 401
grep -q 'access: POST /ufmRest/resources/pkeys 401 user=- via=- from=127.0.0.1 ' "$IBPD_LOG" ||
	fail "the unauthenticated refusal is not in the access log: $(tail -3 "$IBPD_LOG")"
# with credentials, over the route's limit: 413 at once, naming it
CODE=$(printf 'POST /ufmRest/resources/pkeys HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n' "$AUTH" | raw 5)
REQ="2 MB with credentials"; want 413
head -c 5000 /dev/zero | tr '\0' ' ' >big.json
REQ="5 kB to /add"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret -H 'Content-Type: application/json' \
	--data-binary @big.json "$IBPD_URL/ufmRest/resources/pkeys/add"); BODY=$(cat resp)
want 413 '.error|test("4 KiB")' true
REQ="a body to a GET"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret -X GET -H 'Content-Type: application/json' \
	--data-binary '{}' "$IBPD_URL/ufmRest/resources/pkeys"); BODY=$(cat resp)
want 413

# ---- long targets ----
guids=()
for i in $(seq 1 40); do guids+=("$(printf '0002c900000a%04x' "$i")"); done
list=$(IFS=,; echo "${guids[*]}")
req POST /ufmRest/resources/pkeys "{\"pkey\":\"0x20\",\"guids\":[\"$(sed 's/,/","/g' <<<"$list")\"]}"
want 200
req DELETE "/ufmRest/resources/pkeys/0x20/guids/${list%,*}"   # 39 of them
want 200
req GET '/ufmRest/resources/pkeys/0x20?guids_data=true'
want 200 '.guids|length' 1
long=$(head -c 9000 /dev/zero | tr '\0' a)
req GET "/ufmRest/resources/pkeys/$long"
want 414 '.error|test("8192")' true

# ---- NUL ----
req POST /ufmRest/resources/pkeys '{"pkey":"0x21","guids":["0002c900000b0001","0002c900000b0002"]}'
want 200
req DELETE /ufmRest/resources/pkeys/0x21%00/guids/0002c900000b0001
want 400
req GET '/ufmRest/resources/pkeys/0x21?guids_data=true'
want 200 '.guids|length' 2
grep -q 'access: DELETE /ufmRest/resources/pkeys/0x21 400' "$IBPD_LOG" || fail "the %00 refusal is not logged"
# a password followed by \0junk
nulauth=$(printf 'admin:secret\0junk' | base64)
as "Authorization: Basic $nulauth" GET /ufmRest/app/ufm_version; want 400
CODE=$(printf 'GET /ufmRest/app/ufm_version HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nX-A: a\0b\r\n\r\n' "$AUTH" | raw 5)
REQ="NUL in a header"; BODY=""; want 400

# ---- framing ----
CODE=$(printf 'POST /ufmRest/resources/pkeys HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' "$AUTH" | raw 5)
REQ="Content-Length and Transfer-Encoding"; want 400
CODE=$(printf 'POST /ufmRest/resources/pkeys HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}' "$AUTH" | raw 5)
REQ="two Content-Lengths"; want 400

# ---- cross-site ----
body='{"pkey":"0x22","guids":["0002c900000c0001"]}'
REQ="text/plain"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret -H 'Content-Type: text/plain' \
	--data-binary "$body" "$IBPD_URL/ufmRest/resources/pkeys"); BODY=$(cat resp); want 415
REQ="a form"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret \
	--data-binary "$body" "$IBPD_URL/ufmRest/resources/pkeys"); BODY=$(cat resp); want 415
# a DELETE's body is not read: ufm_sdk's {} needs no Content-Type
REQ="DELETE with a form body"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret -X DELETE \
	--data-binary '{}' "$IBPD_URL/ufmRest/resources/pkeys/0x7e"); BODY=$(cat resp); want 404
REQ="Origin elsewhere"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret -H 'Content-Type: application/json' \
	-H 'Origin: https://evil.example' --data-binary "$body" "$IBPD_URL/ufmRest/resources/pkeys"); BODY=$(cat resp); want 403
REQ="Sec-Fetch-Site cross-site"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret -H 'Content-Type: application/json' \
	-H 'Sec-Fetch-Site: cross-site' --data-binary "$body" "$IBPD_URL/ufmRest/resources/pkeys"); BODY=$(cat resp); want 403
# (the list, not GET of the P_Key: a profile may answer that 200 {})
req GET /ufmRest/resources/pkeys; want 200 'has("0x22")' false
REQ="same Origin"; CODE=$(curl -s -o resp -w '%{http_code}' -u admin:secret -H 'Content-Type: application/json' \
	-H "Origin: http://127.0.0.1:$IBPD_PORT" --data-binary "$body" "$IBPD_URL/ufmRest/resources/pkeys"); BODY=$(cat resp); want 200
# no Basic challenge on / nor to a browser; API clients still get one
hdrs=$(curl -s -D - -o /dev/null "$IBPD_URL/")
grep -qi '^WWW-Authenticate' <<<"$hdrs" && fail "/ asks a browser for Basic credentials"
hdrs=$(curl -s -D - -o /dev/null -H 'Accept: text/html' "$IBPD_URL/ufmRest/resources/pkeys")
grep -qi '^WWW-Authenticate' <<<"$hdrs" && fail "a browser is asked for Basic credentials"
hdrs=$(curl -s -D - -o /dev/null "$IBPD_URL/ufmRest/resources/pkeys")
grep -qi '^WWW-Authenticate: Basic' <<<"$hdrs" || fail "an API client is no longer challenged: $hdrs"

# ---- numbers ----
req POST /ufmRest/resources/pkeys/add '{"pkey":"0x23","mtu_limit":4294967298}'
want 400 '.field' '"mtu_limit"'
req GET /ufmRest/resources/pkeys; want 200 'has("0x23")' false

# ---- roles and ranges ----
as "-u reader:secret" GET /ufmRest/resources/pkeys; want 200
as "-u reader:secret" POST /ufmRest/resources/pkeys '{"pkey":"0x24","guids":["0002c900000d0001"]}'; want 403
as "-u k8s:secret" POST /ufmRest/resources/pkeys '{"pkey":"0x100","guids":["0002c900000d0002"]}'; want 200
as "-u k8s:secret" POST /ufmRest/resources/pkeys '{"pkey":"0x300","guids":["0002c900000d0003"]}'; want 200
as "-u k8s:secret" POST /ufmRest/resources/pkeys '{"pkey":"0x200","guids":["0002c900000d0004"]}'; want 403
as "-u k8s:secret" POST /ufmRest/resources/pkeys '{"pkey":512,"guids":["0002c900000d0004"]}'; want 403
as "-u k8s:secret" DELETE /ufmRest/resources/pkeys/0x20; want 403
as "-u k8s:secret" DELETE /ufmRest/resources/pkeys/0x20/guids/0002c900000a0028; want 403
as "-u k8s:secret" PUT /ufmRest/resources/pkeys/qos_conf '{"pkey":"0x20","mtu_limit":4}'; want 403
as "-u k8s:secret" POST /ufmRest/actions/remove_guids_from_pkey '{"pkey":"0x20","guids":["0002c900000a0028"]}'; want 403
as "-u k8s:secret" POST /ibpart/v1/adopt '{"pkey":"0x7fff"}'; want 403
req GET '/ufmRest/resources/pkeys/0x20?guids_data=true'; want 200 '.guids|length' 1

# ---- tokens ----
as "-u temp:secret" POST /ufmRest/app/tokens '{"expires_in":600}'
want 200 '.role' '"change"'
TT=$(jq -r .access_token <<<"$BODY")
as "Authorization: Basic $TT" GET /ufmRestV3/resources/pkeys; want 200
as "Authorization: Basic $TT" POST /ufmRestV3/app/tokens; want 403
as "-u temp:secret" GET /ufmRest/app/tokens
want 200 '.[0].last_used > 0' true
want 200 '.[0].expires_in' 600
want 200 '.[0].expires_at - .[0].issued_at' 600
# a read token of an admin cannot change
req POST /ufmRest/app/tokens '{"role":"read"}'; want 200 '.role' '"read"'
RT=$(jq -r .access_token <<<"$BODY")
as "Authorization: Basic $RT" POST /ufmRestV3/resources/pkeys '{"pkey":"0x25","guids":["0002c900000e0001"]}'; want 403
# revocation
req POST /ufmRest/app/tokens; want 200
KT=$(jq -r .access_token <<<"$BODY"); KID=$(jq -r .token_id <<<"$BODY")
as "Authorization: Basic $KT" GET /ufmRestV3/resources/pkeys; want 200
req DELETE "/ufmRest/app/tokens/$KID"; want 200 '.revoked' true
as "Authorization: Basic $KT" GET /ufmRestV3/resources/pkeys; want 401
# the command, while the daemon runs: listed (last use, never the
# secret), revoked, refused at the next request
req POST /ufmRest/app/tokens; want 200
CT=$(jq -r .access_token <<<"$BODY"); CID=$(jq -r .token_id <<<"$BODY")
as "Authorization: Basic $CT" GET /ufmRestV3/resources/pkeys; want 200
expect_status 0 "$IBPARTD" token --db "$IBPD_DB" list
[[ $(jq -c --arg id "$CID" '[.[] | select(.token_id == $id) | .username, .revoked, (.last_used > 0)]' out) == '["admin",false,true]' ]] ||
	fail "ibpartd token list: $(cat out)"
grep -q "$CT" out && fail "ibpartd token list shows a secret"
expect_status 0 "$IBPARTD" token --db "$IBPD_DB" revoke "$CID"
as "Authorization: Basic $CT" GET /ufmRestV3/resources/pkeys; want 401
expect_status 2 "$IBPARTD" token --db "$IBPD_DB" revoke 0000000000000000
# expiry (1 s): works now, refused once it has passed (wait for it)
req POST /ufmRest/app/tokens '{"expires_in":1}'; want 200
ET=$(jq -r .access_token <<<"$BODY")
for ((i = 0; i < 40; i++)); do
	ibpd_req_as "Authorization: Basic $ET" GET /ufmRestV3/app/ufm_version
	[[ $CODE == 401 ]] && break
	sleep 0.1
done
REQ="expired token"; want 401
req POST /ufmRest/app/tokens '{"expires_in":0}'; want 400

# ---- the failed-login limit (5 a minute here) ----
# a user that does not exist and a wrong password: the same answer, as
# slow (crypt(3) runs either way); timed before the limit is reached
# (4 tries each from its own address; the fastest of each compared)
cat >timing.py <<'PY'
import base64, socket, sys, time
port = int(sys.argv[1])
def once(cred, src):
    a = base64.b64encode(cred.encode()).decode()
    s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                 source_address=(src, 0))
    t = time.perf_counter()
    s.sendall(("GET /ufmRest/app/ufm_version HTTP/1.1\r\nHost: x\r\n"
               "Authorization: Basic %s\r\nConnection: close\r\n\r\n" % a).encode())
    got = b""
    while True:
        c = s.recv(4096)
        if not c:
            break
        got += c
    s.close()
    return time.perf_counter() - t, got.split(b"\r\n\r\n", 1)
res = {}
for cred, src in (("admin:wrong", "127.0.0.2"), ("nosuchuser:wrong", "127.0.0.7")):
    times, bodies = [], set()
    for _ in range(4):
        dt, (head, body) = once(cred, src)
        times.append(dt)
        bodies.add((head.split(b"\r\n")[0], body))
    times.sort()
    res[cred] = (times[0], bodies)
a, b = res["admin:wrong"], res["nosuchuser:wrong"]
print("%.6f %.6f %s" % (a[0], b[0], "same" if a[1] == b[1] else "differ"))
PY
read -r t_user t_none same < <(python3 timing.py "$IBPD_PORT")
[[ $same == same ]] || fail "a wrong user and a wrong password answer differently"
python3 -c "import sys; sys.exit(0 if $t_none >= 0.5 * $t_user else 1)" ||
	fail "a user that does not exist answers faster: ${t_none}s vs ${t_user}s"
# 127.0.0.2 has now failed 4 times; a fifth, then refused even with
# the right password
curl -s -o /dev/null --interface 127.0.0.2 -u admin:wrong "$IBPD_URL/ufmRest/app/ufm_version"
CODE=$(curl -s -o resp -w '%{http_code}' --interface 127.0.0.2 -u admin:secret "$IBPD_URL/ufmRest/app/ufm_version"); BODY=$(cat resp)
REQ="after 5 failures"; want 429 '.error|test("failed logins")' true
# per user: 127.0.0.3 fails 5 times for ghost (no such user): 429 for
# ghost from 127.0.0.4, as it would be for a real user
for i in 1 2 3 4 5; do curl -s -o /dev/null --interface 127.0.0.3 -u ghost:x "$IBPD_URL/ufmRest/app/ufm_version"; done
CODE=$(curl -s -o resp -w '%{http_code}' --interface 127.0.0.4 -u ghost:x "$IBPD_URL/ufmRest/app/ufm_version"); BODY=$(cat resp)
REQ="ghost from elsewhere"; want 429
for i in 1 2 3 4 5; do curl -s -o /dev/null --interface 127.0.0.5 -u temp:x "$IBPD_URL/ufmRest/app/ufm_version"; done
CODE=$(curl -s -o resp -w '%{http_code}' --interface 127.0.0.6 -u temp:x "$IBPD_URL/ufmRest/app/ufm_version"); BODY=$(cat resp)
REQ="temp from elsewhere"; want 429
# other users and addresses are not locked out
as "-u k8s:secret" GET /ufmRest/app/ufm_version; want 200
grep -q 'access: GET /ufmRest/app/ufm_version 429 user=- via=- from=127.0.0.2 ' "$IBPD_LOG" || fail "a 429 is not logged"

# ---- the audit trail ----
as "-u k8s:secret" POST /ufmRest/resources/pkeys '{"pkey":"0x101","guids":["0002c900000f0001"]}'; want 200
rev=$(jq .revision <<<"$BODY")
ibpd_stop || fail "ibpartd exited $? on SIGTERM"

# ---- a token dies with its user; the audit survives the restart ----
grep -v '^temp:' "$IBPD_USERS" >users.new
cat users.new >"$IBPD_USERS"
ibpd_start || { fail "no restart"; finish; }
as "Authorization: Basic $TT" GET /ufmRestV3/resources/pkeys; want 401
req GET '/ibpart/v1/revisions?user=k8s'
want 200 '.revisions[0].revision' "$rev"
want 200 '.revisions[0].user' '"k8s"'
want 200 '.revisions[0].via' '"basic"'
want 200 '.revisions[0].client' '"127.0.0.1"'
want 200 '.revisions[0].request|startswith("POST /ufmRest/resources/pkeys {\"pkey\":\"0x101\"")' true
want 200 '[.revisions[].user]|unique' '["k8s"]'
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
finish
