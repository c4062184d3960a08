/*
 * analysis_lib.h - the library's own half of ibpart/analysis.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/analysis.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_ANALYSIS_ANALYSIS_LIB_H
#define IBPART_ANALYSIS_ANALYSIS_LIB_H

#include "ibpart/analysis.h"

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

/* The number of end ports, 0..count-1 in every function below (and in
 * ibpart/analysis.h's ibp_matrix_endpoint*). */
size_t ibp_matrix_endpoint_count(const ibp_matrix *m);

/* The node description of end port i (JSON's "node_desc"). */
const char *ibp_matrix_endpoint_desc(const ibp_matrix *m, size_t i);

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

/* The caller's *e read into the library's whole current *full, as far
 * as e's version goes (util/options_version.h): IBP_EINVAL for NULL e
 * or a version 0 or newer than the library's. */
int ibp_explanation_take(ibp_explanation *full, const ibp_explanation *e,
			 ibp_error *err);

/* Fill the library's whole current *out (its version set; free with
 * ibp_explanation_free).  IBP_ERANGE for a bad
 * index. */
int ibp_matrix_explain(const ibp_matrix *m, size_t src, size_t dst,
		       ibp_explanation *out, ibp_error *err);

/* The rule's name as the text and the JSON give it ("full-limited"). */
const char *ibp_match_rule_str(ibp_match_rule r);

/* An empty list, the caller's to free with ibp_findings_free() (NULL
 * allowed, frees every finding's copies); NULL when out of memory.  The
 * ibp_finding pointers it gives out are borrowed: valid until the list
 * is freed, sorted, or added to. */
ibp_findings *ibp_findings_new(void);

/* Append a finding (strings and arrays are copied; partitions are masked
 * to their base).  Returns 0 or IBP_ENOMEM. */
int ibp_findings_add(ibp_findings *f, const char *code, ibp_audit_severity sev,
		     const uint64_t *ports, size_t nports,
		     const uint16_t *partitions, size_t npartitions,
		     const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));

/* Index of the first finding with this code, or -1. */
long ibp_findings_find(const ibp_findings *f, const char *code);

/* Order by severity (highest first), then code; stable. */
void ibp_findings_sort(ibp_findings *f);
/* Append a copy of every finding of src (NULL: none) to f; 0 or
 * IBP_ENOMEM. */
int ibp_findings_append(ibp_findings *f, const ibp_findings *src);
/* Do a and b say the same: code, severity, ports, partitions and
 * message? */
bool ibp_finding_equal(const ibp_finding *a, const ibp_finding *b);

/* The rule with this code; NULL for a code that is no rule (or NULL). */
const ibp_audit_rule *ibp_audit_rule_find(const char *code);

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

/* Run every rule that the input allows over the tables and append the
 * findings.  (Findings about the plan itself - OpenSM would reject or
 * misread it, capacity overflow - come from the conf verdict and the
 * policy; see ibp_audit_plan_rejected() and friends.) */
int ibp_audit_run(const ibp_audit_input *in, ibp_findings *out, ibp_error *err);

/* The audit kept for a set of tables and updated as ports' keys change
 * (src/analysis/analysis_audit_state.c): after any sequence of
 * ibp_audit_state_set_keys and ibp_audit_state_update, its findings are
 * those ibp_audit_run gives for tables holding those keys, at the cost
 * of the ports and partitions the changes reach.  A service's guard
 * judges each change with it instead of auditing its whole plan. */
typedef struct ibp_audit_state ibp_audit_state;
/* The state of in (its tables, SM port and partition names; borrowed:
 * the tables must outlive the state).  IBP_EINVAL with a tenant map or
 * an opensm.conf (their rules are ibp_audit_run's only). */
int ibp_audit_state_new(const ibp_audit_input *in, ibp_audit_state **out,
			ibp_error *err);
void ibp_audit_state_free(ibp_audit_state *s);
/* The end port (node, port) now holds keys (a table's entries, any
 * order; invalid ones ignored).  IBP_ENOENT: not an end port of the
 * state's matrix; IBP_ENOMEM.  Takes effect at the next update. */
int ibp_audit_state_set_keys(ibp_audit_state *s, size_t node, unsigned port,
			     const uint16_t *keys, size_t nkeys);
/* The name partition_names gives pkey's base (NULL: none). */
int ibp_audit_state_set_name(ibp_audit_state *s, uint16_t pkey,
			     const char *name);
/* Recompute what the keys set since the last update reach: the findings
 * of the recomputed slots before (old_out) and after (new_out) it, each
 * may be NULL.  A finding of the whole audit that is in neither is
 * unchanged.  0 or IBP_ENOMEM (the state is then unusable). */
int ibp_audit_state_update(ibp_audit_state *s, ibp_findings *old_out,
			   ibp_findings *new_out);
/* Every finding of the state, in ibp_audit_run's order (sort them to
 * compare with an audit's), appended to out; 0 or IBP_ENOMEM. */
int ibp_audit_state_findings(const ibp_audit_state *s, ibp_findings *out);
/* The effective keys end port ep (the matrix's index) holds now:
 * sorted by base, one per base, the full bit when full; borrowed until
 * the next ibp_audit_state_set_keys. */
const uint16_t *ibp_audit_state_keys(const ibp_audit_state *s, size_t ep,
				     size_t *nk);
/* The matrix the state names its end ports from (its classes are those
 * of the tables the state was made from, not the current ones). */
const ibp_matrix *ibp_audit_state_matrix(const ibp_audit_state *s);

/* A change tried on a state without changing it
 * (src/analysis/analysis_audit_trial.c): the same set_keys, set_name and
 * update as on the state, read-only on it, so several trials may run at
 * once while the state does not change.  ibp_audit_trial_valid: nothing
 * the trial read changed in s since (then its findings are those the
 * state's own update would give now); ibp_audit_trial_apply (only then)
 * leaves s as the state's set_keys, set_name and update would. */
typedef struct ibp_audit_trial ibp_audit_trial;
int ibp_audit_trial_new(const ibp_audit_state *s, ibp_audit_trial **out);
void ibp_audit_trial_free(ibp_audit_trial *t);
int ibp_audit_trial_set_keys(ibp_audit_trial *t, size_t node, unsigned port,
			     const uint16_t *keys, size_t nkeys);
int ibp_audit_trial_set_name(ibp_audit_trial *t, uint16_t pkey,
			     const char *name);
int ibp_audit_trial_update(ibp_audit_trial *t, ibp_findings *old_out,
			   ibp_findings *new_out);
/* The keys end port ep holds in the trial (recorded as read). */
const uint16_t *ibp_audit_trial_keys(ibp_audit_trial *t, size_t ep, size_t *nk);
bool ibp_audit_trial_valid(const ibp_audit_state *s, const ibp_audit_trial *t);
int ibp_audit_trial_apply(ibp_audit_state *s, ibp_audit_trial *t);

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
/* Its two halves: the multicast groups plan needs (*ipoib: of its IPoIB
 * partitions), and the "multicast-groups" finding for a need (none when
 * need is 0 or the fabric has no switch); 0 or IBP_ENOMEM. */
size_t ibp_audit_multicast_need(const ibp_conf *plan, size_t *ipoib);
int ibp_audit_multicast_groups(ibp_findings *out, const ibp_fabric *f,
			       size_t need, size_t ipoib);
/* The isolation question for virtual functions (analysis_vf.c):
 * "shared-physical-port" (high), one finding per physical port two of
 * whose GUIDs - its VFs' alias GUIDs (aliases, alias_map.h) or the port
 * itself - are members of different partitions other than the default
 * one: a VF (mlx4 model) uses its physical port's P_KeyTable, which must
 * then hold every tenant's P_Key, and only the host's VF mapping keeps
 * them apart.  The finding names the physical port and the partitions.
 * With tenants (may be NULL) only partitions that reach ports of
 * different tenants count, as for tenant-bridge.  Nothing without
 * aliases or for a plan OpenSM rejects.  IBP_EINVAL without out or f;
 * IBP_ENOMEM. */
int ibp_audit_shared_physical_port(ibp_findings *out, const ibp_fabric *f,
				   const ibp_conf *plan,
				   const ibp_alias_map *aliases,
				   const ibp_tenant_map *tenants);

/* Its input, for a caller that keeps it up to date (the service's
 * guard, service_guard_state.c): one membership of a GUID of a physical
 * port, ordered by ibp_vf_use_cmp (port GUID, then base, then GUID). */
struct ibp_vf_use {
	uint64_t port_guid; /* the physical port */
	size_t node;	    /* its node and port in the fabric */
	unsigned port;
	uint64_t guid;	/* the port's own GUID or an alias of it */
	uint16_t base;	/* the partition (P_Key base) */
	unsigned index; /* GUIDInfo index: 0 the port itself */
};
int ibp_vf_use_cmp(const void *a, const void *b);
/* The memberships ibp_audit_shared_physical_port judges (every GUID
 * member of plan that is a port or an alias of one, the default
 * partition aside), sorted, into *out (malloc'd, *n of them); none
 * without aliases or for a plan OpenSM rejects.  0 or IBP_ENOMEM. */
int ibp_audit_vf_uses(const ibp_fabric *f, const ibp_conf *plan,
		      const ibp_alias_map *aliases, struct ibp_vf_use **out,
		      size_t *n);
/* The finding (without a tenant map) of one physical port from its
 * memberships u[0..n) (sorted, all of one port): the same as
 * ibp_audit_shared_physical_port's for that port.  0 or IBP_ENOMEM. */
int ibp_audit_shared_physical_port_of(ibp_findings *out, const ibp_fabric *f,
				      const struct ibp_vf_use *u, size_t n);

/* The plan's GUID members OpenSM will not program (analysis_guids.c),
 * classified against f and aliases (may be NULL) as reading the plan
 * classifies them (conf_guids.c): "guid-unknown" (medium: no port of
 * the fabric, node GUIDs included) and "guid-alias-ignored" (medium:
 * aliases of its ports, which OpenSM 3.3.23 skips); with vports (NVIDIA
 * OpenSM's virtualization) every such GUID but a node GUID is
 * "vport-unmodelled" (info) instead.  One finding per class: the GUIDs
 * as its ports, in order of first mention, and the P_Keys naming them.
 * IBP_EINVAL without out or f; IBP_ENOMEM. */
int ibp_audit_skipped_guids(ibp_findings *out, const ibp_fabric *f,
			    const ibp_conf *plan, const ibp_alias_map *aliases,
			    bool vports);

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

#endif
