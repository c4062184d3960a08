/*
 * routes.c - every endpoint of ibpartd in one table (method, path
 * pattern, handler), as infiniband-diags' smpquery keeps its queries:
 * UFM's P_Key API (docs/ufm-api.md) under both /ufmRest and /ufmRestV3,
 * ibpart's own under /ibpart/v1.  A "{}" segment matches one path
 * segment and is handed to the handler.  The handlers only translate:
 * the service (include/ibpart/sys/service.h) does the work and says what
 * went wrong (400 naming the field, 404, 409 with the findings).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/version.h"
#include "ibpartd.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/monitor.h"
#include "ibpart/sys/report.h"

char *json_error(const char *msg, unsigned status)
{
	json_t *o =
	    json_pack("{s:s, s:i}", "error", msg, "status", (int)status);
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return s;
}

static void fail(struct response *r, struct ibp_service_error *e)
{
	r->status = (unsigned)ibp_service_error_http(e);
	r->body = ibp_service_error_json(e);
	daemon_log("ibpartd: refused (%u): %s%s%s", r->status, e->err.message,
		   e->field[0] ? " field=" : "", e->field);
	ibp_service_error_clear(e);
}

static void ok_json(struct response *r, char *json)
{
	r->status = 200;
	r->body = json;
}

/* The caller of a change as the service sees it: the user and the
 * audit codes their profile only warns of. */
static struct ibp_service_caller caller(const struct request *q)
{
	struct ibp_service_caller c;
	ibp_service_caller_init(&c, IBP_SERVICE_CALLER_VERSION);
	c.user = q->user;
	c.warn_rules = (const char *const *)profile_of(q->d, q->user)->warn;
	return c;
}

/* What a change was let through with: the log's line, and the answer's
 * "warnings" (o may be NULL: only logged).  Frees c->warnings. */
static void warned(struct ibp_service_caller *c, uint64_t rev, json_t *o)
{
	json_t *w = c->warnings ? json_loads(c->warnings, 0, NULL) : NULL;
	size_t i;
	json_t *f;
	json_array_foreach(w, i, f)
	{
		daemon_log("ibpartd: warning: revision %llu by %s accepted "
			   "with %s: %s",
			   (unsigned long long)rev, c->user ? c->user : "?",
			   json_string_value(json_object_get(f, "code")),
			   json_string_value(json_object_get(f, "message")));
	}
	if (o && w)
		json_object_set(o, "warnings", w);
	json_decref(w);
	free(c->warnings);
	c->warnings = NULL;
}

/* A change's answer: 200 (the only success IBK accepts) and the
 * revision that records it, with the warnings c (may be NULL) was let
 * through with (an extra field every client parser tried ignores). */
static void changed_as(struct response *r, int rc, uint64_t rev,
		       struct ibp_service_caller *c,
		       struct ibp_service_error *e)
{
	if (rc) {
		if (c) {
			free(c->warnings);
			c->warnings = NULL;
		}
		fail(r, e);
		return;
	}
	json_t *o = json_pack("{s:I}", "revision", (json_int_t)rev);
	if (c)
		warned(c, rev, o);
	r->status = 200;
	r->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
}

static void changed(struct response *r, int rc, uint64_t rev,
		    struct ibp_service_error *e)
{
	changed_as(r, rc, rev, NULL, e);
}

/* An accepted call whose revision the fabric already holds changed
 * nothing (say, a retried add): last_updated moves, or ib-kubernetes,
 * which waits for it to pass the time of this call, waits forever.  A
 * call that made a revision moves it when that revision is done. */
static void touch_if_done(struct request *q, int rc, uint64_t rev)
{
	ibp_error err;
	if (!rc && rev <= atomic_load(&q->d->done_rev) &&
	    ibp_service_touch_last_updated(q->d->svc, &err))
		daemon_log("ibpartd: last_updated: %s", err.message);
}

static void h_version(struct request *q, struct response *r)
{
	(void)q;
	if (asprintf(&r->body,
		     "{\"ufm_release_version\":\"ibpartd-%s\","
		     "\"ibpartd_version\":\"%s\"}",
		     IBP_VERSION_STRING, IBP_VERSION_STRING) < 0)
		r->body = NULL;
	r->status = 200;
}

/* UFM's token lifetime (ten years, as its POST answers) when the
 * request names none. */
#define TOKEN_LIFETIME 315360000L

/* POST /app/tokens [{"expires_in": S, "role": R}]: a token for the
 * caller, living S seconds (UFM's ten years without), with role R (the
 * caller's without; never more).  A token may not make tokens unless it
 * is admin: a stolen one cannot outlive itself. */
static void h_token(struct request *q, struct response *r)
{
	long life = TOKEN_LIFETIME;
	enum role role = q->who->role;
	json_t *o = NULL;
	const char *bad = NULL;
	if (q->body_len) {
		json_error_t je;
		o = json_loadb(q->body, q->body_len, JSON_REJECT_DUPLICATES,
			       &je);
		json_t *e = json_object_get(o, "expires_in");
		json_t *ro = json_object_get(o, "role");
		if (!json_is_object(o))
			bad = "body: a JSON object such as {\"expires_in\": "
			      "3600} is needed";
		else if (e &&
			 (!json_is_integer(e) || json_integer_value(e) < 1 ||
			  json_integer_value(e) > TOKEN_LIFETIME))
			bad = "expires_in: seconds, 1 to 315360000";
		else if (ro && !role_parse(json_string_value(ro), &role))
			bad = "role: read, change or admin";
		else if (e)
			life = (long)json_integer_value(e);
	}
	json_decref(o);
	if (!bad && !strncmp(q->who->via, "token:", 6) &&
	    q->who->role < ROLE_ADMIN) {
		r->status = 403;
		r->body = json_error("a token cannot make tokens (log in with "
				     "the user's password or certificate)",
				     403);
		return;
	}
	if (bad) {
		r->status = 400;
		r->body = json_error(bad, 400);
		return;
	}
	if (role > q->who->role)
		role = q->who->role;
	long at = 0;
	char *t = auth_token_issue(q->d->svc, q->who, role, life, &at);
	if (!t) {
		r->status = 500;
		r->body = json_error("cannot issue a token", 500);
		return;
	}
	o = json_pack("{s:s, s:b, s:I, s:I, s:s, s:s, s:s%}", "access_token", t,
		      "revoked", 0, "issued_at", (json_int_t)at, "expires_in",
		      (json_int_t)life, "username", q->user, "role",
		      role_name(role), "token_id", t, (size_t)16);
	free(t);
	daemon_log("ibpartd: token issued: user=%s role=%s expires_in=%ld "
		   "client=%s",
		   q->user, role_name(role), life, q->client);
	r->status = 200;
	r->body = json_dumps(o, JSON_COMPACT);
	json_decref(o);
}

/* GET /app/tokens: the caller's tokens, never their secret (an
 * admin's ?all=true: everyone's). */
static void h_tokens(struct request *q, struct response *r)
{
	char *j = NULL;
	ibp_error err;
	bool all = q->who->role == ROLE_ADMIN && strstr(q->query, "all=true");
	if (ibp_service_tokens_json(q->d->svc, all ? NULL : q->user, &j,
				    &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
	} else {
		ok_json(r, j);
	}
}

/* DELETE /app/tokens/{id}: revoke one of the caller's tokens (an
 * admin: anyone's). */
static void h_token_revoke(struct request *q, struct response *r)
{
	ibp_error err;
	int rc = ibp_service_token_revoke(
	    q->d->svc, q->args[0], q->who->role == ROLE_ADMIN ? NULL : q->user,
	    &err);
	if (rc) {
		r->status = rc == IBP_ENOENT ? 404 : 500;
		r->body =
		    json_error(rc == IBP_ENOENT ? "no such token" : err.message,
			       r->status);
		return;
	}
	daemon_log("ibpartd: token revoked: %s by user=%s client=%s",
		   q->args[0], q->user, q->client);
	r->status = 200;
	if (asprintf(&r->body, "{\"token_id\":\"%s\",\"revoked\":true}",
		     q->args[0]) < 0)
		r->body = NULL;
}

/* GET /ibpart/v1/revisions[?user=NAME][&limit=N]: who changed what. */
static void h_revisions(struct request *q, struct response *r)
{
	char user[128] = "";
	unsigned long limit = 100;
	const char *u = strstr(q->query, "user=");
	if (u && (u == q->query || u[-1] == '&')) {
		size_t n = strcspn(u + 5, "&");
		snprintf(user, sizeof(user), "%.*s", (int)n, u + 5);
		MHD_http_unescape(user);
	}
	const char *l = strstr(q->query, "limit=");
	if (l && (l == q->query || l[-1] == '&')) {
		char *end;
		limit = strtoul(l + 6, &end, 10);
		if ((*end && *end != '&') || limit < 1 || limit > 10000) {
			r->status = 400;
			r->body = json_error("limit: 1 to 10000", 400);
			return;
		}
	}
	char *j = NULL;
	ibp_error err;
	if (ibp_service_revisions_json(q->d->svc, user[0] ? user : NULL,
				       (unsigned)limit, &j, &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
	} else {
		ok_json(r, j);
	}
}

/* GET /app/smconf: OpenSM's keys as NICo reads them (strings, hex),
 * from --opensm-conf, else OpenSM's own defaults (what an OpenSM started
 * without an options file runs with): NICo's fabric check calls it every
 * cycle and fails on anything but 200.  m_key, sm_key and sa_key only to
 * the role admin. */
static void h_smconf(struct request *q, struct response *r)
{
	const struct ibpartd *d = q->d;
	char v[4][24];
	const uint64_t k[4] = {d->osm.subnet_prefix, d->osm.m_key,
			       d->osm.sm_key, d->osm.sa_key};
	for (int i = 0; i < 4; i++)
		snprintf(v[i], sizeof(v[i]), "0x%llx",
			 (unsigned long long)k[i]);
	/* the keys only to admin: NICo reads subnet_prefix and the keys
	 * to build its SMPs; a read or change client gets the rest */
	json_t *o =
	    q->who->role == ROLE_ADMIN
		? json_pack("{s:s, s:s, s:s, s:s, s:b}", "subnet_prefix", v[0],
			    "m_key", v[1], "sm_key", v[2], "sa_key", v[3],
			    "m_key_per_port", (int)d->osm.m_key_per_port)
		: json_pack("{s:s, s:b}", "subnet_prefix", v[0],
			    "m_key_per_port", (int)d->osm.m_key_per_port);
	r->status = 200;
	r->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
}

static void h_list(struct request *q, struct response *r)
{
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	char *j = NULL;
	if (ibp_service_list(q->d->svc, q->guids_data, q->qos_conf, &j, &e))
		fail(r, &e);
	else
		ok_json(r, j);
}

static void h_get(struct request *q, struct response *r)
{
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	char *j = NULL;
	int rc = ibp_service_get(q->d->svc, q->args[0], q->guids_data,
				 q->qos_conf, &j, &e);
	if (rc == IBP_ENOENT && !profile_of(q->d, q->user)->not_found_404) {
		/* UFM's "not found", NICo's only one: 200, exactly {} */
		ibp_service_error_clear(&e);
		ok_json(r, strdup("{}"));
	} else if (rc) {
		fail(r, &e);
	} else {
		ok_json(r, j);
	}
}

static void h_last_updated(struct request *q, struct response *r)
{
	char *j = NULL;
	ibp_error err;
	if (ibp_service_last_updated_json(q->d->svc, &j, &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
	} else {
		ok_json(r, j);
	}
}

/* A P_Key as the service reads one ("0x1f", "31" - its parser,
 * ibp_service_parse_pkey - or a JSON integer); false when it is not one
 * (the service then says why). */
static bool pkey_value(const json_t *v, const char *text, unsigned long *out)
{
	if (v && json_is_integer(v)) {
		*out = (unsigned long)json_integer_value(v);
		return json_integer_value(v) >= 0;
	}
	return !ibp_service_parse_pkey(v ? json_string_value(v) : text, out);
}

/* May the caller change P_Key (the body's "pkey" when text is NULL)?
 * true, or false with a 403 (400 when a range-limited caller names no
 * P_Key the daemon can read) in r. */
static bool pkey_allowed(struct request *q, struct response *r,
			 const char *text)
{
	if (!q->who->nranges)
		return true;
	json_t *o = NULL;
	if (!text) {
		json_error_t je;
		o = json_loadb(q->body ? q->body : "", q->body_len, 0, &je);
	}
	unsigned long pk = 0;
	bool ok =
	    pkey_value(text ? NULL : json_object_get(o, "pkey"), text, &pk);
	json_decref(o);
	if (!ok) {
		r->status = 400;
		r->body = json_error("pkey: a P_Key such as \"0x10\" is "
				     "needed",
				     400);
		return false;
	}
	for (size_t i = 0; i < q->who->nranges; i++)
		if (pk >= q->who->ranges[i].lo && pk <= q->who->ranges[i].hi)
			return true;
	r->status = 403;
	r->body = json_error("pkey: outside the P_Keys this user may change "
			     "(pkeys= in the users file)",
			     403);
	daemon_log("ibpartd: refused (403): P_Key 0x%lx outside user %s's "
		   "ranges",
		   pk, q->user);
	return false;
}

static void change(struct request *q, struct response *r, ibp_service_op op)
{
	if (!pkey_allowed(q, r, NULL))
		return;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t rev = 0;
	struct ibp_service_caller c = caller(q);
	int rc = ibp_service_change_as(q->d->svc, &c, op, q->body, q->body_len,
				       &rev, &e);
	touch_if_done(q, rc, rev);
	changed_as(r, rc, rev, &c, &e);
}

static void h_add(struct request *q, struct response *r)
{
	change(q, r, IBP_SERVICE_ADD_GUIDS);
}

static void h_set(struct request *q, struct response *r)
{
	change(q, r, IBP_SERVICE_SET_GUIDS);
}

static void h_create(struct request *q, struct response *r)
{
	change(q, r, IBP_SERVICE_CREATE);
}

static void h_qos(struct request *q, struct response *r)
{
	change(q, r, IBP_SERVICE_QOS);
}

static void h_remove(struct request *q, struct response *r)
{
	change(q, r, IBP_SERVICE_REMOVE_GUIDS);
}

static void h_delete(struct request *q, struct response *r)
{
	if (!pkey_allowed(q, r, q->args[0]))
		return;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t rev = 0;
	int rc = ibp_service_delete_pkey(q->d->svc, q->args[0], &rev, &e);
	touch_if_done(q, rc, rev);
	changed(r, rc, rev, &e);
}

/* UFM's job for a revision (its asynchronous calls answer one, polled
 * at GET /jobs/{id}): the revision number as the id, "completed" once
 * the fabric holds it (or, with no OpenSM to signal, once the file is
 * written), "running" before - also while a failed cycle is retried,
 * with the reason.  NULL when there is no such revision. */
static json_t *job(struct ibpartd *d, uint64_t rev, const char *operation)
{
	ibp_service_state st;
	char reason[600], id[24];
	ibp_error err;
	if (ibp_service_revision_state(d->svc, rev, &st, reason, sizeof(reason),
				       &err))
		return NULL;
	/* every end but failed: applied (signalled, or written with no
	 * OpenSM named), verified, applied-partially, drifted since */
	bool done = st != IBP_SERVICE_PENDING && st != IBP_SERVICE_FAILED;
	snprintf(id, sizeof(id), "%llu", (unsigned long long)rev);
	json_t *o = json_pack("{s:I, s:s, s:s, s:s}", "revision",
			      (json_int_t)rev, "id", id, "operation", operation,
			      "status", done ? "completed" : "running");
	if (o && reason[0])
		json_object_set_new(o, "reason", json_string(reason));
	return o;
}

static void put_json(struct response *r, json_t *o)
{
	r->status = 200;
	r->body = json_dumps(o, JSON_COMPACT);
	json_decref(o);
}

/* As a change answers, with UFM's job in it (the revision's). */
static void h_add_hosts(struct request *q, struct response *r)
{
	if (!pkey_allowed(q, r, NULL))
		return;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t rev = 0;
	struct ibp_service_caller c = caller(q);
	int rc = ibp_service_add_hosts_as(q->d->svc, &c, q->body, q->body_len,
					  &rev, &e);
	json_t *o = rc ? NULL : job(q->d, rev, "add_hosts_to_pkey");
	if (o) {
		warned(&c, rev, o);
		put_json(r, o);
	} else {
		changed_as(r, rc, rev, &c, &e);
	}
}

static void h_job(struct request *q, struct response *r)
{
	char *end;
	unsigned long long rev = strtoull(q->args[0], &end, 10);
	json_t *o = *end || !rev ? NULL : job(q->d, rev, "pkey_change");
	if (o) {
		put_json(r, o);
	} else {
		r->status = 404;
		r->body = json_error("no such job (a job is a revision)", 404);
	}
}

static void h_delete_hosts(struct request *q, struct response *r)
{
	if (!pkey_allowed(q, r, q->args[0]))
		return;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t rev = 0;
	int rc = ibp_service_remove_hosts(q->d->svc, q->args[0], q->args[1],
					  &rev, &e);
	touch_if_done(q, rc, rev);
	changed(r, rc, rev, &e);
}

static void h_delete_guids(struct request *q, struct response *r)
{
	if (!pkey_allowed(q, r, q->args[0]))
		return;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t rev = 0;
	int rc = ibp_service_remove_guids_csv(q->d->svc, q->args[0], q->args[1],
					      &rev, &e);
	touch_if_done(q, rc, rev);
	changed(r, rc, rev, &e);
}

static void h_status(struct request *q, struct response *r)
{
	char *j = NULL;
	ibp_error err;
	uint64_t key = ibp_service_view_key(q->d->svc);
	if (view_cache_get(&q->d->status, key, 0, &j)) {
		ok_json(r, j);
	} else if (ibp_service_status_json(q->d->svc, &j, &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
	} else {
		view_cache_put(&q->d->status, key, 0, j);
		ok_json(r, j);
	}
}

static void h_ports(struct request *q, struct response *r)
{
	char *j = NULL;
	ibp_error err;
	if (ibp_service_ports_json_of(q->d->svc, q->sys_type, &j, &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
	} else {
		ok_json(r, j);
	}
}

/* A view of the current plan the service computes (the audit, the
 * tables, the matrix): 404 without a topology. */
static void view(struct request *q, struct response *r,
		 int (*fn)(ibp_service *s, char **json, ibp_error *err))
{
	char *j = NULL;
	ibp_error err;
	int rc = fn(q->d->svc, &j, &err);
	if (rc) {
		r->status = rc == IBP_ENOENT ? 404 : 500;
		r->body = json_error(err.message, r->status);
	} else {
		ok_json(r, j);
	}
}

static void h_audit(struct request *q, struct response *r)
{
	view(q, r, ibp_service_audit_json);
}

static void h_tables(struct request *q, struct response *r)
{
	view(q, r, ibp_service_tables_json);
}

static void h_matrix(struct request *q, struct response *r)
{
	view(q, r, ibp_service_matrix_json);
}

/* The fabric's tables read over SMPs now and compared with the
 * partitions file, as `ibpart verify --format json` prints it; under
 * the apply lock, so never between a SIGHUP and its verification.  503
 * when the fabric cannot be read. */
static void h_verify(struct request *q, struct response *r)
{
	ibp_live *l = NULL;
	ibp_live_lock *lock = NULL;
	ibp_verify_result *v = NULL;
	char why[600] = "";
	if (daemon_open_fabric(q->d, &l, &lock, why, sizeof(why)) ||
	    daemon_verify(q->d, l, &v, why, sizeof(why))) {
		r->status = 503;
		r->body = json_error(why, 503);
	} else {
		r->status = 200;
		r->body = ibp_verify_result_json(v);
	}
	ibp_verify_result_free(v);
	daemon_close_fabric(l, lock);
}

/* The web view of the current plan (docs/matrix.md), an HTML page. */
static void h_web(struct request *q, struct response *r)
{
	char *html = NULL;
	size_t len = 0;
	ibp_error err;
	/* the keys before the inputs: a change while rendering is seen by
	 * the next request, never hidden by this one's page */
	uint64_t key = ibp_service_view_key(q->d->svc);
	unsigned long gen = collector_page_gen(q->d);
	if (view_cache_get(&q->d->page, key, gen, &html)) {
		r->status = 200;
		r->body = html;
		r->content_type = "text/html; charset=utf-8";
		return;
	}
	/* the collector's kept sweeps: violations and drift over time */
	ibp_monitor_series *xs = collector_series(q->d);
	ibp_web_extras web;
	ibp_web_extras_init(&web, IBP_WEB_EXTRAS_VERSION);
	web.series = ibp_monitor_series_get(xs, &web.nseries);
	/* and the ports the last verification found drifted */
	struct drift_rows *rows = NULL;
	web.drift = collector_drift(q->d, &web.ndrift, &rows);
	int rc =
	    ibp_service_web_html_extras(q->d->svc, &web, &html, &len, &err);
	collector_drift_put(q->d, rows);
	ibp_monitor_series_free(xs);
	if (rc) {
		r->status = rc == IBP_ENOENT ? 404 : 500;
		r->body = json_error(err.message, r->status);
		return;
	}
	view_cache_put(&q->d->page, key, gen, html);
	r->status = 200;
	r->body = html;
	r->content_type = "text/html; charset=utf-8";
}

static void h_adopt(struct request *q, struct response *r)
{
	if (!pkey_allowed(q, r, NULL))
		return;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	json_error_t je;
	json_t *o = json_loadb(q->body ? q->body : "", q->body_len, 0, &je);
	const char *pk = json_string_value(json_object_get(o, "pkey"));
	uint64_t rev = 0;
	int rc = pk ? ibp_service_adopt(q->d->svc, pk, &rev, &e)
		    : (ibp_error_set(&e.err, IBP_EINVAL,
				     "pkey: a string such as \"0x10\" is "
				     "needed"),
		       snprintf(e.field, sizeof(e.field), "pkey"), IBP_EINVAL);
	json_decref(o);
	changed(r, rc, rev, &e);
}

static void h_plan(struct request *q, struct response *r)
{
	char *text = NULL;
	size_t len = 0;
	uint64_t rev = 0;
	ibp_error err;
	if (ibp_service_render(q->d->svc, &text, &len, &rev, &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
		return;
	}
	json_t *o = json_pack("{s:I, s:s%}", "revision", (json_int_t)rev,
			      "partitions_conf", text, len);
	free(text);
	r->status = 200;
	r->body = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
}

/* The newest revision's state (docs/ibpartd.md, States) and whether
 * the partitions file can be written, as /metrics gauges. */
static void metrics_state(struct ibpartd *d, FILE *f)
{
	ibp_service_state st = IBP_SERVICE_PENDING;
	char reason[8], problem[512];
	ibp_error err;
	uint64_t rev = ibp_service_revision(d->svc);
	bool known = rev && !ibp_service_revision_state(
				d->svc, rev, &st, reason, sizeof(reason), &err);
	fputs("# HELP ibpartd_revision_state The state of the newest "
	      "revision (1 for the one it is in).\n"
	      "# TYPE ibpartd_revision_state gauge\n",
	      f);
	for (int i = IBP_SERVICE_PENDING; i <= IBP_SERVICE_DRIFTED; i++)
		fprintf(f, "ibpartd_revision_state{state=\"%s\"} %d\n",
			ibp_service_state_str((ibp_service_state)i),
			known && (int)st == i);
	fprintf(f,
		"# HELP ibpartd_partitions_file_problem 1 while the partitions "
		"file cannot be written (missing, no marker, a P_Key of both "
		"the operator and the API; GET /ibpart/v1/status says why).\n"
		"# TYPE ibpartd_partitions_file_problem gauge\n"
		"ibpartd_partitions_file_problem %d\n"
		"# HELP ibpartd_partitions_file_reads_total Times the "
		"partitions file was read whole: once per change of it.\n"
		"# TYPE ibpartd_partitions_file_reads_total counter\n"
		"ibpartd_partitions_file_reads_total %lu\n"
		"# HELP ibpartd_topology_loads_total Times the topology file "
		"was read: once per change of it, not per request.\n"
		"# TYPE ibpartd_topology_loads_total counter\n"
		"ibpartd_topology_loads_total %lu\n"
		"# HELP ibpartd_page_renders_total Times the page at / was "
		"rendered (else served as kept: nothing it shows changed).\n"
		"# TYPE ibpartd_page_renders_total counter\n"
		"ibpartd_page_renders_total %lu\n"
		"# HELP ibpartd_status_renders_total Times GET "
		"/ibpart/v1/status was rendered (else served as kept).\n"
		"# TYPE ibpartd_status_renders_total counter\n"
		"ibpartd_status_renders_total %lu\n"
		"# HELP ibpartd_commits_total Database transactions that "
		"recorded changes: one per group committed together.\n"
		"# TYPE ibpartd_commits_total counter\n"
		"ibpartd_commits_total %lu\n",
		ibp_service_file_problem(d->svc, problem, sizeof(problem)),
		ibp_service_partitions_file_reads(d->svc),
		ibp_service_topology_loads(d->svc),
		view_cache_renders(&d->page), view_cache_renders(&d->status),
		ibp_service_commits(d->svc));
}

/* Prometheus' text format (version 0.0.4): the daemon's own families,
 * then the collector's (the fabric's). */
static void h_metrics(struct request *q, struct response *r)
{
	struct ibpartd *d = q->d;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		r->status = 500;
		return;
	}
	fprintf(f,
		"# HELP ibpartd_revision The newest revision in the database.\n"
		"# TYPE ibpartd_revision gauge\nibpartd_revision %llu\n"
		"# HELP ibpartd_fabric_revision The newest revision verified "
		"on the fabric.\n"
		"# TYPE ibpartd_fabric_revision gauge\n"
		"ibpartd_fabric_revision %llu\n"
		"# HELP ibpartd_apply_cycles_total Reloads of OpenSM tried.\n"
		"# TYPE ibpartd_apply_cycles_total counter\n"
		"ibpartd_apply_cycles_total %lu\n"
		"# HELP ibpartd_apply_failures_total Reloads that failed.\n"
		"# TYPE ibpartd_apply_failures_total counter\n"
		"ibpartd_apply_failures_total %lu\n"
		"# HELP ibpartd_requests_total HTTP requests answered, by "
		"status class.\n"
		"# TYPE ibpartd_requests_total counter\n",
		(unsigned long long)ibp_service_revision(d->svc),
		(unsigned long long)ibp_service_fabric_revision(d->svc),
		atomic_load(&d->apply_cycles), atomic_load(&d->apply_failures));
	static const char *const cls[] = {"1xx", "2xx", "3xx",
					  "4xx", "5xx", "other"};
	for (int i = 0; i < 6; i++)
		fprintf(f, "ibpartd_requests_total{code=\"%s\"} %lu\n", cls[i],
			atomic_load(&d->requests[i]));
	metrics_state(d, f);
	auth_metrics(d->users, f);
	collector_metrics(d, f);
	aliases_metrics(d, f);
	ha_metrics(d, f);
	fclose(f);
	r->status = 200;
	r->body = text;
	r->content_type = "text/plain; version=0.0.4";
}

enum scope { UFM, IBPART };
#define KIB4 (4u << 10)
#define MIB1 (1u << 20)
static const struct route {
	enum scope scope;
	const char *method, *pattern;
	void (*fn)(struct request *q, struct response *r);
	size_t body_max; /* 0: no body */
	enum role role;
} routes[] = {
    {UFM, "GET", "/app/ufm_version", h_version, 0, ROLE_READ},
    {UFM, "POST", "/app/tokens", h_token, KIB4, ROLE_READ},
    {UFM, "GET", "/app/tokens", h_tokens, 0, ROLE_READ},
    {UFM, "DELETE", "/app/tokens/{}", h_token_revoke, KIB4, ROLE_READ},
    {UFM, "GET", "/app/smconf", h_smconf, 0, ROLE_READ},
    {UFM, "GET", "/resources/pkeys", h_list, 0, ROLE_READ},
    {UFM, "GET", "/resources/pkeys/last_updated", h_last_updated, 0, ROLE_READ},
    {UFM, "GET", "/resources/pkeys/{}", h_get, 0, ROLE_READ},
    {UFM, "POST", "/resources/pkeys", h_add, MIB1, ROLE_CHANGE},
    {UFM, "PUT", "/resources/pkeys", h_set, MIB1, ROLE_CHANGE},
    {UFM, "POST", "/resources/pkeys/add", h_create, KIB4, ROLE_CHANGE},
    {UFM, "PUT", "/resources/pkeys/qos_conf", h_qos, KIB4, ROLE_CHANGE},
    {UFM, "POST", "/resources/pkeys/qos_conf", h_qos, KIB4, ROLE_CHANGE},
    {UFM, "DELETE", "/resources/pkeys/{}", h_delete, KIB4, ROLE_CHANGE},
    {UFM, "DELETE", "/resources/pkeys/{}/guids/{}", h_delete_guids, KIB4,
     ROLE_CHANGE},
    {UFM, "POST", "/resources/pkeys/hosts", h_add_hosts, MIB1, ROLE_CHANGE},
    {UFM, "DELETE", "/resources/pkeys/{}/hosts/{}", h_delete_hosts, KIB4,
     ROLE_CHANGE},
    {UFM, "POST", "/actions/remove_guids_from_pkey", h_remove, MIB1,
     ROLE_CHANGE},
    {UFM, "GET", "/resources/ports", h_ports, 0, ROLE_READ},
    {UFM, "GET", "/jobs/{}", h_job, 0, ROLE_READ},
    {IBPART, "GET", "/ibpart/v1/status", h_status, 0, ROLE_READ},
    {IBPART, "GET", "/ibpart/v1/revisions", h_revisions, 0, ROLE_READ},
    {IBPART, "GET", "/ibpart/v1/audit", h_audit, 0, ROLE_READ},
    {IBPART, "GET", "/ibpart/v1/plan", h_plan, 0, ROLE_READ},
    {IBPART, "GET", "/ibpart/v1/tables", h_tables, 0, ROLE_READ},
    {IBPART, "GET", "/ibpart/v1/matrix", h_matrix, 0, ROLE_READ},
    {IBPART, "GET", "/ibpart/v1/verify", h_verify, 0, ROLE_READ},
    {IBPART, "POST", "/ibpart/v1/adopt", h_adopt, KIB4, ROLE_ADMIN},
    {IBPART, "GET", "/metrics", h_metrics, 0, ROLE_READ},
    {IBPART, "GET", "/", h_web, 0, ROLE_READ},
};
#define NROUTES (sizeof(routes) / sizeof(routes[0]))

/* Does path match pattern?  The {} segments into args, cut out of
 * store (a copy of path as long as it). */
static bool match(const char *pattern, const char *path, const char *args[2],
		  char *store)
{
	size_t na = 0;
	const char *base = path;
	while (*pattern && *path) {
		if (*pattern++ != '/' || *path++ != '/')
			return false;
		size_t pl = strcspn(pattern, "/"), ql = strcspn(path, "/");
		if (pl == 2 && !strncmp(pattern, "{}", 2)) {
			if (!ql || na == 2)
				return false;
			char *seg = store + (path - base);
			memcpy(seg, path, ql);
			seg[ql] = 0;
			args[na++] = seg;
		} else if (pl != ql || strncmp(pattern, path, pl)) {
			return false;
		}
		pattern += pl;
		path += ql;
	}
	return !*pattern && !*path;
}

/* The route for the request (NULL: none); *path_known when some
 * route's path matches. */
static const struct route *find(const char *prefix, const char *method,
				const char *path, const char *args[2],
				char *store, bool *path_known)
{
	enum scope scope = *prefix ? UFM : IBPART;
	*path_known = false;
	for (size_t i = 0; i < NROUTES; i++) {
		args[0] = args[1] = NULL;
		if (routes[i].scope != scope ||
		    !match(routes[i].pattern, path, args, store))
			continue;
		*path_known = true;
		/* HEAD is every GET without its body (RFC 9110 9.3.2;
		 * libmicrohttpd leaves the body out): ib-kubernetes reads the
		 * server's clock from HEAD /app/ufm_version's Date header */
		if (!strcmp(routes[i].method, method) ||
		    (!strcmp(method, "HEAD") &&
		     !strcmp(routes[i].method, "GET")))
			return &routes[i];
	}
	return NULL;
}

unsigned routes_lookup(const char *prefix, const char *method, const char *path,
		       struct route_info *ri)
{
	*ri = (struct route_info){0, ROLE_READ, false};
	char *store = strdup(path);
	bool known = false;
	const char *args[2];
	const struct route *rt =
	    store ? find(prefix, method, path, args, store, &known) : NULL;
	free(store);
	if (!rt)
		return known ? 405 : 404;
	/* a DELETE's body is not read (ufm_sdk sends {}, its type unsaid);
	 * a browser cannot send a DELETE to another origin unasked */
	*ri = (struct route_info){rt->body_max, rt->role,
				  rt->body_max > 0 && strcmp(method, "DELETE")};
	return 200;
}

bool routes_dispatch(const char *prefix, struct request *q, struct response *r)
{
	char *store = strdup(q->path);
	bool known = false;
	const char *args[2];
	const struct route *rt =
	    store ? find(prefix, q->method, q->path, args, store, &known)
		  : NULL;
	if (rt) {
		q->args[0] = args[0];
		q->args[1] = args[1];
		/* the author of a change this makes (the audit trail) */
		char *what = NULL;
		if (asprintf(&what, "%s %s%s%.*s%.*s", q->method, prefix,
			     q->path, q->body_len ? 1 : 0, " ",
			     (int)(q->body_len > 4096 ? 4096 : q->body_len),
			     q->body ? q->body : "") < 0)
			what = NULL;
		ibp_service_actor a = {q->user, q->who->via, q->client, what};
		ibp_service_actor_set(&a);
		rt->fn(q, r);
		ibp_service_actor_set(NULL);
		free(what);
	} else if (known) {
		r->status = 405;
		r->body = json_error("method not allowed here", 405);
	}
	free(store);
	return rt || known;
}
