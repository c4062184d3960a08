/*
 * service_views.c - what ibpartd shows of the current plan (the file the
 * newest revision renders) on its topology, each the JSON the CLI prints
 * for the same input, made by the same library operations: the
 * P_KeyTables (`ibpart tables --format json`, ibp_tables_compute with
 * the service's opensm.conf), the reachability matrix (`ibpart matrix
 * --format json`), the audit with the opensm.conf (`ibpart audit
 * --opensm-conf --format json`), and the posture findings alone (the
 * audit's rules that only opensm.conf enables: M_Key, SM_Key, SA_Key,
 * switch enforcement) for GET /ibpart/v1/status.  The audit is one
 * function (svc_audit_text, with the opensm.conf when there is one):
 * GET /ibpart/v1/audit, the status's posture, the page's findings and
 * /metrics' ibpart_audit_findings all are its result (issue 26).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/analysis_input.h"
#include "analysis/analysis_input_lib.h"
#include "ibpart/tables_compute.h"
#include "ibpart/tables_json.h"
#include "service/service_internal.h"
#include "service/service_lib.h"
#include "report/report_lib.h"

static int no_topology(const ibp_service *s, ibp_error *err)
{
	return s->topology_path ? IBP_OK
				: ibp_error_set(err, IBP_ENOENT,
						"no topology: ibpartd was "
						"started without --topology");
}

/* The current plan's text (*text malloc'd), refused without a
 * topology. */
static int plan_text(ibp_service *s, char **text, size_t *len, ibp_error *err)
{
	*text = NULL;
	int rc = no_topology(s, err);
	return rc ? rc : svc_render_plan(s, text, len, err);
}

/* What fn writes to a memory stream, as *out (malloc'd). */
static int capture(int (*fn)(const void *ctx, FILE *f, ibp_error *err),
		   const void *ctx, char **out, ibp_error *err)
{
	size_t n = 0;
	FILE *f = open_memstream(out, &n);
	if (!f)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = fn(ctx, f, err);
	if (fclose(f) && !rc)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

static int write_tables(const void *ctx, FILE *f, ibp_error *err)
{
	const ibp_tables_result *r = ctx;
	return ibp_tables_write_json(r->tables,
				     ibp_policy_mode_str(IBP_POLICY_OPENSM),
				     r->sm_port_guid, f, err);
}

int ibp_service_tables_json(ibp_service *s, char **json, ibp_error *err)
{
	*json = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = plan_text(s, &text, &len, err);
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	if (!rc) {
		ibp_tables_compute_options o;
		ibp_tables_compute_options_init(
		    &o, IBP_TABLES_COMPUTE_OPTIONS_VERSION);
		o.topology_path = s->topology_path;
		o.plan_path = s->partitions_path; /* names it in messages */
		o.plan_text = text;
		o.plan_len = len;
		o.sm_port = s->sm_port;
		o.opensm_conf_path = s->opensm_conf_path;
		ibp_policy_options po;
		ibp_policy_options_init(&po, IBP_POLICY_OPTIONS_VERSION);
		po.allow_both_pkeys = s->allow_both_pkeys;
		o.policy = &po;
		o.allow_both_pkeys_given = s->allow_both_pkeys;
		char *aliases = svc_alias_path(s);
		o.alias_guids_path = aliases;
		o.vf_guids = svc_vf_reading(s);
		rc = ibp_tables_compute(&o, &r, NULL, err);
		free(aliases);
	}
	if (!rc)
		rc = capture(write_tables, &r, json, err);
	ibp_tables_result_free(&r);
	free(text);
	return rc;
}

struct matrix_ctx {
	const ibp_matrix *m;
	const ibp_analysis_input *in;
};

static int write_matrix(const void *ctx, FILE *f, ibp_error *err)
{
	const struct matrix_ctx *c = ctx;
	ibp_matrix_report_options ro = {
	    .version = IBP_MATRIX_REPORT_OPTIONS_VERSION,
	    .mode = ibp_analysis_input_mode(c->in),
	    .title = "partitions.conf: P_Key reachability",
	    .partition_names = ibp_analysis_input_partition_names(c->in),
	    .form = IBP_MATRIX_FORM_AUTO};
	return ibp_matrix_report(c->m, IBP_MATRIX_JSON, &ro, f, err);
}

int ibp_service_matrix_json(ibp_service *s, char **json, ibp_error *err)
{
	*json = NULL;
	char *text = NULL;
	size_t len = 0;
	ibp_analysis_input *in = NULL;
	struct svc_topology *t = NULL;
	ibp_matrix *m = NULL;
	int rc = plan_text(s, &text, &len, err);
	if (!rc)
		rc = svc_held_input(s, text, len, &in, &t, err);
	ibp_matrix_options mo;
	ibp_matrix_options_init(&mo, IBP_MATRIX_OPTIONS_VERSION);
	if (!rc)
		rc = ibp_matrix_build(ibp_analysis_input_tables(in), &mo, &m,
				      err);
	struct matrix_ctx c = {m, in};
	if (!rc)
		rc = capture(write_matrix, &c, json, err);
	ibp_matrix_free(m);
	svc_held_input_free(s, in, t);
	free(text);
	return rc;
}

int svc_audit_text(const ibp_service *s, const char *text, size_t len,
		   ibp_findings **f, const char **posture_codes, ibp_error *err)
{
	*f = NULL;
	ibp_analysis_input *in = NULL;
	struct svc_topology *t = NULL;
	int rc = no_topology(s, err);
	if (!rc)
		rc = svc_held_input(s, text, len, &in, &t, err);
	if (!rc) {
		struct ibp_audit_files_options fo;
		ibp_audit_files_options_init(&fo,
					     IBP_AUDIT_FILES_OPTIONS_VERSION);
		fo.opensm_conf_path = s->opensm_conf_path;
		rc =
		    ibp_analysis_input_audit_files(in, &fo, f, NULL, NULL, err);
		if (!rc)
			ibp_findings_sort(*f);
	}
	if (!rc && posture_codes)
		*posture_codes = ibp_analysis_input_unchecked(in, NULL);
	svc_held_input_free(s, in, t);
	return rc;
}

/* The one audit (svc_audit_text) of the current plan. */
static int audit_current(ibp_service *s, ibp_findings **f,
			 const char **posture_codes, ibp_error *err)
{
	*f = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = plan_text(s, &text, &len, err);
	if (!rc)
		rc = svc_audit_text(s, text, len, f, posture_codes, err);
	free(text);
	return rc;
}

int ibp_service_audit_findings(ibp_service *s, ibp_findings **out,
			       ibp_error *err)
{
	return audit_current(s, out, NULL, err);
}

int ibp_service_audit_json(ibp_service *s, char **json, ibp_error *err)
{
	*json = NULL;
	ibp_findings *f = NULL;
	int rc = audit_current(s, &f, NULL, err);
	if (!rc && !(*json = ibp_findings_to_json(f)))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_findings_free(f);
	return rc;
}

/* Is code one of the comma-separated codes? */
static bool listed(const char *codes, const char *code)
{
	size_t n = strlen(code);
	for (const char *c = codes; c && *c;) {
		size_t l = strcspn(c, ",");
		if (l == n && !strncmp(c, code, n))
			return true;
		c += l;
		c += strspn(c, ", ");
	}
	return false;
}

int ibp_service_posture_json(ibp_service *s, char **json, ibp_error *err)
{
	*json = NULL;
	if (!s->opensm_conf_path)
		return ibp_error_set(err, IBP_ENOENT,
				     "no opensm.conf: ibpartd was started "
				     "without --opensm-conf");
	ibp_findings *all = NULL, *mine = ibp_findings_new();
	const char *codes = NULL;
	int rc = mine ? audit_current(s, &all, &codes, err)
		      : ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < ibp_findings_count(all); i++) {
		const ibp_finding *x = ibp_findings_get(all, i);
		if (listed(codes, x->code) &&
		    ibp_findings_add(mine, x->code, x->severity, x->ports,
				     x->nports, x->partitions, x->npartitions,
				     x->fix, "%s", x->message))
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	if (!rc && !(*json = ibp_findings_to_json(mine)))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_findings_free(all);
	ibp_findings_free(mine);
	return rc;
}
