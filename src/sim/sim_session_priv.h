/*
 * sim_session_priv.h - the session's state, shared by the files of
 * src/sim/ that implement include/ibpart/sys/sim_session.h: bringing it up
 * (sim_session.c), the plan's tables (sim_session_plan.c), smpquery and
 * counters (sim_session_query.c), the pingpong (sim_session_pingpong.c)
 * and the probe matrix (sim_session_probe.c).
 */
#ifndef IBPART_SIM_SESSION_PRIV_H
#define IBPART_SIM_SESSION_PRIV_H

#include <stdarg.h>
#include <stdio.h>

#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/transport.h"

struct ibp_sim_session {
	ibp_fabric *f;
	ibp_tables *want;
	ibp_sim *sim;
	ibp_transport *t;
	ibp_sm *sm;
	struct ibp_sm_options so; /* the SM's, enforcement per push */
	size_t sm_node;
	unsigned sm_port;
	char mode[16];
	ibp_part_enforce enforce;
	struct ibp_sm_report rep;
	uint64_t tid; /* the last transaction ID of the session's own SMPs */
};

/* The desired tables of the plan at conf_path on f in mode, for the SM
 * port smg: findings appended to diags, status as
 * ibp_sim_session_open() documents. */
int simss_plan_tables(const ibp_fabric *f, const char *conf_path,
		      size_t max_input_size, const char *mode, uint64_t smg,
		      ibp_part_enforce enforce, ibp_tables **out,
		      ibp_diags *diags, ibp_error *err);

/* fprintf to out, or nothing when out is NULL. */
void simss_printf(FILE *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
