/*
 * service.c - the partition service object (include/ibpart/sys/service.h):
 * its lock, and UFM's P_Key operations.  A request is read and checked
 * field by field before the lock is taken; under it, the change is made
 * on a copy of the plan, refused if it touches an operator's P_Key or
 * the isolation guard objects, committed as one transaction with a new
 * revision, and only then made the service's plan.
 */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "service/service_internal.h"
#include "conf/conf_lib.h"
#include "service/service_lib.h"
#include "util/options_version.h"
#include "ibpart/sys/report.h"

IBP_OPTIONS_LAYOUT(service_options_layout, "service options",
		   IBP_SERVICE_OPTIONS_VERSION,
		   offsetof(struct ibp_service_options, alias_guids_path),
		   offsetof(struct ibp_service_options, vf_guids),
		   sizeof(struct ibp_service_options));

/* The library's defaults, a whole current struct. */
static void service_options_defaults(struct ibp_service_options *o)
{
	*o = (struct ibp_service_options){0};
	o->version = IBP_SERVICE_OPTIONS_VERSION;
}

void ibp_service_options_init(struct ibp_service_options *o, unsigned version)
{
	struct ibp_service_options d;
	service_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &service_options_layout);
}

IBP_OPTIONS_LAYOUT(service_caller_layout, "service caller",
		   IBP_SERVICE_CALLER_VERSION,
		   sizeof(struct ibp_service_caller));

void ibp_service_caller_init(struct ibp_service_caller *c, unsigned version)
{
	struct ibp_service_caller d = {.version = IBP_SERVICE_CALLER_VERSION};
	ibp_options_init_as(c, version, &d, &service_caller_layout);
}

int svc_caller_check(const struct ibp_service_caller *c,
		     struct ibp_service_error *e)
{
	struct ibp_service_caller full = {.version =
					      IBP_SERVICE_CALLER_VERSION};
	if (!c || !ibp_options_take(&full, c, &service_caller_layout, NULL))
		return IBP_OK;
	return svc_fail(e, IBP_EINVAL, "caller",
			"service caller version %u: this library reads 1..%u",
			c->version, IBP_SERVICE_CALLER_VERSION);
}

void ibp_service_error_init(struct ibp_service_error *e)
{
	*e = (struct ibp_service_error){0};
}

void ibp_service_error_clear(struct ibp_service_error *e)
{
	free(e->findings);
	*e = (struct ibp_service_error){0};
}

int ibp_service_error_http(const struct ibp_service_error *e)
{
	if (e->conflict)
		return 409;
	if (e->unavailable)
		return 503;
	switch (e->err.status) {
	case IBP_EINVAL:
		return 400;
	case IBP_ENOENT:
		return 404;
	default:
		return 500;
	}
}

char *ibp_service_error_json(const struct ibp_service_error *e)
{
	json_t *o = json_pack("{s:s, s:i}", "error", e->err.message, "status",
			      ibp_service_error_http(e));
	if (!o)
		return NULL;
	if (e->field[0])
		json_object_set_new(o, "field", json_string(e->field));
	json_t *f = e->findings ? json_loads(e->findings, 0, NULL) : NULL;
	if (f)
		json_object_set_new(o, "findings", f);
	char *s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

/* A reference to the operator's lines dropped (operator_lines). */
static void opc_put(struct svc_opc *o)
{
	if (o && atomic_fetch_sub(&o->refs, 1) == 1) {
		ibp_conf_free(o->conf);
		free(o->text);
		free(o);
	}
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int ibp_service_open(const struct ibp_service_options *o, ibp_service **out,
		     ibp_error *err)
{
	*out = NULL;
	struct ibp_service_options own;
	service_options_defaults(&own);
	if (ibp_options_take(&own, o, &service_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	if (!o->db_path || !o->partitions_path)
		return ibp_error_set(err, IBP_EINVAL,
				     "the service needs a database and a "
				     "partitions file");
	ibp_service *s = calloc(1, sizeof(*s));
	if (!s)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	s->lock_fd = -1;
	pthread_mutex_init(&s->write_lock, NULL);
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->topo_lock, NULL);
	pthread_mutex_init(&s->alias_lock, NULL);
	pthread_mutex_init(&s->file_lock, NULL);
	pthread_rwlockattr_t ra; /* a change applied is not starved by the
				    changes tried meanwhile */
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setkind_np(
	    &ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&s->guard_rw, &ra);
	pthread_rwlockattr_destroy(&ra);
	pthread_cond_init(&s->changed, NULL);
	s->db_path = strdup(o->db_path);
	s->partitions_path = strdup(o->partitions_path);
	s->topology_path = dup_or_null(o->topology_path);
	s->sm_port = dup_or_null(o->sm_port);
	s->opensm_conf_path = dup_or_null(o->opensm_conf_path);
	s->alias_guids_path = dup_or_null(o->alias_guids_path);
	s->allow_both_pkeys = o->allow_both_pkeys;
	s->vf_guids = o->vf_guids;
	s->vports = o->vports;
	s->record = svc_record_new();
	s->opfile = svc_opfile_new();
	int rc = !s->db_path || !s->partitions_path || !s->record || !s->opfile
		     ? ibp_error_set(err, IBP_ENOMEM, "out of memory")
		     : svc_db_open(s, o->db_path, err);
	if (!rc)
		rc = svc_db_load(s, err);
	if (!rc && o->store_url)
		rc = svc_store_open(s, o->store_url, o->host_name, err);
	if (!rc && svc_plan_published(s))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc)
		rc = svc_commit_open(s, err);
	if (rc) {
		ibp_service_close(s);
		return rc;
	}
	*out = s;
	return IBP_OK;
}

void ibp_service_close(ibp_service *s)
{
	if (!s)
		return;
	svc_store_close(s);
	svc_commit_close(s);
	sqlite3_close(s->db);
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	svc_record_free(s->record);
	svc_opfile_free(s->opfile);
	svc_guard_base_free(s, s->guard);
	opc_put(s->opc);
	if (s->topo)
		svc_topology_put(s, s->topo);
	pthread_mutex_destroy(&s->topo_lock);
	pthread_mutex_destroy(&s->file_lock);
	for (size_t i = 0; i < SVC_WARNINGS_KEPT; i++)
		free(s->warnings[i].json);
	if (s->snap)
		svc_snap_put(s->snap);
	else
		svc_plan_free(&s->plan);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->write_lock);
	pthread_rwlock_destroy(&s->guard_rw);
	pthread_cond_destroy(&s->changed);
	free(s->db_path);
	free(s->partitions_path);
	free(s->topology_path);
	free(s->sm_port);
	free(s->opensm_conf_path);
	free(s->alias_guids_path);
	free(s);
}

void ibp_service_set_guard_whole(ibp_service *s, bool whole)
{
	s->guard_whole = whole;
}

void ibp_service_guard_counts(ibp_service *s, uint64_t *fast, uint64_t *whole)
{
	pthread_mutex_lock(&s->write_lock); /* the guard's (judge) */
	if (fast)
		*fast = s->guard_fast;
	if (whole)
		*whole = s->guard_full;
	pthread_mutex_unlock(&s->write_lock);
}

void ibp_service_guard_trials(ibp_service *s, uint64_t *applied,
			      uint64_t *rejudged)
{
	pthread_mutex_lock(&s->write_lock);
	if (applied)
		*applied = s->guard_tried;
	if (rejudged)
		*rejudged = s->guard_rejudged;
	pthread_mutex_unlock(&s->write_lock);
}

void ibp_service_set_guard_hook(ibp_service *s, void (*hook)(void *), void *arg)
{
	s->guard_hook = hook;
	s->guard_hook_arg = arg;
}

/* ------------------------------------------------------ the request */

/* A request body read and checked; has_* say what it gave. */
struct req {
	uint16_t pkey;
	size_t n;
	uint64_t *guids;
	bool *full;
	bool has_guids;
	bool index0, has_index0;
	bool ipoib;
	bool has_mtu, has_rate, has_sl;
	unsigned mtu_limit, sl;
	double rate_limit;
	char name[32];
};

static const char *const fields[][8] = {
    [IBP_SERVICE_ADD_GUIDS] = {"pkey", "guids", "membership", "memberships",
			       "index0", "ip_over_ib"},
    [IBP_SERVICE_SET_GUIDS] = {"pkey", "guids", "membership", "memberships",
			       "index0", "ip_over_ib"},
    [IBP_SERVICE_CREATE] = {"pkey", "index0", "ip_over_ib", "mtu_limit",
			    "service_level", "rate_limit", "partition_name"},
    [IBP_SERVICE_QOS] = {"pkey", "mtu_limit", "service_level", "rate_limit"},
    [IBP_SERVICE_REMOVE_GUIDS] = {"pkey", "guids"},
};

static int check_fields(ibp_service_op op, json_t *o,
			struct ibp_service_error *e)
{
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v)
	{
		bool ok = false;
		for (size_t i = 0; i < 8 && fields[op][i] && !ok; i++)
			ok = !strcmp(key, fields[op][i]);
		if (!ok)
			return svc_fail(e, IBP_EINVAL, key,
					"%.60s: unknown field", key);
	}
	return IBP_OK;
}

static int read_guids(json_t *o, struct req *r, struct ibp_service_error *e)
{
	json_t *g = json_object_get(o, "guids");
	json_t *ms = json_object_get(o, "memberships");
	json_t *m = json_object_get(o, "membership");
	if (!json_is_array(g))
		return svc_fail(e, IBP_EINVAL, "guids", "guids: %s",
				g ? "not a list" : "missing");
	r->has_guids = true;
	r->n = json_array_size(g);
	if (!r->n)
		return svc_fail(e, IBP_EINVAL, "guids",
				"guids: an empty list (DELETE the P_Key to "
				"empty it)");
	if (ms && !json_is_null(ms) && m && !json_is_null(m))
		return svc_fail(e, IBP_EINVAL, "memberships",
				"memberships: give membership or memberships, "
				"not both");
	if (ms && !json_is_null(ms) &&
	    (!json_is_array(ms) || json_array_size(ms) != r->n))
		return svc_fail(e, IBP_EINVAL, "memberships",
				"memberships: a list as long as guids (%zu)",
				r->n);
	bool full = true; /* UFM's default */
	if (m && !json_is_null(m) &&
	    svc_parse_membership(m, "membership", &full, e))
		return IBP_EINVAL;
	r->guids = calloc(r->n, sizeof(*r->guids));
	r->full = calloc(r->n, sizeof(*r->full));
	if (!r->guids || !r->full)
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < r->n; i++) {
		char field[40];
		snprintf(field, sizeof(field), "guids[%u]", (unsigned)i);
		json_t *gi = json_array_get(g, i);
		if (!json_is_string(gi))
			return svc_fail(e, IBP_EINVAL, field,
					"%s: not a string", field);
		if (svc_parse_guid(json_string_value(gi), field, &r->guids[i],
				   e))
			return IBP_EINVAL;
		r->full[i] = full;
		if (ms && json_is_array(ms)) {
			snprintf(field, sizeof(field), "memberships[%u]",
				 (unsigned)i);
			if (svc_parse_membership(json_array_get(ms, i), field,
						 &r->full[i], e))
				return IBP_EINVAL;
		}
	}
	return IBP_OK;
}

static int read_name(json_t *o, struct req *r, struct ibp_service_error *e)
{
	json_t *v = json_object_get(o, "partition_name");
	if (!v || json_is_null(v))
		return IBP_OK;
	const char *t = json_is_string(v) ? json_string_value(v) : "";
	size_t n = strlen(t);
	bool ok =
	    n > 0 && n < sizeof(r->name) &&
	    (t[0] == '_' || ((t[0] | 0x20) >= 'a' && (t[0] | 0x20) <= 'z'));
	for (size_t i = 0; ok && i < n; i++)
		ok = t[i] == '_' || t[i] == '-' || t[i] == '.' ||
		     (t[i] >= '0' && t[i] <= '9') ||
		     ((t[i] | 0x20) >= 'a' && (t[i] | 0x20) <= 'z');
	if (!ok)
		return svc_fail(e, IBP_EINVAL, "partition_name",
				"partition_name: 1-31 letters, digits, '_', "
				"'-' or '.', starting with a letter or '_' "
				"(OpenSM reads a leading digit as a P_Key)");
	memcpy(r->name, t, n + 1);
	return IBP_OK;
}

static int read_qos(json_t *o, struct req *r, struct ibp_service_error *e)
{
	json_t *v = json_object_get(o, "mtu_limit");
	if (v && !json_is_null(v)) {
		/* range first: 4294967298 must not become 2 */
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > 4 ||
		    !svc_mtu_code((unsigned)json_integer_value(v)))
			return svc_fail(e, IBP_EINVAL, "mtu_limit",
					"mtu_limit: 2 or 4 (KiB)");
		r->has_mtu = true;
		r->mtu_limit = (unsigned)json_integer_value(v);
	}
	v = json_object_get(o, "rate_limit");
	if (v && !json_is_null(v)) {
		if (!json_is_number(v) || !svc_rate_code(json_number_value(v)))
			return svc_fail(e, IBP_EINVAL, "rate_limit",
					"rate_limit: a data rate in Gb/s with "
					"an IBA rate code (2.5, 5, 10, 14, 20, "
					"25, 28, 30, 40, 50, 56, 60, 80, 100, "
					"112, 120, 168, 200, 300, 400, 600)");
		r->has_rate = true;
		r->rate_limit = json_number_value(v);
	}
	v = json_object_get(o, "service_level");
	if (v && !json_is_null(v)) {
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > 15)
			return svc_fail(e, IBP_EINVAL, "service_level",
					"service_level: 0-15");
		r->has_sl = true;
		r->sl = (unsigned)json_integer_value(v);
	}
	return IBP_OK;
}

static int read_req(ibp_service_op op, const char *body, size_t len,
		    struct req *r, struct ibp_service_error *e)
{
	json_error_t je;
	json_t *o =
	    json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &je);
	if (!o)
		return svc_fail(e, IBP_EINVAL, "body",
				"malformed JSON at line %d column %d: %s",
				je.line, je.column, je.text);
	int rc = IBP_OK;
	r->ipoib = true; /* UFM's default */
	if (!json_is_object(o))
		rc = svc_fail(e, IBP_EINVAL, "body", "not a JSON object");
	if (!rc)
		rc = check_fields(op, o, e);
	if (!rc)
		rc = svc_parse_pkey_json(json_object_get(o, "pkey"), "pkey",
					 &r->pkey, e);
	if (!rc &&
	    (op == IBP_SERVICE_ADD_GUIDS || op == IBP_SERVICE_SET_GUIDS ||
	     op == IBP_SERVICE_REMOVE_GUIDS))
		rc = read_guids(o, r, e);
	json_t *v = json_object_get(o, "index0");
	r->has_index0 = v && !json_is_null(v);
	if (!rc)
		rc = svc_parse_bool(v, "index0", &r->index0, e);
	if (!rc)
		rc = svc_parse_bool(json_object_get(o, "ip_over_ib"),
				    "ip_over_ib", &r->ipoib, e);
	if (!rc)
		rc = read_name(o, r, e);
	if (!rc)
		rc = read_qos(o, r, e);
	if (!rc && op == IBP_SERVICE_QOS &&
	    !(r->has_mtu || r->has_rate || r->has_sl))
		rc = svc_fail(e, IBP_EINVAL, "body",
			      "none of mtu_limit, rate_limit, service_level");
	json_decref(o);
	return rc;
}

static void req_free(struct req *r)
{
	free(r->guids);
	free(r->full);
}

/* ------------------------------------------------------ the change */

static const char *const op_names[] = {
    [IBP_SERVICE_ADD_GUIDS] = "add_guids",
    [IBP_SERVICE_SET_GUIDS] = "set_guids",
    [IBP_SERVICE_CREATE] = "create",
    [IBP_SERVICE_QOS] = "qos_conf",
    [IBP_SERVICE_REMOVE_GUIDS] = "remove_guids",
};
#define OP_DELETE "delete"

/* The reading of the operator's lines text (kept while they stay the
 * same); *opc a reference the caller puts (opc_put).  Under the lock. */
static int operator_reading(ibp_service *s, const char *text, size_t len,
			    struct svc_opc **opc, ibp_error *err)
{
	*opc = NULL;
	struct svc_opc *o = s->opc;
	if (!o || o->len != len || memcmp(o->text, text, len)) {
		if (!(o = calloc(1, sizeof(*o))) ||
		    !(o->text = malloc(len + 1))) {
			free(o);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		int rc = svc_parse_conf(s, s->partitions_path, text, len,
					&o->conf, err);
		if (rc) {
			free(o->text);
			free(o);
			return rc;
		}
		memcpy(o->text, text, len);
		o->text[len] = 0;
		o->len = len;
		atomic_init(&o->refs, 1);
		opc_put(s->opc);
		s->opc = o;
	}
	atomic_fetch_add(&o->refs, 1);
	*opc = o;
	return IBP_OK;
}

/* The operator's lines as OpenSM reads them (the text last seen when
 * the file cannot be trusted: svc_operator_text); *opc a reference the
 * caller puts (opc_put).  Under the lock.  The reading is kept while the
 * text stays the same, so a change does not parse a large operator's
 * part again (issue 29); a change holds its reference through the guard
 * while a read may replace the one kept. */
static int operator_lines(ibp_service *s, char **text, size_t *len,
			  struct svc_opc **opc, ibp_error *err)
{
	char problem[8];
	*opc = NULL;
	int rc = svc_operator_text(s, text, len, problem, sizeof(problem), err);
	return rc ? rc : operator_reading(s, *text, *len, opc, err);
}

/* A new partition: UFM's defaults (ip_over_ib, index0 false, the name
 * api_pkey_0x%x). */
static struct svc_part *new_part(struct svc_plan *p, const struct req *r)
{
	struct svc_part *np = svc_plan_add(p, r->pkey);
	if (np) {
		snprintf(np->name, sizeof(np->name), "api_pkey_0x%x", r->pkey);
		np->ipoib = r->ipoib;
		np->index0 = r->has_index0 && r->index0;
	}
	return np;
}

static void set_qos(struct svc_part *p, const struct req *r)
{
	if (!p->has_qos) { /* OpenSM's own defaults until told */
		p->mtu_limit = 2;
		p->rate_limit = 10;
		p->sl = 0;
	}
	p->has_qos = true;
	if (r->has_mtu)
		p->mtu_limit = r->mtu_limit;
	if (r->has_rate)
		p->rate_limit = r->rate_limit;
	if (r->has_sl)
		p->sl = r->sl;
}

/* Make op's change on np (a copy of the plan). */
static int mutate(struct svc_plan *np, ibp_service_op op, const struct req *r,
		  struct ibp_service_error *e)
{
	struct svc_part *p = svc_plan_find(np, r->pkey);
	char pk[8];
	svc_pkey_str(r->pkey, pk);
	switch (op) {
	case IBP_SERVICE_SET_GUIDS:
		if (p)
			p->n = 0;
		/* fall through */
	case IBP_SERVICE_ADD_GUIDS:
		if (!p && !(p = new_part(np, r)))
			return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
		if (r->n) /* a member joins: the last to leave deletes it */
			p->created_empty = false;
		for (size_t i = 0; i < r->n; i++)
			if (svc_part_set_member(p, r->guids[i], r->full[i],
						r->has_index0 ? r->index0
							      : p->index0) < 0)
				return svc_fail(e, IBP_ENOMEM, NULL,
						"out of memory");
		return IBP_OK;
	case IBP_SERVICE_CREATE:
		if (!p) {
			if (!(p = new_part(np, r)))
				return svc_fail(e, IBP_ENOMEM, NULL,
						"out of memory");
			p->created_empty = true;
		}
		if (r->name[0])
			memcpy(p->name, r->name, sizeof(p->name));
		if (r->has_mtu || r->has_rate || r->has_sl)
			set_qos(p, r);
		return IBP_OK;
	case IBP_SERVICE_QOS:
		if (!p)
			return svc_fail(e, IBP_ENOENT, "pkey",
					"pkey: no partition %s", pk);
		set_qos(p, r);
		return IBP_OK;
	case IBP_SERVICE_REMOVE_GUIDS:
		if (!p)
			return IBP_OK; /* as UFM: nothing to do is done */
		for (size_t i = 0; i < r->n; i++)
			svc_part_remove_member(p, r->guids[i]);
		if (!p->n && !p->created_empty) /* UFM's auto-delete */
			svc_plan_remove(np, r->pkey);
		return IBP_OK;
	}
	return svc_fail(e, IBP_EINVAL, NULL, "unknown operation");
}

/* A name must mean one P_Key in the file (OpenSM looks partitions up by
 * name). */
static int check_name(const ibp_conf *opc, const struct svc_plan *np,
		      uint16_t pkey, struct ibp_service_error *e)
{
	const struct svc_part *p = svc_plan_find((struct svc_plan *)np, pkey);
	if (!p)
		return IBP_OK;
	for (size_t i = 0; i < np->n; i++)
		if (np->p[i].pkey != pkey && !strcmp(np->p[i].name, p->name))
			return svc_fail(e, IBP_EINVAL, "partition_name",
					"partition_name: %s already names "
					"P_Key 0x%x",
					p->name, np->p[i].pkey);
	for (size_t i = 0; i < ibp_conf_group_count(opc); i++) {
		const ibp_conf_group *g = ibp_conf_group_at(opc, i);
		if (!strcmp(ibp_conf_group_name(g), p->name))
			return svc_fail(e, IBP_EINVAL, "partition_name",
					"partition_name: %s already names the "
					"operator's P_Key 0x%x",
					p->name, ibp_conf_group_pkey(g));
	}
	return IBP_OK;
}

/* Is after (NULL: deleted) before (the API's, not NULL) with members
 * removed only? */
static bool only_removes(const struct svc_part *before,
			 const struct svc_part *after)
{
	if (!before || !after)
		return before != NULL;
	for (size_t i = 0, j = 0; i < after->n; i++, j++) {
		while (j < before->n && before->m[j].guid != after->m[i].guid)
			j++;
		if (j == before->n || before->m[j].full != after->m[i].full ||
		    before->m[j].index0 != after->m[i].index0)
			return false;
	}
	return after->n < before->n;
}

/* Under the lock, before a change is computed on the plan: the shared
 * store's transaction begun and the plan caught up with it (no-op
 * without a store); the store unreachable is a 503 that changes
 * nothing. */
static int store_begin(ibp_service *s, struct ibp_service_error *e)
{
	ibp_error err;
	ibp_error_clear(&err);
	int rc = svc_store_begin(s, &err);
	if (rc) {
		e->unavailable = true;
		svc_fail(e, IBP_EIO, NULL, "%s; nothing was changed",
			 err.message);
	}
	if (!rc && s->store_url) /* the catch-up may have moved the plan */
		svc_writers_follow(s);
	return rc;
}

/* What a writer waits for once the locks are dropped: revision rev
 * durable (0: nothing to wait for), unless a commit failed since its
 * epoch (service_commit.c). */
struct durable {
	uint64_t rev, epoch;
};

/* Under both locks, as a writer starts: the shared store caught up
 * with, the writers' plan reset where a commit failed. */
static int writers_start(ibp_service *s, struct durable *d,
			 struct ibp_service_error *e)
{
	*d = (struct durable){0};
	int rc = store_begin(s, e);
	if (!rc)
		d->epoch = svc_writers_begin(s);
	return rc;
}

/* The writers' part of a change over: the store's transaction ended,
 * np freed, the locks dropped; then, unless it failed, the wait until
 * what the change answers is durable. */
static int writers_end(ibp_service *s, int rc, struct svc_plan *np,
		       const struct durable *d, struct ibp_service_error *e)
{
	svc_store_end(s, false, NULL);
	svc_plan_free(np);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->write_lock);
	if (!rc && d->rev)
		rc = svc_commit_wait(s, d->rev, d->epoch, e);
	return rc;
}

/* The isolation guard on the change from the plan to np (the kept
 * answer, else the whole plan's).  Called under both locks; without a
 * shared store the lock is dropped meanwhile: the writers' lock keeps
 * what the guard reads (the plan, rev, the kept answer, OpenSM's
 * memory) and the reads go on.  With a store, the lock covers the
 * open transaction of its connection, which other callers use. */
static int judge(ibp_service *s, struct ibp_service_caller *c, bool gives_up,
		 const char *optext, size_t oplen, const ibp_conf *opc,
		 uint16_t pkey, const struct svc_plan *np,
		 struct svc_guard_trial *tried, struct ibp_service_error *e)
{
	char *before = NULL, *after = NULL;
	size_t blen = 0, alen = 0;
	bool judged = false;
	struct svc_part *now = svc_plan_find(svc_wplan(s), pkey);
	struct svc_part *then = svc_plan_find((struct svc_plan *)np, pkey);
	/* tried outside the writers' lock, and nothing it read changed */
	int rc = svc_guard_trial_use(s, tried, c, optext, oplen, pkey, now,
				     then, &judged, e);
	if (judged)
		return rc;
	bool unlock = !s->store_url;
	if (unlock)
		pthread_mutex_unlock(&s->lock);
	if (s->guard_hook)
		s->guard_hook(s->guard_hook_arg);
	rc = svc_guard_incremental(s, c, gives_up, optext, oplen, opc, pkey,
				   now, then, &judged, e);
	if (!rc && !judged &&
	    (svc_render(optext, oplen, svc_wplan(s), &before, &blen) ||
	     svc_render(optext, oplen, np, &after, &alen)))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	if (!rc && !judged)
		rc = svc_guard(s, c, gives_up, before, blen, after, alen, e);
	free(before);
	free(after);
	if (unlock)
		pthread_mutex_lock(&s->lock);
	return rc;
}

/* Under both locks: the kept answer written (guard_rw), waiting for
 * the changes being tried on it - without the lock, so that the reads
 * never wait for them.  With a shared store nothing is tried and the
 * lock covers its transaction: kept. */
static void guard_write(ibp_service *s)
{
	if (s->store_url || !pthread_rwlock_trywrlock(&s->guard_rw)) {
		if (s->store_url)
			pthread_rwlock_wrlock(&s->guard_rw);
		return;
	}
	pthread_mutex_unlock(&s->lock);
	pthread_rwlock_wrlock(&s->guard_rw);
	pthread_mutex_lock(&s->lock);
}

/* With a shared store, under both locks: the change committed at once,
 * into the store and the local database, and published. */
static int commit_now(ibp_service *s, struct ibp_service_caller *c,
		      const char *op, uint16_t pkey, struct svc_plan *np,
		      uint64_t *rev, struct ibp_service_error *e)
{
	struct svc_snap *snap = svc_snap_new();
	int rc = snap ? IBP_OK : svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	if (!rc &&
	    (rc = svc_store_commit(s, np, &pkey, 1, s->rev + 1, op, &e->err)))
		e->unavailable = true;
	if (!rc)
		rc = svc_db_commit(s, np, &pkey, 1, s->rev + 1, op, &e->err);
	if (rc) {
		free(snap);
		return rc;
	}
	s->rev++;
	atomic_fetch_add(&s->commits, 1);
	if (c && c->warnings)
		svc_keep_warnings(s, s->rev, c->user, strdup(c->warnings));
	svc_plan_publish(s, snap, np);
	svc_writers_follow(s);
	if (rev)
		*rev = s->rev;
	svc_guard_committed(s, true);
	pthread_cond_broadcast(&s->changed);
	return IBP_OK;
}

/* Under both locks: everything after the request was read.  The change
 * judged is queued for the group commit (d: what to wait for), or
 * committed at once with a shared store. */
static int commit_locked(ibp_service *s, struct ibp_service_caller *c,
			 const char *op, uint16_t pkey, struct svc_plan *np,
			 uint64_t *rev, struct durable *d,
			 struct svc_guard_trial *tried,
			 struct ibp_service_error *e)
{
	guard_write(s);
	char *optext = NULL;
	size_t oplen = 0;
	struct svc_opc *opc = NULL;
	int rc = operator_lines(s, &optext, &oplen, &opc, &e->err);
	if (rc) {
		svc_fail(e, IBP_EIO, NULL, "%s", e->err.message);
		goto out;
	}
	/* the operator's P_Key is theirs - but where the API holds it too
	 * (a clash: the file is not written), the API may give it up or
	 * remove its members */
	bool gives_up = only_removes(svc_plan_find(svc_wplan(s), pkey),
				     svc_plan_find(np, pkey));
	if (ibp_conf_group_find(opc->conf, pkey) && !gives_up) {
		e->conflict = true;
		rc = svc_fail(e, IBP_EINVAL, "pkey",
			      "pkey: 0x%x is defined by the operator's own "
			      "lines of %s; the API may change it only once "
			      "it is adopted",
			      pkey, s->partitions_path);
		goto out;
	}
	if (svc_part_equal(svc_plan_find(svc_wplan(s), pkey),
			   svc_plan_find(np, pkey))) {
		if (rev)
			*rev = s->wrev; /* nothing changes */
		/* answered once what it saw is durable */
		d->rev = s->store_url ? 0 : s->wrev;
		goto out;
	}
	if ((rc = check_name(opc->conf, np, pkey, e)) ||
	    (rc = judge(s, c, gives_up, optext, oplen, opc->conf, pkey, np,
			tried, e)))
		goto out;
	if (s->store_url) {
		rc = commit_now(s, c, op, pkey, np, rev, e);
	} else if (!(rc = svc_commit_enqueue(s, d->epoch, op, pkey, np, c,
					     &d->rev, e))) {
		if (rev)
			*rev = d->rev;
		svc_guard_committed(s, true);
	}
out:
	if (rc)
		svc_guard_committed(s, false);
	pthread_rwlock_unlock(&s->guard_rw);
	opc_put(opc);
	free(optext);
	return rc;
}

/* The change of r tried on the kept answer before the writers' lock is
 * taken (service_guard_state.c, "Trials"), on the writers' plan the
 * kept answer holds: NULL when it cannot be (the writers' path judges
 * it as before).  The guard hook is called inside, so a test can hold
 * two changes there at once. */
static struct svc_guard_trial *try_change(ibp_service *s, ibp_service_op op,
					  const struct req *r)
{
	char *optext = NULL;
	size_t oplen = 0;
	struct svc_opc *opc = NULL;
	struct svc_snap *snap = NULL;
	pthread_mutex_lock(&s->lock);
	int rc = operator_lines(s, &optext, &oplen, &opc, NULL);
	pthread_mutex_unlock(&s->lock);
	struct svc_guard_trial *t = NULL;
	if (!rc && svc_guard_trial_begin(s, &snap)) {
		struct svc_part *before = svc_plan_find(&snap->plan, r->pkey);
		struct svc_plan one = {0};
		struct svc_plan src = {.n = 1, .cap = 1, .p = before};
		struct ibp_service_error e;
		ibp_service_error_init(&e);
		bool ok = (!before || !svc_plan_clone(&src, &one)) &&
			  !mutate(&one, op, r, &e);
		struct svc_part *after = svc_plan_find(&one, r->pkey);
		if (ok && !only_removes(before, after) &&
		    !svc_part_equal(before, after))
			t = svc_guard_try(s, optext, oplen, opc->conf, r->pkey,
					  before, after);
		if (t && s->guard_hook)
			s->guard_hook(s->guard_hook_arg);
		svc_guard_trial_end(s);
		ibp_service_error_clear(&e);
		svc_plan_free(&one);
		svc_snap_put(snap);
	}
	opc_put(opc);
	free(optext);
	return t;
}

int ibp_service_change(ibp_service *s, ibp_service_op op, const char *body,
		       size_t len, uint64_t *rev, struct ibp_service_error *e)
{
	return ibp_service_change_as(s, NULL, op, body, len, rev, e);
}

int ibp_service_change_as(ibp_service *s, struct ibp_service_caller *c,
			  ibp_service_op op, const char *body, size_t len,
			  uint64_t *rev, struct ibp_service_error *e)
{
	if ((unsigned)op > IBP_SERVICE_REMOVE_GUIDS)
		return svc_fail(e, IBP_EINVAL, NULL, "unknown operation");
	int rc = svc_caller_check(c, e);
	if (rc)
		return rc;
	struct req r = {0};
	rc = read_req(op, body, len, &r, e);
	if (rc) {
		req_free(&r);
		return rc;
	}
	/* judged first outside the writers' lock, at once with others */
	struct svc_guard_trial *tried = try_change(s, op, &r);
	pthread_mutex_lock(&s->write_lock);
	pthread_mutex_lock(&s->lock);
	struct svc_plan np = {0};
	struct durable d;
	if (!(rc = writers_start(s, &d, e)))
		rc = svc_plan_clone(svc_wplan(s), &np)
			 ? svc_fail(e, IBP_ENOMEM, NULL, "out of memory")
			 : mutate(&np, op, &r, e);
	if (!rc)
		rc = commit_locked(s, c, op_names[op], r.pkey, &np, rev, &d,
				   tried, e);
	rc = writers_end(s, rc, &np, &d, e);
	svc_guard_trial_free(tried);
	req_free(&r);
	return rc;
}

/* Parse a P_Key from a path; a conflict (409) when the operator's lines
 * define it, IBP_ENOENT (404) when nobody does.  Under the lock. */
static int path_pkey(ibp_service *s, const char *text, uint16_t *pkey,
		     struct ibp_service_error *e)
{
	int rc = svc_parse_pkey_text(text, "pkey", pkey, e);
	if (rc || svc_plan_find(svc_wplan(s), *pkey))
		return rc;
	char *optext = NULL;
	size_t oplen = 0;
	struct svc_opc *opc = NULL;
	bool operators = !operator_lines(s, &optext, &oplen, &opc, NULL) &&
			 ibp_conf_group_find(opc->conf, *pkey);
	opc_put(opc);
	free(optext);
	if (operators) {
		e->conflict = true;
		return svc_fail(e, IBP_EINVAL, "pkey",
				"pkey: 0x%x is defined by the operator's own "
				"lines of %s",
				*pkey, s->partitions_path);
	}
	return svc_fail(e, IBP_ENOENT, "pkey",
			"pkey: no partition 0x%x managed by ibpartd", *pkey);
}

int ibp_service_delete_pkey(ibp_service *s, const char *pkey, uint64_t *rev,
			    struct ibp_service_error *e)
{
	uint16_t pk;
	struct svc_plan np = {0};
	struct durable d;
	pthread_mutex_lock(&s->write_lock);
	pthread_mutex_lock(&s->lock);
	int rc = writers_start(s, &d, e);
	if (!rc)
		rc = path_pkey(s, pkey, &pk, e);
	if (!rc && svc_plan_clone(svc_wplan(s), &np))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	if (!rc) {
		svc_plan_remove(&np, pk);
		rc = commit_locked(s, NULL, OP_DELETE, pk, &np, rev, &d, NULL,
				   e);
	}
	return writers_end(s, rc, &np, &d, e);
}

int ibp_service_remove_guids_csv(ibp_service *s, const char *pkey,
				 const char *csv, uint64_t *rev,
				 struct ibp_service_error *e)
{
	uint16_t pk;
	struct req r = {0};
	char *copy = strdup(csv);
	if (!copy)
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	int rc = svc_parse_pkey_text(pkey, "pkey", &pk, e);
	size_t cap = 1;
	for (const char *c = csv; *c; c++)
		cap += *c == ',';
	r.pkey = pk;
	r.guids = calloc(cap, sizeof(*r.guids));
	if (!rc && !r.guids)
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	char *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); !rc && t;
	     t = strtok_r(NULL, ",", &save)) {
		char field[32];
		snprintf(field, sizeof(field), "guids[%zu]", r.n);
		rc = svc_parse_guid(t, field, &r.guids[r.n++], e);
	}
	if (!rc && !r.n)
		rc = svc_fail(e, IBP_EINVAL, "guids", "guids: none given");
	free(copy);
	struct svc_plan np = {0};
	struct durable d = {0};
	pthread_mutex_lock(&s->write_lock);
	pthread_mutex_lock(&s->lock);
	if (!rc)
		rc = writers_start(s, &d, e);
	if (!rc)
		rc = path_pkey(s, pkey, &pk, e);
	if (rc == IBP_ENOENT) { /* already gone: done, as the POST answers */
		ibp_service_error_clear(e);
		rc = IBP_OK;
	}
	if (!rc && svc_plan_clone(svc_wplan(s), &np))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	if (!rc)
		rc = mutate(&np, IBP_SERVICE_REMOVE_GUIDS, &r, e);
	if (!rc)
		rc = commit_locked(s, NULL, op_names[IBP_SERVICE_REMOVE_GUIDS],
				   pk, &np, rev, &d, NULL, e);
	rc = writers_end(s, rc, &np, &d, e);
	req_free(&r);
	return rc;
}

/* ------------------------------------------------------ reading */

static int dump(json_t *o, char **json, struct ibp_service_error *e)
{
	return svc_json_take(o, json)
		   ? IBP_OK
		   : svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
}

/* Under the lock, briefly: the operator's lines and the plan as
 * published, both by reference, so a read renders without the lock
 * (and never waits for a change's guard, which runs without it). */
static int read_refs(ibp_service *s, struct svc_opc **opc,
		     struct svc_snap **snap, struct ibp_service_error *e)
{
	char *optext = NULL;
	size_t oplen = 0;
	pthread_mutex_lock(&s->lock);
	int rc = operator_lines(s, &optext, &oplen, opc, &e->err);
	*snap = rc ? NULL : svc_snap_get(s);
	pthread_mutex_unlock(&s->lock);
	free(optext);
	return rc ? svc_fail(e, rc, NULL, "%s", e->err.message) : IBP_OK;
}

int ibp_service_list(ibp_service *s, bool guids_data, bool qos_conf,
		     char **json, struct ibp_service_error *e)
{
	*json = NULL;
	struct svc_opc *opc = NULL;
	struct svc_snap *snap = NULL;
	int rc = read_refs(s, &opc, &snap, e);
	if (!rc &&
	    svc_json_list(&snap->plan, opc->conf, guids_data, qos_conf, json))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	svc_snap_put(snap);
	opc_put(opc);
	return rc;
}

int ibp_service_get(ibp_service *s, const char *pkey, bool guids_data,
		    bool qos_conf, char **json, struct ibp_service_error *e)
{
	*json = NULL;
	uint16_t pk;
	int rc = svc_parse_pkey_text(pkey, "path", &pk, e);
	if (rc) {
		snprintf(e->field, sizeof(e->field), "pkey");
		return rc;
	}
	struct svc_opc *opc = NULL;
	struct svc_snap *snap = NULL;
	json_t *v = NULL;
	if ((rc = read_refs(s, &opc, &snap, e)))
		return rc;
	const ibp_conf_group *g = ibp_conf_group_find(opc->conf, pk);
	struct svc_part *p = svc_plan_find(&snap->plan, pk);
	v = g	? svc_json_operator(g, guids_data, qos_conf)
	    : p ? svc_json_part(p, guids_data, qos_conf)
	    : pk == IBP_CONF_DEFAULT_PKEY
		? svc_json_default(guids_data, qos_conf)
		: NULL;
	svc_snap_put(snap);
	opc_put(opc);
	if (!v)
		return svc_fail(e, IBP_ENOENT, "pkey",
				"pkey: no partition 0x%x", pk);
	return dump(v, json, e);
}

/* ------------------------------------------------------ the file */

/* The file for the plan published: the operator's lines (last seen,
 * when the file cannot be trusted) and the generated section; problem
 * says what keeps it from being written ("" when nothing), *rev (may be
 * NULL) the revision it renders.  for_opensm: the file OpenSM is given
 * (with --vf-guids physical, the aliases on their ports:
 * service_vf.c), else the plan as the clients sent it.  Takes the lock
 * only to take the operator's lines and the plan by reference: the
 * rendering runs without it, so a change's commit does not wait for it
 * (the file's own write even less: ibp_service_write_partitions). */
static int render_file(ibp_service *s, char **text, size_t *len, char *problem,
		       size_t psize, bool for_opensm, uint64_t *rev,
		       ibp_error *err)
{
	char *optext = NULL;
	size_t oplen = 0;
	struct svc_opc *opc = NULL;
	struct svc_snap *snap = NULL;
	ibp_error pe;
	ibp_error_clear(&pe);
	pthread_mutex_lock(&s->lock);
	int rc = svc_operator_text(s, &optext, &oplen, problem, psize, err);
	/* an operator's file OpenSM cannot read is OpenSM's problem to
	 * report, as before: written all the same (the reading kept while
	 * the lines stay the same, as a change's) */
	if (!rc && !operator_reading(s, optext, oplen, &opc, &pe))
		svc_file_problem(s, opc->conf, problem, psize);
	opc_put(opc);
	if (!rc)
		snap = svc_snap_get(s);
	if (rev)
		*rev = s->rev;
	pthread_mutex_unlock(&s->lock);
	if (!rc && svc_render(optext, oplen, &snap->plan, text, len))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	svc_snap_put(snap);
	free(optext);
	if (!rc && for_opensm && s->vf_guids == IBP_VF_GUIDS_PHYSICAL) {
		char *phys = NULL;
		size_t plen = 0;
		rc = svc_vf_physical_file(s, *text, *len, &phys, &plen, err);
		free(*text);
		*text = phys;
		*len = plen;
	}
	return rc;
}

int svc_render_plan(ibp_service *s, char **text, size_t *len, ibp_error *err)
{
	char problem[8];
	return render_file(s, text, len, problem, sizeof(problem), false, NULL,
			   err);
}

bool ibp_service_file_problem(ibp_service *s, char *problem, size_t size)
{
	char *text = NULL;
	size_t len = 0;
	ibp_error err;
	int rc = render_file(s, &text, &len, problem, size, false, NULL, &err);
	free(text);
	if (rc)
		snprintf(problem, size, "%s", err.message);
	return problem[0] != 0;
}

int ibp_service_render(ibp_service *s, char **text, size_t *len, uint64_t *rev,
		       ibp_error *err)
{
	char problem[8];
	return render_file(s, text, len, problem, sizeof(problem), true, rev,
			   err);
}

int ibp_service_write_partitions(ibp_service *s, uint64_t *rev, ibp_error *err)
{
	char *text = NULL, problem[512];
	size_t len = 0;
	/* one writer of the file at a time (adopt writes it too), and no
	 * lock of the changes held through its fsync */
	pthread_mutex_lock(&s->file_lock);
	pthread_mutex_lock(&s->lock);
	bool unsynced = s->store_url && !s->store_synced;
	int rc = unsynced ? ibp_error_set(err, IBP_EIO,
					  "the shared store has not been "
					  "reached since the start: the file "
					  "is left as it is (%s)",
					  s->store_error)
			  : IBP_OK;
	if (rev)
		*rev = s->rev;
	pthread_mutex_unlock(&s->lock);
	if (!rc)
		rc = render_file(s, &text, &len, problem, sizeof(problem), true,
				 rev, err);
	if (!rc && problem[0]) /* the last good file stays */
		rc = ibp_error_set(err, IBP_EBUSY, "%s", problem);
	if (!rc)
		rc = ibp_write_file_atomic(s->partitions_path, text, len, true,
					   err);
	pthread_mutex_unlock(&s->file_lock);
	free(text);
	return rc;
}

int ibp_service_web_html(ibp_service *s, char **html, size_t *len,
			 ibp_error *err)
{
	return ibp_service_web_html_extras(s, NULL, html, len, err);
}

int ibp_service_web_html_extras(ibp_service *s, const ibp_web_extras *more,
				char **html, size_t *len, ibp_error *err)
{
	char *text = NULL, problem[512];
	size_t tlen = 0;
	int rc = render_file(s, &text, &tlen, problem, sizeof(problem), false,
			     NULL, err);
	uint64_t rev = ibp_service_revision(s);
	ibp_service_state st = IBP_SERVICE_PENDING;
	char reason[300] = "", status[1000];
	ibp_error e2;
	if (rev)
		ibp_service_revision_state(s, rev, &st, reason, sizeof(reason),
					   &e2);
	snprintf(status, sizeof(status),
		 "revision %llu in the database (%s%s%s), %llu verified on the "
		 "fabric%s%s",
		 (unsigned long long)rev, rev ? ibp_service_state_str(st) : "",
		 reason[0] ? ": " : "", reason,
		 (unsigned long long)ibp_service_fabric_revision(s),
		 problem[0] ? "; the partitions file is NOT WRITTEN: " : "",
		 problem);
	ibp_findings *f = NULL;
	if (!rc)
		rc = svc_audit_text(s, text, tlen, &f, NULL, err);
	if (!rc)
		rc = svc_web_html(s, text, tlen, status, more, f, html, len,
				  err);
	ibp_findings_free(f);
	free(text);
	return rc;
}
