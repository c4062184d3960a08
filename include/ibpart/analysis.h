/*
 * Module analysis (src/analysis/): proving isolation.  Owns the
 * reachability matrix (analysis_matrix.c; its reports are the report
 * module's, report.h); the audit
 * (analysis_audit.c) and its findings (analysis_findings.c), the tenants
 * map (analysis_tenants.c), the rule catalog (analysis_rules.c), the
 * findings about GUIDs OpenSM skips, subnet limits and VFs
 * (analysis_guids.c, analysis_limits.c, analysis_vf.c), the audit kept up
 * to date and changes tried on it (analysis_audit_state.c,
 * analysis_audit_trial.c), the inputs read in one call
 * (analysis_input.c, analysis_input_audit.c, analysis_input.h) and
 * `matrix --explain`'s JSON (analysis_explain_json.c); the opensm.conf
 * options it reads come from opensm_conf.h (src/policy/opensm_conf.c).
 * Depends on pkey (tables, the match rule), topo, conf (the plan),
 * policy (opensm_conf.h), util and jansson; it takes
 * tables from anywhere (policy, sim, a live read) and computes none itself.
 *
 * analysis.h - proving isolation: who can reach whom on the data plane
 * (the reachability matrix) and the ways a partition plan is commonly
 * broken (the security audit).
 *
 * The matrix is computed from any ibp_tables (predicted by the policy,
 * held by the simulator, or read from a live fabric) by the IBA match rule
 * (vol. 1, 10.9.3): two end ports can exchange data packets iff some
 * P_Key base is in both tables with at least one side a full member.
 * Limited-limited never matches; the invalid keys 0x0000/0x8000 never
 * match.  Ports with identical membership sets form an equivalence class;
 * the matrix is kept per class pair as bitsets, so a 48,000-port fabric
 * costs (classes x classes) bits, not ports squared.
 *
 * The audit collects findings, each with a stable code (docs/audit.md), a
 * severity, the ports (by port GUID) and partitions involved, a
 * one-sentence reason and a fix.
 *
 * Threads: no global state.  A built matrix is never changed (its rows,
 * when kept, are computed in ibp_matrix_build), so its const functions
 * may be called from several threads at once; findings lists and tenant
 * maps are used by one thread at a time while they are being filled,
 * and only read afterwards.
 */
#ifndef IBPART_ANALYSIS_H
#define IBPART_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/conf.h"
#include "ibpart/error.h"
#include "ibpart/opensm_conf.h"
#include "ibpart/progress.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The reachability matrix                                             */
/* ------------------------------------------------------------------ */

typedef struct ibp_matrix ibp_matrix;

#define IBP_MATRIX_OPTIONS_VERSION 1
/* Initialise with ibp_matrix_options_init(&o, IBP_MATRIX_OPTIONS_VERSION)
 * (export.h: the library reads only the fields o's version has). */
typedef struct ibp_matrix_options {
	unsigned version; /* IBP_MATRIX_OPTIONS_VERSION (set by _init) */
	/* Count switch port 0 (the switch's management end port) as an end
	 * port.  Off by default: the matrix is about hosts (CA and router
	 * ports), as in the seed's table. */
	bool include_switch_port0;
	/* Keep the class x class rows only while they fit in this many
	 * bytes (0: 192 MiB); past it class pairs are answered by merging
	 * the two membership lists. */
	size_t max_row_bytes;
	/* "building the matrix" (end ports) while it runs; NULL: none. */
	const ibp_progress *progress;
} ibp_matrix_options;

/* Set version, everything else 0/false/NULL.  Cannot fail. */
void ibp_matrix_options_init(ibp_matrix_options *o, unsigned version);

/* End ports are every CA/router port that is linked or has a table in
 * ts (a port with no table is a member of nothing) - except a port left
 * without a LID because the subnet's LIDs ran out (not on the subnet:
 * ibp_fabric_assign_lids), in (node, port)
 * order, plus switch port 0 when asked.  IBP_EINVAL for a NULL ts or
 * an options version 0 or newer than the library's; IBP_ENOMEM.  *out is the
 * caller's, freed with ibp_matrix_free() (NULL allowed); it borrows ts, which
 * must outlive it.  o may be NULL. */
int ibp_matrix_build(const ibp_tables *ts, const ibp_matrix_options *o,
		     ibp_matrix **out, ibp_error *err);
void ibp_matrix_free(ibp_matrix *m);

/* The tables it was built from (borrowed by the matrix: they, and their
 * fabric, must outlive it). */
const ibp_tables *ibp_matrix_tables(const ibp_matrix *m);
/* End port i (an explanation's src and dst): its (node, port) in those
 * tables' fabric (false, nothing written, when i is no end port), its
 * port GUID, and how it is shown - its node description, or
 * "description/port" when the node has more than one end port in the
 * matrix (a dual-port CA), which ibp_fabric_resolve_port() reads back
 * (owned by m). */
bool ibp_matrix_endpoint(const ibp_matrix *m, size_t i, size_t *node,
			 unsigned *port);
uint64_t ibp_matrix_endpoint_guid(const ibp_matrix *m, size_t i);
const char *ibp_matrix_endpoint_label(const ibp_matrix *m, size_t i);

/* Why two end ports can or cannot talk. */
typedef enum ibp_match_rule {
	IBP_RULE_SAME_PORT = 0,	     /* i == j: not a pair */
	IBP_RULE_FULL_FULL,	     /* a shared base, both full members */
	IBP_RULE_FULL_LIMITED,	     /* a shared base, one side full */
	IBP_RULE_LIMITED_LIMITED,    /* shared bases, only limited on both */
	IBP_RULE_NO_SHARED_PARTITION /* no valid base in both tables */
} ibp_match_rule;

typedef struct ibp_explain_entry {
	uint16_t base;	   /* the partition */
	uint16_t src_pkey; /* the entry in the source's table */
	unsigned src_index;
	uint16_t dst_pkey; /* the entry in the destination's table */
	unsigned dst_index;
	bool match; /* by the IBA rule */
} ibp_explain_entry;

/* The caller allocates it with its version set,
 * `ibp_explanation e = {.version = IBP_EXPLANATION_VERSION};`
 * (export.h: the library fills only the fields that version has). */
#define IBP_EXPLANATION_VERSION 1
typedef struct ibp_explanation {
	unsigned version; /* IBP_EXPLANATION_VERSION, the caller's */
	size_t src, dst;  /* end port indices */
	bool can_talk;
	ibp_match_rule rule; /* the deciding rule (the best shared entry) */
	size_t nshared;	     /* entry pairs with the same valid base */
	ibp_explain_entry *shared;
} ibp_explanation;

/* Why the end ports two ports named as ibp_fabric_resolve_port() reads
 * them (GUID, node description, NAME/N, LID) in the matrix's fabric can
 * or cannot talk, into *out (zeroed first but for its version; free
 * with ibp_explanation_free).  Errors: IBP_EINVAL, nothing written, for
 * out's version 0 or newer than the library's; those of
 * ibp_fabric_resolve_port (a name that is no port, or several);
 * IBP_ERANGE "SPEC is not an end port of the matrix" (a switch port, or
 * port 0 of a switch without include_switch_port0); IBP_ENOMEM. */
int ibp_matrix_explain_ports(const ibp_matrix *m, const char *src,
			     const char *dst, ibp_explanation *out,
			     ibp_error *err);
/* Free e's entries and zero it but for its version.  NULL, and a
 * version this library does not fill (nothing is done), are allowed. */
void ibp_explanation_free(ibp_explanation *e);
/* The same as JSON (docs/json-schemas.md): {"src": {"port_guid",
 * "node_desc", "label", "port", "pkeys"}, "dst": {...}, "can_talk",
 * "rule", "shared": [{"base", "src_index", "src_pkey", "dst_index",
 * "dst_pkey", "match"}]}; a malloc'd string, NULL on ENOMEM or for e's
 * version 0 or newer than the library's. */
char *ibp_explanation_json(const ibp_matrix *m, const ibp_explanation *e);

/* ------------------------------------------------------------------ */
/* Audit findings (src/analysis/analysis_findings.c)                  */
/* ------------------------------------------------------------------ */

typedef enum ibp_audit_severity {
	IBP_AUDIT_INFO = 0,
	IBP_AUDIT_MEDIUM = 1,
	IBP_AUDIT_HIGH = 2,
	IBP_AUDIT_CRITICAL = 3
} ibp_audit_severity;

typedef struct ibp_finding {
	const char *code; /* stable, see docs/audit.md */
	ibp_audit_severity severity;
	size_t nports;
	uint64_t *ports; /* port GUIDs */
	size_t npartitions;
	uint16_t *partitions; /* P_Key bases (0x0001 … 0x7fff) */
	char *message;	      /* the reason, one sentence */
	char *fix;
} ibp_finding;

typedef struct ibp_findings ibp_findings;

/* Free a list an audit handed over (ibp_analysis_input_audit_files), and
 * every finding's copies with it; NULL is allowed.  A verify's findings
 * are the result's own (ibp_verify_result_free frees them).  The
 * ibp_finding pointers a list gives out (ibp_findings_get) are borrowed
 * from it: valid until it is freed. */
void ibp_findings_free(ibp_findings *f);
/* The findings, i < ibp_findings_count(f), in the list's order
 * (borrowed: see above; NULL past the end). */
size_t ibp_findings_count(const ibp_findings *f);
const ibp_finding *ibp_findings_get(const ibp_findings *f, size_t i);
/* How many findings have severity s. */
size_t ibp_findings_count_severity(const ibp_findings *f, ibp_audit_severity s);
/* The highest severity present; -1 when there is none. */
int ibp_findings_max_severity(const ibp_findings *f);

/* "info", "medium", "high", "critical" (a static string; "?" for a value
 * out of range), and back, case-insensitively: IBP_EINVAL (*out
 * untouched) for any other text or NULL. */
const char *ibp_audit_severity_str(ibp_audit_severity s);
int ibp_audit_severity_parse(const char *s, ibp_audit_severity *out);

/* The audit's rules (src/analysis/analysis_rules.c), in docs/audit.md's
 * words: every code a finding can carry, the severity it has unless the
 * summary says when it differs, and a one-line summary.  Static data,
 * never to be freed. */
typedef struct ibp_audit_rule {
	const char *code;
	ibp_audit_severity severity;
	const char *summary;
} ibp_audit_rule;

/* How many rules the catalog has, and the i-th, by severity (highest
 * first); NULL past the end.  Static data: any thread, never freed. */
size_t ibp_audit_rule_count(void);
const ibp_audit_rule *ibp_audit_rule_get(size_t i);

/* {"findings": [{"code","severity","ports","partitions","message","fix"}]}
 * as a malloc'd string (caller frees), or NULL on ENOMEM. */
char *ibp_findings_to_json(const ibp_findings *f);

/* ------------------------------------------------------------------ */
/* Tenants (src/analysis/analysis_tenants.c)                          */
/* ------------------------------------------------------------------ */

/* Which tenant each end port belongs to (docs/audit.md, "--tenants").
 * File format: one tenant per line, "NAME: PORT PORT …", '#' starts a
 * comment; a PORT is a port GUID, node GUID, node description, file id
 * ("H-…") or LID, quoted with "…" when it holds blanks. */
typedef struct ibp_tenant_map ibp_tenant_map;

IBP_END_DECLS
#endif
