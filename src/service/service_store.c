/*
 * service_store.c - the shared store (`--store postgresql://...`): one
 * PostgreSQL database that the ibpartd of every SM host of a fabric
 * shares, so that whichever SM is master reads the same plan.  It holds
 * the same records as the local SQLite database (service_db.c):
 * partitions, members, revisions, tokens (hashed), OpenSM's index memory
 * and the PartitionCaps, plus one row per host (its SM's state, the
 * revision its file holds, the revision it verified on the fabric).
 *
 * The store is the truth; the local SQLite database stays, as the cache
 * every read of the service works on (the status, the tokens, the
 * audit), brought to the store's newest revision before each change and
 * whenever the store announces one.  A change runs in one PostgreSQL
 * transaction that first takes a transaction-scoped advisory lock (the
 * writers of every host serialised: the revision sequence is one and no
 * change is computed on a stale plan), then catches the cache up, and
 * commits - durable (synchronous_commit) before the client hears 200 -
 * with a NOTIFY on channel "ibpartd" that wakes the other hosts.  The
 * store unreachable: the change is refused as unavailable (503), the
 * local file is left as it is, and the next call reconnects.
 *
 * The schema is versioned (table ibpartd_schema, one row per migration
 * applied, run under the same advisory lock at open).
 */
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "service/service_internal.h"

#define STORE_CHANNEL "ibpartd"

/* The migrations, in order; migration i brings the schema to version
 * i + 1.  Column names as in SQLite ("full" and "user" quoted: both are
 * reserved words of PostgreSQL). */
static const char *const migrations[] = {
    /* 1: the records of the local database's schema version 3 */
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE partitions(pkey INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " ipoib INTEGER, index0 INTEGER, created_empty INTEGER,"
    " has_qos INTEGER, mtu_limit INTEGER, rate_limit DOUBLE PRECISION,"
    " sl INTEGER);"
    "CREATE TABLE members(pkey INTEGER, guid BIGINT, \"full\" INTEGER,"
    " index0 INTEGER, PRIMARY KEY(pkey, guid));"
    "CREATE TABLE revisions(rev BIGINT PRIMARY KEY, time BIGINT, op TEXT,"
    " pkey INTEGER, state TEXT, reason TEXT, \"user\" TEXT, via TEXT,"
    " client TEXT, request TEXT);"
    "CREATE TABLE tokens(id TEXT PRIMARY KEY, hash TEXT, \"user\" TEXT,"
    " issued_at BIGINT, role TEXT NOT NULL DEFAULT 'admin',"
    " expires_at BIGINT NOT NULL DEFAULT 0,"
    " revoked INTEGER NOT NULL DEFAULT 0,"
    " last_used BIGINT NOT NULL DEFAULT 0);"
    "CREATE TABLE opensm_memory(id INTEGER PRIMARY KEY CHECK(id = 1),"
    " rev BIGINT NOT NULL, opensm_pid BIGINT, recorded_at BIGINT,"
    " state TEXT NOT NULL);"
    "CREATE TABLE fabric_caps(node_guid BIGINT PRIMARY KEY,"
    " partition_cap INTEGER NOT NULL);"
    "INSERT INTO meta VALUES('schema', 'ibpartd-1');",
    /* 2: the hosts of the fabric's SMs */
    "CREATE TABLE hosts(host TEXT PRIMARY KEY, sm_state TEXT,"
    " opensm_pid BIGINT, file_rev BIGINT, fabric_rev BIGINT,"
    " failovers BIGINT, updated_at BIGINT);",
    /* 3: the local schema's version 4 (what a host's verification found
     * of a revision; kept for `ibpartd migrate`, the hosts' own are in
     * their caches) */
    "ALTER TABLE revisions ADD COLUMN absent TEXT,"
    " ADD COLUMN not_verifiable TEXT;",
};
#define NMIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

/* ------------------------------------------------------ plumbing */

/* The store's last error into s->store_error (for the status and the
 * 503s), and err. */
static int store_fail(ibp_service *s, ibp_error *err, const char *what)
{
	const char *m = s->pg ? PQerrorMessage(s->pg) : "cannot connect";
	char msg[sizeof(s->store_error)];
	snprintf(msg, sizeof(msg), "%s", m && *m ? m : "failed");
	for (char *c = msg; *c; c++) /* libpq's lines made one */
		if (*c == '\n' || *c == '\t')
			*c = ' ';
	size_t n = strlen(msg);
	while (n && msg[n - 1] == ' ')
		msg[--n] = 0;
	snprintf(s->store_error, sizeof(s->store_error), "%s: %s", what, msg);
	return ibp_error_set(err, IBP_EIO, "the shared store: %s",
			     s->store_error);
}

/* Run sql with text parameters; true when it did what it should
 * (a command, or rows). */
bool svc_pg_exec(PGconn *c, const char *sql, int n, const char *const *v,
		 PGresult **out)
{
	/* without parameters: PQexec, which takes several commands */
	PGresult *r = n ? PQexecParams(c, sql, n, NULL, v, NULL, NULL, 0)
			: PQexec(c, sql);
	ExecStatusType st = PQresultStatus(r);
	bool ok = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
	if (out && ok)
		*out = r;
	else
		PQclear(r);
	return ok;
}

static bool exec_sql(PGconn *c, const char *sql)
{
	return svc_pg_exec(c, sql, 0, NULL, NULL);
}

/* The first column of the first row as a number; 0 when none. */
static bool query_u64(PGconn *c, const char *sql, uint64_t *v)
{
	PGresult *r = NULL;
	if (!svc_pg_exec(c, sql, 0, NULL, &r))
		return false;
	*v = PQntuples(r) && !PQgetisnull(r, 0, 0)
		 ? strtoull(PQgetvalue(r, 0, 0), NULL, 10)
		 : 0;
	PQclear(r);
	return true;
}

PGconn *svc_pg_connect(const char *url)
{
	/* a store that does not answer must not hold a request long: a
	 * connect_timeout of its own unless the URL gives one */
	const char *const keys[] = {"connect_timeout", "dbname", NULL};
	const char *const vals[] = {"3", url, NULL};
	PGconn *c = PQconnectdbParams(keys, vals, 1);
	if (c && PQstatus(c) == CONNECTION_OK)
		exec_sql(c, "SET client_min_messages = warning");
	return c;
}

bool svc_store_connected(ibp_service *s)
{
	if (s->pg && PQstatus(s->pg) == CONNECTION_OK)
		return true;
	if (s->pg)
		PQreset(s->pg);
	else
		s->pg = svc_pg_connect(s->store_url);
	if (s->pg && PQstatus(s->pg) == CONNECTION_OK)
		exec_sql(s->pg, "SET client_min_messages = warning");
	return s->pg && PQstatus(s->pg) == CONNECTION_OK;
}

bool svc_store_url(const char *url)
{
	return url && (!strncmp(url, "postgresql://", 13) ||
		       !strncmp(url, "postgres://", 11));
}

/* ------------------------------------------------------ migrations */

int svc_store_schema(PGconn *c, ibp_error *err)
{
	uint64_t version = 0;
	bool ok = exec_sql(c, "BEGIN") && exec_sql(c, SVC_STORE_LOCK) &&
		  exec_sql(c, "CREATE TABLE IF NOT EXISTS "
			      "ibpartd_schema(version INTEGER PRIMARY "
			      "KEY, applied_at BIGINT)") &&
		  query_u64(c,
			    "SELECT coalesce(max(version), 0) FROM "
			    "ibpartd_schema",
			    &version);
	for (uint64_t i = version; ok && i < NMIGRATIONS; i++) {
		char n[24], t[24];
		snprintf(n, sizeof(n), "%" PRIu64, i + 1);
		snprintf(t, sizeof(t), "%lld", (long long)time(NULL));
		const char *v[] = {n, t};
		ok = exec_sql(c, migrations[i]) &&
		     svc_pg_exec(c, "INSERT INTO ibpartd_schema VALUES($1, $2)",
				 2, v, NULL);
	}
	if (ok && version > NMIGRATIONS) {
		exec_sql(c, "ROLLBACK");
		return ibp_error_set(err, IBP_EIO,
				     "the shared store is of schema version "
				     "%" PRIu64 ", newer than this ibpartd's "
				     "%zu",
				     version, NMIGRATIONS);
	}
	if (ok && exec_sql(c, "COMMIT"))
		return IBP_OK;
	int rc = ibp_error_set(err, IBP_EIO,
			       "the shared store: cannot migrate its schema: "
			       "%s",
			       PQerrorMessage(c));
	exec_sql(c, "ROLLBACK");
	return rc;
}

/* ------------------------------------------------------ catching up */

/* The store's partitions (pk NULL: all; else only P_Key pk, "16") into
 * *plan; false on a store failure (or ENOMEM). */
static bool load_plan(PGconn *c, struct svc_plan *plan, const char *pk)
{
	PGresult *r = NULL;
	const char *v[] = {pk};
	if (!svc_pg_exec(c,
			 "SELECT pkey, name, ipoib, index0, created_empty, "
			 "has_qos, mtu_limit, rate_limit, sl FROM partitions "
			 "WHERE $1::int IS NULL OR pkey = $1 ORDER BY pkey",
			 1, v, &r))
		return false;
	bool ok = true;
	for (int i = 0; ok && i < PQntuples(r); i++) {
		struct svc_part *p =
		    svc_plan_add(plan, (uint16_t)atoi(PQgetvalue(r, i, 0)));
		if (!(ok = p != NULL))
			break;
		snprintf(p->name, sizeof(p->name), "%s", PQgetvalue(r, i, 1));
		p->ipoib = atoi(PQgetvalue(r, i, 2));
		p->index0 = atoi(PQgetvalue(r, i, 3));
		p->created_empty = atoi(PQgetvalue(r, i, 4));
		p->has_qos = atoi(PQgetvalue(r, i, 5));
		p->mtu_limit = (unsigned)atoi(PQgetvalue(r, i, 6));
		p->rate_limit = strtod(PQgetvalue(r, i, 7), NULL);
		p->sl = (unsigned)atoi(PQgetvalue(r, i, 8));
	}
	PQclear(r);
	if (!ok || !svc_pg_exec(c,
				"SELECT pkey, guid, \"full\", index0 FROM "
				"members WHERE $1::int IS NULL OR pkey = $1",
				1, v, &r))
		return false;
	for (int i = 0; ok && i < PQntuples(r); i++) {
		struct svc_part *p =
		    svc_plan_find(plan, (uint16_t)atoi(PQgetvalue(r, i, 0)));
		ok = !p ||
		     svc_part_set_member(
			 p, (uint64_t)strtoll(PQgetvalue(r, i, 1), NULL, 10),
			 atoi(PQgetvalue(r, i, 2)),
			 atoi(PQgetvalue(r, i, 3))) >= 0;
	}
	PQclear(r);
	return ok;
}

/* The revisions after rev, as the local cache takes them. */
static bool load_revisions(PGconn *c, uint64_t after, struct svc_rev_row **rows,
			   size_t *n, PGresult **keep)
{
	char a[24];
	snprintf(a, sizeof(a), "%" PRIu64, after);
	const char *v[] = {a};
	if (!svc_pg_exec(c,
			 "SELECT rev, time, op, pkey, state, reason, \"user\", "
			 "via, client, request FROM revisions WHERE rev > $1 "
			 "ORDER BY rev",
			 1, v, keep))
		return false;
	PGresult *r = *keep;
	*n = (size_t)PQntuples(r);
	*rows = calloc(*n ? *n : 1, sizeof(**rows));
	if (!*rows)
		return false;
	for (size_t i = 0; i < *n; i++) {
		struct svc_rev_row *w = &(*rows)[i];
		const char *f[10];
		for (int k = 0; k < 10; k++)
			f[k] = PQgetisnull(r, (int)i, k)
				   ? NULL
				   : PQgetvalue(r, (int)i, k);
		w->rev = strtoull(f[0], NULL, 10);
		w->time = f[1] ? strtoll(f[1], NULL, 10) : 0;
		w->op = f[2];
		w->pkey = f[3] ? atoi(f[3]) : 0;
		w->state = f[4];
		w->reason = f[5];
		w->user = f[6];
		w->via = f[7];
		w->client = f[8];
		w->request = f[9];
	}
	return true;
}

/* Inside a transaction of s->pg, under the service's lock: when the
 * store's newest revision is not the cache's, load the store's plan and
 * the revisions the cache lacks into the local database and the
 * service.  IBP_OK, or IBP_EIO (the store) with s->store_error. */
static int catch_up(ibp_service *s, ibp_error *err)
{
	uint64_t newest = 0;
	if (!query_u64(s->pg, "SELECT coalesce(max(rev), 0) FROM revisions",
		       &newest))
		return store_fail(s, err, "reading its newest revision");
	if (newest == s->rev && s->store_synced)
		return IBP_OK;
	if (!newest && s->rev)
		return ibp_error_set(
		    err, IBP_EIO,
		    "the shared store holds no revision while %s holds %" PRIu64
		    ": move it there first (ibpartd migrate --from sqlite:%s "
		    "--to URL)",
		    s->db_path, s->rev, s->db_path);
	struct svc_plan plan = {0};
	struct svc_rev_row *rows = NULL;
	size_t n = 0;
	PGresult *keep = NULL;
	/* ahead of a cache that has caught up: only the P_Keys the new
	 * revisions changed (each revision changes one), else all */
	bool some = s->store_synced && newest > s->rev;
	uint16_t *pkeys = NULL;
	size_t npk = 0;
	uint64_t from = some || newest >= s->rev ? s->rev : 0;
	int rc = load_revisions(s->pg, from, &rows, &n, &keep)
		     ? IBP_OK
		     : store_fail(s, err, "reading its revisions");
	if (!rc && some &&
	    (svc_plan_clone(&s->plan, &plan) ||
	     !(pkeys = calloc(n ? n : 1, sizeof(*pkeys)))))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && some && i < n; i++) {
		uint16_t pk = (uint16_t)rows[i].pkey;
		bool seen = false;
		for (size_t k = 0; k < npk && !seen; k++)
			seen = pkeys[k] == pk;
		if (seen)
			continue;
		pkeys[npk++] = pk;
		char t[8];
		snprintf(t, sizeof(t), "%u", pk);
		svc_plan_remove(&plan, pk);
		if (!load_plan(s->pg, &plan, t))
			rc = store_fail(s, err, "reading its plan");
	}
	if (!rc && !some && !load_plan(s->pg, &plan, NULL))
		rc = store_fail(s, err, "reading its plan");
	struct svc_snap *snap = rc ? NULL : svc_snap_new();
	if (!rc && !snap)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc)
		rc = svc_db_replace(s, &plan, some ? pkeys : NULL, npk, rows, n,
				    newest, err);
	free(pkeys);
	if (!rc) {
		svc_plan_publish(s, snap, &plan);
		snap = NULL;
		bool moved = s->rev != newest;
		s->rev = newest;
		s->store_synced = true;
		if (moved)
			pthread_cond_broadcast(&s->changed);
	}
	PQclear(keep);
	free(rows);
	free(snap);
	svc_plan_free(&plan);
	return rc;
}

/* ------------------------------------------------------ the change */

int svc_store_open(ibp_service *s, const char *url, const char *host,
		   ibp_error *err)
{
	if (!svc_store_url(url))
		return ibp_error_set(err, IBP_EINVAL,
				     "--store: a postgresql:// URL");
	if (!(s->store_url = strdup(url)) ||
	    !(s->host = strdup(host ? host : "")))
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	/* unreachable now: the service starts on its cache, refuses
	 * changes and leaves the file alone until the store is reached
	 * (ibp_service_store_synced); a store that answers wrongly (its
	 * schema, its plan) fails the start */
	if (!svc_store_connected(s)) {
		store_fail(s, NULL, "unreachable since the start");
		return IBP_OK;
	}
	int rc = svc_store_begin(s, err);
	if (!rc)
		rc = svc_store_end(s, true, err);
	svc_store_end(s, false, NULL);
	return rc;
}

void svc_store_close(ibp_service *s)
{
	PQfinish(s->pg);
	PQfinish(s->pg_listen);
	free(s->store_url);
	free(s->host);
}

int svc_store_begin(ibp_service *s, ibp_error *err)
{
	if (!s->store_url)
		return IBP_OK;
	if (!svc_store_connected(s))
		return store_fail(s, err, "unreachable");
	if (!s->store_schema) { /* once per service: the versioned schema */
		int rc = svc_store_schema(s->pg, err);
		if (rc)
			return rc;
		s->store_schema = true;
	}
	if (!exec_sql(s->pg, "BEGIN") || !exec_sql(s->pg, SVC_STORE_LOCK)) {
		int rc = store_fail(s, err, "unreachable");
		exec_sql(s->pg, "ROLLBACK");
		return rc;
	}
	s->store_txn = true;
	int rc = catch_up(s, err);
	if (rc)
		svc_store_end(s, false, NULL);
	return rc;
}

int svc_store_end(ibp_service *s, bool commit, ibp_error *err)
{
	if (!s->store_url || !s->store_txn)
		return IBP_OK;
	s->store_txn = false;
	if (commit && exec_sql(s->pg, "COMMIT")) {
		s->store_error[0] = 0;
		return IBP_OK;
	}
	int rc = commit ? store_fail(s, err, "the commit failed") : IBP_OK;
	exec_sql(s->pg, "ROLLBACK");
	return rc;
}

/* "{1,2,3}": a PostgreSQL array literal of n numbers. */
static char *array_text(size_t n,
			long long (*at)(const struct svc_part *, size_t),
			const struct svc_part *p)
{
	char *t = malloc(n * 22 + 3), *w = t;
	if (!t)
		return NULL;
	*w++ = '{';
	for (size_t i = 0; i < n; i++)
		w += sprintf(w, "%s%lld", i ? "," : "", at(p, i));
	strcpy(w, "}");
	return t;
}

static long long m_guid(const struct svc_part *p, size_t i)
{
	return (long long)p->m[i].guid;
}
static long long m_full(const struct svc_part *p, size_t i)
{
	return p->m[i].full;
}
static long long m_index0(const struct svc_part *p, size_t i)
{
	return p->m[i].index0;
}

static bool put_part(PGconn *c, const struct svc_part *p)
{
	char v[9][40];
	snprintf(v[0], 40, "%u", p->pkey);
	snprintf(v[1], 40, "%s", p->name);
	snprintf(v[2], 40, "%d", p->ipoib);
	snprintf(v[3], 40, "%d", p->index0);
	snprintf(v[4], 40, "%d", p->created_empty);
	snprintf(v[5], 40, "%d", p->has_qos);
	snprintf(v[6], 40, "%u", p->mtu_limit);
	snprintf(v[7], 40, "%.17g", p->rate_limit);
	snprintf(v[8], 40, "%u", p->sl);
	const char *pv[9];
	for (int i = 0; i < 9; i++)
		pv[i] = v[i];
	if (!svc_pg_exec(c,
			 "INSERT INTO partitions VALUES($1, $2, $3, $4, $5, "
			 "$6, $7, $8, $9)",
			 9, pv, NULL))
		return false;
	if (!p->n)
		return true;
	char *g = array_text(p->n, m_guid, p), *f = array_text(p->n, m_full, p),
	     *x = array_text(p->n, m_index0, p);
	const char *mv[] = {v[0], g, f, x};
	bool ok =
	    g && f && x &&
	    svc_pg_exec(c,
			"INSERT INTO members SELECT $1, unnest($2::bigint[]), "
			"unnest($3::int[]), unnest($4::int[])",
			4, mv, NULL);
	free(g);
	free(f);
	free(x);
	return ok;
}

int svc_store_commit(ibp_service *s, const struct svc_plan *plan,
		     const uint16_t *pkeys, size_t npkeys, uint64_t rev,
		     const char *op, ibp_error *err)
{
	if (!s->store_url)
		return IBP_OK;
	if (!s->store_txn)
		return ibp_error_set(err, IBP_EIO,
				     "the shared store: no transaction");
	bool ok = true;
	for (size_t i = 0; ok && i < npkeys; i++) {
		char pk[8];
		snprintf(pk, sizeof(pk), "%u", pkeys[i]);
		const char *v[] = {pk};
		const struct svc_part *p =
		    svc_plan_find((struct svc_plan *)plan, pkeys[i]);
		ok = svc_pg_exec(s->pg, "DELETE FROM partitions WHERE pkey=$1",
				 1, v, NULL) &&
		     svc_pg_exec(s->pg, "DELETE FROM members WHERE pkey=$1", 1,
				 v, NULL) &&
		     (!p || put_part(s->pg, p));
	}
	char r[24], t[24], pk[8];
	snprintf(r, sizeof(r), "%" PRIu64, rev);
	snprintf(t, sizeof(t), "%lld", (long long)time(NULL));
	snprintf(pk, sizeof(pk), "%u", npkeys ? pkeys[0] : 0);
	const ibp_service_actor *a = svc_actor();
	const char *v[] = {r,
			   t,
			   op,
			   pk,
			   a ? a->user : NULL,
			   a ? a->via : NULL,
			   a ? a->client : NULL,
			   a ? a->request : NULL};
	ok = ok &&
	     svc_pg_exec(s->pg,
			 "INSERT INTO revisions(rev, time, op, pkey, state, "
			 "reason, \"user\", via, client, request) VALUES($1, "
			 "$2, $3, $4, 'pending', NULL, $5, $6, $7, $8)",
			 8, v, NULL) &&
	     svc_pg_exec(s->pg, "SELECT pg_notify('" STORE_CHANNEL "', $1)", 1,
			 v, NULL);
	if (!ok) {
		int rc = store_fail(s, err, "the change was not recorded");
		svc_store_end(s, false, NULL);
		return rc;
	}
	return svc_store_end(s, true, err);
}

/* ------------------------------------------------------ listening */

int ibp_service_store_poll(ibp_service *s, int ms, ibp_error *err)
{
	if (!s->store_url)
		return IBP_OK;
	if (!s->pg_listen || PQstatus(s->pg_listen) != CONNECTION_OK) {
		PQfinish(s->pg_listen);
		s->pg_listen = svc_pg_connect(s->store_url);
		if (!s->pg_listen || PQstatus(s->pg_listen) != CONNECTION_OK ||
		    !exec_sql(s->pg_listen, "LISTEN " STORE_CHANNEL)) {
			PQfinish(s->pg_listen);
			s->pg_listen = NULL;
			pthread_mutex_lock(&s->lock);
			snprintf(s->store_error, sizeof(s->store_error),
				 "unreachable");
			pthread_mutex_unlock(&s->lock);
			return ibp_error_set(err, IBP_EIO,
					     "the shared store is unreachable");
		}
	} else {
		struct pollfd p = {PQsocket(s->pg_listen), POLLIN, 0};
		if (poll(&p, 1, ms) > 0)
			PQconsumeInput(s->pg_listen);
		PGnotify *n;
		while ((n = PQnotifies(s->pg_listen)))
			PQfreemem(n);
	}
	pthread_mutex_lock(&s->write_lock); /* the catch-up replaces the plan */
	pthread_mutex_lock(&s->lock);
	int rc = svc_store_begin(s, err);
	if (!rc)
		rc = svc_store_end(s, true, err);
	svc_writers_follow(s); /* nothing is queued with a store */
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->write_lock);
	return rc;
}

bool ibp_service_store_synced(ibp_service *s)
{
	pthread_mutex_lock(&s->lock);
	bool ok = !s->store_url || s->store_synced;
	pthread_mutex_unlock(&s->lock);
	return ok;
}

/* ------------------------------------------------------ the hosts */

int ibp_service_store_report_host(ibp_service *s,
				  const struct ibp_service_host *h,
				  ibp_error *err)
{
	if (!s->store_url)
		return IBP_OK;
	char pid[24], file[24], fab[24], fo[24], now[24];
	snprintf(pid, sizeof(pid), "%ld", h->opensm_pid);
	snprintf(file, sizeof(file), "%" PRIu64, h->file_rev);
	snprintf(fab, sizeof(fab), "%" PRIu64, h->fabric_rev);
	snprintf(fo, sizeof(fo), "%lu", h->failovers);
	snprintf(now, sizeof(now), "%lld", (long long)time(NULL));
	const char *v[] = {s->host, h->sm_state, pid, file, fab, fo, now};
	pthread_mutex_lock(&s->lock);
	int rc = IBP_OK;
	if (!svc_store_connected(s) ||
	    !svc_pg_exec(s->pg,
			 "INSERT INTO hosts VALUES($1, $2, $3, $4, $5, $6, $7) "
			 "ON CONFLICT(host) DO UPDATE SET sm_state=$2, "
			 "opensm_pid=$3, file_rev=$4, fabric_rev=$5, "
			 "failovers=$6, updated_at=$7",
			 7, v, NULL))
		rc = store_fail(s, err, "cannot record this host");
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* Under the lock: the status's "store" object. */
json_t *svc_store_status(ibp_service *s)
{
	if (!s->store_url)
		return json_pack("{s:s}", "backend", "sqlite");
	json_t *o = json_pack("{s:s, s:s, s:b}", "backend", "postgresql",
			      "host", s->host, "synced", s->store_synced);
	PGresult *r = NULL;
	json_t *hosts = json_array();
	if (svc_store_connected(s) &&
	    svc_pg_exec(s->pg,
			"SELECT host, sm_state, opensm_pid, file_rev, "
			"fabric_rev, failovers, updated_at FROM hosts ORDER "
			"BY host",
			0, NULL, &r)) {
		for (int i = 0; i < PQntuples(r); i++)
			json_array_append_new(
			    hosts,
			    json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I}",
				      "host", PQgetvalue(r, i, 0), "sm_state",
				      PQgetvalue(r, i, 1), "opensm_pid",
				      (json_int_t)atoll(PQgetvalue(r, i, 2)),
				      "file_revision",
				      (json_int_t)atoll(PQgetvalue(r, i, 3)),
				      "fabric_revision",
				      (json_int_t)atoll(PQgetvalue(r, i, 4)),
				      "failovers",
				      (json_int_t)atoll(PQgetvalue(r, i, 5)),
				      "updated_at",
				      (json_int_t)atoll(PQgetvalue(r, i, 6))));
		PQclear(r);
		json_object_set_new(o, "reachable", json_true());
	} else {
		store_fail(s, NULL, "unreachable");
		json_object_set_new(o, "reachable", json_false());
		json_object_set_new(o, "error", json_string(s->store_error));
	}
	json_object_set_new(o, "hosts", hosts);
	return o;
}
