/*
 * applier.c - the thread that makes the fabric hold the database's
 * newest revision: revisions that arrive together are coalesced into
 * one reload (it takes the newest when it starts a cycle); a cycle
 * renders partitions.conf atomically, sends SIGHUP to OpenSM (its pid
 * file checked to name a process whose /proc comm is opensm), waits for
 * the "SUBNET UP" OpenSM logs after it (OpenSM found by its pid file or
 * as a systemd unit's main PID), then reads every P_KeyTable over
 * SMPs (libibumad, -C/-P) and compares it with the file (ibp_verify).
 * The whole cycle holds the CLI's apply lock for the local port, so an
 * `ibpart apply` never runs between a SIGHUP and its verification.
 * What OpenSM now remembers of each port's P_Key indexes is recorded
 * from what verify read (ibp_service_note_opensm), for the guard's
 * table-overflow judgment.
 * The revision is then applied and verified - only then does UFM's
 * last_updated move - or failed with the reason, and the cycle is tried
 * again with a doubling backoff.  The first cycle runs at start whatever
 * the database says: the file and the fabric are reconciled to it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "ibpart/live.h"
#include "ibpart/verify.h"
#include "ibpartd.h"

static bool is_opensm(pid_t pid)
{
	char path[64], comm[32] = "";
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	bool ok = fgets(comm, sizeof(comm), f) && !strcmp(comm, "opensm\n");
	fclose(f);
	return ok;
}

/* One session of the daemon's open at a time (the applier's, the
 * collector's): ibsim's libumad2sim names a process's client by its pid,
 * so a second port opened while one is open aborts the process ("can't
 * bind ctl socket"); a daemon gains nothing from two sessions anyway. */
static pthread_mutex_t fabric_mutex = PTHREAD_MUTEX_INITIALIZER;

int daemon_open_fabric(struct ibpartd *d, ibp_live **l, ibp_live_lock **lock,
		       char *why, size_t why_size)
{
	pthread_mutex_lock(&fabric_mutex);
	struct ibp_live_options lo;
	ibp_live_options_init(&lo);
	lo.ca = d->ca;
	lo.port = d->port;
	lo.mkey = d->mkey;
	if (d->have_osm)
		lo.enforce = (int)ibp_osm_conf_enforce(&d->osm);
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_live_open(&lo, l, &err);
	if (!rc && lock)
		rc = ibp_live_lock_acquire(*l, getenv("IBPART_LOCK_DIR"),
					   (int)d->wait_ms, lock, &err);
	if (!rc)
		rc = ibp_live_discover(*l, &err);
	if (!rc)
		rc = ibp_live_find_sm(*l, d->sm_port, &err);
	if (rc) {
		snprintf(why, why_size, "the fabric: %s", err.message);
		if (lock) {
			ibp_live_lock_release(*lock);
			*lock = NULL;
		}
		ibp_live_close(*l);
		*l = NULL;
		pthread_mutex_unlock(&fabric_mutex);
		return -1;
	}
	return 0;
}

void daemon_close_fabric(ibp_live *l, ibp_live_lock *lock)
{
	if (!l)
		return;
	ibp_live_lock_release(lock);
	ibp_live_close(l);
	pthread_mutex_unlock(&fabric_mutex);
}

int daemon_verify(struct ibpartd *d, ibp_live *l, ibp_verify_result **r,
		  char *why, size_t why_size)
{
	ibp_error err;
	ibp_error_clear(&err);
	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo);
	vo.conf_path = d->partitions;
	vo.allow_both_pkeys = d->have_osm && d->osm.allow_both_pkeys;
	vo.compact_pkey_indexes = d->have_osm && !d->osm.keep_pkey_indexes;
	*r = NULL;
	if (ibp_verify(l, &vo, r, NULL, &err)) {
		snprintf(why, why_size, "verify: %s", err.message);
		return -1;
	}
	collector_note_verify(d, *r);
	return 0;
}

/* OpenSM pid took revision rev and the fabric holds it (r): record its
 * index memory; a failure is logged, the revision stays verified. */
static void note_opensm(struct ibpartd *d, uint64_t rev, pid_t pid,
			const ibp_verify_result *r)
{
	ibp_error err;
	ibp_error_clear(&err);
	bool from_ports = false;
	if (ibp_service_note_opensm(d->svc, rev, ibp_verify_result_fabric(r),
				    ibp_verify_result_sm_port_guid(r),
				    ibp_verify_result_have(r), (long)pid,
				    &from_ports, &err))
		daemon_log("ibpartd: OpenSM's index memory not recorded for "
			   "revision %llu: %s",
			   (unsigned long long)rev, err.message);
	else if (from_ports)
		daemon_log("ibpartd: OpenSM's index memory taken from the "
			   "tables the ports hold (revision %llu)",
			   (unsigned long long)rev);
}

/* Compare the fabric with the file: 0 when it holds it, else -1 with
 * the reason. */
static int verify(struct ibpartd *d, ibp_live *l, uint64_t rev, pid_t pid,
		  char *why, size_t why_size)
{
	ibp_verify_result *r = NULL;
	int rc = daemon_verify(d, l, &r, why, why_size);
	if (!rc) {
		size_t ports = 0, n = ibp_verify_result_differences(r, &ports);
		if (n) {
			snprintf(why, why_size,
				 "drift: %zu differences on %zu ports after "
				 "OpenSM took the file",
				 n, ports);
			rc = -1;
		} else {
			note_opensm(d, rev, pid, r);
		}
	}
	ibp_verify_result_free(r);
	return rc;
}

/* The main PID of a systemd unit (Debian runs OpenSM as
 * opensm@GUID.service, with no pid file), asked over D-Bus. */
static int unit_pid(const char *unit, pid_t *pid, char *why, size_t why_size)
{
	sd_bus *bus = NULL;
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL;
	const char *path = NULL;
	uint32_t p = 0;
	int r = sd_bus_open_system(&bus);
	if (r >= 0)
		r = sd_bus_call_method(bus, "org.freedesktop.systemd1",
				       "/org/freedesktop/systemd1",
				       "org.freedesktop.systemd1.Manager",
				       "GetUnit", &e, &m, "s", unit);
	if (r >= 0)
		r = sd_bus_message_read(m, "o", &path);
	if (r >= 0)
		r = sd_bus_get_property_trivial(
		    bus, "org.freedesktop.systemd1", path,
		    "org.freedesktop.systemd1.Service", "MainPID", &e, 'u', &p);
	if (r < 0 || !p)
		snprintf(why, why_size, "systemd gives no main PID for %s: %s",
			 unit,
			 r < 0 ? (e.message ? e.message : strerror(-r))
			       : "not running");
	*pid = (pid_t)p;
	sd_bus_error_free(&e);
	sd_bus_message_unref(m);
	sd_bus_unref(bus);
	return r < 0 || !p ? -1 : 0;
}

int daemon_opensm_pid(struct ibpartd *d, pid_t *pid)
{
	char why[300];
	ibp_error err;
	*pid = 0;
	if (d->opensm_unit)
		return unit_pid(d->opensm_unit, pid, why, sizeof(why)) ||
			       !is_opensm(*pid)
			   ? -1
			   : 0;
	if (!d->opensm_pidfile ||
	    ibp_read_pidfile(d->opensm_pidfile, pid, &err))
		return -1;
	return is_opensm(*pid) ? 0 : -1;
}

/* SIGHUP to OpenSM and the wait for its SUBNET UP; 0 or -1 with why. */
static int reload(struct ibpartd *d, pid_t *pid, bool *up, char *why,
		  size_t why_size)
{
	ibp_error err;
	if (d->opensm_unit) {
		if (unit_pid(d->opensm_unit, pid, why, why_size))
			return -1;
	} else if (ibp_read_pidfile(d->opensm_pidfile, pid, &err)) {
		snprintf(why, why_size, "%s: %s", d->opensm_pidfile,
			 err.message);
		return -1;
	}
	if (!is_opensm(*pid)) {
		snprintf(why, why_size, "process %ld (%s) is not OpenSM",
			 (long)*pid,
			 d->opensm_unit ? d->opensm_unit : d->opensm_pidfile);
		return -1;
	}
	long off = d->opensm_log ? ibp_file_size(d->opensm_log) : 0;
	if (ibp_signal_reread(*pid, &err)) {
		snprintf(why, why_size, "SIGHUP to OpenSM %ld: %s", (long)*pid,
			 err.message);
		return -1;
	}
	long ms = 0;
	*up = d->opensm_log && !ibp_wait_log(d->opensm_log, off, "SUBNET UP",
					     (int)d->wait_ms, &ms, &err);
	return 0;
}

/* With --store, while this host's OpenSM is not the master: the file
 * only, so that it holds the plan when this SM becomes master (OpenSM
 * reads it on its first heavy sweep as master); the master's ibpartd
 * signals and verifies.  0, or -1 with the reason. */
static int standby_cycle(struct ibpartd *d, uint64_t *rev, char *why,
			 size_t why_size)
{
	ibp_error err;
	if (ibp_service_write_partitions(d->svc, rev, &err)) {
		snprintf(why, why_size, "writing %s: %s", d->partitions,
			 err.message);
		return -1;
	}
	if (atomic_exchange(&d->file_rev, *rev) != *rev)
		daemon_log("ibpartd: revision %llu written to %s (OpenSM here "
			   "is %s: the master's ibpartd signals and verifies)",
			   (unsigned long long)*rev, d->partitions,
			   ha_sm_state_name(atomic_load(&d->sm_state)));
	return 0;
}

/* One cycle for the newest revision; 0, or -1 with the reason. */
static int cycle(struct ibpartd *d, uint64_t *rev, char *why, size_t why_size)
{
	ibp_error err;
	ibp_live *l = NULL;
	ibp_live_lock *lock = NULL;
	bool opensm = d->opensm_pidfile || d->opensm_unit;
	if (d->store && opensm && atomic_load(&d->sm_state) != SM_MASTER)
		return standby_cycle(d, rev, why, why_size);
	if (opensm && daemon_open_fabric(d, &l, &lock, why, why_size))
		return -1;
	int rc = -1;
	pid_t pid = 0;
	bool up = false;
	if (ibp_service_write_partitions(d->svc, rev, &err)) {
		snprintf(why, why_size, "writing %s: %s", d->partitions,
			 err.message);
	} else if ((atomic_store(&d->file_rev, *rev), !opensm)) {
		ibp_service_mark(d->svc, *rev, IBP_SERVICE_APPLIED, NULL, &err);
		/* the end of it: UFM's clients wait for last_updated */
		if (*rev)
			ibp_service_touch_last_updated(d->svc, &err);
		atomic_store(&d->done_rev, *rev);
		daemon_log("ibpartd: revision %llu written to %s (no "
			   "--opensm-pidfile: OpenSM not signalled)",
			   (unsigned long long)*rev, d->partitions);
		rc = 0;
	} else if (!reload(d, &pid, &up, why, why_size)) {
		ibp_service_mark(d->svc, *rev, IBP_SERVICE_APPLIED, NULL, &err);
		if (!verify(d, l, *rev, pid, why, why_size)) {
			rc = ibp_service_mark(d->svc, *rev,
					      IBP_SERVICE_VERIFIED, NULL, &err)
				 ? -1
				 : 0;
			if (rc)
				snprintf(why, why_size, "%s", err.message);
			else
				atomic_store(&d->done_rev, *rev);
		}
	}
	daemon_close_fabric(l, lock);
	if (!rc && pid)
		daemon_log(
		    "ibpartd: revision %llu on the fabric: OpenSM %ld %s, "
		    "verified over SMPs",
		    (unsigned long long)*rev, (long)pid,
		    up ? "logged SUBNET UP" : "said nothing in its log");
	if (!rc && pid && atomic_exchange(&d->failover_pending, false))
		daemon_log("ibpartd: failover done: this host's OpenSM is "
			   "master and the fabric holds revision %llu",
			   (unsigned long long)*rev);
	return rc;
}

void daemon_nap(struct ibpartd *d, unsigned ms)
{
	for (unsigned t = 0; t < ms && !atomic_load(&d->stopping); t += 50)
		usleep(50000);
}

static void *run(void *arg)
{
	struct ibpartd *d = arg;
	uint64_t done = 0;
	bool reconciled = false;
	unsigned backoff = 500;
	while (!atomic_load(&d->stopping)) {
		uint64_t newest = ibp_service_wait(d->svc, done, 200);
		if (reconciled && newest <= done &&
		    !atomic_exchange(&d->force_cycle, false))
			continue;
		daemon_nap(d, 50); /* let a burst of changes land: one reload */
		uint64_t rev = 0;
		char why[600] = "";
		atomic_fetch_add(&d->apply_cycles, 1);
		if (cycle(d, &rev, why, sizeof(why))) {
			atomic_fetch_add(&d->apply_failures, 1);
			ibp_error err;
			ibp_service_mark(d->svc, rev, IBP_SERVICE_FAILED, why,
					 &err);
			daemon_log(
			    "ibpartd: revision %llu failed: %s; again in "
			    "%u ms",
			    (unsigned long long)rev, why, backoff);
			daemon_nap(d, backoff);
			backoff = backoff < 30000 ? backoff * 2 : 30000;
			continue;
		}
		backoff = 500;
		done = rev;
		reconciled = true;
	}
	return NULL;
}

int daemon_thread_start(struct ibpartd *d, pthread_t *t, atomic_bool *started,
			void *(*fn)(void *))
{
	if (pthread_create(t, NULL, fn, d))
		return -1;
	atomic_store(started, true);
	return 0;
}

void daemon_thread_stop(struct ibpartd *d, pthread_t t, atomic_bool *started)
{
	atomic_store(&d->stopping, true);
	if (atomic_exchange(started, false))
		pthread_join(t, NULL);
}

int applier_start(struct ibpartd *d)
{
	return daemon_thread_start(d, &d->applier, &d->applier_started, run);
}

void applier_stop(struct ibpartd *d)
{
	daemon_thread_stop(d, d->applier, &d->applier_started);
}

int applier_reconcile_file(struct ibpartd *d)
{
	ibp_error err;
	uint64_t rev = 0;
	if (!ibp_service_store_synced(d->svc)) { /* ha.c catches up first */
		daemon_log("ibpartd: the shared store is unreachable: %s is "
			   "left as it is and changes are refused until it is "
			   "reached",
			   d->partitions);
		return 0;
	}
	if (ibp_service_write_partitions(d->svc, &rev, &err)) {
		daemon_log("ibpartd: error: %s: %s", d->partitions,
			   err.message);
		return -1;
	}
	return 0;
}
