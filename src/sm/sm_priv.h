/*
 * sm_priv.h - the inside of the SM (include/ibpart/sys/sm.h), shared by the
 * files that implement it, one job each:
 *   sm.c          the handle, its options and counters, and the SMP
 *                 exchange (one at a time, or pipelined in batches)
 *   sm_discover.c discovery: the directed-route walk into an ibp_fabric
 *   sm_tables.c   reading every P_KeyTable and partition enforcement bit
 *   sm_push.c     writing P_KeyTables and enforcement, read back
 *   sm_report.c   the push report: its ports, and freeing it
 *   sm_traps.c    Bad P_Key traps (257, 259): counting and keeping them
 *   sm_guid_info.c the alias GUIDs: GUIDCap and GUIDInfo of every port
 *
 * Discovery records, for each node, a directed route to each of its ports
 * (struct sm_node); every later SMP to that node goes by that route, so
 * nothing depends on LIDs having been assigned.
 */
#ifndef IBPART_SM_PRIV_H
#define IBPART_SM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/diag.h"
#include "ibpart/sys/mad.h"
#include "ibpart/sys/sm.h"
#include "pkey/pkey_table_lib.h"

struct dr_path {
	uint8_t hops;
	uint8_t port[IBP_SMP_MAX_HOPS]; /* port to leave by at each hop */
};

struct sm_node {
	struct dr_path *paths; /* [0..nports]: a route arriving at that port;
				  for a switch [0] */
	bool *have_path;
	/* SwitchInfo InboundEnforcementCap / OutboundEnforcementCap (IBA
	 * vol. 1 14.2.5.4): which PortInfo enforcement bits the switch
	 * implements.  A switch that lacks them (ibsim's) keeps them 0
	 * whatever is written, so they are neither set nor checked. */
	bool enf_in_cap, enf_out_cap;
};

struct ibp_sm {
	ibp_transport *t;
	struct ibp_sm_options o;
	ibp_fabric *fabric;
	struct sm_node *nodes;
	size_t nodes_cap;
	uint64_t tid;
	unsigned long smps, timeouts, retries;
	unsigned long traps_257, traps_259, traps_other;
	struct ibp_sm_trap *kept; /* ring of IBP_SM_TRAPS_KEPT, on demand */
	size_t kept_head, kept_len;
	/* discovery: live switch ports at the directed-route limit whose far
	 * side was not reached (node << 8 | port), checked at the end */
	uint32_t *beyond;
	size_t nbeyond, beyond_cap;
	/* discovery's findings (ibp_sm_discovery_findings): the nodes left
	 * out because their NodeInfo reports a GUID of 0 */
	ibp_diags *found;
};

/* A directed-route Get of a batch (sm_dr_get_batch): in path, attr,
 * mod; out the attribute data. */
struct sm_get {
	const struct dr_path *path;
	uint16_t attr;
	uint32_t mod;
	uint8_t data[IBP_SMP_DATA_SIZE];
};

/* One request/response, directed route along path (dlid 0) or
 * LID-routed to dlid, with retries (same TID, a fresh send); `out` gets
 * the response's attribute data. */
int sm_smp(ibp_sm *sm, const struct dr_path *path, uint16_t dlid,
	   uint8_t method, uint16_t attr, uint32_t mod, const uint8_t *data,
	   uint8_t out[IBP_SMP_DATA_SIZE], ibp_error *err);
/* sm_smp() by directed route. */
int sm_dr(ibp_sm *sm, const struct dr_path *path, uint8_t method, uint16_t attr,
	  uint32_t mod, const uint8_t *data, uint8_t out[IBP_SMP_DATA_SIZE],
	  ibp_error *err);
/* Append a Get to the growing list *g (*n used, *cap allocated). */
int sm_gets_add(struct sm_get **g, size_t *n, size_t *cap,
		const struct dr_path *path, uint16_t attr, uint32_t mod,
		ibp_error *err);
/* n directed-route Gets, max_wire_smps outstanding at once, each retried
 * like sm_dr(); the answers in g[i].data. */
int sm_dr_get_batch(ibp_sm *sm, struct sm_get *g, size_t n, ibp_error *err);
/* A port whose GUIDInfo the alias reading reads (sm_guid_info.c): each
 * CA or router port reached, each switch's port 0. */
struct sm_gi_port {
	size_t node;
	unsigned port;
	unsigned cap; /* PortInfo GUIDCap */
	size_t first; /* its first GUIDInfo Get in the second batch */
};
/* The SA's GUIDInfoRecords of the np ports (sm_sa_guid_info.c) added to
 * m where it lacks the alias; counts into r. */
int sm_sa_guid_info(ibp_sm *sm, uint16_t sa_lid, uint64_t sa_key,
		    const struct sm_gi_port *ports, size_t np, ibp_alias_map *m,
		    struct ibp_sm_alias_read *r, ibp_error *err);

/* Forget the routes of the last discovery. */
void sm_free_nodes(ibp_sm *sm);

/* The route to reach node n (any port), and to reach port `port` of it
 * (a switch: any; a CA: a route arriving there); NULL if none. */
const struct dr_path *sm_node_path(const ibp_sm *sm, size_t n, unsigned port);

/* Entries of the P_KeyTable of port p of node n. */
unsigned sm_port_capacity(const ibp_sm *sm, size_t n, unsigned p);
/* Read the P_KeyTable of (n, p), block by block; *blocks counts them. */
int sm_read_table(ibp_sm *sm, size_t n, unsigned p, ibp_pkey_table **out,
		  unsigned long *blocks, ibp_error *err);
/* A switch port facing an end port, on a switch with an enforcement
 * table (OpenSM's leaf port). */
bool sm_leaf_port(const ibp_sm *sm, size_t n, unsigned p);
/* A switch port facing another switch, on a switch that implements an
 * enforcement bit. */
bool sm_isl_port(const ibp_sm *sm, size_t n, unsigned p);
/* A port whose P_KeyTable the SM reads and writes. */
bool sm_has_table(const ibp_sm *sm, size_t n, unsigned p);

/* Append *p to the array *arr of *len entries: IBP_OK or IBP_ENOMEM
 * (the array unchanged). */
int sm_report_add_port(struct ibp_sm_port **arr, size_t *len,
		       const struct ibp_sm_port *p);
/* A report entry naming port p of node n of f, nothing else set. */
void sm_port_describe(const ibp_fabric *f, size_t n, unsigned p,
		      struct ibp_sm_port *out);

#endif
