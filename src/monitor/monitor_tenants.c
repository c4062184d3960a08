/*
 * monitor_tenants.c - attribution (see include/ibpart/monitor.h): the
 * plan's partitions other than the default one are the tenants; each port
 * read carries the tenants of the CA port it faces (its membership in the
 * partition as OpenSM 3.3.23 computes it, full or limited), and each
 * tenant sums the counters of its ports by direction.  A port in several
 * partitions adds to each: sums across tenants over-count.
 */
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor_priv.h"
#include "conf/conf_lib.h"

#define DEFAULT_PKEY 0x7fffu /* the default partition: management */

int monitor_attribute(ibp_monitor_sweep *r, const ibp_conf *c,
		      uint64_t sm_port_guid, ibp_error *err)
{
	size_t ng = ibp_conf_group_count(c);
	size_t *tenant_of_group = calloc(ng ? ng : 1, sizeof(size_t));
	r->tenants = calloc(ng ? ng : 1, sizeof(*r->tenants));
	if (!tenant_of_group || !r->tenants) {
		free(tenant_of_group);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	for (size_t g = 0; g < ng; g++) {
		const ibp_conf_group *grp = ibp_conf_group_at(c, g);
		uint16_t pkey = ibp_conf_group_pkey(grp) & 0x7fffu;
		tenant_of_group[g] = (size_t)-1;
		if (pkey == DEFAULT_PKEY)
			continue;
		struct ibp_monitor_tenant *t = &r->tenants[r->ntenants];
		t->name = monitor_keep(r, ibp_conf_group_name(grp));
		t->pkey = pkey;
		if (!t->name) {
			free(tenant_of_group);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		tenant_of_group[g] = r->ntenants++;
	}
	/* Two passes over the ports: count, then fill one index array. */
	size_t total = 0;
	for (int pass = 0; pass < 2; pass++) {
		size_t k = 0;
		for (size_t i = 0; i < r->nports; i++) {
			struct ibp_monitor_port *q = &r->ports[i];
			if (pass == 1) {
				q->tenants = r->tenant_idx + k;
				q->ntenants = 0;
			}
			for (size_t g = 0; g < ng; g++) {
				if (tenant_of_group[g] == (size_t)-1)
					continue;
				ibp_membership m =
				    ibp_conf_group_port_membership(
					ibp_conf_group_at(c, g),
					q->facing_port_guid, IBP_NODE_CA,
					sm_port_guid, NULL);
				if (m == IBP_MEMB_NONE)
					continue;
				if (pass == 0) {
					total++;
					continue;
				}
				r->tenant_idx[k++] = tenant_of_group[g];
				q->ntenants++;
			}
		}
		if (pass == 0) {
			r->tenant_idx =
			    calloc(total ? total : 1, sizeof(*r->tenant_idx));
			if (!r->tenant_idx) {
				free(tenant_of_group);
				return ibp_error_set(err, IBP_ENOMEM,
						     "out of memory");
			}
			r->ntenant_idx = total;
		}
	}
	free(tenant_of_group);
	for (size_t i = 0; i < r->nports; i++) {
		const struct ibp_monitor_port *q = &r->ports[i];
		uint64_t xmit = q->total[IBP_MON_XMIT_CONSTRAINT];
		uint64_t rcv = q->total[IBP_MON_RCV_CONSTRAINT];
		for (size_t j = 0; j < q->ntenants; j++) {
			struct ibp_monitor_tenant *t =
			    &r->tenants[q->tenants[j]];
			if (q->is_switch) {
				/* ingress from the node, egress toward it */
				t->from += rcv;
				t->toward += xmit;
			} else {
				t->from += xmit;
				t->toward += rcv;
				t->pkey_violations +=
				    q->total[IBP_MON_PKEY_VIOLATIONS];
				t->traps_from += q->traps_from;
				t->traps_toward += q->traps_toward;
				t->ports++;
			}
		}
	}
	return IBP_OK;
}
