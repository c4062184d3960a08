/*
 * service_audit.c - who made each revision (issue 28): the daemon names
 * the actor of the calling thread before a change, the revision it
 * commits records it in the same transaction (service_db.c), and GET
 * /ibpart/v1/revisions reads them back, by user if asked.  Kept in the
 * database (schema version 3), so across restarts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_internal.h"

static _Thread_local const ibp_service_actor *actor;

void ibp_service_actor_set(const ibp_service_actor *a)
{
	actor = a;
}

const ibp_service_actor *svc_actor(void)
{
	return actor;
}

static json_t *text_or_null(sqlite3_stmt *st, int col)
{
	const unsigned char *v = sqlite3_column_text(st, col);
	return v ? json_string((const char *)v) : json_null();
}

int ibp_service_revisions_json(ibp_service *s, const char *user, unsigned limit,
			       char **json, ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	json_t *a = json_array();
	sqlite3_stmt *st = NULL;
	bool ok = a && sqlite3_prepare_v2(
			   s->db,
			   "SELECT rev, time, op, pkey, state, reason, user, "
			   "via, client, request FROM revisions WHERE ?1 IS "
			   "NULL OR user=?1 ORDER BY rev DESC LIMIT ?2",
			   -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		if (user)
			sqlite3_bind_text(st, 1, user, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, (int)limit);
		int r;
		while ((r = sqlite3_step(st)) == SQLITE_ROW) {
			char pk[8];
			snprintf(pk, sizeof(pk), "0x%x",
				 (unsigned)sqlite3_column_int(st, 3));
			json_t *o = json_pack(
			    "{s:I, s:I, s:s, s:s, s:s}", "revision",
			    (json_int_t)sqlite3_column_int64(st, 0), "time",
			    (json_int_t)sqlite3_column_int64(st, 1), "op",
			    (const char *)sqlite3_column_text(st, 2), "pkey",
			    pk, "state",
			    (const char *)sqlite3_column_text(st, 4));
			if (!o)
				continue;
			if (sqlite3_column_type(st, 5) != SQLITE_NULL)
				json_object_set_new(o, "reason",
						    text_or_null(st, 5));
			json_object_set_new(o, "user", text_or_null(st, 6));
			json_object_set_new(o, "via", text_or_null(st, 7));
			json_object_set_new(o, "client", text_or_null(st, 8));
			json_object_set_new(o, "request", text_or_null(st, 9));
			json_array_append_new(a, o);
		}
		ok = r == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	int rc = ok ? IBP_OK
		    : ibp_error_set(err, IBP_EIO, "%s: %s", s->db_path,
				    sqlite3_errmsg(s->db));
	pthread_mutex_unlock(&s->lock);
	if (rc) {
		json_decref(a);
		return rc;
	}
	json_t *o = json_pack("{s:o}", "revisions", a);
	return svc_json_take(o, json)
		   ? IBP_OK
		   : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}
