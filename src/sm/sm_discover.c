/*
 * sm_discover.c - discovery (ibp_sm_discover): a breadth-first walk by
 * directed route from the local port, NodeInfo across every live port,
 * NodeDescription and SwitchInfo of each node new to the walk, into an
 * ibp_fabric; each node's route kept for the SMPs that follow
 * (sm_priv.h).  A switch's ports go pipelined, max_wire_smps deep.  A
 * node whose NodeInfo reports a NodeGUID or PortGUID of 0 is left out,
 * as OpenSM leaves it out, with a finding (ibp_sm_discovery_findings).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sm/sm_priv.h"
#include "topo/topo_lib.h"
#include "util/diag_lib.h"

/* visit_node()'s *idx for a node left out of the fabric (its NodeInfo
 * reports a GUID of 0). */
#define SM_LEFT_OUT SIZE_MAX

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

/* A setter of the fabric model refused what discovery read (rc not
 * IBP_OK): the discovery fails saying what and where. */
static int model_failed(const ibp_sm *sm, int rc, size_t n, unsigned port,
			const char *what, ibp_error *err)
{
	return ibp_error_set(
	    err, rc,
	    "cannot record the %s of \"%s\" (0x%016llx) "
	    "port %u in the discovered fabric (%s)",
	    what, ibp_fabric_node_desc(sm->fabric, n),
	    (unsigned long long)ibp_fabric_node_guid(sm->fabric, n), port,
	    ibp_status_str(rc));
}

/* Record what a port reports of itself (its LID, its link's width and
 * speed) in the fabric, for the topology file discover writes. */
static int note_link(ibp_sm *sm, size_t n, unsigned port,
		     const struct ibp_port_info *pi, ibp_error *err)
{
	ibp_port_link l = {.lid = pi->lid,
			   .lmc = pi->lmc,
			   .width_active = pi->link_width_active,
			   .speed_active = pi->link_speed_active,
			   .speed_ext_active = pi->link_speed_ext_active};
	if (port != 0 && ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH)
		l.lid = l.lmc = 0; /* external ports have no LID (14.2.5.6) */
	int rc = ibp_fabric_set_port_link(sm->fabric, n, port, &l);
	return rc ? model_failed(sm, rc, n, port, "PortInfo link", err)
		  : IBP_OK;
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
	rc = ibp_port_info_decode(&s->pi, d, sizeof(d), err);
	s->have_pi = rc == IBP_OK;
	return rc;
}

/* A directed route as smpquery -D and ibnetdiscover write it: "0,1,3". */
static void route_str(const struct dr_path *p, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "0");
	for (unsigned i = 0; i < p->hops && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, ",%u", p->port[i]);
}

static const char *node_type_str(unsigned type)
{
	return type == IBP_NODE_SWITCH	 ? "switch"
	       : type == IBP_NODE_ROUTER ? "router"
					 : "CA";
}

/* IBA vol. 1, 14.2.5.3: a NodeInfo's NodeGUID and PortGUID are never 0.
 * A node reporting 0 for either (firmware whose GUIDs were never burnt
 * in, a virtual function not given one) can be told from no other, and
 * its port cannot be named by a plan: OpenSM drops such a NodeInfo
 * (its "Got Zero Node/Port GUID" errors, with the directed route) and
 * sweeps on without that node.  So does discovery here: the node is not
 * added by this route, not linked, not walked through, and a finding
 * names it. */
static bool ni_guids_valid(const struct ibp_node_info *ni)
{
	return ni->node_guid != 0 && ni->port_guid != 0;
}

static int leave_out(ibp_sm *sm, const struct dr_path *path, struct sm_seen *s,
		     ibp_error *err)
{
	const struct ibp_node_info *ni = &s->ni;
	const char *desc = "";
	size_t n;
	if (ni->node_guid &&
	    ibp_fabric_find_node_guid(sm->fabric, ni->node_guid, &n) == IBP_OK)
		desc = ibp_fabric_node_desc(sm->fabric, n);
	else if (s->have_desc)
		desc = s->desc;
	else {
		/* its name when it answers; the finding goes without it
		 * when it does not (the route and GUIDs still say where) */
		uint8_t d[IBP_SMP_DATA_SIZE];
		if (sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_NODE_DESC, 0, NULL,
			  d, NULL) == IBP_OK &&
		    ibp_node_desc_decode(s->desc, d, sizeof(d), NULL) == IBP_OK)
			desc = s->desc;
	}
	char route[4 * IBP_SMP_MAX_HOPS + 8];
	route_str(path, route, sizeof(route));
	bool node0 = ni->node_guid == 0;
	const char *gone = ni->node_type == IBP_NODE_SWITCH
			       ? "the switch, and what only it leads to, is"
			   : node0 ? "the node is"
				   : "the port is";
	int rc = ibp_diags_add(
	    sm->found, IBP_SEV_WARNING,
	    node0 ? "node-guid-zero" : "port-guid-zero", "", 0, 0,
	    "%s \"%s\" (node GUID 0x%016llx, port GUID 0x%016llx) port %u, "
	    "reached by directed route %s, reports %s 0 in its NodeInfo, "
	    "which is never 0 (IBA vol. 1, 14.2.5.3 NodeInfo %s): %s left "
	    "out of the discovered fabric, as OpenSM leaves it out of its "
	    "sweep, so no P_KeyTable of it is read or written; fix the %s's "
	    "firmware or GUID configuration",
	    node_type_str(ni->node_type), desc,
	    (unsigned long long)ni->node_guid,
	    (unsigned long long)ni->port_guid, ni->local_port_num, route,
	    node0 ? "NodeGUID" : "PortGUID", node0 ? "NodeGUID" : "PortGUID",
	    gone, node_type_str(ni->node_type));
	char subject[sizeof(route) + 8];
	snprintf(subject, sizeof(subject), "route %s", route);
	if (rc == IBP_OK)
		rc = ibp_diags_set_subject(sm->found, subject);
	return rc ? ibp_error_set(err, rc, "out of memory") : IBP_OK;
}

/* Record a node reached by path (as its NodeInfo says) in the fabric:
 * a new node (with its description and SwitchInfo, fetched here unless
 * prefetched), or one more port of a known one.  *in_port: the port the
 * route arrived by.  A NodeInfo with a GUID of 0 adds nothing: *idx is
 * SM_LEFT_OUT and a finding says so (leave_out). */
static int visit_node(ibp_sm *sm, const struct dr_path *path, struct sm_seen *s,
		      size_t *idx, unsigned *in_port, bool *is_new,
		      ibp_error *err)
{
	const struct ibp_node_info *ni = &s->ni;
	uint8_t d[IBP_SMP_DATA_SIZE];
	int rc;
	*in_port = ni->local_port_num;
	*is_new = false;
	if (!ni_guids_valid(ni)) {
		*idx = SM_LEFT_OUT;
		return leave_out(sm, path, s, err);
	}
	if (ibp_fabric_find_node_guid(sm->fabric, ni->node_guid, idx) ==
	    IBP_OK) {
		if (ni->node_type != IBP_NODE_SWITCH && *in_port >= 1 &&
		    *in_port <= ibp_fabric_node_nports(sm->fabric, *idx)) {
			rc = ibp_fabric_set_port_guid(
			    sm->fabric, *idx, *in_port, ni->port_guid, err);
			if (rc != IBP_OK)
				return rc;
			set_path(sm, *idx, *in_port, path);
			rc = seen_port_info(sm, path, s, err);
			if (rc != IBP_OK)
				return rc;
			return note_link(sm, *idx, *in_port, &s->pi, err);
		}
		return IBP_OK;
	}
	if (!s->have_desc) {
		rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_NODE_DESC, 0,
			   NULL, d, err);
		if (rc == IBP_OK)
			rc = ibp_node_desc_decode(s->desc, d, sizeof(d), err);
		if (rc == IBP_OK && ni->node_type == IBP_NODE_SWITCH) {
			rc = sm_dr(sm, path, IBP_METHOD_GET,
				   IBP_ATTR_SWITCH_INFO, 0, NULL, d, err);
			if (rc == IBP_OK)
				rc = ibp_switch_info_decode(&s->si, d,
							    sizeof(d), err);
		}
		if (rc != IBP_OK)
			return rc;
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
	rc = ibp_fabric_set_sysimg_guid(sm->fabric, *idx, ni->sys_image_guid);
	if (rc != IBP_OK)
		return model_failed(sm, rc, *idx, *in_port, "SystemImageGUID",
				    err);
	rc = ibp_fabric_set_partition_cap(sm->fabric, *idx, ni->partition_cap);
	if (rc != IBP_OK)
		return model_failed(sm, rc, *idx, *in_port, "PartitionCap",
				    err);
	if (ni->node_type == IBP_NODE_SWITCH) {
		rc = ibp_fabric_set_enforcement_cap(
		    sm->fabric, *idx, s->si.partition_enforcement_cap);
		if (rc != IBP_OK)
			return model_failed(sm, rc, *idx, 0,
					    "PartitionEnforcementCap", err);
		rc = ibp_fabric_set_fdb_caps(sm->fabric, *idx,
					     s->si.linear_fdb_cap,
					     s->si.mcast_fdb_cap);
		if (rc != IBP_OK)
			return model_failed(sm, rc, *idx, 0, "FDB caps", err);
		sm->nodes[*idx].enf_in_cap = s->si.inbound_enforcement_cap;
		sm->nodes[*idx].enf_out_cap = s->si.outbound_enforcement_cap;
		set_path(sm, *idx, 0, path);
		return note_link(sm, *idx, 0, &s->pi, err);
	}
	if (*in_port >= 1 && *in_port <= ni->num_ports) {
		rc = ibp_fabric_set_port_guid(sm->fabric, *idx, *in_port,
					      ni->port_guid, err);
		if (rc != IBP_OK)
			return rc;
		set_path(sm, *idx, *in_port, path);
		return note_link(sm, *idx, *in_port, &s->pi, err);
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
		rc = ibp_port_info_decode(&pi, g[p - 1].data, IBP_SMP_DATA_SIZE,
					  err);
		if (rc != IBP_OK)
			break;
		size_t pn;
		unsigned pp;
		if (pi.link_state >= IBP_PORT_STATE_INIT &&
		    (rc = note_link(sm, n, p, &pi, err)) != IBP_OK)
			break;
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
		if (!w[p].probe || !ni_guids_valid(&w[p].s.ni))
			continue; /* left out: visit_node() says so */
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
			rc = ibp_node_desc_decode(w[p].s.desc, g[k++].data,
						  IBP_SMP_DATA_SIZE, err);
			if (!rc && w[p].s.ni.node_type == IBP_NODE_SWITCH)
				rc = ibp_switch_info_decode(
				    &w[p].s.si, g[k].data, IBP_SMP_DATA_SIZE,
				    err);
		}
		if (!rc && w[p].s.have_pi)
			rc =
			    ibp_port_info_decode(&w[p].s.pi, g[w[p].pi_at].data,
						 IBP_SMP_DATA_SIZE, err);
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
		if (peer == SM_LEFT_OUT)
			continue;
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
	ibp_diags_free(sm->found);
	sm->nbeyond = 0;
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	sm->fabric = ibp_fabric_new(&fo);
	sm->found = ibp_diags_new();
	if (!sm->fabric || !sm->found)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");

	struct dr_path here = {0};
	size_t root;
	unsigned root_port;
	bool is_new;
	int rc = visit(sm, &here, &root, &root_port, &is_new, err);
	if (rc != IBP_OK)
		return rc;
	if (root == SM_LEFT_OUT) /* nothing to walk from */
		return ibp_error_set(
		    err, IBP_EIO,
		    "the local port's NodeInfo reports a NodeGUID or PortGUID "
		    "of 0 (IBA vol. 1, 14.2.5.3): no subnet can be discovered "
		    "from it");
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
				struct ibp_port_info pi;
				if (rc == IBP_OK)
					rc = ibp_port_info_decode(
					    &pi, d, sizeof(d), err);
				if (rc != IBP_OK)
					goto out;
				if (pi.link_state < IBP_PORT_STATE_INIT)
					continue;
				rc = note_link(sm, n, p, &pi, err);
				if (rc != IBP_OK)
					goto out;
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
			if (peer == SM_LEFT_OUT)
				continue; /* a finding says so */
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
