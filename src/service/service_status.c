/*
 * service_status.c - what became of each revision on the fabric (the
 * applier records it; GET /ibpart/v1/status and UFM's last_updated read
 * it) and waiting for a new revision.  All in the database, under the
 * service's lock (the tokens: service_tokens.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "service/service_internal.h"
#include "service/service_lib.h"

static const char *const state_names[] = {
    "pending", "applied", "verified", "failed", "applied-partially", "drifted"};
#define NSTATES (sizeof(state_names) / sizeof(state_names[0]))

const char *ibp_service_state_str(ibp_service_state st)
{
	return (unsigned)st < NSTATES ? state_names[st] : "unknown";
}

/* The fields of the plan SMPs cannot show, per partition: OpenSM puts
 * the QoS (mtu, rate, sl) and IPoIB's broadcast group into the SA's
 * records (MCMemberRecord, PathRecord), not into any attribute a port's
 * SMA holds; a JSON array, NULL when none.  Under the lock. */
static char *not_verifiable(const ibp_service *s)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < s->plan.n; i++) {
		const struct svc_part *p = &s->plan.p[i];
		if (!p->has_qos && !p->ipoib)
			continue;
		json_t *f = json_array();
		if (p->has_qos) {
			json_array_append_new(f, json_string("mtu"));
			json_array_append_new(f, json_string("rate"));
			json_array_append_new(f, json_string("sl"));
		}
		if (p->ipoib)
			json_array_append_new(f, json_string("ipoib"));
		char pk[8];
		svc_pkey_str(p->pkey, pk);
		json_array_append_new(
		    a, json_pack("{s:s, s:o}", "pkey", pk, "fields", f));
	}
	char *text =
	    a && json_array_size(a) ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	return text;
}

static bool held(ibp_service_state st)
{
	return st == IBP_SERVICE_VERIFIED ||
	       st == IBP_SERVICE_APPLIED_PARTIALLY;
}

uint64_t ibp_service_revision(ibp_service *s)
{
	pthread_mutex_lock(&s->lock);
	uint64_t r = s->rev;
	pthread_mutex_unlock(&s->lock);
	return r;
}

uint64_t ibp_service_fabric_revision(ibp_service *s)
{
	pthread_mutex_lock(&s->lock);
	uint64_t r = s->fabric_rev;
	pthread_mutex_unlock(&s->lock);
	return r;
}

uint64_t ibp_service_wait(ibp_service *s, uint64_t after, int ms)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (long)(ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&s->lock);
	while (s->rev <= after && pthread_cond_timedwait(&s->changed, &s->lock,
							 &until) != ETIMEDOUT)
		;
	uint64_t r = s->rev;
	pthread_mutex_unlock(&s->lock);
	return r;
}

static int exec_bound(ibp_service *s, const char *sql, const char *a,
		      const char *b, sqlite3_int64 n, ibp_error *err)
{
	sqlite3_stmt *st = NULL;
	bool ok = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK;
	if (ok) {
		sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, n);
		ok = sqlite3_step(st) == SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return ok ? IBP_OK
		  : ibp_error_set(err, IBP_EIO, "%s: %s", s->db_path,
				  sqlite3_errmsg(s->db));
}

int ibp_service_mark(ibp_service *s, uint64_t rev, ibp_service_state st,
		     const char *reason, ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	/* a held revision stays held; applied-partially becomes verified
	 * when the fabric holds the same revision whole (written again:
	 * ibpartd's --vf-guids physical after the alias map changed) */
	int rc = exec_bound(s,
			    "UPDATE revisions SET state=?1, reason=?2 WHERE "
			    "rev<=?3 AND (state NOT IN ('verified', "
			    "'applied-partially', 'drifted') OR (rev=?3 AND "
			    "?1='verified' AND state='applied-partially'))",
			    ibp_service_state_str(st), reason,
			    (sqlite3_int64)rev, err);
	if (!rc && (held(st) || st == IBP_SERVICE_APPLIED)) {
		char *nv = not_verifiable(s);
		rc = exec_bound(s,
				"UPDATE revisions SET not_verifiable=?1 "
				"WHERE rev=?3",
				nv, NULL, (sqlite3_int64)rev, err);
		free(nv);
	}
	s->view_gen++;
	if (!rc && held(st)) {
		char now[32], r[32];
		snprintf(now, sizeof(now), "%lld", (long long)time(NULL));
		snprintf(r, sizeof(r), "%llu", (unsigned long long)rev);
		/* revision 0 is no change: last_updated stays null */
		rc = exec_bound(s,
				rev ? "INSERT OR REPLACE INTO meta VALUES"
				      "('fabric_revision', ?2), "
				      "('last_updated', ?1)"
				    : "INSERT OR REPLACE INTO meta VALUES"
				      "('fabric_revision', ?2)",
				now, r, 0, err);
		if (!rc)
			s->fabric_rev = rev;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

static char *meta_text(ibp_service *s, const char *key)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key=?", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			v = strdup((const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	return v;
}

/* r's key: the JSON text of column col, when it has one. */
static void add_json_column(json_t *r, const char *key, sqlite3_stmt *st,
			    int col)
{
	const char *t = (const char *)sqlite3_column_text(st, col);
	json_t *v = t ? json_loads(t, 0, NULL) : NULL;
	if (r && v)
		json_object_set_new(r, key, v);
	else
		json_decref(v);
}

/* The status's "posture": the opensm.conf's findings on the current
 * plan (service_views.c), or why there are none. */
static json_t *posture(ibp_service *s)
{
	char *text = NULL;
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_service_posture_json(s, &text, &err);
	json_t *doc = rc ? NULL : json_loads(text, 0, NULL);
	free(text);
	json_t *o = json_pack("{s:s}", "opensm_conf", s->opensm_conf_path);
	if (doc)
		json_object_set(o, "findings",
				json_object_get(doc, "findings"));
	else
		json_object_set_new(o, "error", json_string(err.message));
	json_decref(doc);
	return o;
}

int ibp_service_status_json(ibp_service *s, char **json, ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	json_t *revs = json_array();
	sqlite3_stmt *st = NULL;
	const char *newest = "verified";
	if (sqlite3_prepare_v2(s->db,
			       "SELECT rev, state, reason, op, pkey, time, "
			       "absent, not_verifiable FROM revisions ORDER "
			       "BY rev DESC LIMIT 50",
			       -1, &st, NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW) {
			char pk[8], when[32];
			svc_pkey_str((uint16_t)sqlite3_column_int(st, 4), pk);
			time_t t = (time_t)sqlite3_column_int64(st, 5);
			strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
				 gmtime(&t));
			json_t *r = json_pack(
			    "{s:I, s:s, s:s, s:s, s:s}", "revision",
			    (json_int_t)sqlite3_column_int64(st, 0), "state",
			    (const char *)sqlite3_column_text(st, 1), "op",
			    (const char *)sqlite3_column_text(st, 3), "pkey",
			    pk, "time", when);
			if (r && sqlite3_column_type(st, 2) != SQLITE_NULL)
				json_object_set_new(
				    r, "reason",
				    json_string(
					(const char *)sqlite3_column_text(st,
									  2)));
			add_json_column(r, "absent", st, 6);
			add_json_column(r, "not_verifiable", st, 7);
			if (!json_array_size(revs))
				newest = json_string_value(
				    json_object_get(r, "state"));
			json_array_append_new(revs, r);
		}
	}
	json_t *o =
	    json_pack("{s:I, s:I, s:s, s:o}", "revision", (json_int_t)s->rev,
		      "fabric_revision", (json_int_t)s->fabric_rev, "state",
		      newest, "revisions", revs);
	sqlite3_finalize(st);
	if (o && s->store_url) /* every SM host's state (service_store.c) */
		json_object_set_new(o, "store", svc_store_status(s));
	json_t *warned = json_array(); /* newest first */
	for (size_t i = 1; i <= s->nwarnings; i++) {
		const struct svc_warning *w =
		    &s->warnings[(s->warn_next + SVC_WARNINGS_KEPT - i) %
				 SVC_WARNINGS_KEPT];
		json_array_append_new(warned,
				      json_pack("{s:I, s:s, s:o*}", "revision",
						(json_int_t)w->rev, "user",
						w->user, "warnings",
						json_loads(w->json, 0, NULL)));
	}
	pthread_mutex_unlock(&s->lock);
	if (o)
		json_object_set_new(o, "warnings", warned);
	else
		json_decref(warned);
	char problem[512];
	bool bad = ibp_service_file_problem(s, problem, sizeof(problem));
	if (o)
		json_object_set_new(o, "partitions_file",
				    bad ? json_pack("{s:s, s:b, s:s}", "path",
						    s->partitions_path, "ok", 0,
						    "problem", problem)
					: json_pack("{s:s, s:b}", "path",
						    s->partitions_path, "ok",
						    1));
	if (o && s->opensm_conf_path)
		json_object_set_new(o, "posture", posture(s));
	return svc_json_take(o, json)
		   ? IBP_OK
		   : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

int ibp_service_touch_last_updated(ibp_service *s, ibp_error *err)
{
	char now[32];
	snprintf(now, sizeof(now), "%lld", (long long)time(NULL));
	pthread_mutex_lock(&s->lock);
	int rc = exec_bound(s,
			    "INSERT OR REPLACE INTO meta VALUES"
			    "('last_updated', ?1)",
			    now, NULL, 0, err);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* A stored last_updated as seconds since the epoch: seconds, or the ISO
 * 8601 UTC time databases of earlier versions hold; -1 when neither. */
static long long stored_time(const char *v)
{
	char *end;
	long long t = strtoll(v, &end, 10);
	if (end != v && !*end)
		return t;
	struct tm tm = {0};
	end = strptime(v, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return end && !*end ? (long long)timegm(&tm) : -1;
}

int ibp_service_last_updated_json(ibp_service *s, char **json, ibp_error *err)
{
	pthread_mutex_lock(&s->lock);
	char *v = meta_text(s, "last_updated");
	pthread_mutex_unlock(&s->lock);
	long long t = v ? stored_time(v) : -1;
	free(v);
	char when[48] = "";
	time_t tt = (time_t)t;
	struct tm tm;
	if (t >= 0 && gmtime_r(&tt, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S UTC %Y", &tm);
	json_t *o = json_pack("{s:s?}", "last_updated", when[0] ? when : NULL);
	return svc_json_take(o, json)
		   ? IBP_OK
		   : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

int ibp_service_revision_state(ibp_service *s, uint64_t rev,
			       ibp_service_state *st, char *reason,
			       size_t reason_size, ibp_error *err)
{
	if (reason_size)
		reason[0] = 0;
	pthread_mutex_lock(&s->lock);
	sqlite3_stmt *q = NULL;
	int rc = IBP_ENOENT;
	if (sqlite3_prepare_v2(
		s->db, "SELECT state, reason FROM revisions WHERE rev=?", -1,
		&q, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, (sqlite3_int64)rev);
		if (sqlite3_step(q) == SQLITE_ROW) {
			const char *name =
			    (const char *)sqlite3_column_text(q, 0);
			*st = IBP_SERVICE_PENDING;
			for (size_t i = 0; i < NSTATES; i++)
				if (name && !strcmp(name, state_names[i]))
					*st = (ibp_service_state)i;
			if (reason_size &&
			    sqlite3_column_type(q, 1) != SQLITE_NULL)
				snprintf(
				    reason, reason_size, "%s",
				    (const char *)sqlite3_column_text(q, 1));
			rc = IBP_OK;
		}
	}
	sqlite3_finalize(q);
	pthread_mutex_unlock(&s->lock);
	return rc ? ibp_error_set(err, rc, "no revision %llu",
				  (unsigned long long)rev)
		  : IBP_OK;
}

int ibp_service_note_absent(ibp_service *s, uint64_t rev,
			    const struct ibp_service_absent *a, size_t n,
			    ibp_error *err)
{
	json_t *arr = json_array();
	for (size_t i = 0; arr && i < n; i++) {
		char g[24];
		snprintf(g, sizeof(g), "0x%016llx",
			 (unsigned long long)a[i].guid);
		json_t *o = json_pack("{s:s, s:s}", "guid", g, "kind",
				      a[i].kind ? a[i].kind : "unknown");
		if (o && a[i].hint && a[i].hint[0])
			json_object_set_new(o, "hint", json_string(a[i].hint));
		json_array_append_new(arr, o);
	}
	char *text = arr && n ? json_dumps(arr, JSON_COMPACT) : NULL;
	json_decref(arr);
	if (n && !text)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	pthread_mutex_lock(&s->lock);
	int rc = exec_bound(s, "UPDATE revisions SET absent=?1 WHERE rev=?3",
			    text, NULL, (sqlite3_int64)rev, err);
	if (!rc && !sqlite3_changes(s->db))
		rc = ibp_error_set(err, IBP_ENOENT, "no revision %llu",
				   (unsigned long long)rev);
	s->view_gen++;
	pthread_mutex_unlock(&s->lock);
	free(text);
	return rc;
}

int ibp_service_note_drift(ibp_service *s, uint64_t rev, size_t ports,
			   const char *detail, bool *changed, ibp_error *err)
{
	if (changed)
		*changed = false;
	pthread_mutex_lock(&s->lock);
	int rc = IBP_OK;
	sqlite3_stmt *q = NULL;
	char *state = NULL;
	bool absent = false;
	if (rev && rev == s->fabric_rev &&
	    sqlite3_prepare_v2(s->db,
			       "SELECT state, absent FROM revisions WHERE "
			       "rev=?",
			       -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(q, 1, (sqlite3_int64)rev);
		if (sqlite3_step(q) == SQLITE_ROW) {
			const char *t = (const char *)sqlite3_column_text(q, 0);
			state = t ? strdup(t) : NULL;
			absent = sqlite3_column_type(q, 1) != SQLITE_NULL;
		}
	}
	sqlite3_finalize(q);
	const char *to = NULL, *why = NULL;
	bool drifted = state && !strcmp(state, "drifted");
	if (state && ports &&
	    (drifted || !strcmp(state, "verified") ||
	     !strcmp(state, "applied-partially"))) {
		to = "drifted";
		why = detail;
	} else if (drifted && !ports) {
		to = absent ? "applied-partially" : "verified";
	}
	if (to) {
		rc = exec_bound(s,
				"UPDATE revisions SET state=?1, reason=?2 "
				"WHERE rev=?3",
				to, why, (sqlite3_int64)rev, err);
		s->view_gen++;
	}
	if (!rc && to && changed)
		*changed = strcmp(to, state) != 0;
	free(state);
	pthread_mutex_unlock(&s->lock);
	return rc;
}
