/*
 * monitor_priv.h - what the files of the monitor module share (not
 * installed): the sweep result's layout, the state's update rule, and
 * the attribution's entry point.
 */
#ifndef IBPART_MONITOR_PRIV_H
#define IBPART_MONITOR_PRIV_H

#include <jansson.h>

#include "ibpart/conf.h"
#include "ibpart/monitor.h"
#include "ibpart/topo.h"
#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/sm.h"
#include "ibpart/sys/transport.h"
#include "ibpart/sys/monitor.h"
#include "ibpart/sys/report.h"
#include "monitor/monitor_lib.h"

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
	struct ibp_monitor_trap_port *trap_ports; /* the state's issuers */
	size_t ntrap_ports;
	size_t traps, traps_unplaced, log_malformed;
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
/* What a node's PMA said in its ClassPortInfo (16.1.3.1): which
 * PortCounters attribute carries the constraint errors. */
enum { PMA_UNKNOWN = 0, PMA_8BIT, PMA_64BIT, PMA_NONE };
/* The answer kept from an earlier sweep for node_guid (PMA_UNKNOWN when
 * none: a node that did not answer is asked again), and keeping one.
 * ClassPortInfo is read once per node per state, not every sweep: at
 * 1,000 ports it was a third of a sweep's GMPs.  IBP_ENOMEM. */
unsigned char monitor_state_pma(ibp_monitor_state *st, uint64_t node_guid);
int monitor_state_set_pma(ibp_monitor_state *st, uint64_t node_guid,
			  unsigned char kind);
/* The next transaction ID this state hands out (distinct across
 * sweeps). */
uint64_t monitor_state_tid(ibp_monitor_state *st);

/* Bad P_Key traps (monitor_traps.c): a growing list. */
struct monitor_traps {
	struct ibp_sm_trap *a;
	bool *seen; /* a[i]'s issuer already counted: only its LID1/LID2
		       are new (a 259's details logged after its count) */
	size_t n, cap;
	size_t malformed; /* log lines saying "Bad P_Key" that did not parse */
};
int monitor_traps_push(struct monitor_traps *v, const struct ibp_sm_trap *t);
void monitor_traps_free(struct monitor_traps *v);
/* Trap 259s OpenSM logged (log_trap_info) whose details (log_notice's
 * report line) had not come by the end of a read, by issuer LID. */
#define MONITOR_PENDING_259 64
/* Where the state's reading of OpenSM's log stands. */
struct monitor_log_pos {
	uint64_t dev, ino, offset;
	bool skipping; /* inside a line longer than the limit */
	uint16_t pending259[MONITOR_PENDING_259];
	unsigned npending259;
};
struct monitor_log_pos *monitor_state_log_pos(ibp_monitor_state *st);
/* The lines of path since the state's position into v (IBP_EIO: the
 * file cannot be read; IBP_ENOMEM). */
int monitor_log_read(ibp_monitor_state *st, const char *path,
		     struct monitor_traps *v, ibp_error *err);
/* The state's InformInfo subscription to traps 257 and 259 through the
 * SA (monitor_inform.c). */
#define MONITOR_INFORM_TIDS 64
struct monitor_inform {
	ibp_transport *t; /* borrowed while active (the session's) */
	uint16_t sa_lid;  /* the master SM's LID, where the SA answers */
	uint64_t sa_key;
	int timeout_ms, retries;
	bool active;  /* both subscriptions accepted */
	bool refused; /* tried and refused or unanswered: not again */
	uint64_t tids[MONITOR_INFORM_TIDS]; /* the last Reports' TIDs (a
					       resent one repeats its TID) */
	unsigned ntids, tid_next;
	struct monitor_traps got; /* reported, not counted yet */
	unsigned long reports;	  /* Reports answered */
};
struct monitor_inform *monitor_state_inform(ibp_monitor_state *st);
/* With o->subscribe (options version 3): subscribe once per state (a
 * refusal is a warning in diags, not an error: the traps then come
 * from the log), then move the traps reported since into v; *active
 * says whether the subscription stands (then the log's lines are not
 * counted: the same traps).  IBP_ENOMEM, IBP_EIO (the port failed). */
int monitor_inform_sweep(ibp_live *l, const struct ibp_monitor_options *o,
			 ibp_monitor_state *st, struct monitor_traps *v,
			 bool *active, ibp_diags *diags, ibp_error *err);
/* End the subscription, if any (SubnAdmSet InformInfo, Subscribe 0). */
void monitor_inform_end(ibp_monitor_state *st);

/* Count v's traps in st against r's ports (r->traps, traps_unplaced);
 * before monitor_state_update gives the ports their totals. */
int monitor_traps_count(ibp_monitor_sweep *r, ibp_monitor_state *st,
			const struct monitor_traps *v, ibp_error *err);
enum monitor_trap_role {
	MONITOR_TRAP_ISSUED,
	MONITOR_TRAP_FROM,
	MONITOR_TRAP_TOWARD
};
/* One trap more for (node, port) in that role.  IBP_ENOMEM. */
int monitor_state_trap(ibp_monitor_state *st, uint64_t node_guid, unsigned port,
		       enum monitor_trap_role role);
/* r->trap_ports: every port of st that raised traps.  IBP_ENOMEM. */
int monitor_state_trap_ports(ibp_monitor_state *st, ibp_monitor_sweep *r);

/* A copy of s kept by the result (freed with it); NULL on ENOMEM. */
const char *monitor_keep(ibp_monitor_sweep *r, const char *s);

/* Attribution: the tenants of the plan c (every group but 0x7fff), and
 * for every port of r the tenants of the CA port it faces, then the
 * tenants' sums.  IBP_ENOMEM. */
int monitor_attribute(ibp_monitor_sweep *r, const ibp_conf *c,
		      uint64_t sm_port_guid, ibp_error *err);

/* Series for the web view (monitor_series.c reads them from the
 * monitor's JSON, monitor_history.c makes them from kept sweeps): the
 * counters of each tenant, "from", "toward", "pkey_violations". */
#define MONITOR_SERIES_COUNTERS 3
struct ibp_monitor_series {
	ibp_web_series *s;
	size_t n;
	char **names; /* owned: the tenants' names */
	size_t nnames;
	double *vals;	/* every series' values, one array */
	int64_t *times; /* every series' times, one array (or NULL) */
};

/* The sweep's JSON document (monitor_report.c), for a caller to add to
 * before writing it; NULL on ENOMEM. */
json_t *monitor_sweep_json_obj(const ibp_monitor_sweep *s);

/* The caller's monitor options over the defaults, as far as their
 * version goes (util/options_version.h); IBP_EINVAL for a version this
 * library does not read. */
int monitor_options_take(struct ibp_monitor_options *own,
			 const struct ibp_monitor_options *o, ibp_error *err);
/* The same over the defaults *full already holds (a whole current
 * struct), for a caller whose defaults are not _init's. */
int monitor_options_take_over(struct ibp_monitor_options *full,
			      const struct ibp_monitor_options *o,
			      ibp_error *err);

#endif
