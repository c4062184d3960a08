/*
 * audit_state_priv.h - the incremental audit's state as its two halves
 * share it: analysis_audit_state.c keeps it, analysis_audit_trial.c
 * tries a change on it without changing it.  Private to src/analysis/.
 */
#ifndef IBPART_AUDIT_STATE_PRIV_H
#define IBPART_AUDIT_STATE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/audit_priv.h"

struct cls {
	uint16_t *keys;
	size_t nk;
	size_t count;
	uint64_t hash;
	uint64_t ver; /* the state's version its count last changed at */
};

struct plist {
	struct audit_member *v;
	size_t n, cap;
};

struct ibp_audit_state {
	ibp_audit_input in;
	ibp_matrix *m;
	size_t n; /* end ports */
	long sm_ep;
	size_t *ep_cls;
	struct cls *cls;
	size_t ncls, capcls;
	size_t *htab; /* class id + 1 by hash; 0: empty */
	size_t hcap;
	struct plist part[0x8000];
	char *names[0x8000];
	/* slots: findings now */
	ibp_findings *f_default, *f_sa, *f_enforce;
	ibp_findings **f_ep;   /* [n], NULL: none */
	ibp_findings **f_part; /* [0x8000], NULL: none */
	/* the update under way */
	struct dirty {
		size_t ep, old; /* the port, its class before */
	} * dirty;
	size_t ndirty, capdirty;
	uint8_t *is_dirty; /* [n] */
	uint64_t *guids;
	struct audit_reach *reach; /* PART_MAX: rule scratch */
	uint16_t *parts;	   /* PART_MAX */
	/* version stamps (a trial's check that nothing it read changed,
	 * analysis_audit_trial.c): ver counts the changes; each end port's
	 * keys, each partition's members and name, each slot carry the
	 * version they last changed at */
	uint64_t ver;
	uint64_t *ep_ver;     /* [n] */
	uint64_t *part_ver;   /* [0x8000] */
	uint64_t *f_ep_ver;   /* [n] */
	uint64_t *f_part_ver; /* [0x8000] */
	uint64_t f_default_ver, f_sa_ver;
};

/* Members of a partition by end port (analysis_audit_state.c). */
size_t audit_plist_find(const struct plist *p, size_t ep);
int audit_plist_put(struct plist *p, size_t ep, bool full);
void audit_plist_del(struct plist *p, size_t ep);
/* The bases whose membership differs between effective keys a and b
 * (into out, na + nb at most; their count). */
size_t audit_keys_changed(const uint16_t *a, size_t na, const uint16_t *b,
			  size_t nb, uint16_t *out);
/* End port ep's membership of bases ch[0..n) (sorted) set to effective
 * keys k's in the member lists part[], each stamped v in part_ver (NULL:
 * not stamped). */
int audit_plists_move(struct plist *part, uint64_t *part_ver, uint64_t v,
		      size_t ep, const uint16_t *ch, size_t n,
		      const uint16_t *k, size_t nk);
/* What the default partition's rule reads of keys k. */
unsigned audit_default_sig(const uint16_t *k, size_t nk);
/* A class's id by its keys (effective), without making it: false when
 * the state has none. */
/* The SA rule's reach for a change of end port ep (sa_reads in both
 * files): -1 it cannot read it (no SM port, or ep a switch port), 1 it
 * reads it whatever the keys (ep is the SM port), 0 it reads it when
 * ep's keys came to share, or stopped sharing, one with the SM port. */
int audit_state_sa_scope(const struct ibp_audit_state *s, size_t ep);

bool audit_state_class_find(const struct ibp_audit_state *s, const uint16_t *k,
			    size_t nk, size_t *out);

#endif
