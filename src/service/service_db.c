/*
 * service_db.c - the service's SQLite database, the truth ibpartd starts
 * from: partitions, members, one row per revision (what it changed and
 * what became of it on the fabric), tokens (hashed), a meta table, and
 * (schema version 2) OpenSM's index memory as the service last recorded
 * it with the PartitionCap of each node discovery read (service_memory.c
 * keeps them; the guard's table-overflow judgment reads them), and
 * (version 3) the tokens' roles and lives and each revision's author,
 * and (version 4) what each revision's fabric showed: the GUIDs it names
 * that the fabric has no port of, and the fields SMPs cannot verify.
 * WAL with synchronous=FULL, so a change is on disk when its transaction
 * commits - before the client hears 200.  One service at a time holds
 * it (flock on the file, kept until the service closes): a second one
 * - `ibpartd adopt` while the daemon runs - would change the database
 * behind the plan the first holds in memory.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "service/service_internal.h"

#define SCHEMA_ID "ibpartd-1"

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE IF NOT EXISTS partitions(pkey INTEGER PRIMARY KEY,"
    " name TEXT NOT NULL, ipoib INTEGER, index0 INTEGER,"
    " created_empty INTEGER, has_qos INTEGER, mtu_limit INTEGER,"
    " rate_limit REAL, sl INTEGER);"
    "CREATE TABLE IF NOT EXISTS members(pkey INTEGER, guid INTEGER,"
    " full INTEGER, index0 INTEGER, PRIMARY KEY(pkey, guid))"
    " WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS revisions(rev INTEGER PRIMARY KEY,"
    " time INTEGER, op TEXT, pkey INTEGER, state TEXT, reason TEXT);"
    "CREATE TABLE IF NOT EXISTS tokens(id TEXT PRIMARY KEY, hash TEXT,"
    " user TEXT, issued_at INTEGER);"
    "INSERT OR IGNORE INTO meta VALUES('schema', '" SCHEMA_ID "');";

/* Version 2: what the table-overflow guard judges with.  opensm_memory
 * holds one row, the state (state_file.h, version 2: the tables the
 * ports hold and what OpenSM remembers of their indexes) after the last
 * verified revision, with the pid of the OpenSM that loaded it;
 * fabric_caps the PartitionCap each node's NodeInfo gave then.  A
 * database of version 1 gains them when it is opened: its partitions,
 * revisions and tokens are kept as they are. */
#define SCHEMA_VERSION "2"
static const char migrate_2[] =
    "BEGIN IMMEDIATE;"
    "CREATE TABLE IF NOT EXISTS opensm_memory(id INTEGER PRIMARY KEY"
    " CHECK(id = 1), rev INTEGER NOT NULL, opensm_pid INTEGER,"
    " recorded_at INTEGER, state TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS fabric_caps(node_guid INTEGER PRIMARY KEY,"
    " partition_cap INTEGER NOT NULL) WITHOUT ROWID;"
    "INSERT OR REPLACE INTO meta VALUES('schema_version', '" SCHEMA_VERSION
    "');"
    "COMMIT;";

/* Version 3 (issue 28): tokens with a role, an expiry, a revocation and
 * their last use; revisions with who made them (user, how they proved
 * it, from where, the request).  Tokens of version 2 keep working with
 * their user's role and UFM's ten years from their issue. */
#define SCHEMA_VERSION_3 "3"
static const char migrate_3[] =
    "BEGIN IMMEDIATE;"
    "ALTER TABLE tokens ADD COLUMN role TEXT NOT NULL DEFAULT 'admin';"
    "ALTER TABLE tokens ADD COLUMN expires_at INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE tokens ADD COLUMN revoked INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE tokens ADD COLUMN last_used INTEGER NOT NULL DEFAULT 0;"
    "UPDATE tokens SET expires_at = issued_at + 315360000;"
    "ALTER TABLE revisions ADD COLUMN user TEXT;"
    "ALTER TABLE revisions ADD COLUMN via TEXT;"
    "ALTER TABLE revisions ADD COLUMN client TEXT;"
    "ALTER TABLE revisions ADD COLUMN request TEXT;"
    "CREATE INDEX IF NOT EXISTS revisions_user ON revisions(user);"
    "INSERT OR REPLACE INTO meta VALUES('schema_version', '" SCHEMA_VERSION_3
    "');"
    "COMMIT;";

/* Version 4 (issue 26): per revision, what its verification found
 * beyond the P_KeyTables - absent, a JSON array of the GUIDs it names
 * that the fabric has no port of ({"guid", "kind", "hint"?}: OpenSM
 * programs the others), and not_verifiable, a JSON array of the
 * partitions whose fields SMPs cannot show ({"pkey", "fields"}).  NULL
 * until the applier verified the revision. */
#define SCHEMA_VERSION_4 "4"
static const char migrate_4[] =
    "BEGIN IMMEDIATE;"
    "ALTER TABLE revisions ADD COLUMN absent TEXT;"
    "ALTER TABLE revisions ADD COLUMN not_verifiable TEXT;"
    "INSERT OR REPLACE INTO meta VALUES('schema_version', '" SCHEMA_VERSION_4
    "');"
    "COMMIT;";

static int db_fail(ibp_service *s, ibp_error *err, const char *what)
{
	return ibp_error_set(err, IBP_EIO, "%s: %s: %s", s->db_path, what,
			     s->db ? sqlite3_errmsg(s->db) : "cannot open");
}

/* The flock of the database file for this service's life.  The fd
 * stays open until after sqlite3_close: closing another fd of the file
 * would drop SQLite's own POSIX locks. */
static int db_take(ibp_service *s, const char *path, ibp_error *err)
{
	s->lock_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->lock_fd < 0)
		return db_fail(s, err, "cannot open the database");
	if (flock(s->lock_fd, LOCK_EX | LOCK_NB))
		return ibp_error_set(err, IBP_EBUSY,
				     "%s: the database is in use by another "
				     "process (ibpartd running?)",
				     path);
	return IBP_OK;
}

static uint64_t meta_u64(ibp_service *s, const char *key)
{
	sqlite3_stmt *st = NULL;
	uint64_t v = 0;
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key=?", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			v = (uint64_t)sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return v;
}

int svc_db_open(ibp_service *s, const char *path, ibp_error *err)
{
	if (sqlite3_open_v2(path, &s->db,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				SQLITE_OPEN_FULLMUTEX,
			    NULL) != SQLITE_OK)
		return db_fail(s, err, "cannot open the database");
	int rc = db_take(s, path, err); /* sqlite3_open made the file */
	if (rc)
		return rc;
	sqlite3_busy_timeout(s->db, 5000);
	if (sqlite3_exec(s->db,
			 "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, schema, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(s, err, "not an ibpartd database");
	sqlite3_stmt *st = NULL;
	int ok = sqlite3_prepare_v2(s->db,
				    "SELECT value FROM meta WHERE key='schema'",
				    -1, &st, NULL) == SQLITE_OK &&
		 sqlite3_step(st) == SQLITE_ROW &&
		 !strcmp((const char *)sqlite3_column_text(st, 0), SCHEMA_ID);
	sqlite3_finalize(st);
	if (!ok)
		return ibp_error_set(err, IBP_EIO,
				     "%s: not an ibpartd database of schema "
				     "%s",
				     path, SCHEMA_ID);
	if (meta_u64(s, "schema_version") < 2 &&
	    sqlite3_exec(s->db, migrate_2, NULL, NULL, NULL) != SQLITE_OK) {
		rc = db_fail(s, err, "cannot migrate to schema version 2");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	if (meta_u64(s, "schema_version") < 3 &&
	    sqlite3_exec(s->db, migrate_3, NULL, NULL, NULL) != SQLITE_OK) {
		rc = db_fail(s, err, "cannot migrate to schema version 3");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	if (meta_u64(s, "schema_version") < 4 &&
	    sqlite3_exec(s->db, migrate_4, NULL, NULL, NULL) != SQLITE_OK) {
		rc = db_fail(s, err, "cannot migrate to schema version 4");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return rc;
	}
	return IBP_OK;
}

int svc_db_load(ibp_service *s, ibp_error *err)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT pkey, name, ipoib, index0, "
			       "created_empty, has_qos, mtu_limit, rate_limit, "
			       "sl FROM partitions ORDER BY pkey",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, "reading partitions");
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct svc_part *p =
		    svc_plan_add(&s->plan, (uint16_t)sqlite3_column_int(st, 0));
		if (!p) {
			sqlite3_finalize(st);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		snprintf(p->name, sizeof(p->name), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		p->ipoib = sqlite3_column_int(st, 2);
		p->index0 = sqlite3_column_int(st, 3);
		p->created_empty = sqlite3_column_int(st, 4);
		p->has_qos = sqlite3_column_int(st, 5);
		p->mtu_limit = (unsigned)sqlite3_column_int(st, 6);
		p->rate_limit = sqlite3_column_double(st, 7);
		p->sl = (unsigned)sqlite3_column_int(st, 8);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, err, "reading partitions");
	if (sqlite3_prepare_v2(s->db,
			       "SELECT pkey, guid, full, index0 FROM members",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, err, "reading members");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct svc_part *p = svc_plan_find(
		    &s->plan, (uint16_t)sqlite3_column_int(st, 0));
		if (p && svc_part_set_member(
			     p, (uint64_t)sqlite3_column_int64(st, 1),
			     sqlite3_column_int(st, 2),
			     sqlite3_column_int(st, 3)) < 0) {
			sqlite3_finalize(st);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(s, err, "reading members");
	if (sqlite3_prepare_v2(s->db, "SELECT max(rev) FROM revisions", -1, &st,
			       NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		s->rev = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	s->fabric_rev = meta_u64(s, "fabric_revision");
	return IBP_OK;
}

static bool exec_part(sqlite3 *db, const struct svc_part *p)
{
	sqlite3_stmt *st = NULL;
	bool ok = sqlite3_prepare_v2(db,
				     "INSERT INTO partitions VALUES(?, ?, ?, "
				     "?, ?, ?, ?, ?, ?)",
				     -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		sqlite3_bind_int(st, 1, p->pkey);
		sqlite3_bind_text(st, 2, p->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, p->ipoib);
		sqlite3_bind_int(st, 4, p->index0);
		sqlite3_bind_int(st, 5, p->created_empty);
		sqlite3_bind_int(st, 6, p->has_qos);
		sqlite3_bind_int(st, 7, (int)p->mtu_limit);
		sqlite3_bind_double(st, 8, p->rate_limit);
		sqlite3_bind_int(st, 9, (int)p->sl);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	if (!ok || sqlite3_prepare_v2(db, "INSERT INTO members VALUES(?,?,?,?)",
				      -1, &st, NULL) != SQLITE_OK)
		return false;
	for (size_t i = 0; ok && i < p->n; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int(st, 1, p->pkey);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)p->m[i].guid);
		sqlite3_bind_int(st, 3, p->m[i].full);
		sqlite3_bind_int(st, 4, p->m[i].index0);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return ok;
}

static bool exec_delete(sqlite3 *db, uint16_t pkey)
{
	char sql[128];
	snprintf(sql, sizeof(sql),
		 "DELETE FROM partitions WHERE pkey=%u;"
		 "DELETE FROM members WHERE pkey=%u;",
		 pkey, pkey);
	return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
}

static bool exec_revision(sqlite3 *db, uint64_t rev, const char *op,
			  uint16_t pkey, const ibp_service_actor *a)
{
	sqlite3_stmt *st = NULL;
	bool ok = sqlite3_prepare_v2(db,
				     "INSERT INTO revisions(rev, time, op, "
				     "pkey, state, reason, user, via, client, "
				     "request) VALUES(?, ?, ?, ?, 'pending', "
				     "NULL, ?, ?, ?, ?)",
				     -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)rev);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)time(NULL));
		sqlite3_bind_text(st, 3, op, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 4, pkey);
		if (a) {
			sqlite3_bind_text(st, 5, a->user, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 6, a->via, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 7, a->client, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 8, a->request, -1, SQLITE_STATIC);
		}
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return ok;
}

int svc_db_commit(ibp_service *s, const struct svc_plan *plan,
		  const uint16_t *pkeys, size_t npkeys, uint64_t rev,
		  const char *op, ibp_error *err)
{
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_fail(s, err, "cannot begin a transaction");
	bool ok = true;
	for (size_t i = 0; ok && i < npkeys; i++) {
		struct svc_part *p =
		    svc_plan_find((struct svc_plan *)plan, pkeys[i]);
		ok =
		    exec_delete(s->db, pkeys[i]) && (!p || exec_part(s->db, p));
	}
	ok = ok &&
	     exec_revision(s->db, rev, op, npkeys ? pkeys[0] : 0, svc_actor());
	if (ok && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return IBP_OK;
	int rc = db_fail(s, err, "the change was not recorded");
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int svc_db_commit_group(ibp_service *s, sqlite3 *db,
			const struct svc_db_change *c, size_t n, ibp_error *err)
{
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return ibp_error_set(err, IBP_EIO,
				     "%s: cannot begin a transaction: %s",
				     s->db_path, sqlite3_errmsg(db));
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++) {
		const struct svc_part *p =
		    c[i].plan
			? svc_plan_find((struct svc_plan *)c[i].plan, c[i].pkey)
			: NULL;
		ok =
		    (!c[i].plan || (exec_delete(db, c[i].pkey) &&
				    (!p || exec_part(db, p)))) &&
		    exec_revision(db, c[i].rev, c[i].op, c[i].pkey, c[i].actor);
	}
	if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return IBP_OK;
	int rc = ibp_error_set(err, IBP_EIO,
			       "%s: the change was not "
			       "recorded: %s",
			       s->db_path, sqlite3_errmsg(db));
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int svc_db_memory_save(ibp_service *s, uint64_t rev, long opensm_pid,
		       const char *state, const uint64_t *node_guids,
		       const unsigned *caps, size_t ncaps, ibp_error *err)
{
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_fail(s, err, "cannot begin a transaction");
	sqlite3_stmt *st = NULL;
	bool ok = sqlite3_prepare_v2(s->db,
				     "INSERT OR REPLACE INTO opensm_memory "
				     "VALUES(1, ?, ?, ?, ?)",
				     -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)rev);
		sqlite3_bind_int64(st, 2, opensm_pid);
		sqlite3_bind_int64(st, 3, (sqlite3_int64)time(NULL));
		sqlite3_bind_text(st, 4, state, -1, SQLITE_STATIC);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (ok && ncaps)
		ok = sqlite3_exec(s->db, "DELETE FROM fabric_caps", NULL, NULL,
				  NULL) == SQLITE_OK &&
		     sqlite3_prepare_v2(s->db,
					"INSERT OR REPLACE INTO fabric_caps "
					"VALUES(?, ?)",
					-1, &st, NULL) == SQLITE_OK;
	for (size_t i = 0; ok && i < ncaps; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, (sqlite3_int64)node_guids[i]);
		sqlite3_bind_int(st, 2, (int)caps[i]);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	if (ok && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return IBP_OK;
	int rc = db_fail(s, err, "OpenSM's index memory was not recorded");
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int svc_db_memory_load(const ibp_service *s, char **state, uint64_t *rev,
		       long *opensm_pid, ibp_error *err)
{
	*state = NULL;
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT state, rev, opensm_pid FROM "
			       "opensm_memory WHERE id = 1",
			       -1, &st, NULL) != SQLITE_OK)
		return db_fail((ibp_service *)s, err,
			       "reading OpenSM's index memory");
	int rc = IBP_OK;
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		if (rev)
			*rev = (uint64_t)sqlite3_column_int64(st, 1);
		if (opensm_pid)
			*opensm_pid = (long)sqlite3_column_int64(st, 2);
		if (t && !(*state = strdup(t)))
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	sqlite3_finalize(st);
	return rc;
}

bool svc_db_partition_cap(const ibp_service *s, uint64_t node_guid,
			  unsigned *cap)
{
	sqlite3_stmt *st = NULL;
	bool hit = false;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT partition_cap FROM fabric_caps WHERE "
			       "node_guid = ?",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, (sqlite3_int64)node_guid);
		if ((hit = sqlite3_step(st) == SQLITE_ROW))
			*cap = (unsigned)sqlite3_column_int(st, 0);
	}
	sqlite3_finalize(st);
	return hit;
}

int svc_db_replace(ibp_service *s, const struct svc_plan *plan,
		   const uint16_t *pkeys, size_t npkeys,
		   const struct svc_rev_row *rows, size_t nrows,
		   uint64_t newest, ibp_error *err)
{
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return db_fail(s, err, "cannot begin a transaction");
	char sql[96];
	snprintf(sql, sizeof(sql), "%sDELETE FROM revisions WHERE rev > %llu;",
		 pkeys ? "" : "DELETE FROM partitions; DELETE FROM members; ",
		 (unsigned long long)newest);
	bool ok = sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK;
	for (size_t i = 0; ok && !pkeys && i < plan->n; i++)
		ok = exec_part(s->db, &plan->p[i]);
	for (size_t i = 0; ok && pkeys && i < npkeys; i++) {
		const struct svc_part *p =
		    svc_plan_find((struct svc_plan *)plan, pkeys[i]);
		ok =
		    exec_delete(s->db, pkeys[i]) && (!p || exec_part(s->db, p));
	}
	sqlite3_stmt *st = NULL;
	ok = ok && sqlite3_prepare_v2(s->db,
				      "INSERT OR REPLACE INTO revisions(rev, "
				      "time, op, pkey, state, reason, user, "
				      "via, client, request) VALUES(?, ?, ?, "
				      "?, ?, ?, ?, ?, ?, ?)",
				      -1, &st, NULL) == SQLITE_OK;
	for (size_t i = 0; ok && i < nrows; i++) {
		const struct svc_rev_row *r = &rows[i];
		const char *t[] = {r->op,  r->state,  r->reason, r->user,
				   r->via, r->client, r->request};
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, (sqlite3_int64)r->rev);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)r->time);
		sqlite3_bind_int(st, 4, r->pkey);
		for (int k = 0; k < 7; k++)
			if (t[k])
				sqlite3_bind_text(st, k < 1 ? 3 : k + 4, t[k],
						  -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, k < 1 ? 3 : k + 4);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	if (ok && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return IBP_OK;
	int rc = db_fail(s, err, "the shared store's plan was not cached");
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

char *svc_db_meta(const ibp_service *s, const char *key)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key=?", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_type(st, 0) != SQLITE_NULL)
			v = strdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return v;
}

int svc_db_meta_set(ibp_service *s, const char *key, const char *value,
		    size_t len, ibp_error *err)
{
	sqlite3_stmt *st = NULL;
	bool ok = sqlite3_prepare_v2(s->db,
				     "INSERT OR REPLACE INTO meta VALUES(?, ?)",
				     -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, value, (int)len, SQLITE_STATIC);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return ok ? IBP_OK : db_fail(s, err, "writing meta");
}
