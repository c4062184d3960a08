/*
 * ibpartd.h - what the files of the daemon share: its options, the
 * service it fronts, the users and the applier, and the HTTP request a
 * route handler sees.  The daemon is a thin front end: every P_Key
 * operation is the library's (include/ibpart/sys/service.h).
 */
#ifndef IBPARTD_H
#define IBPARTD_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/live.h"
#include "ibpart/monitor.h"
#include "ibpart/sys/monitor.h"
#include "ibpart/opensm_conf.h"
#include "ibpart/sys/service.h"
#include "ibpart/verify.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/report.h"

struct users;	    /* the users file (auth.c) */
struct cred_cache;  /* credentials verified lately (cred_cache.c) */
struct login_limit; /* failed logins per address and user (login_limit.c) */

/* What a credential allows (docs/ibpartd.md, "Security"): read the
 * GETs; change the UFM P_Key operations; admin also adopt, tokens of
 * others, OpenSM's keys. */
enum role { ROLE_READ, ROLE_CHANGE, ROLE_ADMIN };

/* A P_Key range a user may change, both ends included. */
struct pkey_range {
	uint16_t lo, hi;
};

/* Who a request is: the user (a token's owner, the user a certificate's
 * CN names, or "cert:CN"), how it proved it, its role and its P_Key
 * ranges (none: every P_Key). */
struct principal {
	char name[128];
	char via[160]; /* "basic", "token:ID" or "cert:CN" */
	enum role role;
	const struct pkey_range *ranges;
	size_t nranges;
};

/* One API user's profile (profile.c). */
struct profile {
	char *user;	    /* "*": every user no other profile names */
	bool not_found_404; /* an unknown P_Key: 404, not 200 "{}" */
	char **warn; /* audit codes that only warn; NULL-terminated or NULL */
};

/* A view kept as last rendered (view_cache.c). */
struct view_cache {
	pthread_mutex_t lock;
	uint64_t key, extra; /* the service's view key, the caller's more */
	char *body;	     /* NULL: none kept */
	unsigned long renders;
};

struct ibpartd {
	/* options */
	const char *listen, *users_path, *db, *partitions, *topology;
	const char *alias_guids; /* the fabric's alias GUIDs (alias_map.h) */
	int vf_guids; /* --vf-guids: an ibp_vf_guids (PHYSICAL: aliases on
			 their ports in OpenSM's file) */
	const char *opensm_pidfile, *opensm_unit, *opensm_log, *ca, *sm_port;
	const char *cert, *key;
	const char *store;	/* --store: the shared store's URL; NULL:
				   --db alone (one host) */
	const char *host_name;	/* --host-name (default: gethostname) */
	const char *client_ca;	/* HTTPS: client certificates it signed */
	const char *krb_keytab; /* HTTPS: /ufmRestKrb's acceptor key */
	struct krb *krb;	/* from it (krb.c); NULL: no /ufmRestKrb */
	int port;
	bool http;
	bool metrics_no_auth; /* /metrics open without credentials */
	bool repair_drift;    /* --repair-drift: drift found is re-applied */
	unsigned threads;
	/* the limits (docs/ibpartd.md, "Security") */
	unsigned max_connections;    /* --max-connections */
	unsigned per_ip_connections; /* --per-ip-connections */
	unsigned request_timeout;    /* --request-timeout, seconds */
	unsigned login_failures;     /* --login-failures per minute */
	struct login_limit *logins;
	unsigned wait_ms;	   /* for OpenSM to take a file */
	unsigned monitor_interval; /* seconds between sweeps; 0: none */
	unsigned full_every;	   /* a full discovery every N sweeps at
				      least (--full-discovery-every) */
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
	/* the collector found the fabric no longer holds done_rev and
	 * --repair-drift asks the applier to apply it again */
	atomic_bool reapply;
	/* the fabric's part of /metrics (collector.c), under metrics_lock */
	pthread_t collector;
	atomic_bool collector_started;
	pthread_mutex_t metrics_lock;
	char *sweep_text; /* the last sweep's exposition */
	unsigned long sweeps, sweep_failures;
	/* sweeps that discovered the fabric, and that kept the last
	 * discovery (nothing changed: collector.c) */
	unsigned long discoveries_full, discoveries_light;
	struct ibp_sm_discovery *kept; /* the last sweep's discovery */
	unsigned since_full;	       /* light sweeps since the last full */
	long log_off;		       /* how far the OpenSM log was read */
	double sweep_seconds;
	/* the audit by severity, the last verification's drift by kind */
	struct ibp_monitor_posture posture;
	/* the last sweeps' tenant totals and drift, for GET / */
	ibp_monitor_history *history;
	/* the last verification's drifted ports, for GET / (collector.c) */
	struct drift_rows *drift_rows;
	/* what GET / shows of the collector changed (a sweep kept, a
	 * verification's drift): under metrics_lock */
	unsigned long page_gen;
	/* GET / and GET /ibpart/v1/status as last rendered (view_cache.c) */
	struct view_cache page, status;
	/* the fabric's alias GUIDs as learned (aliases.c) */
	char *learned_aliases;	       /* DB.aliases: the map learned */
	atomic_bool aliases_learned;   /* learned at least once */
	atomic_bool aliases_in_effect; /* learned_aliases is the map used */
	atomic_ulong alias_count, alias_learns, alias_learn_failures;
	char aliases_why[600]; /* the last failure logged ("": none) */
	/* the SM pair (ha.c), with --store */
	pthread_t ha;
	atomic_bool ha_started;
	atomic_int sm_state;	      /* enum sm_state, this host's OpenSM */
	atomic_bool failover_pending; /* the next verified cycle ends one */
	atomic_bool store_up;	      /* the last poll reached the store */
	atomic_ulong failovers;	      /* this host's SM became master */
	atomic_ullong file_rev;	      /* the revision the file holds */
	/* the applier's thread only: a revision written and not yet
	 * audited whole against the guard's kept answer, and when that
	 * audit last ran (CLOCK_MONOTONIC s) */
	bool guard_unchecked;
	time_t guard_checked;
	long ha_log_off; /* how far OpenSM's log is read */
};

/* This host's OpenSM's state (IBA 14.4.1), as ha.c learns it. */
enum sm_state {
	SM_UNKNOWN,
	SM_DOWN,
	SM_NOT_ACTIVE,
	SM_DISCOVERING,
	SM_STANDBY,
	SM_MASTER
};

/* ---- auth.c ---- */
/* Read the users file: "name:hash[:key=value ...]" lines (the hash as
 * crypt(3) makes it; role=read|change|admin, pkeys=RANGES, profile=...
 * kept for later).  Refuses a file group or others may read, one the
 * daemon's user does not own, one reached through a directory others
 * may write, and a line longer than it reads whole.  0, or -1 after
 * printing why. */
int users_load(const char *path, struct users **out);
void users_free(struct users *u);
/* Are user and pass (HTTP Basic, lengths given: a NUL inside is a
 * failure) those of the users file?  The user's principal into p.
 * crypt(3) runs the same whether or not the user exists. */
bool auth_basic(const struct users *u, const char *user, const char *pass,
		struct principal *p);
/* Does header carry a valid, unexpired token (Basic <token>,
 * /ufmRestV3) of a user still in the users file?  Its principal (the
 * token's role, the user's ranges) into p; its last use recorded. */
bool auth_token(ibp_service *svc, const struct users *u, const char *header,
		struct principal *p);
/* The principal of a Kerberos principal whose local name is name:
 * false when the users file has no line for it. */
bool auth_krb(const struct users *u, const char *name, struct principal *p);
/* The principal of a certificate with common name cn: the user of that
 * name when the users file has one, else "cert:CN" with role change. */
void auth_cert(const struct users *u, const char *cn, struct principal *p);
/* A new token for p's user with role (at most p's) living lifetime
 * seconds, stored hashed; the token (malloc'd) or NULL. */
char *auth_token_issue(ibp_service *svc, const struct principal *p,
		       enum role role, long lifetime, long *issued_at);
/* The credential checks' counters (crypt(3) runs, checks found
 * verified) as /metrics families. */
void auth_metrics(const struct users *u, FILE *f);
/* The value of key (role, pkeys, profile) on user's line of the users
 * file; NULL when it has none or there is no such user.  profile=
 * names the --profile the user is served by (profile.c). */
const char *auth_user_attr(const struct users *u, const char *user,
			   const char *key);
/* "read", "change" or "admin"; role_parse the other way (false: none
 * of them). */
const char *role_name(enum role r);
bool role_parse(const char *s, enum role *r);

/* ---- cred_cache.c ---- */
/* Checks of a secret against a stored crypt(3) hash that passed, kept
 * as a keyed MAC of both for a few minutes in a fixed number of slots
 * (the file's top comment says why that is safe).  NULL on failure. */
struct cred_cache *cred_cache_new(void);
void cred_cache_free(struct cred_cache *c);
/* Did secret pass against hash lately?  (c NULL: no.) */
bool cred_cache_has(struct cred_cache *c, const char *hash, const char *secret);
/* secret passed against hash: keep it. */
void cred_cache_put(struct cred_cache *c, const char *hash, const char *secret);
/* Count a crypt(3) run (for /metrics). */
void cred_cache_crypt_ran(struct cred_cache *c);
/* The counters as /metrics families. */
void cred_cache_metrics(struct cred_cache *c, FILE *f);

/* ---- krb.c ---- */
struct krb;
/* The acceptor's credential from keytab (no replay cache: krb.c says
 * why); 0, or -1 and the reason into err. */
int krb_open(const char *keytab, struct krb **out, char *err, size_t n);
void krb_close(struct krb *k);
/* Accept the Negotiate token of header: 0 and the principal's local
 * name into name (*reply: the mutual-authentication token to send back
 * as "WWW-Authenticate: Negotiate <reply>", malloc'd, or NULL); 1 when
 * there is no token, -1 when it is refused (the reason into err). */
int krb_accept(struct krb *k, const char *header, char *name, size_t n,
	       char **reply, char *err, size_t errn);

/* ---- login_limit.c ---- */
/* Failed logins counted per client address and per user name (existing
 * or not) in one-minute windows: after max of either, login_limited
 * says so until the window ends.  NULL on ENOMEM. */
struct login_limit *login_limit_new(unsigned max);
void login_limit_free(struct login_limit *l);
/* Is addr or user (may be NULL) over the limit now? */
bool login_limited(struct login_limit *l, const char *addr, const char *user);
/* Count a failed login of user (may be NULL) from addr. */
void login_failed(struct login_limit *l, const char *addr, const char *user);

/* ---- conn_watch.c ---- */
/* The slow-client deadline: a request (its headers and body) must
 * arrive within --request-timeout seconds of the connection's start or
 * the previous answer, however slowly its bytes trickle; the watcher
 * shuts a late connection's socket down.  conn_watch_event is
 * libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION callback. */
int conn_watch_start(struct ibpartd *d);
void conn_watch_stop(void);
void conn_watch_event(void *cls, struct MHD_Connection *c,
		      void **socket_context,
		      enum MHD_ConnectionNotificationCode toe);
/* The handler is working on the connection's request (busy: no
 * deadline), or has queued its answer (the clock starts again). */
void conn_watch_busy(void *socket_context, bool busy);

/* ---- request_check.c ---- */
/* A refusal before the body is read: status and why (a constant). */
struct refusal {
	unsigned status;
	const char *why;
};
/* The framing and bytes of a request, before anything else: the raw
 * request target (NUL as %00: 400; over IBPD_URL_MAX bytes: 414), a NUL
 * in a header name or value, Content-Length with Transfer-Encoding, two
 * Content-Lengths, or one not a number (400).
 * true when it may go on, else *r says why not. */
bool request_check_framing(struct MHD_Connection *c, const char *method,
			   const char *version, const char *raw_uri,
			   struct refusal *r);
/* A state-changing request (not GET/HEAD) from a browser page of
 * another origin (an Origin or Sec-Fetch-Site saying so): 403. */
bool request_check_origin(struct MHD_Connection *c, const char *method,
			  struct refusal *r);
/* A request with a body to a JSON route must say Content-Type:
 * application/json (or a +json type): 415 otherwise. */
bool request_check_json(struct MHD_Connection *c, struct refusal *r);
/* The request target's longest length (the path and the query, as
 * sent): 8 KiB, 480 GUIDs in one DELETE path. */
#define IBPD_URL_MAX 8192

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
	const char *user;     /* who->name */
	const struct principal *who;
	const char *client; /* the client's address */
	const char *query;  /* the raw query string, "" when none */
	struct ibpartd *d;
};
/* What a handler answers: status and a malloc'd JSON body. */
struct response {
	unsigned status;
	char *body;
	const char *content_type; /* NULL: application/json */
};
/* What a route allows, known before the body is read. */
struct route_info {
	size_t body_max; /* the largest body it takes (0: none) */
	enum role role;	 /* the least role that may call it */
	bool json;	 /* a body is JSON */
};
/* {"error": msg, "status": status} (malloc'd; NULL on ENOMEM). */
char *json_error(const char *msg, unsigned status);
/* The route of method and path under prefix ("/ufmRest", "/ufmRestV3"
 * or "" for /ibpart/v1): 200 and its limits into *ri, 404 when no
 * route's path matches, 405 when one does for another method. */
unsigned routes_lookup(const char *prefix, const char *method, const char *path,
		       struct route_info *ri);
/* Route one authenticated request: fills r.  false when no route
 * matches. */
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
/* The same, the session given the kept discovery (consumed; NULL:
 * discover) instead of discovering: the collector's light sweep. */
struct ibp_sm_discovery;
int daemon_open_fabric_kept(struct ibpartd *d, ibp_live **l,
			    ibp_live_lock **lock, struct ibp_sm_discovery *kept,
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
/* OpenSM's pid from --opensm-pidfile or --opensm-unit, checked to be
 * OpenSM's; 0, or -1 (none given, not running, not OpenSM). */
int daemon_opensm_pid(struct ibpartd *d, pid_t *pid);
/* --opensm-conf turns NVIDIA OpenSM's virtualization on (virt_enabled
 * 2): VF GUIDs may be vports (docs/virtual-functions.md). */
bool daemon_vports(const struct ibpartd *d);

/* ---- ha.c: the SM pair's host (--store) ---- */
/* Start the thread that follows the shared store and this host's
 * OpenSM (nothing without --store); ha_stop joins it. */
int ha_start(struct ibpartd *d);
void ha_stop(struct ibpartd *d);
/* "MASTER", "STANDBY", ..., "down", "unknown". */
const char *ha_sm_state_name(int st);
/* The pair's families of /metrics (nothing without --store). */
void ha_metrics(struct ibpartd *d, FILE *f);

/* ---- migrate_cmd.c ---- */
/* `ibpartd migrate ...` (argv[0] is "migrate"): the exit status. */
int migrate_main(int argc, char **argv);

/* ---- adopt.c ---- */
/* `ibpartd adopt ...` (argv[0] is "adopt"): the exit status. */
int adopt_main(int argc, char **argv);

/* ---- token_cmd.c ---- */
/* `ibpartd token ...` (argv[0] is "token"): the exit status. */
int token_main(int argc, char **argv);

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
/* A number that moves whenever the series or the drift rows above do. */
unsigned long collector_page_gen(struct ibpartd *d);

/* ---- aliases.c ---- */
/* DB.aliases named (0), or -1 out of memory; aliases_free at exit. */
int aliases_init(struct ibpartd *d);
void aliases_free(struct ibpartd *d);
/* Read the fabric's alias GUIDs on the open session l (after
 * daemon_open_fabric), merged with --alias-guids; the service told when
 * the map changed.  0, or -1 when they could not be read: logged once
 * per reason and counted, unless quiet (a light sweep's reads failing:
 * the sweep is done again with a discovery). */
int aliases_learn(struct ibpartd *d, ibp_live *l, bool quiet);
/* The alias map in effect: the learned one once learned (and not
 * empty, or a file given), else --alias-guids (NULL: none). */
const char *aliases_path(struct ibpartd *d);
/* ibpartd_alias_guids and the learns' counters appended to f. */
void aliases_metrics(struct ibpartd *d, FILE *f);

/* ---- view_cache.c ---- */
/* A copy of the body kept under key and extra (true), or false (*body
 * NULL): render it then, and view_cache_put it.  Key 0: never kept. */
bool view_cache_get(struct view_cache *c, uint64_t key, uint64_t extra,
		    char **body);
/* A body just rendered for key and extra, kept (a copy; counted). */
void view_cache_put(struct view_cache *c, uint64_t key, uint64_t extra,
		    const char *body);
/* The views rendered (ibpartd_page_renders_total, ...). */
unsigned long view_cache_renders(struct view_cache *c);
/* Drop the body kept (at exit). */
void view_cache_free(struct view_cache *c);

#endif
