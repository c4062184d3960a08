/*
 * sys/monitor.h - the monitor as ibpart's front ends run it: `ibpart
 * monitor`'s sweep with its posture and output (ibp_monitor_run_once), a
 * sweep's local port and time, the series its JSON holds and the last
 * sweeps ibpartd keeps (the web view's sparklines, sys/report.h), the
 * posture ibpartd's /metrics says beside the counters, and the monitor
 * over a simulated fabric (sys/sim_session.h).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/monitor.h, exported for ibpart's own front ends, and free to
 * change in any release.  A program outside ibpart sweeps with
 * ibpart/monitor.h (ibp_monitor_sweep_run, ibp_monitor_sweep_prometheus)
 * and reads the posture's parts through ibp_findings_count_severity
 * (analysis.h) and ibp_drift_ports_by_kind (live.h).
 */
#ifndef IBPART_SYS_MONITOR_H
#define IBPART_SYS_MONITOR_H

#include <stdio.h>

#include "ibpart/monitor.h"
#include "ibpart/sys/report.h"
#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Whether the local port holds 0xffff (a full member of the default
 * partition), and its GUID. */
bool ibp_monitor_sweep_full_member(const ibp_monitor_sweep *s);
/* GMPs and SMPs the sweep sent, and how long it took (ms). */
double ibp_monitor_sweep_elapsed_ms(const ibp_monitor_sweep *s);

/* ------------------------------------------------------------------ */
/* The sweeps a monitor wrote, as the web view's series                */
/* ------------------------------------------------------------------ */

/* The sweeps read back (opaque). */
typedef struct ibp_monitor_series ibp_monitor_series;
/* What `ibpart monitor --format json [--interval S]` wrote to path (one
 * object per sweep): for each tenant of the first sweep, a series per
 * counter (from, toward, pkey_violations), one sample per sweep, for
 * ibp_web_extras.series.  Read whole, at most max bytes (0: the
 * small-input default of limits.h).  IBP_EINVAL located at file:line:col
 * for an object that is not JSON or has no "tenants"; IBP_EIO when it cannot be
 * read, IBP_ERANGE when it is longer; IBP_ENOMEM.  Free *out with
 * ibp_monitor_series_free(). */
int ibp_monitor_series_load(const char *path, size_t max,
			    ibp_monitor_series **out, ibp_error *err);
/* The series (borrowed: they live as long as x) and their count. */
const ibp_web_series *ibp_monitor_series_get(const ibp_monitor_series *x,
					     size_t *n);
/* Free x (NULL allowed). */
void ibp_monitor_series_free(ibp_monitor_series *x);

/* ------------------------------------------------------------------ */
/* Posture: the audit by severity, the drift by kind                  */
/* (monitor_posture.c)                                                */
/* ------------------------------------------------------------------ */

/* ibp_audit_severity's values (analysis.h) and ibp_drift_kind's (live.h) */
#define IBP_MONITOR_SEVERITIES	(IBP_AUDIT_CRITICAL + 1)
#define IBP_MONITOR_DRIFT_KINDS IBP_DRIFT_KINDS
/* What `ibpart monitor` and ibpartd's /metrics say beside the counters:
 * ibpart_audit_findings{severity} and ibpart_drift_ports{kind}. */
struct ibp_monitor_posture {
	bool audit_known; /* audit[] holds an audit's counts */
	size_t audit[IBP_MONITOR_SEVERITIES]; /* findings by severity */
	bool drift_known; /* drift[] holds a verification's counts */
	size_t drift[IBP_MONITOR_DRIFT_KINDS]; /* ports by kind (a port
						  with two kinds counts in
						  each) */
	size_t drifted;			       /* ports with any drift */
};
/* (audit[] is ibp_findings_count_severity's counts, drift[] and drifted
 * ibp_drift_ports_by_kind's over a verification's drift and selection.) */
/* (ibp_monitor_run_once below says it, and ibpartd's /metrics through
 * ibp_monitor_posture_compute and ibp_monitor_posture_prometheus.) */

/* ------------------------------------------------------------------ */
/* One sweep as `ibpart monitor` runs it (monitor_run.c)              */
/* ------------------------------------------------------------------ */

#define IBP_MONITOR_RUN_OPTIONS_VERSION 1
struct ibp_monitor_run_options {
	unsigned version; /* set by _init */
	/* The sweep's and the posture's options (their own version,
	 * ibp_monitor_options_init).  NULL: their defaults with audit and
	 * drift on, which also fill what an older version lacks.  A
	 * pointer, not the struct: a newer monitor struct would move the
	 * fields after it. */
	const struct ibp_monitor_options *sweep;
	bool posture;		 /* audit and drift (default true) */
	const char *format;	 /* "prometheus" (default), "json", "text" */
	const char *output_path; /* written whole each sweep (a temporary
				    file renamed over it); NULL: to out */
	FILE *out;		 /* NULL: nothing written */
};
/* Defaults: sweep NULL (ibp_monitor_options_init's with audit and drift),
 * posture true, format "prometheus"; a version out of range: only the
 * version field, which ibp_monitor_run_once() then refuses.  Cannot
 * fail. */
void ibp_monitor_run_options_init(struct ibp_monitor_run_options *o,
				  unsigned version);
struct ibp_monitor_run_result {
	bool found;	    /* a constraint error or P_Key violation counted,
			       or a port unread (`ibpart monitor` exits 1) */
	bool full_member;   /* the monitoring port holds 0xffff */
	bool output_failed; /* the sweep went well, writing it did not:
			       the status is the write's (IBP_EINVAL when
			       output_path names a directory) */
};
/* One sweep (ibp_monitor_sweep_run), with o->posture its posture (the
 * audit of the plan and the drift of the tables, struct
 * ibp_monitor_posture), written in o->format to o->output_path
 * or o->out.  IBP_EINVAL for a bad format, or for a version of o or
 * o->sweep that is 0 or newer than the library's (err naming the struct,
 * nothing sent); IBP_EIO when the output cannot be written; otherwise
 * the sweep's and the posture's status. */
int ibp_monitor_run_once(ibp_live *l, const struct ibp_monitor_run_options *o,
			 ibp_monitor_state *st,
			 struct ibp_monitor_run_result *res, ibp_diags *diags,
			 ibp_error *err);

/* ------------------------------------------------------------------ */
/* The simulated fabric                                               */
/* ------------------------------------------------------------------ */

/* A session over the simulated fabric of ss, from its SM's port: a
 * transport_sim there (*t, the caller's to close after the session),
 * the session opened with lo (ibp_live_open_transport), discovered, the
 * SM's port decided.  The fabric's or the system's status. */
int ibp_monitor_open_sim(ibp_sim_session *ss, const struct ibp_live_options *lo,
			 ibp_transport **t, ibp_live **l, ibp_error *err);

/* ------------------------------------------------------------------ */
/* The posture's own entries (monitor_posture.c)                      */
/* ------------------------------------------------------------------ */

/* The known families of p in Prometheus' text format to out (HELP, TYPE,
 * one sample per severity - critical, high, medium, info - and per kind
 * - missing ... enforcement). */
void ibp_monitor_posture_prometheus(const struct ibp_monitor_posture *p,
				    FILE *out);
/* On an open, discovered session whose SM port is decided: with
 * o->audit the audit of the plan o->conf_path on the session's fabric
 * (ibp_live_fabric, the SM's port ibp_live_find_sm decided) with o->osm,
 * as `ibpart audit` runs it; with o->drift the verification of the
 * fabric's P_KeyTables against the plan (ibp_verify, no previous tables:
 * index differences are notes), handed to *verified when that is not
 * NULL (the caller frees it with ibp_verify_result_free before it
 * closes l, whose fabric it borrows; NULL when the drift was not
 * computed).  *p is zeroed first.  The plan's findings go
 * to diags (may be NULL).  Errors: those of ibp_analysis_input_load and
 * ibp_verify. */
int ibp_monitor_posture_compute(ibp_live *l,
				const struct ibp_monitor_options *o,
				struct ibp_monitor_posture *p,
				ibp_verify_result **verified, ibp_diags *diags,
				ibp_error *err);

/* ------------------------------------------------------------------ */
/* The last sweeps kept, as the web view's series (monitor_history.c) */
/* ------------------------------------------------------------------ */

/* The last cap sweeps of a service: each tenant's totals (from, toward,
 * pkey_violations) and the ports drifted, with the sweep's wall-clock
 * time (opaque; one thread at a time). */
typedef struct ibp_monitor_history ibp_monitor_history;
/* A new history of at most cap sweeps (0: 288, a day at 5 minutes);
 * NULL when out of memory. */
ibp_monitor_history *ibp_monitor_history_new(size_t cap);
/* Free it (NULL allowed). */
void ibp_monitor_history_free(ibp_monitor_history *h);
/* Keep s's tenant totals and p's drifted ports (p NULL or drift not
 * known: none for this sweep) at s's time; the oldest sweep goes when
 * cap are kept.  IBP_ENOMEM. */
int ibp_monitor_history_add(ibp_monitor_history *h, const ibp_monitor_sweep *s,
			    const struct ibp_monitor_posture *p);
/* Sweeps kept. */
size_t ibp_monitor_history_count(const ibp_monitor_history *h);
/* A copy as series (ibp_monitor_series_get; free with
 * ibp_monitor_series_free): for each tenant of the newest sweep, from,
 * toward and pkey_violations over the sweeps that had it, with their
 * times; then "ports drifted" of the fabric (tenant "(fabric)") over the
 * sweeps that verified.  IBP_ENOMEM. */
int ibp_monitor_history_series(const ibp_monitor_history *h,
			       ibp_monitor_series **out, ibp_error *err);

IBP_END_DECLS
#endif
