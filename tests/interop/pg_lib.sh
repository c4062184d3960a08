# pg_lib.sh - a PostgreSQL of the test's own for ibpartd's shared store
# (--store), sourced: initdb in DIR/pg, the server on a free loopback
# port with its unix socket in DIR/pg too, fsync on (a change is
# durable before the 200: the store is tested as it runs), run as an
# unprivileged user when the test runs as root (postgres refuses root).
# The caller's EXIT trap calls pg_cleanup, which stops it whatever
# happened; a watchdog outside the test's process tree stops it too when
# the test is killed without its trap running (CTest's timeout kills the
# tree with SIGKILL, and pg_ctl's server is no longer in that tree).
#
#   pg_init DIR        initdb (skips the test, 77, without PostgreSQL)
#   pg_start           start it, wait until it accepts connections;
#                      PG_URL is the store's URL (database "ibpart")
#   pg_stop            stop it now (-m immediate: as a crash would)
#   pg_sql SQL         run SQL with psql, print the rows unaligned
#   pg_cleanup         stop it if it runs (for the trap)

PG_PID_RUNNING=0
PG_PORT=""

pg_bin() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		[[ -x $d/initdb && -x $d/pg_ctl ]] && { echo "$d"; return 0; }
	done
	return 1
}

# as the server's user: root runs it as nobody
pg_as() {
	if [[ $(id -u) == 0 ]]; then
		runuser -u nobody -- "$@"
	else
		"$@"
	fi
}

pg_init() {
	PG_BIN=$(pg_bin) || { echo "SKIP: PostgreSQL (postgresql) is not installed" >&2; exit 77; }
	PG_DIR=$1/pg
	mkdir -p "$PG_DIR"
	if [[ $(id -u) == 0 ]]; then
		# nobody must reach its directory through the test's own
		local d=$PG_DIR
		while [[ $d != / ]]; do chmod o+x "$d" 2>/dev/null || true; d=$(dirname "$d"); done
		chown nobody "$PG_DIR"
	fi
	pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U ibpart --no-sync \
		>"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
	PG_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
}

pg_start() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
		-o "-h 127.0.0.1 -p $PG_PORT -k $PG_DIR" start >/dev/null ||
		{ cat "$PG_DIR/server.log" >&2; return 1; }
	PG_PID_RUNNING=1
	pg_watchdog
	PG_URL=postgresql://ibpart@127.0.0.1:$PG_PORT/ibpart
	local have
	have=$(pg_sql_db postgres "SELECT count(*) FROM pg_database WHERE datname = 'ibpart'")
	[[ $have == 1 ]] || pg_sql_db postgres "CREATE DATABASE ibpart" >/dev/null
}

# pg_watchdog: once per test, a detached process that waits for the
# test's shell to end (by any means) and then stops the server.
PG_WATCHING=0
pg_watchdog() {
	[[ $PG_WATCHING == 1 ]] && return 0
	PG_WATCHING=1
	local as=()
	[[ $(id -u) == 0 ]] && as=(runuser -u nobody --)
	setsid -f bash -c 'tail --pid="$1" -f /dev/null; shift; "$@" >/dev/null 2>&1' \
		_ $$ "${as[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop \
		</dev/null >/dev/null 2>&1
}

pg_stop() {
	pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
	PG_PID_RUNNING=0
}

pg_sql_db() {
	PGOPTIONS="-c client_min_messages=warning" "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U ibpart -d "$1" -c "$2"
}

pg_sql() { pg_sql_db ibpart "$1"; }

pg_cleanup() {
	if [[ $PG_PID_RUNNING == 1 ]]; then pg_stop; fi
}
