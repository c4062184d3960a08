/*
 * policy_place.c - the partition manager's second and third passes: at
 * which index of each port's P_KeyTable each P_Key lands, and the copy of
 * each CA/router port's table onto the switch port facing it.
 *
 * opensm mode replays OpenSM 3.3.23's P_Key manager on one port at a time
 * (behaviour documented and verified in docs/opensm-behaviour.md):
 *
 *  A. Each pending P_Key is looked up among the entries the port holds
 *     now (by base, or by the whole value with allow_both_pkeys; a full
 *     entry wins over a limited one).  Found: it keeps that index ("not
 *     new"), except that index 0 is reserved - for the indx0 P_Key when
 *     the port has one, else for 0x7fff - so an entry in the wrong place
 *     there becomes new again.  Not-new entries are handled first, in
 *     reverse order of visiting; new ones after, in visiting order.
 *  B. A new P_Key goes where OpenSM put that exact value before (its
 *     "accumulated" index) if it had one, else to index 0 when it is the
 *     default (or indx0) P_Key, else right after the highest accumulated
 *     index (index 1 when there is none).  Past the capacity, a free
 *     hole from index 1 is reused; when there is none the P_Key is
 *     dropped (ERR 0512 in OpenSM's log; a finding here).
 *  C. The table of a CA/router port is copied onto the facing switch
 *     external port in index order, holes closed up, limited entries
 *     whose full twin is present left out, whole 32-entry blocks written
 *     up to the switch's PartitionEnforcementCap.
 *
 * strict mode packs entries from index 0 (the default partition first),
 * keeping any P_Key the port already holds at its index.
 *
 * Scratch maps over the 16-bit P_Key space make each look-up O(1); only
 * the slots a port touched are reset after it, so a port costs time in
 * proportion to its own entries.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "policy/policy_internal.h"
#include "util/diag_lib.h"
#include "pkey/index_memory_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

#define NKEYS 65536u

struct qitem {
	uint16_t pkey;
	bool is_new;
	int32_t idx;
};

struct pol_scratch {
	int32_t *keys;	    /* key -> index held now, -1 */
	int32_t *accum;	    /* exact P_Key -> accumulated index, -1 */
	uint16_t *acc_list; /* P_Keys with accum >= 0 */
	size_t nacc;
	uint16_t *key_list;
	size_t nkey;
	uint8_t *present; /* P_Key present in the new table (mirror) */
	uint16_t *dev;	  /* table held now */
	uint16_t *newt;	  /* table being built */
	unsigned tabcap;
	struct qitem *q;
	size_t capq;
	uint16_t *mirror;
	unsigned last; /* OpenSM's last_pkey_idx: highest accum index + 1 */
};

void pol_scratch_free(struct pol *P)
{
	struct pol_scratch *s = P->scr;
	if (!s)
		return;
	free(s->keys);
	free(s->accum);
	free(s->acc_list);
	free(s->key_list);
	free(s->present);
	free(s->dev);
	free(s->newt);
	free(s->q);
	free(s->mirror);
	free(s);
	P->scr = NULL;
}

static int scratch_init(struct pol *P)
{
	struct pol_scratch *s = calloc(1, sizeof(*s));
	if (!s)
		return IBP_ENOMEM;
	P->scr = s;
	unsigned maxcap = 1;
	for (uint32_t i = 0; i < P->neps; i++)
		if (P->eps[i].cap > maxcap)
			maxcap = P->eps[i].cap;
	size_t nn = ibp_fabric_node_count(P->f);
	for (size_t n = 0; n < nn; n++) {
		unsigned c = ibp_fabric_node_enforcement_cap(P->f, n);
		if (c > maxcap)
			maxcap = c;
	}
	/* whole blocks, so a block-wide scan never leaves the array */
	s->tabcap = (maxcap + 31) / 32 * 32;
	s->keys = malloc(NKEYS * sizeof(*s->keys));
	s->accum = malloc(NKEYS * sizeof(*s->accum));
	s->acc_list = malloc(NKEYS * sizeof(*s->acc_list));
	s->key_list = malloc(NKEYS * sizeof(*s->key_list));
	s->present = calloc(NKEYS, 1);
	s->dev = calloc(s->tabcap, sizeof(*s->dev));
	s->newt = calloc(s->tabcap, sizeof(*s->newt));
	s->mirror = calloc(s->tabcap, sizeof(*s->mirror));
	if (!s->keys || !s->accum || !s->acc_list || !s->key_list ||
	    !s->present || !s->dev || !s->newt || !s->mirror)
		return IBP_ENOMEM;
	memset(s->keys, 0xff, NKEYS * sizeof(*s->keys));
	memset(s->accum, 0xff, NKEYS * sizeof(*s->accum));
	return 0;
}

static int q_reserve(struct pol_scratch *s, size_t n)
{
	if (n <= s->capq)
		return 0;
	size_t nc = s->capq ? s->capq : 64;
	while (nc < n)
		nc *= 2;
	struct qitem *q = realloc(s->q, nc * sizeof(*q));
	if (!q)
		return IBP_ENOMEM;
	s->q = q;
	s->capq = nc;
	return 0;
}

/* ---- accumulated indexes (OpenSM's accum_pkeys) ---- */

static void acc_set(struct pol_scratch *s, uint16_t pkey, unsigned idx)
{
	if (idx + 1 > s->last)
		s->last = idx + 1;
	if (s->accum[pkey] < 0)
		s->acc_list[s->nacc++] = pkey;
	s->accum[pkey] = (int32_t)idx;
}

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)((v << 8) | (v >> 8));
}

/* Forget the P_Key accumulated at idx (the first in OpenSM's map order,
 * which is by network-order value) and recompute the last index if it was
 * the highest. */
static void acc_clear_index(struct pol_scratch *s, unsigned idx)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < s->nacc; i++) {
		uint16_t k = s->acc_list[i];
		if (s->accum[k] == (int32_t)idx &&
		    (best == SIZE_MAX ||
		     bswap16(k) < bswap16(s->acc_list[best])))
			best = i;
	}
	if (best == SIZE_MAX)
		return;
	s->accum[s->acc_list[best]] = -1;
	s->acc_list[best] = s->acc_list[--s->nacc];
	if (s->last == idx + 1) {
		unsigned last = 0;
		for (size_t i = 0; i < s->nacc; i++) {
			unsigned v = (unsigned)s->accum[s->acc_list[i]] + 1;
			if (v > last)
				last = v;
		}
		s->last = last;
	}
}

static void scratch_reset_port(struct pol_scratch *s)
{
	for (size_t i = 0; i < s->nacc; i++)
		s->accum[s->acc_list[i]] = -1;
	s->nacc = 0;
	for (size_t i = 0; i < s->nkey; i++)
		s->keys[s->key_list[i]] = -1;
	s->nkey = 0;
	s->last = 0;
}

/* The table a port holds before the SM programs it: `previous`, or a
 * fresh one (0xffff at index 0, as ibsim and unconfigured HCAs hold). */
static void load_device(const struct pol *P, size_t node, unsigned port,
			unsigned cap, uint16_t *dev, bool *from_prev)
{
	memset(dev, 0, P->scr->tabcap * sizeof(*dev));
	const ibp_pkey_table *t =
	    P->o.previous ? ibp_tables_get(P->o.previous, node, port) : NULL;
	*from_prev = t != NULL;
	if (!t) {
		dev[0] = IBP_PKEY_DEFAULT_FULL;
		return;
	}
	unsigned used = ibp_pkey_table_used(t);
	for (unsigned i = 0; i < used && i < cap; i++)
		dev[i] = ibp_pkey_table_get(t, i);
}

/* Port e, whose plan gives it `wanted` P_Keys, drops pkey: a finding,
 * and the record when the caller asked for it. */
static int finding_full(struct pol *P, const struct ep *e, size_t wanted,
			uint16_t pkey)
{
	if (P->o.unplaced &&
	    pol_unplaced_drop(P->o.unplaced, e, (unsigned)wanted, pkey))
		return IBP_ENOMEM;
	if (!P->diags)
		return 0;
	unsigned line, col;
	pol_group_pos(P, pkey, &line, &col);
	ibp_diags_add(P->diags, IBP_SEV_WARNING, "pkey-table-full",
		      line ? P->file : "", line, col,
		      "P_Key 0x%04x dropped: the P_KeyTable of %s (0x%016llx) "
		      "port %u holds %u entries and is full (OpenSM: ERR 0512)",
		      pkey, ibp_fabric_node_desc(P->f, e->node),
		      (unsigned long long)e->guid, e->port, e->cap);
	char nb[160];
	return ibp_diags_set_subject(
	    P->diags,
	    ibp_fabric_port_name(P->f, e->node, e->port, nb, sizeof(nb)));
}

/* OpenSM puts pkey at index idx of port e where it already put `was`
 * in this sweep: both were remembered at idx (or one reused it), and
 * osm_pkey_tbl_set_new_entry overwrites without a log line. */
static int finding_overwrite(struct pol *P, const struct ep *e, unsigned idx,
			     uint16_t was, uint16_t pkey)
{
	if (!P->diags)
		return 0;
	unsigned line, col;
	pol_group_pos(P, was, &line, &col);
	ibp_diags_add(P->diags, IBP_SEV_WARNING, "opensm-index-overwrite",
		      line ? P->file : "", line, col,
		      "P_Key 0x%04x is lost on %s (0x%016llx) port %u: "
		      "OpenSM remembers both it and 0x%04x at index %u and "
		      "writes 0x%04x over it there, without a log line (while "
		      "both stay in the plan they take turns, every sweep)",
		      was, ibp_fabric_node_desc(P->f, e->node),
		      (unsigned long long)e->guid, e->port, pkey, idx, pkey);
	return 0;
}

static bool is_default_key(bool ab, uint16_t k)
{
	return ab ? k == IBP_PKEY_DEFAULT_FULL
		  : ibp_pkey_base(k) == IBP_PKEY_DEFAULT_BASE;
}

static bool same_key(bool ab, uint16_t a, uint16_t b)
{
	return ab ? a == b : ibp_pkey_base(a) == ibp_pkey_base(b);
}

/* OpenSM's placement for one port (steps A and B above).  The new table
 * ends in s->newt. */
static int place_opensm(struct pol *P, struct ep *e, const uint32_t *ord,
			size_t n)
{
	struct pol_scratch *s = P->scr;
	bool ab = P->o.allow_both_pkeys;
	bool from_prev;
	load_device(P, e->node, e->port, e->cap, s->dev, &from_prev);
	/* keep_pkey_indexes FALSE: OpenSM empties its map of the table the
	 * port holds and what it remembers before every sweep */
	bool compact = P->o.compact_pkey_indexes;
	/* what the port holds, by key; a full entry wins over a limited */
	for (unsigned i = 0; i < e->cap && !compact; i++) {
		uint16_t k = s->dev[i];
		if (!ibp_pkey_is_valid(k))
			continue;
		uint16_t key = ab ? k : ibp_pkey_base(k);
		if (s->keys[key] < 0) {
			s->keys[key] = (int32_t)i;
			s->key_list[s->nkey++] = key;
		} else if (!ab && s->dev[s->keys[key]] < k) {
			s->keys[key] = (int32_t)i;
		}
	}
	/* what OpenSM placed before (its accum map): as remembered, or
	 * the previous table */
	const ibp_pkey_table *rem =
	    P->o.remembered && !P->o.memory
		? ibp_tables_get(P->o.remembered, e->node, e->port)
		: NULL;
	if (compact) {
		/* nothing remembered */
	} else if (P->o.memory) {
		/* exactly what OpenSM remembers; a port it does not know
		 * remembers nothing */
		const ibp_index_memory *m = P->o.memory;
		size_t nm = ibp_index_memory_size(m, e->node, e->port);
		for (size_t i = 0; i < nm; i++) {
			uint16_t k = 0;
			unsigned idx = 0;
			ibp_index_memory_entry(m, e->node, e->port, i, &k,
					       &idx);
			if (ibp_pkey_is_valid(k) && s->accum[k] < 0)
				acc_set(s, k, idx);
		}
		unsigned last = ibp_index_memory_last(m, e->node, e->port);
		if (last > s->last)
			s->last = last;
	} else if (rem) {
		unsigned used = ibp_pkey_table_used(rem);
		for (unsigned i = 0; i < used; i++) {
			uint16_t k = ibp_pkey_table_get(rem, i);
			if (ibp_pkey_is_valid(k) && s->accum[k] < 0)
				acc_set(s, k, i);
		}
	} else if (from_prev) {
		for (unsigned i = 0; i < e->cap; i++)
			if (ibp_pkey_is_valid(s->dev[i]) &&
			    s->accum[s->dev[i]] < 0)
				acc_set(s, s->dev[i], i);
	}

	int rc = q_reserve(s, 2 * n + s->nacc + 8);
	if (rc)
		return rc;
	/* A: not-new entries first (reverse order), new ones after */
	size_t nold = 0;
	for (size_t i = 0; i < n; i++) {
		uint16_t k = P->pend[ord[i]].pkey;
		int32_t j = s->keys[ab ? k : ibp_pkey_base(k)];
		bool is_new = j < 0;
		if (!is_new) {
			if (e->indx0) {
				if (same_key(ab, k, e->indx0) && j != 0) {
					is_new = true;
					acc_clear_index(s, (unsigned)j);
				}
				if (j == 0 && !same_key(ab, k, e->indx0)) {
					is_new = true;
					acc_clear_index(s, 0);
				}
			} else if (j == 0) {
				if (ibp_pkey_base(k) != IBP_PKEY_DEFAULT_BASE) {
					is_new = true;
					acc_clear_index(s, 0);
				}
			} else if (is_default_key(ab, k)) {
				is_new = true;
				acc_clear_index(s, (unsigned)j);
			}
		}
		if (!is_new)
			nold++;
		/* pass 1 is done with grp: it now holds the index kept */
		P->pend[ord[i]].grp = is_new ? UINT32_MAX : (uint32_t)j;
	}
	size_t qn = 0;
	for (size_t i = n; i-- > 0;)
		if (P->pend[ord[i]].grp != UINT32_MAX)
			s->q[qn++] =
			    (struct qitem){P->pend[ord[i]].pkey, false,
					   (int32_t)P->pend[ord[i]].grp};
	for (size_t i = 0; i < n; i++)
		if (P->pend[ord[i]].grp == UINT32_MAX)
			s->q[qn++] =
			    (struct qitem){P->pend[ord[i]].pkey, true, -1};
	(void)nold;
	/* B */
	memset(s->newt, 0, s->tabcap * sizeof(*s->newt));
	unsigned max_blocks = (e->cap + 31) / 32;
	for (size_t h = 0; h < qn; h++) {
		struct qitem it = s->q[h];
		unsigned idx = 0;
		bool found = false, from_accum = false;
		if (!it.is_new) {
			idx = (unsigned)it.idx;
			found = true;
		} else {
			int32_t a = s->accum[it.pkey];
			if (a >= 0) {
				if (same_key(ab, it.pkey, e->indx0) ||
				    (it.pkey != e->indx0 && a == 0)) {
					acc_clear_index(s, (unsigned)a);
					rc = q_reserve(s, qn + 1);
					if (rc)
						return rc;
					s->q[qn++] = it;
					continue;
				}
				idx = (unsigned)a;
				found = from_accum = true;
			} else {
				if (!e->indx0 && is_default_key(ab, it.pkey))
					idx = 0;
				else if (e->indx0 &&
					 same_key(ab, it.pkey, e->indx0))
					idx = 0;
				else if (s->last)
					idx = s->last;
				else
					idx = 1;
				if (idx >= e->cap) {
					bool reuse = false;
					if (!is_default_key(ab, it.pkey)) {
						for (unsigned i = 1;
						     i < max_blocks * 32; i++)
							if (!s->newt[i]) {
								idx = i;
								reuse = true;
								break;
							}
					}
					if (reuse && idx < e->cap) {
						acc_clear_index(s, idx);
						found = true;
					} else {
						rc = finding_full(P, e, n,
								  it.pkey);
						if (rc)
							return rc;
					}
				} else {
					found = true;
				}
			}
		}
		if (!found)
			continue;
		if (idx < s->tabcap && s->newt[idx] &&
		    s->newt[idx] != it.pkey) {
			rc =
			    finding_overwrite(P, e, idx, s->newt[idx], it.pkey);
			if (rc)
				return rc;
		}
		if (idx < s->tabcap)
			s->newt[idx] = it.pkey;
		if (!from_accum)
			acc_set(s, it.pkey, idx);
	}
	return 0;
}

/* strict: pack from index 0, the default partition first, anything the
 * port holds already (previous) kept where it is. */
static int place_strict(struct pol *P, struct ep *e, const uint32_t *ord,
			size_t n)
{
	struct pol_scratch *s = P->scr;
	bool ab = P->o.allow_both_pkeys;
	bool from_prev;
	load_device(P, e->node, e->port, e->cap, s->dev, &from_prev);
	memset(s->newt, 0, s->tabcap * sizeof(*s->newt));
	if (!from_prev)
		memset(s->dev, 0, s->tabcap * sizeof(*s->dev));
	for (unsigned i = 0; i < e->cap; i++) {
		uint16_t k = s->dev[i];
		if (!ibp_pkey_is_valid(k))
			continue;
		uint16_t key = ab ? k : ibp_pkey_base(k);
		if (s->keys[key] < 0) {
			s->keys[key] = (int32_t)i;
			s->key_list[s->nkey++] = key;
		}
	}
	int rc = q_reserve(s, n + 1);
	if (rc)
		return rc;
	size_t qn = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++) {
			uint16_t k = P->pend[ord[i]].pkey;
			bool def = ibp_pkey_base(k) == IBP_PKEY_DEFAULT_BASE;
			if (def == (pass == 0))
				s->q[qn++] = (struct qitem){k, true, -1};
		}
	/* survivors keep their index */
	for (size_t h = 0; h < qn; h++) {
		uint16_t k = s->q[h].pkey;
		int32_t j = s->keys[ab ? k : ibp_pkey_base(k)];
		if (j >= 0 && !s->newt[j]) {
			s->newt[j] = k;
			s->q[h].is_new = false;
		}
	}
	unsigned next = 0;
	for (size_t h = 0; h < qn; h++) {
		if (!s->q[h].is_new)
			continue;
		while (next < e->cap && s->newt[next])
			next++;
		if (next >= e->cap) {
			rc = finding_full(P, e, n, s->q[h].pkey);
			if (rc)
				return rc;
			continue;
		}
		s->newt[next++] = s->q[h].pkey;
	}
	return 0;
}

static int store_table(ibp_tables *ts, size_t node, unsigned port, unsigned cap,
		       const uint16_t *ent)
{
	ibp_pkey_table *t = ibp_pkey_table_new(cap ? cap : 1);
	if (!t)
		return IBP_ENOMEM;
	int rc = IBP_OK; /* IBP_ENOMEM: no desired table short of a P_Key */
	for (unsigned i = 0; i < cap && !rc; i++)
		if (ent[i])
			rc = ibp_pkey_table_set(t, i, ent[i], NULL);
	if (!rc)
		rc = ibp_tables_put(ts, node, port, t, NULL);
	if (rc)
		ibp_pkey_table_free(t);
	return rc;
}

/* OpenSM's accum map of the port after this run, as a table. */
static int store_remembered(struct pol *P, const struct ep *e)
{
	struct pol_scratch *s = P->scr;
	ibp_pkey_table *t = ibp_pkey_table_new(e->cap ? e->cap : 1);
	if (!t)
		return IBP_ENOMEM;
	int rc = IBP_OK;
	for (size_t i = 0; i < s->nacc && !rc; i++) {
		uint16_t k = s->acc_list[i];
		unsigned idx = (unsigned)s->accum[k];
		if (idx < e->cap && !ibp_pkey_table_get(t, idx))
			rc = ibp_pkey_table_set(t, idx, k, NULL);
	}
	if (!rc)
		rc = ibp_tables_put(P->rem_out, e->node, e->port, t, NULL);
	if (rc)
		ibp_pkey_table_free(t);
	return rc;
}

/* The same, exactly (several P_Keys per index, last_pkey_idx). */
static int store_memory(struct pol *P, const struct ep *e)
{
	struct pol_scratch *s = P->scr;
	int rc = ibp_index_memory_add_port(P->mem_out, e->node, e->port);
	for (size_t i = 0; i < s->nacc && !rc; i++) {
		uint16_t k = s->acc_list[i];
		rc = ibp_index_memory_set(P->mem_out, e->node, e->port, k,
					  (unsigned)s->accum[k]);
	}
	if (!rc)
		rc = ibp_index_memory_set_last(P->mem_out, e->node, e->port,
					       s->last);
	return rc;
}

/* C: the facing switch port gets the end port's table, packed. */
static int mirror(struct pol *P, const struct ep *e, ibp_tables *ts)
{
	struct pol_scratch *s = P->scr;
	size_t sw;
	unsigned swp;
	if (P->o.part_enforce == IBP_ENFORCE_OFF ||
	    !ibp_fabric_port_peer(P->f, e->node, e->port, &sw, &swp) ||
	    ibp_fabric_node_type(P->f, sw) != IBP_NODE_SWITCH || swp == 0)
		return 0;
	unsigned cap = ibp_fabric_port_capacity(P->f, sw, swp);
	if (!cap || !ibp_fabric_node_enforcement_cap(P->f, sw))
		return 0;
	for (unsigned i = 0; i < e->cap; i++)
		if (s->newt[i])
			s->present[s->newt[i]] = 1;
	unsigned n = 0, total = 0;
	unsigned max_entries = (cap + 31) / 32 * 32;
	for (unsigned i = 0; i < e->cap; i++) {
		uint16_t k = s->newt[i];
		if (!ibp_pkey_is_valid(k))
			continue;
		if (!ibp_pkey_is_full(k) && s->present[k | 0x8000u])
			continue;
		total++;
		if (n < max_entries)
			s->mirror[n++] = k;
	}
	for (unsigned i = 0; i < e->cap; i++)
		if (s->newt[i])
			s->present[s->newt[i]] = 0;
	/* what the switch port holds before: previous or fresh */
	bool from_prev;
	load_device(P, sw, swp, cap, s->dev, &from_prev);
	if (n) {
		unsigned written = (n + 31) / 32 * 32;
		for (unsigned i = 0; i < written && i < cap; i++)
			s->dev[i] = i < n ? s->mirror[i] : 0;
	}
	if (total > cap && P->o.unplaced &&
	    pol_unplaced_unenforced(P->o.unplaced, e, sw, swp, total, cap))
		return IBP_ENOMEM;
	if (total > cap && P->diags)
		ibp_diags_add(
		    P->diags, IBP_SEV_WARNING, "enforcement-table-full", "", 0,
		    0,
		    "%s (0x%016llx) port %u holds %u P_Keys but the facing "
		    "switch port %s port %u enforces at most %u "
		    "(PartitionEnforcementCap): truncated, and OpenSM turns "
		    "partition enforcement off on that port (ERR 0507)",
		    ibp_fabric_node_desc(P->f, e->node),
		    (unsigned long long)e->guid, e->port, total,
		    ibp_fabric_node_desc(P->f, sw), swp, cap);
	char nb[160];
	if (total > cap && P->diags &&
	    ibp_diags_set_subject(
		P->diags,
		ibp_fabric_port_name(P->f, e->node, e->port, nb, sizeof(nb))))
		return IBP_ENOMEM;
	return store_table(ts, sw, swp, cap, s->dev);
}

int pol_place_all(struct pol *P, ibp_tables *ts)
{
	int rc = scratch_init(P);
	if (rc)
		return rc;
	for (uint32_t i = 0; i < P->neps && !rc; i++) {
		struct ep *e = &P->eps[i];
		size_t first = P->pstart[i], n = P->pstart[i + 1] - first;
		const uint32_t *ord = P->porder + first;
		if (P->o.mode == IBP_POLICY_STRICT)
			rc = place_strict(P, e, ord, n);
		else
			rc = place_opensm(P, e, ord, n);
		if (!rc)
			rc = store_table(ts, e->node, e->port, e->cap,
					 P->scr->newt);
		if (!rc && P->rem_out && P->o.mode == IBP_POLICY_OPENSM)
			rc = store_remembered(P, e);
		if (!rc && P->mem_out && P->o.mode == IBP_POLICY_OPENSM)
			rc = store_memory(P, e);
		if (!rc && e->type != IBP_NODE_SWITCH)
			rc = mirror(P, e, ts);
		scratch_reset_port(P->scr);
	}
	return rc;
}
