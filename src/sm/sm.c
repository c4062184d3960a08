/*
 * sm.c - the SM handle (include/ibpart/sys/sm.h): its options and counters,
 * and the SMP exchange every job of the SM goes through (sm_priv.h).
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

#include "sm/sm_priv.h"
#include "util/options_version.h"

IBP_OPTIONS_LAYOUT(sm_options_layout, "SM options", IBP_SM_OPTIONS_VERSION,
		   sizeof(struct ibp_sm_options));

/* The library's defaults, a whole current struct. */
static void sm_options_defaults(struct ibp_sm_options *o)
{
	memset(o, 0, sizeof(*o));
	o->timeout_ms = 100;
	o->retries = 3;
	o->enforce = IBP_ENFORCE_BOTH;
	o->max_wire_smps = 4;
	o->version = IBP_SM_OPTIONS_VERSION;
}

void ibp_sm_options_init(struct ibp_sm_options *o, unsigned version)
{
	struct ibp_sm_options d;
	sm_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &sm_options_layout);
}

int ibp_sm_new(ibp_transport *t, const struct ibp_sm_options *o, ibp_sm **out,
	       ibp_error *err)
{
	*out = NULL;
	struct ibp_sm_options own;
	sm_options_defaults(&own);
	if (ibp_options_take(&own, o, &sm_options_layout, err))
		return IBP_EINVAL;
	ibp_sm *sm = calloc(1, sizeof(*sm));
	if (!sm)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	sm->t = t;
	sm->o = own;
	sm->tid = 0x1b9a000000000000ull;
	*out = sm;
	return IBP_OK;
}

int ibp_sm_set_options(ibp_sm *sm, const struct ibp_sm_options *o,
		       ibp_error *err)
{
	struct ibp_sm_options own; /* a version it cannot read: unchanged */
	sm_options_defaults(&own);
	if (ibp_options_take(&own, o, &sm_options_layout, err))
		return IBP_EINVAL;
	sm->o = own;
	return IBP_OK;
}

void sm_free_nodes(ibp_sm *sm)
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

struct ibp_sm_discovery {
	ibp_fabric *fabric;
	struct sm_node *nodes;
	size_t nodes_cap;
	ibp_diags *found;
};

ibp_sm_discovery *ibp_sm_discovery_take(ibp_sm *sm)
{
	if (!sm->fabric)
		return NULL;
	ibp_sm_discovery *d = malloc(sizeof(*d));
	if (!d)
		return NULL;
	*d =
	    (ibp_sm_discovery){sm->fabric, sm->nodes, sm->nodes_cap, sm->found};
	sm->fabric = NULL;
	sm->nodes = NULL;
	sm->nodes_cap = 0;
	sm->found = NULL;
	return d;
}

void ibp_sm_discovery_give(ibp_sm *sm, ibp_sm_discovery *d)
{
	sm_free_nodes(sm);
	ibp_fabric_free(sm->fabric);
	ibp_diags_free(sm->found);
	sm->fabric = d->fabric;
	sm->nodes = d->nodes;
	sm->nodes_cap = d->nodes_cap;
	sm->found = d->found;
	free(d);
}

void ibp_sm_discovery_free(ibp_sm_discovery *d)
{
	if (!d)
		return;
	ibp_sm s = {
	    .fabric = d->fabric, .nodes = d->nodes, .nodes_cap = d->nodes_cap};
	sm_free_nodes(&s);
	ibp_fabric_free(s.fabric);
	ibp_diags_free(d->found);
	free(d);
}

size_t ibp_sm_discovery_nodes(const ibp_sm_discovery *d)
{
	return d && d->fabric ? ibp_fabric_node_count(d->fabric) : 0;
}

void ibp_sm_free(ibp_sm *sm)
{
	if (!sm)
		return;
	sm_free_nodes(sm);
	ibp_fabric_free(sm->fabric);
	free(sm->beyond);
	free(sm->kept);
	ibp_diags_free(sm->found);
	free(sm);
}

const ibp_fabric *ibp_sm_fabric(const ibp_sm *sm)
{
	return sm->fabric;
}

const ibp_diags *ibp_sm_discovery_findings(const ibp_sm *sm)
{
	return sm->found;
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
int sm_smp(ibp_sm *sm, const struct dr_path *path, uint16_t dlid,
	   uint8_t method, uint16_t attr, uint32_t mod, const uint8_t *data,
	   uint8_t out[IBP_SMP_DATA_SIZE], ibp_error *err)
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

int sm_dr(ibp_sm *sm, const struct dr_path *path, uint8_t method, uint16_t attr,
	  uint32_t mod, const uint8_t *data, uint8_t out[IBP_SMP_DATA_SIZE],
	  ibp_error *err)
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
	struct ibp_port_info pi;
	if (rc == IBP_OK)
		rc = ibp_port_info_decode(&pi, d, sizeof(d), err);
	if (rc)
		return rc;
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
	/* *running stays false when this PortInfo cannot be had */
	if (running &&
	    sm_smp(sm, NULL, sm_lid, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 0,
		   NULL, d, NULL) == IBP_OK &&
	    ibp_port_info_decode(&pi, d, sizeof(d), NULL) == IBP_OK)
		*running = (pi.capability_mask & IBP_CAP_IS_SM) != 0;
	return IBP_OK;
}

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
int sm_gets_add(struct sm_get **g, size_t *n, size_t *cap,
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

int sm_dr_get_batch(ibp_sm *sm, struct sm_get *g, size_t n, ibp_error *err)
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
