/*
 * tables.c - one P_KeyTable per port of a fabric (see
 * include/ibpart/tables.h).
 *
 * Stored as a per-node array of per-port table pointers, allocated when a
 * node first gets a table, so a set costs a pointer per node plus what it
 * holds.  Iteration in (node, port) order walks that array: the i-th
 * table (ibp_tables_at) is found through a Fenwick tree of per-node
 * table counts, kept up to date by every put, so a look-up is
 * O(log nodes + ports of one node) and never writes to the set (a const
 * set can be read from several threads at once).  Enforcement bits, when known,
 * sit in a parallel per-node byte array (ENF_KNOWN | ENF_IN | ENF_OUT),
 * allocated likewise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/escape.h"
#include "ibpart/tables.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

#define ENF_KNOWN 0x4u
#define ENF_IN	  0x1u
#define ENF_OUT	  0x2u

struct ibp_tables {
	const ibp_fabric *fabric;
	size_t nnodes;
	ibp_pkey_table ***by_node; /* [node][port], port 0..nports */
	uint8_t **enf_by_node;	   /* [node][port]: ENF_* bits, or NULL */
	size_t count;
	size_t *fenwick; /* [1..nnodes]: tables per node, Fenwick-summed */
	size_t fw_top;	 /* the highest power of two <= nnodes */
};

static void fenwick_add(ibp_tables *ts, size_t node, long delta)
{
	for (size_t i = node + 1; i <= ts->nnodes; i += i & (~i + 1))
		ts->fenwick[i] = (size_t)((long)ts->fenwick[i] + delta);
}

/* The node holding the table of rank i (0-based) and the rank of that
 * table within the node.  i < ts->count. */
static size_t fenwick_find(const ibp_tables *ts, size_t i, size_t *rank)
{
	size_t pos = 0, left = i; /* tables before node `pos` */
	for (size_t step = ts->fw_top; step; step >>= 1) {
		size_t nx = pos + step;
		if (nx <= ts->nnodes && ts->fenwick[nx] <= left) {
			pos = nx;
			left -= ts->fenwick[nx];
		}
	}
	*rank = left;
	return pos; /* 0-based node index */
}

ibp_tables *ibp_tables_new(const ibp_fabric *f)
{
	ibp_tables *ts = calloc(1, sizeof(*ts));
	if (!ts)
		return NULL;
	ts->fabric = f;
	ts->nnodes = ibp_fabric_node_count(f);
	ts->by_node = calloc(ts->nnodes ? ts->nnodes : 1, sizeof(*ts->by_node));
	ts->enf_by_node =
	    calloc(ts->nnodes ? ts->nnodes : 1, sizeof(*ts->enf_by_node));
	ts->fenwick = calloc(ts->nnodes + 1, sizeof(*ts->fenwick));
	if (!ts->by_node || !ts->enf_by_node || !ts->fenwick) {
		free(ts->by_node);
		free(ts->enf_by_node);
		free(ts->fenwick);
		free(ts);
		return NULL;
	}
	for (ts->fw_top = 1; ts->fw_top * 2 <= ts->nnodes; ts->fw_top *= 2)
		;
	return ts;
}

void ibp_tables_free(ibp_tables *ts)
{
	if (!ts)
		return;
	for (size_t n = 0; n < ts->nnodes; n++) {
		if (!ts->by_node[n])
			continue;
		unsigned np = ibp_fabric_node_nports(ts->fabric, n);
		for (unsigned p = 0; p <= np; p++)
			ibp_pkey_table_free(ts->by_node[n][p]);
		free(ts->by_node[n]);
	}
	for (size_t n = 0; n < ts->nnodes; n++)
		free(ts->enf_by_node[n]);
	free(ts->enf_by_node);
	free(ts->by_node);
	free(ts->fenwick);
	free(ts);
}

const ibp_fabric *ibp_tables_fabric(const ibp_tables *ts)
{
	return ts->fabric;
}

static bool valid_port(const ibp_tables *ts, size_t node, unsigned port)
{
	return node < ts->nnodes &&
	       port <= ibp_fabric_node_nports(ts->fabric, node);
}

const ibp_pkey_table *ibp_tables_get(const ibp_tables *ts, size_t node,
				     unsigned port)
{
	if (!valid_port(ts, node, port) || !ts->by_node[node])
		return NULL;
	return ts->by_node[node][port];
}

ibp_pkey_table *ibp_tables_get_mut(ibp_tables *ts, size_t node, unsigned port)
{
	if (!valid_port(ts, node, port) || !ts->by_node[node])
		return NULL;
	return ts->by_node[node][port];
}

int ibp_tables_put(ibp_tables *ts, size_t node, unsigned port,
		   ibp_pkey_table *tbl, ibp_error *err)
{
	if (!valid_port(ts, node, port))
		return ibp_error_set(err, IBP_ERANGE, "no port %u on node %zu",
				     port, node);
	if (!ts->by_node[node]) {
		unsigned np = ibp_fabric_node_nports(ts->fabric, node);
		ts->by_node[node] = calloc(np + 1, sizeof(ibp_pkey_table *));
		if (!ts->by_node[node])
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	ibp_pkey_table **slot = &ts->by_node[node][port];
	if (*slot == tbl)
		return IBP_OK; /* already there: freeing it would be fatal */
	if (!*slot && tbl) {
		ts->count++;
		fenwick_add(ts, node, 1);
	} else if (*slot && !tbl) {
		ts->count--;
		fenwick_add(ts, node, -1);
	}
	if (*slot)
		ibp_pkey_table_free(*slot);
	*slot = tbl;
	return IBP_OK;
}

ibp_pkey_table *ibp_tables_get_or_create(ibp_tables *ts, size_t node,
					 unsigned port)
{
	ibp_pkey_table *t = ibp_tables_get_mut(ts, node, port);
	if (t || !valid_port(ts, node, port))
		return t;
	unsigned cap = ibp_fabric_port_capacity(ts->fabric, node, port);
	t = ibp_pkey_table_new(cap ? cap : 1);
	if (!t || ibp_tables_put(ts, node, port, t, NULL)) {
		ibp_pkey_table_free(t);
		return NULL;
	}
	return t;
}

size_t ibp_tables_count(const ibp_tables *ts)
{
	return ts->count;
}

const ibp_pkey_table *ibp_tables_at(const ibp_tables *ts, size_t i,
				    size_t *node, unsigned *port)
{
	if (i >= ts->count)
		return NULL;
	size_t rank;
	size_t n = fenwick_find(ts, i, &rank);
	unsigned np = ibp_fabric_node_nports(ts->fabric, n);
	for (unsigned p = 0; p <= np; p++) {
		if (!ts->by_node[n][p] || rank--)
			continue;
		if (node)
			*node = n;
		if (port)
			*port = p;
		return ts->by_node[n][p];
	}
	return NULL; /* not reached: the counts say node n has it */
}

bool ibp_tables_port_at(const ibp_tables *ts, size_t i, size_t *node,
			unsigned *port)
{
	return ibp_tables_at(ts, i, node, port) != NULL;
}

unsigned ibp_tables_port_capacity(const ibp_tables *ts, size_t node,
				  unsigned port, unsigned *used)
{
	const ibp_pkey_table *t = ibp_tables_get(ts, node, port);
	if (!t)
		return 0;
	if (used)
		*used = ibp_pkey_table_used(t);
	return ibp_pkey_table_capacity(t);
}

uint16_t ibp_tables_pkey_at(const ibp_tables *ts, size_t node, unsigned port,
			    unsigned index)
{
	const ibp_pkey_table *t = ibp_tables_get(ts, node, port);
	return t ? ibp_pkey_table_get(t, index) : 0;
}

ibp_tables *ibp_tables_copy(const ibp_tables *ts)
{
	ibp_tables *c = ibp_tables_new(ts->fabric);
	if (!c)
		return NULL;
	for (size_t i = 0; i < ts->count; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &n, &p);
		ibp_pkey_table *d = ibp_pkey_table_copy(t);
		if (!d || ibp_tables_put(c, n, p, d, NULL)) {
			ibp_pkey_table_free(d);
			ibp_tables_free(c);
			return NULL;
		}
	}
	for (size_t n = 0; n < ts->nnodes; n++) {
		if (!ts->enf_by_node[n])
			continue;
		unsigned np = ibp_fabric_node_nports(ts->fabric, n);
		c->enf_by_node[n] = malloc(np + 1u);
		if (!c->enf_by_node[n]) {
			ibp_tables_free(c);
			return NULL;
		}
		for (unsigned p = 0; p <= np; p++)
			c->enf_by_node[n][p] = ts->enf_by_node[n][p];
	}
	return c;
}

int ibp_tables_set_enforcement(ibp_tables *ts, size_t node, unsigned port,
			       bool inbound, bool outbound)
{
	if (!valid_port(ts, node, port))
		return IBP_ERANGE;
	if (!ts->enf_by_node[node]) {
		unsigned np = ibp_fabric_node_nports(ts->fabric, node);
		ts->enf_by_node[node] = calloc(np + 1u, 1);
		if (!ts->enf_by_node[node])
			return IBP_ENOMEM;
	}
	ts->enf_by_node[node][port] =
	    (uint8_t)(ENF_KNOWN | (inbound ? ENF_IN : 0) |
		      (outbound ? ENF_OUT : 0));
	return IBP_OK;
}

bool ibp_tables_get_enforcement(const ibp_tables *ts, size_t node,
				unsigned port, bool *inbound, bool *outbound)
{
	if (!valid_port(ts, node, port) || !ts->enf_by_node[node] ||
	    !(ts->enf_by_node[node][port] & ENF_KNOWN))
		return false;
	if (inbound)
		*inbound = ts->enf_by_node[node][port] & ENF_IN;
	if (outbound)
		*outbound = ts->enf_by_node[node][port] & ENF_OUT;
	return true;
}

static const char *const enforce_names[] = {"both", "in", "out", "off"};

int ibp_part_enforce_parse(const char *s, ibp_part_enforce *out)
{
	for (unsigned i = 0; s && i < 4; i++)
		if (!strcmp(s, enforce_names[i])) {
			*out = (ibp_part_enforce)i;
			return IBP_OK;
		}
	return IBP_EINVAL;
}

const char *ibp_part_enforce_str(ibp_part_enforce e)
{
	return (unsigned)e < 4 ? enforce_names[e] : enforce_names[0];
}

void ibp_part_enforce_bits(ibp_part_enforce e, bool *inbound, bool *outbound)
{
	if (inbound)
		*inbound = e == IBP_ENFORCE_BOTH || e == IBP_ENFORCE_IN;
	if (outbound)
		*outbound = e == IBP_ENFORCE_BOTH || e == IBP_ENFORCE_OUT;
}

ibp_part_enforce ibp_part_enforce_from_bits(bool inbound, bool outbound)
{
	return inbound && outbound ? IBP_ENFORCE_BOTH
	       : inbound	   ? IBP_ENFORCE_IN
	       : outbound	   ? IBP_ENFORCE_OUT
				   : IBP_ENFORCE_OFF;
}
