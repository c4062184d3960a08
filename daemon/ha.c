/*
 * ha.c - ibpartd on every SM host of a fabric (--store, docs/ha.md): the
 * thread that keeps this host's service on the shared store's newest
 * revision (LISTEN/NOTIFY, with a catch-up every poll), finds out what
 * this host's OpenSM is from OpenSM itself, and reports both into the
 * store's list of hosts.
 *
 * The SM's state is the one OpenSM last logged on entering it ("Entering
 * MASTER state", "Entering STANDBY state", ... from its SM state
 * manager, IBA 14.4.1's SM states), read incrementally from --opensm-log
 * (a log that shrank was rotated: read again from its start), and
 * "down" while the pid file's (or the unit's) process is not OpenSM.
 * The applier signals and verifies only while the state is MASTER
 * (applier.c); a change to MASTER is a failover: logged, counted for
 * /metrics, and the applier made to run a cycle at once, which verifies
 * the fabric this host's SM now owns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/live.h"
#include "ibpartd.h"

static const char *const sm_state_names[] = {
    [SM_UNKNOWN] = "unknown",	    [SM_DOWN] = "down",
    [SM_NOT_ACTIVE] = "NOT ACTIVE", [SM_DISCOVERING] = "DISCOVERING",
    [SM_STANDBY] = "STANDBY",	    [SM_MASTER] = "MASTER",
};

const char *ha_sm_state_name(int st)
{
	return st >= 0 && st <= SM_MASTER ? sm_state_names[st] : "unknown";
}

/* The state a log line announces; -1: none. */
static int line_state(const char *line)
{
	const char *p = strstr(line, "Entering ");
	if (!p || !strstr(p, " state"))
		return -1;
	p += 9;
	for (int st = SM_NOT_ACTIVE; st <= SM_MASTER; st++) {
		size_t n = strlen(sm_state_names[st]);
		if (!strncmp(p, sm_state_names[st], n) &&
		    !strncmp(p + n, " state", 6))
			return st;
	}
	return -1;
}

static void take_state(void *ctx, const char *line, size_t len)
{
	(void)len;
	int s = line_state(line);
	if (s >= 0)
		*(int *)ctx = s;
}

/* The log's new whole lines since the last call (the library's reader):
 * the last state one of them announces into *st (left alone when none
 * does).  A log that shrank was rotated: read again from its start. */
static void read_log(struct ibpartd *d, int *st)
{
	if (ibp_log_read_lines(d->opensm_log, &d->ha_log_off, take_state, st) <
	    0)
		(void)ibp_log_read_lines(d->opensm_log, &d->ha_log_off,
					 take_state, st);
}

/* This host's OpenSM now, and its pid (0: none). */
static int sm_state(struct ibpartd *d, long *pid)
{
	pid_t p = 0;
	*pid = 0;
	if (daemon_opensm_pid(d, &p))
		return SM_DOWN;
	*pid = (long)p;
	int st = atomic_load(&d->sm_state);
	if (st == SM_DOWN || st == SM_UNKNOWN)
		st = SM_UNKNOWN;
	if (d->opensm_log)
		read_log(d, &st);
	return st;
}

static void report(struct ibpartd *d, long pid)
{
	struct ibp_service_host h = {
	    .sm_state = ha_sm_state_name(atomic_load(&d->sm_state)),
	    .opensm_pid = pid,
	    .file_rev = atomic_load(&d->file_rev),
	    .fabric_rev = atomic_load(&d->done_rev),
	    .failovers = atomic_load(&d->failovers),
	};
	ibp_error err;
	ibp_error_clear(&err);
	ibp_service_store_report_host(d->svc, &h, &err);
}

static void *run(void *arg)
{
	struct ibpartd *d = arg;
	bool down = false;
	while (!atomic_load(&d->stopping)) {
		ibp_error err;
		ibp_error_clear(&err);
		int rc = ibp_service_store_poll(d->svc, 500, &err);
		if (rc && !down)
			daemon_log("ibpartd: %s: changes are refused (503) "
				   "and %s is left as it is until it is back",
				   err.message, d->partitions);
		else if (!rc && down)
			daemon_log(
			    "ibpartd: the shared store is reachable "
			    "again, at revision %llu",
			    (unsigned long long)ibp_service_revision(d->svc));
		down = rc != 0;
		atomic_store(&d->store_up, !down);
		if (rc)
			daemon_nap(d, 500);
		long pid = 0;
		int was = atomic_load(&d->sm_state), now = sm_state(d, &pid);
		if (now != was) {
			atomic_store(&d->sm_state, now);
			daemon_log(
			    "ibpartd: OpenSM on this host (%ld): %s -> %s", pid,
			    ha_sm_state_name(was), ha_sm_state_name(now));
			if (now == SM_MASTER) { /* a takeover */
				atomic_fetch_add(&d->failovers, 1);
				daemon_log("ibpartd: failover: this host's "
					   "OpenSM became master; verifying "
					   "the fabric");
				atomic_store(&d->failover_pending, true);
				atomic_store(&d->reapply, true);
			}
		}
		if (!down)
			report(d, pid);
	}
	return NULL;
}

int ha_start(struct ibpartd *d)
{
	if (!d->store)
		return 0;
	long pid = 0;
	atomic_store(&d->sm_state, sm_state(d, &pid));
	daemon_log("ibpartd: shared store, host %s: OpenSM here is %s",
		   d->host_name, ha_sm_state_name(atomic_load(&d->sm_state)));
	return daemon_thread_start(d, &d->ha, &d->ha_started, run);
}

void ha_stop(struct ibpartd *d)
{
	daemon_thread_stop(d, d->ha, &d->ha_started);
}

void ha_metrics(struct ibpartd *d, FILE *f)
{
	if (!d->store)
		return;
	fprintf(f,
		"# HELP ibpartd_store_up Whether the shared store answered "
		"the last poll.\n"
		"# TYPE ibpartd_store_up gauge\nibpartd_store_up %d\n"
		"# HELP ibpartd_sm_master Whether this host's OpenSM is the "
		"master SM.\n"
		"# TYPE ibpartd_sm_master gauge\nibpartd_sm_master %d\n"
		"# HELP ibpartd_failovers_total Times this host's OpenSM "
		"became master while ibpartd watched it.\n"
		"# TYPE ibpartd_failovers_total counter\n"
		"ibpartd_failovers_total %lu\n"
		"# HELP ibpartd_file_revision The revision this host's "
		"partitions file holds.\n"
		"# TYPE ibpartd_file_revision gauge\n"
		"ibpartd_file_revision %llu\n",
		atomic_load(&d->store_up) ? 1 : 0,
		atomic_load(&d->sm_state) == SM_MASTER ? 1 : 0,
		atomic_load(&d->failovers),
		(unsigned long long)atomic_load(&d->file_rev));
}
