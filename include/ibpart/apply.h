/*
 * apply.h - make the live fabric hold a plan, over a live session
 * (live.h).  Two ways, as `ibpart apply` offers them:
 *
 *  direct       ibpart is the partition manager.  ibp_apply_plan() reads
 *               every table, makes the plan (fail closed: a plan with
 *               errors, or one OpenSM would reject or misread, is
 *               refused) or loads a state file to roll back to, and
 *               lists the ports whose 32-entry blocks differ and the
 *               leaf ports (switch ports facing an end port) whose
 *               PortInfo partition enforcement is not part_enforce's
 *               (all of them, as OpenSM checks them on every sweep; a
 *               rollback puts back the bits the state file saved);
 *               nothing is sent.  ibp_apply_run() saves the tables read to a
 * state file first, then SubnSets only those blocks (the SM reads each back and
 * retries lost MADs).  A plan port that cannot be read, or a running SM (unless
 * forced), changes nothing; a push that stops half-way reports the ports
 *               changed, the one that failed, and those not reached.
 *  via OpenSM   OpenSM is the SM.  ibp_apply_via_opensm() validates the
 *               plan, writes it in OpenSM's canonical syntax (read back
 *               to prove OpenSM reads it as planned), installs it
 *               atomically as OpenSM's partition file (the old one kept
 *               as FILE.bak), sends SIGHUP and waits until OpenSM logs
 *               SUBNET UP or the fabric holds the plan.  The caller then
 *               runs ibp_verify() (verify.h).
 *
 * Threads: one session, and the ibp_apply made on it, are used by one
 * thread at a time.
 */
#ifndef IBPART_APPLY_H
#define IBPART_APPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/live.h"
#include "ibpart/opensm_conf.h"
#include "ibpart/tables.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* ------------------------------------------------------------ direct */

#define IBP_APPLY_OPTIONS_VERSION 2 /* 2: alias_guids_path, vf_guids */
struct ibp_apply_options {
	unsigned version;      /* IBP_APPLY_OPTIONS_VERSION (set by _init) */
	const char *conf_path; /* the plan; or */
	const char *rollback;  /* a state file to put back (no plan) */
	const char *mode;      /* "opensm" (default) or "strict" */
	bool allow_both_pkeys; /* OpenSM's allow_both_pkeys (-W) */
	bool force;	       /* push although an SM runs */
	bool compact_pkey_indexes; /* opensm.conf keep_pkey_indexes FALSE:
				      tables packed as OpenSM packs them */
	size_t max_input_size;	   /* of the plan and the rollback file (0: the
				      defaults of limits.h) */
	/* version 2: the fabric's alias map (alias_map.h, may be NULL) and
	 * what the plan's alias GUIDs become (PHYSICAL: pushed on their
	 * physical ports; conf.h's vf_guids) */
	const char *alias_guids_path;
	ibp_vf_guids vf_guids;
};
/* Set version and mode "opensm" (a static string), everything else
 * NULL/false.  Cannot fail. */
void ibp_apply_options_init(struct ibp_apply_options *o, unsigned version);

/* What happened to a port the plan changes. */
typedef enum ibp_apply_port_state {
	IBP_APPLY_PLANNED = 0, /* not pushed yet (or a dry run) */
	IBP_APPLY_CHANGED,     /* its table now holds the plan */
	IBP_APPLY_FAILED,      /* the push failed there */
	IBP_APPLY_NOT_REACHED  /* the push stopped before it: unchanged */
} ibp_apply_port_state;

/* A port whose table the plan changes, or a leaf port whose PortInfo
 * partition enforcement it changes, or both (or, for the unreadable
 * list, a port the plan programs that could not be read). */
struct ibp_apply_port {
	size_t node;
	unsigned port;
	uint64_t node_guid, port_guid; /* port_guid 0 on a switch port */
	const char *desc;	       /* the node's description */
	unsigned blocks[8];	       /* the 32-entry blocks that differ */
	unsigned nblocks;	       /* at most 8 listed ... */
	bool more_blocks;	       /* ... and more differ */
	ibp_apply_port_state state;
	/* PortInfo PartitionEnforcementInbound/Outbound differ from what
	 * the port should hold (part_enforce, or the state file on a
	 * rollback): from enforce_have to enforce_want */
	bool enforce;
	ibp_part_enforce enforce_have, enforce_want;
};

/* An apply: its plan, then what the push did.  Opaque. */
typedef struct ibp_apply ibp_apply;

/* Read every table of the fabric and plan the change (no Set is sent).
 * The plan's findings go to diags (may be NULL).  IBP_EINVAL, with the
 * reason, when an SM is running and o->force is not set (its next heavy
 * sweep would put its own tables back) - unless the session is a dry
 * run; IBP_EPARSE or IBP_EINVAL when the plan or the state file is bad
 * input; the fabric's status when reading fails.  The caller frees *out
 * with ibp_apply_free. */
int ibp_apply_plan(ibp_live *l, const struct ibp_apply_options *o,
		   ibp_apply **out, ibp_diags *diags, ibp_error *err);
void ibp_apply_free(ibp_apply *a);

/* The ports the plan changes, i < ibp_apply_port_count(a), in (node,
 * port) order; each owned by a (NULL past the end), its state set by
 * ibp_apply_run. */
size_t ibp_apply_port_count(const ibp_apply *a);
const struct ibp_apply_port *ibp_apply_port_at(const ibp_apply *a, size_t i);
/* After an incomplete run: how many of them it did not reach (state
 * IBP_APPLY_NOT_REACHED, unchanged). */
size_t ibp_apply_not_reached_count(const ibp_apply *a);
/* The tables planned, keyed by ibp_live_fabric() (owned by a), and the
 * plan ports that could not be read (ibp_apply_run refuses while there
 * are any), i < ibp_apply_unreadable_count(a). */
const ibp_tables *ibp_apply_want(const ibp_apply *a);
size_t ibp_apply_unreadable_count(const ibp_apply *a);
const struct ibp_apply_port *ibp_apply_unreadable_at(const ibp_apply *a,
						     size_t i);

#define IBP_APPLY_RUN_OPTIONS_VERSION 2
struct ibp_apply_run_options {
	unsigned version;	/* IBP_APPLY_RUN_OPTIONS_VERSION */
	const char *state_path; /* where the tables read are saved first;
				   NULL: not saved, or see state_default */
	bool state_always;	/* save even when no port changes (a
				   script may roll back to it later) */
	bool state_default;	/* no state_path, not a rollback: a new
				   file in state_dir (docs/live.md), since
				   a rollback needs what was there */
	const char *state_dir;	/* for state_default; NULL: the default */
};
/* Set version; no state file, state_always and state_default false.
 * Cannot fail. */
void ibp_apply_run_options_init(struct ibp_apply_run_options *o,
				unsigned version);

/* Push the plan: save the state (when a path is given and a port
 * changes, or always with state_always), then SubnSet the blocks that
 * differ and read them back.  IBP_EIO when a plan port is unreadable or
 * the state cannot be saved (nothing was changed); the SM's status when
 * the push fails (ibp_apply_complete false: the ports' states say which
 * changed); with state_default, the errors of making that file's
 * name in state_dir (nothing was changed); IBP_ECANCELED when the session's
 * cancel callback stopped it.  Not on a dry-run session (IBP_EINVAL). */
int ibp_apply_run(ibp_apply *a, const struct ibp_apply_run_options *o,
		  ibp_error *err);

/* After ibp_apply_run: did every port get its table (the ports it
 * changed and failed: ibp_apply_counts_get, ibp_apply_json). */
bool ibp_apply_complete(const ibp_apply *a);
/* The push began (the state was saved, if asked): false after a run
 * that refused or could not save the state - nothing was changed. */
bool ibp_apply_pushed(const ibp_apply *a);
/* The ports whose table the run changed, and in *failed (may be NULL)
 * those it could not change. */
size_t ibp_apply_ports_changed(const ibp_apply *a, size_t *failed);
/* The state file the run wrote (NULL: none). */
const char *ibp_apply_state_file(const ibp_apply *a);

/* SMPs and time: in all, SubnSets (blocks + enforcement), of the push,
 * of the discovery and the reads, timeouts and retries of the push and
 * in all, milliseconds since the session opened.  The caller allocates
 * it with its version set,
 * `struct ibp_apply_counts c = {.version = IBP_APPLY_COUNTS_VERSION};`
 * (export.h: the library fills only the fields that version has). */
#define IBP_APPLY_COUNTS_VERSION 1
struct ibp_apply_counts {
	unsigned version; /* IBP_APPLY_COUNTS_VERSION, the caller's */
	unsigned long smps, smps_set, smps_push, smps_discover, smps_read;
	unsigned long timeouts, retries, timeouts_total;
	unsigned long enforce_ports, enforce_unsupported;
	long elapsed_ms;
};
/* The counts of a into *out, as taken at the end of ibp_apply_run():
 * every field is 0 before it, and after a run that stopped before
 * pushing (already run, dry run, unreadable ports, state file not
 * saved).  Only reads a.  IBP_EINVAL, nothing written, for a NULL a or
 * out, or out's version 0 or newer than the library's. */
int ibp_apply_counts_get(const ibp_apply *a, struct ibp_apply_counts *out,
			 ibp_error *err);

/* The result as `ibpart apply --direct --format json` prints it (docs/
 * json-schemas.md); a malloc'd string, NULL on ENOMEM. */
char *ibp_apply_json(const ibp_apply *a);

/* -------------------------------------------------------- via OpenSM */

#define IBP_APPLY_OPENSM_OPTIONS_VERSION 2 /* 2: alias_guids_path, vf_guids */
struct ibp_apply_opensm_options {
	unsigned version;	    /* IBP_APPLY_OPENSM_OPTIONS_VERSION */
	const char *conf_path;	    /* the plan (required) */
	const char *mode;	    /* "opensm" (default) or "strict" */
	bool allow_both_pkeys;	    /* OpenSM's allow_both_pkeys (-W) */
	const char *opensm_conf;    /* its partition file (default
				       /etc/opensm/partitions.conf) */
	const char *opensm_log;	    /* its log (default /var/log/opensm.log) */
	pid_t opensm_pid;	    /* the OpenSM to signal; or */
	const char *opensm_pidfile; /* its pid file */
	int wait_ms;		    /* for SUBNET UP (default 60000) */
	bool dry_run;		    /* make the file only: install nothing */
	size_t max_input_size;	    /* of the plan (0: limits.h) */
	/* version 2: the fabric's alias map (alias_map.h, may be NULL) and
	 * what the plan's alias GUIDs become (PHYSICAL: the file given to
	 * OpenSM names their physical ports; conf.h's vf_guids) */
	const char *alias_guids_path;
	ibp_vf_guids vf_guids;
};
/* Set version, mode "opensm", opensm_conf /etc/opensm/partitions.conf,
 * opensm_log /var/log/opensm.log, wait_ms 60000 (static strings), the
 * rest 0/NULL/false (no pid: one of opensm_pid or opensm_pidfile must be
 * given for a real run).  Cannot fail. */
void ibp_apply_opensm_options_init(struct ibp_apply_opensm_options *o,
				   unsigned version);

/* How OpenSM was seen to take the file. */
typedef enum ibp_opensm_seen {
	IBP_OPENSM_NOT_ASKED = 0, /* a dry run */
	IBP_OPENSM_SUBNET_UP,	  /* its log said SUBNET UP */
	IBP_OPENSM_FABRIC_HOLDS,  /* no word in the log (buffered?), but
				     the fabric holds the plan */
	IBP_OPENSM_NO_WITNESS	  /* signalled, with neither a log nor
				     tables to wait for (ibp_opensm_reload) */
} ibp_opensm_seen;

/* The caller allocates it with its version set,
 * `struct ibp_apply_opensm_result r =
 *     {.version = IBP_APPLY_OPENSM_RESULT_VERSION};`
 * (export.h: the library fills only the fields that version has). */
#define IBP_APPLY_OPENSM_RESULT_VERSION 1
struct ibp_apply_opensm_result {
	unsigned version; /* IBP_APPLY_OPENSM_RESULT_VERSION, the caller's */
	char *text;	  /* the partition file, canonical syntax (malloc'd) */
	size_t len;
	pid_t pid;	      /* the OpenSM signalled */
	ibp_opensm_seen seen; /* how it was seen to take it */
	long ms;	      /* from SIGHUP to then */
};
/* Free r->text and zero r but for its version (the struct itself is the
 * caller's).  A cleared result may be cleared or filled again; NULL, and
 * a version this library does not fill (nothing is done), are
 * allowed. */
void ibp_apply_opensm_result_clear(struct ibp_apply_opensm_result *r);

/* Validate, write, install, signal, wait (see the top of this file).
 * IBP_EPARSE or IBP_EINVAL when the plan is bad input or the pid (file)
 * is missing or bad (the partition file is left unchanged);
 * IBP_ETIMEDOUT when OpenSM has not taken the file in wait_ms (the new
 * file is installed, the old one is FILE.bak); the system's status when
 * the file cannot be installed or OpenSM signalled.  *r is zeroed first
 * but for its version (r's version 0 or newer than the library's:
 * IBP_EINVAL, nothing written); r->text is set from the moment the file
 * is made (the caller frees it with ibp_apply_opensm_result_clear). */
int ibp_apply_via_opensm(ibp_live *l, const struct ibp_apply_opensm_options *o,
			 struct ibp_apply_opensm_result *r, ibp_diags *diags,
			 ibp_error *err);

/* ------------------------------------------------ OpenSM's reload */

/* The one way the library and ibpartd make a running OpenSM take a
 * partition file: ibp_apply_via_opensm (above) and ibpartd's applier
 * both call it. */
#define IBP_OPENSM_RELOAD_OPTIONS_VERSION 1
struct ibp_opensm_reload_options {
	unsigned version;	/* IBP_OPENSM_RELOAD_OPTIONS_VERSION */
	const char *partitions; /* OpenSM's partition file (required) */
	const char *text;	/* its new content, installed atomically
				   (FILE.bak kept); NULL: already in
				   place, only signal and wait */
	size_t len;		/* of text */
	pid_t pid;		/* the OpenSM to signal; or */
	const char *pidfile;	/* its pid file */
	const char *log;	/* its log; NULL: no log to wait for */
	const ibp_tables *want; /* the tables the fabric holds once it
				   took the file (index-only
				   differences aside); NULL: wait for
				   the log only */
	int wait_ms;		/* for either witness (default 60000) */
};
/* Set version and wait_ms 60000; everything else 0/NULL.  Cannot
 * fail. */
void ibp_opensm_reload_options_init(struct ibp_opensm_reload_options *o,
				    unsigned version);

/* The process named by o->pid or o->pidfile checked (alive, its /proc
 * comm "opensm": a stale pid file's reused pid gets no signal), the file
 * installed (when o->text), SIGHUP, then the wait for OpenSM's log to
 * say SUBNET UP after the offset it had before the signal or - l open
 * and o->want given - for the fabric to hold o->want (read once a
 * second).  r->pid, r->seen and r->ms are set (r->text is not touched):
 * IBP_OPENSM_NO_WITNESS when there was nothing to wait for.  IBP_EINVAL
 * (the file left unchanged) when there is no such process or it is not
 * OpenSM or the pid file is bad; the system's status when the file
 * cannot be installed or the signal sent (the message says the file is
 * installed); IBP_ETIMEDOUT when neither witness came in o->wait_ms;
 * IBP_ECANCELED when l's cancel callback said so; IBP_EINVAL, nothing
 * written to r, for r's version 0 or newer than the library's.  l may
 * be NULL. */
int ibp_opensm_reload(ibp_live *l, const struct ibp_opensm_reload_options *o,
		      struct ibp_apply_opensm_result *r, ibp_error *err);

IBP_END_DECLS
#endif
