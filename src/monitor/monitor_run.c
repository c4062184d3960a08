/*
 * monitor_run.c - one sweep as `ibpart monitor` runs it: the counters
 * (monitor_sweep.c), the posture beside them (monitor_posture.c), the
 * result written in the format asked for to a file (whole, so
 * node_exporter's textfile collector never reads half a sweep) or a
 * stream, and the verdict the command's exit status is made of; and the
 * session the monitor runs over on the built-in simulated fabric.  The
 * command itself is argv -> these options -> this call.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "ibpart/sys/transport_sim.h"
#include "monitor/monitor_priv.h"
#include "analysis/analysis_lib.h"
#include "live/live_lib.h"
#include "monitor/monitor_lib.h"
#include "util/options_version.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/monitor.h"

IBP_OPTIONS_LAYOUT(monitor_run_options_layout, "monitor run options",
		   IBP_MONITOR_RUN_OPTIONS_VERSION,
		   sizeof(struct ibp_monitor_run_options));

/* The library's defaults, a whole current struct. */
static void monitor_run_options_defaults(struct ibp_monitor_run_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_MONITOR_RUN_OPTIONS_VERSION;
	o->posture = true;
	o->format = "prometheus";
}

void ibp_monitor_run_options_init(struct ibp_monitor_run_options *o,
				  unsigned version)
{
	struct ibp_monitor_run_options d;
	monitor_run_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &monitor_run_options_layout);
}

/* The posture's JSON objects: {"critical": N, ...}, {"missing": N, ...} */
static void posture_json(json_t *root, const struct ibp_monitor_posture *p)
{
	if (p->audit_known) {
		json_t *a = json_object();
		for (int s = IBP_AUDIT_CRITICAL; s >= IBP_AUDIT_INFO; s--)
			json_object_set_new(
			    a, ibp_audit_severity_str((ibp_audit_severity)s),
			    json_integer((json_int_t)p->audit[s]));
		json_object_set_new(root, "audit_findings", a);
	}
	if (p->drift_known) {
		json_t *d = json_object();
		for (int k = 0; k < IBP_MONITOR_DRIFT_KINDS; k++)
			json_object_set_new(
			    d, ibp_drift_kind_str((ibp_drift_kind)k),
			    json_integer((json_int_t)p->drift[k]));
		json_object_set_new(root, "drift_ports", d);
		json_object_set_new(root, "ports_drifted",
				    json_integer((json_int_t)p->drifted));
	}
}

/* The posture as text: one AUDIT and one DRIFT line when known. */
static void posture_text(FILE *m, const struct ibp_monitor_posture *p)
{
	if (p->audit_known) {
		fputs("AUDIT", m);
		for (int s = IBP_AUDIT_CRITICAL; s >= IBP_AUDIT_INFO; s--)
			fprintf(m, " %s %zu",
				ibp_audit_severity_str((ibp_audit_severity)s),
				p->audit[s]);
		fputc('\n', m);
	}
	if (p->drift_known) {
		fprintf(m, "DRIFT ports %zu:", p->drifted);
		for (int k = 0; k < IBP_MONITOR_DRIFT_KINDS; k++)
			fprintf(m, " %s %zu",
				ibp_drift_kind_str((ibp_drift_kind)k),
				p->drift[k]);
		fputc('\n', m);
	}
}

char *ibp_monitor_sweep_format(const ibp_monitor_sweep *s,
			       const struct ibp_monitor_posture *p,
			       const char *format)
{
	if (!format)
		format = "prometheus";
	if (!strcmp(format, "json")) {
		json_t *root = monitor_sweep_json_obj(s);
		if (root && p)
			posture_json(root, p);
		char *out = root ? json_dumps(root, JSON_INDENT(2)) : NULL;
		json_decref(root);
		return out;
	}
	bool prom = !strcmp(format, "prometheus");
	if (!prom && strcmp(format, "text"))
		return NULL;
	char *text = NULL, *buf = NULL;
	size_t len = 0;
	if (prom && !(text = ibp_monitor_sweep_prometheus(s)))
		return NULL;
	FILE *m = open_memstream(&buf, &len);
	if (!m) {
		free(text);
		return NULL;
	}
	if (prom)
		fputs(text, m);
	else
		ibp_monitor_sweep_print(s, m);
	if (p && prom)
		ibp_monitor_posture_prometheus(p, m);
	else if (p)
		posture_text(m, p);
	free(text);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Did the sweep count anything the command exits 1 for? */
static bool found(const ibp_monitor_sweep *s)
{
	if (ibp_monitor_sweep_unread(s))
		return true;
	for (size_t i = 0; i < ibp_monitor_sweep_port_count(s); i++) {
		const struct ibp_monitor_port *q = ibp_monitor_sweep_port(s, i);
		if (q->total[IBP_MON_XMIT_CONSTRAINT] ||
		    q->total[IBP_MON_RCV_CONSTRAINT] ||
		    q->total[IBP_MON_PKEY_VIOLATIONS])
			return true;
	}
	return false;
}

/* text (n bytes) to path, whole, or to out (a newline after JSON and
 * text). */
static int put(const struct ibp_monitor_run_options *o, const char *text,
	       ibp_error *err)
{
	size_t n = strlen(text);
	if (o->output_path)
		return ibp_write_file_atomic(o->output_path, text, n, false,
					     err);
	if (!o->out)
		return IBP_OK;
	fputs(text, o->out);
	if (strcmp(o->format, "prometheus") && n && text[n - 1] != '\n')
		fputc('\n', o->out);
	if (fflush(o->out))
		return ibp_error_set(err, IBP_EIO, "monitor: write error");
	return IBP_OK;
}

int ibp_monitor_run_once(ibp_live *l, const struct ibp_monitor_run_options *o,
			 ibp_monitor_state *st,
			 struct ibp_monitor_run_result *res, ibp_diags *diags,
			 ibp_error *err)
{
	memset(res, 0, sizeof(*res));
	struct ibp_monitor_run_options own;
	monitor_run_options_defaults(&own);
	/* the caller's sweep as far as it goes, over the run's defaults */
	struct ibp_monitor_options sweep;
	ibp_monitor_options_init(&sweep, IBP_MONITOR_OPTIONS_VERSION);
	sweep.audit = sweep.drift = true;
	if (ibp_options_take(&own, o, &monitor_run_options_layout, err) ||
	    monitor_options_take_over(&sweep, own.sweep, err))
		return IBP_EINVAL;
	/* whole now: what an older version lacks is the run's default */
	sweep.version = IBP_MONITOR_OPTIONS_VERSION;
	own.sweep = &sweep;
	o = &own;
	if (!o->format ||
	    (strcmp(o->format, "prometheus") && strcmp(o->format, "json") &&
	     strcmp(o->format, "text")))
		return ibp_error_set(err, IBP_EINVAL,
				     "monitor: bad options (version, format)");
	ibp_monitor_sweep *s = NULL;
	int rc = ibp_monitor_sweep_run(l, o->sweep, st, &s, diags, err);
	struct ibp_monitor_posture p;
	memset(&p, 0, sizeof(p));
	/* the plan's findings went to diags with the sweep's */
	if (!rc && o->posture)
		rc = ibp_monitor_posture_compute(l, o->sweep, &p, NULL, NULL,
						 err);
	char *text = NULL;
	if (!rc && !(text = ibp_monitor_sweep_format(s, o->posture ? &p : NULL,
						     o->format)))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc) {
		res->found = found(s);
		res->full_member = ibp_monitor_sweep_full_member(s);
		rc = put(o, text, err);
		res->output_failed = rc != IBP_OK;
	}
	free(text);
	ibp_monitor_sweep_free(s);
	return rc;
}

int ibp_monitor_open_sim(ibp_sim_session *ss, const struct ibp_live_options *lo,
			 ibp_transport **t, ibp_live **l, ibp_error *err)
{
	*t = NULL;
	*l = NULL;
	size_t node;
	unsigned port;
	ibp_sim_session_sm_port(ss, &node, &port);
	int rc = ibp_transport_sim_new(ibp_sim_session_sim(ss), node, port,
				       NULL, t, err);
	if (!rc)
		rc = ibp_live_open_transport(
		    lo, *t,
		    ibp_fabric_port_guid(ibp_sim_session_fabric(ss), node,
					 port),
		    l, err);
	if (!rc)
		rc = ibp_live_discover(*l, err);
	if (!rc)
		rc = ibp_live_find_sm(*l, NULL, err);
	return rc;
}
