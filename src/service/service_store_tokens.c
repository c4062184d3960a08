/*
 * service_store_tokens.c - the API's tokens in the shared store (--store,
 * service_store.c), so that a token one host issued works on every SM
 * host and a revocation on one holds on all.  The store is written first
 * (a token it does not hold is not issued; a revocation it did not take
 * is not done), then the local cache as before.  A token is looked up in
 * the store, its row then kept in the cache; while the store cannot be
 * reached the cache answers (reads go on: docs/ha.md).  The last use is
 * kept per host, in the cache.  Under the service's lock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_internal.h"

int svc_store_token_add(ibp_service *s, const ibp_service_token *t,
			ibp_error *err)
{
	if (!s->store_url)
		return IBP_OK;
	char issued[24], expires[24];
	snprintf(issued, sizeof(issued), "%ld", t->issued_at);
	snprintf(expires, sizeof(expires), "%ld", t->expires_at);
	const char *v[] = {t->id, t->hash, t->user, issued, t->role, expires};
	if (svc_store_connected(s) &&
	    svc_pg_exec(s->pg,
			"INSERT INTO tokens(id, hash, \"user\", issued_at, "
			"role, expires_at, revoked, last_used) VALUES($1, $2, "
			"$3, $4, $5, $6, 0, 0)",
			6, v, NULL))
		return IBP_OK;
	return ibp_error_set(err, IBP_EIO, "the shared store: %s",
			     s->pg ? PQerrorMessage(s->pg) : "unreachable");
}

int svc_store_token_revoke(ibp_service *s, const char *id, const char *user,
			   ibp_error *err)
{
	if (!s->store_url)
		return IBP_OK;
	const char *v[] = {id, user};
	PGresult *r = NULL;
	if (!svc_store_connected(s) ||
	    !svc_pg_exec(s->pg,
			 user ? "UPDATE tokens SET revoked=1 WHERE id=$1 AND "
				"\"user\"=$2 RETURNING id"
			      : "UPDATE tokens SET revoked=1 WHERE id=$1 "
				"RETURNING id",
			 user ? 2 : 1, v, &r))
		return ibp_error_set(err, IBP_EIO, "the shared store: %s",
				     s->pg ? PQerrorMessage(s->pg)
					   : "unreachable");
	int n = PQntuples(r);
	PQclear(r);
	return n ? IBP_OK : ibp_error_set(err, IBP_ENOENT, "no such token");
}

/* Row i of r into *t. */
static void row_token(PGresult *r, int i, ibp_service_token *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->id, sizeof(t->id), "%s", PQgetvalue(r, i, 0));
	snprintf(t->hash, sizeof(t->hash), "%s", PQgetvalue(r, i, 1));
	snprintf(t->user, sizeof(t->user), "%s", PQgetvalue(r, i, 2));
	snprintf(t->role, sizeof(t->role), "%s", PQgetvalue(r, i, 3));
	t->issued_at = atol(PQgetvalue(r, i, 4));
	t->expires_at = atol(PQgetvalue(r, i, 5));
	t->revoked = atoi(PQgetvalue(r, i, 6)) != 0;
}

#define TOKEN_COLUMNS                                                          \
	"SELECT id, hash, \"user\", role, issued_at, expires_at, revoked "     \
	"FROM tokens"

/* The store's tokens (all, or id's) into the cache; false when the
 * store cannot be read. */
static bool pull(ibp_service *s, const char *id)
{
	PGresult *r = NULL;
	const char *v[] = {id};
	if (!svc_store_connected(s) ||
	    !svc_pg_exec(s->pg,
			 id ? TOKEN_COLUMNS " WHERE id=$1" : TOKEN_COLUMNS,
			 id ? 1 : 0, v, &r))
		return false;
	for (int i = 0; i < PQntuples(r); i++) {
		ibp_service_token t;
		row_token(r, i, &t);
		svc_db_token_put(s, &t);
	}
	PQclear(r);
	return true;
}

void svc_store_token_pull(ibp_service *s, const char *id)
{
	if (s->store_url)
		pull(s, id);
}
