/*
 * verify.h - does the live fabric hold the plan?  One operation over a
 * live session (live.h): read every P_KeyTable the fabric holds, turn the
 * plan into the tables OpenSM would program (fail closed: a plan with
 * errors, or one OpenSM would reject and replace with ALL=full, is not
 * verified against), compare port by port (ibp_drift), and optionally
 * build the connectivity matrix and the audit of what the fabric really
 * holds.  `ibpart verify`, `apply --via-opensm` and the service all call
 * this; they differ only in how they print the result.
 *
 * Indices: with the ports' previous tables (`previous`, e.g. a state file
 * of `apply`), OpenSM's placement is predicted and an index difference is
 * drift.  Without them a P_Key is expected where the port holds it now,
 * and an index difference is only a note (IBP_DRIFT_SEL_INDEX_ONLY).
 *
 * A leaf port (a switch port facing an end port) whose PortInfo
 * partition enforcement bits are not the session's part_enforce is
 * drift (IBP_DRIFT_ENFORCEMENT), where the switch implements the bits.
 *
 * A GUID the plan names that is no port GUID of the fabric (unknown, a
 * node GUID, or a VF's alias GUID) is listed as absent, not drift:
 * OpenSM skips it too.
 *
 * Threads: a result is plain data once made; one session is used by one
 * thread at a time (live.h).
 */
#ifndef IBPART_VERIFY_H
#define IBPART_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/alias_map.h"
#include "ibpart/analysis.h"
#include "ibpart/report.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/live.h"
#include "ibpart/tables.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_VERIFY_OPTIONS_VERSION 2 /* 2: vf_guids */
struct ibp_verify_options {
	unsigned version;      /* IBP_VERIFY_OPTIONS_VERSION (set by _init) */
	const char *conf_path; /* the plan (required) */
	const char *mode;      /* "opensm" (default) or "strict" */
	bool allow_both_pkeys; /* OpenSM's allow_both_pkeys (-W) */
	const ibp_tables *previous;   /* the ports' tables before the plan was
					 applied (borrowed); NULL: unknown */
	bool matrix;		      /* also build the matrix of `have` */
	bool audit;		      /* also audit `have` */
	bool compact_pkey_indexes;    /* opensm.conf keep_pkey_indexes FALSE */
	size_t max_input_size;	      /* of the plan (0: limits.h) */
	const char *alias_guids_path; /* the fabric's alias GUIDs (alias_map.h,
					 may be NULL): their GUIDs are absent
					 of kind "alias" */
	ibp_vf_guids vf_guids;	      /* version 2: PHYSICAL writes each
					 alias on its physical port, which
					 is then verified (conf.h) */
};
/* Set version and mode "opensm" (a static string), everything else
 * NULL/false: conf_path must still be set.  Cannot fail. */
void ibp_verify_options_init(struct ibp_verify_options *o, unsigned version);

/* A GUID the plan names that is not a port of the fabric. */
struct ibp_absent_member {
	uint64_t guid;
	const char *text;      /* as written in the plan */
	bool by_name;	       /* the plan named it (node-name-map) */
	const char *conf_file; /* where */
	unsigned conf_line;
	char hint[160];	    /* "" or why it is probably wrong (a CA's node
			       GUID where its port GUID belongs), or which VF
			       of which port an alias is */
	ibp_guid_kind kind; /* NODE, ALIAS (with the options' alias map)
			       or UNKNOWN (alias_map.h) */
	uint64_t port_guid; /* ALIAS: its physical port's GUID */
	unsigned vf;	    /* ALIAS: its GUIDInfo index (the VF) */
};

typedef struct ibp_verify_result ibp_verify_result;

/* Run the verification on an open, discovered session whose SM port is
 * decided (ibp_live_find_sm).  The discovery's findings (nodes left out
 * for a NodeInfo GUID of 0: node-guid-zero, port-guid-zero), then the
 * plan's (every one, notes too) go to diags (may be NULL); the JSON
 * (ibp_verify_result_json) holds the discovery's as "discovery".  Returns
 * IBP_OK whether or not the fabric drifted (see ibp_verify_result_differences);
 * IBP_EPARSE or IBP_EINVAL when the plan is bad input (nothing was compared),
 * the fabric's or system's status (IBP_EIO, IBP_ETIMEDOUT, IBP_ENOMEM, ...)
 * otherwise; IBP_ECANCELED when the session's cancel callback said so.
 * The caller frees *out with ibp_verify_result_free, before it closes
 * the session: the result's tables are keyed by the session's fabric,
 * which they borrow (freeing them after ibp_live_close reads freed
 * memory). */
int ibp_verify(ibp_live *l, const struct ibp_verify_options *o,
	       ibp_verify_result **out, ibp_diags *diags, ibp_error *err);
void ibp_verify_result_free(ibp_verify_result *r);

/* What was compared: the drift (all items), the tables read, the tables
 * planned, owned by the result; the fabric they are keyed by, the
 * session's (valid while it is open). */
const ibp_drift *ibp_verify_result_drift(const ibp_verify_result *r);
const ibp_tables *ibp_verify_result_have(const ibp_verify_result *r);
const ibp_tables *ibp_verify_result_want(const ibp_verify_result *r);
const ibp_fabric *ibp_verify_result_fabric(const ibp_verify_result *r);
/* Which drift items count as drift: all of them with `previous`, all but
 * index-only differences without (ibp_drift_item_selected). */
ibp_drift_sel ibp_verify_result_selection(const ibp_verify_result *r);
/* Differences that count as drift, and (*ports, may be NULL) on how many
 * ports; index notes: index-only differences not counted (0 with
 * `previous`). */
size_t ibp_verify_result_differences(const ibp_verify_result *r, size_t *ports);
size_t ibp_verify_result_index_notes(const ibp_verify_result *r);
/* Leaf ports whose PortInfo partition enforcement was compared with the
 * session's part_enforce (those of switches implementing the bits; 0
 * when the session leaves enforcement as it is). */
size_t ibp_verify_result_enforcement_checked(const ibp_verify_result *r);
/* The GUIDs the plan names that are no port of the fabric (OpenSM skips
 * them too), i < ibp_verify_result_absent_count(r); owned by r. */
size_t ibp_verify_result_absent_count(const ibp_verify_result *r);
const struct ibp_absent_member *
ibp_verify_result_absent_at(const ibp_verify_result *r, size_t i);
/* The matrix and the findings when asked for, else NULL; owned by r. */
const ibp_matrix *ibp_verify_result_matrix(const ibp_verify_result *r);
const ibp_findings *ibp_verify_result_findings(const ibp_verify_result *r);
/* The SM's port, the mode ("opensm" or "strict"), and the session's
 * SMPs and time (ms) when the verification ended. */
uint64_t ibp_verify_result_sm_port_guid(const ibp_verify_result *r);
const char *ibp_verify_result_mode(const ibp_verify_result *r);
unsigned long ibp_verify_result_smps(const ibp_verify_result *r);
long ibp_verify_result_elapsed_ms(const ibp_verify_result *r);

/* The result as `ibpart verify --format json` prints it (docs/
 * json-schemas.md): a malloc'd string the caller frees, NULL on ENOMEM. */
char *ibp_verify_result_json(const ibp_verify_result *r);

IBP_END_DECLS
#endif
