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

/* An empty record for ibp_policy_options.unplaced, the caller's to free
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

/* Copy the caller's versioned *o (NULL: the defaults) into *full, a
 * whole current struct of the defaults first (util/options_version.h).
 * IBP_EINVAL for version 0 or a newer one. */
int ibp_policy_options_take(ibp_policy_options *full,
			    const ibp_policy_options *o, ibp_error *err);

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
		       const ibp_policy_options *opts, ibp_tables **out,
		       ibp_diags *findings, ibp_error *err);

/* The same, also returning what OpenSM remembers after this run (see
 * ibp_policy_options.remembered; opensm mode; NULL allowed), for the
 * next run's options, one P_Key per index (where OpenSM remembers
 * several, the first in its map order: ibp_policy_compute_memory keeps
 * them all).  *remembered_out is NULL on error, else the
 * caller's (ibp_tables_free), borrowing fabric like *out.  Errors as
 * ibp_policy_compute. */
int ibp_policy_compute_state(const ibp_conf *conf, const ibp_fabric *fabric,
			     const ibp_policy_options *opts, ibp_tables **out,
			     ibp_tables **remembered_out, ibp_diags *findings,
			     ibp_error *err);

/* The same, also returning exactly what OpenSM remembers after this run
 * (index_memory_lib.h; opensm mode; NULL allowed) for the next run's
 * ibp_policy_options.memory: every end port it programs is known, with
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
			      const ibp_policy_options *opts, ibp_tables **out,
			      ibp_index_memory **memory_out,
			      ibp_diags *findings, ibp_error *err);

/* The SM port the options resolve to (opts->sm_port_guid, or the first
 * CA port) into *guid; IBP_ENOENT (*guid untouched) when the given GUID
 * is not a port of the fabric or the fabric has no CA port.  opts may be
 * NULL. */
int ibp_policy_sm_port(const ibp_fabric *fabric, const ibp_policy_options *opts,
		       uint64_t *guid, ibp_error *err);

#endif
