/*
 * service_store_migrate.c - `ibpartd migrate --from sqlite:FILE --to
 * postgresql://...`: a single host's SQLite database moved into the
 * shared store an SM pair will share (docs/ha.md).  Every record the
 * store keeps is copied row by row, column by column under the same
 * names (the store's schema is the local one's), in one PostgreSQL
 * transaction under the writers' lock: the store holds all of it or
 * none.  A store that already holds revisions is refused, so that a
 * second run cannot mix two histories.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_internal.h"

/* The tables copied, in an order that keeps references whole. */
static const char *const tables[] = {"partitions",    "members",
				     "revisions",     "tokens",
				     "opensm_memory", "fabric_caps"};

/* INSERT INTO table("c1", ...) VALUES($1, ...) for st's columns. */
static char *insert_sql(const char *table, sqlite3_stmt *st)
{
	int n = sqlite3_column_count(st);
	size_t size = 64 + strlen(table);
	for (int i = 0; i < n; i++)
		size += strlen(sqlite3_column_name(st, i)) + 16;
	char *sql = malloc(size), *w = sql;
	if (!sql)
		return NULL;
	w += sprintf(w, "INSERT INTO %s(", table);
	for (int i = 0; i < n; i++)
		w += sprintf(w, "%s\"%s\"", i ? ", " : "",
			     sqlite3_column_name(st, i));
	w += sprintf(w, ") VALUES(");
	for (int i = 0; i < n; i++)
		w += sprintf(w, "%s$%d", i ? ", " : "", i + 1);
	strcpy(w, ")");
	return sql;
}

/* One table copied; false with err set. */
static bool copy_table(sqlite3 *db, PGconn *c, const char *table, size_t *rows,
		       ibp_error *err)
{
	char q[64];
	snprintf(q, sizeof(q), "SELECT * FROM %s", table);
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
		ibp_error_set(err, IBP_EIO, "sqlite: %s: %s", table,
			      sqlite3_errmsg(db));
		return false;
	}
	char *sql = insert_sql(table, st);
	int n = sqlite3_column_count(st);
	const char **v = calloc((size_t)n + 1, sizeof(*v));
	bool ok = sql && v;
	int r;
	while (ok && (r = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			v[i] = sqlite3_column_type(st, i) == SQLITE_NULL
				   ? NULL
				   : (const char *)sqlite3_column_text(st, i);
		if (!(ok = svc_pg_exec(c, sql, n, v, NULL)))
			ibp_error_set(err, IBP_EIO, "postgresql: %s: %s", table,
				      PQerrorMessage(c));
		else
			(*rows)++;
	}
	if (ok && r != SQLITE_DONE) {
		ok = false;
		ibp_error_set(err, IBP_EIO, "sqlite: %s: %s", table,
			      sqlite3_errmsg(db));
	}
	free(v);
	free(sql);
	sqlite3_finalize(st);
	return ok;
}

int ibp_service_store_migrate(const char *sqlite_path, const char *url,
			      size_t *rows, ibp_error *err)
{
	*rows = 0;
	if (!svc_store_url(url))
		return ibp_error_set(err, IBP_EINVAL,
				     "--to: a postgresql:// URL");
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(sqlite_path, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		int rc = ibp_error_set(err, IBP_EIO, "%s: %s", sqlite_path,
				       db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		return rc;
	}
	PGconn *c = svc_pg_connect(url);
	int rc = PQstatus(c) == CONNECTION_OK
		     ? svc_store_schema(c, err)
		     : ibp_error_set(err, IBP_EIO, "%s: %s", "the shared store",
				     PQerrorMessage(c));
	PGresult *res = NULL;
	if (!rc &&
	    !(svc_pg_exec(c, "BEGIN", 0, NULL, NULL) &&
	      svc_pg_exec(c, SVC_STORE_LOCK, 0, NULL, NULL) &&
	      svc_pg_exec(c, "SELECT count(*) FROM revisions", 0, NULL, &res)))
		rc = ibp_error_set(err, IBP_EIO, "the shared store: %s",
				   PQerrorMessage(c));
	if (!rc && atoll(PQgetvalue(res, 0, 0)) > 0)
		rc = ibp_error_set(err, IBP_EINVAL,
				   "the shared store already holds %s "
				   "revisions: nothing copied",
				   PQgetvalue(res, 0, 0));
	PQclear(res);
	for (size_t i = 0; !rc && i < sizeof(tables) / sizeof(tables[0]); i++)
		if (!copy_table(db, c, tables[i], rows, err))
			rc = IBP_EIO;
	if (!rc && !svc_pg_exec(c, "COMMIT", 0, NULL, NULL))
		rc = ibp_error_set(err, IBP_EIO, "the shared store: %s",
				   PQerrorMessage(c));
	if (rc)
		svc_pg_exec(c, "ROLLBACK", 0, NULL, NULL);
	PQfinish(c);
	sqlite3_close(db);
	return rc;
}
