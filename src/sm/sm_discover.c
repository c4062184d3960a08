/*
 * sm_discover.c - discovery (ibp_sm_discover): a breadth-first walk by
 * directed route from the local port, NodeInfo across every live port,
 * NodeDescription and SwitchInfo of each node new to the walk, into an
 * ibp_fabric; each node's route kept for the SMPs that follow
 * (sm_priv.h).  A switch's ports go pipelined, max_wire_smps deep.
 */
#include <stdlib.h>
#include <string.h>

#include "sm/sm_priv.h"
#include "topo/topo_lib.h"

static int grow_nodes(ibp_sm *sm, size_t n, unsigned nports)
{
	if (n >= sm->nodes_cap) {
		size_t cap = sm->nodes_cap ? sm->nodes_cap * 2 : 64;
		while (cap <= n)
			cap *= 2;
		struct sm_node *nn = realloc(sm->nodes, cap * sizeof(*nn));
		if (!nn)
			return IBP_ENOMEM;
		memset(nn + sm->nodes_cap, 0,
		       (cap - sm->nodes_cap) * sizeof(*nn));
		sm->nodes = nn;
		sm->nodes_cap = cap;
	}
	if (!sm->nodes[n].paths) {
		sm->nodes[n].paths =
		    calloc(nports + 1u, sizeof(struct dr_path));
		sm->nodes[n].have_path = calloc(nports + 1u, sizeof(bool));
		if (!sm->nodes[n].paths || !sm->nodes[n].have_path)
			return IBP_ENOMEM;
	}
	return IBP_OK;
}

static void set_path(ibp_sm *sm, size_t n, unsigned port,
		     const struct dr_path *p)
{
	if (!sm->nodes[n].have_path[port]) {
		sm->nodes[n].paths[port] = *p;
		sm->nodes[n].have_path[port] = true;
	}
}

/* The route to reach node n (any port), and to reach port `port` of it
 * (a switch: any; a CA: a route arriving there). */
const struct dr_path *sm_node_path(const ibp_sm *sm, size_t n, unsigned port)
{
	const struct sm_node *sn = &sm->nodes[n];
	if (ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH)
		return &sn->paths[0];
	if (port <= ibp_fabric_node_nports(sm->fabric, n) &&
	    sn->have_path[port])
		return &sn->paths[port];
	return NULL;
}

/* Query a node just reached by `path` and add it (or find it). */
/* What discovery learns of one node at the end of a directed route:
 * NodeInfo, and for a node not seen before its NodeDescription and, for
 * a switch, SwitchInfo. */
struct sm_seen {
	struct ibp_node_info ni;
	bool have_desc;
	char desc[IBP_NODE_DESC_SIZE + 1];
	struct ibp_switch_info si;
	bool have_pi; /* the PortInfo below was prefetched */
	struct ibp_port_info pi;
};

/* Record what a port reports of itself (its LID, its link's width and
 * speed) in the fabric, for the topology file discover writes. */
static void note_link(ibp_sm *sm, size_t n, unsigned port,
		      const struct ibp_port_info *pi)
{
	ibp_port_link l = {.lid = pi->lid,
			   .lmc = pi->lmc,
			   .width_active = pi->link_width_active,
			   .speed_active = pi->link_speed_active,
			   .speed_ext_active = pi->link_speed_ext_active};
	if (port != 0 && ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH)
		l.lid = l.lmc = 0; /* external ports have no LID (14.2.5.6) */
	ibp_fabric_set_port_link(sm->fabric, n, port, &l);
}

/* The PortInfo of the port a route reached (s->ni): a CA's or router's
 * own port, a switch's port 0; fetched unless prefetched. */
static int seen_port_info(ibp_sm *sm, const struct dr_path *path,
			  struct sm_seen *s, ibp_error *err)
{
	if (s->have_pi)
		return IBP_OK;
	uint8_t d[IBP_SMP_DATA_SIZE];
	int rc =
	    sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_PORT_INFO,
		  s->ni.node_type == IBP_NODE_SWITCH ? 0 : s->ni.local_port_num,
		  NULL, d, err);
	if (rc != IBP_OK)
		return rc;
	ibp_port_info_decode(&s->pi, d, sizeof(d), NULL);
	s->have_pi = true;
	return IBP_OK;
}

/* Record a node reached by path (as its NodeInfo says) in the fabric:
 * a new node (with its description and SwitchInfo, fetched here unless
 * prefetched), or one more port of a known one.  *in_port: the port the
 * route arrived by. */
static int visit_node(ibp_sm *sm, const struct dr_path *path, struct sm_seen *s,
		      size_t *idx, unsigned *in_port, bool *is_new,
		      ibp_error *err)
{
	const struct ibp_node_info *ni = &s->ni;
	uint8_t d[IBP_SMP_DATA_SIZE];
	int rc;
	*in_port = ni->local_port_num;
	*is_new = false;
	if (ibp_fabric_find_node_guid(sm->fabric, ni->node_guid, idx) ==
	    IBP_OK) {
		if (ni->node_type != IBP_NODE_SWITCH && *in_port >= 1 &&
		    *in_port <= ibp_fabric_node_nports(sm->fabric, *idx)) {
			ibp_fabric_set_port_guid(sm->fabric, *idx, *in_port,
						 ni->port_guid, NULL);
			set_path(sm, *idx, *in_port, path);
			rc = seen_port_info(sm, path, s, err);
			if (rc != IBP_OK)
				return rc;
			note_link(sm, *idx, *in_port, &s->pi);
		}
		return IBP_OK;
	}
	if (!s->have_desc) {
		rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_NODE_DESC, 0,
			   NULL, d, err);
		if (rc != IBP_OK)
			return rc;
		ibp_node_desc_decode(s->desc, d, sizeof(d), NULL);
		if (ni->node_type == IBP_NODE_SWITCH) {
			rc = sm_dr(sm, path, IBP_METHOD_GET,
				   IBP_ATTR_SWITCH_INFO, 0, NULL, d, err);
			if (rc != IBP_OK)
				return rc;
			ibp_switch_info_decode(&s->si, d, sizeof(d), NULL);
		}
		s->have_desc = true;
	}
	rc = seen_port_info(sm, path, s, err);
	if (rc != IBP_OK)
		return rc;
	rc = ibp_fabric_add_node(sm->fabric, (ibp_node_type)ni->node_type,
				 ni->node_guid, ni->num_ports, s->desc, idx,
				 err);
	if (rc != IBP_OK)
		return rc;
	*is_new = true;
	if (grow_nodes(sm, *idx, ni->num_ports) != IBP_OK)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_fabric_set_sysimg_guid(sm->fabric, *idx, ni->sys_image_guid);
	ibp_fabric_set_partition_cap(sm->fabric, *idx, ni->partition_cap);
	if (ni->node_type == IBP_NODE_SWITCH) {
		ibp_fabric_set_enforcement_cap(sm->fabric, *idx,
					       s->si.partition_enforcement_cap);
		ibp_fabric_set_fdb_caps(sm->fabric, *idx, s->si.linear_fdb_cap,
					s->si.mcast_fdb_cap);
		sm->nodes[*idx].enf_in_cap = s->si.inbound_enforcement_cap;
		sm->nodes[*idx].enf_out_cap = s->si.outbound_enforcement_cap;
		set_path(sm, *idx, 0, path);
		note_link(sm, *idx, 0, &s->pi);
	} else if (*in_port >= 1 && *in_port <= ni->num_ports) {
		ibp_fabric_set_port_guid(sm->fabric, *idx, *in_port,
					 ni->port_guid, NULL);
		set_path(sm, *idx, *in_port, path);
		note_link(sm, *idx, *in_port, &s->pi);
	}
	return IBP_OK;
}

static int visit(ibp_sm *sm, const struct dr_path *path, size_t *idx,
		 unsigned *in_port, bool *is_new, ibp_error *err)
{
	uint8_t d[IBP_SMP_DATA_SIZE];
	int rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, NULL, d,
		       err);
	if (rc != IBP_OK)
		return rc;
	struct sm_seen s = {0};
	rc = ibp_node_info_decode(&s.ni, d, sizeof(d), err);
	if (rc != IBP_OK)
		return rc;
	return visit_node(sm, path, &s, idx, in_port, is_new, err);
}

/* A live port of switch n, 63 hops from the SM, whose far side a
 * directed route cannot reach (one more hop): remembered, so that the
 * discovery fails naming it unless another route links the port. */
static int note_beyond(ibp_sm *sm, size_t n, unsigned p, ibp_error *err)
{
	if (sm->nbeyond == sm->beyond_cap) {
		size_t cap = sm->beyond_cap ? sm->beyond_cap * 2 : 16;
		uint32_t *b = realloc(sm->beyond, cap * sizeof(*b));
		if (!b)
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		sm->beyond = b;
		sm->beyond_cap = cap;
	}
	sm->beyond[sm->nbeyond++] = (uint32_t)(n << 8 | p);
	return IBP_OK;
}

/* IBA vol. 1, 14.2.2: a directed route has at most 63 hops.  A live port
 * still unlinked at the end of the discovery leads to nodes that only a
 * longer route would reach. */
static int check_beyond(ibp_sm *sm, ibp_error *err)
{
	size_t left = 0, first = SIZE_MAX;
	for (size_t i = 0; i < sm->nbeyond; i++) {
		size_t n = sm->beyond[i] >> 8;
		unsigned p = sm->beyond[i] & 0xff;
		if (ibp_fabric_port_peer(sm->fabric, n, p, NULL, NULL))
			continue;
		if (!left++)
			first = i;
	}
	if (!left)
		return IBP_OK;
	size_t n = sm->beyond[first] >> 8;
	unsigned p = sm->beyond[first] & 0xff;
	return ibp_error_set(
	    err, IBP_ERANGE,
	    "switch \"%s\" (0x%016llx) is %u hops from the SM and its port "
	    "%u is up, but the node behind it is %u hops away: a directed "
	    "route has at most %u (IBA vol. 1, 14.2.2), so that part of the "
	    "fabric cannot be discovered (%zu such port(s)); run the SM "
	    "nearer the middle of the fabric",
	    ibp_fabric_node_desc(sm->fabric, n),
	    (unsigned long long)ibp_fabric_node_guid(sm->fabric, n),
	    IBP_SMP_MAX_HOPS, p, IBP_SMP_MAX_HOPS + 1, IBP_SMP_MAX_HOPS, left);
}

/* One switch's ports, pipelined (max_wire_smps deep) in three rounds:
 * PortInfo of every port (which are up), NodeInfo across every live port
 * not yet linked, then NodeDescription and SwitchInfo of the nodes not
 * seen before.  The answers are then taken port by port in order, as
 * the one-at-a-time walk would take them. */
struct sm_port_walk {
	struct dr_path next;
	bool probe;	       /* NodeInfo asked across this port */
	size_t ni_at;	       /* its index in the batch */
	size_t desc_at, pi_at; /* round 3's indices of its Gets */
	struct sm_seen s;      /* what came back */
};

static int walk_switch(ibp_sm *sm, size_t n, size_t **queue, size_t *qt,
		       size_t *qcap, ibp_error *err)
{
	unsigned np = ibp_fabric_node_nports(sm->fabric, n);
	struct dr_path base = sm->nodes[n].paths[0];
	struct sm_port_walk *w = calloc(np + 1u, sizeof(*w));
	struct sm_get *g = calloc(3u * (np + 1u), sizeof(*g));
	int rc = (!w || !g) ? ibp_error_set(err, IBP_ENOMEM, "out of memory")
			    : IBP_OK;
	/* round 1: PortInfo */
	for (unsigned p = 1; p <= np && !rc; p++)
		g[p - 1] = (struct sm_get){
		    .path = &base, .attr = IBP_ATTR_PORT_INFO, .mod = p};
	if (!rc)
		rc = sm_dr_get_batch(sm, g, np, err);
	/* round 2: NodeInfo across live, unlinked ports */
	size_t ng = 0;
	for (unsigned p = 1; p <= np && !rc; p++) {
		struct ibp_port_info pi;
		ibp_port_info_decode(&pi, g[p - 1].data, IBP_SMP_DATA_SIZE,
				     NULL);
		size_t pn;
		unsigned pp;
		if (pi.link_state >= IBP_PORT_STATE_INIT)
			note_link(sm, n, p, &pi);
		if (pi.link_state < IBP_PORT_STATE_INIT ||
		    ibp_fabric_port_peer(sm->fabric, n, p, &pn, &pp))
			continue;
		if (base.hops >= IBP_SMP_MAX_HOPS) {
			rc = note_beyond(sm, n, p, err);
			continue;
		}
		w[p].next = base;
		w[p].next.port[w[p].next.hops++] = (uint8_t)p;
		w[p].probe = true;
		w[p].ni_at = ng;
		g[np + ng++] = (struct sm_get){.path = &w[p].next,
					       .attr = IBP_ATTR_NODE_INFO};
	}
	if (!rc)
		rc = sm_dr_get_batch(sm, g + np, ng, err);
	for (unsigned p = 1; p <= np && !rc; p++)
		if (w[p].probe)
			rc = ibp_node_info_decode(&w[p].s.ni,
						  g[np + w[p].ni_at].data,
						  IBP_SMP_DATA_SIZE, err);
	/* round 3: description (and SwitchInfo) of nodes new to us, each
	 * asked once, and the PortInfo of every CA port reached and of each
	 * new switch's port 0 (their LIDs, for the topology file) */
	size_t nd = 0;
	for (unsigned p = 1; p <= np && !rc; p++) {
		size_t idx;
		if (!w[p].probe)
			continue;
		bool sw = w[p].s.ni.node_type == IBP_NODE_SWITCH;
		bool dup = ibp_fabric_find_node_guid(
			       sm->fabric, w[p].s.ni.node_guid, &idx) == IBP_OK;
		for (unsigned q = 1; q < p && !dup; q++)
			dup = w[q].probe && w[q].s.have_desc &&
			      w[q].s.ni.node_guid == w[p].s.ni.node_guid;
		if (!dup) {
			w[p].s.have_desc = true; /* asked below */
			w[p].desc_at = nd;
			g[nd++] = (struct sm_get){.path = &w[p].next,
						  .attr = IBP_ATTR_NODE_DESC};
			if (sw)
				g[nd++] = (struct sm_get){
				    .path = &w[p].next,
				    .attr = IBP_ATTR_SWITCH_INFO};
		}
		if (!sw || !dup) {
			w[p].s.have_pi = true; /* asked below */
			w[p].pi_at = nd;
			g[nd++] = (struct sm_get){
			    .path = &w[p].next,
			    .attr = IBP_ATTR_PORT_INFO,
			    .mod = sw ? 0 : w[p].s.ni.local_port_num};
		}
	}
	if (!rc)
		rc = sm_dr_get_batch(sm, g, nd, err);
	for (unsigned p = 1; p <= np && !rc; p++) {
		if (!w[p].probe)
			continue;
		size_t k = w[p].desc_at;
		if (w[p].s.have_desc) {
			ibp_node_desc_decode(w[p].s.desc, g[k++].data,
					     IBP_SMP_DATA_SIZE, NULL);
			if (w[p].s.ni.node_type == IBP_NODE_SWITCH)
				ibp_switch_info_decode(&w[p].s.si, g[k].data,
						       IBP_SMP_DATA_SIZE, NULL);
		}
		if (w[p].s.have_pi)
			ibp_port_info_decode(&w[p].s.pi, g[w[p].pi_at].data,
					     IBP_SMP_DATA_SIZE, NULL);
	}
	/* the answers, port by port */
	for (unsigned p = 1; p <= np && !rc; p++) {
		if (!w[p].probe)
			continue;
		size_t peer, pn;
		unsigned peer_port, pp;
		bool is_new;
		rc = visit_node(sm, &w[p].next, &w[p].s, &peer, &peer_port,
				&is_new, err);
		if (rc != IBP_OK)
			break;
		if (!ibp_fabric_port_peer(sm->fabric, peer, peer_port, &pn,
					  &pp))
			rc = ibp_fabric_link(sm->fabric, n, p, peer, peer_port,
					     err);
		if (rc == IBP_OK && is_new &&
		    ibp_fabric_node_type(sm->fabric, peer) == IBP_NODE_SWITCH) {
			if (*qt == *qcap) {
				*qcap = *qcap ? *qcap * 2 : 64;
				size_t *nq =
				    realloc(*queue, *qcap * sizeof(*nq));
				if (!nq) {
					rc = ibp_error_set(err, IBP_ENOMEM,
							   "out of memory");
					break;
				}
				*queue = nq;
			}
			(*queue)[(*qt)++] = peer;
		}
	}
	free(w);
	free(g);
	return rc;
}

int ibp_sm_discover(ibp_sm *sm, ibp_error *err)
{
	sm_free_nodes(sm);
	ibp_fabric_free(sm->fabric);
	sm->nbeyond = 0;
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo);
	sm->fabric = ibp_fabric_new(&fo);
	if (!sm->fabric)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");

	struct dr_path here = {0};
	size_t root;
	unsigned root_port;
	bool is_new;
	int rc = visit(sm, &here, &root, &root_port, &is_new, err);
	if (rc != IBP_OK)
		return rc;
	size_t *queue = NULL, qh = 0, qt = 0, qcap = 0;
#define PUSH(x)                                                                \
	do {                                                                   \
		if (qt == qcap) {                                              \
			qcap = qcap ? qcap * 2 : 64;                           \
			size_t *nq = realloc(queue, qcap * sizeof(*nq));       \
			if (!nq) {                                             \
				free(queue);                                   \
				return ibp_error_set(err, IBP_ENOMEM,          \
						     "out of memory");         \
			}                                                      \
			queue = nq;                                            \
		}                                                              \
		queue[qt++] = (x);                                             \
	} while (0)
	PUSH(root);
	/* the discovery's own port, as ibnetdiscover records it */
	if (ibp_fabric_node_type(sm->fabric, root) != IBP_NODE_SWITCH)
		ibp_fabric_set_initiator_port_guid(
		    sm->fabric,
		    ibp_fabric_port_guid(sm->fabric, root, root_port));
	while (qh < qt) {
		size_t n = queue[qh++];
		bool sw =
		    ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
		if (sw && sm->o.max_wire_smps > 1) {
			rc = walk_switch(sm, n, &queue, &qt, &qcap, err);
			if (rc != IBP_OK)
				goto out;
			continue;
		}
		unsigned np = ibp_fabric_node_nports(sm->fabric, n);
		struct dr_path base =
		    sw ? sm->nodes[n].paths[0] : (struct dr_path){0};
		for (unsigned p = 1; p <= np; p++) {
			/* A CA does not forward: only the local CA's own
			 * port leads anywhere. */
			if (!sw && (n != root || p != root_port))
				continue;
			uint8_t d[IBP_SMP_DATA_SIZE];
			if (sw) {
				rc = sm_dr(sm, &base, IBP_METHOD_GET,
					   IBP_ATTR_PORT_INFO, p, NULL, d, err);
				if (rc != IBP_OK)
					goto out;
				struct ibp_port_info pi;
				ibp_port_info_decode(&pi, d, sizeof(d), NULL);
				if (pi.link_state < IBP_PORT_STATE_INIT)
					continue;
				note_link(sm, n, p, &pi);
			}
			size_t pn;
			unsigned pp;
			if (ibp_fabric_port_peer(sm->fabric, n, p, &pn, &pp))
				continue; /* already known from the far side */
			if (base.hops >= IBP_SMP_MAX_HOPS) {
				rc = note_beyond(sm, n, p, err);
				if (rc != IBP_OK)
					goto out;
				continue;
			}
			struct dr_path next = base;
			next.port[next.hops++] = (uint8_t)p;
			size_t peer;
			unsigned peer_port;
			rc = visit(sm, &next, &peer, &peer_port, &is_new, err);
			if (rc == IBP_ETIMEDOUT && !sw)
				break; /* an unlinked local port */
			if (rc != IBP_OK)
				goto out;
			if (!ibp_fabric_port_peer(sm->fabric, peer, peer_port,
						  &pn, &pp)) {
				rc = ibp_fabric_link(sm->fabric, n, p, peer,
						     peer_port, err);
				if (rc != IBP_OK)
					goto out;
			}
			if (is_new && ibp_fabric_node_type(sm->fabric, peer) ==
					  IBP_NODE_SWITCH)
				PUSH(peer);
		}
	}
	rc = check_beyond(sm, err);
out:
#undef PUSH
	free(queue);
	return rc;
}
