/*
 * sim_guid_info.c - the GUIDInfo table of every simulated port (IBA vol. 1,
 * 14.2.5.5) and the virtual functions (VFs) a host presents through it:
 * entry 0 is the port GUID (read-only), entries 1..GUIDCap-1 the alias
 * GUIDs a host registers for its VFs (the ConnectX-3 / mlx4 model: the
 * alias at index n is VF n's GUID) or an SM sets with SubnSet(GUIDInfo).
 * A VF's P_KeyTable is the host administrator's mapping of indexes of
 * the physical port's table, so a VF can only ever use P_Keys the
 * physical table holds.  The SMAs (transport_sim.c) reads and
 * writes these tables; the data plane sends a VF's packets from its
 * physical port.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "ibpart/sys/sim.h"
#include "pkey/tables_lib.h"
#include "sim/sim_priv.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

/* A switch's GUIDInfo is port 0's (its external ports have no GUID). */
static struct sim_port *guid_port(ibp_sim *s, size_t node, unsigned port)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	if (node < ibp_fabric_node_count(f) &&
	    ibp_fabric_node_type(f, node) == IBP_NODE_SWITCH)
		port = 0;
	return sim_port_at(s, node, port);
}

unsigned ibp_sim_guid_cap(const ibp_sim *s, size_t node, unsigned port)
{
	struct sim_port *sp = guid_port((ibp_sim *)s, node, port);
	if (!sp)
		return 0;
	return sp->guids ? sp->guid_cap : 1u;
}

int ibp_sim_set_guid_cap(ibp_sim *s, size_t node, unsigned port, unsigned cap,
			 ibp_error *err)
{
	struct sim_port *sp = guid_port(s, node, port);
	if (!sp)
		return ibp_error_set(err, IBP_ERANGE, "no such port %zu/%u",
				     node, port);
	if (cap < 1 || cap > IBP_SIM_GUID_CAP_MAX)
		return ibp_error_set(err, IBP_EINVAL,
				     "GUIDCap %u outside 1..%u", cap,
				     IBP_SIM_GUID_CAP_MAX);
	uint64_t *g = calloc(cap, sizeof(*g));
	if (!g)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	unsigned keep = sp->guids ? sp->guid_cap : 0;
	if (keep > cap)
		keep = cap;
	if (keep)
		memcpy(g, sp->guids, keep * sizeof(*g));
	free(sp->guids);
	free(sp->vf_pkey_map); /* the host maps its VFs again */
	sp->vf_pkey_map = NULL;
	sp->guids = g;
	sp->guid_cap = cap;
	return IBP_OK;
}

uint64_t ibp_sim_guid(const ibp_sim *s, size_t node, unsigned port,
		      unsigned index)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	struct sim_port *sp = guid_port((ibp_sim *)s, node, port);
	if (!sp)
		return 0;
	if (index == 0) {
		bool sw = ibp_fabric_node_type(f, node) == IBP_NODE_SWITCH;
		return ibp_fabric_port_guid(f, node, sw ? 0 : port);
	}
	if (!sp->guids || index >= sp->guid_cap)
		return 0;
	return sp->guids[index];
}

int ibp_sim_set_alias_guid(ibp_sim *s, size_t node, unsigned port,
			   unsigned index, uint64_t guid, ibp_error *err)
{
	struct sim_port *sp = guid_port(s, node, port);
	if (!sp)
		return ibp_error_set(err, IBP_ERANGE, "no such port %zu/%u",
				     node, port);
	if (index == 0)
		return ibp_error_set(err, IBP_EINVAL,
				     "GUIDInfo entry 0 is the port GUID and "
				     "read-only (IBA 14.2.5.5)");
	if (!sp->guids || index >= sp->guid_cap)
		return ibp_error_set(err, IBP_ERANGE,
				     "GUIDInfo index %u past GUIDCap %u", index,
				     ibp_sim_guid_cap(s, node, port));
	sp->guids[index] = guid;
	return IBP_OK;
}

int ibp_sim_find_alias_guid(const ibp_sim *s, uint64_t guid, size_t *node,
			    unsigned *port, unsigned *index)
{
	const ibp_fabric *f = ibp_sim_fabric(s);
	if (guid == 0)
		return IBP_ENOENT;
	for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
		unsigned np = ibp_fabric_node_nports(f, n);
		for (unsigned p = 0; p <= np; p++) {
			struct sim_port *sp = sim_port_at((ibp_sim *)s, n, p);
			if (!sp || !sp->guids)
				continue;
			for (unsigned i = 1; i < sp->guid_cap; i++)
				if (sp->guids[i] == guid) {
					*node = n;
					*port = p;
					*index = i;
					return IBP_OK;
				}
		}
	}
	return IBP_ENOENT;
}

int ibp_sim_set_vf_pkey_map(ibp_sim *s, size_t node, unsigned port, unsigned vf,
			    const uint16_t *phys_index, unsigned n,
			    ibp_error *err)
{
	struct sim_port *sp = guid_port(s, node, port);
	if (!sp || !sp->guids || vf == 0 || vf >= sp->guid_cap)
		return ibp_error_set(err, IBP_ERANGE, "no VF %u on port %zu/%u",
				     vf, node, port);
	if (n > IBP_SIM_VF_PKEYS)
		return ibp_error_set(err, IBP_EINVAL,
				     "a VF's P_KeyTable holds at most %u "
				     "entries",
				     IBP_SIM_VF_PKEYS);
	if (!sp->vf_pkey_map) {
		sp->vf_pkey_map =
		    calloc(sp->guid_cap, sizeof(*sp->vf_pkey_map));
		if (!sp->vf_pkey_map)
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < IBP_SIM_VF_PKEYS; i++)
		sp->vf_pkey_map[vf][i] = i < n ? phys_index[i] : 0xffffu;
	return IBP_OK;
}

int ibp_sim_vf_pkey_index(const ibp_sim *s, size_t node, unsigned port,
			  unsigned vf, unsigned vf_index, uint16_t *phys_index)
{
	struct sim_port *sp = guid_port((ibp_sim *)s, node, port);
	if (!sp || !sp->vf_pkey_map || vf == 0 || vf >= sp->guid_cap ||
	    vf_index >= IBP_SIM_VF_PKEYS ||
	    sp->vf_pkey_map[vf][vf_index] == 0xffffu)
		return IBP_ENOENT;
	*phys_index = sp->vf_pkey_map[vf][vf_index];
	return IBP_OK;
}

int ibp_sim_vf_pkey_match(const ibp_sim *s, size_t node, unsigned port,
			  unsigned vf, uint16_t pkey)
{
	const ibp_pkey_table *t =
	    ibp_tables_get(ibp_sim_tables((ibp_sim *)s), node, port);
	for (unsigned i = 0; t && i < IBP_SIM_VF_PKEYS; i++) {
		uint16_t phys;
		if (ibp_sim_vf_pkey_index(s, node, port, vf, i, &phys) ==
			IBP_OK &&
		    phys < ibp_pkey_table_capacity(t) &&
		    ibp_pkey_match(ibp_pkey_table_get(t, phys), pkey))
			return (int)i;
	}
	return -1;
}
