/*
 * sim_priv.h - what the files of the simulated fabric's port state share
 * (sim.c owns the ports; sim_guid_info.c keeps their GUIDInfo tables).
 * Private to src/sim/.
 */
#ifndef IBPART_SIM_PRIV_H
#define IBPART_SIM_PRIV_H

#include "ibpart/sys/sim.h"

/* One port of the simulated fabric. */
struct sim_port {
	struct ibp_sim_port_info pi;
	struct ibp_sim_port_counters pc;
	/* GUIDInfo (IBA 14.2.5.5): guid_cap entries, index 0 the port GUID,
	 * allocated when a cap above 1 is set; NULL = GUIDCap 1. */
	uint64_t *guids;
	unsigned guid_cap;
	/* Per VF (alias index), its P_KeyTable as indexes of this port's
	 * table (IBP_SIM_VF_PKEYS entries; 0xffff = no entry); NULL until the
	 * host maps one. */
	uint16_t (*vf_pkey_map)[IBP_SIM_VF_PKEYS];
	/* What NodeInfo reports instead of the fabric's GUIDs
	 * (ibp_sim_set_node_info_port_guid; the node's NodeGUID is kept in
	 * its port 0, which every node has here) */
	bool ni_port_guid_set, ni_node_guid_set;
	uint64_t ni_port_guid, ni_node_guid;
};

/* The port (node, port), or NULL when it does not exist. */
struct sim_port *sim_port_at(ibp_sim *s, size_t node, unsigned port);

/* A GMP from (node, port) to LID dlid across the data plane on QP1 with
 * the P_Key at ibp_sim_gmp_pkey_index() (transport_sim_pma.c): the port
 * it reaches into *dn, *dp; IBP_ETIMEDOUT when no port has the LID or a
 * P_Key check drops it (the requester sees no answer). */
int sim_gmp_cross(ibp_sim *s, size_t node, unsigned port, uint16_t dlid,
		  size_t *dn, unsigned *dp, ibp_error *err);

#endif
