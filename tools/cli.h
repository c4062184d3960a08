/*
 * cli.h - what every ibpart subcommand shares: the command descriptor the
 * dispatcher in ibpart.c reads, the exit statuses of DESIGN.md, and small
 * helpers (loading inputs with diagnostics printed, parsing common
 * options).
 *
 * Each subcommand lives in its own tools/cmd_<name>.c and defines one
 * `const struct cli_cmd cli_cmd_<name>`; ibpart.c lists them in one table.
 * Machine output goes to stdout, diagnostics and progress to stderr.
 */
#ifndef IBPART_CLI_H
#define IBPART_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/topo.h"

/* Exit statuses (DESIGN.md). */
enum {
	CLI_EXIT_OK = 0,    /* fine */
	CLI_EXIT_FOUND = 1, /* the check ran and found something */
	CLI_EXIT_USAGE = 2, /* bad input or usage */
	CLI_EXIT_SYSTEM = 3 /* the fabric or the system failed us */
};

struct cli_cmd {
	const char *name;
	const char *summary; /* one line for `ibpart --help` */
	const char *usage; /* full text for `ibpart help NAME` / NAME --help */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

/* Print "ibpart NAME: message" to stderr, a hint to --help, return 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print an ibp_error as "ibpart: file:line:col: error: message". */
void cli_print_error(const ibp_error *err);

/* True when argv holds -h or --help (before a "--"). */
bool cli_wants_help(int argc, char **argv);
/* Print the command's usage to stdout; returns 0. */
int cli_print_usage(const struct cli_cmd *cmd);

/* Load a topology with the fabric options, printing diagnostics; returns
 * 0 or an exit status (2 on bad input). */
/* The one CONF of a command that takes it as `-c CONF` (conf_arg) or as
 * its one positional argument (argv[optind]); NULL after a usage error
 * (none, or more than one). */
const char *cli_conf_path(const char *cmd, int argc, char **argv, int optind,
			  const char *conf_arg);

/* A plan as check and convert read it: *fabric from topo (with the
 * node-name-map nnm) when topo is given, else NULL; *conf parsed from
 * path with co (its fabric set to *fabric); every finding in *diags,
 * sorted.  Returns CLI_EXIT_OK, or the exit status after printing why
 * (then nothing is left allocated).  The caller frees all three. */
int cli_read_plan(const char *topo, const char *nnm, const char *path,
		  ibp_conf_options *co, ibp_fabric **fabric, ibp_conf **conf,
		  ibp_diags **diags);

int cli_load_fabric(const char *path, const ibp_fabric_options *o,
		    ibp_fabric **out);

/* A library progress callback: "[  1.234 s] msg" on stderr. */
void cli_progress(void *ctx, long elapsed_ms, const char *msg);

/* Parse an unsigned number (decimal or 0x hex) within [min, max]. */
bool cli_parse_uint(const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out);

#endif
