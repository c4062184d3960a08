/*
 * collector.c - what ibpartd's /metrics says about the fabric, beside
 * its own counters: the monitor's sweep (include/ibpart/monitor.h),
 * run by a thread of its own every --monitor-interval seconds over the
 * same libibumad port as the verification (-C/-P) with the plan the
 * service holds (the partitions file it rendered), one
 * ibp_monitor_state kept for the daemon's lifetime so every _total
 * stays monotonic; the audit of the plan by severity (when a topology
 * is given); and the drift the applier's last verification found, by
 * kind.  The sweep takes the apply lock the applier holds from writing
 * the file to verifying it, so it never reads while a change is pushed
 * and OpenSM programs the ports; discovery runs before the lock is
 * taken, so the lock is held for the sweep's reads alone.  The text is
 * kept whole under metrics_lock and copied out by each GET /metrics.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibpart/monitor.h"
#include "ibpart/verify.h"
#include "ibpartd.h"

static const char *const severities[] = {"critical", "high", "medium", "info"};
#define NSEV (sizeof(severities) / sizeof(*severities))

/* The audit's findings by severity (service_guard: `ibpart audit
 * --format json`); false without a topology or when it fails. */
static bool audit_counts(struct ibpartd *d, size_t counts[NSEV])
{
	char *text = NULL;
	ibp_error err;
	if (!d->topology || ibp_service_audit_json(d->svc, &text, &err))
		return false;
	json_t *o = json_loads(text, 0, NULL);
	free(text);
	json_t *f = json_object_get(o, "findings");
	size_t i;
	json_t *v;
	json_array_foreach(f, i, v)
	{
		const char *sev =
		    json_string_value(json_object_get(v, "severity"));
		for (size_t k = 0; sev && k < NSEV; k++)
			if (!strcmp(sev, severities[k]))
				counts[k]++;
	}
	bool ok = json_is_array(f);
	json_decref(o);
	return ok;
}

void collector_note_verify(struct ibpartd *d, const ibp_verify_result *r)
{
	size_t ports[DRIFT_KINDS] = {0};
	const ibp_drift *dr = ibp_verify_result_drift(r);
	ibp_drift_sel sel = ibp_verify_result_selection(r);
	/* items come in (node, port) order: a port counts once per kind */
	size_t node = (size_t)-1;
	unsigned port = 0, kinds = 0;
	for (size_t i = 0; dr && i < ibp_drift_count(dr); i++) {
		const struct ibp_drift_item *it = ibp_drift_at(dr, i);
		if (!ibp_drift_item_selected(it, sel) ||
		    (unsigned)it->kind >= DRIFT_KINDS)
			continue;
		if (it->node != node || it->port != port) {
			node = it->node;
			port = it->port;
			kinds = 0;
		}
		if (!(kinds & (1u << it->kind)))
			ports[it->kind]++;
		kinds |= 1u << it->kind;
	}
	pthread_mutex_lock(&d->metrics_lock);
	memcpy(d->drift_ports, ports, sizeof(ports));
	d->drift_known = true;
	pthread_mutex_unlock(&d->metrics_lock);
}

/* One sweep; its exposition into *text.  0, or -1 with the reason. */
static int sweep(struct ibpartd *d, ibp_monitor_state *st, char **text,
		 double *seconds, char *why, size_t why_size)
{
	ibp_live *l = NULL;
	ibp_live_lock *lock = NULL;
	if (daemon_open_fabric(d, &l, NULL, why, why_size))
		return -1;
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_live_lock_acquire(l, getenv("IBPART_LOCK_DIR"),
				       (int)d->wait_ms, &lock, &err);
	ibp_monitor_sweep *s = NULL;
	ibp_diags *diags = ibp_diags_new();
	if (!rc) {
		struct ibp_monitor_options o;
		ibp_monitor_options_init(&o);
		o.conf_path = d->partitions;
		rc = ibp_monitor_sweep_run(l, &o, st, &s, diags, &err);
	}
	ibp_live_lock_release(lock);
	ibp_live_close(l);
	ibp_diags_free(diags);
	if (rc) {
		snprintf(why, why_size, "%s", err.message);
		return -1;
	}
	if (!ibp_monitor_sweep_full_member(s))
		fprintf(stderr,
			"ibpartd: monitor: the port (-C/-P) is not a full "
			"member of the default partition (0xffff): the PMAs "
			"of its limited members refuse its GMPs\n");
	*seconds = ibp_monitor_sweep_elapsed_ms(s) / 1000.0;
	*text = ibp_monitor_sweep_prometheus(s);
	ibp_monitor_sweep_free(s);
	if (!*text) {
		snprintf(why, why_size, "out of memory");
		return -1;
	}
	return 0;
}

static void *run(void *arg)
{
	struct ibpartd *d = arg;
	ibp_monitor_state *st = ibp_monitor_state_new();
	char last_why[600] = "";
	while (st && !atomic_load(&d->stopping)) {
		size_t counts[NSEV] = {0};
		bool audited = audit_counts(d, counts);
		char *text = NULL, why[600] = "";
		double secs = 0;
		int rc = sweep(d, st, &text, &secs, why, sizeof(why));
		if (rc && strcmp(why, last_why))
			fprintf(stderr,
				"ibpartd: monitor: sweep failed: %s (again "
				"every %u s)\n",
				why, d->monitor_interval);
		snprintf(last_why, sizeof(last_why), "%s", why);
		pthread_mutex_lock(&d->metrics_lock);
		if (!rc) {
			free(d->sweep_text);
			d->sweep_text = text;
			d->sweep_seconds = secs;
			d->sweeps++;
		} else {
			d->sweep_failures++;
		}
		memcpy(d->audit_findings, counts, sizeof(counts));
		d->audit_known = audited;
		pthread_mutex_unlock(&d->metrics_lock);
		daemon_nap(d, d->monitor_interval * 1000u);
	}
	ibp_monitor_state_free(st);
	return NULL;
}

int collector_start(struct ibpartd *d)
{
	if (!d->monitor_interval)
		return 0;
	return daemon_thread_start(d, &d->collector, &d->collector_started,
				   run);
}

void collector_stop(struct ibpartd *d)
{
	daemon_thread_stop(d, d->collector, &d->collector_started);
	free(d->sweep_text);
	d->sweep_text = NULL;
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
		"ibpartd_monitor_sweep_duration_seconds %.6f\n",
		d->sweeps, d->sweep_failures, d->sweep_seconds);
	if (d->audit_known) {
		fputs("# HELP ibpart_audit_findings Findings of the audit of "
		      "the plan the service holds, by severity.\n"
		      "# TYPE ibpart_audit_findings gauge\n",
		      f);
		for (size_t k = 0; k < NSEV; k++)
			fprintf(f,
				"ibpart_audit_findings{severity=\"%s\"} %zu\n",
				severities[k], d->audit_findings[k]);
	}
	if (d->drift_known) {
		fputs("# HELP ibpart_drift_ports Ports whose P_KeyTable "
		      "differed from the plan at the last verification, by "
		      "kind of difference.\n"
		      "# TYPE ibpart_drift_ports gauge\n",
		      f);
		for (int k = 0; k < DRIFT_KINDS; k++)
			fprintf(f, "ibpart_drift_ports{kind=\"%s\"} %zu\n",
				ibp_drift_kind_str((ibp_drift_kind)k),
				d->drift_ports[k]);
	}
	if (d->sweep_text)
		fputs(d->sweep_text, f);
	pthread_mutex_unlock(&d->metrics_lock);
}
