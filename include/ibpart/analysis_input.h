/*
 * analysis_input.h - what the reachability matrix and the audit
 * (analysis.h) are computed from, loaded in one call: the fabric, the SM
 * port, and the P_KeyTables - either the ones the partition manager
 * (policy.h) programs for a plan, or ones read from the tables JSON
 * (tables_json.h: `ibpart tables --format json`, tables predicted,
 * simulated or read live) - with what goes with them: the plan's
 * partition names, switch ports' partition enforcement, and what the
 * policy could not place.
 *
 * Thread safety: no mutable global state.  Distinct inputs may be loaded
 * and used from different threads at once; one input is read-only after
 * ibp_analysis_input_load() returns, so its getters may be called from
 * several threads.  Nothing here writes to stdout or stderr: findings go
 * to the caller's ibp_diags, the failure to its ibp_error.
 */
#ifndef IBPART_ANALYSIS_INPUT_H
#define IBPART_ANALYSIS_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/analysis.h"
#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/policy.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_analysis_input ibp_analysis_input;

#define IBP_ANALYSIS_INPUT_OPTIONS_VERSION 2 /* 2: vf_guids */
typedef struct ibp_analysis_input_options {
	unsigned
	    version; /* IBP_ANALYSIS_INPUT_OPTIONS_VERSION (set by _init) */
	/* The fabric: an ibnetdiscover/ibsim topology file (with an
	 * rdma-core node-name-map, may be NULL), LIDs assigned as OpenSM
	 * does from the SM port; or instead an existing fabric, borrowed
	 * (it must outlive the input) and used with the LIDs it has. */
	const char *topology_path;
	const char *node_name_map;
	/* The fabric's alias GUIDs (alias_map.h; may be NULL). */
	const char *alias_guids_path;
	const ibp_fabric *fabric;
	/* The tables: the plan (a partitions.conf, or the seed's dialect)
	 * as the SM programs it, or - instead - a tables JSON file. */
	const char *plan_path;
	const char *tables_path;
	/* The partition manager's mode for a plan (default opensm).  With
	 * tables, only the label of the input (see
	 * ibp_analysis_input_mode), and only when mode_given. */
	ibp_policy_mode mode;
	bool mode_given;
	/* The SM's port as a user types it (ibp_fabric_resolve_port); NULL:
	 * the first CA port.  A tables file's "sm_port_guid", when the
	 * fabric has it, wins. */
	const char *sm_port;
	/* The subnet's limits for a loaded topology (ibp_fabric_options):
	 * the LinearFDBCap and MulticastFDBCap of its switches and the LMC;
	 * 0: the defaults (49152, 1024, LMC 0). */
	unsigned linear_fdb_cap, multicast_fdb_cap, lmc;
	/* the topology's load and the policy's tables; NULL: none */
	const ibp_progress *progress;
	/* Read at most this many bytes of each input file (topology,
	 * node-name-map, plan, tables): a longer one is IBP_ERANGE.  0: the
	 * defaults of limits.h. */
	size_t max_input_size;
	/* The plan as plan_len bytes in memory instead of a file (a
	 * service's rendering): plan_path then only names it in messages
	 * (NULL: "<plan>"), and counts as given.  NULL: read plan_path. */
	const char *plan_text;
	size_t plan_len;
	/* What the plan's alias GUIDs become (alias_map.h; version 2):
	 * PHYSICAL writes each on its physical port (--vf-guids physical,
	 * conf.h's vf_guids); default ALIAS. */
	ibp_vf_guids vf_guids;
	/* version 2: NVIDIA's OpenSM with virtualization on (opensm.conf
	 * virt_enabled 2): conf.h's vports */
	bool vports;
} ibp_analysis_input_options;

/* Defaults: nothing given, mode opensm. */
void ibp_analysis_input_options_init(ibp_analysis_input_options *o,
				     unsigned version);

/* Load the input o describes into *out (free with
 * ibp_analysis_input_free; NULL on failure).  Findings of the topology
 * (sorted by position) and of the plan (warnings, OpenSM's misreadings)
 * are appended to diags (may be NULL) for the caller to print; the
 * failure, if any, is in err, located (file:line:col) where it is about
 * a place in an input: the topology (its first error, also in diags),
 * the plan, the tables JSON.  Returns 0; IBP_EINVAL when o gives no
 * fabric, or not exactly one of plan_path and tables_path; IBP_EPARSE /
 * IBP_EIO / IBP_ENOENT for an input that does not load (a bad SM port, a
 * topology without a CA port for the SM, a tables entry the fabric does
 * not have); IBP_EPARSE in strict mode for a plan OpenSM rejects (not in
 * the seed dialect); IBP_ENOMEM. */
int ibp_analysis_input_load(const ibp_analysis_input_options *o,
			    ibp_analysis_input **out, ibp_diags *diags,
			    ibp_error *err);
/* Free the input and all it owns (not a borrowed fabric).  NULL is
 * allowed. */
void ibp_analysis_input_free(ibp_analysis_input *in);

/* The getters below return what the input owns (or borrows): valid until
 * ibp_analysis_input_free, never to be freed by the caller. */

/* The fabric (the loaded one or the borrowed one). */
const ibp_fabric *ibp_analysis_input_fabric(const ibp_analysis_input *in);
/* The parsed plan; NULL when the tables came from a file. */
const ibp_conf *ibp_analysis_input_conf(const ibp_analysis_input *in);
/* The tables to analyse (never NULL after a successful load), with the
 * switch ports' enforcement bits where known. */
const ibp_tables *ibp_analysis_input_tables(const ibp_analysis_input *in);
/* A label for reports: the policy mode ("opensm", "strict") for a plan;
 * for tables the file's "mode", else the given mode, else "tables". */
const char *ibp_analysis_input_mode(const ibp_analysis_input *in);

#define IBP_AUDIT_FILES_OPTIONS_VERSION 1
/* The files an audit reads beside its input. */
struct ibp_audit_files_options {
	unsigned version;	      /* IBP_AUDIT_FILES_OPTIONS_VERSION */
	const char *tenants_path;     /* NULL: a tenant is a partition */
	const char *opensm_conf_path; /* NULL: its rules not checked */
	size_t max_input_size;	      /* of each (0: limits.h) */
};
/* Set the version, everything else NULL/0.  Cannot fail. */
void ibp_audit_files_options_init(struct ibp_audit_files_options *o,
				  unsigned version);
/* The input's audit with the tenants map (docs/audit.md) and
 * opensm.conf (opensm_conf.h) read from o's files, as `ibpart audit`
 * and the service run it: the files' findings go to diags (may be NULL;
 * warnings do not fail the call), and *unchecked (may be NULL) gets
 * the codes of the rules the audit did not check for want of an
 * opensm.conf (comma-separated; NULL when one was read).  Errors: a file that
 * does not load (its status, err at its first problem; the files are read in
 * that order and the second not after the first fails); IBP_EINVAL for
 * a wrong options version; IBP_ENOMEM.  *out is NULL on failure. */
int ibp_analysis_input_audit_files(const ibp_analysis_input *in,
				   const struct ibp_audit_files_options *o,
				   ibp_findings **out, const char **unchecked,
				   ibp_diags *diags, ibp_error *err);

IBP_END_DECLS
#endif
