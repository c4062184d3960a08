/*
 * Module live (src/live/): the library half of the live commands
 * (discover, verify, apply).  Owns the session, a libibumad port or any
 * transport with the SM over it (live_session.c; made ready in one call
 * by live_connect.c, sys/live_connect.h), the plan read fail-closed and
 * turned into tables or an OpenSM file (live_plan.c), drift
 * (live_drift.c), verify (live_verify.c, verify.h), apply direct
 * (live_apply.c, apply.h) or through OpenSM - the one way to drive it,
 * ibp_opensm_reload (live_opensm.c) - their reports (live_report.c,
 * live_json.c), switch enforcement (live_enforce.c), the rollback state
 * file and OpenSM's pid file, SIGHUP and log (live_files.c,
 * live_state_dir.c), M_Keys (live_mkey.c), the port lock
 * (live_lock.c) and `ibpart discover`'s files (live_discovery.c).
 * Depends on sm, wire, report (verify's matrix), analysis, policy, conf,
 * pkey, topo, util and jansson.
 *
 * live.h - what the live-fabric commands (discover, verify, apply) need
 * beyond the SM itself: a session on the local port, and drift between
 * the tables a plan implies and the tables ports really hold (verify.h,
 * apply.h build on them).  What only ibpart's front ends use around a
 * session - M_Keys from arguments and files, the rollback state file
 * read back, `ibpart discover`'s files, the port lock - is sys/live.h's.
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

#include "ibpart/alias_map.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

struct ibp_conf;

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
#define IBP_DRIFT_KINDS (IBP_DRIFT_ENFORCEMENT + 1)

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

/* The differences, in (node, port) order, then by index: a drift a
 * verification returned (ibp_verify_result_drift) is read item by item
 * with these.  The kind's name: "missing", ..., "enforcement". */
size_t ibp_drift_count(const ibp_drift *d);
const struct ibp_drift_item *ibp_drift_at(const ibp_drift *d, size_t i);
const char *ibp_drift_kind_str(ibp_drift_kind k);
/* Ports compared, and how many of them drifted. */
size_t ibp_drift_ports_checked(const ibp_drift *d);

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

/* The ports with an item that counts under sel: their number, and in
 * ports[k] (zeroed first) those with an item of kind k - a port with
 * items of two kinds counts in each.  What `ibpart monitor` and
 * ibpartd's /metrics say as ibpart_drift_ports{kind}. */
size_t ibp_drift_ports_by_kind(const ibp_drift *d, ibp_drift_sel sel,
			       size_t ports[IBP_DRIFT_KINDS]);

/* What differs on the item's port, one sentence without a newline, as
 * `ibpart verify` and the web view say it after the kind ("0x8001
 * wanted at index 1, not in the table"); a malloc'd string the caller
 * frees, NULL on ENOMEM. */
char *ibp_drift_item_detail(const struct ibp_drift_item *it);

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
void ibp_live_options_init(struct ibp_live_options *o, unsigned version);

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
/* Close the session (and the port it opened); NULL is fine. */
void ibp_live_close(ibp_live *l);
/* Discover (once), with progress.  The fabric or transport's status
 * (IBP_ETIMEDOUT, IBP_EIO) when it fails; IBP_ECANCELED when asked. */
int ibp_live_discover(ibp_live *l, ibp_error *err);
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

IBP_END_DECLS
#endif
