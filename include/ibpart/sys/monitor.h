/*
 * sys/monitor.h - the monitor over a simulated fabric
 * (sys/sim_session.h), and the pieces ibpartd's collector assembles
 * /metrics and the web view's series from: a sweep's posture, and the
 * last sweeps kept.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/monitor.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/monitor.h.
 */
#ifndef IBPART_SYS_MONITOR_H
#define IBPART_SYS_MONITOR_H

#include <stdio.h>

#include "ibpart/monitor.h"
#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* A session over the simulated fabric of ss, from its SM's port: a
 * transport_sim there (*t, the caller's to close after the session),
 * the session opened with lo (ibp_live_open_transport), discovered, the
 * SM's port decided.  The fabric's or the system's status. */
int ibp_monitor_open_sim(ibp_sim_session *ss, const struct ibp_live_options *lo,
			 ibp_transport **t, ibp_live **l, ibp_error *err);

/* ------------------------------------------------------------------ */
/* Posture: the audit by severity, the drift by kind                  */
/* (monitor_posture.c)                                                */
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
