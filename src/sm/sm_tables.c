/*
 * sm_tables.c - reading the fabric's partition state (ibp_sm_read_tables):
 * every P_KeyTable the SM programs and the PortInfo partition enforcement
 * bits of switch ports, as one pipelined batch of Gets; and which ports
 * have a table to read or write at all (sm_has_table, sm_leaf_port).
 */
#include <stdlib.h>
#include <string.h>

#include "sm/sm_priv.h"
#include "ibpart/pkey.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

unsigned sm_port_capacity(const ibp_sm *sm, size_t n, unsigned p)
{
	return ibp_fabric_port_capacity(sm->fabric, n, p);
}

int sm_read_table(ibp_sm *sm, size_t n, unsigned p, ibp_pkey_table **out,
		  unsigned long *blocks, ibp_error *err)
{
	*out = NULL;
	unsigned cap = sm_port_capacity(sm, n, p);
	const struct dr_path *path = sm_node_path(sm, n, p);
	if (cap == 0 || !path)
		return ibp_error_set(err, IBP_ENOENT,
				     "port %u of %s has no table to read", p,
				     ibp_fabric_node_desc(sm->fabric, n));
	bool sw = ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
	ibp_pkey_table *t = ibp_pkey_table_new(cap);
	if (!t)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	unsigned nb = ibp_pkey_table_num_blocks(t);
	for (unsigned b = 0; b < nb; b++) {
		uint8_t d[IBP_SMP_DATA_SIZE];
		int rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE,
			       ibp_pkey_attr_mod(b, sw ? p : 0), NULL, d, err);
		if (rc != IBP_OK) {
			ibp_pkey_table_free(t);
			return rc;
		}
		uint16_t keys[IBP_PKEY_BLOCK_SIZE];
		rc = ibp_pkey_block_decode(keys, d, sizeof(d), err);
		for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE; i++)
			if (b * IBP_PKEY_BLOCK_SIZE + i >= cap)
				keys[i] = 0;
		if (rc == IBP_OK)
			rc = ibp_pkey_table_set_block(t, b, keys, err);
		if (rc != IBP_OK) {
			ibp_pkey_table_free(t);
			return rc;
		}
		if (blocks)
			(*blocks)++;
	}
	*out = t;
	return IBP_OK;
}

/* A switch port facing an end port, with an enforcement table: where
 * OpenSM mirrors the end port's table and turns enforcement on. */
bool sm_leaf_port(const ibp_sm *sm, size_t n, unsigned p)
{
	size_t pn;
	unsigned pp;
	return ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH &&
	       p > 0 && ibp_fabric_node_enforcement_cap(sm->fabric, n) > 0 &&
	       ibp_fabric_port_peer(sm->fabric, n, p, &pn, &pp) &&
	       ibp_fabric_is_end_port(sm->fabric, pn, pp) &&
	       sm_node_path(sm, n, p) != NULL;
}

/* A switch external port facing another switch, on a switch that
 * implements an enforcement bit: OpenSM clears its partition enforcement
 * when set (osm_pkey_mgr_process), so the SM reads its PortInfo too. */
bool sm_isl_port(const ibp_sm *sm, size_t n, unsigned p)
{
	size_t pn;
	unsigned pp;
	return ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH &&
	       p > 0 && n < sm->nodes_cap &&
	       (sm->nodes[n].enf_in_cap || sm->nodes[n].enf_out_cap) &&
	       ibp_fabric_port_peer(sm->fabric, n, p, &pn, &pp) &&
	       ibp_fabric_node_type(sm->fabric, pn) == IBP_NODE_SWITCH &&
	       sm_node_path(sm, n, p) != NULL;
}

/* The ports whose P_KeyTable the SM reads and writes: end ports, a
 * switch's port 0, and switch ports facing an end port (the only
 * external ports OpenSM programs).  An unlinked switch port, or one
 * between switches, is not one: a plan that wants a table there (a
 * topology file that says a host is plugged in where none is) meets an
 * unreadable port, not a table of 0xffff. */
bool sm_has_table(const ibp_sm *sm, size_t n, unsigned p)
{
	bool sw = ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
	if (!sw && p == 0)
		return false;
	if (sw && p > 0)
		return sm_leaf_port(sm, n, p);
	return sm_port_capacity(sm, n, p) > 0 && sm_node_path(sm, n, p) != NULL;
}

int ibp_sm_read_tables(ibp_sm *sm, ibp_tables **out, ibp_error *err)
{
	*out = NULL;
	int rc;
	if (!sm->fabric && (rc = ibp_sm_discover(sm, err)) != IBP_OK)
		return rc;
	ibp_tables *ts = ibp_tables_new(sm->fabric);
	if (!ts)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	/* Every block of every table, as one pipelined batch of Gets. */
	size_t ng = 0, cap = 0;
	struct sm_get *g = NULL;
	rc = IBP_OK;
	for (size_t n = 0; n < ibp_fabric_node_count(sm->fabric) && !rc; n++) {
		unsigned np = ibp_fabric_node_nports(sm->fabric, n);
		bool sw =
		    ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
		for (unsigned p = 0; p <= np && !rc; p++) {
			if (!sm_has_table(sm, n, p))
				continue;
			unsigned nb = (sm_port_capacity(sm, n, p) +
				       IBP_PKEY_BLOCK_SIZE - 1) /
				      IBP_PKEY_BLOCK_SIZE;
			for (unsigned b = 0; b < nb && !rc; b++)
				rc = sm_gets_add(
				    &g, &ng, &cap, sm_node_path(sm, n, p),
				    IBP_ATTR_PKEY_TABLE,
				    ibp_pkey_attr_mod(b, sw ? p : 0), err);
		}
	}
	/* and PortInfo of the leaf ports (switch ports facing an end
	 * port) and of the ports between switches that implement the bits:
	 * their partition enforcement bits */
	for (size_t n = 0; n < ibp_fabric_node_count(sm->fabric) && !rc; n++) {
		unsigned np = ibp_fabric_node_nports(sm->fabric, n);
		for (unsigned p = 1; p <= np && !rc; p++) {
			if (sm_leaf_port(sm, n, p) || sm_isl_port(sm, n, p))
				rc = sm_gets_add(&g, &ng, &cap,
						 sm_node_path(sm, n, p),
						 IBP_ATTR_PORT_INFO, p, err);
		}
	}
	if (!rc)
		rc = sm_dr_get_batch(sm, g, ng, err);
	/* The answers, in the order asked, into tables. */
	size_t k = 0;
	for (size_t n = 0; n < ibp_fabric_node_count(sm->fabric) && !rc; n++) {
		unsigned np = ibp_fabric_node_nports(sm->fabric, n);
		for (unsigned p = 0; p <= np && !rc; p++) {
			if (!sm_has_table(sm, n, p))
				continue;
			unsigned cap_p = sm_port_capacity(sm, n, p);
			ibp_pkey_table *t = ibp_pkey_table_new(cap_p);
			if (!t) {
				rc = ibp_error_set(err, IBP_ENOMEM,
						   "out of memory");
				break;
			}
			unsigned nb = ibp_pkey_table_num_blocks(t);
			for (unsigned b = 0; b < nb && !rc; b++) {
				uint16_t keys[IBP_PKEY_BLOCK_SIZE];
				rc = ibp_pkey_block_decode(
				    keys, g[k++].data, IBP_SMP_DATA_SIZE, err);
				for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE;
				     i++)
					if (b * IBP_PKEY_BLOCK_SIZE + i >=
					    cap_p)
						keys[i] = 0;
				if (!rc)
					rc = ibp_pkey_table_set_block(
					    t, b, keys, err);
			}
			if (rc) {
				ibp_pkey_table_free(t);
				break;
			}
			rc = ibp_tables_put(ts, n, p, t, err);
			if (rc) /* still ours */
				ibp_pkey_table_free(t);
		}
	}
	for (size_t n = 0; n < ibp_fabric_node_count(sm->fabric) && !rc; n++) {
		unsigned np = ibp_fabric_node_nports(sm->fabric, n);
		for (unsigned p = 1; p <= np && !rc; p++) {
			if (!sm_leaf_port(sm, n, p) && !sm_isl_port(sm, n, p))
				continue;
			struct ibp_port_info pi;
			rc = ibp_port_info_decode(&pi, g[k++].data,
						  IBP_SMP_DATA_SIZE, err);
			if (rc)
				break;
			rc = ibp_tables_set_enforcement(
			    ts, n, p, pi.partition_enforcement_inbound,
			    pi.partition_enforcement_outbound);
			if (rc)
				ibp_error_set(
				    err, rc,
				    "cannot keep the enforcement bits "
				    "of port %u of %s",
				    p, ibp_fabric_node_desc(sm->fabric, n));
		}
	}
	free(g);
	if (rc != IBP_OK) {
		ibp_tables_free(ts);
		return rc;
	}
	*out = ts;
	return IBP_OK;
}
