/*
 * collector.c - what ibpartd's /metrics says about the fabric, beside
 * its own counters: the monitor's sweep (include/ibpart/monitor.h),
 * run by a thread of its own every --monitor-interval seconds over the
 * same libibumad port as the verification (-C/-P) with the plan the
 * service holds (the partitions file it rendered), one
 * ibp_monitor_state kept for the daemon's lifetime so every _total
 * stays monotonic; the audit of the plan by severity (when a topology
 * is given); and the drift of the last verification by kind - the
 * applier's after a change, and the collector's own at each sweep
 * (verify's reading of every P_KeyTable against the plan), so a drift
 * made behind the service's back shows within one interval.  The
 * counting and the exposition are the library's (monitor_posture.c),
 * the same as `ibpart monitor`'s.  The sweep takes the apply lock the
 * applier holds from writing the file to verifying it, so it never
 * reads while a change is pushed and OpenSM programs the ports;
 * discovery runs before the lock is taken, so the lock is held for the
 * reads alone.  The text is kept whole under metrics_lock and copied out
 * by each GET /metrics; the last COLLECTOR_KEPT sweeps' tenant totals
 * and drift, with their times, are kept for GET /'s series
 * (monitor_history.c).
 *
 * A sweep discovers the whole fabric (every node by directed route) only
 * when something may have changed: OpenSM logged SUBNET UP (the end of
 * a heavy sweep: a link or node came or went, a trap, a SIGHUP) since
 * the last sweep, or --full-discovery-every sweeps have passed, or there
 * is no --opensm-log to tell.  Otherwise it gives its session the last
 * discovery (ibp_live_discover_reuse) and reads only what it reads
 * anyway - the counters, the tables, the aliases - along the kept
 * routes; a read that fails there is a change too: the sweep is done
 * again with a full discovery.  Both are counted
 * (ibpartd_monitor_discoveries_total).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibpart/monitor.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/sm.h"
#include "ibpart/verify.h"
#include "ibpartd.h"
#include "ibpart/sys/monitor.h"
#include "ibpart/sys/verify.h"
#include "ibpart/sys/report.h"

/* Sweeps kept for GET /'s series: a day at the default 5 minutes, at
 * most 288 x (3 x tenants + 1) numbers whatever the uptime. */
#define COLLECTOR_KEPT 288

/* The audit's findings by severity into p (the service's audit: GET
 * /ibpart/v1/audit's); unknown without a topology or when it fails. */
static void audit_counts(struct ibpartd *d, struct ibp_monitor_posture *p)
{
	ibp_findings *f = NULL;
	ibp_error err;
	if (!d->topology || ibp_service_audit_findings(d->svc, &f, &err))
		f = NULL;
	p->audit_known = f != NULL;
	for (int s = 0; s < IBP_MONITOR_SEVERITIES; s++)
		p->audit[s] =
		    f ? ibp_findings_count_severity(f, (ibp_audit_severity)s)
		      : 0;
	ibp_findings_free(f);
}

/* The drift rows of one verification, for GET /: shared with the
 * requests rendering the page (refs, under metrics_lock), replaced
 * whole by the next verification. */
struct drift_rows {
	unsigned refs;
	ibp_web_drift *v;
	size_t n;
};

/* Drop one reference; under metrics_lock. */
static void rows_put_locked(struct drift_rows *x)
{
	if (x && !--x->refs) {
		ibp_web_drift_free(x->v, x->n);
		free(x);
	}
}

/* The rows of r become the page's (kept as they were when out of
 * memory: the page then shows an older verification's rows). */
static void keep_drift(struct ibpartd *d, const ibp_verify_result *r)
{
	struct drift_rows *x = calloc(1, sizeof(*x));
	ibp_error err;
	if (!x || ibp_verify_result_web_drift(r, &x->v, &x->n, &err)) {
		free(x);
		daemon_log("ibpartd: out of memory keeping the drift");
		return;
	}
	x->refs = 1;
	pthread_mutex_lock(&d->metrics_lock);
	rows_put_locked(d->drift_rows);
	d->drift_rows = x;
	d->page_gen++;
	pthread_mutex_unlock(&d->metrics_lock);
}

unsigned long collector_page_gen(struct ibpartd *d)
{
	pthread_mutex_lock(&d->metrics_lock);
	unsigned long g = d->page_gen;
	pthread_mutex_unlock(&d->metrics_lock);
	return g;
}

const ibp_web_drift *collector_drift(struct ibpartd *d, size_t *n,
				     struct drift_rows **ref)
{
	pthread_mutex_lock(&d->metrics_lock);
	struct drift_rows *x = d->drift_rows;
	if (x)
		x->refs++;
	pthread_mutex_unlock(&d->metrics_lock);
	*ref = x;
	*n = x ? x->n : 0;
	return x ? x->v : NULL;
}

void collector_drift_put(struct ibpartd *d, struct drift_rows *ref)
{
	pthread_mutex_lock(&d->metrics_lock);
	rows_put_locked(ref);
	pthread_mutex_unlock(&d->metrics_lock);
}

void collector_note_verify(struct ibpartd *d, const ibp_verify_result *r)
{
	struct ibp_monitor_posture p;
	p.drifted =
	    ibp_drift_ports_by_kind(ibp_verify_result_drift(r),
				    ibp_verify_result_selection(r), p.drift);
	pthread_mutex_lock(&d->metrics_lock);
	memcpy(d->posture.drift, p.drift, sizeof(p.drift));
	d->posture.drifted = p.drifted;
	d->posture.drift_known = true;
	pthread_mutex_unlock(&d->metrics_lock);
	keep_drift(d, r);
}

/* The drift of r, the verification of the file of revision done_rev
 * (no newer one waiting: the file is that revision's), in the
 * revision's state: drifted with the ports, or held again; one log line
 * when the state moves, and with --repair-drift the applier asked to
 * apply it again. */
static void note_drift(struct ibpartd *d, const ibp_verify_result *r)
{
	uint64_t rev = atomic_load(&d->done_rev);
	if (!rev || ibp_service_revision(d->svc) != rev)
		return;
	size_t ports = 0, n = ibp_verify_result_differences(r, &ports);
	char detail[600] = "";
	ibp_web_drift *rows = NULL;
	size_t nrows = 0, at = 0;
	ibp_error err;
	if (n && !ibp_verify_result_web_drift(r, &rows, &nrows, &err)) {
		at =
		    (size_t)snprintf(detail, sizeof(detail),
				     "%zu differences on %zu ports:", n, ports);
		for (size_t i = 0; i < nrows && at < sizeof(detail); i++)
			at += (size_t)snprintf(
			    detail + at, sizeof(detail) - at,
			    "%s 0x%016llx port %u %s", i ? "," : "",
			    (unsigned long long)rows[i].port_guid, rows[i].port,
			    rows[i].kind ? rows[i].kind : "");
		ibp_web_drift_free(rows, nrows);
	}
	bool moved = false;
	if (ibp_service_note_drift(d->svc, rev, ports, detail, &moved, &err))
		daemon_log("ibpartd: monitor: the drift not recorded: %s",
			   err.message);
	if (!moved)
		return;
	if (ports)
		daemon_log(
		    "ibpartd: drift: the fabric no longer holds revision "
		    "%llu: %s%s",
		    (unsigned long long)rev, detail,
		    d->repair_drift ? "; applying it again"
				    : " (--repair-drift re-applies)");
	else
		daemon_log("ibpartd: the fabric holds revision %llu again",
			   (unsigned long long)rev);
	if (ports && d->repair_drift)
		atomic_store(&d->reapply, true);
}

/* May this sweep keep the last discovery?  Only when one is kept, OpenSM
 * logged no SUBNET UP since the last sweep and the last full one was
 * fewer than --full-discovery-every sweeps ago. */
static bool may_keep(struct ibpartd *d)
{
	long ups = d->opensm_log ? ibp_log_count_lines(d->opensm_log,
						       "SUBNET UP", &d->log_off)
				 : -1;
	return d->kept && ups == 0 && d->since_full + 1 < d->full_every;
}

/* One sweep and the verification of the fabric's P_KeyTables against
 * the plan (the drift, *p) under the apply lock.  0, or -1 with the
 * reason.  On the kept discovery when nothing changed (light), and
 * then once more discovering when a read along it failed. */
static int sweep_once(struct ibpartd *d, bool light, ibp_monitor_state *st,
		      ibp_monitor_sweep **s, struct ibp_monitor_posture *p,
		      char *why, size_t why_size);

static int sweep(struct ibpartd *d, ibp_monitor_state *st,
		 ibp_monitor_sweep **s, struct ibp_monitor_posture *p,
		 char *why, size_t why_size)
{
	bool light = may_keep(d);
	int rc = sweep_once(d, light, st, s, p, why, why_size);
	if (rc && light) /* the kept routes failed: the fabric changed */
		rc = sweep_once(d, false, st, s, p, why, why_size);
	return rc;
}

static int sweep_once(struct ibpartd *d, bool light, ibp_monitor_state *st,
		      ibp_monitor_sweep **s, struct ibp_monitor_posture *p,
		      char *why, size_t why_size)
{
	ibp_live *l = NULL;
	ibp_live_lock *lock = NULL;
	ibp_sm_discovery *kept = light ? d->kept : NULL;
	if (!light)
		ibp_sm_discovery_free(d->kept);
	d->kept = NULL;
	if (daemon_open_fabric_kept(d, &l, NULL, kept, why, why_size))
		return -1;
	pthread_mutex_lock(&d->metrics_lock);
	if (light) {
		d->discoveries_light++;
		d->since_full++;
	} else {
		d->discoveries_full++;
		d->since_full = 0;
	}
	pthread_mutex_unlock(&d->metrics_lock);
	if (aliases_learn(d, l, light) && light) {
		/* the kept routes fail: sweep again, discovering */
		daemon_close_fabric(l, NULL);
		snprintf(why, why_size, "the kept discovery's routes fail");
		return -1;
	}
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_live_lock_acquire(l, getenv("IBPART_LOCK_DIR"),
				       (int)d->wait_ms, &lock, &err);
	ibp_diags *diags = ibp_diags_new();
	struct ibp_monitor_options o;
	ibp_monitor_options_init(&o, IBP_MONITOR_OPTIONS_VERSION);
	o.conf_path = d->partitions;
	o.drift = true;
	if (d->have_osm)
		o.osm = &d->osm;
	if (!rc)
		rc = ibp_monitor_sweep_run(l, &o, st, s, diags, &err);
	ibp_verify_result *verified = NULL;
	if (!rc)
		rc = ibp_monitor_posture_compute(l, &o, p, &verified, NULL,
						 &err);
	if (verified) { /* it borrows the session's fabric: before closing */
		collector_note_verify(d, verified);
		note_drift(d, verified);
	}
	ibp_verify_result_free(verified);
	if (!rc && d->opensm_log) /* kept for the next sweep */
		d->kept = ibp_sm_discovery_take(ibp_live_sm(l));
	daemon_close_fabric(l, lock);
	ibp_diags_free(diags);
	if (rc) {
		ibp_monitor_sweep_free(*s);
		*s = NULL;
		snprintf(why, why_size, "%s", err.message);
		return -1;
	}
	if (!ibp_monitor_sweep_full_member(*s))
		daemon_log("ibpartd: monitor: the port (-C/-P) is not a full "
			   "member of the default partition (0xffff): the PMAs "
			   "of its limited members refuse its GMPs");
	return 0;
}

static void *run(void *arg)
{
	struct ibpartd *d = arg;
	ibp_monitor_state *st = ibp_monitor_state_new();
	char last_why[600] = "";
	while (st && !atomic_load(&d->stopping)) {
		struct ibp_monitor_posture audit, p;
		audit_counts(d, &audit);
		char *text = NULL, why[600] = "";
		ibp_monitor_sweep *s = NULL;
		int rc = sweep(d, st, &s, &p, why, sizeof(why));
		if (!rc && !(text = ibp_monitor_sweep_prometheus(s))) {
			snprintf(why, sizeof(why), "out of memory");
			rc = -1;
		}
		if (rc && strcmp(why, last_why))
			daemon_log("ibpartd: monitor: sweep failed: %s (again "
				   "every %u s)",
				   why, d->monitor_interval);
		snprintf(last_why, sizeof(last_why), "%s", why);
		pthread_mutex_lock(&d->metrics_lock);
		if (!rc) {
			free(d->sweep_text);
			d->sweep_text = text;
			d->sweep_seconds =
			    ibp_monitor_sweep_elapsed_ms(s) / 1000.0;
			d->sweeps++; /* its drift: collector_note_verify */
			if (d->history &&
			    ibp_monitor_history_add(d->history, s, &p))
				daemon_log("ibpartd: monitor: out of "
					   "memory keeping the sweep");
			d->page_gen++; /* the page's series */
		} else {
			d->sweep_failures++;
		}
		memcpy(d->posture.audit, audit.audit, sizeof(audit.audit));
		d->posture.audit_known = audit.audit_known;
		pthread_mutex_unlock(&d->metrics_lock);
		ibp_monitor_sweep_free(s);
		daemon_nap(d, d->monitor_interval * 1000u);
	}
	ibp_monitor_state_free(st);
	ibp_sm_discovery_free(d->kept);
	d->kept = NULL;
	return NULL;
}

int collector_start(struct ibpartd *d)
{
	if (!d->monitor_interval)
		return 0;
	if (!(d->history = ibp_monitor_history_new(COLLECTOR_KEPT)))
		return -1;
	return daemon_thread_start(d, &d->collector, &d->collector_started,
				   run);
}

void collector_stop(struct ibpartd *d)
{
	daemon_thread_stop(d, d->collector, &d->collector_started);
	free(d->sweep_text);
	d->sweep_text = NULL;
	ibp_monitor_history_free(d->history);
	d->history = NULL;
	pthread_mutex_lock(&d->metrics_lock);
	rows_put_locked(d->drift_rows);
	d->drift_rows = NULL;
	pthread_mutex_unlock(&d->metrics_lock);
}

ibp_monitor_series *collector_series(struct ibpartd *d)
{
	ibp_monitor_series *x = NULL;
	ibp_error err;
	pthread_mutex_lock(&d->metrics_lock);
	if (d->history && ibp_monitor_history_count(d->history))
		ibp_monitor_history_series(d->history, &x, &err);
	pthread_mutex_unlock(&d->metrics_lock);
	return x;
}

void collector_metrics(struct ibpartd *d, FILE *f)
{
	pthread_mutex_lock(&d->metrics_lock);
	fprintf(f,
		"# HELP ibpartd_monitor_sweeps_total Monitor sweeps done "
		"(--monitor-interval).\n"
		"# TYPE ibpartd_monitor_sweeps_total counter\n"
		"ibpartd_monitor_sweeps_total %lu\n"
		"# HELP ibpartd_monitor_sweep_failures_total Monitor sweeps "
		"that failed (the reason is logged).\n"
		"# TYPE ibpartd_monitor_sweep_failures_total counter\n"
		"ibpartd_monitor_sweep_failures_total %lu\n"
		"# HELP ibpartd_monitor_sweep_duration_seconds How long the "
		"last sweep's reads took.\n"
		"# TYPE ibpartd_monitor_sweep_duration_seconds gauge\n"
		"ibpartd_monitor_sweep_duration_seconds %.6f\n"
		"# HELP ibpartd_monitor_discoveries_total Sweeps that "
		"discovered the whole fabric (full) or kept the last "
		"discovery, OpenSM having logged no SUBNET UP since (light).\n"
		"# TYPE ibpartd_monitor_discoveries_total counter\n"
		"ibpartd_monitor_discoveries_total{kind=\"full\"} %lu\n"
		"ibpartd_monitor_discoveries_total{kind=\"light\"} %lu\n",
		d->sweeps, d->sweep_failures, d->sweep_seconds,
		d->discoveries_full, d->discoveries_light);
	ibp_monitor_posture_prometheus(&d->posture, f);
	if (d->sweep_text)
		fputs(d->sweep_text, f);
	pthread_mutex_unlock(&d->metrics_lock);
}
