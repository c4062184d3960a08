#!/usr/bin/env bash
# ibpartd_store.sh - two ibpartd on one shared store (--store, a
# PostgreSQL started here on its own loopback port), no OpenSM: what the
# SM pair's failover relies on, checked against the store itself (psql).
#  - `ibpartd migrate` moves a single host's SQLite database into the
#    store (a second run is refused, exit 2), and both instances start
#    on its plan;
#  - concurrent changes through both instances: every one answered 200,
#    one revision sequence without a gap, every GUID in both hosts'
#    partitions files (LISTEN/NOTIFY), none lost;
#  - a GUID removed through one instance leaves the other's file;
#  - a token issued by one instance works on the other (the store holds
#    its hash only), and revoked through the other stops working on the
#    first; so does one revoked by `ibpartd token --store` on the other's
#    cache;
#  - the store stopped: a change answers 503 with the reason and leaves
#    the file as it is; the store back: changes work again without a
#    restart and reach the other host's file; an instance started while
#    the store is down serves, refuses changes (503) and writes its file
#    only once it has caught up.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
source "$IBP_SRC/tests/interop/pg_lib.sh"
for t in curl openssl jq python3; do
	command -v $t >/dev/null || { echo "SKIP: $t is needed" >&2; exit 77; }
done
A_PID="" B_PID="" C_PID=""
stop_all() {
	local p
	for p in $A_PID $B_PID $C_PID; do kill -KILL "$p" 2>/dev/null || true; done
	ibpd_cleanup
	pg_cleanup
}
trap 'rc=$?; set +e; stop_all; rm -rf "$T"; exit $rc' EXIT
ibpd_init "$T"
pg_init "$T" || fail "initdb"
pg_start || fail "PostgreSQL did not start"
H='Content-Type: application/json'

# one host's database first, as it was before the pair
printf 'Default=0x7fff, ipoib : ALL=full ;\n' >"$IBPD_CONF"
cp "$IBPD_CONF" a.conf
cp "$IBPD_CONF" b.conf
ibpd_start --monitor-interval 0
ibpd_req POST /ufmRest/resources/pkeys '{"pkey":"0x10","guids":["0002c90000000200"]}'
[[ $CODE == 200 ]] || fail "the single host's change: $CODE $BODY"
ibpd_stop || fail "the single host's ibpartd did not stop cleanly"
expect_status 0 "$IBPARTD" migrate --from "sqlite:$IBPD_DB" --to "$PG_URL"
expect_grep "rows copied" out
[[ $(pg_sql "SELECT max(rev) FROM revisions") == 1 ]] || fail "the store's revisions after migrate"
expect_status 2 "$IBPARTD" migrate --from "sqlite:$IBPD_DB" --to "$PG_URL"
expect_grep "already holds 1 revisions" err

# start NAME: an instance on the store with its own cache and file
start() {
	local n=$1
	: >"$n.log"
	"$IBPARTD" --listen 127.0.0.1:0 --http --users "$IBPD_USERS" --db "$T/$n.db" \
		--partitions "$T/$n.conf" --store "$PG_URL" --host-name "host-$n" \
		--monitor-interval 0 2>>"$n.log" &
	local pid=$! i port=""
	for ((i = 0; i < 200; i++)); do
		port=$(sed -n 's/.*listening on port \([0-9]*\) .*/\1/p' "$n.log")
		[[ -n $port ]] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	[[ -n $port ]] || { cat "$n.log" >&2; fail "instance $n did not start"; finish; }
	eval "${n^^}_PID=$pid ${n^^}_URL=http://127.0.0.1:$port"
}
start a
start b
post() { # post URL PKEY GUID: the HTTP code
	curl -s -o /dev/null -w '%{http_code}' -u admin:secret -H "$H" -X POST \
		--data-binary "{\"pkey\":\"$2\",\"guids\":[\"$3\"]}" "$1/ufmRest/resources/pkeys"
}
# wait_file FILE REGEX [absent]: until FILE (does not) match(es) (10 s)
wait_file() {
	local i
	for ((i = 0; i < 100; i++)); do
		if [[ ${3-} == absent ]]; then
			grep -qi -- "$2" "$1" || return 0
		else
			grep -qi -- "$2" "$1" && return 0
		fi
		sleep 0.1
	done
	fail "$1: '$2' ${3:-present} after 10 s"
	return 1
}
wait_file a.conf "0x0002c90000000200"
wait_file b.conf "0x0002c90000000200"

# concurrent changes through both
posts=()
for i in $(seq 1 12); do
	post "$A_URL" 0x20 "$(printf '00000000000001%02x' "$i")" >"code-a$i" &
	posts+=($!)
	post "$B_URL" 0x20 "$(printf '00000000000002%02x' "$i")" >"code-b$i" &
	posts+=($!)
done
wait "${posts[@]}" || true
for f in code-*; do [[ $(cat "$f") == 200 ]] || fail "$f: HTTP $(cat "$f")"; done
[[ $(pg_sql "SELECT count(*) || ' ' || max(rev) FROM revisions") == "25 25" ]] ||
	fail "the store's revisions: $(pg_sql "SELECT count(*) || ' ' || max(rev) FROM revisions"), want 25 without a gap"
[[ $(pg_sql "SELECT count(*) FROM members WHERE pkey = 32") == 24 ]] || fail "the store lost a member"
for n in a b; do
	wait_file $n.conf "0x000000000000020c"
	got=$(grep -o -i "0x00000000000001[0-9a-f][0-9a-f]\|0x00000000000002[0-9a-f][0-9a-f]" $n.conf | sort -u | wc -l)
	[[ $got == 24 ]] || fail "$n.conf holds $got of the 24 GUIDs"
done

# a removal through b leaves a's file
curl -s -o /dev/null -u admin:secret -H "$H" -X POST \
	--data-binary '{"pkey":"0x20","guids":["0000000000000105"]}' \
	"$B_URL/ufmRest/actions/remove_guids_from_pkey"
wait_file a.conf "0x0000000000000105" absent

# a token issued through a works on b; revoked through b, a refuses it
tok=$(curl -s -u admin:secret -X POST "$A_URL/ufmRest/app/tokens")
TK=$(jq -r .access_token <<<"$tok") TID=$(jq -r .token_id <<<"$tok")
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Basic $TK" "$B_URL/ufmRestV3/resources/pkeys")
[[ $code == 200 ]] || fail "a's token on b: HTTP $code"
[[ $(pg_sql "SELECT count(*) FROM tokens WHERE id = '$TID' AND hash NOT LIKE '%$TK%'") == 1 ]] ||
	fail "the store does not hold the token hashed"
code=$(curl -s -o /dev/null -w '%{http_code}' -u admin:secret -X DELETE "$B_URL/ufmRest/app/tokens/$TID")
[[ $code == 200 ]] || fail "revoking a's token through b: HTTP $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Basic $TK" "$A_URL/ufmRestV3/resources/pkeys")
[[ $code == 401 ]] || fail "a's token revoked through b still works on a: HTTP $code"
# `ibpartd token --store` on b's cache revokes in the store: a refuses
# it too (without --store only b's cache would change)
tok=$(curl -s -u admin:secret -X POST "$A_URL/ufmRest/app/tokens")
TK=$(jq -r .access_token <<<"$tok") TID=$(jq -r .token_id <<<"$tok")
listed=$("$IBPARTD" token --db "$T/b.db" --store "$PG_URL" list)
[[ $(jq --arg t "$TID" '[.[] | select(.token_id == $t and (.revoked | not))] | length' <<<"$listed") == 1 ]] ||
	fail "token --store list on b lacks a's new token $TID: $listed"
out=$("$IBPARTD" token --db "$T/b.db" --store "$PG_URL" revoke "$TID") || fail "token --store revoke: exit $?"
[[ $out == "$TID: revoked" ]] || fail "token --store revoke said: $out"
[[ $(pg_sql "SELECT revoked FROM tokens WHERE id = '$TID'") == 1 ]] || fail "the store did not take the CLI's revocation"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Basic $TK" "$A_URL/ufmRestV3/resources/pkeys")
[[ $code == 401 ]] || fail "a's token revoked by 'token --store' on b still works on a: HTTP $code"
set +e
"$IBPARTD" token --db "$T/b.db" --store "sqlite:$T/b.db" list >/dev/null 2>&1
rc=$?
set -e
[[ $rc == 2 ]] || fail "token --store with no postgresql:// URL: exit $rc, want 2"

# the store down: 503, the file left alone; back: it recovers by itself
before=$(md5sum <a.conf)
pg_stop
code=$(curl -s -o resp -w '%{http_code}' -u admin:secret -H "$H" -X POST \
	--data-binary '{"pkey":"0x30","guids":["0002c90000000300"]}' "$A_URL/ufmRest/resources/pkeys")
[[ $code == 503 ]] || fail "a change with the store down: HTTP $code, want 503"
expect_grep "shared store" resp
[[ $(md5sum <a.conf) == "$before" ]] || fail "a.conf changed while the store was down"
# an instance that starts while the store is down serves, refuses
# changes, and leaves its file alone until it has caught up
printf 'Default=0x7fff, ipoib : ALL=full ;\n' >c.conf
cbefore=$(md5sum <c.conf)
start c
expect_grep "left as it is" c.log
code=$(post "$C_URL" 0x31 0002c90000000300)
[[ $code == 503 ]] || fail "a change through the instance started without its store: HTTP $code"
[[ $(md5sum <c.conf) == "$cbefore" ]] || fail "c.conf written before c reached the store"
pg_start || fail "PostgreSQL did not restart"
wait_file c.conf "0x000000000000020c"
code=000
for ((i = 0; i < 50 && code != 200; i++)); do
	code=$(post "$A_URL" 0x30 0002c90000000300)
	[[ $code == 200 ]] || sleep 0.1
done
[[ $code == 200 ]] || fail "no change accepted after the store came back: HTTP $code"
wait_file b.conf "0x0030"
IBPD_URL=$A_URL ibpd_req GET /ibpart/v1/status
hosts=$(jq -c '[.store.hosts[].host]' <<<"$BODY")
[[ $hosts == '["host-a","host-b","host-c"]' ]] || fail "status lists hosts $hosts"
finish
