/*
 * tables_compute.h - `ibpart tables` as one library operation: a topology
 * file (with its capacities and node-name-map), a partition plan, the SM
 * port as a user types it, the policy's options and the state OpenSM
 * remembers from a previous run (a `tables --state` file) in; the fabric,
 * the plan, every port's P_KeyTable and what OpenSM remembers after this
 * run out, ready to print (tables.h, tables_json.h) and, for the next
 * `tables --state` run, to save (sys/tables_compute.h).
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
#include "ibpart/opensm_conf.h"
#include "ibpart/policy.h"
#include "ibpart/state_file.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_TABLES_COMPUTE_OPTIONS_VERSION 2 /* 2: vf_guids */
typedef struct ibp_tables_compute_options {
	unsigned
	    version; /* IBP_TABLES_COMPUTE_OPTIONS_VERSION (set by _init) */
	/* The ibnetdiscover/ibsim topology (required), loaded with `fabric`
	 * (PartitionCap and PartitionEnforcementCap overrides, the
	 * node-name-map; its own version, ibp_fabric_options_init; NULL:
	 * the defaults).  A pointer, not the struct: a newer fabric struct
	 * would move the fields after it. */
	const char *topology_path;
	const ibp_fabric_options *fabric;
	/* The partition plan (required, or plan_text below):
	 * partitions.conf or the seed's dialect, read with
	 * policy->allow_both_pkeys. */
	const char *plan_path;
	/* The fabric's alias GUIDs (alias_map.h; may be NULL): the plan's
	 * aliases are reported guid-alias-ignored. */
	const char *alias_guids_path;
	/* The SM's port as a user types it (port GUID, node GUID, node
	 * description or LID; a LID is read against the numbering from the
	 * default SM port); NULL: the first CA port. */
	const char *sm_port;
	/* mode, allow_both_pkeys, part_enforce, compact_pkey_indexes,
	 * progress (its own version, ibp_policy_options_init; NULL: the
	 * defaults); the SM port, the tables held and what OpenSM remembers
	 * are the operation's own (sm_port, state_path). */
	const ibp_policy_options *policy;
	/* A state file (state_file.h; any version): the tables the ports
	 * hold, what OpenSM remembers of their indexes and the options it
	 * runs with; a file that does not exist is a fresh fabric under a
	 * fresh OpenSM, and a file that records nothing of OpenSM (`apply
	 * --state`, version 1) a fresh OpenSM on the tables it holds.
	 * NULL: a fresh fabric, and no state out. */
	const char *state_path;
	/* OpenSM's opensm.conf (opensm_conf.h), NULL: none.  Without a
	 * state that records OpenSM's options, this run is OpenSM's start:
	 * allow_both_pkeys, keep_pkey_indexes, part_enforce and
	 * no_partition_enforcement all come from it.  With one, this run is
	 * a SIGHUP: allow_both_pkeys stays as OpenSM started, the others
	 * are taken from the file where it has them. */
	const char *opensm_conf_path;
	/* Which of policy->allow_both_pkeys, policy->part_enforce and
	 * policy->compact_pkey_indexes the caller sets itself (a command
	 * line flag): those override the opensm.conf and the state. */
	bool allow_both_pkeys_given;
	bool part_enforce_given;
	bool compact_pkey_indexes_given;
	/* Read at most this many bytes of the plan and of the state file
	 * (the topology: fabric->max_input_size); 0: the defaults of
	 * limits.h.  A longer file is IBP_ERANGE. */
	size_t max_input_size;
	/* The plan as plan_len bytes in memory instead of a file (a
	 * service's rendering): plan_path then only names it in messages
	 * (NULL: "<plan>").  NULL: read plan_path. */
	const char *plan_text;
	size_t plan_len;
	/* What the plan's alias GUIDs become (alias_map.h; version 2):
	 * PHYSICAL writes each on its physical port (--vf-guids physical,
	 * conf.h's vf_guids); default ALIAS. */
	ibp_vf_guids vf_guids;
} ibp_tables_compute_options;

/* Defaults: nothing given; fabric and policy NULL (the defaults of
 * ibp_fabric_options_init and ibp_policy_options_init). */
void ibp_tables_compute_options_init(ibp_tables_compute_options *o,
				     unsigned version);

/* What a computation gives; every pointer is owned by the result.  The
 * caller allocates it with its version set,
 * `ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};`
 * (export.h: the library fills only the fields that version has; a
 * field added to ibp_state_opensm is a new version of this struct). */
#define IBP_TABLES_RESULT_VERSION 1
typedef struct ibp_tables_result {
	unsigned version;	/* IBP_TABLES_RESULT_VERSION, the caller's */
	ibp_fabric *fabric;	/* LIDs assigned from the SM port */
	ibp_conf *conf;		/* the plan */
	ibp_tables *tables;	/* one table per programmed port */
	ibp_tables *remembered; /* for the next run, one P_Key per index
				   (see memory); NULL w/o state_path */
	uint64_t sm_port_guid;
	/* exactly what OpenSM remembers after this run; NULL w/o
	 * state_path */
	struct ibp_index_memory *memory; /* private type */
	/* the state after this run, what sys/tables_compute.h saves:
	 * the tables ports hold (those programmed now, the others as
	 * before, ports the fabric lacks kept), memory and options; NULL
	 * w/o state_path */
	ibp_state_file *state;
	/* the OpenSM options this run used (opensm.conf, state, flags) */
	ibp_state_opensm opensm;
	/* the policy's warnings and errors (tables full, OpenSM's
	 * fallback): what makes `ibpart tables` exit 1 */
	size_t nfound;
} ibp_tables_result;

/* Compute the tables o describes into *out (zeroed first but for its
 * version; release with ibp_tables_result_free, also after a failure;
 * out's version 0 or newer than the library's is IBP_EINVAL with
 * nothing written).  Findings are appended
 * to diags (may be NULL): the topology's, sorted by position, then the
 * opensm.conf's warnings (opensm_conf.h: opensm-conf-value), then the
 * policy's (policy.h: opensm-fallback, pkey-table-full,
 * enforcement-table-full, sm-port-default, opensm-index-overwrite,
 * opensm-fallback-indx0, opensm-indeterminate); the plan's own findings
 * are `ibpart check`'s business and are not reported, but for
 * opensm-earlier-partition (conf.h: with a state that records a running
 * OpenSM, the plan is read with the partitions that OpenSM still holds,
 * and a statement they change is reported), and
 * opensm-crash (error: the sweep kills OpenSM, opensm_prtn_sweep.h; the
 * tables are then those the ports held, and the next state has no
 * running OpenSM).  Returns 0;
 * IBP_EINVAL without a topology or a plan, or for a version (of o,
 * o->fabric or o->policy) 0 or newer than the library's; the topology's failure
 * (IBP_EPARSE, IBP_EIO; err holds its first error, also in diags);
 * IBP_ENOENT for an SM port not in the fabric; the plan's, the state
 * file's or the opensm.conf's failure (IBP_EPARSE, IBP_EIO, ...);
 * IBP_EPARSE in strict mode for a plan OpenSM rejects; IBP_ENOMEM. */
int ibp_tables_compute(const ibp_tables_compute_options *o,
		       ibp_tables_result *out, ibp_diags *diags,
		       ibp_error *err);

/* Free what r holds and zero it but for its version.  NULL, and a
 * version this library does not fill (nothing is done), are allowed. */
void ibp_tables_result_free(ibp_tables_result *r);

IBP_END_DECLS
#endif
