/*
 * ibpartd.h - what the files of the daemon share: its options, the
 * service it fronts, the users and the applier, and the HTTP request a
 * route handler sees.  The daemon is a thin front end: every P_Key
 * operation is the library's (include/ibpart/service.h).
 */
#ifndef IBPARTD_H
#define IBPARTD_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/live.h"
#include "ibpart/monitor.h"
#include "ibpart/opensm_conf.h"
#include "ibpart/service.h"
#include "ibpart/verify.h"

struct users; /* the users file (auth.c) */

/* One API user's profile (profile.c). */
struct profile {
	char *user;	    /* "*": every user no other profile names */
	bool not_found_404; /* an unknown P_Key: 404, not 200 "{}" */
	char **warn; /* audit codes that only warn; NULL-terminated or NULL */
};

struct ibpartd {
	/* options */
	const char *listen, *users_path, *db, *partitions, *topology;
	const char *opensm_pidfile, *opensm_unit, *opensm_log, *ca, *sm_port;
	const char *cert, *key;
	const char *client_ca; /* HTTPS: client certificates it signed */
	int port;
	bool http;
	bool metrics_no_auth; /* /metrics open without credentials */
	unsigned threads;
	unsigned wait_ms;	   /* for OpenSM to take a file */
	unsigned monitor_interval; /* seconds between sweeps; 0: none */
	const char *mkey_file;	   /* the M_Key of every SMP (--mkey-file) */
	uint64_t mkey;		   /* read from it at start; 0: none */
	const char *opensm_conf;   /* OpenSM's opensm.conf (--opensm-conf) */
	struct profile *profiles;  /* --profile, in the order given */
	size_t nprofiles;
	bool have_osm;
	ibp_osm_conf osm; /* read from it at start */
	/* state */
	unsigned bound_port; /* the port listened on (--listen ...:0) */
	ibp_service *svc;
	struct users *users;
	pthread_t applier;
	atomic_bool stopping;
	atomic_bool applier_started;
	/* for /metrics */
	atomic_ulong requests[6]; /* by status class: 1xx..5xx, other */
	atomic_ulong apply_cycles, apply_failures;
	/* the newest revision at its end (verified; or written, with no
	 * OpenSM to signal): a call that changes nothing at or below it
	 * moves UFM's last_updated (routes.c) */
	atomic_ullong done_rev;
	/* the fabric's part of /metrics (collector.c), under metrics_lock */
	pthread_t collector;
	atomic_bool collector_started;
	pthread_mutex_t metrics_lock;
	char *sweep_text; /* the last sweep's exposition */
	unsigned long sweeps, sweep_failures;
	double sweep_seconds;
	/* the audit by severity, the last verification's drift by kind */
	struct ibp_monitor_posture posture;
	/* the last sweeps' tenant totals and drift, for GET / */
	ibp_monitor_history *history;
	/* the last verification's drifted ports, for GET / (collector.c) */
	struct drift_rows *drift_rows;
};

/* ---- auth.c ---- */
/* Read the users file (name:crypt-hash lines); refuse one that group or
 * others may read.  0, or -1 after printing why. */
int users_load(const char *path, struct users **out);
void users_free(struct users *u);
/* Are user and pass (HTTP Basic) those of the users file?  The name
 * into who. */
bool auth_basic(const struct users *u, const char *user, const char *pass,
		char *who, size_t who_size);
/* Does it carry a valid token (Basic <token>, /ufmRestV3)? */
bool auth_token(ibp_service *svc, const char *header, char *who,
		size_t who_size);
/* A new token for user, stored hashed; the token (malloc'd) or NULL. */
char *auth_token_issue(ibp_service *svc, const char *user, long *issued_at);

/* ---- profile.c ---- */
/* --profile's reader (an IBP_ARG_FN on the struct ibpartd): 0, or -1
 * after the usage error. */
int profile_take(const char *cmd, void *dest, const char *val);
/* user's profile, else "*"'s, else the default (never NULL). */
const struct profile *profile_of(const struct ibpartd *d, const char *user);
void profiles_free(struct ibpartd *d);

/* ---- http.c ---- */
/* Start libmicrohttpd on d->listen with a thread pool; stop it. */
int http_start(struct ibpartd *d);
void http_stop(void);
/* One line of the daemon's log (stderr: the journal), escaped whole as
 * every ibpart output is (escape.h), in one write.  What a request
 * carries (its URL, a user's name, a JSON value quoted in a refusal) can
 * hold a newline or a terminal escape, and must not forge or hide a
 * line; paths and names from the command line go the same way.
 * (Defined in http.c.) */
void daemon_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- routes.c ---- */
/* One request as a handler sees it. */
struct request {
	const char *method, *path; /* path: after the prefix for UFM routes */
	const char *body;
	size_t body_len;
	const char *args[2]; /* the {…} segments of the pattern */
	bool guids_data, qos_conf;
	const char *sys_type; /* ?sys_type= (GET /resources/ports); NULL */
	const char *user;
	struct ibpartd *d;
};
/* What a handler answers: status and a malloc'd JSON body. */
struct response {
	unsigned status;
	char *body;
	const char *content_type; /* NULL: application/json */
};
/* {"error": msg, "status": status} (malloc'd; NULL on ENOMEM). */
char *json_error(const char *msg, unsigned status);
/* Route one authenticated request (prefix "/ufmRest", "/ufmRestV3" or
 * "" for /ibpart/v1): fills r.  false when no route matches. */
bool routes_dispatch(const char *prefix, struct request *q, struct response *r);

/* ---- applier.c ---- */
/* Start the thread that brings the fabric to the database's revision;
 * stop it after the change in flight (applier_stop joins). */
int applier_start(struct ibpartd *d);
void applier_stop(struct ibpartd *d);
/* Bring the file to the database at start (before serving). */
int applier_reconcile_file(struct ibpartd *d);
/* A session on -C/-P, discovered, the SM's port found; with lock
 * non-NULL first the apply lock taken (waiting up to --wait).  0, or -1
 * with the reason (nothing then open or held). */
int daemon_open_fabric(struct ibpartd *d, ibp_live **l, ibp_live_lock **lock,
		       char *why, size_t why_size);
/* Release the lock (may be NULL) and close a session daemon_open_fabric
 * opened (l NULL: nothing), letting the next one open. */
void daemon_close_fabric(ibp_live *l, ibp_live_lock *lock);
/* Start fn(d) as thread *t (*started then true); stop: set stopping,
 * join it if started. */
int daemon_thread_start(struct ibpartd *d, pthread_t *t, atomic_bool *started,
			void *(*fn)(void *));
void daemon_thread_stop(struct ibpartd *d, pthread_t t, atomic_bool *started);
/* Read every P_KeyTable over SMPs on the open session l and compare
 * it with the partitions file, as OpenSM reads it with --opensm-conf's
 * options (allow_both_pkeys, keep_pkey_indexes): the applier's check
 * and GET /ibpart/v1/verify.  0 and *r (the caller frees it), or -1
 * with the reason. */
int daemon_verify(struct ibpartd *d, ibp_live *l, ibp_verify_result **r,
		  char *why, size_t why_size);
/* Sleep ms milliseconds, or less when the daemon is stopping. */
void daemon_nap(struct ibpartd *d, unsigned ms);

/* ---- adopt.c ---- */
/* `ibpartd adopt ...` (argv[0] is "adopt"): the exit status. */
int adopt_main(int argc, char **argv);

/* ---- collector.c ---- */
/* Start the thread that sweeps the monitor's counters every
 * --monitor-interval seconds (none when 0); collector_stop joins it. */
int collector_start(struct ibpartd *d);
void collector_stop(struct ibpartd *d);
/* Keep the drift of a verification for /metrics (ibpart_drift_ports). */
void collector_note_verify(struct ibpartd *d, const ibp_verify_result *r);
/* The collector's families (its own counters, the audit, the drift,
 * the last sweep's exposition) appended to f. */
void collector_metrics(struct ibpartd *d, FILE *f);
/* A copy of the kept sweeps as the web view's series (NULL when none
 * or out of memory; ibp_monitor_series_free). */
ibp_monitor_series *collector_series(struct ibpartd *d);
/* The last verification's drifted ports (the applier's, a sweep's, GET
 * /ibpart/v1/verify's) as the web view's rows, *n of them (NULL, 0 when
 * none or not verified yet), valid until collector_drift_put(d, *ref). */
const ibp_web_drift *collector_drift(struct ibpartd *d, size_t *n,
				     struct drift_rows **ref);
void collector_drift_put(struct ibpartd *d, struct drift_rows *ref);

#endif
