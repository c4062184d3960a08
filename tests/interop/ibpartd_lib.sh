# ibpartd_lib.sh - the harness of ibpartd's tests (sourced): a users file
# made with `openssl passwd -6` (mode 600), the daemon started on a free
# loopback port of its own (--listen 127.0.0.1:0; the port is read from
# its start line), requests with curl, and the daemon stopped with
# SIGTERM (its exit status checked: ASan's leak check runs then) - or
# killed by the EXIT trap whatever happens.
#
#   ibpd_init DIR                  users file, paths under DIR
#   ibpd_setup_cli DIR             a tests/cli script: tools, trap, init
#   ibpd_start [ARGS...]           start, wait until it listens
#   ibpd_req METHOD PATH [BODY]    Basic admin:secret; sets CODE and BODY
#   ibpd_req_as AUTH METHOD PATH [BODY]   AUTH: -u u:p, or a header
#   ibpd_stop                      SIGTERM, wait, check exit status 0
#   ibpd_kill                      SIGKILL (a crash), no check
#   ibpd_wait_fabric REV [S]       until /ibpart/v1/status says the
#                                  fabric holds revision REV (S seconds)
#   ibpd_live_opensm               (with live_lib.sh) ibsim on
#                                  live-2sw.topo, the operator's file
#                                  (SM port full in 0x7fff), OpenSM on
#                                  it; D, IBPD_PRELOAD, IBPART_LOCK_DIR
#   ibpd_vf_host PORT-GUID         SM_LID and HOST_LID (that port's), for
#   ibpd_vf_register INDEX ALIAS   the host's VF INDEX registering ALIAS
#                                  with OpenSM's SA (SubnAdmSet
#                                  GUIDInfoRecord, as an mlx4 driver)
# IBPD_PRELOAD: an LD_PRELOAD for the daemon (libumad2sim on ibsim).
: "${IBPARTD:?IBPARTD must name the ibpartd binary}"

IBPD_PID=""
# plain HTTP unless a test sets these (HTTPS: --cert F --key F, https,
# curl's --cacert F)
IBPD_TRANSPORT=(--http)
IBPD_SCHEME=http
IBPD_CURL=()
ibpd_cleanup() {
	if [[ -n $IBPD_PID ]]; then
		kill -KILL "$IBPD_PID" 2>/dev/null || true
		wait "$IBPD_PID" 2>/dev/null || true
		IBPD_PID=""
	fi
}

ibpd_init() {
	IBPD_DIR=$1
	IBPD_USERS=$IBPD_DIR/users
	IBPD_DB=$IBPD_DIR/ibpartd.db
	IBPD_CONF=$IBPD_DIR/partitions.conf
	IBPD_LOG=$IBPD_DIR/ibpartd.log
	printf 'admin:%s\n' "$(openssl passwd -6 secret)" >"$IBPD_USERS"
	chmod 600 "$IBPD_USERS"
}

# ibpd_setup_cli DIR: a tests/cli script's start - skip (77) without
# curl, openssl and jq, the daemon killed and DIR removed on exit, the
# users file made.
ibpd_setup_cli() {
	local t
	for t in curl openssl jq; do
		command -v $t >/dev/null || { echo "SKIP: $t is needed" >&2; exit 77; }
	done
	trap 'ibpd_cleanup; rm -rf "$T"' EXIT
	ibpd_init "$1"
}

ibpd_start() {
	: >"$IBPD_LOG"
	LD_PRELOAD=${IBPD_PRELOAD-} SIM_HOST=${SIM_HOST-} \
		"$IBPARTD" --listen 127.0.0.1:0 "${IBPD_TRANSPORT[@]}" --users "$IBPD_USERS" \
		--db "$IBPD_DB" --partitions "$IBPD_CONF" "$@" 2>>"$IBPD_LOG" &
	IBPD_PID=$!
	local i
	for ((i = 0; i < 200; i++)); do
		IBPD_PORT=$(sed -n 's/.*listening on port \([0-9]*\) .*/\1/p' "$IBPD_LOG" | tail -1)
		[[ -n $IBPD_PORT ]] && break
		kill -0 "$IBPD_PID" 2>/dev/null || { cat "$IBPD_LOG" >&2; return 1; }
		sleep 0.05
	done
	[[ -n $IBPD_PORT ]] || { cat "$IBPD_LOG" >&2; return 1; }
	IBPD_URL=$IBPD_SCHEME://127.0.0.1:$IBPD_PORT
}

ibpd_req_as() {
	local auth=$1 method=$2 path=$3 body=${4-}
	local -a a
	if [[ $auth == -u* ]]; then a=(-u "${auth#-u }"); else a=(-H "$auth"); fi
	local -a d=()
	[[ -n $body ]] && d=(--data-binary "$body")
	CODE=$(curl -s "${IBPD_CURL[@]}" -o "$IBPD_DIR/resp" -w '%{http_code}' -X "$method" "${a[@]}" \
		-H 'Content-Type: application/json; charset=utf-8' "${d[@]}" "$IBPD_URL$path")
	BODY=$(cat "$IBPD_DIR/resp")
}

ibpd_req() { ibpd_req_as "-u admin:secret" "$@"; }

# ibpd_until CMD...: until CMD succeeds, polled every 0.1 s for 20 s
ibpd_until() {
	local i
	for ((i = 0; i < 200; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

ibpd_stop() {
	kill -TERM "$IBPD_PID"
	local rc=0
	wait "$IBPD_PID" || rc=$?
	IBPD_PID=""
	return $rc
}

ibpd_kill() {
	kill -KILL "$IBPD_PID"
	wait "$IBPD_PID" 2>/dev/null || true
	IBPD_PID=""
}

# ibpd_wait_start: until the daemon's start has verified the fabric
# (20 s at most); 1 with its last lines otherwise.
ibpd_wait_start() {
	local i
	for ((i = 0; i < 200; i++)); do
		grep -q 'verified over SMPs' "$IBPD_LOG" && return 0
		sleep 0.1
	done
	echo "start: no verification: $(tail -3 "$IBPD_LOG")" >&2
	return 1
}

ibpd_wait_fabric() {
	local rev=$1 secs=${2:-40} i
	for ((i = 0; i < secs * 5; i++)); do
		ibpd_req GET /ibpart/v1/status
		[[ $(jq .fabric_revision <<<"$BODY") -ge $rev ]] && return 0
		sleep 0.2
	done
	echo "the fabric never held revision $rev: $BODY" >&2
	return 1
}

# ibpd_live_opensm: the fabric of ibpartd's OpenSM tests (see the top);
# sets the EXIT trap that stops the daemon, OpenSM and ibsim.
# ibpd_state_of REV: ST (the revision's state) and BODY from GET
# /ibpart/v1/status.
ibpd_state_of() {
	ibpd_req GET /ibpart/v1/status
	ST=$(jq -r --argjson r "$1" '.revisions[]? | select(.revision == $r) | .state' <<<"$BODY")
}
# ibpd_settled REV: wait (20 s at most) until it leaves pending/applied;
# ST and BODY as ibpd_state_of sets them.
ibpd_settled() {
	local i
	for ((i = 0; i < 100; i++)); do
		ibpd_state_of "$1"
		[[ $ST == pending || $ST == applied || -z $ST ]] || return 0
		sleep 0.2
	done
	live_fail "revision $1 never settled: $BODY"
}
ibpd_live_opensm() {
	ibp_require curl openssl smpquery
	live_init
	trap 'rc=$?; set +e; ibpd_cleanup; (exit $rc); ibp_cleanup' EXIT
	D=$IBP_SRC/tests/interop/data
	live_ibsim "$D/live-2sw.topo" H-0002c90000000100
	ibpd_init "$LIVE_DIR"
	printf '# the operator: SM port full in the default partition\nDefault=0x7fff, ipoib : 0x0002c90000000101=full ;\n' >"$IBPD_CONF"
	cp "$IBPD_CONF" "$LIVE_DIR/operator.conf"
	live_opensm "$IBPD_CONF"
	IBPD_PRELOAD=$LIVE_PRELOAD
	export IBPART_LOCK_DIR=$LIVE_DIR/lock # the apply lock, private to the test
}

# ibpd_sim_tool CMD...: an infiniband-diags tool on the test's ibsim
ibpd_sim_tool() { LD_PRELOAD=$LIVE_PRELOAD SIM_HOST=$IBP_SIM_HOST "$@"; }
ibpd_vf_host() {
	local out
	out=$(ibpd_sim_tool sminfo) || live_fail "sminfo failed"
	SM_LID=$(sed -n 's/^sminfo: sm lid \([0-9]*\) .*/\1/p' <<<"$out")
	out=$(ibpd_sim_tool ibaddr -G "$1") || live_fail "ibaddr failed"
	HOST_LID=$(($(sed -n 's/.* LID start \(0x[0-9a-f]*\) .*/\1/p' <<<"$out")))
	[[ -n $SM_LID && $HOST_LID -gt 0 ]] || live_fail "no LIDs: sm [$SM_LID] $1 [$HOST_LID]"
}
ibpd_vf_register() {
	ibpd_sim_tool "$IBP_SA_GUIDINFO_SET" "$SM_LID" "$HOST_LID" "$1" "0x$2" >"$LIVE_DIR/set.out" ||
		live_fail "SubnAdmSet(GUIDInfoRecord) VF $1: $(cat "$LIVE_DIR/set.out")"
}
