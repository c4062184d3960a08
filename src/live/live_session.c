/*
 * live_session.c - one live session: the local port opened through
 * transport_umad and the SM (sm.c) running over it, plus the small things
 * every live command wants around them: timing, phase progress through
 * the caller's callback, cancellation, the SM's port, reading tables,
 * and moving a set of tables from one fabric model to another (the
 * discovered fabric and the topology file describe the same subnet with
 * different node orders).  See include/ibpart/live.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ibpart/live.h"
#include "live/live_lib.h"
#include "ibpart/sys/sm.h"
#include "ibpart/sys/transport_umad.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/live.h"

struct ibp_live {
	struct ibp_live_options o;
	ibp_transport *t;
	bool owns_t; /* opened here (umad); else the caller's */
	ibp_umad *u;
	ibp_sm *sm;
	ibp_umad_port_info info;
	struct timespec start;
	bool discovered;
	const ibp_fabric *topology; /* borrowed; NULL: the discovered one */
	uint64_t sm_guid;
	bool sm_running;
	unsigned long smps_discover, smps_read;
};

IBP_OPTIONS_LAYOUT(live_options_layout, "live options",
		   IBP_LIVE_OPTIONS_VERSION, sizeof(struct ibp_live_options),
		   sizeof(struct ibp_live_options));

/* The library's defaults, a whole current struct. */
static void live_options_defaults(struct ibp_live_options *o)
{
	*o = (struct ibp_live_options){0};
	o->version = IBP_LIVE_OPTIONS_VERSION;
	o->retries = -1;
	o->enforce = IBP_ENFORCE_BOTH; /* OpenSM's part_enforce default */
}

void ibp_live_options_init(struct ibp_live_options *o, unsigned version)
{
	struct ibp_live_options d;
	live_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &live_options_layout);
}

int ibp_live_options_take(struct ibp_live_options *own,
			  const struct ibp_live_options *o, ibp_error *err)
{
	live_options_defaults(own);
	return ibp_options_take(own, o, &live_options_layout, err);
}

static int start_sm(ibp_live *l, ibp_error *err)
{
	const struct ibp_live_options *o = &l->o;
	struct ibp_sm_options so;
	ibp_sm_options_init(&so, IBP_SM_OPTIONS_VERSION);
	if (o->timeout_ms > 0)
		so.timeout_ms = o->timeout_ms;
	if (o->retries >= 0)
		so.retries = (unsigned)o->retries;
	if (o->max_wire_smps)
		so.max_wire_smps = o->max_wire_smps;
	so.mkey = o->mkey;
	so.dry_run = o->dry_run;
	so.cancel = o->cancel;
	so.cancel_ctx = o->cancel_ctx;
	if (o->enforce < 0)
		so.keep_enforcement = true;
	else
		so.enforce = (ibp_part_enforce)o->enforce;
	return ibp_sm_new(l->t, &so, &l->sm, err);
}

static ibp_live *new_session(const struct ibp_live_options *o)
{
	ibp_live *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->o = *o;
	clock_gettime(CLOCK_MONOTONIC, &l->start);
	return l;
}

int ibp_live_open(const struct ibp_live_options *o, ibp_live **out,
		  ibp_error *err)
{
	*out = NULL;
	struct ibp_live_options own;
	if (ibp_live_options_take(&own, o, err))
		return IBP_EINVAL;
	o = &own;
	ibp_live *l = new_session(o);
	if (!l)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_umad_options uo;
	ibp_umad_options_init(&uo, IBP_UMAD_OPTIONS_VERSION);
	uo.ca = o->ca;
	uo.port = o->port;
	uo.mkey = o->mkey;
	int rc = ibp_transport_umad_open(&uo, &l->t, &l->u, err);
	if (rc) {
		free(l);
		return rc;
	}
	l->owns_t = true;
	ibp_umad_port_info_get(l->u, &l->info);
	rc = start_sm(l, err);
	if (rc) {
		ibp_live_close(l);
		return rc;
	}
	*out = l;
	return IBP_OK;
}

int ibp_live_open_transport(const struct ibp_live_options *o, ibp_transport *t,
			    uint64_t local_port_guid, ibp_live **out,
			    ibp_error *err)
{
	*out = NULL;
	struct ibp_live_options own;
	if (ibp_live_options_take(&own, o, err))
		return IBP_EINVAL;
	o = &own;
	ibp_live *l = new_session(o);
	if (!l)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	l->t = t;
	l->info.port_guid = local_port_guid;
	snprintf(l->info.ca_name, sizeof(l->info.ca_name), "%s",
		 o->ca ? o->ca : "(transport)");
	l->info.port = o->port;
	int rc = start_sm(l, err);
	if (rc) {
		ibp_live_close(l);
		return rc;
	}
	*out = l;
	return IBP_OK;
}

void ibp_live_close(ibp_live *l)
{
	if (!l)
		return;
	ibp_sm_free(l->sm);
	if (l->owns_t)
		ibp_transport_close(l->t);
	free(l);
}

ibp_sm *ibp_live_sm(ibp_live *l)
{
	return l->sm;
}

ibp_transport *ibp_live_transport(ibp_live *l)
{
	return l->t;
}

uint64_t ibp_live_local_port_guid(const ibp_live *l)
{
	return l->info.port_guid;
}

int ibp_live_master_sm_port(ibp_live *l, uint64_t *port_guid, bool *running,
			    ibp_error *err)
{
	return ibp_sm_master_sm_port(l->sm, port_guid, running, err);
}

const char *ibp_live_local_ca(const ibp_live *l)
{
	return l->info.ca_name;
}

int ibp_live_local_port(const ibp_live *l)
{
	return l->info.port;
}

long ibp_live_elapsed_ms(const ibp_live *l)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)((now.tv_sec - l->start.tv_sec) * 1000 +
		      (now.tv_nsec - l->start.tv_nsec) / 1000000);
}

void ibp_live_progress(const ibp_live *l, const char *fmt, ...)
{
	if (!l->o.progress)
		return;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	l->o.progress(l->o.progress_ctx, ibp_live_elapsed_ms(l), msg);
}

bool ibp_live_dry_run(const ibp_live *l)
{
	return l->o.dry_run;
}

int ibp_live_enforce(const ibp_live *l)
{
	return l->o.enforce < 0 ? -1 : l->o.enforce;
}

bool ibp_live_cancelled(const ibp_live *l)
{
	return l->o.cancel && l->o.cancel(l->o.cancel_ctx);
}

static unsigned long smps_now(const ibp_live *l)
{
	unsigned long smps, to, re;
	ibp_sm_counters(l->sm, &smps, &to, &re);
	return smps;
}

int ibp_live_discover(ibp_live *l, ibp_error *err)
{
	if (l->discovered)
		return IBP_OK;
	if (ibp_live_cancelled(l))
		return ibp_error_set(err, IBP_ECANCELED, "cancelled");
	ibp_live_progress(l,
			  "discovering the fabric by directed route from "
			  "%s port %d ...",
			  l->info.ca_name, l->info.port);
	int rc = ibp_sm_discover(l->sm, err);
	if (rc)
		return rc;
	l->discovered = true;
	unsigned long smps, to, re;
	ibp_sm_counters(l->sm, &smps, &to, &re);
	l->smps_discover = smps;
	ibp_live_progress(l, "discovered %zu nodes (%lu SMPs, %lu timeouts)",
			  ibp_fabric_node_count(ibp_sm_fabric(l->sm)), smps,
			  to);
	return IBP_OK;
}

void ibp_live_discover_reuse(ibp_live *l, struct ibp_sm_discovery *d)
{
	ibp_sm_discovery_give(l->sm, d);
	l->discovered = true;
	l->smps_discover = 0;
}

void ibp_live_set_topology(ibp_live *l, const ibp_fabric *topology)
{
	l->topology = topology;
}

const ibp_fabric *ibp_live_fabric(const ibp_live *l)
{
	return l->topology ? l->topology : ibp_sm_fabric(l->sm);
}

int ibp_live_find_sm(ibp_live *l, const char *spec, ibp_error *err)
{
	const ibp_fabric *f = ibp_live_fabric(l);
	if (!f)
		return ibp_error_set(err, IBP_EINVAL,
				     "the fabric is not discovered yet");
	/* Is an SM running, and where?  Its port is the one OpenSM's plan
	 * makes a full member of the default partition. */
	uint64_t msm = 0;
	int mrc = ibp_live_master_sm_port(l, &msm, &l->sm_running, NULL);
	bool have_msm = mrc == IBP_OK;
	/* Fail closed: a MasterSMLID whose port does not answer may be an
	 * SM that is running; only "no MasterSMLID" (ENOENT) or its port
	 * saying IsSM is clear means none is. */
	if (mrc != IBP_OK && mrc != IBP_ENOENT) {
		l->sm_running = true;
		ibp_live_progress(l, "the local port names a master SM whose "
				     "port does not answer: assuming an SM "
				     "runs");
	}
	size_t n;
	unsigned p;
	if (spec) {
		int rc = ibp_fabric_resolve_port(f, spec, &n, &p, err);
		if (rc)
			return rc;
		l->sm_guid = ibp_fabric_port_guid(f, n, p);
	} else if (have_msm) {
		l->sm_guid = msm;
		ibp_live_progress(l, "the master SM's port is 0x%016llx%s",
				  (unsigned long long)msm,
				  l->sm_running ? "" : " (no longer IsSM)");
	} else {
		l->sm_guid = l->info.port_guid; /* we are the SM */
	}
	if (ibp_fabric_find_port_guid(f, l->sm_guid, &n, &p))
		return ibp_error_set(err, IBP_ENOENT,
				     "the SM port 0x%016llx is not in the %s "
				     "fabric",
				     (unsigned long long)l->sm_guid,
				     l->topology ? "topology's" : "discovered");
	return IBP_OK;
}

uint64_t ibp_live_sm_port_guid(const ibp_live *l)
{
	return l->sm_guid;
}

uint16_t ibp_live_sa_lid(ibp_live *l)
{
	const ibp_fabric *f = ibp_sm_fabric(ibp_live_sm(l));
	size_t n;
	unsigned p;
	ibp_port_link link;
	if (!f || ibp_fabric_find_port_guid(f, l->sm_guid, &n, &p) != IBP_OK ||
	    !ibp_fabric_port_link(f, n, p, &link))
		return 0;
	return link.lid;
}

bool ibp_live_sm_running(const ibp_live *l)
{
	return l->sm_running;
}

int ibp_live_discovery_findings(const ibp_live *l, ibp_diags *diags,
				ibp_error *err)
{
	if (!diags || ibp_diags_append(diags, ibp_sm_discovery_findings(l->sm),
				       NULL) == IBP_OK)
		return IBP_OK;
	return ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

int ibp_live_read_tables(ibp_live *l, ibp_tables **out, ibp_error *err)
{
	*out = NULL;
	if (ibp_live_cancelled(l))
		return ibp_error_set(err, IBP_ECANCELED, "cancelled");
	ibp_live_progress(l, "reading every P_KeyTable ...");
	ibp_tables *raw = NULL;
	unsigned long before = smps_now(l);
	int rc = ibp_sm_read_tables(l->sm, &raw, err);
	l->smps_read += smps_now(l) - before;
	if (rc)
		return rc;
	ibp_live_progress(l, "read %zu ports' tables (%lu SMPs so far)",
			  ibp_tables_count(raw), smps_now(l));
	if (!l->topology) {
		*out = raw;
		return IBP_OK;
	}
	rc = ibp_live_remap(raw, l->topology, out, err);
	ibp_tables_free(raw);
	return rc;
}

void ibp_live_counts_get(const ibp_live *l, struct ibp_live_counts *out)
{
	*out = (struct ibp_live_counts){0};
	ibp_sm_counters(l->sm, &out->smps, &out->timeouts, &out->retries);
	out->smps_discover = l->smps_discover;
	out->smps_read = l->smps_read;
}

int ibp_live_remap(const ibp_tables *src, const ibp_fabric *to,
		   ibp_tables **out, ibp_error *err)
{
	*out = NULL;
	const ibp_fabric *from = ibp_tables_fabric(src);
	ibp_tables *ts = ibp_tables_new(to);
	if (!ts)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t n = ibp_tables_count(src);
	for (size_t i = 0; i < n; i++) {
		size_t node, tn;
		unsigned port;
		const ibp_pkey_table *t = ibp_tables_at(src, i, &node, &port);
		if (ibp_fabric_find_node_guid(
			to, ibp_fabric_node_guid(from, node), &tn) != IBP_OK ||
		    port > ibp_fabric_node_nports(to, tn))
			continue;
		ibp_pkey_table *c = ibp_pkey_table_copy(t);
		if (!c || ibp_tables_put(ts, tn, port, c, err)) {
			ibp_pkey_table_free(c);
			ibp_tables_free(ts);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		bool in, outb;
		if (ibp_tables_get_enforcement(src, node, port, &in, &outb))
			ibp_tables_set_enforcement(ts, tn, port, in, outb);
	}
	/* and the bits of ports without a table (between switches) */
	for (size_t node = 0; node < ibp_fabric_node_count(from); node++) {
		size_t tn;
		bool in, outb;
		if (ibp_fabric_node_type(from, node) != IBP_NODE_SWITCH ||
		    ibp_fabric_find_node_guid(
			to, ibp_fabric_node_guid(from, node), &tn) != IBP_OK)
			continue;
		for (unsigned port = 1;
		     port <= ibp_fabric_node_nports(from, node) &&
		     port <= ibp_fabric_node_nports(to, tn);
		     port++)
			if (!ibp_tables_get(src, node, port) &&
			    ibp_tables_get_enforcement(src, node, port, &in,
						       &outb) &&
			    ibp_tables_set_enforcement(ts, tn, port, in,
						       outb)) {
				ibp_tables_free(ts);
				return ibp_error_set(err, IBP_ENOMEM,
						     "out of memory");
			}
	}
	*out = ts;
	return IBP_OK;
}
