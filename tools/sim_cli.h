/*
 * sim_cli.h - what `ibpart sim` and `ibpart monitor --sim` share on top
 * of the library's sim session (ibpart/sys/sim_session.h): bringing a
 * session up with its findings, errors and SM report printed the CLI's
 * way, and a pingpong with its errors printed and its outcome turned
 * into an exit status (cli.h).  Both live in cmd_sim.c.
 */
#ifndef IBPART_SIM_CLI_H
#define IBPART_SIM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ibpart/sys/sim_session.h"

/* Open the session with o and push (the SM's report to log; NULL: none),
 * after printing the findings (the topology's; the plan's too unless
 * quiet and it has no error) and an error.  *rejected (if not NULL):
 * OpenSM rejects the plan, its fallback is what the fabric holds.
 * Returns an exit status; *out is the session on 0, NULL otherwise. */
int sim_cli_open(struct ibp_sim_session_options *o, bool quiet, FILE *log,
		 ibp_sim_session **out, bool *rejected);

/* A pingpong from src to dst, its story to out, errors to stderr; an
 * exit status (1 when the exchange did not complete). */
int sim_cli_pingpong(ibp_sim_session *s, const char *src, const char *dst,
		     const struct ibp_sim_pingpong_options *po, FILE *out);

#endif
