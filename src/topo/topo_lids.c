/*
 * topo_lids.c - LID assignment as OpenSM 3.3.23 does it on a fresh fabric
 * with LMC 0 (see ibp_fabric_assign_lids in include/ibpart/topo.h), and
 * only the end ports OpenSM's discovery reaches get one (measured:
 * tests/interop/test_topo_lids.sh), and the LID -> port look-up table (an array
 * over the unicast LID space, IBA vol. 1, 4.1.3: LIDs 0x0001-0xBFFF).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/topo.h"
#include "topo/topo_priv.h"

struct lid_item {
	uint64_t key; /* the GUID as OpenSM's port table orders it */
	uint32_t port_key;
};

static int cmp_item(const void *a, const void *b)
{
	const struct lid_item *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->port_key < y->port_key ? -1 : x->port_key > y->port_key;
}

/* OpenSM keys its port table (a cl_qmap) by the port GUID in network byte
 * order, compared as a host integer: on a little-endian host that is the
 * GUID with its bytes reversed. */
static uint64_t osm_key(uint64_t guid)
{
	return __builtin_bswap64(guid);
}

/* Mark what OpenSM's discovery reaches from the SM port: SMPs go out of
 * the SM port and are forwarded by switches only (a CA or router does not
 * forward a directed-route SMP from one port to another), so the reached
 * end ports are the SM port, the port at the other end of its link, every
 * switch reachable through switches from there (its port 0), and every
 * CA/router port linked to such a switch.  reached[] is indexed by the
 * flat port array. */
static int mark_reached(const ibp_fabric *f, size_t sm_node, unsigned sm_port,
			bool *reached)
{
	size_t *queue = malloc((f->nnodes + 1) * sizeof(*queue));
	bool *seen = calloc(f->nnodes + 1, sizeof(*seen));
	if (!queue || !seen) {
		free(queue);
		free(seen);
		return IBP_ENOMEM;
	}
	size_t head = 0, tail = 0;
	reached[f->nodes[sm_node].port_base + sm_port] = true;
	const struct topo_port *sp = topo_port_at(f, sm_node, sm_port);
	if (f->nodes[sm_node].type == IBP_NODE_SWITCH) {
		seen[sm_node] = true;
		queue[tail++] = sm_node;
	} else if (sp->peer_node != TOPO_NONE) {
		size_t pn = sp->peer_node;
		if (f->nodes[pn].type == IBP_NODE_SWITCH) {
			seen[pn] = true;
			queue[tail++] = pn;
		} else {
			reached[f->nodes[pn].port_base + sp->peer_port] = true;
		}
	}
	while (head < tail) {
		size_t n = queue[head++];
		const struct topo_node *nd = &f->nodes[n];
		reached[nd->port_base] = true; /* port 0 */
		for (unsigned p = 1; p <= nd->nports; p++) {
			const struct topo_port *pt = topo_port_at(f, n, p);
			if (pt->peer_node == TOPO_NONE)
				continue;
			size_t pn = pt->peer_node;
			if (f->nodes[pn].type == IBP_NODE_SWITCH) {
				if (!seen[pn]) {
					seen[pn] = true;
					queue[tail++] = pn;
				}
			} else {
				reached[f->nodes[pn].port_base +
					pt->peer_port] = true;
			}
		}
	}
	free(queue);
	free(seen);
	return IBP_OK;
}

int ibp_fabric_assign_lids(ibp_fabric *f, uint64_t sm_port_guid, ibp_error *err)
{
	if (!f)
		return ibp_error_set(err, IBP_EINVAL, "no fabric");
	size_t sm_node;
	unsigned sm_port;
	if (sm_port_guid) {
		if (ibp_fabric_find_port_guid(f, sm_port_guid, &sm_node,
					      &sm_port))
			return ibp_error_set(err, IBP_ENOENT,
					     "SM port GUID 0x%016llx is not in "
					     "the fabric",
					     (unsigned long long)sm_port_guid);
	} else if (ibp_fabric_default_sm_port(f, &sm_node, &sm_port)) {
		return ibp_error_set(err, IBP_ENOENT,
				     "the fabric has no CA port for the SM");
	}
	size_t n_end = 0;
	for (size_t n = 0; n < f->nnodes; n++)
		n_end += f->nodes[n].type == IBP_NODE_SWITCH
			     ? 1
			     : f->nodes[n].nports;
	struct lid_item *items = malloc((n_end + 1) * sizeof(*items));
	uint32_t *by_lid = malloc((TOPO_MAX_LID + 1) * sizeof(*by_lid));
	bool *reached = calloc(f->nports + 1, sizeof(*reached));
	if (!items || !by_lid || !reached ||
	    mark_reached(f, sm_node, sm_port, reached)) {
		free(items);
		free(by_lid);
		free(reached);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	size_t k = 0;
	uint32_t sm_key = topo_port_key(sm_node, sm_port);
	for (size_t n = 0; n < f->nnodes; n++) {
		const struct topo_node *nd = &f->nodes[n];
		unsigned first = nd->type == IBP_NODE_SWITCH ? 0 : 1;
		unsigned last = nd->type == IBP_NODE_SWITCH ? 0 : nd->nports;
		for (unsigned p = 0; p <= nd->nports; p++)
			topo_port_at(f, n, p)->lid = 0;
		for (unsigned p = first; p <= last; p++) {
			uint32_t pk = topo_port_key(n, p);
			if (pk == sm_key || !reached[nd->port_base + p])
				continue;
			items[k].key = osm_key(ibp_fabric_port_guid(f, n, p));
			items[k].port_key = pk;
			k++;
		}
	}
	qsort(items, k, sizeof(*items), cmp_item);
	for (size_t i = 0; i <= TOPO_MAX_LID; i++)
		by_lid[i] = TOPO_NONE;
	topo_port_at(f, sm_node, sm_port)->lid = 1;
	by_lid[1] = sm_key;
	/* OpenSM runs out of LIDs past 0xBFFF: the ports sorted last get
	 * none (LID 0), as on a real subnet that is too big */
	if (k > TOPO_MAX_LID - 1)
		k = TOPO_MAX_LID - 1;
	for (size_t i = 0; i < k; i++) {
		uint16_t lid = (uint16_t)(i + 2);
		uint32_t pk = items[i].port_key;
		topo_port_at(f, pk >> 8, pk & 0xff)->lid = lid;
		by_lid[lid] = pk;
	}
	free(items);
	free(reached);
	free(f->by_lid);
	f->by_lid = by_lid;
	f->lids_assigned = true;
	return IBP_OK;
}

uint16_t ibp_fabric_port_lid(const ibp_fabric *f, size_t n, unsigned port)
{
	if (!topo_port_exists(f, n, port))
		return 0;
	if (f->nodes[n].type == IBP_NODE_SWITCH)
		port = 0;
	return topo_port_at(f, n, port)->lid;
}

int ibp_fabric_find_lid(const ibp_fabric *f, uint16_t lid, size_t *n,
			unsigned *port)
{
	if (!f)
		return IBP_EINVAL;
	if (!f->by_lid || lid == 0 || lid > TOPO_MAX_LID ||
	    f->by_lid[lid] == TOPO_NONE)
		return IBP_ENOENT;
	if (n)
		*n = f->by_lid[lid] >> 8;
	if (port)
		*port = f->by_lid[lid] & 0xff;
	return IBP_OK;
}
