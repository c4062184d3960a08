/*
 * sim_session_probe.c - the probe matrix of a sim session: a packet
 * between every ordered pair of host ports through the data plane, on
 * each valid entry of the sender's table until one gets through, printed
 * as the seed's markdown table (see include/ibpart/sys/sim_session.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "sim/sim_session_priv.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

void ibp_sim_probe_result_free(struct ibp_sim_probe_result *r)
{
	if (!r)
		return;
	free(r->node);
	free(r->port);
	free(r->cells);
	memset(r, 0, sizeof(*r));
}

/* Every linked port of a CA or router, in node order, into r. */
static int host_ports(const ibp_fabric *f, struct ibp_sim_probe_result *r)
{
	size_t cap = 16;
	r->node = malloc(cap * sizeof(*r->node));
	r->port = malloc(cap * sizeof(*r->port));
	if (!r->node || !r->port)
		return IBP_ENOMEM;
	for (size_t i = 0; i < ibp_fabric_node_count(f); i++) {
		if (ibp_fabric_node_type(f, i) == IBP_NODE_SWITCH)
			continue;
		for (unsigned p = 1; p <= ibp_fabric_node_nports(f, i); p++) {
			size_t pn;
			unsigned pp;
			if (!ibp_fabric_port_peer(f, i, p, &pn, &pp))
				continue;
			if (r->n == cap) {
				cap *= 2;
				size_t *nn =
				    realloc(r->node, cap * sizeof(*nn));
				if (!nn)
					return IBP_ENOMEM;
				r->node = nn;
				unsigned *np =
				    realloc(r->port, cap * sizeof(*np));
				if (!np)
					return IBP_ENOMEM;
				r->port = np;
			}
			r->node[r->n] = i;
			r->port[r->n++] = p;
		}
	}
	r->cells = calloc(r->n * r->n + 1, 1);
	return r->cells ? IBP_OK : IBP_ENOMEM;
}

/* Whether a packet from port i reaches port j on some valid entry. */
static unsigned char probe(ibp_sim_session *s,
			   const struct ibp_sim_probe_result *r, size_t i,
			   size_t j)
{
	const ibp_pkey_table *t =
	    ibp_tables_get(ibp_sim_tables(s->sim), r->node[i], r->port[i]);
	unsigned used = t ? ibp_pkey_table_used(t) : 0;
	for (unsigned k = 0; k < used; k++) {
		if (!ibp_pkey_is_valid(ibp_pkey_table_get(t, k)))
			continue;
		struct ibp_sim_packet pk = {.src_node = r->node[i],
					    .src_port = r->port[i],
					    .dst_node = r->node[j],
					    .dst_port = r->port[j],
					    .pkey_index = (uint16_t)k,
					    .src_qp = 0x100,
					    .dest_qp = 0x101};
		struct ibp_sim_result res;
		ibp_sim_send(s->sim, &pk, &res, NULL);
		if (res.verdict == IBP_SIM_DELIVERED)
			return 1;
	}
	return 0;
}

static void print_matrix(const ibp_sim_session *s, FILE *out,
			 const struct ibp_sim_probe_result *r)
{
	char lb[300];
	size_t n = r->n;
	simss_printf(out, "|  |");
	for (size_t j = 0; j < n; j++)
		simss_printf(out, " %s |",
			     ibp_fabric_port_name(s->f, r->node[j], r->port[j],
						  lb, sizeof(lb)));
	simss_printf(out, "\n|---|");
	for (size_t j = 0; j < n; j++)
		simss_printf(out, "---|");
	simss_printf(out, "\n");
	for (size_t i = 0; i < n; i++) {
		simss_printf(out, "| %s |",
			     ibp_fabric_port_name(s->f, r->node[i], r->port[i],
						  lb, sizeof(lb)));
		for (size_t j = 0; j < n; j++)
			simss_printf(
			    out, " %s |",
			    i == j ? "—" : (r->cells[i * n + j] ? "✓" : "✗"));
		simss_printf(out, "\n");
	}
}

int ibp_sim_session_probe_matrix(ibp_sim_session *s, FILE *out,
				 struct ibp_sim_probe_result *res,
				 ibp_error *err)
{
	struct ibp_sim_probe_result r = {0};
	if (host_ports(s->f, &r) != IBP_OK) {
		ibp_sim_probe_result_free(&r);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < r.n; i++)
		for (size_t j = 0; j < r.n; j++)
			if (i != j)
				r.cells[i * r.n + j] = probe(s, &r, i, j);
	ibp_sm_poll_traps(s->sm, NULL, NULL);
	print_matrix(s, out, &r);
	if (res)
		*res = r;
	else
		ibp_sim_probe_result_free(&r);
	return IBP_OK;
}

/* Index of the port of node description name in r, or -1. */
static long probe_col(const ibp_fabric *f, const struct ibp_sim_probe_result *r,
		      const char *name)
{
	for (size_t k = 0; k < r->n; k++)
		if (!strcmp(ibp_fabric_node_desc(f, r->node[k]), name))
			return (long)k;
	return -1;
}

size_t ibp_sim_probe_compare(const ibp_sim_session *s,
			     const struct ibp_sim_probe_result *r,
			     const char *const *names, size_t n,
			     const char *expected, unsigned char *diff)
{
	const ibp_fabric *f = ibp_sim_session_fabric(s);
	size_t ndiff = 0;
	for (size_t i = 0; i < n; i++) {
		long a = probe_col(f, r, names[i]);
		for (size_t j = 0; j < n; j++) {
			long b = probe_col(f, r, names[j]);
			bool want = expected[i * n + j] == 'Y';
			bool got =
			    a >= 0 && b >= 0 && r->cells[a * (long)r->n + b];
			bool d = i != j && want != got;
			if (diff)
				diff[i * n + j] = d;
			ndiff += d;
		}
	}
	return ndiff;
}
