/*
 * sm.c - discovery, P_KeyTable diff/push/read-back, partition enforcement
 * and trap counting over an SMP transport (see include/ibpart/sm.h).
 *
 * Every SMP is built and parsed with mad.h.  Discovery, the table reads
 * and the pushes go by directed route (one at a time through
 * ibp_transport_smp(), or pipelined through ibp_transport_smp_batch()),
 * so none of them depends on LIDs having been assigned.  The one
 * LID-routed exchange is ibp_sm_master_sm_port(): the local port's
 * MasterSMLID, then SubnGet(NodeInfo) and SubnGet(PortInfo) to that LID
 * (ibp_transport_smp_lid()).  Retries (same TID, a fresh send) happen
 * here.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "ibpart/sm.h"
#include "ibpart/escape.h"
#include "ibpart/mad.h"

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
};

void ibp_sm_options_init(struct ibp_sm_options *o)
{
	memset(o, 0, sizeof(*o));
	o->timeout_ms = 100;
	o->retries = 3;
	o->enforce = IBP_ENFORCE_BOTH;
	o->max_wire_smps = 4;
}

int ibp_sm_new(ibp_transport *t, const struct ibp_sm_options *o, ibp_sm **out,
	       ibp_error *err)
{
	*out = NULL;
	ibp_sm *sm = calloc(1, sizeof(*sm));
	if (!sm)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	sm->t = t;
	if (o)
		sm->o = *o;
	else
		ibp_sm_options_init(&sm->o);
	sm->tid = 0x1b9a000000000000ull;
	*out = sm;
	return IBP_OK;
}

void ibp_sm_set_options(ibp_sm *sm, const struct ibp_sm_options *o)
{
	sm->o = *o;
}

static void free_nodes(ibp_sm *sm)
{
	if (sm->nodes)
		for (size_t i = 0; i < sm->nodes_cap; i++) {
			free(sm->nodes[i].paths);
			free(sm->nodes[i].have_path);
		}
	free(sm->nodes);
	sm->nodes = NULL;
	sm->nodes_cap = 0;
}

void ibp_sm_free(ibp_sm *sm)
{
	if (!sm)
		return;
	free_nodes(sm);
	ibp_fabric_free(sm->fabric);
	free(sm->beyond);
	free(sm->kept);
	free(sm);
}

const ibp_fabric *ibp_sm_fabric(const ibp_sm *sm)
{
	return sm->fabric;
}

void ibp_sm_counters(const ibp_sm *sm, unsigned long *smps,
		     unsigned long *timeouts, unsigned long *retries)
{
	if (smps)
		*smps = sm->smps;
	if (timeouts)
		*timeouts = sm->timeouts;
	if (retries)
		*retries = sm->retries;
}

/* Decode the response to the request (tid, method, attr, mod): a
 * GetResp with this TID and status 0, else the error that says what
 * came back. */
static int decode_response(const uint8_t rbuf[IBP_MAD_SIZE], uint64_t tid,
			   uint8_t method, uint16_t attr, uint32_t mod,
			   struct ibp_smp *resp, ibp_error *err)
{
	int rc = ibp_smp_decode(resp, rbuf, IBP_MAD_SIZE, err);
	if (rc != IBP_OK)
		return rc;
	if (resp->tid != tid || resp->method != IBP_METHOD_GET_RESP)
		return ibp_error_set(err, IBP_EIO,
				     "unexpected response (TID 0x%llx, "
				     "method %s)",
				     (unsigned long long)resp->tid,
				     ibp_method_name(resp->method));
	uint16_t st = resp->status & IBP_SMP_STATUS_MASK;
	if (st != IBP_MAD_STATUS_OK)
		return ibp_error_set(err, IBP_EMAD, "%s(%s) mod 0x%x: %s",
				     ibp_method_name(method),
				     ibp_attr_name(attr), mod,
				     ibp_mad_status_name(st));
	return IBP_OK;
}

/* One request/response, directed route along path (dlid 0) or
 * LID-routed to dlid, with retries (same TID, a fresh send). */
static int sm_smp(ibp_sm *sm, const struct dr_path *path, uint16_t dlid,
		  uint8_t method, uint16_t attr, uint32_t mod,
		  const uint8_t *data, uint8_t out[IBP_SMP_DATA_SIZE],
		  ibp_error *err)
{
	struct ibp_smp req, resp;
	uint64_t tid = ++sm->tid;
	int rc = IBP_OK;
	if (dlid)
		ibp_smp_init_lid(&req, method, attr, mod, tid, sm->o.mkey);
	else
		rc = ibp_smp_init_dr(&req, method, attr, mod, path->port,
				     path->hops, tid, sm->o.mkey, err);
	if (rc != IBP_OK)
		return rc;
	if (data)
		memcpy(req.data, data, IBP_SMP_DATA_SIZE);
	uint8_t buf[IBP_MAD_SIZE], rbuf[IBP_MAD_SIZE];
	rc = ibp_smp_encode(&req, buf, sizeof(buf), err);
	if (rc != IBP_OK)
		return rc;
	for (unsigned attempt = 0;; attempt++) {
		ibp_error e;
		sm->smps++;
		rc = dlid ? ibp_transport_smp_lid(sm->t, dlid, buf, rbuf,
						  sm->o.timeout_ms, &e)
			  : ibp_transport_smp(sm->t, buf, rbuf,
					      sm->o.timeout_ms, &e);
		if (rc == IBP_ETIMEDOUT) {
			sm->timeouts++;
			if (attempt < sm->o.retries) {
				sm->retries++;
				continue;
			}
			return ibp_error_set(
			    err, IBP_ETIMEDOUT,
			    "%s(%s) got no response after %u tries (%s)",
			    ibp_method_name(method), ibp_attr_name(attr),
			    attempt + 1, e.message);
		}
		if (rc != IBP_OK) {
			if (err)
				*err = e;
			return rc;
		}
		rc = decode_response(rbuf, tid, method, attr, mod, &resp, err);
		if (rc != IBP_OK)
			return rc;
		if (out)
			memcpy(out, resp.data, IBP_SMP_DATA_SIZE);
		return IBP_OK;
	}
}

static int sm_dr(ibp_sm *sm, const struct dr_path *path, uint8_t method,
		 uint16_t attr, uint32_t mod, const uint8_t *data,
		 uint8_t out[IBP_SMP_DATA_SIZE], ibp_error *err)
{
	return sm_smp(sm, path, 0, method, attr, mod, data, out, err);
}

int ibp_sm_master_sm_port(ibp_sm *sm, uint64_t *port_guid, bool *running,
			  ibp_error *err)
{
	*port_guid = 0;
	if (running)
		*running = false;
	const struct dr_path here = {0};
	uint8_t d[IBP_SMP_DATA_SIZE];
	int rc = sm_dr(sm, &here, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 0, NULL,
		       d, err);
	if (rc)
		return rc;
	struct ibp_port_info pi;
	ibp_port_info_decode(&pi, d, sizeof(d), NULL);
	uint16_t sm_lid = pi.master_sm_lid;
	if (sm_lid == 0 || sm_lid >= 0xc000)
		return ibp_error_set(err, IBP_ENOENT,
				     "no master SM (MasterSMLID %u)", sm_lid);
	rc = sm_smp(sm, NULL, sm_lid, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0,
		    NULL, d, err);
	if (rc)
		return rc;
	struct ibp_node_info ni;
	rc = ibp_node_info_decode(&ni, d, sizeof(d), err);
	if (rc)
		return rc;
	*port_guid = ni.port_guid;
	if (running && sm_smp(sm, NULL, sm_lid, IBP_METHOD_GET,
			      IBP_ATTR_PORT_INFO, 0, NULL, d, NULL) == IBP_OK) {
		ibp_port_info_decode(&pi, d, sizeof(d), NULL);
		*running = (pi.capability_mask & IBP_CAP_IS_SM) != 0;
	}
	return IBP_OK;
}

/* A directed-route Get of a batch (sm_dr_get_batch): in path, attr,
 * mod; out the attribute data. */
struct sm_get {
	const struct dr_path *path;
	uint16_t attr;
	uint32_t mod;
	uint8_t data[IBP_SMP_DATA_SIZE];
};

#define SM_BATCH_CHUNK 2048

/* Buffers for one chunk of a batch. */
struct sm_chunk {
	uint8_t req[SM_BATCH_CHUNK][IBP_MAD_SIZE];
	uint8_t resp[SM_BATCH_CHUNK][IBP_MAD_SIZE];
	struct ibp_smp_xfer x[SM_BATCH_CHUNK];
	size_t idx[SM_BATCH_CHUNK];
	uint64_t tid[SM_BATCH_CHUNK];
};

/* Up to SM_BATCH_CHUNK Gets, max_wire_smps outstanding at once, each
 * retried like sm_dr() (same TID, a fresh send) until answered or out of
 * retries. */
static int sm_dr_get_chunk(ibp_sm *sm, struct sm_chunk *c, struct sm_get *g,
			   size_t n, ibp_error *err)
{
	uint8_t(*req)[IBP_MAD_SIZE] = c->req;
	uint8_t(*resp)[IBP_MAD_SIZE] = c->resp;
	struct ibp_smp_xfer *x = c->x;
	size_t *idx = c->idx;
	uint64_t *tid = c->tid;
	size_t pend = 0;
	for (size_t i = 0; i < n; i++) {
		struct ibp_smp r;
		tid[i] = ++sm->tid;
		int rc = ibp_smp_init_dr(
		    &r, IBP_METHOD_GET, g[i].attr, g[i].mod, g[i].path->port,
		    g[i].path->hops, tid[i], sm->o.mkey, err);
		if (rc == IBP_OK)
			rc = ibp_smp_encode(&r, req[i], IBP_MAD_SIZE, err);
		if (rc != IBP_OK)
			return rc;
		idx[pend++] = i;
	}
	for (unsigned attempt = 0; pend; attempt++) {
		for (size_t k = 0; k < pend; k++)
			x[k] = (struct ibp_smp_xfer){.req = req[idx[k]],
						     .resp = resp[idx[k]]};
		int rc = ibp_transport_smp_batch(
		    sm->t, x, pend, sm->o.max_wire_smps, sm->o.timeout_ms, err);
		size_t again = 0;
		for (size_t k = 0; k < pend; k++) {
			size_t i = idx[k];
			if (x[k].rc == IBP_ENOENT)
				continue; /* never sent: rc says why */
			sm->smps++;
			if (x[k].rc == IBP_ETIMEDOUT) {
				sm->timeouts++;
				if (attempt >= sm->o.retries)
					return ibp_error_set(
					    err, IBP_ETIMEDOUT,
					    "SubnGet(%s) mod 0x%x got no "
					    "response after %u tries",
					    ibp_attr_name(g[i].attr), g[i].mod,
					    attempt + 1);
				sm->retries++;
				idx[again++] = i;
				continue;
			}
			if (x[k].rc != IBP_OK)
				return ibp_error_set(
				    err, x[k].rc, "SubnGet(%s) mod 0x%x: %s",
				    ibp_attr_name(g[i].attr), g[i].mod,
				    ibp_status_str(x[k].rc));
			struct ibp_smp r;
			int drc =
			    decode_response(resp[i], tid[i], IBP_METHOD_GET,
					    g[i].attr, g[i].mod, &r, err);
			if (drc != IBP_OK)
				return drc;
			memcpy(g[i].data, r.data, IBP_SMP_DATA_SIZE);
		}
		if (rc != IBP_OK)
			return rc;
		pend = again;
	}
	return IBP_OK;
}

/* Append a Get to the growing list *g (*n used, *cap allocated). */
static int gets_add(struct sm_get **g, size_t *n, size_t *cap,
		    const struct dr_path *path, uint16_t attr, uint32_t mod,
		    ibp_error *err)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		struct sm_get *v = realloc(*g, c * sizeof(**g));
		if (!v)
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		*g = v;
		*cap = c;
	}
	(*g)[(*n)++] = (struct sm_get){.path = path, .attr = attr, .mod = mod};
	return IBP_OK;
}

static int sm_dr_get_batch(ibp_sm *sm, struct sm_get *g, size_t n,
			   ibp_error *err)
{
	if (n == 0)
		return IBP_OK;
	struct sm_chunk *c = malloc(sizeof(*c));
	if (!c)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = IBP_OK;
	for (size_t i = 0; i < n && rc == IBP_OK; i += SM_BATCH_CHUNK) {
		size_t m = n - i < SM_BATCH_CHUNK ? n - i : SM_BATCH_CHUNK;
		rc = sm_dr_get_chunk(sm, c, g + i, m, err);
	}
	free(c);
	return rc;
}

/* ---- discovery ---- */

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
static const struct dr_path *node_path(const ibp_sm *sm, size_t n,
				       unsigned port)
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
	free_nodes(sm);
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

/* ---- tables ---- */

static unsigned port_capacity(const ibp_sm *sm, size_t n, unsigned p)
{
	return ibp_fabric_port_capacity(sm->fabric, n, p);
}

static int read_table(ibp_sm *sm, size_t n, unsigned p, ibp_pkey_table **out,
		      unsigned long *blocks, ibp_error *err)
{
	*out = NULL;
	unsigned cap = port_capacity(sm, n, p);
	const struct dr_path *path = node_path(sm, n, p);
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
		ibp_pkey_block_decode(keys, d, sizeof(d), NULL);
		for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE; i++)
			if (b * IBP_PKEY_BLOCK_SIZE + i >= cap)
				keys[i] = 0;
		ibp_pkey_table_set_block(t, b, keys, NULL);
		if (blocks)
			(*blocks)++;
	}
	*out = t;
	return IBP_OK;
}

/* A switch port facing an end port, with an enforcement table: where
 * OpenSM mirrors the end port's table and turns enforcement on. */
static bool leaf_port(const ibp_sm *sm, size_t n, unsigned p)
{
	size_t pn;
	unsigned pp;
	return ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH &&
	       p > 0 && ibp_fabric_node_enforcement_cap(sm->fabric, n) > 0 &&
	       ibp_fabric_port_peer(sm->fabric, n, p, &pn, &pp) &&
	       ibp_fabric_is_end_port(sm->fabric, pn, pp) &&
	       node_path(sm, n, p) != NULL;
}

/* A switch external port facing another switch, on a switch that
 * implements an enforcement bit: OpenSM clears its partition enforcement
 * when set (osm_pkey_mgr_process), so the SM reads its PortInfo too. */
static bool isl_port(const ibp_sm *sm, size_t n, unsigned p)
{
	size_t pn;
	unsigned pp;
	return ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH &&
	       p > 0 && n < sm->nodes_cap &&
	       (sm->nodes[n].enf_in_cap || sm->nodes[n].enf_out_cap) &&
	       ibp_fabric_port_peer(sm->fabric, n, p, &pn, &pp) &&
	       ibp_fabric_node_type(sm->fabric, pn) == IBP_NODE_SWITCH &&
	       node_path(sm, n, p) != NULL;
}

/* The ports whose P_KeyTable the SM reads and writes: end ports, a
 * switch's port 0, and switch ports facing an end port (the only
 * external ports OpenSM programs).  An unlinked switch port, or one
 * between switches, is not one: a plan that wants a table there (a
 * topology file that says a host is plugged in where none is) meets an
 * unreadable port, not a table of 0xffff. */
static bool has_table(const ibp_sm *sm, size_t n, unsigned p)
{
	bool sw = ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
	if (!sw && p == 0)
		return false;
	if (sw && p > 0)
		return leaf_port(sm, n, p);
	return port_capacity(sm, n, p) > 0 && node_path(sm, n, p) != NULL;
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
			if (!has_table(sm, n, p))
				continue;
			unsigned nb = (port_capacity(sm, n, p) +
				       IBP_PKEY_BLOCK_SIZE - 1) /
				      IBP_PKEY_BLOCK_SIZE;
			for (unsigned b = 0; b < nb && !rc; b++)
				rc = gets_add(
				    &g, &ng, &cap, node_path(sm, n, p),
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
			if (leaf_port(sm, n, p) || isl_port(sm, n, p))
				rc =
				    gets_add(&g, &ng, &cap, node_path(sm, n, p),
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
			if (!has_table(sm, n, p))
				continue;
			unsigned cap_p = port_capacity(sm, n, p);
			ibp_pkey_table *t = ibp_pkey_table_new(cap_p);
			if (!t) {
				rc = ibp_error_set(err, IBP_ENOMEM,
						   "out of memory");
				break;
			}
			unsigned nb = ibp_pkey_table_num_blocks(t);
			for (unsigned b = 0; b < nb; b++) {
				uint16_t keys[IBP_PKEY_BLOCK_SIZE];
				ibp_pkey_block_decode(keys, g[k++].data,
						      IBP_SMP_DATA_SIZE, NULL);
				for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE;
				     i++)
					if (b * IBP_PKEY_BLOCK_SIZE + i >=
					    cap_p)
						keys[i] = 0;
				ibp_pkey_table_set_block(t, b, keys, NULL);
			}
			rc = ibp_tables_put(ts, n, p, t, err);
		}
	}
	for (size_t n = 0; n < ibp_fabric_node_count(sm->fabric) && !rc; n++) {
		unsigned np = ibp_fabric_node_nports(sm->fabric, n);
		for (unsigned p = 1; p <= np && !rc; p++) {
			if (!leaf_port(sm, n, p) && !isl_port(sm, n, p))
				continue;
			struct ibp_port_info pi;
			ibp_port_info_decode(&pi, g[k++].data,
					     IBP_SMP_DATA_SIZE, NULL);
			rc = ibp_tables_set_enforcement(
			    ts, n, p, pi.partition_enforcement_inbound,
			    pi.partition_enforcement_outbound);
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

/* ---- push ---- */

static int add_port(struct ibp_sm_port **arr, size_t *len,
		    const struct ibp_sm_port *p)
{
	/* no capacity field: the array grows when len is 0 or a power of
	 * two, to 16 entries while empty and then to 2 * len, so its
	 * capacity is always the smallest power of two above len (16 for
	 * the first entry) */
	size_t n = *len;
	if ((n & (n - 1)) == 0) {
		size_t cap = n ? n * 2 : 16;
		struct ibp_sm_port *na = realloc(*arr, cap * sizeof(*na));
		if (!na)
			return IBP_ENOMEM;
		*arr = na;
	}
	(*arr)[(*len)++] = *p;
	return IBP_OK;
}

void ibp_sm_report_free(struct ibp_sm_report *r)
{
	if (!r)
		return;
	free(r->changed);
	free(r->failed);
	memset(r, 0, sizeof(*r));
}

static void describe(const ibp_fabric *f, size_t n, unsigned p,
		     struct ibp_sm_port *out)
{
	memset(out, 0, sizeof(*out));
	out->node_guid = ibp_fabric_node_guid(f, n);
	out->port_guid = ibp_fabric_port_guid(f, n, p);
	out->port = p;
	snprintf(out->desc, sizeof(out->desc), "%s",
		 ibp_fabric_node_desc(f, n));
}

static int fail_port(ibp_sm *sm, struct ibp_sm_report *rep, size_t n,
		     unsigned p, const ibp_error *why)
{
	struct ibp_sm_port fp;
	describe(sm->fabric, n, p, &fp);
	snprintf(fp.why, sizeof(fp.why), "%s", why->message);
	add_port(&rep->failed, &rep->nfailed, &fp);
	rep->complete = false;
	return why->status;
}

/* Write the blocks of `want` that differ from what (n, p) holds. */
static int push_port(ibp_sm *sm, size_t n, unsigned p,
		     const ibp_pkey_table *want, struct ibp_sm_report *rep,
		     ibp_error *err)
{
	bool sw = ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH;
	unsigned cap = port_capacity(sm, n, p);
	if (ibp_pkey_table_used(want) > cap)
		return ibp_error_set(err, IBP_EFULL,
				     "the table needs %u entries, the port "
				     "holds %u",
				     ibp_pkey_table_used(want), cap);
	ibp_pkey_table *have = NULL, *w = ibp_pkey_table_new(cap);
	if (!w)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (unsigned i = 0; i < ibp_pkey_table_used(want); i++)
		ibp_pkey_table_set(w, i, ibp_pkey_table_get(want, i), NULL);
	int rc = read_table(sm, n, p, &have, &rep->blocks_read, err);
	if (rc != IBP_OK)
		goto done;
	rep->ports_checked++;
	unsigned blocks[IBP_PKEY_TABLE_MAX / IBP_PKEY_BLOCK_SIZE + 1];
	unsigned nd = ibp_pkey_table_diff_blocks(
	    have, w, blocks, sizeof(blocks) / sizeof(blocks[0]));
	if (nd == 0)
		goto done;
	struct ibp_sm_port cp;
	describe(sm->fabric, n, p, &cp);
	cp.blocks = nd;
	for (unsigned i = 0; i < nd; i++)
		if (blocks[i] < 32)
			cp.block_mask |= 1u << blocks[i];
	if (sm->o.dry_run) {
		rep->blocks_written += nd;
		add_port(&rep->changed, &rep->nchanged, &cp);
		goto done;
	}
	const struct dr_path *path = node_path(sm, n, p);
	unsigned written = 0;
	uint32_t written_mask = 0;
	for (unsigned i = 0; i < nd; i++) {
		uint16_t keys[IBP_PKEY_BLOCK_SIZE], back[IBP_PKEY_BLOCK_SIZE];
		uint8_t d[IBP_SMP_DATA_SIZE], r[IBP_SMP_DATA_SIZE];
		uint32_t mod = ibp_pkey_attr_mod(blocks[i], sw ? p : 0);
		ibp_pkey_table_get_block(w, blocks[i], keys, NULL);
		ibp_pkey_block_encode(keys, d, sizeof(d), NULL);
		rc = sm_dr(sm, path, IBP_METHOD_SET, IBP_ATTR_PKEY_TABLE, mod,
			   d, r, err);
		if (rc != IBP_OK)
			goto partial;
		rep->blocks_written++;
		written++;
		if (blocks[i] < 32)
			written_mask |= 1u << blocks[i];
		/* Read back (a Get, not the Set's echo) and compare. */
		rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE, mod,
			   NULL, r, err);
		if (rc != IBP_OK)
			goto partial;
		ibp_pkey_block_decode(back, r, sizeof(r), NULL);
		if (memcmp(back, keys, sizeof(keys)) != 0) {
			rc = ibp_error_set(err, IBP_EIO,
					   "block %u read back differs from "
					   "what was written",
					   blocks[i]);
			goto partial;
		}
		rep->blocks_confirmed++;
	}
	add_port(&rep->changed, &rep->nchanged, &cp);
	goto done;
partial:
	if (written) { /* stopped midway through this port */
		cp.blocks = written;
		cp.block_mask = written_mask;
		add_port(&rep->changed, &rep->nchanged, &cp);
	}
done:
	ibp_pkey_table_free(have);
	ibp_pkey_table_free(w);
	return rc;
}

bool ibp_sm_switch_enforcement_caps(const ibp_sm *sm, uint64_t node_guid,
				    bool *inbound, bool *outbound)
{
	size_t n;
	bool in = false, out = false, sw = false;
	if (sm->fabric &&
	    ibp_fabric_find_node_guid(sm->fabric, node_guid, &n) == IBP_OK &&
	    ibp_fabric_node_type(sm->fabric, n) == IBP_NODE_SWITCH &&
	    n < sm->nodes_cap) {
		sw = true;
		in = sm->nodes[n].enf_in_cap;
		out = sm->nodes[n].enf_out_cap;
	}
	if (inbound)
		*inbound = in;
	if (outbound)
		*outbound = out;
	return sw;
}

/* Set PortInfo partition enforcement of switch port (n, p) to the bits
 * `want` gives that port (a rollback), else to the --part-enforce mode. */
static int enforce_port(ibp_sm *sm, size_t n, unsigned p,
			const ibp_tables *want, size_t wn,
			struct ibp_sm_report *rep, ibp_error *err)
{
	bool in, outb;
	ibp_part_enforce_bits(sm->o.enforce, &in, &outb);
	ibp_tables_get_enforcement(want, wn, p, &in, &outb);
	const struct sm_node *nd = &sm->nodes[n];
	const struct dr_path *path = node_path(sm, n, p);
	uint8_t d[IBP_SMP_DATA_SIZE];
	int rc = sm_dr(sm, path, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, p, NULL, d,
		       err);
	if (rc != IBP_OK)
		return rc;
	struct ibp_port_info pi;
	ibp_port_info_decode(&pi, d, sizeof(d), NULL);
	/* A direction the switch cannot enforce keeps what it reads. */
	if (!nd->enf_in_cap)
		in = pi.partition_enforcement_inbound;
	if (!nd->enf_out_cap)
		outb = pi.partition_enforcement_outbound;
	if (pi.partition_enforcement_inbound == in &&
	    pi.partition_enforcement_outbound == outb)
		return IBP_OK;
	if (!sm->o.dry_run) {
		/* the PortInfo read, state fields "no change", only the
		 * enforcement bits changed: OpenSM's Set */
		ibp_port_info_set_enforcement(&pi, in, outb);
		ibp_port_info_encode(&pi, d, sizeof(d), NULL);
		rc = sm_dr(sm, path, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, p, d,
			   d, err);
		if (rc != IBP_OK)
			return rc;
		ibp_port_info_decode(&pi, d, sizeof(d), NULL);
		if (pi.partition_enforcement_inbound != in ||
		    pi.partition_enforcement_outbound != outb)
			return ibp_error_set(err, IBP_EIO,
					     "PortInfo partition enforcement "
					     "did not take");
	}
	rep->enforce_ports++;
	/* The port's table was pushed just before: its entry, if any, is
	 * the last one. */
	if (rep->nchanged &&
	    rep->changed[rep->nchanged - 1].node_guid ==
		ibp_fabric_node_guid(sm->fabric, n) &&
	    rep->changed[rep->nchanged - 1].port == p) {
		rep->changed[rep->nchanged - 1].enforce_changed = true;
		return IBP_OK;
	}
	struct ibp_sm_port cp;
	describe(sm->fabric, n, p, &cp);
	cp.enforce_changed = true;
	add_port(&rep->changed, &rep->nchanged, &cp);
	return IBP_OK;
}

/* Partition enforcement goes on switch ports facing an end port whose
 * table is pushed (OpenSM's leaf ports), when the switch has an
 * enforcement table (PartitionEnforcementCap).  A switch that implements
 * neither enforcement bit is counted in the report and left alone. */
static bool wants_enforcement(const ibp_sm *sm, size_t n, unsigned p,
			      const ibp_tables *want, size_t wn,
			      struct ibp_sm_report *rep)
{
	/* keep_enforcement leaves the bits, except where `want` says
	 * what they must be (a rollback of what was read) */
	if ((sm->o.keep_enforcement &&
	     !ibp_tables_get_enforcement(want, wn, p, NULL, NULL)) ||
	    !leaf_port(sm, n, p))
		return false;
	if (n < sm->nodes_cap &&
	    (sm->nodes[n].enf_in_cap || sm->nodes[n].enf_out_cap))
		return true;
	rep->enforce_unsupported++;
	return false;
}

/* The ports between switches that `want` gives enforcement bits without
 * a table (apply clearing them, as OpenSM does): their PortInfo. */
static int push_isl(ibp_sm *sm, const ibp_tables *want,
		    struct ibp_sm_report *rep, ibp_error *err)
{
	const ibp_fabric *wf = ibp_tables_fabric(want);
	for (size_t wn = 0; wn < ibp_fabric_node_count(wf); wn++) {
		size_t n;
		unsigned np = ibp_fabric_node_nports(wf, wn);
		if (ibp_fabric_node_type(wf, wn) != IBP_NODE_SWITCH ||
		    ibp_fabric_find_node_guid(sm->fabric,
					      ibp_fabric_node_guid(wf, wn), &n))
			continue;
		for (unsigned p = 1; p <= np; p++) {
			if (ibp_tables_get(want, wn, p) ||
			    !ibp_tables_get_enforcement(want, wn, p, NULL,
							NULL) ||
			    !isl_port(sm, n, p))
				continue;
			ibp_error e;
			ibp_error_clear(&e);
			int rc = enforce_port(sm, n, p, want, wn, rep, &e);
			if (rc) {
				fail_port(sm, rep, n, p, &e);
				if (err)
					*err = e;
				return rc;
			}
		}
	}
	return IBP_OK;
}

int ibp_sm_push(ibp_sm *sm, const ibp_tables *want, struct ibp_sm_report *rep,
		ibp_error *err)
{
	memset(rep, 0, sizeof(*rep));
	rep->dry_run = sm->o.dry_run;
	rep->complete = true;
	unsigned long smps0 = sm->smps, to0 = sm->timeouts, re0 = sm->retries;
	int rc = IBP_OK;
	if (!sm->fabric && (rc = ibp_sm_discover(sm, err)) != IBP_OK) {
		rep->complete = false;
		goto out;
	}
	const ibp_fabric *wf = ibp_tables_fabric(want);
	size_t cnt = ibp_tables_count(want);
	/* Which discovered (node, port) each wanted table lands on. */
	for (size_t i = 0; i < cnt; i++) {
		size_t wn, n;
		unsigned p;
		const ibp_pkey_table *wt = ibp_tables_at(want, i, &wn, &p);
		ibp_error e;
		ibp_error_clear(&e);
		if (sm->o.cancel && sm->o.cancel(sm->o.cancel_ctx)) {
			rep->complete = false;
			rc = ibp_error_set(err, IBP_ECANCELED,
					   "the push was cancelled after %zu "
					   "of %zu ports",
					   i, cnt);
			goto out;
		}
		if (ibp_fabric_find_node_guid(sm->fabric,
					      ibp_fabric_node_guid(wf, wn),
					      &n) != IBP_OK) {
			ibp_error_set(
			    &e, IBP_ENOENT, "node 0x%016llx was not discovered",
			    (unsigned long long)ibp_fabric_node_guid(wf, wn));
			struct ibp_sm_port fp;
			describe(wf, wn, p, &fp);
			snprintf(fp.why, sizeof(fp.why), "%s", e.message);
			add_port(&rep->failed, &rep->nfailed, &fp);
			rep->complete = false;
			rc = ibp_error_set(err, IBP_ENOENT, "%s", e.message);
			goto out;
		}
		if (!has_table(sm, n, p)) {
			ibp_error_set(&e, IBP_ENOENT,
				      "port %u of %s has no P_KeyTable", p,
				      ibp_fabric_node_desc(sm->fabric, n));
			rc = fail_port(sm, rep, n, p, &e);
			if (err)
				*err = e;
			goto out;
		}
		rc = push_port(sm, n, p, wt, rep, &e);
		if (rc == IBP_OK && wants_enforcement(sm, n, p, want, wn, rep))
			rc = enforce_port(sm, n, p, want, wn, rep, &e);
		if (rc != IBP_OK) {
			fail_port(sm, rep, n, p, &e);
			if (err)
				*err = e;
			goto out;
		}
	}
	rc = push_isl(sm, want, rep, err);
out:
	rep->smps = sm->smps - smps0;
	rep->timeouts = sm->timeouts - to0;
	rep->retries = sm->retries - re0;
	return rc;
}

static void print_port(FILE *out, const struct ibp_sm_port *p)
{
	char *desc = ibp_escape_text(p->desc, strlen(p->desc));
	fprintf(out, "  0x%016llx port %-3u %-20s",
		(unsigned long long)p->port_guid, p->port, desc ? desc : "?");
	free(desc);
	if (p->blocks) {
		fprintf(out, " P_KeyTable block%s", p->blocks > 1 ? "s" : "");
		for (unsigned b = 0; b < 32; b++)
			if (p->block_mask & (1u << b))
				fprintf(out, " %u", b);
	}
	if (p->enforce_changed)
		fprintf(out, " PortInfo enforcement");
	if (p->why[0])
		fprintf(out, " FAILED: %s", p->why);
	fputc('\n', out);
}

void ibp_sm_report_print(const struct ibp_sm_report *r, FILE *out)
{
	fprintf(out, "%s: %lu SMPs sent (%lu timed out, %lu retries)\n",
		r->dry_run ? "SM plan (dry run, nothing written)"
			   : "SM partition push",
		r->smps, r->timeouts, r->retries);
	fprintf(out,
		"  P_KeyTable: %lu ports checked, %lu blocks read, %lu "
		"blocks %s",
		r->ports_checked, r->blocks_read, r->blocks_written,
		r->dry_run ? "to write" : "written");
	if (!r->dry_run)
		fprintf(out, ", %lu confirmed by read-back",
			r->blocks_confirmed);
	fprintf(out,
		"\n  PortInfo partition enforcement %s on %lu switch "
		"port(s)\n",
		r->dry_run ? "to change" : "changed", r->enforce_ports);
	if (r->enforce_unsupported)
		fprintf(out,
			"  PortInfo partition enforcement left as is on %lu "
			"leaf port(s): their switch implements neither "
			"enforcement bit (SwitchInfo)\n",
			r->enforce_unsupported);
	fprintf(out, "  ports %s: %zu\n", r->dry_run ? "to change" : "changed",
		r->nchanged);
	for (size_t i = 0; i < r->nchanged; i++)
		print_port(out, &r->changed[i]);
	if (!r->complete) {
		fprintf(out, "  INCOMPLETE: stopped at %zu failed port(s):\n",
			r->nfailed);
		for (size_t i = 0; i < r->nfailed; i++)
			print_port(out, &r->failed[i]);
	}
}

/* ---- traps ---- */

void ibp_sm_trap_from_notice(const struct ibp_notice *no,
			     struct ibp_sm_trap *out)
{
	struct ibp_sm_trap t = {.number = no->trap_num,
				.issuer_lid = no->issuer_lid};
	if (no->trap_num == IBP_TRAP_BAD_PKEY) {
		struct ibp_trap_257 d;
		ibp_trap_257_from_details(&d, no->data_details);
		t.lids_valid = t.pkey_valid = true;
		t.lid1 = d.lid1;
		t.lid2 = d.lid2;
		t.pkey = (uint16_t)d.key;
	} else {
		struct ibp_trap_259 d;
		ibp_trap_259_from_details(&d, no->data_details);
		unsigned both = IBP_TRAP259_VALID_LID1 | IBP_TRAP259_VALID_LID2;
		t.lids_valid = (d.data_valid & both) == both;
		t.lid1 = t.lids_valid ? d.lid1 : 0;
		t.lid2 = t.lids_valid ? d.lid2 : 0;
		t.pkey_valid = d.data_valid & IBP_TRAP259_VALID_PKEY;
		t.pkey = t.pkey_valid ? d.pkey : 0;
		t.sw_port = d.port;
	}
	*out = t;
}

/* A Bad P_Key trap's DataDetails (14.2.5.1) kept for
 * ibp_sm_traps_take; the oldest dropped when the ring is full (or
 * cannot be had: the count stays right). */
static void keep_trap(ibp_sm *sm, const struct ibp_notice *no)
{
	if (!sm->kept)
		sm->kept = calloc(IBP_SM_TRAPS_KEPT, sizeof(*sm->kept));
	if (!sm->kept)
		return;
	struct ibp_sm_trap t;
	ibp_sm_trap_from_notice(no, &t);
	if (sm->kept_len == IBP_SM_TRAPS_KEPT) {
		sm->kept_head = (sm->kept_head + 1) % IBP_SM_TRAPS_KEPT;
		sm->kept_len--;
	}
	sm->kept[(sm->kept_head + sm->kept_len++) % IBP_SM_TRAPS_KEPT] = t;
}

size_t ibp_sm_traps_take(ibp_sm *sm, struct ibp_sm_trap *out, size_t max)
{
	size_t n = 0;
	for (; n < max && sm->kept_len; n++) {
		out[n] = sm->kept[sm->kept_head];
		sm->kept_head = (sm->kept_head + 1) % IBP_SM_TRAPS_KEPT;
		sm->kept_len--;
	}
	return n;
}

int ibp_sm_poll_traps(ibp_sm *sm, unsigned *got, ibp_error *err)
{
	unsigned n = 0;
	for (;;) {
		uint8_t buf[IBP_MAD_SIZE];
		ibp_error e;
		int rc = ibp_transport_recv(sm->t, buf, 0, &e);
		if (rc == IBP_ETIMEDOUT)
			break;
		if (rc != IBP_OK) {
			if (err)
				*err = e;
			if (got)
				*got = n;
			return rc;
		}
		struct ibp_smp smp;
		struct ibp_notice no;
		if (ibp_smp_decode(&smp, buf, sizeof(buf), NULL) != IBP_OK ||
		    smp.method != IBP_METHOD_TRAP ||
		    smp.attr_id != IBP_ATTR_NOTICE ||
		    ibp_notice_decode(&no, smp.data, sizeof(smp.data), NULL) !=
			IBP_OK)
			continue;
		n++;
		if (no.trap_num == IBP_TRAP_BAD_PKEY)
			sm->traps_257++;
		else if (no.trap_num == IBP_TRAP_SWITCH_BAD_PKEY)
			sm->traps_259++;
		else
			sm->traps_other++;
		if (no.is_generic && (no.trap_num == IBP_TRAP_BAD_PKEY ||
				      no.trap_num == IBP_TRAP_SWITCH_BAD_PKEY))
			keep_trap(sm, &no);
	}
	if (got)
		*got = n;
	return IBP_OK;
}

unsigned long ibp_sm_trap_count(const ibp_sm *sm, unsigned trap_number)
{
	if (trap_number == IBP_TRAP_BAD_PKEY)
		return sm->traps_257;
	if (trap_number == IBP_TRAP_SWITCH_BAD_PKEY)
		return sm->traps_259;
	return sm->traps_257 + sm->traps_259 + sm->traps_other;
}
