/*
 * Module analysis (src/analysis/): proving isolation.  Owns the
 * reachability matrix (analysis_matrix.c) and its reports as text, md,
 * csv, JSON (report_matrix.c) and HTML (report_html.c); the audit
 * (analysis_audit.c) and its findings (analysis_findings.c), the tenants
 * map (analysis_tenants.c); the opensm.conf options it reads come from
 * opensm_conf.h (src/policy/opensm_conf.c).  Depends on pkey (tables,
 * the match rule), topo, policy (opensm_conf.h), util and jansson; it takes
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

typedef struct ibp_matrix_options {
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

/* End ports are every CA/router port that is linked or has a table in
 * ts (a port with no table is a member of nothing) - except a port left
 * without a LID because the subnet's LIDs ran out
 * (ibp_fabric_port_is_lidless: not on the subnet), in (node, port)
 * order, plus switch port 0 when asked.  IBP_EINVAL for a NULL ts,
 * IBP_ENOMEM.  *out is the caller's, freed with ibp_matrix_free() (NULL
 * allowed); it borrows ts (see ibp_matrix_tables).  o may be NULL. */
int ibp_matrix_build(const ibp_tables *ts, const ibp_matrix_options *o,
		     ibp_matrix **out, ibp_error *err);
void ibp_matrix_free(ibp_matrix *m);

/* The tables it was built from (borrowed by the matrix: they, and their
 * fabric, must outlive it), and the number of end ports, 0..count-1 in
 * every function below. */
const ibp_tables *ibp_matrix_tables(const ibp_matrix *m);
size_t ibp_matrix_endpoint_count(const ibp_matrix *m);
/* (node, port) of end port i; false when i is out of range. */
bool ibp_matrix_endpoint(const ibp_matrix *m, size_t i, size_t *node,
			 unsigned *port);
uint64_t ibp_matrix_endpoint_guid(const ibp_matrix *m, size_t i);
/* The node description of end port i (JSON's "node_desc"). */
const char *ibp_matrix_endpoint_desc(const ibp_matrix *m, size_t i);
/* How end port i is shown: its node description, or "description/port"
 * when the node has more than one end port in the matrix (a dual-port
 * CA), which ibp_fabric_resolve_port() reads back. */
const char *ibp_matrix_endpoint_label(const ibp_matrix *m, size_t i);
/* Index of the end port (node, port), or -1. */
long ibp_matrix_find(const ibp_matrix *m, size_t node, unsigned port);

/* Whether end ports i and j (i != j) can exchange data packets.  The
 * diagonal (i == j) is not a pair and answers false. */
bool ibp_matrix_can_talk(const ibp_matrix *m, size_t i, size_t j);
/* How many other end ports i can talk to. */
size_t ibp_matrix_reach_count(const ibp_matrix *m, size_t i);
/* Unordered pairs of distinct end ports that can talk. */
uint64_t ibp_matrix_pair_count(const ibp_matrix *m);

/* Classes: end ports with the same effective membership set (for each
 * partition base: none, limited or full; a full entry wins over a
 * limited one of the same base).  Numbered in order of first member. */
size_t ibp_matrix_class_count(const ibp_matrix *m);
size_t ibp_matrix_class_of(const ibp_matrix *m, size_t endpoint);
size_t ibp_matrix_class_size(const ibp_matrix *m, size_t cls);
/* The members of a class in ascending order (class_size of them). */
const size_t *ibp_matrix_class_members(const ibp_matrix *m, size_t cls);
/* The class's membership as P_Keys sorted by base, the full bit set for
 * a full member; *n receives the count. */
const uint16_t *ibp_matrix_class_keys(const ibp_matrix *m, size_t cls,
				      size_t *n);
/* Whether a member of class a can talk to a (different) member of class
 * b; for a == b, whether two distinct members of a would talk. */
bool ibp_matrix_class_can_talk(const ibp_matrix *m, size_t a, size_t b);
/* Number of distinct partition bases (valid) in any end port's table. */
size_t ibp_matrix_partition_count(const ibp_matrix *m);

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

typedef struct ibp_explanation {
	size_t src, dst; /* end port indices */
	bool can_talk;
	ibp_match_rule rule; /* the deciding rule (the best shared entry) */
	size_t nshared;	     /* entry pairs with the same valid base */
	ibp_explain_entry *shared;
} ibp_explanation;

/* Fill *out (free with ibp_explanation_free).  IBP_ERANGE for a bad
 * index. */
int ibp_matrix_explain(const ibp_matrix *m, size_t src, size_t dst,
		       ibp_explanation *out, ibp_error *err);
/* The same for two ports named as ibp_fabric_resolve_port() reads them
 * (GUID, node description, NAME/N, LID) in the matrix's fabric.  Errors:
 * those of ibp_fabric_resolve_port (a name that is no port, or several);
 * IBP_ERANGE "SPEC is not an end port of the matrix" (a switch port, or
 * port 0 of a switch without include_switch_port0); IBP_ENOMEM. */
int ibp_matrix_explain_ports(const ibp_matrix *m, const char *src,
			     const char *dst, ibp_explanation *out,
			     ibp_error *err);
void ibp_explanation_free(ibp_explanation *e);
const char *ibp_match_rule_str(ibp_match_rule r);
/* Human text: both tables, every shared base and the deciding rule. */
void ibp_explanation_print(const ibp_matrix *m, const ibp_explanation *e,
			   FILE *out);
/* The same as JSON (docs/json-schemas.md): {"src": {"port_guid",
 * "node_desc", "label", "port", "pkeys"}, "dst": {...}, "can_talk",
 * "rule", "shared": [{"base", "src_index", "src_pkey", "dst_index",
 * "dst_pkey", "match"}]}; a malloc'd string, NULL on ENOMEM. */
char *ibp_explanation_json(const ibp_matrix *m, const ibp_explanation *e);

/* ------------------------------------------------------------------ */
/* Matrix reports (src/analysis/report_matrix.c,                      */
/* src/analysis/report_html.c)                                        */
/* ------------------------------------------------------------------ */

typedef enum ibp_matrix_format {
	IBP_MATRIX_TEXT = 0, /* grid when small, class summary when large */
	IBP_MATRIX_MD,
	IBP_MATRIX_CSV,
	IBP_MATRIX_JSON,
	IBP_MATRIX_HTML
} ibp_matrix_format;

/* The shape of the JSON and CSV matrix (docs/matrix.md): one cell per
 * pair of end ports (ports² cells: 16 GB of JSON at 48,000 ports), or
 * one per pair of classes, with each class's ports (megabytes).  AUTO:
 * ports up to IBP_MATRIX_PORT_FORM_MAX end ports, classes above. */
typedef enum ibp_matrix_form {
	IBP_MATRIX_FORM_AUTO = 0,
	IBP_MATRIX_FORM_PORTS,
	IBP_MATRIX_FORM_CLASSES
} ibp_matrix_form;
#define IBP_MATRIX_PORT_FORM_MAX 2000u

/* What the web view (the HTML report, the page ibpartd serves at `/`)
 * shows beyond the plan when its caller has it (docs/matrix.md). */

typedef struct ibp_findings ibp_findings; /* below */

/* One port whose P_KeyTable differs from the plan (from verify). */
typedef struct ibp_web_drift {
	uint64_t port_guid;
	const char *node_desc; /* NULL: none */
	unsigned port;
	const char *kind;   /* e.g. "missing", "extra", "moved" */
	const char *detail; /* one line, or NULL */
} ibp_web_drift;

/* One counter of one tenant over time: values[i] at times[i] (Unix
 * seconds; times NULL: samples in order, no clock), e.g. the monotonic
 * totals of ibpart_tenant_constraint_errors_total a monitor collects.
 * Drawn as an inline SVG sparkline labelled with its last value and
 * its increase over the series. */
typedef struct ibp_web_series {
	const char *tenant;  /* the partition's name */
	const char *counter; /* e.g. "constraint errors from", or NULL */
	const double *values;
	const int64_t *times; /* NULL allowed */
	size_t n;
} ibp_web_series;

#define IBP_WEB_EXTRAS_VERSION 1
typedef struct ibp_web_extras {
	unsigned version; /* IBP_WEB_EXTRAS_VERSION (set by _init) */
	/* audit findings; capacity-overflow ones also mark the ports and
	 * partitions where the table overflows.  NULL: no section */
	const ibp_findings *findings;
	const ibp_web_drift *drift; /* NULL or ndrift == 0: no section */
	size_t ndrift;
	const ibp_web_series *series; /* NULL or nseries == 0: none */
	size_t nseries;
	const char *status; /* one line under the title (e.g. "last sweep
			       12:00:03"), or NULL */
} ibp_web_extras;

/* Every field empty, version set. */
void ibp_web_extras_init(ibp_web_extras *x);

typedef struct ibp_matrix_report_options {
	const char *mode;  /* "opensm", "strict", … for JSON/HTML */
	const char *title; /* HTML title / headline, or NULL */
	size_t grid_limit; /* text grid up to this many ports (0: 32) */
	const char *const *partition_names; /* [0x8000] by base, or NULL */
	ibp_matrix_form form;		    /* JSON and CSV; default AUTO */
	/* "writing the matrix" (rows) for JSON and CSV; NULL: none */
	const ibp_progress *progress;
	/* HTML: the web view's optional sections; NULL: none */
	const ibp_web_extras *web;
} ibp_matrix_report_options;

/* Parse "text", "md", "csv", "json", "html"; IBP_EINVAL otherwise. */
int ibp_matrix_format_parse(const char *s, ibp_matrix_format *out);
/* The formats' and the forms' names in their enums' order, as an
 * option's words (args.h: the IBP_ARG_INDEX of a word is its value). */
#define IBP_MATRIX_FORMAT_WORDS "text|md|csv|json|html"
#define IBP_MATRIX_FORM_WORDS	"auto|ports|classes"
/* Parse "auto", "ports", "classes"; IBP_EINVAL otherwise (NULL too).
 * ibp_matrix_form_of gives the form a report of m takes (AUTO
 * resolved): PORTS or CLASSES; its name by ibp_matrix_form_str ("ports",
 * "classes", "auto": static strings). */
int ibp_matrix_form_parse(const char *s, ibp_matrix_form *out);
ibp_matrix_form ibp_matrix_form_of(const ibp_matrix *m, ibp_matrix_form f);
const char *ibp_matrix_form_str(ibp_matrix_form f);
int ibp_matrix_report(const ibp_matrix *m, ibp_matrix_format fmt,
		      const ibp_matrix_report_options *o, FILE *out,
		      ibp_error *err);
/* The HTML report on its own, the web view (docs/matrix.md): one
 * self-contained page (inline style and script, no fetch), its tables
 * plain HTML readable without JavaScript (the script only filters and
 * opens sections); every name entity-escaped.  Tenants with their
 * members, the matrix grouped by tenant, the classes with their ports,
 * every port's P_KeyTable, and o->web's sections. */
int ibp_matrix_report_html(const ibp_matrix *m,
			   const ibp_matrix_report_options *o, FILE *out,
			   ibp_error *err);

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

/* An empty list, the caller's to free with ibp_findings_free() (NULL
 * allowed, frees every finding's copies); NULL when out of memory.  The
 * ibp_finding pointers it gives out are borrowed: valid until the list
 * is freed, sorted, or added to. */
ibp_findings *ibp_findings_new(void);
void ibp_findings_free(ibp_findings *f);
/* Append a finding (strings and arrays are copied; partitions are masked
 * to their base).  Returns 0 or IBP_ENOMEM. */
int ibp_findings_add(ibp_findings *f, const char *code, ibp_audit_severity sev,
		     const uint64_t *ports, size_t nports,
		     const uint16_t *partitions, size_t npartitions,
		     const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));
size_t ibp_findings_count(const ibp_findings *f);
const ibp_finding *ibp_findings_get(const ibp_findings *f, size_t i);
/* Index of the first finding with this code, or -1. */
long ibp_findings_find(const ibp_findings *f, const char *code);
/* The highest severity present; -1 when there is none. */
int ibp_findings_max_severity(const ibp_findings *f);
/* Order by severity (highest first), then code; stable. */
void ibp_findings_sort(ibp_findings *f);

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
/* How many rules the catalog has. */
size_t ibp_audit_rule_count(void);
/* The i-th rule, by severity (highest first); NULL past the end. */
const ibp_audit_rule *ibp_audit_rule_get(size_t i);
/* The rule with this code; NULL for a code that is no rule (or NULL). */
const ibp_audit_rule *ibp_audit_rule_find(const char *code);
/* One row per rule, by severity: the code from column 2, the severity
 * from column 26, the summary from column 36 wrapped before column 72
 * (`ibpart audit --help`). */
void ibp_audit_rules_print(FILE *out);

/* {"findings": [{"code","severity","ports","partitions","message","fix"}]}
 * as a malloc'd string (caller frees), or NULL on ENOMEM. */
char *ibp_findings_to_json(const ibp_findings *f);
/* One block per finding: "SEVERITY code: message", ports, partitions,
 * fix; a summary line at the end. */
void ibp_findings_print(const ibp_findings *f, FILE *out);

/* ------------------------------------------------------------------ */
/* Tenants (src/analysis/analysis_tenants.c)                          */
/* ------------------------------------------------------------------ */

/* Which tenant each end port belongs to (docs/audit.md, "--tenants").
 * File format: one tenant per line, "NAME: PORT PORT …", '#' starts a
 * comment; a PORT is a port GUID, node GUID, node description, file id
 * ("H-…") or LID, quoted with "…" when it holds blanks. */
typedef struct ibp_tenant_map ibp_tenant_map;

/* An empty map over fabric f (borrowed: f must outlive the map), the
 * caller's to free with ibp_tenant_map_free() (NULL allowed); NULL when
 * out of memory. */
ibp_tenant_map *ibp_tenant_map_new(const ibp_fabric *f);
void ibp_tenant_map_free(ibp_tenant_map *t);
/* Put (node, port) in tenant `name`.  IBP_EINVAL when the port is
 * already in another tenant. */
int ibp_tenant_map_set(ibp_tenant_map *t, size_t node, unsigned port,
		       const char *name, ibp_error *err);
/* The tenant index of (node, port), or -1 when unmapped. */
int ibp_tenant_map_get(const ibp_tenant_map *t, size_t node, unsigned port);
size_t ibp_tenant_map_count(const ibp_tenant_map *t);
const char *ibp_tenant_map_name(const ibp_tenant_map *t, size_t tenant);
/* Read the file format above; every problem is reported as
 * file:line:col in err (the first one) and diags (all, may be NULL). */
int ibp_tenant_map_load(const ibp_fabric *f, const char *path,
			ibp_tenant_map **out, ibp_diags *diags, ibp_error *err);
/* ibp_tenant_map_load() reading at most max_input_size bytes (0: 64
 * MiB, IBP_SMALL_INPUT_MAX_DEFAULT); a longer file is IBP_ERANGE. */
int ibp_tenant_map_load_limit(const ibp_fabric *f, const char *path,
			      size_t max_input_size, ibp_tenant_map **out,
			      ibp_diags *diags, ibp_error *err);
int ibp_tenant_map_load_buffer(const ibp_fabric *f, const char *name,
			       const char *text, size_t len,
			       ibp_tenant_map **out, ibp_diags *diags,
			       ibp_error *err);

/* OpenSM's opensm.conf (ibp_osm_conf): include/ibpart/opensm_conf.h,
 * read once for the audit and the partition manager. */

/* ------------------------------------------------------------------ */
/* The audit rules (src/analysis/analysis_audit.c)                    */
/* ------------------------------------------------------------------ */

/* Partition enforcement of a switch's external port, as the SM (or the
 * simulator) set it: PortInfo PartitionEnforcementInbound/Outbound. */
typedef bool (*ibp_enforcement_fn)(void *ctx, size_t sw_node, unsigned sw_port,
				   bool *inbound, bool *outbound);

typedef struct ibp_audit_input {
	const ibp_tables *tables; /* the tables to audit (required) */
	size_t sm_node;		  /* the SA/SM port */
	unsigned sm_port;
	const ibp_tenant_map *tenants;	    /* NULL: tenant = partition */
	const char *const *partition_names; /* [0x8000] by base, or NULL */
	const ibp_osm_conf *osm;	    /* NULL: no opensm.conf given */
	ibp_enforcement_fn enforcement;	    /* NULL: the bits `tables`
					       carries, if any */
	void *enforcement_ctx;
	const ibp_matrix *matrix; /* optional: reused if already built */
} ibp_audit_input;

/* Run every rule that the input allows over the tables and append the
 * findings.  (Findings about the plan itself - OpenSM would reject or
 * misread it, capacity overflow - come from the conf verdict and the
 * policy; see ibp_audit_plan_rejected() and friends.) */
int ibp_audit_run(const ibp_audit_input *in, ibp_findings *out, ibp_error *err);

/* Findings the plan's verdict gives (conf module), phrased for the
 * audit: OpenSM rejects the whole file and falls back to ALL=full
 * (critical).  For a plan in the seed dialect (seed_dialect), which ibpart
 * reads as the plan it describes and OpenSM cannot read at all, the same
 * code at high: the plan is audited as written, the file must not reach
 * OpenSM. */
int ibp_audit_plan_rejected(ibp_findings *out, const ibp_fabric *f,
			    const char *why, bool seed_dialect);
/* OpenSM reads the plan differently from what it says (e.g. a missing
 * comma turns a member limited and drops the next). */
int ibp_audit_plan_misread(ibp_findings *out, const uint64_t *ports,
			   size_t nports, const uint16_t *partitions,
			   size_t npartitions, const char *why);
/* OpenSM rejected the file but keeps the indx0 P_Key it read before the
 * error on these ports: their 0xffff is not at index 0, which stays
 * empty (the IPoIB parent interface there has no partition): high. */
int ibp_audit_fallback_indx0(ibp_findings *out, const uint64_t *ports,
			     size_t nports, const char *why);
/* OpenSM's reading of the plan depends on memory it never initialised
 * (an mgid item ending a statement): what it programs cannot be
 * predicted.  Every end port: high. */
int ibp_audit_plan_indeterminate(ibp_findings *out, const ibp_fabric *f,
				 const char *why);
/* The subnet's own limits (analysis_limits.c): "no-lid" (high) for the
 * end ports the subnet's LIDs do not reach (ibp_fabric_lidless_count;
 * the message says which limit: the unicast space, a switch's
 * LinearFDBCap, the LMC), and "multicast-groups" for the plan's need of
 * multicast groups (a lower bound: one broadcast group per IPoIB
 * partition and scope, one per mgid= line) against the smallest
 * MulticastFDBCap of the fabric's switches: info when it fits, high past
 * it (OpenSM ERR 1B19).  plan NULL: no multicast finding.  IBP_EINVAL
 * without out or f; IBP_ENOMEM. */
int ibp_audit_subnet_limits(ibp_findings *out, const ibp_fabric *f,
			    const ibp_conf *plan);
/* The isolation question for virtual functions (analysis_vf.c):
 * "shared-physical-port" (high), one finding per physical port two of
 * whose GUIDs - its VFs' alias GUIDs (aliases, alias_map.h) or the port
 * itself - are members of different partitions other than the default
 * one: a VF (mlx4 model) uses its physical port's P_KeyTable, which must
 * then hold every tenant's P_Key, and only the host's VF mapping keeps
 * them apart.  The finding names the physical port and the partitions.
 * Nothing without aliases or for a plan OpenSM rejects.  IBP_EINVAL
 * without out or f; IBP_ENOMEM. */
int ibp_audit_shared_physical_port(ibp_findings *out, const ibp_fabric *f,
				   const ibp_conf *plan,
				   const ibp_alias_map *aliases);
/* A port's table cannot hold all its entries (PartitionCap). */
int ibp_audit_capacity_overflow(ibp_findings *out, uint64_t port_guid,
				unsigned capacity, unsigned wanted,
				const uint16_t *dropped, size_t ndropped);
/* The same for nports ports that drop the same P_Keys from tables of
 * the same capacity: one finding for them all (a plan that overflows
 * 2,000 tenant nodes alike is one finding, not 2,000). */
int ibp_audit_capacity_overflow_ports(ibp_findings *out, const uint64_t *ports,
				      size_t nports, unsigned capacity,
				      unsigned wanted, const uint16_t *dropped,
				      size_t ndropped);

IBP_END_DECLS
#endif
