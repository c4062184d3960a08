/*
 * monitor_posture.c - what a monitor says about the fabric beside its
 * counters: the audit of the plan by severity (ibpart_audit_findings)
 * and the drift of the fabric's P_KeyTables from the plan by kind
 * (ibpart_drift_ports), counted and written one way for `ibpart
 * monitor` and ibpartd's /metrics (docs/monitoring.md).  The audit is
 * `ibpart audit`'s (analysis_input.h), the drift `ibpart verify`'s
 * (verify.h): the monitor only counts them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ibpart/analysis_input.h"
#include "analysis/analysis_input_lib.h"
#include "monitor/monitor_priv.h"
#include "analysis/analysis_lib.h"
#include "live/live_lib.h"
#include "live/verify_lib.h"
#include "policy/opensm_conf_lib.h"
#include "ibpart/sys/monitor.h"

/* The findings of f by severity into p (audit_known set); f NULL:
 * audit_known false. */
static void count_findings(struct ibp_monitor_posture *p, const ibp_findings *f)
{
	p->audit_known = f != NULL;
	for (int s = 0; s < IBP_MONITOR_SEVERITIES; s++)
		p->audit[s] =
		    f ? ibp_findings_count_severity(f, (ibp_audit_severity)s)
		      : 0;
}

/* The drift of a verification into p (drift_known set): the ports with
 * an item of each kind among the items that count as drift. */
static void count_drift(struct ibp_monitor_posture *p,
			const ibp_verify_result *r)
{
	p->drift_known = true;
	p->drifted =
	    ibp_drift_ports_by_kind(ibp_verify_result_drift(r),
				    ibp_verify_result_selection(r), p->drift);
}

void ibp_monitor_posture_prometheus(const struct ibp_monitor_posture *p,
				    FILE *out)
{
	if (p->audit_known) {
		fputs("# HELP ibpart_audit_findings Findings of the audit of "
		      "the plan, by severity.\n"
		      "# TYPE ibpart_audit_findings gauge\n",
		      out);
		for (int s = IBP_AUDIT_CRITICAL; s >= IBP_AUDIT_INFO; s--)
			fprintf(out,
				"ibpart_audit_findings{severity=\"%s\"} %zu\n",
				ibp_audit_severity_str((ibp_audit_severity)s),
				p->audit[s]);
	}
	if (p->drift_known) {
		fputs("# HELP ibpart_drift_ports Ports whose P_KeyTable "
		      "differed from the plan at the last verification, by "
		      "kind of difference.\n"
		      "# TYPE ibpart_drift_ports gauge\n",
		      out);
		for (int k = 0; k < IBP_MONITOR_DRIFT_KINDS; k++)
			fprintf(out, "ibpart_drift_ports{kind=\"%s\"} %zu\n",
				ibp_drift_kind_str((ibp_drift_kind)k),
				p->drift[k]);
	}
}

/* The audit of the plan on the session's fabric, as `ibpart audit`. */
static int audit(ibp_live *l, const struct ibp_monitor_options *o,
		 struct ibp_monitor_posture *p, ibp_diags *diags,
		 ibp_error *err)
{
	char sm[24];
	snprintf(sm, sizeof(sm), "0x%016" PRIx64, ibp_live_sm_port_guid(l));
	ibp_analysis_input_options ao;
	ibp_analysis_input_options_init(&ao,
					IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	ao.fabric = ibp_live_fabric(l);
	ao.plan_path = o->conf_path;
	ao.sm_port = sm;
	ao.max_input_size = o->max_input_size;
	if (o->mode && ibp_policy_mode_parse(o->mode, &ao.mode) == IBP_OK)
		ao.mode_given = true;
	ibp_analysis_input *in = NULL;
	ibp_findings *f = NULL;
	int rc = ibp_analysis_input_load(&ao, &in, diags, err);
	if (!rc)
		rc = ibp_analysis_input_audit(in, NULL, o->osm, &f, err);
	if (!rc)
		count_findings(p, f);
	ibp_findings_free(f);
	ibp_analysis_input_free(in);
	return rc;
}

int ibp_monitor_posture_compute(ibp_live *l,
				const struct ibp_monitor_options *o,
				struct ibp_monitor_posture *p,
				ibp_verify_result **verified, ibp_diags *diags,
				ibp_error *err)
{
	memset(p, 0, sizeof(*p));
	if (verified)
		*verified = NULL;
	struct ibp_monitor_options own;
	if (monitor_options_take(&own, o, err))
		return IBP_EINVAL;
	ibp_osm_conf osm; /* the caller's, as far as its version goes */
	if (own.osm && ibp_osm_conf_take(&osm, own.osm, err))
		return IBP_EINVAL;
	if (own.osm)
		own.osm = &osm;
	o = &own;
	if (o->version < 3 || !o->conf_path)
		return ibp_error_set(err, IBP_EINVAL,
				     "monitor posture: bad options (version, "
				     "the plan's path)");
	int rc = o->audit ? audit(l, o, p, diags, err) : IBP_OK;
	if (rc || !o->drift)
		return rc;
	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo, IBP_VERIFY_OPTIONS_VERSION);
	vo.conf_path = o->conf_path;
	if (o->mode)
		vo.mode = o->mode;
	vo.allow_both_pkeys = o->allow_both_pkeys;
	vo.compact_pkey_indexes = o->osm && !o->osm->keep_pkey_indexes;
	vo.max_input_size = o->max_input_size;
	ibp_verify_result *r = NULL;
	rc = ibp_verify(l, &vo, &r, diags, err);
	if (!rc)
		count_drift(p, r);
	if (!rc && verified)
		*verified = r; /* the caller's now */
	else
		ibp_verify_result_free(r);
	return rc;
}
