/*
 * tables_compute.h - `ibpart tables` as one library operation: a topology
 * file (with its capacities and node-name-map), a partition plan, the SM
 * port as a user types it, the policy's options and the state OpenSM
 * remembers from a previous run (a `tables --state` file) in; the fabric,
 * the plan, every port's P_KeyTable and what OpenSM remembers after this
 * run out, ready to print (tables.h, tables_json.h) and to save
 * (ibp_tables_write_state_path).
 *
 * Nothing here writes to stdout or stderr: findings go to the caller's
 * ibp_diags, the failure to its ibp_error.  No global state: distinct
 * computations may run in different threads at once.
 */
#ifndef IBPART_TABLES_COMPUTE_H
#define IBPART_TABLES_COMPUTE_H

#include <stddef.h>
#include <stdint.h>

#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/policy.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_tables_compute_options {
	/* The ibnetdiscover/ibsim topology (required), loaded with `fabric`
	 * (PartitionCap and PartitionEnforcementCap overrides, the
	 * node-name-map). */
	const char *topology_path;
	ibp_fabric_options fabric;
	/* The partition plan (required): partitions.conf or the seed's
	 * dialect, read with policy.allow_both_pkeys. */
	const char *plan_path;
	/* The SM's port as a user types it (port GUID, node GUID, node
	 * description or LID; a LID is read against the numbering from the
	 * default SM port); NULL: the first CA port. */
	const char *sm_port;
	/* mode, allow_both_pkeys, part_enforce; sm_port_guid, previous,
	 * remembered and unplaced are set by the operation (what is given
	 * there is ignored). */
	ibp_policy_options policy;
	/* A `tables --state` file: the tables the ports hold and what OpenSM
	 * remembers of their indexes; a file that does not exist is a fresh
	 * fabric.  NULL: a fresh fabric, and no remembered state out. */
	const char *state_path;
	/* Read at most this many bytes of the plan and of the state file
	 * (the topology: fabric.max_input_size); 0: the defaults of
	 * limits.h.  A longer file is IBP_ERANGE. */
	size_t max_input_size;
} ibp_tables_compute_options;

/* Defaults: nothing given; the fabric's and the policy's defaults
 * (ibp_fabric_options_init, ibp_policy_options_init). */
void ibp_tables_compute_options_init(ibp_tables_compute_options *o);

/* What a computation gives; every pointer is owned by the result. */
typedef struct ibp_tables_result {
	ibp_fabric *fabric;	/* LIDs assigned from the SM port */
	ibp_conf *conf;		/* the plan */
	ibp_tables *tables;	/* one table per programmed port */
	ibp_tables *remembered; /* for the next run; NULL w/o state_path */
	uint64_t sm_port_guid;
	/* the policy's warnings and errors (tables full, OpenSM's
	 * fallback): what makes `ibpart tables` exit 1 */
	size_t nfound;
} ibp_tables_result;

/* Compute the tables o describes into *out (zeroed first; release with
 * ibp_tables_result_free, also after a failure).  Findings are appended
 * to diags (may be NULL): the topology's, sorted by position, then the
 * policy's (policy.h: opensm-fallback, pkey-table-full,
 * enforcement-table-full, sm-port-default); the plan's own findings are
 * `ibpart check`'s business and are not reported.  Returns 0; IBP_EINVAL
 * without a topology or a plan; the topology's failure (IBP_EPARSE,
 * IBP_EIO; err holds its first error, also in diags); IBP_ENOENT for an
 * SM port not in the fabric; the plan's or the state file's failure
 * (IBP_EPARSE, IBP_EIO, ...); IBP_EPARSE in strict mode for a plan
 * OpenSM rejects; IBP_ENOMEM. */
int ibp_tables_compute(const ibp_tables_compute_options *o,
		       ibp_tables_result *out, ibp_diags *diags,
		       ibp_error *err);

/* Free what r holds and zero it.  NULL is allowed. */
void ibp_tables_result_free(ibp_tables_result *r);

IBP_END_DECLS
#endif
