/*
 * live_drift.c - drift between the P_KeyTables a plan implies and the
 * ones the ports hold (see include/ibpart/live.h): what `ibpart verify`
 * reports port by port, with the leaf ports whose partition enforcement
 * bits differ (live_enforce.c) as items of their own.
 *
 * Per port both tables are reduced to (base, index, key) triples for
 * their non-empty entries, sorted by base, and merged: O(n log n) in the
 * entries used, independent of the table capacity.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/live.h"
#include "live/live_lib.h"
#include "ibpart/pkey.h"
#include "live/live_enforce.h"
#include "pkey/tables_lib.h"
#include "pkey/pkey_table_lib.h"

struct ibp_drift {
	struct ibp_drift_item *items;
	size_t count, cap;
	size_t checked, drifted;
};

struct entry {
	uint16_t base;
	uint16_t key;
	unsigned index;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_item(const void *a, const void *b)
{
	const struct ibp_drift_item *x = a, *y = b;
	int xi = x->want_index >= 0 ? x->want_index : x->have_index;
	int yi = y->want_index >= 0 ? y->want_index : y->have_index;
	return (xi > yi) - (xi < yi);
}

static struct entry *entries_of(const ibp_pkey_table *t, size_t *n)
{
	unsigned used = ibp_pkey_table_used(t);
	struct entry *e = malloc((used ? used : 1) * sizeof(*e));
	if (!e)
		return NULL;
	size_t k = 0;
	for (unsigned i = 0; i < used; i++) {
		uint16_t key = ibp_pkey_table_get(t, i);
		if (!ibp_pkey_base(key))
			continue; /* empty (0x0000) or invalid (0x8000) */
		e[k].base = ibp_pkey_base(key);
		e[k].key = key;
		e[k].index = i;
		k++;
	}
	qsort(e, k, sizeof(*e), cmp_entry);
	*n = k;
	return e;
}

static int add(ibp_drift *d, size_t node, unsigned port, ibp_drift_kind kind,
	       uint16_t want, uint16_t have, int wi, int hi)
{
	if (d->count == d->cap) {
		size_t nc = d->cap ? 2 * d->cap : 16;
		struct ibp_drift_item *ni = realloc(d->items, nc * sizeof(*ni));
		if (!ni)
			return IBP_ENOMEM;
		d->items = ni;
		d->cap = nc;
	}
	d->items[d->count++] = (struct ibp_drift_item){
	    .node = node,
	    .port = port,
	    .kind = kind,
	    .want_pkey = want,
	    .have_pkey = have,
	    .want_index = wi,
	    .have_index = hi,
	};
	return IBP_OK;
}

/* One P_Key base on one port: the wanted entries w[0..nw) against the
 * held ones h[0..nh) (several only with allow_both_pkeys, where a port
 * holds the full and the limited key, or when a port holds a base
 * twice).  An exact key held is judged by its index; what remains pairs
 * up as the wrong membership; then missing, then extra. */
static int compare_base(ibp_drift *d, size_t node, unsigned port,
			const struct entry *w, size_t nw, const struct entry *h,
			size_t nh)
{
	bool wused[2] = {false, false}, hused[64] = {false};
	int rc = IBP_OK;
	/* a plan gives a base at most twice (full and limited); a held base
	 * past the 64th copy is extra whatever it is */
	size_t nw_all = nw, nh_all = nh;
	nw = nw > 2 ? 2 : nw;
	nh = nh > 64 ? 64 : nh;
	for (size_t a = nw; rc == IBP_OK && a < nw_all; a++)
		rc = add(d, node, port, IBP_DRIFT_MISSING, w[a].key, 0,
			 (int)w[a].index, -1);
	for (size_t b = nh; rc == IBP_OK && b < nh_all; b++)
		rc = add(d, node, port, IBP_DRIFT_EXTRA, 0, h[b].key, -1,
			 (int)h[b].index);
	for (size_t a = 0; a < nw; a++)
		for (size_t b = 0; b < nh && !wused[a]; b++)
			if (!hused[b] && w[a].key == h[b].key) {
				wused[a] = hused[b] = true;
				if (w[a].index != h[b].index)
					rc = add(d, node, port, IBP_DRIFT_INDEX,
						 w[a].key, h[b].key,
						 (int)w[a].index,
						 (int)h[b].index);
			}
	for (size_t a = 0, b = 0; rc == IBP_OK && a < nw; a++) {
		if (wused[a])
			continue;
		while (b < nh && hused[b])
			b++;
		if (b < nh) {
			hused[b] = true;
			rc = add(d, node, port, IBP_DRIFT_MEMBERSHIP, w[a].key,
				 h[b].key, (int)w[a].index, (int)h[b].index);
		} else {
			rc = add(d, node, port, IBP_DRIFT_MISSING, w[a].key, 0,
				 (int)w[a].index, -1);
		}
	}
	for (size_t b = 0; rc == IBP_OK && b < nh; b++)
		if (!hused[b])
			rc = add(d, node, port, IBP_DRIFT_EXTRA, 0, h[b].key,
				 -1, (int)h[b].index);
	return rc;
}

static int compare_port(ibp_drift *d, size_t node, unsigned port,
			const ibp_pkey_table *want, const ibp_pkey_table *have)
{
	size_t nw, nh;
	struct entry *w = entries_of(want, &nw);
	struct entry *h = entries_of(have, &nh);
	int rc = IBP_OK;
	size_t before = d->count;
	if (!w || !h) {
		rc = IBP_ENOMEM;
		goto out;
	}
	size_t i = 0, j = 0;
	while (rc == IBP_OK && (i < nw || j < nh)) {
		if (j >= nh || (i < nw && w[i].base < h[j].base)) {
			rc = add(d, node, port, IBP_DRIFT_MISSING, w[i].key, 0,
				 (int)w[i].index, -1);
			i++;
		} else if (i >= nw || h[j].base < w[i].base) {
			rc = add(d, node, port, IBP_DRIFT_EXTRA, 0, h[j].key,
				 -1, (int)h[j].index);
			j++;
		} else {
			size_t wi = i, hj = j;
			while (i < nw && w[i].base == w[wi].base)
				i++;
			while (j < nh && h[j].base == h[hj].base)
				j++;
			rc = compare_base(d, node, port, w + wi, i - wi, h + hj,
					  j - hj);
		}
	}
	if (rc == IBP_OK && d->count > before)
		qsort(d->items + before, d->count - before, sizeof(*d->items),
		      cmp_item);
out:
	free(w);
	free(h);
	return rc;
}

int ibp_drift_compute(const ibp_tables *want, const ibp_tables *have,
		      ibp_drift **out, ibp_error *err)
{
	*out = NULL;
	ibp_drift *d = calloc(1, sizeof(*d));
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t n = ibp_tables_count(want);
	for (size_t i = 0; i < n; i++) {
		size_t node;
		unsigned port;
		const ibp_pkey_table *w = ibp_tables_at(want, i, &node, &port);
		const ibp_pkey_table *h = ibp_tables_get(have, node, port);
		size_t before = d->count;
		int rc;
		d->checked++;
		if (!h)
			rc = add(d, node, port, IBP_DRIFT_UNREACHABLE, 0, 0, -1,
				 -1);
		else
			rc = compare_port(d, node, port, w, h);
		if (rc) {
			ibp_drift_free(d);
			return ibp_error_set(err, rc, "out of memory");
		}
		if (d->count > before)
			d->drifted++;
	}
	*out = d;
	return IBP_OK;
}

/* (node, port), then the P_Key items by index, a port's enforcement
 * item last: the order ibp_drift_compute gives, kept. */
static int cmp_port_item(const void *a, const void *b)
{
	const struct ibp_drift_item *x = a, *y = b;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	bool xe = x->kind == IBP_DRIFT_ENFORCEMENT;
	bool ye = y->kind == IBP_DRIFT_ENFORCEMENT;
	if (xe != ye)
		return xe ? 1 : -1;
	return cmp_item(a, b);
}

int live_drift_add_enforcement(ibp_drift *d,
			       const struct live_enforce_port *ports, size_t n)
{
	size_t before = d->count;
	for (size_t i = 0; i < n; i++) {
		const struct live_enforce_port *e = &ports[i];
		if (!e->differs)
			continue;
		if (add(d, e->node, e->port, IBP_DRIFT_ENFORCEMENT, 0, 0, -1,
			-1)) {
			d->count = before;
			return IBP_ENOMEM;
		}
		struct ibp_drift_item *it = &d->items[d->count - 1];
		it->want_enforce =
		    ibp_part_enforce_from_bits(e->want_in, e->want_out);
		it->have_enforce =
		    ibp_part_enforce_from_bits(e->have_in, e->have_out);
	}
	if (d->count == before)
		return IBP_OK;
	qsort(d->items, d->count, sizeof(*d->items), cmp_port_item);
	d->drifted = 0;
	for (size_t i = 0; i < d->count; i++)
		if (i == 0 || d->items[i].node != d->items[i - 1].node ||
		    d->items[i].port != d->items[i - 1].port)
			d->drifted++;
	return IBP_OK;
}

size_t ibp_drift_count(const ibp_drift *d)
{
	return d->count;
}

const struct ibp_drift_item *ibp_drift_at(const ibp_drift *d, size_t i)
{
	return i < d->count ? &d->items[i] : NULL;
}

size_t ibp_drift_ports_checked(const ibp_drift *d)
{
	return d->checked;
}

size_t ibp_drift_ports_drifted(const ibp_drift *d)
{
	return d->drifted;
}

void ibp_drift_free(ibp_drift *d)
{
	if (!d)
		return;
	free(d->items);
	free(d);
}

const char *ibp_drift_kind_str(ibp_drift_kind k)
{
	switch (k) {
	case IBP_DRIFT_MISSING:
		return "missing";
	case IBP_DRIFT_EXTRA:
		return "extra";
	case IBP_DRIFT_MEMBERSHIP:
		return "membership";
	case IBP_DRIFT_INDEX:
		return "index";
	case IBP_DRIFT_UNREACHABLE:
		return "unreachable";
	case IBP_DRIFT_ENFORCEMENT:
		return "enforcement";
	}
	return "unknown";
}

bool ibp_drift_item_selected(const struct ibp_drift_item *it, ibp_drift_sel sel)
{
	bool idx = it->kind == IBP_DRIFT_INDEX;
	return sel == IBP_DRIFT_SEL_ALL ||
	       (sel == IBP_DRIFT_SEL_INDEX_ONLY) == idx;
}

size_t ibp_drift_ports_by_kind(const ibp_drift *d, ibp_drift_sel sel,
			       size_t ports[IBP_DRIFT_KINDS])
{
	memset(ports, 0, IBP_DRIFT_KINDS * sizeof(ports[0]));
	/* items come in (node, port) order: a port counts once per kind */
	size_t node = (size_t)-1, drifted = 0;
	unsigned port = 0, kinds = 0;
	for (size_t i = 0; d && i < ibp_drift_count(d); i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		if (!ibp_drift_item_selected(it, sel) ||
		    (unsigned)it->kind >= IBP_DRIFT_KINDS)
			continue;
		if (it->node != node || it->port != port) {
			node = it->node;
			port = it->port;
			kinds = 0;
		}
		if (!kinds)
			drifted++;
		if (!(kinds & (1u << it->kind)))
			ports[it->kind]++;
		kinds |= 1u << it->kind;
	}
	return drifted;
}

size_t ibp_drift_count_sel(const ibp_drift *d, ibp_drift_sel sel, size_t *ports)
{
	size_t n = 0, np = 0;
	const struct ibp_drift_item *last = NULL;
	for (size_t i = 0; i < ibp_drift_count(d); i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		if (!ibp_drift_item_selected(it, sel))
			continue;
		n++;
		if (!last || last->node != it->node || last->port != it->port)
			np++;
		last = it;
	}
	if (ports)
		*ports = np;
	return n;
}
