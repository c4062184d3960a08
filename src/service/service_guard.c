/*
 * service_guard.c - the isolation guard: a change is judged by what it
 * introduces.  The file before and the file after are both read as
 * OpenSM reads them (a change that makes OpenSM reject the file, or adds
 * errors to it, is refused) and, with a topology, both audited as
 * `ibpart audit` audits them (src/analysis/): a finding at high or above
 * in the after-audit with no equal finding (code, ports, partitions) in
 * the before-audit refuses the change with the findings.  Findings that
 * were already there never block a call.  A table overflow is judged by
 * service_capacity.c instead of the audit (which counts P_Keys against
 * the topology's PartitionCap): with the PartitionCaps discovery read
 * and OpenSM's index memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/analysis_input.h"
#include "analysis/analysis_input_lib.h"
#include "service/service_internal.h"
#include "analysis/analysis_lib.h"
#include "conf/conf_lib.h"

/* OpenSM's reading: errors, or the whole file rejected. */
static int conf_errors(const ibp_service *s, const char *text, size_t len,
		       size_t *errors, bool *rejected, ibp_error *err)
{
	ibp_conf *c = NULL;
	int rc = svc_parse_conf(s, "partitions.conf", text, len, &c, err);
	if (rc)
		return rc;
	*errors = ibp_conf_error_count(c);
	*rejected = ibp_conf_opensm_verdict(c)->rejected;
	ibp_conf_free(c);
	return IBP_OK;
}

/* The analysis input of text (the plan handed over as the buffer it
 * is) on the fabric of topology t, which it borrows: the audit's, the
 * web page's (service_web.c) and the guard's kept answer's
 * (service_guard_state.c).  No reader loads the topology file itself. */
int svc_topology_input(const ibp_service *s, const struct svc_topology *t,
		       const char *text, size_t len, ibp_analysis_input **in,
		       ibp_error *err)
{
	*in = NULL;
	ibp_analysis_input_options o;
	ibp_analysis_input_options_init(&o, IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	o.fabric = svc_topology_fabric(t);
	char *aliases = svc_alias_path(s);
	o.alias_guids_path = aliases;	  /* shared-physical-port */
	o.plan_path = s->partitions_path; /* names it in messages */
	o.plan_text = text;
	o.plan_len = len;
	o.sm_port = s->sm_port;
	o.vf_guids = svc_vf_reading(s); /* what the file OpenSM gets
					   programs */
	o.vports = s->vports;
	int rc = ibp_analysis_input_load(&o, in, NULL, err);
	free(aliases);
	return rc;
}

int svc_held_input(const ibp_service *s, const char *text, size_t len,
		   ibp_analysis_input **in, struct svc_topology **t,
		   ibp_error *err)
{
	*in = NULL;
	ibp_service *w = (ibp_service *)s; /* the topology's lock only */
	int rc = svc_topology_get(w, t, err);
	if (!rc)
		rc = svc_topology_input(s, *t, text, len, in, err);
	return rc;
}

void svc_held_input_free(const ibp_service *s, ibp_analysis_input *in,
			 struct svc_topology *t)
{
	ibp_analysis_input_free(in); /* borrows t's fabric: first */
	if (t)
		svc_topology_put((ibp_service *)s, t);
}

char *svc_alias_path(const ibp_service *s)
{
	ibp_service *w = (ibp_service *)s; /* the lock only */
	pthread_mutex_lock(&w->alias_lock);
	char *p = s->alias_guids_path ? strdup(s->alias_guids_path) : NULL;
	pthread_mutex_unlock(&w->alias_lock);
	return p;
}

int ibp_service_set_alias_guids(ibp_service *s, const char *path,
				ibp_error *err)
{
	char *p = NULL;
	if (path && !(p = strdup(path)))
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	/* the writers' lock first: a change being judged uses the kept
	 * answer with the service's lock dropped */
	pthread_mutex_lock(&s->write_lock);
	pthread_mutex_lock(&s->lock);
	pthread_mutex_lock(&s->alias_lock);
	char *old = s->alias_guids_path;
	s->alias_guids_path = p;
	pthread_mutex_unlock(&s->alias_lock);
	/* the kept answer classified GUIDs with the old map, and what the
	 * views show moved */
	pthread_rwlock_wrlock(&s->guard_rw); /* no change tried on it */
	svc_guard_base_free(s, s->guard);
	s->guard = NULL;
	pthread_rwlock_unlock(&s->guard_rw);
	s->view_gen++;
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->write_lock);
	free(old);
	return IBP_OK;
}

int svc_audit_on(const ibp_service *s, const struct svc_topology *t,
		 const char *text, size_t len, ibp_findings **out,
		 ibp_error *err)
{
	*out = NULL;
	ibp_analysis_input *in = NULL;
	int rc = svc_topology_input(s, t, text, len, &in, err);
	if (!rc)
		rc = ibp_analysis_input_audit(in, NULL, NULL, out, err);
	ibp_analysis_input_free(in);
	return rc;
}

/* The audit of text on the topology the service holds
 * (service_topology.c: read once, again only when the file changes),
 * not on the file read anew: the guard's whole audits read no topology
 * text. */
static int audit(const ibp_service *s, const char *text, size_t len,
		 ibp_findings **out, ibp_error *err)
{
	*out = NULL;
	ibp_service *w = (ibp_service *)s; /* the topology's lock only */
	struct svc_topology *t = NULL;
	int rc = svc_topology_get(w, &t, err);
	if (!rc)
		rc = svc_audit_on(s, t, text, len, out, err);
	if (t)
		svc_topology_put(w, t);
	return rc;
}

static bool same(const ibp_finding *a, const ibp_finding *b)
{
	return !strcmp(a->code, b->code) && a->nports == b->nports &&
	       a->npartitions == b->npartitions &&
	       (!a->nports ||
		!memcmp(a->ports, b->ports, a->nports * sizeof(*a->ports))) &&
	       (!a->npartitions ||
		!memcmp(a->partitions, b->partitions,
			a->npartitions * sizeof(*a->partitions)));
}

static bool known(const ibp_findings *before, const ibp_finding *f)
{
	for (size_t i = 0; before && i < ibp_findings_count(before); i++)
		if (same(ibp_findings_get(before, i), f))
			return true;
	return false;
}

/* Does c's policy only warn of code? */
static bool warns(const struct ibp_service_caller *c, const char *code)
{
	for (size_t i = 0; c && c->warn_rules && c->warn_rules[i]; i++)
		if (!strcmp(c->warn_rules[i], "*") ||
		    !strcmp(c->warn_rules[i], code))
			return true;
	return false;
}

int svc_caller_warn(struct ibp_service_caller *c, json_t *arr)
{
	if (!c || !json_array_size(arr)) {
		json_decref(arr);
		return IBP_OK;
	}
	json_t *all = c->warnings ? json_loads(c->warnings, 0, NULL) : NULL;
	if (!json_is_array(all)) {
		json_decref(all);
		all = json_array();
	}
	int rc = all && !json_array_extend(all, arr) ? IBP_OK : IBP_ENOMEM;
	char *text = rc ? NULL : json_dumps(all, JSON_COMPACT);
	if (!rc && text) {
		free(c->warnings);
		c->warnings = text;
	} else {
		rc = IBP_ENOMEM;
	}
	json_decref(all);
	json_decref(arr);
	return rc;
}

/* The findings as the JSON array the answers carry (NULL on ENOMEM). */
static json_t *findings_array(const ibp_findings *fs)
{
	char *j = ibp_findings_to_json(fs);
	json_t *doc = j ? json_loads(j, 0, NULL) : NULL;
	json_t *arr = json_incref(json_object_get(doc, "findings"));
	json_decref(doc);
	free(j);
	return arr;
}

int svc_guard_refuse(const ibp_findings *before, const ibp_findings *after,
		     const ibp_findings *capacity, struct ibp_service_caller *c,
		     struct ibp_service_error *e)
{
	ibp_findings *fresh = ibp_findings_new(), *warned = ibp_findings_new();
	if (!fresh || !warned) {
		ibp_findings_free(fresh);
		ibp_findings_free(warned);
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	const ibp_finding *first = NULL;
	size_t nc = capacity ? ibp_findings_count(capacity) : 0;
	for (size_t i = 0; i < nc + ibp_findings_count(after); i++) {
		const ibp_finding *f = i < nc ? ibp_findings_get(capacity, i)
					      : ibp_findings_get(after, i - nc);
		if (f->severity < IBP_AUDIT_HIGH ||
		    (i >= nc && (known(before, f) ||
				 !strcmp(f->code, "capacity-overflow"))))
			continue;
		bool warn = warns(c, f->code);
		if (!first && !warn)
			first = f;
		ibp_findings_add(warn ? warned : fresh, f->code, f->severity,
				 f->ports, f->nports, f->partitions,
				 f->npartitions, f->fix, "%s", f->message);
	}
	int rc = IBP_OK;
	if (first) {
		rc = svc_fail(e, IBP_EINVAL, NULL,
			      "the isolation guard refuses the change: %s "
			      "(%s): %s",
			      first->code,
			      ibp_audit_severity_str(first->severity),
			      first->message);
		e->conflict = true;
		json_t *arr = findings_array(fresh);
		e->findings = arr ? json_dumps(arr, JSON_COMPACT) : NULL;
		json_decref(arr);
	} else if (ibp_findings_count(warned) &&
		   svc_caller_warn(c, findings_array(warned))) {
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	ibp_findings_free(fresh);
	ibp_findings_free(warned);
	return rc;
}

/* A change that only removes (members, or the whole P_Key) can only
 * reduce reach: never refused.  The high findings left in the plan after
 * it go to c's warnings (the answer's extra fields), so an orchestrator
 * revoking access learns that bridges remain without looping on a 409. */
int svc_guard_remaining(const ibp_findings *after, struct ibp_service_caller *c,
			struct ibp_service_error *e)
{
	ibp_findings *high = ibp_findings_new();
	if (!high)
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; after && i < ibp_findings_count(after); i++) {
		const ibp_finding *f = ibp_findings_get(after, i);
		if (f->severity >= IBP_AUDIT_HIGH)
			ibp_findings_add(high, f->code, f->severity, f->ports,
					 f->nports, f->partitions,
					 f->npartitions, f->fix, "%s",
					 f->message);
	}
	int rc = IBP_OK;
	if (ibp_findings_count(high) &&
	    svc_caller_warn(c, findings_array(high)))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	ibp_findings_free(high);
	return rc;
}

int svc_guard(ibp_service *s, struct ibp_service_caller *c, bool removes_only,
	      const char *before, size_t blen, const char *after, size_t alen,
	      struct ibp_service_error *e)
{
	size_t be = 0, ae = 0;
	bool brej = false, arej = false;
	int rc = conf_errors(s, before, blen, &be, &brej, &e->err);
	if (!rc)
		rc = conf_errors(s, after, alen, &ae, &arej, &e->err);
	if (rc)
		return rc;
	if ((arej && !brej) || ae > be) {
		e->conflict = true;
		return svc_fail(e, IBP_EINVAL, NULL,
				"the isolation guard refuses the change: "
				"OpenSM would %s the partition file",
				arej ? "reject" : "misread");
	}
	if (!s->topology_path)
		return IBP_OK;
	ibp_findings *fb = NULL, *fa = NULL, *fc = NULL;
	ibp_error ignore;
	if (removes_only) {
		audit(s, after, alen, &fa, &ignore);
		rc = svc_guard_remaining(fa, c, e);
		ibp_findings_free(fa);
		return rc;
	}
	s->guard_full++;
	audit(s, before, blen, &fb, &ignore); /* a bad before blocks nothing */
	rc = audit(s, after, alen, &fa, &e->err);
	if (!rc)
		rc = svc_capacity_findings(s, before, blen, after, alen, &fc,
					   &e->err);
	if (rc) {
		e->conflict = true;
		rc = svc_fail(e, IBP_EINVAL, NULL,
			      "the isolation guard cannot audit the changed "
			      "plan: %s",
			      e->err.message);
	} else {
		rc = svc_guard_refuse(fb, fa, fc, c, e);
	}
	ibp_findings_free(fc);
	ibp_findings_free(fb);
	ibp_findings_free(fa);
	return rc;
}

int svc_audit(const ibp_service *s, const char *text, size_t len,
	      ibp_findings **out, ibp_error *err)
{
	*out = NULL;
	if (!s->topology_path)
		return ibp_error_set(err, IBP_ENOENT,
				     "no topology: ibpartd was started "
				     "without --topology");
	return audit(s, text, len, out, err);
}
