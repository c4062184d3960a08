/*
 * monitor_sweep.c - one monitoring sweep (see include/ibpart/monitor.h):
 * the ports to read (every CA port and every switch port facing one, from
 * the discovered fabric), the local port's P_KeyTable (is it a full
 * member of 0x7fff?), each node's PMA ClassPortInfo (which PortCounters
 * attribute carries the constraint errors; read once per state), then the
 * counters - PerfMgt GMPs and PortInfo SMPs of every port in one pipelined
 * batch per chunk of ports - folded into the caller's state, and cleared when
 * asked. Re-sends of unanswered MADs are this file's, as the SM's are sm.c's.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibpart/sys/mad.h"
#include "ibpart/sys/perfmgt.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/sm.h"
#include "ibpart/sys/transport.h"
#include "monitor/monitor_priv.h"
#include "live/live_lib.h"
#include "monitor/monitor_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"
#include "conf/conf_lib.h"
#include "ibpart/sys/monitor.h"

#define CHUNK_PORTS 2048 /* ports per batch: bounds the MAD buffers */

IBP_OPTIONS_LAYOUT(monitor_options_layout, "monitor options",
		   IBP_MONITOR_OPTIONS_VERSION,
		   offsetof(struct ibp_monitor_options, opensm_log_path),
		   offsetof(struct ibp_monitor_options, audit),
		   offsetof(struct ibp_monitor_options, subscribe),
		   sizeof(struct ibp_monitor_options));

/* The library's defaults, a whole current struct. */
static void monitor_options_defaults(struct ibp_monitor_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_MONITOR_OPTIONS_VERSION;
	o->retries = -1;
	o->sa_key = 1; /* OpenSM's default sa_key */
}

int monitor_options_take_over(struct ibp_monitor_options *full,
			      const struct ibp_monitor_options *o,
			      ibp_error *err)
{
	return ibp_options_take(full, o, &monitor_options_layout, err);
}

int monitor_options_take(struct ibp_monitor_options *own,
			 const struct ibp_monitor_options *o, ibp_error *err)
{
	monitor_options_defaults(own);
	return monitor_options_take_over(own, o, err);
}

void ibp_monitor_options_init(struct ibp_monitor_options *o, unsigned version)
{
	struct ibp_monitor_options d;
	monitor_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &monitor_options_layout);
}

const char *ibp_monitor_counter_name(ibp_monitor_counter c)
{
	switch (c) {
	case IBP_MON_XMIT_CONSTRAINT:
		return "PortXmitConstraintErrors";
	case IBP_MON_RCV_CONSTRAINT:
		return "PortRcvConstraintErrors";
	case IBP_MON_PKEY_VIOLATIONS:
		return "P_KeyViolations";
	case IBP_MON_MKEY_VIOLATIONS:
		return "M_KeyViolations";
	case IBP_MON_QKEY_VIOLATIONS:
		return "Q_KeyViolations";
	default:
		return "?";
	}
}

static double now_s(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *monitor_keep(ibp_monitor_sweep *r, const char *s)
{
	if (r->nnames == r->names_cap) {
		size_t cap = r->names_cap ? r->names_cap * 2 : 64;
		char **n = realloc(r->names, cap * sizeof(*n));
		if (!n)
			return NULL;
		r->names = n;
		r->names_cap = cap;
	}
	char *c = strdup(s ? s : "");
	if (c)
		r->names[r->nnames++] = c;
	return c;
}

/* The MADs of one batch: buffers and transfers. */
struct batch {
	uint8_t (*req)[IBP_MAD_SIZE];
	uint8_t (*resp)[IBP_MAD_SIZE];
	struct ibp_smp_xfer *x;
	size_t n, cap;
};

static int batch_reserve(struct batch *b, size_t cap)
{
	if (cap <= b->cap)
		return IBP_OK;
	void *q = realloc(b->req, cap * IBP_MAD_SIZE);
	if (!q)
		return IBP_ENOMEM;
	b->req = q;
	q = realloc(b->resp, cap * IBP_MAD_SIZE);
	if (!q)
		return IBP_ENOMEM;
	b->resp = q;
	q = realloc(b->x, cap * sizeof(*b->x));
	if (!q)
		return IBP_ENOMEM;
	b->x = q;
	b->cap = cap;
	return IBP_OK;
}

static void batch_free(struct batch *b)
{
	free(b->req);
	free(b->resp);
	free(b->x);
	memset(b, 0, sizeof(*b));
}

/* Slot i of b (b->n grows), addressed to dlid. */
static uint8_t *batch_add(struct batch *b, uint16_t dlid)
{
	size_t i = b->n++;
	b->x[i].req = b->req[i];
	b->x[i].resp = b->resp[i];
	b->x[i].dlid = dlid;
	b->x[i].rc = IBP_ENOENT;
	return b->req[i];
}

struct ctx {
	ibp_transport *t;
	ibp_monitor_state *st;
	unsigned window;
	int timeout_ms, retries;
	ibp_monitor_sweep *r;
};

/* Send the batch, then re-send what went unanswered up to retries
 * times.  The transport's failure as a whole is returned. */
static int batch_run(struct ctx *c, struct batch *b, ibp_error *err)
{
	int rc = ibp_transport_smp_batch(c->t, b->x, b->n, c->window,
					 c->timeout_ms, err);
	for (int k = 0; rc == IBP_OK && k < c->retries; k++) {
		size_t m = 0;
		for (size_t i = 0; i < b->n; i++)
			if (b->x[i].rc == IBP_ETIMEDOUT)
				m++;
		if (!m)
			break;
		struct ibp_smp_xfer *y = malloc(m * sizeof(*y));
		size_t *at = malloc(m * sizeof(*at));
		if (!y || !at) {
			free(y);
			free(at);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		m = 0;
		for (size_t i = 0; i < b->n; i++)
			if (b->x[i].rc == IBP_ETIMEDOUT) {
				at[m] = i;
				y[m++] = b->x[i];
			}
		rc = ibp_transport_smp_batch(c->t, y, m, c->window,
					     c->timeout_ms, err);
		for (size_t j = 0; j < m; j++)
			b->x[at[j]].rc = y[j].rc;
		free(y);
		free(at);
	}
	for (size_t i = 0; i < b->n; i++) {
		if (b->req[i][1] == IBP_MGMT_CLASS_PERF)
			c->r->gmps++;
		else
			c->r->smps++;
	}
	return rc;
}

/* The data of a good PerfMgt GetResp, else NULL. */
static const uint8_t *gmp_data(const struct batch *b, size_t i)
{
	struct ibp_perf_mad h;
	if (b->x[i].rc != IBP_OK ||
	    ibp_perf_mad_decode(&h, b->resp[i], IBP_MAD_SIZE, NULL) != IBP_OK ||
	    h.mgmt_class != IBP_MGMT_CLASS_PERF ||
	    h.method != IBP_METHOD_GET_RESP || h.status != 0)
		return NULL;
	return b->resp[i] + IBP_PERF_DATA_OFFSET;
}

/* A good SMP GetResp into *smp. */
static bool smp_ok(const struct batch *b, size_t i, struct ibp_smp *smp)
{
	return b->x[i].rc == IBP_OK &&
	       ibp_smp_decode(smp, b->resp[i], IBP_MAD_SIZE, NULL) == IBP_OK &&
	       smp->method == IBP_METHOD_GET_RESP &&
	       (smp->status & IBP_SMP_STATUS_MASK) == 0;
}

/* Is the local port a full member of the default partition?  Its
 * P_KeyTable by directed-route SMPs of hop count 0. */
static int read_local(struct ctx *c, const ibp_fabric *df, uint64_t guid,
		      ibp_error *err)
{
	size_t n;
	unsigned p;
	c->r->local_port_guid = guid;
	if (ibp_fabric_find_port_guid(df, guid, &n, &p) != IBP_OK)
		return IBP_OK; /* unknown: reported not full */
	unsigned cap = ibp_fabric_port_capacity(df, n, p);
	unsigned blocks = cap ? (cap + 31) / 32 : 1;
	struct batch b = {0};
	int rc = batch_reserve(&b, blocks);
	if (rc) {
		batch_free(&b);
		return ibp_error_set(err, rc, "out of memory");
	}
	for (unsigned k = 0; k < blocks && rc == IBP_OK; k++) {
		struct ibp_smp smp;
		rc = ibp_smp_init_dr(&smp, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE,
				     ibp_pkey_attr_mod(k, 0), NULL, 0,
				     monitor_state_tid(c->st), 0, err);
		if (rc == IBP_OK)
			rc = ibp_smp_encode(&smp, batch_add(&b, 0),
					    IBP_MAD_SIZE, err);
	}
	if (rc == IBP_OK)
		rc = batch_run(c, &b, err);
	for (size_t i = 0; rc == IBP_OK && i < b.n; i++) {
		struct ibp_smp smp;
		uint16_t keys[IBP_PKEY_BLOCK_ENTRIES];
		if (!smp_ok(&b, i, &smp) ||
		    ibp_pkey_block_decode(keys, smp.data, sizeof(smp.data),
					  NULL) != IBP_OK)
			continue;
		for (unsigned e = 0; e < IBP_PKEY_BLOCK_ENTRIES; e++)
			if (keys[e] == 0xffff)
				c->r->full_member = true;
	}
	batch_free(&b);
	return rc;
}

/* The ports to read: CA ports with a link, switch ports linked to a
 * CA or router port (the leaf ports). */
static int list_ports(ibp_monitor_sweep *r, const ibp_fabric *df,
		      size_t **node_of, ibp_error *err)
{
	size_t cap = 0;
	size_t nn = ibp_fabric_node_count(df);
	for (int pass = 0; pass < 2; pass++) {
		size_t k = 0;
		for (size_t n = 0; n < nn; n++) {
			bool sw =
			    ibp_fabric_node_type(df, n) == IBP_NODE_SWITCH;
			unsigned np = ibp_fabric_node_nports(df, n);
			for (unsigned p = 1; p <= np; p++) {
				size_t pn;
				unsigned pp;
				if (!ibp_fabric_port_peer(df, n, p, &pn, &pp))
					continue;
				bool peer_sw = ibp_fabric_node_type(df, pn) ==
					       IBP_NODE_SWITCH;
				if (sw && peer_sw)
					continue;
				if (pass == 0) {
					cap++;
					continue;
				}
				struct ibp_monitor_port *q = &r->ports[k];
				(*node_of)[k++] = n;
				ibp_port_link link;
				ibp_fabric_port_link(df, n, sw ? 0 : p, &link);
				q->node_guid = ibp_fabric_node_guid(df, n);
				q->port_guid =
				    ibp_fabric_port_guid(df, n, sw ? 0 : p);
				q->port = p;
				q->is_switch = sw;
				q->lid = link.lid;
				q->desc = monitor_keep(
				    r, ibp_fabric_node_desc(df, n));
				size_t fn = sw ? pn : n;
				unsigned fp = sw ? pp : p;
				q->facing_port_guid =
				    ibp_fabric_port_guid(df, fn, fp);
				q->facing_desc =
				    sw ? monitor_keep(
					     r, ibp_fabric_node_desc(df, fn))
				       : q->desc;
				if (!q->desc || !q->facing_desc)
					return ibp_error_set(err, IBP_ENOMEM,
							     "out of memory");
			}
		}
		if (pass == 0) {
			r->ports = calloc(cap ? cap : 1, sizeof(*r->ports));
			*node_of = calloc(cap ? cap : 1, sizeof(**node_of));
			if (!r->ports || !*node_of)
				return ibp_error_set(err, IBP_ENOMEM,
						     "out of memory");
			r->nports = cap;
		}
	}
	return IBP_OK;
}

/* Each node's PMA: ClassPortInfo once per node (at the LID of its first
 * port listed), unless the state kept its answer from an earlier sweep. */
static int read_cpi(struct ctx *c, const size_t *node_of, size_t nn,
		    unsigned char *pma, ibp_error *err)
{
	ibp_monitor_sweep *r = c->r;
	size_t *which = malloc((nn ? nn : 1) * sizeof(*which)); /* slot->node */
	uint64_t *guid_of = malloc((nn ? nn : 1) * sizeof(*guid_of));
	struct batch b = {0};
	int rc = which && guid_of ? batch_reserve(&b, nn ? nn : 1) : IBP_ENOMEM;
	if (rc) {
		free(which);
		free(guid_of);
		batch_free(&b);
		return ibp_error_set(err, rc, "out of memory");
	}
	for (size_t n = 0; n < nn; n++)
		pma[n] = PMA_UNKNOWN;
	for (size_t i = 0; i < r->nports && rc == IBP_OK; i++) {
		size_t n = node_of[i];
		if (pma[n] != PMA_UNKNOWN || !r->ports[i].lid ||
		    r->ports[i].pma_skipped)
			continue;
		uint64_t guid = r->ports[i].node_guid;
		if ((pma[n] = monitor_state_pma(c->st, guid)) != PMA_UNKNOWN)
			continue;
		pma[n] = PMA_NONE; /* until it answers */
		which[b.n] = n;
		guid_of[b.n] = guid;
		rc = ibp_perf_mad_init(batch_add(&b, r->ports[i].lid),
				       IBP_MAD_SIZE, IBP_METHOD_GET,
				       IBP_PERF_ATTR_CLASS_PORT_INFO, 0,
				       monitor_state_tid(c->st), err);
	}
	if (rc == IBP_OK)
		rc = batch_run(c, &b, err);
	for (size_t i = 0; rc == IBP_OK && i < b.n; i++) {
		const uint8_t *d = gmp_data(&b, i);
		struct ibp_class_port_info cpi;
		if (!d || ibp_class_port_info_decode(
			      &cpi, d, IBP_PERF_DATA_SIZE, NULL) != IBP_OK)
			continue;
		pma[which[i]] = ibp_class_port_info_has_ext_errors(&cpi)
				    ? PMA_64BIT
				    : PMA_8BIT;
		if (monitor_state_set_pma(c->st, guid_of[i], pma[which[i]]))
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	free(which);
	free(guid_of);
	batch_free(&b);
	return rc;
}

/* The counters of ports [from, to): a GMP and a PortInfo SMP each. */
static int read_counters(struct ctx *c, const size_t *node_of,
			 const unsigned char *pma, size_t from, size_t to,
			 struct batch *b, ibp_error *err)
{
	ibp_monitor_sweep *r = c->r;
	b->n = 0;
	int rc = IBP_OK;
	for (size_t i = from; i < to && rc == IBP_OK; i++) {
		struct ibp_monitor_port *q = &r->ports[i];
		if (!q->lid)
			continue;
		unsigned char kind =
		    q->pma_skipped ? PMA_NONE : pma[node_of[i]];
		uint8_t *g = batch_add(b, q->lid);
		if (kind == PMA_8BIT || kind == PMA_64BIT) {
			bool ext = kind == PMA_64BIT;
			rc = ibp_perf_mad_init(
			    g, IBP_MAD_SIZE, IBP_METHOD_GET,
			    ext ? IBP_PERF_ATTR_PORT_COUNTERS_EXT
				: IBP_PERF_ATTR_PORT_COUNTERS,
			    0, monitor_state_tid(c->st), err);
			g[IBP_PERF_DATA_OFFSET + 1] = (uint8_t)q->port;
		} else {
			b->n--; /* no PMA: only the SMP */
		}
		struct ibp_smp smp;
		ibp_smp_init_lid(&smp, IBP_METHOD_GET, IBP_ATTR_PORT_INFO,
				 q->port, monitor_state_tid(c->st), 0);
		if (rc == IBP_OK)
			rc = ibp_smp_encode(&smp, batch_add(b, q->lid),
					    IBP_MAD_SIZE, err);
	}
	if (rc == IBP_OK)
		rc = batch_run(c, b, err);
	size_t k = 0;
	for (size_t i = from; i < to && rc == IBP_OK; i++) {
		struct ibp_monitor_port *q = &r->ports[i];
		if (!q->lid) {
			r->unread++;
			continue;
		}
		unsigned char kind =
		    q->pma_skipped ? PMA_NONE : pma[node_of[i]];
		if (kind == PMA_8BIT || kind == PMA_64BIT) {
			const uint8_t *d = gmp_data(b, k++);
			if (d && kind == PMA_64BIT) {
				struct ibp_port_counters_ext e;
				ibp_port_counters_ext_decode(
				    &e, d, IBP_PERF_DATA_SIZE, NULL);
				q->raw[IBP_MON_XMIT_CONSTRAINT] =
				    e.port_xmit_constraint_errors;
				q->raw[IBP_MON_RCV_CONSTRAINT] =
				    e.port_rcv_constraint_errors;
				q->pma_read = q->pma_64bit = true;
			} else if (d) {
				struct ibp_port_counters pc;
				ibp_port_counters_decode(
				    &pc, d, IBP_PERF_DATA_SIZE, NULL);
				q->raw[IBP_MON_XMIT_CONSTRAINT] =
				    pc.port_xmit_constraint_errors;
				q->raw[IBP_MON_RCV_CONSTRAINT] =
				    pc.port_rcv_constraint_errors;
				q->pma_read = true;
			}
		}
		struct ibp_smp smp;
		struct ibp_port_info pi;
		if (smp_ok(b, k++, &smp) &&
		    ibp_port_info_decode(&pi, smp.data, sizeof(smp.data),
					 NULL) == IBP_OK) {
			q->raw[IBP_MON_PKEY_VIOLATIONS] = pi.pkey_violations;
			q->raw[IBP_MON_MKEY_VIOLATIONS] = pi.mkey_violations;
			q->raw[IBP_MON_QKEY_VIOLATIONS] = pi.qkey_violations;
			q->smp_read = true;
		}
		if ((!q->pma_read && !q->pma_skipped) || !q->smp_read)
			r->unread++;
		if (q->pma_skipped)
			r->skipped++;
		rc = monitor_state_update(c->st, q, err);
	}
	return rc;
}

/* o->reset: a PortCounters Set clearing both constraint error counters
 * (CounterSelect bits 7 and 8, 16.1.3.5) of every port read. */
static int reset_counters(struct ctx *c, size_t from, size_t to,
			  struct batch *b, ibp_error *err)
{
	ibp_monitor_sweep *r = c->r;
	b->n = 0;
	int rc = IBP_OK;
	for (size_t i = from; i < to && rc == IBP_OK; i++) {
		const struct ibp_monitor_port *q = &r->ports[i];
		if (!q->pma_read)
			continue;
		uint8_t *g = batch_add(b, q->lid);
		rc = ibp_perf_mad_init(g, IBP_MAD_SIZE, IBP_METHOD_SET,
				       IBP_PERF_ATTR_PORT_COUNTERS, 0,
				       monitor_state_tid(c->st), err);
		struct ibp_port_counters pc = {
		    .port_select = (uint8_t)q->port,
		    .counter_select = IBP_PC_SELECT_XMIT_CONSTRAINT |
				      IBP_PC_SELECT_RCV_CONSTRAINT};
		if (rc == IBP_OK)
			rc = ibp_port_counters_encode(&pc,
						      g + IBP_PERF_DATA_OFFSET,
						      IBP_PERF_DATA_SIZE, err);
	}
	if (rc == IBP_OK)
		rc = batch_run(c, b, err);
	size_t k = 0;
	for (size_t i = from; i < to && rc == IBP_OK; i++) {
		const struct ibp_monitor_port *q = &r->ports[i];
		if (!q->pma_read)
			continue;
		if (gmp_data(b, k++)) {
			monitor_state_cleared(c->st, q->node_guid, q->port);
			r->reset_ports++;
		}
	}
	return rc;
}

/* The plan (fail closed: a plan with errors, or one OpenSM would reject,
 * has no tenants to attribute to) and the tables it gives the ports. */
static int read_plan(ibp_live *l, const struct ibp_monitor_options *o,
		     ibp_conf **conf, ibp_tables **want, ibp_diags *diags,
		     ibp_error *err)
{
	struct ibp_live_plan_options po = {
	    .conf_path = o->conf_path,
	    .mode = o->mode ? o->mode : "opensm",
	    .sm_port_guid = ibp_live_sm_port_guid(l),
	    .allow_both_pkeys = o->allow_both_pkeys,
	    .fail_closed = true,
	    .max_input_size = o->max_input_size,
	    .part_enforce = IBP_ENFORCE_BOTH,
	};
	int rc = ibp_live_plan(&po, ibp_live_fabric(l), want, conf, diags, err);
	if (rc && rc != IBP_ENOMEM && rc != IBP_EPARSE)
		rc = IBP_EINVAL; /* the caller's input, not the fabric */
	if (err && rc)
		err->status = rc;
	return rc;
}

/* A GMP reaches a PMA only if its port holds a key of the default
 * partition (the monitor sends 0xffff, IBA 10.9.3): where the plan gives
 * that end port (a CA port, or the switch's port 0) none - strict mode -
 * no GMP is sent and its counters come from SMPs only. */
static void mark_unreachable(ibp_monitor_sweep *r, const ibp_fabric *pf,
			     const ibp_tables *want)
{
	for (size_t i = 0; i < r->nports; i++) {
		struct ibp_monitor_port *q = &r->ports[i];
		size_t n;
		unsigned p;
		if (ibp_fabric_find_port_guid(pf, q->port_guid, &n, &p) !=
		    IBP_OK)
			continue; /* not in the plan's fabric: try */
		const ibp_pkey_table *t = ibp_tables_get(want, n, p);
		q->pma_skipped = t && ibp_pkey_table_find_base(t, 0x7fff) < 0;
	}
}

/* The Bad P_Key traps of this sweep: OpenSM's log since the last one,
 * and the caller's (options version 2). */
static int count_traps(ibp_live *l, ibp_monitor_sweep *r, ibp_monitor_state *st,
		       const struct ibp_monitor_options *o, ibp_diags *diags,
		       ibp_error *err)
{
	if (o->version < 2)
		return IBP_OK;
	struct monitor_traps v = {0}, same = {0};
	bool reported = false;
	int rc = monitor_inform_sweep(l, o, st, &v, &reported, diags, err);
	/* subscribed: the log's lines are the same traps, read past */
	if (rc == IBP_OK && o->opensm_log_path)
		rc = monitor_log_read(st, o->opensm_log_path,
				      reported ? &same : &v, err);
	monitor_traps_free(&same);
	for (size_t i = 0; rc == IBP_OK && o->traps && i < o->ntraps; i++)
		if (monitor_traps_push(&v, &o->traps[i]))
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	r->log_malformed = v.malformed;
	if (rc == IBP_OK)
		rc = monitor_traps_count(r, st, &v, err);
	monitor_traps_free(&v);
	return rc;
}

int ibp_monitor_sweep_run(ibp_live *l, const struct ibp_monitor_options *o,
			  ibp_monitor_state *st, ibp_monitor_sweep **out,
			  ibp_diags *diags, ibp_error *err)
{
	*out = NULL;
	struct ibp_monitor_options own;
	if (monitor_options_take(&own, o, err))
		return IBP_EINVAL;
	o = &own;
	if (!l || !st || !o->conf_path)
		return ibp_error_set(err, IBP_EINVAL,
				     "monitor: bad options (version, the "
				     "plan's path)");
	double t0 = now_s(CLOCK_MONOTONIC);
	int rc = ibp_live_discover(l, err);
	if (rc)
		return rc;
	const ibp_fabric *df = ibp_sm_fabric(ibp_live_sm(l));
	ibp_conf *conf = NULL;
	ibp_tables *want = NULL;
	rc = read_plan(l, o, &conf, &want, diags, err);
	if (rc) {
		ibp_conf_free(conf);
		ibp_tables_free(want);
		return rc;
	}
	ibp_monitor_sweep *r = calloc(1, sizeof(*r));
	if (!r) {
		ibp_conf_free(conf);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	struct ctx c = {
	    .t = ibp_live_transport(l),
	    .st = st,
	    .window = o->window ? o->window : 16,
	    .timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 200,
	    .retries = o->retries >= 0 ? o->retries : 2,
	    .r = r,
	};
	size_t *node_of = NULL;
	size_t nn = ibp_fabric_node_count(df);
	unsigned char *pma = malloc(nn ? nn : 1);
	struct batch b = {0};
	rc = pma ? IBP_OK : ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (rc == IBP_OK)
		rc = read_local(&c, df, ibp_live_local_port_guid(l), err);
	if (rc == IBP_OK)
		rc = list_ports(r, df, &node_of, err);
	if (rc == IBP_OK)
		mark_unreachable(r, ibp_live_fabric(l), want);
	if (rc == IBP_OK)
		rc = count_traps(l, r, st, o, diags, err);
	if (rc == IBP_OK)
		rc = read_cpi(&c, node_of, nn, pma, err);
	if (rc == IBP_OK && batch_reserve(&b, 2 * CHUNK_PORTS) != IBP_OK)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t i = 0; rc == IBP_OK && i < r->nports; i += CHUNK_PORTS) {
		size_t to =
		    i + CHUNK_PORTS < r->nports ? i + CHUNK_PORTS : r->nports;
		rc = read_counters(&c, node_of, pma, i, to, &b, err);
		if (rc == IBP_OK && o->reset)
			rc = reset_counters(&c, i, to, &b, err);
	}
	if (rc == IBP_OK && monitor_state_trap_ports(st, r))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (rc == IBP_OK)
		rc = monitor_attribute(r, conf, ibp_live_sm_port_guid(l), err);
	batch_free(&b);
	free(pma);
	free(node_of);
	ibp_conf_free(conf);
	ibp_tables_free(want);
	if (rc) {
		ibp_monitor_sweep_free(r);
		return rc;
	}
	r->elapsed_ms = (now_s(CLOCK_MONOTONIC) - t0) * 1000.0;
	r->time = now_s(CLOCK_REALTIME);
	*out = r;
	return IBP_OK;
}

void ibp_monitor_sweep_free(ibp_monitor_sweep *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nnames; i++)
		free(s->names[i]);
	free(s->names);
	free(s->ports);
	free(s->tenant_idx);
	free(s->tenants);
	free(s->trap_ports);
	free(s);
}

size_t ibp_monitor_sweep_port_count(const ibp_monitor_sweep *s)
{
	return s->nports;
}

const struct ibp_monitor_port *
ibp_monitor_sweep_port(const ibp_monitor_sweep *s, size_t i)
{
	return i < s->nports ? &s->ports[i] : NULL;
}

size_t ibp_monitor_sweep_tenant_count(const ibp_monitor_sweep *s)
{
	return s->ntenants;
}

const struct ibp_monitor_tenant *
ibp_monitor_sweep_tenant(const ibp_monitor_sweep *s, size_t i)
{
	return i < s->ntenants ? &s->tenants[i] : NULL;
}

bool ibp_monitor_sweep_full_member(const ibp_monitor_sweep *s)
{
	return s->full_member;
}

uint64_t ibp_monitor_sweep_local_port_guid(const ibp_monitor_sweep *s)
{
	return s->local_port_guid;
}

size_t ibp_monitor_sweep_unread(const ibp_monitor_sweep *s)
{
	return s->unread;
}

unsigned long ibp_monitor_sweep_gmps(const ibp_monitor_sweep *s)
{
	return s->gmps;
}

unsigned long ibp_monitor_sweep_smps(const ibp_monitor_sweep *s)
{
	return s->smps;
}

double ibp_monitor_sweep_elapsed_ms(const ibp_monitor_sweep *s)
{
	return s->elapsed_ms;
}

double ibp_monitor_sweep_time(const ibp_monitor_sweep *s)
{
	return s->time;
}

size_t ibp_monitor_sweep_skipped(const ibp_monitor_sweep *s)
{
	return s->skipped;
}

size_t ibp_monitor_sweep_reset_ports(const ibp_monitor_sweep *s)
{
	return s->reset_ports;
}

size_t ibp_monitor_sweep_trap_port_count(const ibp_monitor_sweep *s)
{
	return s->ntrap_ports;
}

const struct ibp_monitor_trap_port *
ibp_monitor_sweep_trap_port(const ibp_monitor_sweep *s, size_t i)
{
	return i < s->ntrap_ports ? &s->trap_ports[i] : NULL;
}

size_t ibp_monitor_sweep_traps(const ibp_monitor_sweep *s)
{
	return s->traps;
}

size_t ibp_monitor_sweep_traps_unplaced(const ibp_monitor_sweep *s)
{
	return s->traps_unplaced;
}
