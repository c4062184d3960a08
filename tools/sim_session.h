/*
 * sim_session.h - what `ibpart sim` and `ibpart demo` share: a simulated
 * fabric brought up from a topology and a partition plan (the SM pushes
 * the plan over SMPs), and the seed's commands replayed on it: smpquery
 * pkeys, an ibv_rc_pingpong-like RC exchange, the probe matrix and the
 * violation counters.
 */
#ifndef IBPART_SIM_SESSION_H
#define IBPART_SIM_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/sim.h"
#include "ibpart/sm.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/transport.h"

struct sim_session {
	ibp_fabric *f;
	ibp_tables *want;
	ibp_sim *sim;
	ibp_transport *t;
	ibp_sm *sm;
	size_t sm_node;
	unsigned sm_port;
	const char *mode;
	ibp_part_enforce enforce;
	struct ibp_sm_report rep;
};

struct sim_session_opts {
	const char *topo;
	const char *conf;
	const char *mode;	  /* "strict" or "opensm" */
	const char *sm_port;	  /* spec, or NULL for the first CA port */
	ibp_part_enforce enforce; /* for the SM's push */
	double mad_loss;	  /* fault injection on the SM's MADs */
	FILE *log;		  /* the SM's report goes here (NULL: none) */
	bool quiet_conf; /* print the plan's diagnostics only if errors */
};

/* Load, assign LIDs, compute the desired tables, bring the fabric up and
 * run the SM push.  Returns a CLI exit status (0 ok). */
int sim_session_open(struct sim_session *s, const struct sim_session_opts *o);
void sim_session_close(struct sim_session *s);

/* Re-run the SM push with another enforcement setting (report to log). */
int sim_session_repush(struct sim_session *s, ibp_part_enforce e, FILE *log);

/* Resolve a port spec (LID, GUID, node description) to an end port. */
int sim_session_port(struct sim_session *s, const char *spec, size_t *node,
		     unsigned *port);

/* The desired tables for mode ("strict"/"opensm"): the partition
 * manager's answer (policy.h, via sim_policy.c).  Exit status. */
int sim_policy_tables(const ibp_fabric *f, const char *conf_path,
		      const char *mode, uint64_t sm_port_guid,
		      ibp_part_enforce enforce, bool quiet, ibp_tables **out);

/* `smpquery pkeys ADDR [PORT]` over LID-routed SMPs: output byte for
 * byte as infiniband-diags prints it.  Exit status. */
int sim_smpquery_pkeys(struct sim_session *s, const char *addr, unsigned port,
		       FILE *out);

struct sim_pingpong_opts {
	unsigned pkey_index;
	unsigned iters;
	unsigned size;
};
/* Returns 0 when the exchange completed, 1 when it failed in the fabric
 * (the seed's cross-partition case), 2 for bad input. */
int sim_pingpong(struct sim_session *s, const char *src, const char *dst,
		 const struct sim_pingpong_opts *o, FILE *out);

/* The 7x7 (n x n) probe matrix over CA/router ports, markdown table
 * like the seed's.  cells (may be NULL) receives n*n bytes (1 = can
 * talk, 0 = cannot, diagonal 0), malloc'd; *n the count. */
int sim_probe_matrix(struct sim_session *s, FILE *out, unsigned char **cells,
		     size_t *n);
int sim_counters(struct sim_session *s, FILE *out);

#endif
