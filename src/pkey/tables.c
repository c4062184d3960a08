/*
 * tables.c - one P_KeyTable per port of a fabric (see
 * include/ibpart/tables.h).
 *
 * Stored as a per-node array of per-port table pointers, allocated when a
 * node first gets a table, so a set costs a pointer per node plus what it
 * holds.  Iteration in (node, port) order walks that array; the i-th
 * look-up used by ibp_tables_at() keeps a cursor so a front-to-back loop
 * is linear overall.  Enforcement bits, when known, sit in a parallel
 * per-node byte array (ENF_KNOWN | ENF_IN | ENF_OUT), allocated likewise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/tables.h"

#define ENF_KNOWN 0x4u
#define ENF_IN	  0x1u
#define ENF_OUT	  0x2u

struct ibp_tables {
	const ibp_fabric *fabric;
	size_t nnodes;
	ibp_pkey_table ***by_node; /* [node][port], port 0..nports */
	uint8_t **enf_by_node;	   /* [node][port]: ENF_* bits, or NULL */
	size_t count;
	/* cursor for ibp_tables_at */
	size_t cur_i, cur_node;
	unsigned cur_port;
};

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
	if (!ts->by_node || !ts->enf_by_node) {
		free(ts->by_node);
		free(ts->enf_by_node);
		free(ts);
		return NULL;
	}
	ts->cur_i = (size_t)-1;
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

ibp_pkey_table *ibp_tables_get(const ibp_tables *ts, size_t node, unsigned port)
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
	if (*slot)
		ibp_pkey_table_free(*slot);
	else if (tbl)
		ts->count++;
	if (!tbl && *slot)
		ts->count--;
	*slot = tbl;
	ts->cur_i = (size_t)-1;
	return IBP_OK;
}

ibp_pkey_table *ibp_tables_get_or_create(ibp_tables *ts, size_t node,
					 unsigned port)
{
	ibp_pkey_table *t = ibp_tables_get(ts, node, port);
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

ibp_pkey_table *ibp_tables_at(const ibp_tables *ts, size_t i, size_t *node,
			      unsigned *port)
{
	ibp_tables *m = (ibp_tables *)ts; /* the cursor is a cache */
	if (i >= ts->count)
		return NULL;
	size_t n = 0, k = 0;
	unsigned p = 0;
	if (m->cur_i != (size_t)-1 && m->cur_i <= i) {
		n = m->cur_node;
		p = m->cur_port;
		k = m->cur_i;
	} else {
		/* find the first */
		k = 0;
		n = 0;
		p = 0;
		for (;; n++) {
			unsigned np = ibp_fabric_node_nports(ts->fabric, n);
			if (ts->by_node[n])
				for (p = 0; p <= np && !ts->by_node[n][p]; p++)
					;
			if (ts->by_node[n] && p <= np)
				break;
		}
	}
	while (k < i) {
		/* advance to the next stored table */
		unsigned np = ibp_fabric_node_nports(ts->fabric, n);
		p++;
		for (;;) {
			if (ts->by_node[n])
				while (p <= np && !ts->by_node[n][p])
					p++;
			if (ts->by_node[n] && p <= np)
				break;
			n++;
			p = 0;
			np = ibp_fabric_node_nports(ts->fabric, n);
		}
		k++;
	}
	m->cur_i = i;
	m->cur_node = n;
	m->cur_port = p;
	if (node)
		*node = n;
	if (port)
		*port = p;
	return ts->by_node[n][p];
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

void ibp_tables_print_smpquery(const ibp_tables *ts, FILE *out)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	size_t cnt = ibp_tables_count(ts);
	for (size_t i = 0; i < cnt; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &n, &p);
		unsigned cap = ibp_pkey_table_capacity(t);
		fprintf(out, "%s# %s port %u (0x%016" PRIx64 ") %s\n",
			i ? "\n" : "", ibp_fabric_node_desc(f, n), p,
			ibp_fabric_port_guid(f, n, p),
			ibp_node_type_str(ibp_fabric_node_type(f, n)));
		for (unsigned k = 0; k < cap; k += 8) {
			fprintf(out, "%4u:", k);
			for (unsigned j = k; j < k + 8 && j < cap; j++)
				fprintf(out, " 0x%04x",
					ibp_pkey_table_get(t, j));
			fputc('\n', out);
		}
		fprintf(out, "%u pkeys capacity for this port\n", cap);
	}
}
