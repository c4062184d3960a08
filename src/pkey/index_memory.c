/*
 * index_memory.c - what OpenSM remembers of each port's P_Key indexes
 * (pkey/index_memory_lib.h): per node, an array of per-port
 * records allocated when the node's first port becomes known; a record
 * is a small array of (P_Key, index) kept sorted in OpenSM's map order
 * (the byte-swapped P_Key), plus last_pkey_idx.  A port holds a handful
 * of P_Keys, so a sorted array beats a hash here.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/error.h"
#include "pkey/index_memory_lib.h"
#include "pkey/index_memory_lib.h"
#include "topo/topo_lib.h"

struct ment {
	uint16_t pkey;
	uint16_t index;
};

struct mport {
	size_t n, cap;
	struct ment *e;
	unsigned last;
};

struct ibp_index_memory {
	const ibp_fabric *f;
	size_t nnodes;
	struct mport ***by_node; /* [node][port] or NULL */
	size_t nknown;
};

ibp_index_memory *ibp_index_memory_new(const ibp_fabric *f)
{
	ibp_index_memory *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->f = f;
	m->nnodes = ibp_fabric_node_count(f);
	m->by_node = calloc(m->nnodes ? m->nnodes : 1, sizeof(*m->by_node));
	if (!m->by_node) {
		free(m);
		return NULL;
	}
	return m;
}

static void mport_free(struct mport *p)
{
	if (p) {
		free(p->e);
		free(p);
	}
}

void ibp_index_memory_free(ibp_index_memory *m)
{
	if (!m)
		return;
	for (size_t n = 0; n < m->nnodes; n++) {
		if (!m->by_node[n])
			continue;
		unsigned np = ibp_fabric_node_nports(m->f, n);
		for (unsigned p = 0; p <= np; p++)
			mport_free(m->by_node[n][p]);
		free(m->by_node[n]);
	}
	free(m->by_node);
	free(m);
}

const ibp_fabric *ibp_index_memory_fabric(const ibp_index_memory *m)
{
	return m->f;
}

static bool valid(const ibp_index_memory *m, size_t node, unsigned port)
{
	return node < m->nnodes && port <= ibp_fabric_node_nports(m->f, node);
}

static struct mport *find(const ibp_index_memory *m, size_t node, unsigned port)
{
	if (!m || !valid(m, node, port) || !m->by_node[node])
		return NULL;
	return m->by_node[node][port];
}

static struct mport *make(ibp_index_memory *m, size_t node, unsigned port)
{
	if (!valid(m, node, port))
		return NULL;
	if (!m->by_node[node]) {
		unsigned np = ibp_fabric_node_nports(m->f, node);
		m->by_node[node] = calloc(np + 1, sizeof(struct mport *));
		if (!m->by_node[node])
			return NULL;
	}
	struct mport **slot = &m->by_node[node][port];
	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (*slot)
			m->nknown++;
	}
	return *slot;
}

int ibp_index_memory_add_port(ibp_index_memory *m, size_t node, unsigned port)
{
	if (!valid(m, node, port))
		return IBP_ERANGE;
	return make(m, node, port) ? IBP_OK : IBP_ENOMEM;
}

void ibp_index_memory_forget_port(ibp_index_memory *m, size_t node,
				  unsigned port)
{
	struct mport *p = find(m, node, port);
	if (!p)
		return;
	mport_free(p);
	m->by_node[node][port] = NULL;
	m->nknown--;
}

bool ibp_index_memory_has_port(const ibp_index_memory *m, size_t node,
			       unsigned port)
{
	return find(m, node, port) != NULL;
}

static uint16_t order(uint16_t pkey)
{
	return (uint16_t)((pkey << 8) | (pkey >> 8));
}

/* Position of pkey in p (or where it would go), *hit when present. */
static size_t locate(const struct mport *p, uint16_t pkey, bool *hit)
{
	size_t lo = 0, hi = p->n;
	uint16_t k = order(pkey);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (order(p->e[mid].pkey) < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	*hit = lo < p->n && p->e[lo].pkey == pkey;
	return lo;
}

int ibp_index_memory_set(ibp_index_memory *m, size_t node, unsigned port,
			 uint16_t pkey, unsigned index)
{
	if (!valid(m, node, port) || index > 0xfffe)
		return IBP_ERANGE;
	if (!(pkey & 0x7fff))
		return IBP_EINVAL;
	struct mport *p = make(m, node, port);
	if (!p)
		return IBP_ENOMEM;
	bool hit;
	size_t at = locate(p, pkey, &hit);
	if (!hit) {
		if (p->n == p->cap) {
			size_t nc = p->cap ? p->cap * 2 : 8;
			struct ment *ne = realloc(p->e, nc * sizeof(*ne));
			if (!ne)
				return IBP_ENOMEM;
			p->e = ne;
			p->cap = nc;
		}
		memmove(&p->e[at + 1], &p->e[at], (p->n - at) * sizeof(*p->e));
		p->n++;
		p->e[at].pkey = pkey;
	}
	p->e[at].index = (uint16_t)index;
	if (index + 1 > p->last)
		p->last = index + 1;
	return IBP_OK;
}

bool ibp_index_memory_get(const ibp_index_memory *m, size_t node, unsigned port,
			  uint16_t pkey, unsigned *index)
{
	const struct mport *p = find(m, node, port);
	if (!p)
		return false;
	bool hit;
	size_t at = locate(p, pkey, &hit);
	if (hit && index)
		*index = p->e[at].index;
	return hit;
}

size_t ibp_index_memory_size(const ibp_index_memory *m, size_t node,
			     unsigned port)
{
	const struct mport *p = find(m, node, port);
	return p ? p->n : 0;
}

bool ibp_index_memory_entry(const ibp_index_memory *m, size_t node,
			    unsigned port, size_t i, uint16_t *pkey,
			    unsigned *index)
{
	const struct mport *p = find(m, node, port);
	if (!p || i >= p->n)
		return false;
	if (pkey)
		*pkey = p->e[i].pkey;
	if (index)
		*index = p->e[i].index;
	return true;
}

unsigned ibp_index_memory_last(const ibp_index_memory *m, size_t node,
			       unsigned port)
{
	const struct mport *p = find(m, node, port);
	return p ? p->last : 0;
}

int ibp_index_memory_set_last(ibp_index_memory *m, size_t node, unsigned port,
			      unsigned last)
{
	if (!valid(m, node, port) || last > 0xffff)
		return IBP_ERANGE;
	struct mport *p = make(m, node, port);
	if (!p)
		return IBP_ENOMEM;
	p->last = last;
	return IBP_OK;
}

size_t ibp_index_memory_port_count(const ibp_index_memory *m)
{
	return m ? m->nknown : 0;
}

ibp_index_memory *ibp_index_memory_copy(const ibp_index_memory *m)
{
	ibp_index_memory *c = ibp_index_memory_new(m->f);
	if (!c)
		return NULL;
	for (size_t n = 0; n < m->nnodes; n++) {
		if (!m->by_node[n])
			continue;
		unsigned np = ibp_fabric_node_nports(m->f, n);
		for (unsigned p = 0; p <= np; p++) {
			const struct mport *s = m->by_node[n][p];
			if (!s)
				continue;
			struct mport *d = make(c, n, p);
			if (!d ||
			    (s->n && !(d->e = malloc(s->n * sizeof(*d->e))))) {
				ibp_index_memory_free(c);
				return NULL;
			}
			if (s->n)
				memcpy(d->e, s->e, s->n * sizeof(*d->e));
			d->n = d->cap = s->n;
			d->last = s->last;
		}
	}
	return c;
}
