/*
 * sm_report.c - the report of a push (struct ibp_sm_report): growing its
 * arrays of changed and failed ports, and freeing it (front/print.h prints
 * it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm_priv.h"
#include "topo/topo_lib.h"

int sm_report_add_port(struct ibp_sm_port **arr, size_t *len,
		       const struct ibp_sm_port *p)
{
	/* no capacity field: the array grows when len is 0 or a power of
	 * two, to 16 entries while empty and then to 2 * len, so its
	 * capacity is always the smallest power of two above len (16 for
	 * the first entry) */
	size_t n = *len;
	if ((n & (n - 1)) == 0) {
		size_t cap = n ? n * 2 : 16;
		struct ibp_sm_port *na = realloc(*arr, cap * sizeof(*na));
		if (!na)
			return IBP_ENOMEM;
		*arr = na;
	}
	(*arr)[(*len)++] = *p;
	return IBP_OK;
}

void ibp_sm_report_free(struct ibp_sm_report *r)
{
	if (!r)
		return;
	free(r->changed);
	free(r->failed);
	memset(r, 0, sizeof(*r));
}

void sm_port_describe(const ibp_fabric *f, size_t n, unsigned p,
		      struct ibp_sm_port *out)
{
	memset(out, 0, sizeof(*out));
	out->node_guid = ibp_fabric_node_guid(f, n);
	out->port_guid = ibp_fabric_port_guid(f, n, p);
	out->port = p;
	snprintf(out->desc, sizeof(out->desc), "%s",
		 ibp_fabric_node_desc(f, n));
}
