/*
 * cli.h - what every ibpart subcommand shares: the command descriptor the
 * dispatcher in ibpart.c reads, the exit statuses of docs/ARCHITECTURE.md
 * (README.md, docs/ibpart.1), and small
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

#include "front/args.h"
#include "front/input_args.h"
#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/plan.h"
#include "ibpart/progress.h"
#include "ibpart/topo.h"

/* Exit statuses (docs/ARCHITECTURE.md, "Errors"). */
enum {
	CLI_EXIT_OK = 0,    /* fine */
	CLI_EXIT_FOUND = 1, /* the check ran and found something */
	CLI_EXIT_USAGE = 2, /* bad input or usage */
	CLI_EXIT_SYSTEM = 3 /* the fabric or the system failed us */
};

struct cli_cmd {
	const char *name;
	const char *summary;		   /* one line for `ibpart --help` */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};
/* The descriptor cli_cmd_NAME of the command in this file, whose entry
 * point is the file's static run(), as ibpart.c's table lists it. */
#define CLI_COMMAND(n, summary)                                                \
	const struct cli_cmd cli_cmd_##n = {#n, summary, run}

/* Options in one table per command (the library's parser, args.h):
 * CLI_FLAG, CLI_STR, CLI_STR2, CLI_NUM, CLI_WORD, CLI_INDEX, CLI_FN are
 * its IBP_ARG_* entries; bad values are usage errors printed in one
 * wording by cli_args_parse(). */
#define cli_opt	  ibp_arg_opt
#define CLI_FLAG  IBP_ARG_FLAG
#define CLI_STR	  IBP_ARG_STR
#define CLI_STR2  IBP_ARG_STR2
#define CLI_NUM	  IBP_ARG_NUM
#define CLI_WORD  IBP_ARG_WORD
#define CLI_INDEX IBP_ARG_INDEX
#define CLI_FN	  IBP_ARG_FN

/* The input options the commands share (front/input_args.h). */
#define cli_input    ibp_input_args
#define CLI_TOPO     IBP_ARG_TOPO
#define CLI_CONF     IBP_ARG_CONF
#define CLI_NNM	     IBP_ARG_NNM
#define CLI_ALIASES  IBP_ARG_ALIAS_GUIDS
#define CLI_VF_GUIDS IBP_ARG_VF_GUIDS
#define CLI_DIALECT  IBP_ARG_DIALECT
#define CLI_SM_PORT  IBP_ARG_SM_PORT
#define CLI_MODE     IBP_ARG_MODE

/* One command's argv (struct ibp_args: name, usage, tail, table,
 * max_pos, stop_at_pos; then pos, npos, next).  -h/--help prints usage,
 * "Options:" with every table entry, then tail. */
#define cli_args ibp_args
/* What cli_args_parse returns after printing --help: the dispatcher
 * turns it into exit status 0. */
#define CLI_HELP_SHOWN (-1)
/* CLI_EXIT_OK; CLI_EXIT_USAGE after printing why; CLI_HELP_SHOWN. */
int cli_args_parse(struct cli_args *a, int argc, char **argv);
#define CLI_NOPTS(t) (sizeof(t) / sizeof((t)[0]))

/* The one CONF of a command that takes it as `-c CONF` or as its one
 * positional argument; NULL after a usage error (none, or two). */
const char *cli_conf_path(const char *cmd, const struct cli_input *in,
			  const struct cli_args *a);

/* The positional CONF, if any, into in->conf (ibp_input_args_take_conf):
 * 0, or CLI_EXIT_USAGE after saying -c CONF was given too. */
int cli_take_conf(const char *cmd, struct cli_input *in,
		  const struct cli_args *a);

/* CLI_FN for --fail-on critical|high|medium|info into an
 * ibp_audit_severity. */
int cli_take_severity(const char *cmd, void *dest, const char *val);
#define CLI_FAIL_ON(dest)                                                      \
	CLI_FN("--fail-on", dest, cli_take_severity,                           \
	       "critical|high|medium|info",                                    \
	       "exit 1 when an audit finding is at least this severe "         \
	       "(default high)")

/* Print "ibpart NAME: message" to stderr, a hint to --help, return 2.
 * "ibpart " is cli_program, which ibpartd empties: its NAMEs ("ibpartd",
 * "ibpartd adopt") are whole commands. */
extern const char *cli_program;
/* The name other errors start with ("ibpart: error: ..."); ibpartd's
 * "ibpartd". */
extern const char *cli_name;
int cli_usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Print an ibp_error as "ibpart: file:line:col: error: message", on one
 * line whatever the message quotes (the text rule of escape.h). */
void cli_print_error(const ibp_error *err);
/* One line on stderr, all of it escaped (escape.h): for a line that
 * quotes an argument, a path or a name read from a file. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "WHO: MSG" on stderr with msg escaped as cli_print_error does. */
void cli_print_message(const char *who, const char *msg);

/* True when argv holds -h or --help (before a "--"). */
bool cli_wants_help(int argc, char **argv);

/* A plan as check and convert read it (ibp_plan_read: in's topology
 * and node-name-map, the plan at path read with co) into *p, the
 * topology's findings and the failure printed.  Returns CLI_EXIT_OK, or
 * the exit status after printing why.  The caller clears *p. */
int cli_read_plan(const char *cmd, const struct cli_input *in, const char *path,
		  const ibp_conf_options *co, ibp_plan *p);
/* 0 when at most one of paths[0..n) (NULL allowed) is "-", else
 * CLI_EXIT_USAGE after saying so: the standard input can be read once,
 * and a second input given as - would read as empty. */
int cli_stdin_once(const char *cmd, const char *const *paths, size_t n);

/* Load a topology with the fabric options, printing diagnostics; returns
 * 0 or an exit status (2 on bad input). */
int cli_load_fabric(const char *path, const ibp_fabric_options *o,
		    ibp_fabric **out);

/* Options every command takes, wherever they stand on the line (before a
 * "--"): main() takes them out of argv before the command sees it.
 *   --max-errors N   print the first N errors of a file, then a count of
 *                    the findings not shown (default 20; 0: all); JSON
 *                    always has every one
 *   --max-input-size SIZE
 *                    read at most SIZE bytes (K, M, G: KiB, MiB, GiB) of
 *                    any input file, stream or pipe; a larger one is bad
 *                    input (exit 2) with the reason.  0: the library's
 *                    defaults (1 GiB for plans and topologies, 64 MiB
 *                    for the other files) */
struct cli_common {
	size_t max_errors;
	size_t max_input_size;
	bool progress; /* --progress: show it even when stderr is no tty */
};
extern struct cli_common cli_common;
#define CLI_COMMON_USAGE                                                       \
	"  --max-errors N       print the first N errors of an input "         \
	"(default 20;\n"                                                       \
	"                       0: all), then how many findings were not "     \
	"shown;\n"                                                             \
	"                       a finding that repeats is shown N times, "     \
	"then counted\n"                                                       \
	"  --progress           progress on stderr (by default only on a\n"    \
	"                       terminal, for work over a second)\n"           \
	"  --max-input-size SIZE  read at most SIZE bytes of any input file "  \
	"or\n"                                                                 \
	"                       stream (K, M, G suffixes; default 1G for "     \
	"plans and\n"                                                          \
	"                       topologies, 64M for the others); larger: "     \
	"exit 2\n"
/* The heap of a command that computes and exits: large blocks from
 * the heap, freed memory kept for reuse, transparent huge pages
 * (cli_heap.c).  First thing in main(); cannot fail. */
void cli_heap_setup(void);
/* Take the common options out of argv (*argc shrinks).  0, or 2 after a
 * usage error (printed). */
int cli_common_options(int *argc, char **argv);
/* The library progress callback the commands hand to long work
 * (progress.h): NULL unless stderr is a terminal or --progress was
 * given.  It prints "ibpart: [  1.2 s] what: done/total" lines on stderr,
 * at most two a second and, without --progress, only once the command
 * has run a second. */
const ibp_progress *cli_progress_hook(void);
/* Print s (a malloc'd JSON text; NULL: it could not be made) and a
 * newline to out, and free it: 0, or CLI_EXIT_SYSTEM when s is NULL or
 * the write fails. */
int cli_put_json(char *s, FILE *out);
/* Findings to stderr as the common options say (ibp_diags_print_ex). */
void cli_print_diags(const ibp_diags *d);

/* Catch SIGINT and SIGTERM from now on (unless ignored, as a script's
 * background jobs have SIGINT): the first asks the operation to stop at
 * its next safe point (a library cancel callback, put into *cancel), a
 * second one ends the program at once. */
void cli_catch_stop(bool (**cancel)(void *ctx));

/* A library progress callback: "[  1.234 s] msg" on stderr. */
void cli_progress(void *ctx, long elapsed_ms, const char *msg);

/* Parse an unsigned number (decimal or 0x hex) within [min, max]. */
#define cli_parse_uint ibp_parse_uint

/* The one exit status of a library status and its error: 0 for IBP_OK;
 * 3 when the machine or the fabric failed us (out of memory, no answer,
 * a MAD status, a short MAD, cancelled, and IBP_EIO not about a file);
 * 2 for the input (malformed, out of range, not found, does not fit, and
 * IBP_EIO reading a file: err names it, or err is NULL for a loader that
 * only reads files). */
int cli_exit_status(int rc, const ibp_error *err);
/* The exit status of a failure to open or write an output file: 2 when
 * the caller named a directory (IBP_EINVAL: their mistake), else 3. */
int cli_output_status(int rc);

/* One library call's findings and failure, printed the one way:
 *	struct cli_op op;
 *	if (cli_op_begin(&op))
 *		return CLI_EXIT_SYSTEM;
 *	rc = cli_op_end(&op, ibp_call(..., op.diags, &op.err), flags);
 * cli_op_end prints the findings (CLI_OP_SERIOUS: sorted, and only when
 * one is a warning or an error), then the failure (CLI_OP_ERROR: always,
 * else unless a finding said it), frees the findings and returns the
 * exit status of rc (cli_exit_status); op.err stays for the caller. */
struct cli_op {
	ibp_diags *diags;
	ibp_error err;
};
enum { CLI_OP_SERIOUS = 1, CLI_OP_ERROR = 2 };
int cli_op_begin(struct cli_op *op);
int cli_op_end(struct cli_op *op, int rc, unsigned flags);

/* Print the failure err of an operation whose findings d were printed,
 * unless it is one of them (a topology that does not load: its first
 * error is the failure). */
void cli_print_failure(const ibp_diags *d, const ibp_error *err);

#endif
