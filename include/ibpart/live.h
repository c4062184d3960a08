/*
 * Module live (src/live/): the library half of the live commands
 * (discover, verify, apply).  Owns the session, a libibumad port with the
 * SM over it (live_session.c), the plan read fail-closed and turned into
 * tables or an OpenSM file (live_plan.c), drift (live_drift.c), and the
 * rollback state file and OpenSM's pid file, SIGHUP and log
 * (live_files.c).  Depends on sm, wire (transport_umad), policy, conf,
 * pkey, topo, util and jansson.
 *
 * live.h - what the live-fabric commands (discover, verify, apply) need
 * beyond the SM itself: drift between the tables a plan implies and the
 * tables ports really hold, the rollback state file `apply` saves before
 * it changes anything, and the safe hand-over of a partitions.conf to a
 * running OpenSM (atomic write, the old file kept, SIGHUP, wait).
 *
 * Drift is judged per P_Key base (the low 15 bits, IBA vol. 1 10.9.1): a
 * wanted base absent from the port is "missing", a held base the plan
 * does not want is "extra", the same base with the other membership bit
 * is "membership", the same key at another index is "index" (a QP's P_Key
 * index would then select another partition, 10.9.2).  A port that could
 * not be read is "unreachable".  With allow_both_pkeys a port holds both
 * keys of a base: an exact key held is judged by its index first, what
 * remains pairs up as "membership", then "missing" / "extra".
 *
 * Threads: no global state.  A session is used by one thread at a time
 * (see ibp_live below); a drift result is only read once computed, so it
 * may be read from several threads at once.
 */
#ifndef IBPART_LIVE_H
#define IBPART_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ibpart/diag.h"
#include "ibpart/atomic_file.h"
#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/transport.h"
#include "ibpart/export.h"

struct ibp_sm;
struct ibp_conf;
struct ibp_policy_unplaced;

IBP_BEGIN_DECLS

/* ------------------------------------------------------------ drift */

typedef enum ibp_drift_kind {
	IBP_DRIFT_MISSING = 0, /* wanted base not in the port's table */
	IBP_DRIFT_EXTRA,       /* the port holds a base the plan lacks */
	IBP_DRIFT_MEMBERSHIP,  /* same base, other full/limited bit */
	IBP_DRIFT_INDEX,       /* same key, another index */
	IBP_DRIFT_UNREACHABLE, /* the port's table could not be read */
	IBP_DRIFT_ENFORCEMENT  /* a leaf port's PortInfo partition
				  enforcement bits are not part_enforce's */
} ibp_drift_kind;

struct ibp_drift_item {
	size_t node;
	unsigned port;
	ibp_drift_kind kind;
	uint16_t want_pkey; /* 0 for extra/unreachable/enforcement */
	uint16_t have_pkey; /* 0 for missing/unreachable/enforcement */
	int want_index;	    /* -1 when not applicable */
	int have_index;
	/* enforcement: the bits (PartitionEnforcementInbound/Outbound) as
	 * part_enforce names them, wanted and held; else both BOTH */
	ibp_part_enforce want_enforce, have_enforce;
};

typedef struct ibp_drift ibp_drift;

/* Compare every port that has a table in `want` with the same port in
 * `have` (both over the same fabric); a port absent from `have` is
 * unreachable.  Items come in (node, port) order, then by index. */
int ibp_drift_compute(const ibp_tables *want, const ibp_tables *have,
		      ibp_drift **out, ibp_error *err);
size_t ibp_drift_count(const ibp_drift *d);
const struct ibp_drift_item *ibp_drift_at(const ibp_drift *d, size_t i);
/* Ports compared, and how many of them drifted. */
size_t ibp_drift_ports_checked(const ibp_drift *d);
size_t ibp_drift_ports_drifted(const ibp_drift *d);
void ibp_drift_free(ibp_drift *d);
const char *ibp_drift_kind_str(ibp_drift_kind k); /* "missing", ...,
							"enforcement" */

/* Which items count: all of them, all but index-only differences, or
 * only those (without the ports' previous tables OpenSM's choice of
 * index for a P_Key it held before is not knowable: index differences
 * are then notes, not drift). */
typedef enum ibp_drift_sel {
	IBP_DRIFT_SEL_ALL = 0,
	IBP_DRIFT_SEL_NO_INDEX,
	IBP_DRIFT_SEL_INDEX_ONLY
} ibp_drift_sel;
/* Whether item it counts under sel: every item for ALL, the index items
 * only for INDEX_ONLY, the others for NO_INDEX.  Pure. */
bool ibp_drift_item_selected(const struct ibp_drift_item *it,
			     ibp_drift_sel sel);
/* Items selected; *ports (may be NULL) the ports they are on. */
size_t ibp_drift_count_sel(const ibp_drift *d, ibp_drift_sel sel,
			   size_t *ports);

/* ------------------------------------------------- rollback state */

/* Write the tables of ts (those of the fabric's ports) to path as JSON,
 * atomically (temp file, fsync, rename):
 *   {"format": "ibpart-pkey-state-1", "ports": [{"node_guid", "port_guid",
 *    "port", "node_desc", "capacity", "pkeys": ["0xffff", …],
 *    "enforcement": "both|in|out|off"}…]}
 * `pkeys` lists the whole table up to its last used entry;
 * `enforcement` (PortInfo PartitionEnforcementInbound/Outbound) is there
 * for the switch ports whose bits were read, and a rollback puts them
 * back. */
int ibp_state_save(const ibp_tables *ts, const char *path, ibp_error *err);
/* Read a state file back onto fabric f: each port found by node GUID and
 * port number.  IBP_ENOENT when a port of the file is not in f (unless
 * skip_missing: such ports are then left out), IBP_EPARSE for a
 * malformed file. */
int ibp_state_load(const ibp_fabric *f, const char *path, bool skip_missing,
		   ibp_tables **out, ibp_error *err);
/* ibp_state_load() reading at most max_input_size bytes of path (0: the
 * default of limits.h, IBP_SMALL_INPUT_MAX_DEFAULT); a longer file, or an
 * endless stream, is IBP_ERANGE. */
int ibp_state_load_limit(const ibp_fabric *f, const char *path,
			 size_t max_input_size, bool skip_missing,
			 ibp_tables **out, ibp_error *err);
/* ibp_state_load() on the len bytes at text (no NUL needed), named path
 * in messages (NULL: "<buffer>"). */
int ibp_state_load_buffer(const ibp_fabric *f, const char *path,
			  const char *text, size_t len, bool skip_missing,
			  ibp_tables **out, ibp_error *err);

/* A path for the state file of an apply nobody named one for: in dir
 * (NULL: /var/lib/ibpart for root, else $XDG_STATE_HOME/ibpart, default
 * ~/.local/state/ibpart), made 0700 where missing, the file
 * "ibpart-state-YYYYmmddTHHMMSSZ-PID.json" (UTC), with -2, -3...
 * before ".json" while a file of that name exists, so one run never
 * overwrites another's state.  Into buf (len bytes).  IBP_OK; IBP_EIO
 * when the directory cannot be made, IBP_ERANGE when the path does not
 * fit buf, IBP_EINVAL without HOME (non-root, no dir, no XDG). */
int ibp_state_default_path(const char *dir, char *buf, size_t len,
			   ibp_error *err);

/* ------------------------------------------ files and OpenSM hand-over */

/* Writing files whole or not at all: ibp_write_file_atomic(),
 * include/ibpart/atomic_file.h. */

/* The pid in an OpenSM pid file (or any pid file).  IBP_EINVAL when it
 * does not hold a positive number, IBP_EIO when it cannot be read. */
int ibp_read_pidfile(const char *path, pid_t *out, ibp_error *err);

/* Send SIGHUP to pid (OpenSM re-reads its partition file and sweeps).
 * IBP_ENOENT when no such process, IBP_EIO otherwise. */
int ibp_signal_reread(pid_t pid, ibp_error *err);

/* Size of the file at path now (0 when absent): remember before the
 * SIGHUP, then wait for what OpenSM logs after it. */
long ibp_file_size(const char *path);

/* Wait until the text appended to log_path after offset contains
 * `needle`, up to timeout_ms.  0 when found (with *found_ms the time it
 * took), IBP_ETIMEDOUT otherwise. */
int ibp_wait_log(const char *log_path, long offset, const char *needle,
		 int timeout_ms, long *found_ms, ibp_error *err);

/* ------------------------------------------------ a live session */

/* Options every live command shares (-C, -P, --mkey, --timeout,
 * --retries, --enforce): where to open the fabric and how the SM talks.
 * Set them with ibp_live_options_init() first: fields added later get
 * their defaults there. */
#define IBP_LIVE_OPTIONS_VERSION 2
struct ibp_live_options {
	unsigned version;	/* IBP_LIVE_OPTIONS_VERSION (set by _init) */
	const char *ca;		/* -C; NULL: the first CA */
	int port;		/* -P; 0: the first active port */
	uint64_t mkey;		/* --mkey; 0: none */
	int timeout_ms;		/* per SMP; 0: the SM's default */
	int retries;		/* re-sends; -1: the SM's default */
	unsigned max_wire_smps; /* SMPs in flight at once; 0: the SM's
				   default (4, OpenSM's max_wire_smps) */
	bool dry_run;		/* plan only: no SubnSet is sent */
	int enforce;		/* an ibp_part_enforce (policy.h), default both;
				   -1: leave PortInfo enforcement as it is */
	/* Phase progress ("discovering ...", "read N ports' tables"): one
	 * line, no newline, with the milliseconds since ibp_live_open.
	 * NULL: silent.  The library never writes to stderr itself. */
	void (*progress)(void *ctx, long elapsed_ms, const char *msg);
	void *progress_ctx;
	/* Asked between phases and before each port of a push: true stops
	 * the operation with IBP_ECANCELED (a push stopped half-way
	 * reports the ports it changed).  NULL: never. */
	bool (*cancel)(void *ctx);
	void *cancel_ctx;
};
/* Set version, retries -1 and enforce IBP_ENFORCE_BOTH, everything else
 * 0/NULL/false (the SM's defaults).  Cannot fail. */
void ibp_live_options_init(struct ibp_live_options *o);

/* An M_Key written as a number, decimal or 0x hex, 0..2^64-1: IBP_OK and
 * *mkey, or IBP_EINVAL (*mkey untouched).  Pure, safe from any thread. */
int ibp_mkey_parse(const char *s, uint64_t *mkey);
/* The M_Key in the file at path, so it need not be on a command line
 * where ps shows it: its one word outside '#' comments, as
 * ibp_mkey_parse() reads it (a second word, a NUL byte or over 4096
 * bytes is refused: not a key file).  The file must not be readable or
 * writable by group or others.  IBP_OK and *mkey, or
 * IBP_EINVAL with err saying why (never the key).  Reads only path; safe
 * from any thread. */
int ibp_mkey_file_read(const char *path, uint64_t *mkey, ibp_error *err);

/* A live session: one local port (transport_umad), the SM over it, the
 * fabric it discovered, the fabric model the plan is read against (a
 * topology file's, or the discovered one) and the SM's port.  Used by one
 * thread at a time; distinct sessions are independent. */
typedef struct ibp_live ibp_live;

/* Open the port (transport_umad) and an SM over it.  IBP_EIO (or the
 * transport's status) when the port cannot be opened; nothing is sent.
 * The caller frees *out with ibp_live_close. */
int ibp_live_open(const struct ibp_live_options *o, ibp_live **out,
		  ibp_error *err);
/* A session over a transport the caller made (transport_sim's built-in
 * fabric, or another): borrowed, it must outlive the session, which
 * never closes it.  local_port_guid is the port the SMPs leave from
 * (the SM's port when ibpart is the SM); o->ca only names it in
 * progress lines. */
int ibp_live_open_transport(const struct ibp_live_options *o, ibp_transport *t,
			    uint64_t local_port_guid, ibp_live **out,
			    ibp_error *err);
/* Close the session (and the port it opened); NULL is fine. */
void ibp_live_close(ibp_live *l);
struct ibp_sm *ibp_live_sm(ibp_live *l);
ibp_transport *ibp_live_transport(ibp_live *l);
/* The local port: its GUID is the SM port when we act as the SM. */
uint64_t ibp_live_local_port_guid(const ibp_live *l);
/* The master SM's port, as ibp_sm_master_sm_port() (sm.h) finds it
 * from the session's local port. */
int ibp_live_master_sm_port(ibp_live *l, uint64_t *port_guid, bool *running,
			    ibp_error *err);
const char *ibp_live_local_ca(const ibp_live *l);
int ibp_live_local_port(const ibp_live *l);
/* Discover (once), with progress.  The fabric or transport's status
 * (IBP_ETIMEDOUT, IBP_EIO) when it fails; IBP_ECANCELED when asked. */
int ibp_live_discover(ibp_live *l, ibp_error *err);
/* What `ibpart discover` writes, after ibp_live_discover: every port's
 * alias GUIDs read (ibp_sm_read_alias_guids, sm.h), then the discovered
 * topology to topo_path (NULL: stdout; findings such as replaced
 * descriptions to diags, may be NULL) and the alias map (alias_map.h) to
 * alias_path, or when that is NULL to topo_path + ".aliases" (none when
 * both are NULL).  Each file atomic; nothing written when the aliases
 * cannot be read.  On success a one-line summary (nodes, aliases and
 * those another port held first, SMPs, time) to summary (NULL: none).
 * Errors as for discovery, IBP_EIO for a file. */
int ibp_live_write_discovery(ibp_live *l, const char *topo_path,
			     const char *alias_path, ibp_diags *diags,
			     FILE *summary, ibp_error *err);
/* Milliseconds since ibp_live_open. */
long ibp_live_elapsed_ms(const ibp_live *l);
/* Report progress through the options' callback (nothing when NULL). */
void ibp_live_progress(const ibp_live *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The session was opened with dry_run: no Set is ever sent. */
bool ibp_live_dry_run(const ibp_live *l);
/* The PortInfo partition enforcement the session wants on the leaf ports
 * (ibp_live_options.enforce: an ibp_part_enforce, or -1 to leave the
 * bits as they are). */
int ibp_live_enforce(const ibp_live *l);
/* True when the options' cancel callback asks to stop. */
bool ibp_live_cancelled(const ibp_live *l);

/* The fabric model plans are read against: `topology` (borrowed: it
 * must outlive the session; NULL: the discovered fabric).  Tables read
 * from the fabric are keyed by it (ports matched by node GUID). */
void ibp_live_set_topology(ibp_live *l, const ibp_fabric *topology);
/* After ibp_live_discover: the plan's fabric (the topology's, else the
 * discovered one); owned by the session. */
const ibp_fabric *ibp_live_fabric(const ibp_live *l);

/* Decide the SM's port (after ibp_live_discover): `spec` (a GUID, name
 * or LID of the plan's fabric) when given, else the master SM's port
 * when an SM runs (the local PortInfo MasterSMLID), else the local port
 * (ibpart is the partition manager).  IBP_ENOENT (or the resolver's
 * status), with the reason, when spec names no port or the port chosen
 * is not in the plan's fabric. */
int ibp_live_find_sm(ibp_live *l, const char *spec, ibp_error *err);
uint64_t ibp_live_sm_port_guid(const ibp_live *l);
/* A master SM answers with IsSM set: apply --direct must not fight it. */
bool ibp_live_sm_running(const ibp_live *l);

/* Every P_KeyTable the fabric holds, keyed by ibp_live_fabric() (ports
 * the topology lacks are dropped).  The caller frees *out.  The SM's
 * status when the fabric fails. */
int ibp_live_read_tables(ibp_live *l, ibp_tables **out, ibp_error *err);

/* SMPs the session has sent: in all, for the discovery, for reading
 * tables; timeouts and retries in all. */
struct ibp_live_counts {
	unsigned long smps, smps_discover, smps_read;
	unsigned long timeouts, retries;
};
/* The counts so far into *out (the SM's counters and the session's own).
 * Only reads l; cannot fail. */
void ibp_live_counts_get(const ibp_live *l, struct ibp_live_counts *out);

/* The same tables keyed by another model of the same subnet: each port
 * found by node GUID and port number; ports `to` lacks are dropped. */
int ibp_live_remap(const ibp_tables *src, const ibp_fabric *to,
		   ibp_tables **out, ibp_error *err);

/* ------------------------------------------------------- the plan */

/* What `verify` and `apply` compare the fabric with: the plan (a
 * partitions.conf) turned into tables by the policy module. */
struct ibp_live_plan_options {
	const char *conf_path;
	const char *mode;      /* "opensm" (default) or "strict" */
	uint64_t sm_port_guid; /* the SM's port (0: the fabric's first CA) */
	bool allow_both_pkeys; /* OpenSM's -W */
	const ibp_tables *previous; /* what the ports held before (OpenSM
				       keeps surviving P_Keys at their
				       index); NULL: a fresh fabric */
	bool fail_closed; /* refuse a plan OpenSM would reject/misread */
	bool compact_pkey_indexes; /* opensm.conf keep_pkey_indexes FALSE:
				      tables packed whatever the ports
				      held (policy.h) */
	/* OpenSM's part_enforce (default both): off copies no table onto
	 * the switch ports facing end ports, as OpenSM then leaves them */
	ibp_part_enforce part_enforce;
	/* NULL, or filled with what the plan cannot place, among it the
	 * switch ports whose copy is truncated and left unenforced (ERR
	 * 0507): policy.h */
	struct ibp_policy_unplaced *unplaced;
	size_t max_input_size; /* read at most this many bytes of the plan
				  (0: IBP_INPUT_MAX_DEFAULT, limits.h) */
	const char *alias_guids_path; /* the fabric's alias map (alias_map.h):
					 conf.h's alias_guids_path */
};

/* Parse the plan against fabric f and compute its tables.  Every finding
 * goes to diags.  IBP_EPARSE when the file cannot be read as a plan.
 * With fail_closed: IBP_EINVAL when the file has any error, when OpenSM
 * 3.3.23 would reject it (and fall back to ALL=full) or misread it, or
 * when the policy finds an error; *want is then NULL.  Without it, the
 * tables are what OpenSM would really program from such a file.  *conf_out (may
 * be NULL) receives the parsed plan. */
int ibp_live_plan(const struct ibp_live_plan_options *po, const ibp_fabric *f,
		  ibp_tables **want, struct ibp_conf **conf_out,
		  ibp_diags *diags, ibp_error *err);

/* The plan in OpenSM's canonical syntax, checked: the text is parsed
 * again and must be accepted by OpenSM's rules (no error, not rejected,
 * not misread) and give the same tables as the plan.  *text is malloc'd.
 */
int ibp_live_plan_opensm_text(const struct ibp_live_plan_options *po,
			      const ibp_fabric *f, const struct ibp_conf *conf,
			      const ibp_tables *want, char **text, size_t *len,
			      ibp_diags *diags, ibp_error *err);

/* ------------------------------------------------ one change at a time */

/* The host's lock on the local port a session opened, held while an
 * operation changes the fabric from it (apply --direct, --rollback,
 * --via-opensm; the partition service takes the same), so two of them
 * cannot interleave their SubnSets or save each other's half-done tables
 * as "what was there".  An flock(2) on DIR/ibpart-<CA>-<port>.lock (dir;
 * NULL: /run/lock/ibpart for root, else $XDG_RUNTIME_DIR/ibpart, else
 * /tmp/ibpart-<uid>), released by the kernel however the holder ends;
 * the file names the holder's pid.  wait_ms: how long to wait for a
 * holder to finish (0: not at all).  IBP_OK and *out (release with
 * ibp_live_lock_release); IBP_EBUSY when another process holds it (err
 * names its pid and says how to wait); IBP_EIO when the lock file cannot
 * be made; IBP_ENOMEM. */
typedef struct ibp_live_lock ibp_live_lock;
/* Take it (see above). */
int ibp_live_lock_acquire(const ibp_live *l, const char *dir, int wait_ms,
			  ibp_live_lock **out, ibp_error *err);
/* Release the lock (NULL allowed). */
void ibp_live_lock_release(ibp_live_lock *k);

IBP_END_DECLS
#endif
