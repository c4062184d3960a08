/*
 * sim_session_query.c - what a session reads back the way the real tools
 * do: `smpquery pkeys` over LID-routed SMPs from the SM's port, and the
 * ports' violation counters with the traps the SM received.
 */
#include <string.h>

#include "ibpart/sys/mad.h"
#include "ibpart/pkey.h"
#include "sim/sim_session_priv.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

/* Where an SMP goes: a LID, or a directed route from the SM's port. */
struct dest {
	uint16_t lid; /* 0: by path */
	uint8_t path[IBP_SMP_MAX_HOPS];
	unsigned hops;
};

/* One SubnGet to d; 0, or -1 for no (good) answer. */
static int get(ibp_sim_session *s, const struct dest *d, uint16_t attr,
	       uint32_t mod, uint8_t data[IBP_SMP_DATA_SIZE])
{
	struct ibp_smp req, resp;
	uint8_t b[IBP_MAD_SIZE], r[IBP_MAD_SIZE];
	ibp_error err;
	if (d->lid)
		ibp_smp_init_lid(&req, IBP_METHOD_GET, attr, mod, ++s->tid, 0);
	else if (ibp_smp_init_dr(&req, IBP_METHOD_GET, attr, mod, d->path,
				 d->hops, ++s->tid, 0, &err) != IBP_OK)
		return -1;
	if (ibp_smp_encode(&req, b, sizeof(b), &err) != IBP_OK ||
	    (d->lid ? ibp_transport_smp_lid(s->t, d->lid, b, r, 100, &err)
		    : ibp_transport_smp(s->t, b, r, 100, &err)) != IBP_OK ||
	    ibp_smp_decode(&resp, r, sizeof(r), &err) != IBP_OK)
		return -1;
	if (resp.status != 0)
		return -1;
	memcpy(data, resp.data, IBP_SMP_DATA_SIZE);
	return 0;
}

/* The capacity smpquery prints for port of the node at lid: the
 * NodeInfo PartitionCap, or a switch external port's
 * PartitionEnforcementCap. */
static int query_cap(ibp_sim_session *s, const struct dest *lid, unsigned port,
		     unsigned *cap, ibp_error *err)
{
	uint8_t d[IBP_SMP_DATA_SIZE];
	if (get(s, lid, IBP_ATTR_NODE_INFO, 0, d) != 0)
		return ibp_error_set(err, IBP_EIO, "node info query failed");
	struct ibp_node_info ni;
	ibp_node_info_decode(&ni, d, sizeof(d), NULL);
	if (port > ni.num_ports)
		return ibp_error_set(err, IBP_ERANGE, "invalid port number");
	*cap = ni.partition_cap;
	if (ni.node_type == IBP_NODE_SWITCH && port != 0) {
		if (get(s, lid, IBP_ATTR_SWITCH_INFO, 0, d) != 0)
			return ibp_error_set(err, IBP_EIO,
					     "switch info failed");
		struct ibp_switch_info si;
		ibp_switch_info_decode(&si, d, sizeof(d), NULL);
		*cap = si.partition_enforcement_cap;
	}
	return IBP_OK;
}

int ibp_sim_session_smpquery_pkeys(ibp_sim_session *s, const char *addr,
				   unsigned port, FILE *out, ibp_error *err)
{
	return ibp_sim_session_smpquery_pkeys_ex(s, addr, IBP_SMPQUERY_ANY,
						 port, out, err);
}

int ibp_sim_session_smpquery_pkeys_ex(ibp_sim_session *s, const char *addr,
				      ibp_smpquery_addr how, unsigned port,
				      FILE *out, ibp_error *err)
{
	struct dest dst = {0};
	struct dest *lid = &dst;
	unsigned cap = 0;
	int rc;
	if (how == IBP_SMPQUERY_DR) {
		if ((rc = ibp_dr_path_parse(addr, dst.path, &dst.hops, err)))
			return rc;
	} else {
		size_t n;
		unsigned p;
		if (how == IBP_SMPQUERY_GUID &&
		    (addr[0] != '0' || (addr[1] != 'x' && addr[1] != 'X')))
			return ibp_error_set(err, IBP_EINVAL,
					     "-G wants a port GUID (0x...), "
					     "not \"%s\"",
					     addr);
		if ((rc = ibp_sim_session_port(s, addr, &n, &p, err)))
			return rc;
		dst.lid = ibp_fabric_port_lid(s->f, n, p);
	}
	rc = query_cap(s, lid, port, &cap, err);
	if (rc == IBP_EIO && how == IBP_SMPQUERY_DR)
		return ibp_error_set(err, IBP_ENOENT,
				     "no node answers at the end of the "
				     "directed route %s",
				     addr);
	if (rc != IBP_OK)
		return rc;
	/* What infiniband-diags' smpquery prints: rows of 8 entries, the
	 * last block rounded up to a row. */
	unsigned nb = (cap + 31) / 32;
	uint8_t d[IBP_SMP_DATA_SIZE];
	for (unsigned i = 0; i < nb; i++) {
		if (get(s, lid, IBP_ATTR_PKEY_TABLE, ibp_pkey_attr_mod(i, port),
			d) != 0)
			return ibp_error_set(err, IBP_EIO,
					     "pkey table query failed");
		uint16_t k[IBP_PKEY_BLOCK_SIZE];
		ibp_pkey_block_decode(k, d, sizeof(d), NULL);
		unsigned rows =
		    (i + 1 == nb) ? ((cap + 7 - i * 32) / 8) * 8 : 32;
		for (unsigned j = 0; j < rows; j += 8)
			simss_printf(out,
				     "%4u: 0x%04x 0x%04x 0x%04x 0x%04x 0x%04x "
				     "0x%04x 0x%04x 0x%04x\n",
				     i * 32 + j, k[j], k[j + 1], k[j + 2],
				     k[j + 3], k[j + 4], k[j + 5], k[j + 6],
				     k[j + 7]);
	}
	simss_printf(out, "%u pkeys capacity for this port\n", cap);
	return IBP_OK;
}

int ibp_sim_session_counters(ibp_sim_session *s, FILE *out, ibp_error *err)
{
	(void)err;
	ibp_sm_poll_traps(s->sm, NULL, NULL);
	simss_printf(out, "%-20s %-4s %-5s %15s %15s %23s %24s\n", "node",
		     "port", "LID", "P_KeyViolations", "M_KeyViolations",
		     "PortRcvConstraintErrors", "PortXmitConstraintErrors");
	for (size_t n = 0; n < ibp_fabric_node_count(s->f); n++) {
		bool sw = ibp_fabric_node_type(s->f, n) == IBP_NODE_SWITCH;
		for (unsigned p = sw ? 0 : 1;
		     p <= ibp_fabric_node_nports(s->f, n); p++) {
			size_t pn;
			unsigned pp;
			if (p != 0 &&
			    !ibp_fabric_port_peer(s->f, n, p, &pn, &pp))
				continue;
			const struct ibp_sim_port_info *pi =
			    ibp_sim_port_info(s->sim, n, p);
			const struct ibp_sim_port_counters *pc =
			    ibp_sim_port_counters(s->sim, n, p);
			simss_printf(
			    out, "%-20s %-4u %-5u %15u %15u %23llu %24llu\n",
			    ibp_fabric_node_desc(s->f, n), p,
			    ibp_fabric_port_lid(s->f, n, p),
			    pi->p_key_violations, pi->m_key_violations,
			    (unsigned long long)pc->rcv_constraint_errors,
			    (unsigned long long)pc->xmit_constraint_errors);
		}
	}
	simss_printf(
	    out,
	    "SM (%s): traps received %lu (257 Bad P_Key %lu, 259 "
	    "switch external port %lu); raised %lu, lost %lu\n",
	    ibp_fabric_node_desc(s->f, s->sm_node), ibp_sm_trap_count(s->sm, 0),
	    ibp_sm_trap_count(s->sm, 257), ibp_sm_trap_count(s->sm, 259),
	    ibp_sim_traps_raised(s->sim, 0), ibp_sim_traps_lost(s->sim));
	return IBP_OK;
}
