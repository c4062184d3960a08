/*
 * sim_session_priv.h - the session's state, shared by the files of
 * src/sim/ that implement include/ibpart/sys/sim_session.h: bringing it up
 * (sim_session.c), the plan's tables (sim_session_plan.c), the VFs
 * (sim_session_vf.c), smpquery and
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
		      const char *alias_path, size_t max_input_size,
		      const char *mode, uint64_t smg, ibp_part_enforce enforce,
		      ibp_tables **out, ibp_diags *diags, ibp_error *err);

/* The alias GUIDs of the map at path registered in the simulator as its
 * hosts' VFs, each mapping its port's table one to one
 * (sim_session_vf.c); errors as ibp_sim_session_open() documents. */
int simss_register_vfs(ibp_sim_session *s, const char *path, size_t max,
		       ibp_error *err);
/* A port spec, or a VF's alias GUID: *vf its GUIDInfo index (0: the port
 * itself). */
int simss_endpoint(const ibp_sim_session *s, const char *spec, size_t *n,
		   unsigned *p, unsigned *vf, ibp_error *err);

/* The P_Key at index of port (n, p), or of its VF vf through the VF's
 * mapping; 0 for an empty or unmapped entry. */
uint16_t simss_key_at(ibp_sim_session *s, size_t n, unsigned p, unsigned vf,
		      unsigned index);
/* The index whose entry matches key (10.9.3) at (n, p), or at its VF vf;
 * -1 when none. */
int simss_key_match(ibp_sim_session *s, size_t n, unsigned p, unsigned vf,
		    uint16_t key);

/* fprintf to out, or nothing when out is NULL. */
void simss_printf(FILE *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
