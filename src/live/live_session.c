/*
 * live_session.c - one live session: the local port opened through
 * transport_umad and the SM (sm.c) running over it, plus the small things
 * every live command wants around them: timing, phase progress on stderr,
 * and moving a set of tables from one fabric model to another (the
 * discovered fabric and the topology file describe the same subnet with
 * different node orders).  See include/ibpart/live.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ibpart/live.h"
#include "ibpart/sm.h"
#include "ibpart/transport_umad.h"

struct ibp_live {
	struct ibp_live_options o;
	ibp_transport *t;
	ibp_umad *u;
	ibp_sm *sm;
	ibp_umad_port_info info;
	struct timespec start;
	bool discovered;
};

void ibp_live_options_init(struct ibp_live_options *o)
{
	*o = (struct ibp_live_options){0};
	o->retries = -1;
	o->enforce = IBP_ENFORCE_BOTH; /* OpenSM's part_enforce default */
}

int ibp_live_open(const struct ibp_live_options *o, ibp_live **out,
		  ibp_error *err)
{
	*out = NULL;
	ibp_live *l = calloc(1, sizeof(*l));
	if (!l)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	l->o = *o;
	clock_gettime(CLOCK_MONOTONIC, &l->start);
	ibp_umad_options uo;
	ibp_umad_options_init(&uo);
	uo.ca = o->ca;
	uo.port = o->port;
	uo.mkey = o->mkey;
	int rc = ibp_transport_umad_open(&uo, &l->t, &l->u, err);
	if (rc) {
		free(l);
		return rc;
	}
	ibp_umad_port_info_get(l->u, &l->info);
	struct ibp_sm_options so;
	ibp_sm_options_init(&so);
	if (o->timeout_ms > 0)
		so.timeout_ms = o->timeout_ms;
	if (o->retries >= 0)
		so.retries = (unsigned)o->retries;
	if (o->max_wire_smps)
		so.max_wire_smps = o->max_wire_smps;
	so.mkey = o->mkey;
	so.dry_run = o->dry_run;
	if (o->enforce < 0)
		so.keep_enforcement = true;
	else
		so.enforce = (ibp_part_enforce)o->enforce;
	rc = ibp_sm_new(l->t, &so, &l->sm, err);
	if (rc) {
		ibp_transport_close(l->t);
		free(l);
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
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "[%6.3f s] ", ibp_live_elapsed_ms(l) / 1000.0);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int ibp_live_discover(ibp_live *l, ibp_error *err)
{
	if (l->discovered)
		return IBP_OK;
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
	ibp_live_progress(l, "discovered %zu nodes (%lu SMPs, %lu timeouts)",
			  ibp_fabric_node_count(ibp_sm_fabric(l->sm)), smps,
			  to);
	return IBP_OK;
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
	*out = ts;
	return IBP_OK;
}
