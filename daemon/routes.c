/*
 * routes.c - every endpoint of ibpartd in one table (method, path
 * pattern, handler), as infiniband-diags' smpquery keeps its queries:
 * UFM's P_Key API (docs/ufm-api.md) under both /ufmRest and /ufmRestV3,
 * ibpart's own under /ibpart/v1.  A "{}" segment matches one path
 * segment and is handed to the handler.  The handlers only translate:
 * the service (include/ibpart/service.h) does the work and says what
 * went wrong (400 naming the field, 404, 409 with the findings).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/version.h"
#include "ibpartd.h"

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
	return (struct ibp_service_caller){
	    .version = IBP_SERVICE_CALLER_VERSION,
	    .user = q->user,
	    .warn_rules = (const char *const *)profile_of(q->d, q->user)->warn};
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

/* UFM's token lifetime (ten years, as its POST answers). */
#define TOKEN_LIFETIME 315360000

static void h_token(struct request *q, struct response *r)
{
	long at = 0;
	char *t = auth_token_issue(q->d->svc, q->user, &at);
	if (!t) {
		r->status = 500;
		r->body = json_error("cannot issue a token", 500);
		return;
	}
	json_t *o =
	    json_pack("{s:s, s:b, s:I, s:I, s:s}", "access_token", t, "revoked",
		      0, "issued_at", (json_int_t)at, "expires_in",
		      (json_int_t)TOKEN_LIFETIME, "username", q->user);
	free(t);
	r->status = 200;
	r->body = json_dumps(o, JSON_COMPACT);
	json_decref(o);
}

/* GET /app/tokens: the caller's tokens, never their secret. */
static void h_tokens(struct request *q, struct response *r)
{
	char *j = NULL;
	ibp_error err;
	if (ibp_service_tokens_json(q->d->svc, q->user, TOKEN_LIFETIME, &j,
				    &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
	} else {
		ok_json(r, j);
	}
}

/* GET /app/smconf: OpenSM's keys as NICo reads them (strings, hex),
 * from --opensm-conf, else OpenSM's own defaults (what an OpenSM started
 * without an options file runs with): NICo's fabric check calls it every
 * cycle and fails on anything but 200. */
static void h_smconf(struct request *q, struct response *r)
{
	const struct ibpartd *d = q->d;
	char v[4][24];
	const uint64_t k[4] = {d->osm.subnet_prefix, d->osm.m_key,
			       d->osm.sm_key, d->osm.sa_key};
	for (int i = 0; i < 4; i++)
		snprintf(v[i], sizeof(v[i]), "0x%llx",
			 (unsigned long long)k[i]);
	json_t *o =
	    json_pack("{s:s, s:s, s:s, s:s, s:b}", "subnet_prefix", v[0],
		      "m_key", v[1], "sm_key", v[2], "sa_key", v[3],
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

static void change(struct request *q, struct response *r, ibp_service_op op)
{
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
	bool opensm = d->opensm_pidfile || d->opensm_unit;
	bool done = st == IBP_SERVICE_VERIFIED ||
		    (!opensm && st == IBP_SERVICE_APPLIED);
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
	if (ibp_service_status_json(q->d->svc, &j, &err)) {
		r->status = 500;
		r->body = json_error(err.message, 500);
	} else {
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
	/* the collector's kept sweeps: violations and drift over time */
	ibp_monitor_series *xs = collector_series(q->d);
	ibp_web_extras web;
	ibp_web_extras_init(&web);
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
	r->status = 200;
	r->body = html;
	r->content_type = "text/html; charset=utf-8";
}

static void h_adopt(struct request *q, struct response *r)
{
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
	collector_metrics(d, f);
	fclose(f);
	r->status = 200;
	r->body = text;
	r->content_type = "text/plain; version=0.0.4";
}

enum scope { UFM, IBPART };
static const struct route {
	enum scope scope;
	const char *method, *pattern;
	void (*fn)(struct request *q, struct response *r);
} routes[] = {
    {UFM, "GET", "/app/ufm_version", h_version},
    {UFM, "POST", "/app/tokens", h_token},
    {UFM, "GET", "/app/tokens", h_tokens},
    {UFM, "GET", "/app/smconf", h_smconf},
    {UFM, "GET", "/resources/pkeys", h_list},
    {UFM, "GET", "/resources/pkeys/last_updated", h_last_updated},
    {UFM, "GET", "/resources/pkeys/{}", h_get},
    {UFM, "POST", "/resources/pkeys", h_add},
    {UFM, "PUT", "/resources/pkeys", h_set},
    {UFM, "POST", "/resources/pkeys/add", h_create},
    {UFM, "PUT", "/resources/pkeys/qos_conf", h_qos},
    {UFM, "POST", "/resources/pkeys/qos_conf", h_qos},
    {UFM, "DELETE", "/resources/pkeys/{}", h_delete},
    {UFM, "DELETE", "/resources/pkeys/{}/guids/{}", h_delete_guids},
    {UFM, "POST", "/resources/pkeys/hosts", h_add_hosts},
    {UFM, "DELETE", "/resources/pkeys/{}/hosts/{}", h_delete_hosts},
    {UFM, "POST", "/actions/remove_guids_from_pkey", h_remove},
    {UFM, "GET", "/resources/ports", h_ports},
    {UFM, "GET", "/jobs/{}", h_job},
    {IBPART, "GET", "/ibpart/v1/status", h_status},
    {IBPART, "GET", "/ibpart/v1/audit", h_audit},
    {IBPART, "GET", "/ibpart/v1/plan", h_plan},
    {IBPART, "GET", "/ibpart/v1/tables", h_tables},
    {IBPART, "GET", "/ibpart/v1/matrix", h_matrix},
    {IBPART, "GET", "/ibpart/v1/verify", h_verify},
    {IBPART, "POST", "/ibpart/v1/adopt", h_adopt},
    {IBPART, "GET", "/metrics", h_metrics},
    {IBPART, "GET", "/", h_web},
};

/* Does path match pattern?  The {} segments into args. */
static bool match(const char *pattern, const char *path, const char *args[2],
		  char store[2][512])
{
	size_t na = 0;
	while (*pattern && *path) {
		if (*pattern++ != '/' || *path++ != '/')
			return false;
		size_t pl = strcspn(pattern, "/"), ql = strcspn(path, "/");
		if (pl == 2 && !strncmp(pattern, "{}", 2)) {
			if (!ql || ql >= 512 || na == 2)
				return false;
			memcpy(store[na], path, ql);
			store[na][ql] = 0;
			args[na] = store[na];
			na++;
		} else if (pl != ql || strncmp(pattern, path, pl)) {
			return false;
		}
		pattern += pl;
		path += ql;
	}
	return !*pattern && !*path;
}

bool routes_dispatch(const char *prefix, struct request *q, struct response *r)
{
	enum scope scope = *prefix ? UFM : IBPART;
	static __thread char store[2][512];
	bool path_known = false;
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		const char *args[2] = {NULL, NULL};
		if (routes[i].scope != scope ||
		    !match(routes[i].pattern, q->path, args, store))
			continue;
		path_known = true;
		/* HEAD is every GET without its body (RFC 9110 9.3.2;
		 * libmicrohttpd leaves the body out): ib-kubernetes reads the
		 * server's clock from HEAD /app/ufm_version's Date header */
		bool head = !strcmp(q->method, "HEAD") &&
			    !strcmp(routes[i].method, "GET");
		if (!head && strcmp(routes[i].method, q->method))
			continue;
		q->args[0] = args[0];
		q->args[1] = args[1];
		routes[i].fn(q, r);
		return true;
	}
	if (path_known) {
		r->status = 405;
		r->body = json_error("method not allowed here", 405);
		return true;
	}
	return false;
}
