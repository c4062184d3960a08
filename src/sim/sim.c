/*
 * sim.c - the simulated fabric's port state and data plane (see
 * include/ibpart/sys/sim.h): P_KeyTables and PortInfo per port, shortest-path
 * forwarding through the switches, switch partition enforcement
 * (IBA vol. 1, 10.9.4), the end port's receive check (10.9.3), violation
 * counters and Traps 257/259 queued for the SM.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "ibpart/sys/sim.h"
#include "pkey/tables_lib.h"
#include "sim/sim_priv.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

struct ibp_sim {
	const ibp_fabric *f;
	size_t nnodes;
	struct sim_port **ports; /* [node][0..nports] */
	ibp_tables *tables;
	/* LID -> end port */
	size_t lid_cap;
	size_t *lid_node;
	unsigned *lid_port;
	/* SM port */
	size_t sm_node;
	unsigned sm_port;
	bool have_sm;
	/* routing: distance of every node to the last destination */
	unsigned *dist;
	unsigned *next_port; /* per node: the port toward the destination */
	size_t *bfsq;
	size_t route_node;
	unsigned route_port;
	bool route_valid;
	/* traps */
	struct ibp_sim_trap *traps;
	size_t trap_head, trap_len;
	unsigned long traps_257, traps_259, traps_lost;
	/* switch SMAs implement no PortInfo enforcement bits (ibsim's) */
	bool no_enforcement_bits;
	/* PMAs without the 64-bit error counters (ibsim's) */
	bool no_pma_ext_errors;
};

#define DIST_INF ((unsigned)-1)

static void set_master_sm_lid(ibp_sim *s)
{
	uint16_t lid = 0;
	if (s->have_sm)
		lid = s->ports[s->sm_node][s->sm_port].pi.lid;
	for (size_t n = 0; n < s->nnodes; n++) {
		unsigned np = ibp_fabric_node_nports(s->f, n);
		for (unsigned p = 0; p <= np; p++)
			s->ports[n][p].pi.master_sm_lid = lid;
	}
}

void ibp_sim_lids_changed(ibp_sim *s)
{
	size_t maxlid = 0;
	for (size_t n = 0; n < s->nnodes; n++) {
		unsigned np = ibp_fabric_node_nports(s->f, n);
		for (unsigned p = 0; p <= np; p++)
			if (s->ports[n][p].pi.lid > maxlid)
				maxlid = s->ports[n][p].pi.lid;
	}
	if (maxlid + 1 > s->lid_cap) {
		size_t cap = maxlid + 1;
		size_t *ln = realloc(s->lid_node, cap * sizeof(*ln));
		if (ln)
			s->lid_node = ln;
		unsigned *lp = realloc(s->lid_port, cap * sizeof(*lp));
		if (lp)
			s->lid_port = lp;
		if (ln && lp)
			s->lid_cap = cap;
	}
	for (size_t i = 0; i < s->lid_cap; i++)
		s->lid_node[i] = (size_t)-1;
	for (size_t n = 0; n < s->nnodes; n++) {
		unsigned np = ibp_fabric_node_nports(s->f, n);
		for (unsigned p = 0; p <= np; p++) {
			if (!ibp_fabric_is_end_port(s->f, n, p))
				continue;
			uint16_t lid = s->ports[n][p].pi.lid;
			if (lid == 0 || lid >= s->lid_cap)
				continue;
			unsigned span = 1u << s->ports[n][p].pi.lmc;
			for (unsigned k = 0; k < span && lid + k < s->lid_cap;
			     k++) {
				s->lid_node[lid + k] = n;
				s->lid_port[lid + k] = p;
			}
		}
	}
	if (s->have_sm)
		set_master_sm_lid(s);
}

int ibp_sim_new(const ibp_fabric *f, ibp_sim **out, ibp_error *err)
{
	*out = NULL;
	ibp_sim *s = calloc(1, sizeof(*s));
	if (!s)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	s->f = f;
	s->nnodes = ibp_fabric_node_count(f);
	s->ports = calloc(s->nnodes ? s->nnodes : 1, sizeof(*s->ports));
	s->tables = ibp_tables_new(f);
	s->dist = calloc(s->nnodes ? s->nnodes : 1, sizeof(*s->dist));
	s->next_port = calloc(s->nnodes ? s->nnodes : 1, sizeof(*s->next_port));
	s->bfsq = calloc(s->nnodes ? s->nnodes : 1, sizeof(*s->bfsq));
	s->traps = calloc(IBP_SIM_TRAP_QUEUE_MAX, sizeof(*s->traps));
	if (!s->ports || !s->tables || !s->dist || !s->next_port || !s->bfsq ||
	    !s->traps)
		goto nomem;
	for (size_t n = 0; n < s->nnodes; n++) {
		unsigned np = ibp_fabric_node_nports(f, n);
		bool sw = ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH;
		s->ports[n] = calloc(np + 1u, sizeof(**s->ports));
		if (!s->ports[n])
			goto nomem;
		for (unsigned p = 0; p <= np; p++) {
			struct ibp_sim_port_info *pi = &s->ports[n][p].pi;
			if (p == 0 && !sw)
				continue; /* a CA has no port 0 */
			size_t pn;
			unsigned pp;
			bool linked = ibp_fabric_port_peer(f, n, p, &pn, &pp);
			pi->port_state = (linked || p == 0)
					     ? IBP_SIM_PORT_ACTIVE
					     : IBP_SIM_PORT_DOWN;
			pi->lid = ibp_fabric_port_lid(f, n, sw ? 0 : p);
			if (ibp_fabric_port_capacity(f, n, p) == 0)
				continue;
			ibp_pkey_table *t =
			    ibp_tables_get_or_create(s->tables, n, p);
			if (!t || ibp_pkey_table_set(
				      t, 0, IBP_PKEY_DEFAULT_FULL, NULL))
				goto nomem;
		}
	}
	size_t smn;
	unsigned smp;
	if (ibp_fabric_default_sm_port(f, &smn, &smp) == IBP_OK) {
		s->have_sm = true;
		s->sm_node = smn;
		s->sm_port = smp;
		s->ports[smn][smp].pi.capability_mask |= 0x2; /* IsSM */
	}
	ibp_sim_lids_changed(s);
	if (s->lid_cap == 0) {
		s->lid_node = calloc(1, sizeof(*s->lid_node));
		s->lid_port = calloc(1, sizeof(*s->lid_port));
		if (!s->lid_node || !s->lid_port)
			goto nomem;
		s->lid_node[0] = (size_t)-1;
		s->lid_cap = 1;
	}
	*out = s;
	return IBP_OK;
nomem:
	ibp_sim_free(s);
	return ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

void ibp_sim_free(ibp_sim *s)
{
	if (!s)
		return;
	if (s->ports)
		for (size_t n = 0; n < s->nnodes; n++) {
			unsigned np = ibp_fabric_node_nports(s->f, n);
			for (unsigned p = 0; s->ports[n] && p <= np; p++) {
				free(s->ports[n][p].guids);
				free(s->ports[n][p].vf_pkey_map);
			}
			free(s->ports[n]);
		}
	free(s->ports);
	ibp_tables_free(s->tables);
	free(s->lid_node);
	free(s->lid_port);
	free(s->dist);
	free(s->next_port);
	free(s->bfsq);
	free(s->traps);
	free(s);
}

void ibp_sim_set_enforcement_bits(ibp_sim *s, bool implemented)
{
	s->no_enforcement_bits = !implemented;
}

bool ibp_sim_enforcement_bits(const ibp_sim *s)
{
	return !s->no_enforcement_bits;
}

const ibp_fabric *ibp_sim_fabric(const ibp_sim *s)
{
	return s->f;
}

ibp_tables *ibp_sim_tables(ibp_sim *s)
{
	return s->tables;
}

static bool port_exists(const ibp_sim *s, size_t node, unsigned port)
{
	if (node >= s->nnodes || port > ibp_fabric_node_nports(s->f, node))
		return false;
	return port != 0 || ibp_fabric_node_type(s->f, node) == IBP_NODE_SWITCH;
}

struct sim_port *sim_port_at(ibp_sim *s, size_t node, unsigned port)
{
	return port_exists(s, node, port) ? &s->ports[node][port] : NULL;
}

int ibp_sim_set_node_info_node_guid(ibp_sim *s, size_t node, uint64_t guid,
				    ibp_error *err)
{
	if (node >= s->nnodes)
		return ibp_error_set(err, IBP_ERANGE, "no node %zu", node);
	s->ports[node][0].ni_node_guid_set = true;
	s->ports[node][0].ni_node_guid = guid;
	return IBP_OK;
}

int ibp_sim_set_node_info_port_guid(ibp_sim *s, size_t node, unsigned port,
				    uint64_t guid, ibp_error *err)
{
	if (!port_exists(s, node, port))
		return ibp_error_set(err, IBP_ERANGE, "no port %u on node %zu",
				     port, node);
	if (ibp_fabric_node_type(s->f, node) == IBP_NODE_SWITCH)
		port = 0; /* a switch's NodeInfo gives port 0's */
	s->ports[node][port].ni_port_guid_set = true;
	s->ports[node][port].ni_port_guid = guid;
	return IBP_OK;
}

uint64_t ibp_sim_node_info_node_guid(const ibp_sim *s, size_t node)
{
	if (node >= s->nnodes)
		return 0;
	const struct sim_port *p0 = &s->ports[node][0];
	return p0->ni_node_guid_set ? p0->ni_node_guid
				    : ibp_fabric_node_guid(s->f, node);
}

uint64_t ibp_sim_node_info_port_guid(const ibp_sim *s, size_t node,
				     unsigned port)
{
	if (!port_exists(s, node, port))
		return 0;
	if (ibp_fabric_node_type(s->f, node) == IBP_NODE_SWITCH)
		port = 0;
	const struct sim_port *sp = &s->ports[node][port];
	return sp->ni_port_guid_set ? sp->ni_port_guid
				    : ibp_fabric_port_guid(s->f, node, port);
}

struct ibp_sim_port_info *ibp_sim_port_info(ibp_sim *s, size_t node,
					    unsigned port)
{
	if (!port_exists(s, node, port))
		return NULL;
	return &s->ports[node][port].pi;
}

const struct ibp_sim_port_counters *
ibp_sim_port_counters(const ibp_sim *s, size_t node, unsigned port)
{
	if (!port_exists(s, node, port))
		return NULL;
	return &s->ports[node][port].pc;
}

struct ibp_sim_port_counters *ibp_sim_port_counters_mut(ibp_sim *s, size_t node,
							unsigned port)
{
	if (!port_exists(s, node, port))
		return NULL;
	return &s->ports[node][port].pc;
}

void ibp_sim_set_pma_ext_errors(ibp_sim *s, bool supported)
{
	s->no_pma_ext_errors = !supported;
}

bool ibp_sim_pma_ext_errors(const ibp_sim *s)
{
	return !s->no_pma_ext_errors;
}

/* A constraint error: the 64-bit count and the 8-bit PortCounters
 * register, which stops at all ones (IBA 16.1.3.5). */
static void count_constraint(uint64_t *wide, uint8_t *narrow)
{
	(*wide)++;
	if (*narrow < 0xff)
		(*narrow)++;
}

int ibp_sim_find_lid(const ibp_sim *s, uint16_t lid, size_t *node,
		     unsigned *port)
{
	if (lid == 0 || lid >= s->lid_cap || s->lid_node[lid] == (size_t)-1)
		return IBP_ENOENT;
	*node = s->lid_node[lid];
	*port = s->lid_port[lid];
	return IBP_OK;
}

int ibp_sim_set_sm_port(ibp_sim *s, size_t node, unsigned port, ibp_error *err)
{
	if (!port_exists(s, node, port) ||
	    !ibp_fabric_is_end_port(s->f, node, port))
		return ibp_error_set(err, IBP_EINVAL,
				     "the SM port must be an end port");
	if (s->have_sm)
		s->ports[s->sm_node][s->sm_port].pi.capability_mask &= ~0x2u;
	s->have_sm = true;
	s->sm_node = node;
	s->sm_port = port;
	s->ports[node][port].pi.capability_mask |= 0x2;
	set_master_sm_lid(s);
	return IBP_OK;
}

void ibp_sim_sm_port(const ibp_sim *s, size_t *node, unsigned *port)
{
	*node = s->sm_node;
	*port = s->sm_port;
}

/* ---- traps ---- */

static void raise_trap(ibp_sim *s, const struct ibp_sim_trap *t)
{
	if (t->trap_number == IBP_SIM_TRAP_257)
		s->traps_257++;
	else
		s->traps_259++;
	if (!s->have_sm || s->trap_len == IBP_SIM_TRAP_QUEUE_MAX) {
		s->traps_lost++;
		return;
	}
	size_t i = (s->trap_head + s->trap_len) % IBP_SIM_TRAP_QUEUE_MAX;
	s->traps[i] = *t;
	s->trap_len++;
}

int ibp_sim_trap_pop(ibp_sim *s, struct ibp_sim_trap *out)
{
	if (s->trap_len == 0)
		return IBP_ENOENT;
	*out = s->traps[s->trap_head];
	s->trap_head = (s->trap_head + 1) % IBP_SIM_TRAP_QUEUE_MAX;
	s->trap_len--;
	return IBP_OK;
}

size_t ibp_sim_trap_pending(const ibp_sim *s)
{
	return s->trap_len;
}

unsigned long ibp_sim_traps_raised(const ibp_sim *s, unsigned trap_number)
{
	if (trap_number == IBP_SIM_TRAP_257)
		return s->traps_257;
	if (trap_number == IBP_SIM_TRAP_259)
		return s->traps_259;
	return s->traps_257 + s->traps_259;
}

unsigned long ibp_sim_traps_lost(const ibp_sim *s)
{
	return s->traps_lost;
}

/* ---- routing ---- */

/* Distance (links) of every node to (dst, dport), through switches only
 * (a CA does not forward), and the port each node forwards by: the one
 * toward the node it was first reached from in the breadth-first search
 * (a deterministic shortest path).  Cached for the last destination. */
static void route_to(ibp_sim *s, size_t dst, unsigned dport)
{
	if (s->route_valid && s->route_node == dst && s->route_port == dport)
		return;
	for (size_t n = 0; n < s->nnodes; n++)
		s->dist[n] = DIST_INF;
	size_t qh = 0, qt = 0;
	s->dist[dst] = 0;
	if (ibp_fabric_node_type(s->f, dst) == IBP_NODE_SWITCH) {
		s->bfsq[qt++] = dst;
	} else {
		size_t pn;
		unsigned pp;
		if (ibp_fabric_port_peer(s->f, dst, dport, &pn, &pp) &&
		    s->ports[dst][dport].pi.port_state == IBP_SIM_PORT_ACTIVE) {
			s->dist[pn] = 1;
			s->next_port[pn] = pp;
			if (ibp_fabric_node_type(s->f, pn) == IBP_NODE_SWITCH)
				s->bfsq[qt++] = pn;
		}
	}
	while (qh < qt) {
		size_t u = s->bfsq[qh++];
		unsigned np = ibp_fabric_node_nports(s->f, u);
		for (unsigned p = 1; p <= np; p++) {
			size_t v;
			unsigned vp;
			if (!ibp_fabric_port_peer(s->f, u, p, &v, &vp) ||
			    s->dist[v] != DIST_INF)
				continue;
			s->dist[v] = s->dist[u] + 1;
			s->next_port[v] = vp;
			if (ibp_fabric_node_type(s->f, v) == IBP_NODE_SWITCH)
				s->bfsq[qt++] = v;
		}
	}
	s->route_node = dst;
	s->route_port = dport;
	s->route_valid = true;
}

static uint16_t end_lid(const ibp_sim *s, size_t n, unsigned p)
{
	if (ibp_fabric_node_type(s->f, n) == IBP_NODE_SWITCH)
		p = 0;
	return s->ports[n][p].pi.lid;
}

/* Switch partition enforcement compares the partition only: the switch
 * port is no member, so the membership bit plays no part (IBA 10.9.4);
 * a limited-only host must still get its packets past its leaf port. */
static bool check_port(const ibp_sim *s, size_t n, unsigned p, uint16_t pkey)
{
	const ibp_pkey_table *t = ibp_tables_get(s->tables, n, p);
	return t && ibp_pkey_is_valid(pkey) &&
	       ibp_pkey_table_find_base(t, pkey) >= 0;
}

static void switch_violation(ibp_sim *s, const struct ibp_sim_packet *pk,
			     uint16_t pkey, size_t sw, unsigned port)
{
	struct ibp_sim_trap t = {
	    .trap_number = IBP_SIM_TRAP_259,
	    .issuer_lid = end_lid(s, sw, 0),
	    .lid1 = end_lid(s, pk->src_node, pk->src_port),
	    .lid2 = end_lid(s, pk->dst_node, pk->dst_port),
	    .pkey = pkey,
	    .sl = pk->sl,
	    .qp1 = pk->src_qp,
	    .qp2 = pk->dest_qp,
	    .sw_lid = end_lid(s, sw, 0),
	    .sw_port = (uint8_t)port,
	    .issuer_guid = ibp_fabric_port_guid(s->f, sw, 0),
	};
	raise_trap(s, &t);
}

int ibp_sim_send(ibp_sim *s, const struct ibp_sim_packet *pk,
		 struct ibp_sim_result *r, ibp_error *err)
{
	memset(r, 0, sizeof(*r));
	r->match_index = -1;
	if (!port_exists(s, pk->src_node, pk->src_port) ||
	    !ibp_fabric_is_end_port(s->f, pk->src_node, pk->src_port))
		return ibp_error_set(err, IBP_EINVAL,
				     "packet source is not an end port");
	if (!port_exists(s, pk->dst_node, pk->dst_port) ||
	    !ibp_fabric_is_end_port(s->f, pk->dst_node, pk->dst_port))
		return ibp_error_set(err, IBP_EINVAL,
				     "packet destination is not an end port");

	/* The sender's HCA puts its own table's entry in the BTH (10.9.2);
	 * SMPs always carry the default P_Key and are never checked. */
	uint16_t pkey;
	bool smp = pk->dest_qp == IBP_QP0;
	if (smp) {
		pkey = IBP_PKEY_DEFAULT_FULL;
	} else {
		const ibp_pkey_table *st =
		    ibp_tables_get(s->tables, pk->src_node, pk->src_port);
		/* A VF's index is one of the physical table's, through the
		 * host's mapping (sim_guid_info.c). */
		uint16_t idx = pk->pkey_index;
		if (pk->src_vf && ibp_sim_vf_pkey_index(
				      s, pk->src_node, pk->src_port, pk->src_vf,
				      pk->pkey_index, &idx) != IBP_OK)
			st = NULL;
		pkey = st ? ibp_pkey_table_get(st, idx) : 0;
		if (!ibp_pkey_is_valid(pkey)) {
			r->verdict = IBP_SIM_DROP_SEND_PKEY;
			r->pkey = pkey;
			r->drop_node = pk->src_node;
			r->drop_port = pk->src_port;
			return IBP_OK;
		}
	}
	r->pkey = pkey;
	s->ports[pk->src_node][pk->src_port].pc.xmit_packets++;

	route_to(s, pk->dst_node, pk->dst_port);
	size_t cur = pk->src_node;
	unsigned in_port = 0; /* 0: the packet starts here */
	if (ibp_fabric_node_type(s->f, cur) != IBP_NODE_SWITCH) {
		size_t pn;
		unsigned pp;
		if (cur == pk->dst_node && pk->src_port == pk->dst_port)
			goto arrive; /* loopback */
		if (!ibp_fabric_port_peer(s->f, cur, pk->src_port, &pn, &pp) ||
		    s->dist[pn] == DIST_INF)
			goto noroute;
		cur = pn;
		in_port = pp;
		r->hops++;
	}
	while (ibp_fabric_node_type(s->f, cur) == IBP_NODE_SWITCH) {
		struct sim_port *sp = s->ports[cur];
		if (in_port != 0 && !smp && sp[in_port].pi.part_enforce_in &&
		    !check_port(s, cur, in_port, pkey)) {
			count_constraint(
			    &sp[in_port].pc.rcv_constraint_errors,
			    &sp[in_port].pc.pc_rcv_constraint_errors);
			switch_violation(s, pk, pkey, cur, in_port);
			r->verdict = IBP_SIM_DROP_SWITCH_IN;
			r->drop_node = cur;
			r->drop_port = in_port;
			return IBP_OK;
		}
		if (cur == pk->dst_node)
			goto arrive; /* the switch's own port 0 */
		unsigned out = s->dist[cur] == DIST_INF ? 0 : s->next_port[cur];
		size_t next = 0;
		unsigned next_in = 0;
		if (out != 0 &&
		    !ibp_fabric_port_peer(s->f, cur, out, &next, &next_in))
			out = 0;
		if (out == 0)
			goto noroute;
		if (!smp && sp[out].pi.part_enforce_out &&
		    !check_port(s, cur, out, pkey)) {
			count_constraint(&sp[out].pc.xmit_constraint_errors,
					 &sp[out].pc.pc_xmit_constraint_errors);
			switch_violation(s, pk, pkey, cur, out);
			r->verdict = IBP_SIM_DROP_SWITCH_OUT;
			r->drop_node = cur;
			r->drop_port = out;
			return IBP_OK;
		}
		cur = next;
		in_port = next_in;
		r->hops++;
	}
	if (cur != pk->dst_node || in_port != pk->dst_port)
		goto noroute;
arrive:;
	struct sim_port *dp = &s->ports[pk->dst_node][pk->dst_port];
	if (!smp) {
		const ibp_pkey_table *dt =
		    ibp_tables_get(s->tables, pk->dst_node, pk->dst_port);
		int idx = pk->dst_vf ? ibp_sim_vf_pkey_match(s, pk->dst_node,
							     pk->dst_port,
							     pk->dst_vf, pkey)
			  : dt	     ? ibp_pkey_table_match(dt, pkey)
				     : -1;
		if (idx < 0) {
			if (dp->pi.p_key_violations < 0xffff)
				dp->pi.p_key_violations++;
			struct ibp_sim_trap t = {
			    .trap_number = IBP_SIM_TRAP_257,
			    .issuer_lid =
				end_lid(s, pk->dst_node, pk->dst_port),
			    .lid1 = end_lid(s, pk->src_node, pk->src_port),
			    .lid2 = end_lid(s, pk->dst_node, pk->dst_port),
			    .pkey = pkey,
			    .sl = pk->sl,
			    .qp1 = pk->src_qp,
			    .qp2 = pk->dest_qp,
			    .issuer_guid = ibp_fabric_port_guid(
				s->f, pk->dst_node, pk->dst_port),
			};
			raise_trap(s, &t);
			r->verdict = IBP_SIM_DROP_RECV_PKEY;
			r->drop_node = pk->dst_node;
			r->drop_port = pk->dst_port;
			return IBP_OK;
		}
		r->match_index = idx;
	}
	dp->pc.rcv_packets++;
	r->verdict = IBP_SIM_DELIVERED;
	return IBP_OK;
noroute:
	r->verdict = IBP_SIM_DROP_NO_ROUTE;
	r->drop_node = cur;
	r->drop_port = in_port;
	return IBP_OK;
}

const char *ibp_sim_verdict_str(ibp_sim_verdict v)
{
	switch (v) {
	case IBP_SIM_DELIVERED:
		return "delivered";
	case IBP_SIM_DROP_SEND_PKEY:
		return "not sent: no valid P_Key at that index";
	case IBP_SIM_DROP_NO_ROUTE:
		return "dropped: no route";
	case IBP_SIM_DROP_SWITCH_IN:
		return "dropped by switch inbound partition enforcement";
	case IBP_SIM_DROP_SWITCH_OUT:
		return "dropped by switch outbound partition enforcement";
	case IBP_SIM_DROP_RECV_PKEY:
		return "dropped by the receiver's P_Key check";
	}
	return "?";
}
