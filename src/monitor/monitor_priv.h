/*
 * monitor_priv.h - what the files of the monitor module share (not
 * installed): the sweep result's layout, the state's update rule, and
 * the attribution's entry point.
 */
#ifndef IBPART_MONITOR_PRIV_H
#define IBPART_MONITOR_PRIV_H

#include "ibpart/conf.h"
#include "ibpart/monitor.h"
#include "ibpart/topo.h"

struct ibp_monitor_sweep {
	struct ibp_monitor_port *ports;
	size_t nports;
	size_t *tenant_idx; /* every port's tenant list, one array */
	size_t ntenant_idx;
	struct ibp_monitor_tenant *tenants;
	size_t ntenants;
	char **names; /* owned strings: tenants, descriptions */
	size_t nnames, names_cap;
	bool full_member;
	uint64_t local_port_guid;
	size_t unread, skipped, reset_ports;
	unsigned long gmps, smps;
	double elapsed_ms, time;
};

/* The largest value of each counter on the wire when read through
 * PortCounters (8 bits) / PortInfo (16 bits); 64-bit ones never stop. */
uint64_t monitor_counter_max(ibp_monitor_counter c, bool pma_64bit);

/* Fold this sweep's raw values of p into st: p->total and p->saturated
 * are set.  IBP_ENOMEM. */
int monitor_state_update(ibp_monitor_state *st, struct ibp_monitor_port *p,
			 ibp_error *err);
/* After a reset by the monitor: the PMA counters of (node, port) now
 * read 0. */
void monitor_state_cleared(ibp_monitor_state *st, uint64_t node_guid,
			   unsigned port);
/* The next transaction ID this state hands out (distinct across
 * sweeps). */
uint64_t monitor_state_tid(ibp_monitor_state *st);

/* A copy of s kept by the result (freed with it); NULL on ENOMEM. */
const char *monitor_keep(ibp_monitor_sweep *r, const char *s);

/* Attribution: the tenants of the plan c (every group but 0x7fff), and
 * for every port of r the tenants of the CA port it faces, then the
 * tenants' sums.  IBP_ENOMEM. */
int monitor_attribute(ibp_monitor_sweep *r, const ibp_conf *c,
		      uint64_t sm_port_guid, ibp_error *err);

#endif
