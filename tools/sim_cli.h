/*
 * sim_cli.h - what `ibpart sim` and `ibpart demo` share on top of the
 * library's sim session (ibpart/sim_session.h): bringing a session up
 * with its findings, errors and SM report printed the CLI's way, and the
 * session's commands with their errors printed and their results turned
 * into exit statuses (cli.h).
 */
#ifndef IBPART_SIM_CLI_H
#define IBPART_SIM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ibpart/sim_session.h"

/* Open a session with o (its push run here, not by the library), print
 * (*rejected, if not NULL: OpenSM rejects the plan, its fallback is what
 * the fabric holds), print
 * the topology's findings, then the plan's (quiet: only when there is an
 * error), then an error; the SM's report to log (NULL: none).  Returns
 * an exit status; *out is the session on 0, NULL otherwise. */
int sim_cli_open(struct ibp_sim_session_options *o, bool quiet, FILE *log,
		 ibp_sim_session **out, bool *rejected);

/* Push again with enforcement e, the report to log (NULL: none). */
int sim_cli_push(ibp_sim_session *s, ibp_part_enforce e, FILE *log);

/* Resolve an end port; on failure print why and return 2. */
int sim_cli_port(const ibp_sim_session *s, const char *spec, size_t *node,
		 unsigned *port);

/* The session's commands, output to out, errors to stderr; exit status
 * (pingpong: 1 when the exchange did not complete). */
int sim_cli_smpquery(ibp_sim_session *s, const char *addr,
		     ibp_smpquery_addr how, unsigned port, FILE *out);
int sim_cli_pingpong(ibp_sim_session *s, const char *src, const char *dst,
		     const struct ibp_sim_pingpong_options *po, FILE *out);
int sim_cli_probe_matrix(ibp_sim_session *s, FILE *out,
			 struct ibp_sim_probe_result *res);
int sim_cli_counters(ibp_sim_session *s, FILE *out);

#endif
