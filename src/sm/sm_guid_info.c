/*
 * sm_guid_info.c - the alias GUIDs of the discovered fabric
 * (ibp_sm_read_alias_guids): every end port's (and every switch's port
 * 0's) PortInfo GUIDCap, then its GUIDInfo blocks up to GUIDCap (IBA
 * vol. 1 14.2.5.5: 8 GUIDs a block, entry 0 the port GUID), as two
 * pipelined batches of directed-route Gets.  Every non-zero entry past 0
 * is an alias GUID of that port: in the ConnectX-3 (mlx4) model the GUID
 * of its virtual function at that index.  They become the alias map
 * (alias_map.h) `ibpart discover` writes beside the topology; where an
 * SA answers, the aliases its GUIDInfoRecords hold are added
 * (sm_sa_guid_info.c).
 */
#include <stdlib.h>

#include "sm/sm_priv.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/alias_map.h"

static bool has_guid_info(const ibp_sm *sm, size_t n, unsigned p)
{
	bool sw = ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
	if (sw != (p == 0))
		return false;
	return sm_node_path(sm, n, p) != NULL;
}

/* Record the non-zero entries past 0 of a port's blocks; an alias seen
 * twice (on two ports, or twice in one table) is kept where first seen,
 * and *dups counts the others. */
static int take_aliases(const ibp_sm *sm, const struct sm_gi_port *gp,
			const struct sm_get *g, ibp_alias_map *m, size_t *dups,
			ibp_error *err)
{
	uint64_t port_guid =
	    ibp_fabric_port_guid(sm->fabric, gp->node, gp->port);
	unsigned nb = (gp->cap + IBP_GUID_INFO_BLOCK - 1) / IBP_GUID_INFO_BLOCK;
	for (unsigned b = 0; b < nb; b++) {
		uint64_t guids[IBP_GUID_INFO_BLOCK];
		int drc = ibp_guid_info_decode(guids, g[gp->first + b].data,
					       IBP_SMP_DATA_SIZE, err);
		if (drc != IBP_OK)
			return drc;
		for (unsigned i = 0; i < IBP_GUID_INFO_BLOCK; i++) {
			unsigned idx = b * IBP_GUID_INFO_BLOCK + i;
			if (idx == 0 || idx >= gp->cap || guids[i] == 0 ||
			    guids[i] == port_guid)
				continue;
			struct ibp_alias a = {guids[i], port_guid, idx};
			int rc = ibp_alias_map_add(m, &a);
			if (rc == IBP_ENOMEM)
				return ibp_error_set(err, rc, "out of memory");
			if (rc != IBP_OK)
				(*dups)++;
		}
	}
	return IBP_OK;
}

int ibp_sm_read_alias_guids(ibp_sm *sm, ibp_alias_map **out, size_t *dups,
			    ibp_error *err)
{
	struct ibp_sm_alias_read r;
	int rc = ibp_sm_read_alias_guids_sa(sm, 0, 0, out, &r, err);
	if (dups)
		*dups = rc ? 0 : r.dups;
	return rc;
}

int ibp_sm_read_alias_guids_sa(ibp_sm *sm, uint16_t sa_lid, uint64_t sa_key,
			       ibp_alias_map **out, struct ibp_sm_alias_read *r,
			       ibp_error *err)
{
	struct ibp_sm_alias_read mine;
	if (!r)
		r = &mine;
	*r = (struct ibp_sm_alias_read){0};
	*out = NULL;
	int rc;
	if (!sm->fabric && (rc = ibp_sm_discover(sm, err)) != IBP_OK)
		return rc;
	const ibp_fabric *f = sm->fabric;
	struct sm_gi_port *ports = NULL;
	size_t np = 0, ng = 0, gcap = 0;
	struct sm_get *g = NULL;
	rc = IBP_OK;
	for (size_t n = 0; n < ibp_fabric_node_count(f) && !rc; n++) {
		unsigned nports = ibp_fabric_node_nports(f, n);
		for (unsigned p = 0; p <= nports && !rc; p++) {
			if (!has_guid_info(sm, n, p))
				continue;
			rc = sm_gets_add(&g, &ng, &gcap, sm_node_path(sm, n, p),
					 IBP_ATTR_PORT_INFO, p, err);
			np++;
		}
	}
	if (!rc && np && !(ports = calloc(np, sizeof(*ports))))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc)
		rc = sm_dr_get_batch(sm, g, ng, err);
	/* GUIDCap of each, then its GUIDInfo blocks as the second batch */
	size_t k = 0;
	for (size_t n = 0; n < ibp_fabric_node_count(f) && !rc; n++) {
		unsigned nports = ibp_fabric_node_nports(f, n);
		for (unsigned p = 0; p <= nports && !rc; p++) {
			if (!has_guid_info(sm, n, p))
				continue;
			struct ibp_port_info pi;
			rc = ibp_port_info_decode(&pi, g[k].data,
						  IBP_SMP_DATA_SIZE, err);
			if (rc != IBP_OK)
				break;
			ports[k++] = (struct sm_gi_port){n, p, pi.guid_cap, 0};
		}
	}
	size_t ng2 = 0;
	struct sm_get *g2 = NULL;
	size_t g2cap = 0;
	for (size_t i = 0; i < np && !rc; i++) {
		unsigned nb = (ports[i].cap + IBP_GUID_INFO_BLOCK - 1) /
			      IBP_GUID_INFO_BLOCK;
		ports[i].first = ng2;
		const struct dr_path *path =
		    sm_node_path(sm, ports[i].node, ports[i].port);
		for (unsigned b = 0; b < nb && !rc; b++)
			rc = sm_gets_add(&g2, &ng2, &g2cap, path,
					 IBP_ATTR_GUID_INFO, b, err);
	}
	if (!rc)
		rc = sm_dr_get_batch(sm, g2, ng2, err);
	ibp_alias_map *m = NULL;
	if (!rc && !(m = ibp_alias_map_new()))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t d = 0;
	for (size_t i = 0; i < np && !rc; i++)
		rc = take_aliases(sm, &ports[i], g2, m, &d, err);
	r->guid_info = m ? ibp_alias_map_count(m) : 0;
	r->dups = d;
	if (!rc && sa_lid)
		rc = sm_sa_guid_info(sm, sa_lid, sa_key, ports, np, m, r, err);
	free(g);
	free(g2);
	free(ports);
	if (rc != IBP_OK) {
		ibp_alias_map_free(m);
		return rc;
	}
	*out = m;
	return IBP_OK;
}
