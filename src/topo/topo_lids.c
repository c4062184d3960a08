/*
 * topo_lids.c - LID assignment as OpenSM 3.3.23 does it on a fresh fabric
 * with LMC 0 (see ibp_fabric_assign_lids in include/ibpart/topo.h), and
 * only the end ports OpenSM's discovery reaches get one (measured:
 * tests/interop/test_topo_lids.sh), and the LID -> port look-up table (an array
 * over the unicast LID space, IBA vol. 1, 4.1.3: LIDs 0x0001-0xBFFF).
 * It also owns the subnet's address limits: the last usable unicast LID
 * (the space, the smallest LinearFDBCap), the smallest MulticastFDBCap,
 * the LMC's 2^LMC LIDs per port, and the reached ports left without a
 * LID when the LIDs run out (the `no-lid` finding's ports).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "topo/topo_priv.h"
#include "ibpart/sys/topo.h"

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

unsigned ibp_fabric_max_unicast_lid(const ibp_fabric *f, size_t *lft_node)
{
	unsigned max = TOPO_MAX_LID;
	if (lft_node)
		*lft_node = SIZE_MAX;
	for (size_t n = 0; f && n < f->nnodes; n++) {
		if (f->nodes[n].type != IBP_NODE_SWITCH)
			continue;
		unsigned cap = ibp_fabric_node_linear_fdb_cap(f, n);
		/* the table holds LIDs 0 .. cap - 1 (14.2.5.4) */
		if (cap && cap - 1 < max) {
			max = cap - 1;
			if (lft_node)
				*lft_node = n;
		}
	}
	return max;
}

unsigned ibp_fabric_multicast_cap(const ibp_fabric *f, size_t *mft_node)
{
	unsigned min = 0;
	bool any = false;
	if (mft_node)
		*mft_node = SIZE_MAX;
	for (size_t n = 0; f && n < f->nnodes; n++) {
		if (f->nodes[n].type != IBP_NODE_SWITCH)
			continue;
		unsigned cap = ibp_fabric_node_multicast_fdb_cap(f, n);
		if (!any || cap < min) {
			min = cap;
			any = true;
			if (mft_node)
				*mft_node = n;
		}
	}
	return min;
}

unsigned ibp_fabric_lmc(const ibp_fabric *f)
{
	if (!f)
		return 0;
	return f->opts.lmc > IBP_MAX_LMC ? IBP_MAX_LMC : f->opts.lmc;
}

size_t ibp_fabric_lidless_count(const ibp_fabric *f)
{
	return f ? f->nlidless : 0;
}

bool ibp_fabric_lidless_port(const ibp_fabric *f, size_t i, size_t *n,
			     unsigned *port)
{
	if (!f || i >= f->nlidless)
		return false;
	if (n)
		*n = f->lidless[i] >> 8;
	if (port)
		*port = f->lidless[i] & 0xff;
	return true;
}

bool ibp_fabric_port_is_lidless(const ibp_fabric *f, size_t n, unsigned port)
{
	if (!topo_port_exists(f, n, port))
		return false;
	if (f->nodes[n].type == IBP_NODE_SWITCH)
		port = 0;
	return topo_port_at(f, n, port)->lidless;
}

size_t ibp_fabric_lids_needed(const ibp_fabric *f)
{
	return f ? f->lids_needed : 0;
}

bool ibp_fabric_lidless_message(const ibp_fabric *f, size_t first, char *buf,
				size_t len)
{
	if (!f || !f->nlidless || !buf || !len)
		return false;
	size_t sw;
	unsigned max = ibp_fabric_max_unicast_lid(f, &sw);
	unsigned lmc = ibp_fabric_lmc(f);
	size_t o = 0;
#define PUT(...)                                                               \
	do {                                                                   \
		int l_ =                                                       \
		    snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__);     \
		if (l_ > 0)                                                    \
			o += (size_t)l_;                                       \
	} while (0)
	PUT("%zu end port(s) get no LID: the %zu end ports discovery reaches "
	    "need %zu LIDs (%u each, LMC %u) and the subnet has LIDs 1..%u",
	    f->nlidless, f->lids_needed >> lmc, f->lids_needed, 1u << lmc, lmc,
	    max);
	if (sw != SIZE_MAX)
		PUT(" (the smallest LinearFDBCap is %u, switch %s)",
		    ibp_fabric_node_linear_fdb_cap(f, sw),
		    ibp_fabric_node_desc(f, sw));
	else
		PUT(" (the unicast LID space, 0x0001-0xBFFF)");
	PUT("; first without: ");
	for (size_t i = 0; i < f->nlidless && i < first; i++) {
		char nb[160];
		size_t n = f->lidless[i] >> 8;
		unsigned p = f->lidless[i] & 0xff;
		PUT("%s%s", i ? ", " : "",
		    ibp_fabric_port_name(f, n, p, nb, sizeof(nb)));
	}
	if (f->nlidless > first)
		PUT(" and %zu more", f->nlidless - first);
	PUT(".  OpenSM assigns them none (ERR 0307) and never brings the "
	    "subnet up, but still programs their P_KeyTables and their "
	    "switch ports' by directed route: they are in their "
	    "partitions, and no unicast traffic reaches them without a LID");
#undef PUT
	if (o >= len)
		buf[len - 1] = 0;
	return true;
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
	uint32_t *lidless = NULL;
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
		for (unsigned p = 0; p <= nd->nports; p++) {
			topo_port_at(f, n, p)->lid = 0;
			topo_port_at(f, n, p)->lidless = false;
		}
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
	/* Each end port takes 2^LMC LIDs from an aligned base (IBA vol. 1,
	 * 7.11.1): the SM's port first, then the others in OpenSM's
	 * order.  LIDs past the subnet's last usable one (the unicast
	 * space, the smallest LinearFDBCap) are not there to give: those
	 * ports get none, as OpenSM leaves them on a subnet too big. */
	unsigned span = 1u << ibp_fabric_lmc(f);
	unsigned max = ibp_fabric_max_unicast_lid(f, NULL);
	/* bases span, 2 span, ..., each range ending by max */
	size_t fit = (max + 1) / span - 1;
	f->lids_needed = (k + 1) * span;
	size_t nless = k + 1 > fit ? k + 1 - fit : 0;
	if (nless && !(lidless = malloc(nless * sizeof(*lidless)))) {
		free(items);
		free(by_lid);
		free(reached);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i <= k; i++) {
		uint32_t pk = i ? items[i - 1].port_key : sm_key;
		if (i >= fit) {
			lidless[i - fit] = pk;
			topo_port_at(f, pk >> 8, pk & 0xff)->lidless = true;
			continue;
		}
		unsigned base = (unsigned)(i + 1) * span;
		topo_port_at(f, pk >> 8, pk & 0xff)->lid = (uint16_t)base;
		for (unsigned j = 0; j < span; j++)
			by_lid[base + j] = pk;
	}
	free(items);
	free(reached);
	free(f->by_lid);
	free(f->lidless);
	f->by_lid = by_lid;
	f->lidless = lidless;
	f->nlidless = nless;
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
