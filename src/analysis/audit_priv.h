/*
 * audit_priv.h - what the audit's rules (analysis_audit.c) and its
 * incremental state (analysis_audit_state.c) share: the run's context,
 * and the rules cut at the grain the state keeps them (the default
 * partition's and the SA's findings over every end port, one end port's
 * tenant-bridge or shared-limited-member, one partition's findings).
 * In one run the rules read the matrix's classes; with `st` set they
 * read the state's, so both give the same findings from the same code.
 * Private to src/analysis/.
 */
#ifndef IBPART_ANALYSIS_AUDIT_PRIV_H
#define IBPART_ANALYSIS_AUDIT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"

struct audit_member {
	size_t ep;
	bool full;
};

struct ibp_audit_state;
struct ibp_audit_trial;

struct audit {
	const ibp_audit_input *in;
	const ibp_matrix *m; /* the end ports, their names and GUIDs */
	const ibp_fabric *f;
	ibp_findings *out;
	long sm_ep; /* the SM's end port index, or -1 */
	/* one run: partitions by base: members (end port, full) */
	size_t *poff; /* [0x8001] */
	struct audit_member *pm;
	uint64_t *guids;		  /* scratch: nports */
	const struct ibp_audit_state *st; /* NULL: the matrix's classes */
	struct ibp_audit_trial *tr;	  /* a change tried on st: read through
					     it (analysis_audit_trial.c) */
};

/* tenant-bridge, shared-limited-member: reached ports are kept per
 * partition as (class, tenant) pairs, at most AUDIT_REACH_MAX of them,
 * so the pair test stays small. */
#define REACH_MAX 128
#define PART_MAX  256

struct audit_reach {
	uint16_t base;
	bool full; /* p's membership */
	size_t n;
	size_t cls[REACH_MAX];
	int ten[REACH_MAX];
};

/* The rules at the state's grain; each appends to a->out. */
int audit_rule_default(struct audit *a);
int audit_rule_sa(struct audit *a);
int audit_rule_partition(struct audit *a, uint16_t base);
/* r: PART_MAX entries, parts: PART_MAX P_Keys of scratch. */
int audit_rule_shared_ep(struct audit *a, size_t ep, struct audit_reach *r,
			 uint16_t *parts);
int audit_rule_enforcement(struct audit *a);
/* Effective keys (analysis_matrix.c): the valid ones of k, sorted by
 * base, one per base with the full bit when any entry is full (in
 * place; their count); their hash; do two such lists match (IBA 10.9.3:
 * a base in both, one of the two full)? */
size_t analysis_keys_effective(uint16_t *k, size_t n);
/* A table set on end port (node, port) of m, as its end port's index
 * (*ep) and a copy of its effective keys (*k, the caller's to free;
 * *nk): what the kept audit and a trial of it take in.  IBP_ENOENT (not
 * an end port of m), IBP_ENOMEM; *k is then NULL. */
int analysis_keys_set_on(const ibp_matrix *m, size_t node, unsigned port,
			 const uint16_t *keys, size_t nkeys, long *ep,
			 uint16_t **k, size_t *nk);
uint64_t analysis_keys_hash(const uint16_t *k, size_t n);
bool analysis_keys_match(const uint16_t *a, size_t na, const uint16_t *b,
			 size_t nb);

/* What the state answers the rules with (analysis_audit_state.c). */
const uint16_t *audit_state_keys(const struct ibp_audit_state *s, size_t ep,
				 size_t *nk);
size_t audit_state_class(const struct ibp_audit_state *s, size_t ep);
size_t audit_state_class_size(const struct ibp_audit_state *s, size_t c);
const uint16_t *audit_state_class_keys(const struct ibp_audit_state *s,
				       size_t c, size_t *nk);
const struct audit_member *audit_state_members(const struct ibp_audit_state *s,
					       uint16_t base, size_t *n);

/* What a trial answers them with, recording what they read
 * (analysis_audit_trial.c). */
const uint16_t *audit_trial_keys(struct ibp_audit_trial *t, size_t ep,
				 size_t *nk);
size_t audit_trial_class(struct ibp_audit_trial *t, size_t ep);
size_t audit_trial_class_size(struct ibp_audit_trial *t, size_t c);
const uint16_t *audit_trial_class_keys(const struct ibp_audit_trial *t,
				       size_t c, size_t *nk);
const struct audit_member *audit_trial_members(struct ibp_audit_trial *t,
					       uint16_t base, size_t *n);
const char *audit_trial_name(struct ibp_audit_trial *t, uint16_t base);

#endif
