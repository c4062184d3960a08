/*
 * applier.c - the thread that makes the fabric hold the database's
 * newest revision: revisions that arrive together are coalesced into
 * one reload (it takes the newest when it starts a cycle).  A cycle
 * renders partitions.conf atomically - always, whether or not the
 * fabric can be read - then, with OpenSM named (--opensm-pidfile, or
 * --opensm-unit's main PID over D-Bus), reads every P_KeyTable over SMPs
 * (libibumad, -C/-P) against the new file to know whether this revision
 * changes the fabric, and has the library's ibp_opensm_reload (the one
 * way ibpart drives OpenSM: the process checked, SIGHUP, the wait for
 * SUBNET UP in --opensm-log or for the fabric to hold the tables) make
 * OpenSM take it, then reads every table again (ibp_verify).
 * The whole cycle holds the CLI's apply lock for the local port, so an
 * `ibpart apply` never runs between a SIGHUP and its verification.
 * What OpenSM now remembers of each port's P_Key indexes is recorded
 * from what verify read (ibp_service_note_opensm), for the guard's
 * table-overflow judgment.
 * The revision ends (docs/ibpartd.md, "States"): verified when OpenSM
 * demonstrably took it (its log, or the fabric changing as predicted)
 * and every port holds it; applied-partially the same with GUIDs the
 * fabric has no port of (recorded per revision); applied when OpenSM
 * was signalled but that it took the revision cannot be shown (nothing
 * logged and no table changes, or no port to read: the reason says
 * which); failed, with the reason, when it could not be written or
 * signalled or the fabric does not hold it - and the cycle is tried
 * again with a doubling backoff.  Only an end other than failed moves
 * UFM's last_updated.  The first cycle runs at start whatever the
 * database says: the file and the fabric are reconciled to it.
 */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "ibpart/apply.h"
#include "ibpart/live.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/sm.h"
#include "ibpart/verify.h"
#include "ibpartd.h"
#include "ibpart/sys/apply.h"

/* One session of the daemon's open at a time (the applier's, the
 * collector's): ibsim's libumad2sim names a process's client by its pid,
 * so a second port opened while one is open aborts the process ("can't
 * bind ctl socket"); a daemon gains nothing from two sessions anyway. */
static pthread_mutex_t fabric_mutex = PTHREAD_MUTEX_INITIALIZER;

int daemon_open_fabric(struct ibpartd *d, ibp_live **l, ibp_live_lock **lock,
		       char *why, size_t why_size)
{
	return daemon_open_fabric_kept(d, l, lock, NULL, why, why_size);
}

int daemon_open_fabric_kept(struct ibpartd *d, ibp_live **l,
			    ibp_live_lock **lock, ibp_sm_discovery *kept,
			    char *why, size_t why_size)
{
	pthread_mutex_lock(&fabric_mutex);
	struct ibp_live_options lo;
	ibp_live_options_init(&lo, IBP_LIVE_OPTIONS_VERSION);
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
	if (!rc && kept) {
		ibp_live_discover_reuse(*l, kept);
		kept = NULL;
	}
	if (!rc)
		rc = ibp_live_discover(*l, &err); /* nothing when reused */
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
		ibp_sm_discovery_free(kept);
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

/* ibp_verify of the partitions file on l, the result not noted. */
static int verify_file(struct ibpartd *d, ibp_live *l, ibp_verify_result **r,
		       char *why, size_t why_size)
{
	ibp_error err;
	ibp_error_clear(&err);
	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo, IBP_VERIFY_OPTIONS_VERSION);
	vo.conf_path = d->partitions;
	vo.alias_guids_path = aliases_path(d);
	vo.allow_both_pkeys = d->have_osm && d->osm.allow_both_pkeys;
	vo.compact_pkey_indexes = d->have_osm && !d->osm.keep_pkey_indexes;
	*r = NULL;
	if (ibp_verify(l, &vo, r, NULL, &err)) {
		snprintf(why, why_size, "verify: %s", err.message);
		return -1;
	}
	return 0;
}

int daemon_verify(struct ibpartd *d, ibp_live *l, ibp_verify_result **r,
		  char *why, size_t why_size)
{
	if (verify_file(d, l, r, why, why_size))
		return -1;
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
			       !ibp_opensm_is_process(*pid)
			   ? -1
			   : 0;
	if (!d->opensm_pidfile ||
	    ibp_read_pidfile(d->opensm_pidfile, pid, &err))
		return -1;
	return ibp_opensm_is_process(*pid) ? 0 : -1;
}

bool daemon_vports(const struct ibpartd *d)
{
	return d->have_osm && d->osm.have_virt_enabled &&
	       d->osm.virt_enabled == 2;
}

/* OpenSM's pid: --opensm-unit's main PID, or 0 (the pid file is
 * ibp_opensm_reload's to read); 0 or -1 with why. */
static int opensm_pid(struct ibpartd *d, pid_t *pid, char *why, size_t why_size)
{
	*pid = 0;
	return d->opensm_unit ? unit_pid(d->opensm_unit, pid, why, why_size)
			      : 0;
}

/* What a cycle saw: the session (NULL when the port cannot be opened:
 * nofab says why), whether the revision changes the fabric, how OpenSM
 * took it. */
struct seen {
	ibp_live *l;
	ibp_live_lock *lock;
	char nofab[600];
	ibp_verify_result *before;
	size_t moving; /* differences before the signal */
	struct ibp_apply_opensm_result took;
	int reload_rc;
	char reload_why[600];
};

/* The kind an absent GUID is recorded with: under NVIDIA OpenSM's
 * virtualization (--opensm-conf with virt_enabled 2) a GUID that is no
 * port and no node GUID may be a VF's vport, which that SM programs on
 * a table ibpart does not read: "vport", never an ignored alias. */
static const char *absent_kind(const struct ibpartd *d,
			       const struct ibp_absent_member *m)
{
	if (daemon_vports(d) && m->kind != IBP_GUID_NODE)
		return "vport";
	return ibp_guid_kind_str(m->kind);
}

/* The GUIDs the revision names that the fabric has no port of, recorded
 * with the revision; their count, and in *vports how many of them may be
 * vports (absent_kind). */
static size_t note_absent(struct ibpartd *d, uint64_t rev,
			  const ibp_verify_result *r, size_t *vports)
{
	size_t n = ibp_verify_result_absent_count(r);
	*vports = 0;
	for (size_t i = 0; i < n; i++)
		*vports += !strcmp(
		    absent_kind(d, ibp_verify_result_absent_at(r, i)), "vport");
	struct ibp_service_absent *a = calloc(n ? n : 1, sizeof(*a));
	if (!a)
		return n;
	for (size_t i = 0; i < n; i++) {
		const struct ibp_absent_member *m =
		    ibp_verify_result_absent_at(r, i);
		a[i].guid = m->guid;
		a[i].kind = absent_kind(d, m);
		a[i].hint = m->hint;
	}
	ibp_error err;
	if (ibp_service_note_absent(d->svc, rev, a, n, &err))
		daemon_log("ibpartd: revision %llu: its absent GUIDs not "
			   "recorded: %s",
			   (unsigned long long)rev, err.message);
	free(a);
	return n;
}

/* --repair-drift: OpenSM took the file but ports do not hold it - a
 * change made behind its back, which its SIGHUP does not undo (it
 * programs a port only where its own copy of the table differs) - so
 * the differing blocks are pushed to what OpenSM already believes they
 * hold (ibp_apply, as `ibpart apply --direct --force`).  0, or -1 with
 * why. */
static int push_drift(struct ibpartd *d, ibp_live *l, char *why,
		      size_t why_size)
{
	struct ibp_apply_options o;
	ibp_apply_options_init(&o, IBP_APPLY_OPTIONS_VERSION);
	o.conf_path = d->partitions;
	o.force = true;
	o.allow_both_pkeys = d->have_osm && d->osm.allow_both_pkeys;
	o.compact_pkey_indexes = d->have_osm && !d->osm.keep_pkey_indexes;
	struct ibp_apply_run_options ro;
	ibp_apply_run_options_init(&ro, IBP_APPLY_RUN_OPTIONS_VERSION);
	ibp_apply *a = NULL;
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_apply_plan(l, &o, &a, NULL, &err);
	if (!rc)
		rc = ibp_apply_run(a, &ro, &err);
	size_t n = a ? ibp_apply_port_count(a) : 0;
	ibp_apply_free(a);
	if (rc) {
		snprintf(why, why_size, "--repair-drift: %s", err.message);
		return -1;
	}
	daemon_log("ibpartd: --repair-drift: %zu ports set back to what "
		   "OpenSM programmed",
		   n);
	return 0;
}

/* The end of a revision OpenSM was signalled for: 0 with *st and why
 * (the reason, "" when none), or -1 (failed, why).  The library decides
 * (ibp_service_revision_end); here the fabric is verified, --repair-drift
 * pushes and what verify found is recorded. */
static int judge(struct ibpartd *d, struct seen *v, uint64_t rev,
		 ibp_service_state *st, char *why, size_t why_size)
{
	struct ibp_service_cycle_facts f;
	ibp_service_cycle_facts_init(&f, IBP_SERVICE_CYCLE_FACTS_VERSION);
	f.reload_rc = v->reload_rc;
	f.reload_why = v->reload_why;
	f.opensm_pid = (long)v->took.pid;
	f.logged_subnet_up = v->took.seen == IBP_OPENSM_SUBNET_UP;
	f.fabric_held = v->took.seen == IBP_OPENSM_FABRIC_HOLDS;
	f.opensm_log = d->opensm_log != NULL;
	f.fabric_read = v->l != NULL;
	f.no_fabric_why = v->nofab;
	ibp_error err;
	ibp_error_clear(&err);
	if (ibp_service_revision_end(&f, st, why, why_size, &err)) {
		snprintf(why, why_size, "%s", err.message);
		return -1;
	}
	if (*st != IBP_SERVICE_PENDING) /* decided without verifying */
		return *st == IBP_SERVICE_FAILED ? -1 : 0;
	ibp_verify_result *r = NULL;
	if (daemon_verify(d, v->l, &r, why, why_size))
		return -1;
	f.differences = ibp_verify_result_differences(r, &f.ports);
	if (f.differences && d->repair_drift && v->reload_rc == 0 &&
	    !push_drift(d, v->l, why, why_size)) {
		ibp_verify_result_free(r);
		r = NULL;
		if (daemon_verify(d, v->l, &r, why, why_size))
			return -1;
		f.differences = ibp_verify_result_differences(r, &f.ports);
	}
	f.absent = note_absent(d, rev, r, &f.vports);
	f.verified = true;
	int rc = ibp_service_revision_end(&f, st, why, why_size, &err);
	if (!rc && (*st == IBP_SERVICE_VERIFIED ||
		    *st == IBP_SERVICE_APPLIED_PARTIALLY))
		note_opensm(d, rev, v->took.pid, r);
	ibp_verify_result_free(r);
	if (rc)
		snprintf(why, why_size, "%s", err.message);
	return rc || *st == IBP_SERVICE_FAILED ? -1 : 0;
}

/* Signal OpenSM for the file just written and wait (the library's
 * reload), having read whether the revision changes the fabric. */
static int reload(struct ibpartd *d, struct seen *v, char *why, size_t why_size)
{
	pid_t pid = 0;
	if (opensm_pid(d, &pid, why, why_size))
		return -1;
	if (daemon_open_fabric(d, &v->l, &v->lock, v->nofab, sizeof(v->nofab)))
		v->l = NULL;
	if (v->l && !atomic_load(&d->aliases_learned))
		(void)aliases_learn(d, v->l,
				    false); /* at start; then each sweep */
	char bwhy[600];
	if (v->l && !verify_file(d, v->l, &v->before, bwhy, sizeof(bwhy)))
		v->moving = ibp_verify_result_differences(v->before, NULL);
	struct ibp_opensm_reload_options o;
	ibp_opensm_reload_options_init(&o, IBP_OPENSM_RELOAD_OPTIONS_VERSION);
	o.partitions = d->partitions;
	o.pid = pid;
	o.pidfile = d->opensm_pidfile;
	o.log = d->opensm_log;
	o.want = v->moving ? ibp_verify_result_want(v->before) : NULL;
	o.wait_ms = (int)d->wait_ms;
	ibp_error err;
	ibp_error_clear(&err);
	v->reload_rc = ibp_opensm_reload(v->l, &o, &v->took, &err);
	snprintf(v->reload_why, sizeof(v->reload_why), "%s", err.message);
	return 0;
}

static void seen_free(struct seen *v)
{
	ibp_verify_result_free(v->before); /* before the session closes */
	daemon_close_fabric(v->l, v->lock);
}

#define GUARD_CHECK_S 10

/* The guard's kept answer audited whole against the file's, off the
 * request path (service_guard_state.c), when a revision was written
 * since the last time and GUARD_CHECK_S have passed: at 48k ports the
 * whole audit costs more than the changes it follows, so a burst is
 * checked at most every 10 s and at its end (the idle loop calls this
 * too). */
static void guard_check(struct ibpartd *d)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!d->guard_unchecked ||
	    (d->guard_checked && now.tv_sec - d->guard_checked < GUARD_CHECK_S))
		return;
	d->guard_unchecked = false;
	d->guard_checked = now.tv_sec;
	char drift[400];
	unsigned long drifts;
	if (ibp_service_guard_check(d->svc, drift, sizeof(drift), &drifts))
		daemon_log("ibpartd: %s (the isolation guard's incremental "
			   "audit differs from the whole audit, %lu time(s) "
			   "since the start; it is built again from the file)",
			   drift, drifts);
}

/* One cycle for the newest revision: 0 (its end recorded), or -1 with
 * the reason (*rev the revision it was for). */
static int cycle(struct ibpartd *d, uint64_t *rev, char *why, size_t why_size)
{
	ibp_error err;
	bool opensm = d->opensm_pidfile || d->opensm_unit;
	*rev = ibp_service_revision(d->svc);
	if (ibp_service_write_partitions(d->svc, rev, &err)) {
		snprintf(why, why_size, "writing %s: %s", d->partitions,
			 err.message);
		return -1;
	}
	/* with --store, while this host's OpenSM is not the master: the
	 * file only, so that it holds the plan when this SM becomes master
	 * (it reads the file on its first heavy sweep as master); the
	 * master's ibpartd signals and verifies (ha.c) */
	bool news = atomic_exchange(&d->file_rev, *rev) != *rev;
	d->guard_unchecked = d->guard_unchecked || news;
	guard_check(d);
	if (d->store && opensm && atomic_load(&d->sm_state) != SM_MASTER) {
		if (news)
			daemon_log("ibpartd: revision %llu written to %s "
				   "(OpenSM here is %s: the master's ibpartd "
				   "signals and verifies)",
				   (unsigned long long)*rev, d->partitions,
				   ha_sm_state_name(atomic_load(&d->sm_state)));
		return 0;
	}
	if (!opensm) {
		if (ibp_service_mark(d->svc, *rev, IBP_SERVICE_APPLIED,
				     "written; no OpenSM named to signal",
				     &err)) {
			snprintf(why, why_size, "%s", err.message);
			return -1;
		}
		/* the end of it: UFM's clients wait for last_updated */
		if (*rev)
			ibp_service_touch_last_updated(d->svc, &err);
		atomic_store(&d->done_rev, *rev);
		daemon_log("ibpartd: revision %llu written to %s (no "
			   "--opensm-pidfile: OpenSM not signalled)",
			   (unsigned long long)*rev, d->partitions);
		return 0;
	}
	struct seen v = {.took = {.version = IBP_APPLY_OPENSM_RESULT_VERSION}};
	ibp_service_state st = IBP_SERVICE_APPLIED;
	int rc = reload(d, &v, why, why_size);
	if (!rc)
		rc = judge(d, &v, *rev, &st, why, why_size);
	seen_free(&v);
	if (rc)
		return -1;
	if (ibp_service_mark(d->svc, *rev, st, why[0] ? why : NULL, &err)) {
		snprintf(why, why_size, "%s", err.message);
		return -1;
	}
	if (st == IBP_SERVICE_APPLIED && *rev)
		ibp_service_touch_last_updated(d->svc, &err);
	else if (st != IBP_SERVICE_APPLIED) /* a drifted one held again */
		ibp_service_note_drift(d->svc, *rev, 0, NULL, NULL, &err);
	atomic_store(&d->done_rev, *rev);
	if (st == IBP_SERVICE_APPLIED)
		daemon_log("ibpartd: revision %llu applied: %s",
			   (unsigned long long)*rev, why);
	else
		daemon_log("ibpartd: revision %llu on the fabric: OpenSM %ld "
			   "%s, verified over SMPs%s%s",
			   (unsigned long long)*rev, (long)v.took.pid,
			   v.took.seen == IBP_OPENSM_SUBNET_UP
			       ? "logged SUBNET UP"
			       : "said nothing in its log, the fabric changed "
				 "as predicted",
			   why[0] ? "; " : "", why);
	if (atomic_exchange(&d->failover_pending, false))
		daemon_log("ibpartd: failover done: this host's OpenSM is "
			   "master and the fabric holds revision %llu",
			   (unsigned long long)*rev);
	return 0;
}

void daemon_nap(struct ibpartd *d, unsigned ms)
{
	for (unsigned t = 0; t < ms && !atomic_load(&d->stopping); t += 50)
		usleep(50000);
}

/* Log one line when what keeps the partitions file from being written
 * appears, changes or is resolved (an operator's edit between revisions
 * too): last holds what was logged. */
static void watch_file(struct ibpartd *d, char *last, size_t size)
{
	char problem[512];
	ibp_service_file_problem(d->svc, problem, sizeof(problem));
	if (!strncmp(problem, last, size - 1))
		return;
	if (problem[0])
		daemon_log("ibpartd: error: the partitions file is not written "
			   "until this is resolved: %s",
			   problem);
	else
		daemon_log("ibpartd: the partitions file can be written again");
	snprintf(last, size, "%s", problem);
}

static void *run(void *arg)
{
	struct ibpartd *d = arg;
	uint64_t done = 0;
	bool reconciled = false;
	unsigned backoff = 500, idle = 0;
	char problem[512] = "";
	while (!atomic_load(&d->stopping)) {
		uint64_t newest = ibp_service_wait(d->svc, done, 200);
		if (reconciled && newest <= done &&
		    !atomic_exchange(&d->reapply, false)) {
			if (++idle % 10 == 0) /* every 2 s */
				watch_file(d, problem, sizeof(problem));
			guard_check(d); /* a burst's last revision */
			continue;
		}
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
		/* the cycle's reads of every P_KeyTable, its discovery and
		 * the requests answered meanwhile leave free memory in
		 * every thread's malloc arena: given back, else the RSS
		 * creeps up with the changes (docs/ibpartd.md, "Memory") */
		malloc_trim(0);
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
		/* a file that cannot be trusted is reported, and the service
		 * runs to report it (status, /metrics, the page) */
		return err.status == IBP_EBUSY ? 0 : -1;
	}
	return 0;
}
