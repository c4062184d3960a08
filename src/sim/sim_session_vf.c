/*
 * sim_session_vf.c - SR-IOV virtual functions in a sim session (see
 * include/ibpart/sim_session.h): the hosts of the fabric register the
 * alias GUIDs of an alias map (alias_map.h) in their ports' GUIDInfo
 * tables (IBA vol. 1 14.2.5.5), as an mlx4 driver does for its VFs, and
 * each VF gets a P_KeyTable that is the host administrator's mapping of
 * the physical port's (pkey_idx).  Until the `vf-map` action says
 * otherwise a VF maps the first IBP_SIM_VF_PKEYS entries of its port's
 * table one to one - every P_Key of the physical port, the case the
 * audit's shared-physical-port warns of.  A VF is named by its alias
 * GUID wherever a pingpong takes a port.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/alias_map.h"
#include "ibpart/pkey.h"
#include "pkey/tables_lib.h"
#include "sim/sim_session_priv.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/alias_map.h"

static int identity_map(ibp_sim *sim, size_t n, unsigned p, unsigned vf,
			ibp_error *err)
{
	uint16_t idx[IBP_SIM_VF_PKEYS];
	for (unsigned i = 0; i < IBP_SIM_VF_PKEYS; i++)
		idx[i] = (uint16_t)i;
	return ibp_sim_set_vf_pkey_map(sim, n, p, vf, idx, IBP_SIM_VF_PKEYS,
				       err);
}

int simss_register_vfs(ibp_sim_session *s, const char *path, size_t max,
		       ibp_error *err)
{
	ibp_alias_map *m = NULL;
	int rc = ibp_alias_map_load(path, max, &m, NULL, err);
	if (rc == IBP_EIO && err) /* cannot be read: bad input */
		err->status = IBP_ENOENT;
	if (rc != IBP_OK)
		return rc == IBP_EIO ? IBP_ENOENT : rc;
	/* GUIDCap first (it drops the mappings), a block of 8 at a time */
	for (size_t i = 0; i < ibp_alias_map_count(m) && !rc; i++) {
		const struct ibp_alias *a = ibp_alias_map_at(m, i);
		struct ibp_guid_class c;
		if (ibp_guid_classify(s->f, m, a->alias, &c) != IBP_GUID_ALIAS)
			continue; /* its port is not in the fabric */
		unsigned cap = (a->index / 8 + 1) * 8;
		if (cap > IBP_SIM_GUID_CAP_MAX)
			rc =
			    ibp_error_set(err, IBP_ERANGE,
					  "%s: GUIDInfo index %u past the "
					  "simulator's GUIDCap %u",
					  path, a->index, IBP_SIM_GUID_CAP_MAX);
		else if (cap > ibp_sim_guid_cap(s->sim, c.node, c.port))
			rc = ibp_sim_set_guid_cap(s->sim, c.node, c.port, cap,
						  err);
	}
	for (size_t i = 0; i < ibp_alias_map_count(m) && !rc; i++) {
		const struct ibp_alias *a = ibp_alias_map_at(m, i);
		struct ibp_guid_class c;
		if (ibp_guid_classify(s->f, m, a->alias, &c) != IBP_GUID_ALIAS)
			continue;
		rc = ibp_sim_set_alias_guid(s->sim, c.node, c.port, a->index,
					    a->alias, err);
		if (!rc)
			rc =
			    identity_map(s->sim, c.node, c.port, a->index, err);
	}
	ibp_alias_map_free(m);
	return rc;
}

int simss_endpoint(const ibp_sim_session *s, const char *spec, size_t *n,
		   unsigned *p, unsigned *vf, ibp_error *err)
{
	*vf = 0;
	char *end;
	uint64_t g = strtoull(spec, &end, 16);
	if (s->sim && *spec && !*end &&
	    ibp_sim_find_alias_guid(s->sim, g, n, p, vf) == IBP_OK)
		return IBP_OK;
	*vf = 0;
	int rc = ibp_fabric_resolve_port(s->f, spec, n, p, err);
	if (rc == IBP_OK && !ibp_fabric_is_end_port(s->f, *n, *p))
		rc = ibp_error_set(err, IBP_EINVAL, "'%s' is not an end port",
				   spec);
	return rc;
}

int ibp_sim_session_vf_map(ibp_sim_session *s, const char *vf_guid,
			   const uint16_t *phys_index, unsigned n,
			   ibp_error *err)
{
	size_t node;
	unsigned port, vf;
	int rc = simss_endpoint(s, vf_guid, &node, &port, &vf, err);
	if (rc == IBP_OK && !vf)
		rc = ibp_error_set(err, IBP_EINVAL,
				   "'%s' is no VF (alias GUID) of the "
				   "simulated fabric (--alias-guids)",
				   vf_guid);
	if (rc == IBP_OK)
		rc = ibp_sim_set_vf_pkey_map(s->sim, node, port, vf, phys_index,
					     n, err);
	return rc;
}

uint16_t simss_key_at(ibp_sim_session *s, size_t n, unsigned p, unsigned vf,
		      unsigned index)
{
	const ibp_pkey_table *t = ibp_tables_get(ibp_sim_tables(s->sim), n, p);
	uint16_t phys = (uint16_t)index;
	if (!t || (vf && ibp_sim_vf_pkey_index(s->sim, n, p, vf, index,
					       &phys) != IBP_OK))
		return 0;
	return phys < ibp_pkey_table_capacity(t) ? ibp_pkey_table_get(t, phys)
						 : 0;
}

int simss_key_match(ibp_sim_session *s, size_t n, unsigned p, unsigned vf,
		    uint16_t key)
{
	if (vf)
		return ibp_sim_vf_pkey_match(s->sim, n, p, vf, key);
	const ibp_pkey_table *t = ibp_tables_get(ibp_sim_tables(s->sim), n, p);
	return t ? ibp_pkey_table_match(t, key) : -1;
}
