/*
 * service_tokens.c - the tokens of /ufmRestV3 in the service's database
 * (schema version 3): the caller's crypt(3) hash of each, never the
 * token, with its user, role, expiry, revocation and last use.  The
 * daemon decides what they allow (daemon/auth.c); this keeps them,
 * under the service's lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "service/service_internal.h"

static int db_error(ibp_service *s, ibp_error *err)
{
	return ibp_error_set(err, IBP_EIO, "%s: %s", s->db_path,
			     sqlite3_errmsg(s->db));
}

/* t's id, hash, user, issued_at, role, expires_at as parameters 1-6. */
static void bind_token(sqlite3_stmt *st, const ibp_service_token *t)
{
	sqlite3_bind_text(st, 1, t->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, t->hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, t->user, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, t->issued_at);
	sqlite3_bind_text(st, 5, t->role, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, t->expires_at);
}

int ibp_service_token_add(ibp_service *s, const ibp_service_token *t,
			  ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	int rc = svc_store_token_add(s, t, err); /* the store first */
	if (rc) {
		pthread_mutex_unlock(&s->lock);
		return rc;
	}
	sqlite3_stmt *st = NULL;
	bool ok = sqlite3_prepare_v2(s->db,
				     "INSERT INTO tokens(id, hash, user, "
				     "issued_at, role, expires_at, revoked, "
				     "last_used) VALUES(?, ?, ?, ?, ?, ?, 0, "
				     "0)",
				     -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		bind_token(st, t);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	rc = ok ? IBP_OK : db_error(s, err);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void svc_db_token_put(ibp_service *s, const ibp_service_token *t)
{
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(
		s->db,
		"INSERT INTO tokens(id, hash, user, issued_at, "
		"role, expires_at, revoked, last_used) VALUES(?, "
		"?, ?, ?, ?, ?, ?, 0) ON CONFLICT(id) DO UPDATE "
		"SET hash=excluded.hash, user=excluded.user, "
		"issued_at=excluded.issued_at, "
		"role=excluded.role, "
		"expires_at=excluded.expires_at, "
		"revoked=max(revoked, excluded.revoked)",
		-1, &st, NULL) == SQLITE_OK) {
		bind_token(st, t);
		sqlite3_bind_int(st, 7, t->revoked);
		sqlite3_step(st);
	}
	sqlite3_finalize(st);
}

static void copy(char *dst, size_t size, sqlite3_stmt *st, int col)
{
	const unsigned char *v = sqlite3_column_text(st, col);
	snprintf(dst, size, "%s", v ? (const char *)v : "");
}

int ibp_service_token_find(ibp_service *s, const char *id, ibp_service_token *t,
			   ibp_error *err)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_lock(&s->lock);
	svc_store_token_pull(s, id); /* a revocation on another host */
	sqlite3_stmt *st = NULL;
	int rc = IBP_ENOENT;
	if (sqlite3_prepare_v2(s->db,
			       "SELECT id, hash, user, role, issued_at, "
			       "expires_at, last_used, revoked FROM tokens "
			       "WHERE id=?",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			copy(t->id, sizeof(t->id), st, 0);
			copy(t->hash, sizeof(t->hash), st, 1);
			copy(t->user, sizeof(t->user), st, 2);
			copy(t->role, sizeof(t->role), st, 3);
			t->issued_at = (long)sqlite3_column_int64(st, 4);
			t->expires_at = (long)sqlite3_column_int64(st, 5);
			t->last_used = (long)sqlite3_column_int64(st, 6);
			t->revoked = sqlite3_column_int(st, 7) != 0;
			rc = IBP_OK;
		}
	}
	sqlite3_finalize(st);
	pthread_mutex_unlock(&s->lock);
	return rc ? ibp_error_set(err, rc, "no such token") : IBP_OK;
}

/* One UPDATE of a token: the rows it changed, -1 when it failed. */
static int update(ibp_service *s, const char *sql, const char *id,
		  const char *text, long num)
{
	sqlite3_stmt *st = NULL;
	int n = -1;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		if (text)
			sqlite3_bind_text(st, 2, text, -1, SQLITE_STATIC);
		else
			sqlite3_bind_int64(st, 2, num);
		if (sqlite3_step(st) == SQLITE_DONE)
			n = sqlite3_changes(s->db);
	}
	sqlite3_finalize(st);
	return n;
}

int ibp_service_token_touch(ibp_service *s, const char *id, long when,
			    ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	int n = update(s, "UPDATE tokens SET last_used=?2 WHERE id=?1", id,
		       NULL, when);
	int rc = n < 0 ? db_error(s, err) : IBP_OK;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int ibp_service_token_revoke(ibp_service *s, const char *id, const char *user,
			     ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	svc_store_token_pull(s, id);
	int rc = svc_store_token_revoke(s, id, user, err);
	if (rc) {
		pthread_mutex_unlock(&s->lock);
		return rc;
	}
	int n = user ? update(s,
			      "UPDATE tokens SET revoked=1 WHERE id=?1 AND "
			      "user=?2",
			      id, user, 0)
		     : update(s,
			      "UPDATE tokens SET revoked=1 WHERE id=?1 AND "
			      "?2 = 0",
			      id, NULL, 0);
	rc = n < 0    ? db_error(s, err)
	     : n == 0 ? ibp_error_set(err, IBP_ENOENT, "no such token")
		      : IBP_OK;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int ibp_service_tokens_json(ibp_service *s, const char *user, char **json,
			    ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	svc_store_token_pull(s, NULL); /* those other hosts issued */
	json_t *a = json_array();
	sqlite3_stmt *st = NULL;
	bool ok = a && sqlite3_prepare_v2(
			   s->db,
			   "SELECT id, issued_at, expires_at, revoked, user, "
			   "role, last_used FROM tokens WHERE ?1 IS NULL OR "
			   "user=?1 ORDER BY issued_at, id",
			   -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		if (user)
			sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
		int r;
		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			long exp = (long)sqlite3_column_int64(st, 2);
			json_array_append_new(
			    a,
			    json_pack(
				"{s:s, s:b, s:I, s:I, s:s, s:s, s:I, s:I}",
				"token_id",
				(const char *)sqlite3_column_text(st, 0),
				"revoked", sqlite3_column_int(st, 3) != 0,
				"issued_at",
				(json_int_t)sqlite3_column_int64(st, 1),
				"expires_in",
				(json_int_t)(exp ? exp - sqlite3_column_int64(
							     st, 1)
						 : 0),
				"username",
				(const char *)sqlite3_column_text(st, 4),
				"role",
				(const char *)sqlite3_column_text(st, 5),
				"last_used",
				(json_int_t)sqlite3_column_int64(st, 6),
				"expires_at", (json_int_t)exp));
		}
		ok = r == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	int rc = ok ? IBP_OK : db_error(s, err);
	pthread_mutex_unlock(&s->lock);
	if (rc) {
		json_decref(a);
		return rc;
	}
	return svc_json_take(a, json)
		   ? IBP_OK
		   : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

/* A service holding only the database at path (no flock, no plan): the
 * tokens can be changed while the daemon runs, SQLite serialising the
 * writes (WAL, a busy timeout). */
static int tokens_only(const char *path, ibp_service *s, ibp_error *err)
{
	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->lock_fd = -1;
	s->db_path = (char *)path;
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		int rc = ibp_error_set(err, IBP_EIO, "%s: %s", path,
				       s->db ? sqlite3_errmsg(s->db)
					     : "cannot open the database");
		sqlite3_close(s->db);
		pthread_mutex_destroy(&s->lock);
		return rc;
	}
	sqlite3_busy_timeout(s->db, 5000);
	return IBP_OK;
}

static void tokens_only_close(ibp_service *s)
{
	sqlite3_close(s->db);
	PQfinish(s->pg);
	pthread_mutex_destroy(&s->lock);
}

/* With store (a postgresql:// URL, or NULL): the shared store is the
 * truth of the tokens, db_path the host's cache as the daemon keeps it. */
static int tokens_store(ibp_service *s, const char *store, ibp_error *err)
{
	if (!store)
		return IBP_OK;
	if (!svc_store_url(store))
		return ibp_error_set(err, IBP_EINVAL,
				     "--store: a postgresql:// URL");
	s->store_url = (char *)store;
	if (!svc_store_connected(s))
		return ibp_error_set(err, IBP_EIO, "the shared store: %s",
				     s->pg ? PQerrorMessage(s->pg)
					   : "unreachable");
	return IBP_OK;
}

int ibp_service_db_token_revoke(const char *db_path, const char *id,
				ibp_error *err)
{
	return ibp_service_store_token_revoke(NULL, db_path, id, err);
}

int ibp_service_store_token_revoke(const char *store, const char *db_path,
				   const char *id, ibp_error *err)
{
	ibp_service s;
	int rc = tokens_only(db_path, &s, err);
	if (rc)
		return rc;
	if (!(rc = tokens_store(&s, store, err)))
		rc = ibp_service_token_revoke(&s, id, NULL, err);
	tokens_only_close(&s);
	return rc;
}

int ibp_service_store_tokens_json(const char *store, const char *db_path,
				  char **json, ibp_error *err)
{
	ibp_service s;
	int rc = tokens_only(db_path, &s, err);
	if (rc)
		return rc;
	if (!(rc = tokens_store(&s, store, err)))
		rc = ibp_service_tokens_json(&s, NULL, json, err);
	tokens_only_close(&s);
	return rc;
}

int ibp_service_db_tokens_json(const char *db_path, char **json, ibp_error *err)
{
	return ibp_service_store_tokens_json(NULL, db_path, json, err);
}
