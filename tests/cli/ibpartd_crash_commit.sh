#!/usr/bin/env bash
# ibpartd_crash_commit.sh - the group commit (src/service/service_commit.c,
# issue 29) under a crash: 300 POSTs from 100 clients at once, each
# adding its own two GUIDs to one of 30 P_Keys; ibpartd is killed with
# SIGKILL while they are in flight.  SQLite's own sqlite3 then reads the
# database (recovering its WAL as any reader would): every change
# answered 200 is there, both GUIDs and its revision; every change is
# there whole or not at all (both GUIDs or neither), and there is one
# add_guids revision per change there, none for a change that is not.
# Restarted on that database, ibpartd lists the same members and
# numbers its next change after the newest revision.  Before the kill,
# /metrics' ibpartd_commits_total is below the revisions: changes that
# arrived together shared a transaction.
source "$(dirname "$0")/lib.sh"
source "$IBP_SRC/tests/interop/ibpartd_lib.sh"
ibpd_setup_cli "$T"
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 is needed" >&2; exit 77; }
printf 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;\n' >"$IBPD_CONF"
ibpd_start --threads 16 --per-ip-connections 128 --monitor-interval 0

N=1000
# change i: P_Key 0x100 + i % 30 (PK[i]), GUIDs 0002c90001000000 + 2i
# and + 2i + 1 (GA[i], GB[i])
PK=() GA=() GB=()
for ((i = 0; i < N; i++)); do
	printf -v PK[i] '%x' $((0x100 + i % 30))
	printf -v GA[i] '0002c9%010x' $((0x1000000 + 2 * i))
	printf -v GB[i] '0002c9%010x' $((0x1000000 + 2 * i + 1))
done
for ((i = 0; i < N; i++)); do
	((i > 0)) && echo next
	printf 'url = "%s/ufmRest/resources/pkeys"\nuser = "admin:secret"\nheader = "Content-Type: application/json"\noutput = "/dev/null"\nwrite-out = "%%{http_code} %%{urlnum}\\n"\ndata = "{\\"pkey\\":\\"0x%s\\",\\"guids\\":[\\"%s\\",\\"%s\\"]}"\n' \
		"$IBPD_URL" "${PK[i]}" "${GA[i]}" "${GB[i]}"
done >posts
curl -s --parallel --parallel-max 100 -K posts >answers 2>/dev/null &
CURL=$!
# the kill once 40 revisions are durable (/metrics' ibpartd_revision;
# curl's answers are buffered until it ends), a deadline of 60 s
metrics="" revision=0
for ((k = 0; k < 6000 && revision < 40; k++)); do
	metrics=$(curl -s -u admin:secret "$IBPD_URL/metrics" || true)
	revision=$(sed -n 's/^ibpartd_revision \([0-9]*\)$/\1/p' <<<"$metrics")
	revision=${revision:-0}
	((revision >= 40)) || sleep 0.01
done
ibpd_kill
wait "$CURL" || true
commits=$(sed -n 's/^ibpartd_commits_total \([0-9]*\)$/\1/p' <<<"$metrics")
revision=$(sed -n 's/^ibpartd_revision \([0-9]*\)$/\1/p' <<<"$metrics")
[[ -n $commits && -n $revision ]] || fail "no ibpartd_commits_total or ibpartd_revision in /metrics: $metrics"
((revision > 0 && commits < revision)) ||
	fail "ibpartd_commits_total $commits for $revision revisions: no two changes shared a transaction"

ok=$(awk '$1 == 200' answers | wc -l)
lost=$((N - ok))
((ok >= 40)) || fail "only $ok changes answered 200 before the kill"
((lost > 0)) || fail "every change was answered before the kill: nothing was in flight"
awk '$1 != 200 && $1 != "000"' answers >odd
[[ ! -s odd ]] || fail "answers other than 200 or none: $(cat odd)"

# what SQLite itself holds after the crash
sqlite3 "$IBPD_DB" "SELECT printf('%x %016x', pkey, guid) FROM members" >members ||
	fail "sqlite3 cannot read the database"
sqlite3 "$IBPD_DB" "SELECT count(*) FROM revisions WHERE op = 'add_guids'" >revs
declare -A have
while read -r p g; do have[$p.$g]=1; done <members
present=0
for ((i = 0; i < N; i++)); do
	a=${have[${PK[i]}.${GA[i]}]-} b=${have[${PK[i]}.${GB[i]}]-}
	[[ $a == "$b" ]] || fail "change $i is half there: GUID pair ($a, $b)"
	[[ -n $a ]] && present=$((present + 1))
done
while read -r code i; do
	[[ $code == 200 ]] || continue
	[[ -n ${have[${PK[i]}.${GA[i]}]-} ]] || fail "change $i was answered 200 and is not in the database"
done <answers
((present >= ok)) || fail "$present changes in the database, $ok answered 200"
[[ $(cat revs) == "$present" ]] ||
	fail "$(cat revs) add_guids revisions for $present changes in the database"

# restarted on it: the same members, the next revision after the newest
newest=$(sqlite3 "$IBPD_DB" "SELECT max(rev) FROM revisions")
ibpd_start --monitor-interval 0
ibpd_req GET '/ufmRest/resources/pkeys?guids_data=true'
[[ $CODE == 200 ]] || fail "the list after the restart: $CODE"
listed=$(jq '[.[] | select(.partition != "Default") | .guids | length] | add // 0' <<<"$BODY")
[[ $listed == $(wc -l <members) ]] || fail "the list after the restart has $listed GUIDs, the database $(wc -l <members)"
ibpd_req POST /ufmRest/resources/pkeys '{"pkey":"0x200","guids":["0002c90002000000"]}'
[[ $CODE == 200 ]] || fail "a change after the restart: $CODE $BODY"
[[ $(sqlite3 "$IBPD_DB" "SELECT max(rev) FROM revisions") == $((newest + 1)) ]] ||
	fail "the change after the restart is not revision $((newest + 1))"
ibpd_stop || fail "ibpartd exited $? on SIGTERM"
echo "killed at revision $revision ($commits transactions); $ok of $N answered 200, $present in the database"
finish
