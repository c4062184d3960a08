/*
 * sim_action.h - the seed's commands as words (`smpquery -G pkeys ADDR
 * 1`, `pingpong SRC DST -n 5`, `probe-matrix`, `counters`, `vf-map VF
 * 1,2`), read from an
 * argv and replayed on a simulated fabric (sim_session.h): the action
 * language of `ibpart sim`, so any front end (a script runner, a REST
 * service) takes the same words the same way.
 *
 * Thread safety: no global state.  Parsing only reads argv; running an
 * action uses its session as the session's own calls do (one thread at
 * a time per session).
 */
#ifndef IBPART_SIM_ACTION_H
#define IBPART_SIM_ACTION_H

#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/sys/sim_session.h"

typedef enum ibp_sim_action_kind {
	IBP_SIM_ACTION_SMPQUERY = 0, /* smpquery [-G|-D] pkeys ADDR [PORT] */
	IBP_SIM_ACTION_PINGPONG,     /* pingpong SRC DST [--pkey-index N]
					[-n ITERS] [-s SIZE] */
	IBP_SIM_ACTION_PROBE_MATRIX, /* probe-matrix */
	IBP_SIM_ACTION_COUNTERS,     /* counters */
	IBP_SIM_ACTION_VF_MAP	     /* vf-map VF IDX[,IDX...] */
} ibp_sim_action_kind;

/* One action as read; its strings point into the argv it was read from. */
struct ibp_sim_action {
	ibp_sim_action_kind kind;
	const char *addr;      /* smpquery: ADDR */
	ibp_smpquery_addr how; /* smpquery: -G, -D, or neither */
	unsigned port;	       /* smpquery: PORT (0: none given) */
	const char *src, *dst; /* pingpong */
	struct ibp_sim_pingpong_options pingpong; /* pingpong */
	const char *vf;				  /* vf-map: the VF's GUID */
	uint16_t vf_map[IBP_SIM_VF_PKEYS];	  /* vf-map: physical indexes */
	unsigned vf_map_n;
};

/* Read the action starting at argv[*k] (k < argc) into *a and move *k
 * past it (its options included; what follows is the next action).
 * Errors: IBP_EINVAL, err->message saying it as a usage error
 * ("unknown action 'x'", "pingpong SRC DST", "smpquery takes -G or -D,
 * not -x", "-n wants a number 0..65535, not 'y'", ...). */
int ibp_sim_action_parse(int argc, char **argv, int *k,
			 struct ibp_sim_action *a, ibp_error *err);

/* Run a on s, its text to out (NULL: none), through the session's
 * commands: ibp_sim_session_smpquery_pkeys_ex(),
 * ibp_sim_session_pingpong() (its result into res, may be NULL),
 * ibp_sim_session_probe_matrix(), ibp_sim_session_counters(),
 * ibp_sim_session_vf_map() (a line saying the mapping).  Returns
 * their status, err saying why. */
int ibp_sim_session_run_action(ibp_sim_session *s,
			       const struct ibp_sim_action *a, FILE *out,
			       struct ibp_sim_pingpong_result *res,
			       ibp_error *err);

#endif
