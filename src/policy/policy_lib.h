/*
 * policy_lib.h - the library's own half of ibpart/policy.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/policy.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_POLICY_POLICY_LIB_H
#define IBPART_POLICY_POLICY_LIB_H

#include "ibpart/policy.h"
#include "pkey/index_memory_lib.h"
#include "pkey/opensm_partitions_lib.h"

/* ---- what the policy could not place ----
 * The "pkey-table-full" and "enforcement-table-full" findings of
 * the policy (tables_compute.h) as data (private: no exported function
 * gives them), for callers that act on them - the
 * audit reports them in its own words - rather than print them.  The texts of
 * those findings are for people; read this record instead of them. */

/* A port whose P_KeyTable cannot hold every P_Key the plan gives it
 * (OpenSM ERR 0512): one record per port, however many P_Keys it
 * drops. */
typedef struct ibp_policy_dropped {
	size_t node;
	unsigned port;
	uint64_t port_guid;
	unsigned capacity; /* entries its P_KeyTable holds (PartitionCap) */
	unsigned wanted;   /* distinct P_Keys the plan gives the port */
	size_t ndropped;
	/* the P_Keys it does not get, with their membership bit, in the
	 * order the policy drops them (OpenSM's visiting order) */
	const uint16_t *dropped;
} ibp_policy_dropped;

/* A CA/router port whose packed table does not fit the switch external
 * port facing it (IBA vol. 1 10.9.4, PartitionEnforcementCap): the copy
 * there is truncated and OpenSM turns partition enforcement off on that
 * switch port (ERR 0507). */
typedef struct ibp_policy_unenforced {
	size_t node; /* the end port */
	unsigned port;
	uint64_t port_guid;
	size_t switch_node; /* the switch port facing it */
	unsigned switch_port;
	unsigned entries;  /* P_Keys the switch port would have to hold */
	unsigned capacity; /* P_Keys it can hold */
} ibp_policy_unenforced;

/* The record of one computation; filled through
 * ibp_policy_run.unplaced. */
typedef struct ibp_policy_unplaced ibp_policy_unplaced;

/* What one computation is given: the caller's options
 * (ibp_policy_options, policy.h) and what only the library supplies -
 * the SM port, the tables the ports hold, what OpenSM remembers, the
 * records filled, progress.  Initialise with ibp_policy_run_init. */
typedef struct ibp_policy_run {
	ibp_policy_mode mode;	       /* default OPENSM */
	uint64_t sm_port_guid;	       /* 0: the first CA port of the fabric */
	bool allow_both_pkeys;	       /* OpenSM's allow_both_pkeys (-W) */
	ibp_part_enforce part_enforce; /* default BOTH */
	/* The tables the ports hold now (e.g. --state, or read back), keyed
	 * by the same fabric; NULL: a fresh fabric, every table 0xffff at
	 * index 0 (what ibsim and an unconfigured HCA hold).  OpenSM keeps
	 * each surviving P_Key at its index and appends new ones after the
	 * highest index it used before. */
	const ibp_tables *previous;
	/* What OpenSM remembers besides (its per-port "accumulated" P_Key
	 * indexes, which outlive the entries: a P_Key removed and added
	 * again returns to its old index while the same OpenSM runs), one
	 * table per port with each remembered P_Key at its index, as
	 * the policy computes it; NULL: what `previous`
	 * holds. */
	const ibp_tables *remembered;
	/* What OpenSM remembers, exactly (private: several P_Keys
	 * per index, last_pkey_idx, which ports it knows), as
	 * a tables_compute result holds it.  When given it wins over
	 * `remembered`: a port it knows replays its record, a port it does
	 * not know (new to OpenSM, or dropped when it left the fabric for a
	 * sweep) remembers nothing and OpenSM finds its table as it is.
	 * NULL: `remembered`, else what `previous` holds. */
	const ibp_index_memory *memory;
	/* OpenSM's keep_pkey_indexes FALSE: before each sweep OpenSM forgets
	 * what it remembers and the table the port holds, so every table is
	 * packed as on a fresh fabric (default false: keep_pkey_indexes
	 * TRUE, OpenSM's default). */
	bool compact_pkey_indexes;
	/* NULL: not recorded.  Otherwise emptied, then filled with what
	 * this computation could not place (complete when it returns 0),
	 * whether or not findings are collected. */
	ibp_policy_unplaced *unplaced;
	/* "computing tables" (ports) while it runs; NULL: none. */
	const ibp_progress *progress;
	/* NULL: not recorded.  Otherwise emptied, then filled with the
	 * partition objects OpenSM holds after this sweep: those with at
	 * least one member port in the fabric, in visiting order (OpenSM
	 * deletes the others once the file is read); the input of the next
	 * plan's reading (conf.h, ibp_conf_options.opensm_partitions). */
	ibp_osm_partitions *partitions_out;
} ibp_policy_run;

/* The defaults: OPENSM mode, part_enforce BOTH, everything else
 * 0/false/NULL.  Cannot fail. */
void ibp_policy_run_init(ibp_policy_run *r);

/* An empty record for ibp_policy_run.unplaced, the caller's to free
 * with ibp_policy_unplaced_free() (NULL allowed); NULL when out of
 * memory.  The getters below accept NULL (count 0). */
ibp_policy_unplaced *ibp_policy_unplaced_new(void);
void ibp_policy_unplaced_free(ibp_policy_unplaced *u);

/* Ports that drop P_Keys, in the order the policy programs them; the
 * pointers stay valid until the record is freed or filled again. */
size_t ibp_policy_unplaced_port_count(const ibp_policy_unplaced *u);
const ibp_policy_dropped *ibp_policy_unplaced_port(const ibp_policy_unplaced *u,
						   size_t i);

/* End ports whose facing switch port is left unenforced; the i-th, or
 * NULL past the end, valid as above. */
size_t ibp_policy_unplaced_unenforced_count(const ibp_policy_unplaced *u);
const ibp_policy_unenforced *
ibp_policy_unplaced_unenforced(const ibp_policy_unplaced *u, size_t i);

/* Copy the caller's versioned *o (NULL: the defaults) into *run, the
 * defaults of ibp_policy_run_init first, as far as o's version goes
 * (util/options_version.h).  IBP_EINVAL for version 0 or a newer
 * one. */
int ibp_policy_options_take(ibp_policy_run *run, const ibp_policy_options *o,
			    ibp_error *err);

/* Compute the tables.  *out gets one table per programmed port (see
 * above), each of the port's capacity.  Findings go to `findings` (may be
 * NULL), located in the conf file where they come from a partition:
 *   error   "opensm-fallback"  OpenSM rejects the file and programs
 *                              Default=0x7fff : ALL=full (opensm mode)
 *   warning "pkey-table-full"  a P_Key that does not fit a port's table
 *                              and that OpenSM drops (ERR 0512)
 *   warning "enforcement-table-full"  an end port's table does not fit
 *                              the facing switch port (PartitionEnforce-
 *                              mentCap): truncated, OpenSM turns that
 *                              port's enforcement off (ERR 0507)
 *   warning "no-lid"           end ports past the subnet's last usable
 *                              LID (ibp_fabric_lidless_count): no LID,
 *                              a table all the same (OpenSM programs
 *                              them by directed route; one finding for
 *                              them all)
 *   note    "sm-port-default"  the SM port was not given: the one assumed
 *                              (ibp_fabric_default_sm_port) and why
 * (the two "-full" findings are also recorded, as data, in
 * opts->unplaced when given)
 * Returns 0; IBP_EINVAL when conf, fabric or out is NULL; IBP_EPARSE in
 * strict mode for a file OpenSM rejects (a seed-dialect plan is never
 * "rejected"); IBP_ENOENT when the SM port is not in the fabric;
 * IBP_ENOMEM.  *out (NULL on error) is the caller's to free with
 * ibp_tables_free(); it borrows `fabric`, which must outlive it.  conf,
 * fabric and opts are only read. */
int ibp_policy_compute(const ibp_conf *conf, const ibp_fabric *fabric,
		       const ibp_policy_run *opts, ibp_tables **out,
		       ibp_diags *findings, ibp_error *err);

/* The same, also returning what OpenSM remembers after this run (see
 * ibp_policy_run.remembered; opensm mode; NULL allowed), for the
 * next run's options, one P_Key per index (where OpenSM remembers
 * several, the first in its map order: ibp_policy_compute_memory keeps
 * them all).  *remembered_out is NULL on error, else the
 * caller's (ibp_tables_free), borrowing fabric like *out.  Errors as
 * ibp_policy_compute. */
int ibp_policy_compute_state(const ibp_conf *conf, const ibp_fabric *fabric,
			     const ibp_policy_run *opts, ibp_tables **out,
			     ibp_tables **remembered_out, ibp_diags *findings,
			     ibp_error *err);

/* The same, also returning exactly what OpenSM remembers after this run
 * (index_memory_lib.h; opensm mode; NULL allowed) for the next run's
 * ibp_policy_run.memory: every end port it programs is known, with
 * each P_Key it placed at the index it placed it; a port it does not
 * program this time is forgotten.  *memory_out is NULL on error, else
 * the caller's (ibp_index_memory_free), borrowing fabric like *out.
 * Besides the findings of ibp_policy_compute:
 *   warning "opensm-index-overwrite"  two P_Keys OpenSM remembers at one
 *                              index both come back: the later one
 *                              overwrites the other, which the port
 *                              loses (OpenSM logs nothing)
 *   warning "opensm-fallback-indx0"  a rejected file's indx0 line still
 *                              moves 0xffff off index 0 (OpenSM keeps the
 *                              indx0 it read before the error)
 *   error   "opensm-indeterminate"  OpenSM's reading of the file depends
 *                              on uninitialised memory (an mgid item
 *                              ending a statement): the tables shown are
 *                              one possible outcome
 * Errors as ibp_policy_compute. */
int ibp_policy_compute_memory(const ibp_conf *conf, const ibp_fabric *fabric,
			      const ibp_policy_run *opts, ibp_tables **out,
			      ibp_index_memory **memory_out,
			      ibp_diags *findings, ibp_error *err);

/* The SM port the options resolve to (opts->sm_port_guid, or the first
 * CA port) into *guid; IBP_ENOENT (*guid untouched) when the given GUID
 * is not a port of the fabric or the fabric has no CA port.  opts may be
 * NULL. */
int ibp_policy_sm_port(const ibp_fabric *fabric, const ibp_policy_run *opts,
		       uint64_t *guid, ibp_error *err);

#endif
