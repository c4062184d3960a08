/*
 * seed_live.h - for the monitor's unit tests: the seed example's
 * simulated fabric (its SM run, the plan applied), the simulator's
 * transport at the SM's port, and a live session discovered over a
 * transport (that one, or one wrapping it); a sweep's port and tenant
 * by name.  Include after cmocka.h.
 */
#ifndef IBPART_TEST_SEED_LIVE_H
#define IBPART_TEST_SEED_LIVE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/live.h"
#include "ibpart/monitor.h"
#include "monitor/monitor_lib.h"
#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/transport_sim.h"
#include "ibpart/sys/live.h"

/* The seed fabric into *ss (its plan's path into conf) and the
 * simulator's transport at its SM's port into *sim; 0, or -1 with the
 * reason on stderr. */
static inline int seed_sim_open(char *conf, size_t len, ibp_sim_session **ss,
				ibp_transport **sim)
{
	const char *ex = getenv("IBP_EXAMPLES");
	char topo[1024];
	snprintf(topo, sizeof(topo), "%s/seed/seed.topo", ex ? ex : "examples");
	snprintf(conf, len, "%s/seed/partitions.conf", ex ? ex : "examples");
	struct ibp_sim_session_options so;
	ibp_sim_session_options_init(&so, IBP_SIM_SESSION_OPTIONS_VERSION);
	so.topo_path = topo;
	so.conf_path = conf;
	ibp_error err;
	size_t n;
	unsigned p;
	if (ibp_sim_session_open(&so, ss, NULL, &err) != IBP_OK) {
		fprintf(stderr, "%s\n", err.message);
		return -1;
	}
	ibp_sim_session_sm_port(*ss, &n, &p);
	return ibp_transport_sim_new(ibp_sim_session_sim(*ss), n, p, NULL, sim,
				     &err)
		   ? -1
		   : 0;
}

/* A live session over t from the SM's port, discovered, its SM found;
 * 0 or -1. */
static inline int seed_live_open(ibp_sim_session *ss, ibp_transport *t,
				 ibp_live **l)
{
	size_t n;
	unsigned p;
	ibp_sim_session_sm_port(ss, &n, &p);
	struct ibp_live_options lo;
	ibp_live_options_init(&lo, IBP_LIVE_OPTIONS_VERSION);
	ibp_error err;
	return ibp_live_open_transport(
		   &lo, t,
		   ibp_fabric_port_guid(ibp_sim_session_fabric(ss), n, p), l,
		   &err) ||
		       ibp_live_discover(*l, &err) ||
		       ibp_live_find_sm(*l, NULL, &err)
		   ? -1
		   : 0;
}

/* The port read on (switch desc, port) or (CA desc, 1). */
static inline const struct ibp_monitor_port *port_of(const ibp_monitor_sweep *s,
						     const char *desc, bool sw,
						     const char *facing)
{
	for (size_t i = 0; i < ibp_monitor_sweep_port_count(s); i++) {
		const struct ibp_monitor_port *q = ibp_monitor_sweep_port(s, i);
		if (q->is_switch == sw && !strcmp(q->desc, desc) &&
		    !strcmp(q->facing_desc, facing))
			return q;
	}
	fail_msg("no port %s facing %s", desc, facing);
	return NULL;
}

static inline const struct ibp_monitor_tenant *
tenant(const ibp_monitor_sweep *s, const char *name)
{
	for (size_t i = 0; i < ibp_monitor_sweep_tenant_count(s); i++)
		if (!strcmp(ibp_monitor_sweep_tenant(s, i)->name, name))
			return ibp_monitor_sweep_tenant(s, i);
	fail_msg("no tenant %s", name);
	return NULL;
}

/* Close what the two above opened (and the monitor's state): in the
 * order a caller must, the state (which may end a subscription over t)
 * before the session and t. */
static inline void seed_live_close(ibp_monitor_state *st, ibp_live *l,
				   ibp_transport *t, ibp_sim_session *ss)
{
	ibp_monitor_state_free(st);
	ibp_live_close(l);
	ibp_transport_close(t);
	ibp_sim_session_free(ss);
}

#endif
