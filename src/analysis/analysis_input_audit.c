/*
 * analysis_input_audit.c - the audit of an analysis input in one call
 * (ibp_analysis_input_audit, analysis_input.h): the plan's own findings,
 * then every rule the inputs allow, sorted.  `ibpart audit` and the
 * service's guard on every change run this same call, so they cannot
 * disagree on what a plan's findings are.
 */
#include <stdlib.h>

#include "ibpart/analysis_input.h"
#include "analysis/analysis_input_lib.h"
#include "analysis/analysis_lib.h"
#include "policy/opensm_conf_lib.h"
#include "util/options_version.h"

int ibp_analysis_input_audit(const ibp_analysis_input *in,
			     const ibp_tenant_map *tenants,
			     const ibp_osm_conf *osm, ibp_findings **out,
			     ibp_error *err)
{
	*out = ibp_findings_new();
	if (!*out)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_audit_input ai;
	ibp_analysis_input_audit_input(in, &ai);
	ai.tenants = tenants;
	ai.osm = osm;
	int rc = ibp_analysis_input_plan_findings(in, tenants, *out);
	if (rc)
		ibp_error_set(err, rc, "out of memory");
	else
		rc = ibp_audit_run(&ai, *out, err);
	if (rc) {
		ibp_findings_free(*out);
		*out = NULL;
		return rc;
	}
	ibp_findings_sort(*out);
	return IBP_OK;
}

/* The opensm.conf key rules (analysis_audit.c, rule_keys). */
#define KEY_RULES                                                              \
	"smkey-default, sakey-default, sm-guids-open, mkey-per-port-off, "     \
	"sa-trust-basic"

IBP_OPTIONS_LAYOUT(audit_files_options_layout, "audit files options",
		   IBP_AUDIT_FILES_OPTIONS_VERSION,
		   sizeof(struct ibp_audit_files_options));

/* The library's defaults, a whole current struct. */
static void audit_files_options_defaults(struct ibp_audit_files_options *o)
{
	*o = (struct ibp_audit_files_options){IBP_AUDIT_FILES_OPTIONS_VERSION};
}

void ibp_audit_files_options_init(struct ibp_audit_files_options *o,
				  unsigned version)
{
	struct ibp_audit_files_options d;
	audit_files_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &audit_files_options_layout);
}

int ibp_analysis_input_audit_files(const ibp_analysis_input *in,
				   const struct ibp_audit_files_options *o,
				   ibp_findings **out, const char **unchecked,
				   ibp_diags *diags, ibp_error *err)
{
	*out = NULL;
	struct ibp_audit_files_options own;
	audit_files_options_defaults(&own);
	if (ibp_options_take(&own, o, &audit_files_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	ibp_tenant_map *tm = NULL;
	ibp_osm_conf osm = {.version = IBP_OSM_CONF_VERSION};
	int rc = IBP_OK;
	if (o->tenants_path)
		rc = ibp_tenant_map_load_limit(
		    ibp_analysis_input_fabric(in), o->tenants_path,
		    o->max_input_size, &tm, diags, err);
	/* values OpenSM reads otherwise than written: warnings */
	if (!rc && o->opensm_conf_path)
		rc = ibp_osm_conf_load_limit_diags(
		    o->opensm_conf_path, o->max_input_size, &osm, diags, err);
	const ibp_osm_conf *po = o->opensm_conf_path ? &osm : NULL;
	if (!rc)
		rc = ibp_analysis_input_audit(in, tm, po, out, err);
	if (!rc && unchecked)
		*unchecked = ibp_analysis_input_unchecked(in, po);
	ibp_tenant_map_free(tm);
	return rc;
}

const char *ibp_analysis_input_unchecked(const ibp_analysis_input *in,
					 const ibp_osm_conf *osm)
{
	if (osm)
		return NULL;
	/* Switch enforcement read from a tables file feeds the
	 * part-enforce rules without opensm.conf. */
	return ibp_analysis_input_has_enforcement(in)
		   ? "mkey-not-set, mkey-readable, " KEY_RULES
		   : "mkey-not-set, mkey-readable, part-enforce-off, "
		     "part-enforce-partial, " KEY_RULES;
}
