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

#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
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
	const char *summary; /* one line for `ibpart --help` */
	const char *usage; /* full text for `ibpart help NAME` / NAME --help */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

/*
 * The input options the commands share, parsed in one place:
 *   -t, --topo, --topology TOPO   CLI_IN_TOPO
 *   -c, --conf CONF               CLI_IN_CONF
 *   --node-name-map FILE          CLI_IN_NNM
 *   --dialect auto|opensm|seed    CLI_IN_DIALECT
 *   --sm-port PORT                CLI_IN_SM_PORT
 *   --mode opensm|strict          CLI_IN_MODE
 * A command sets `takes` to the CLI_IN_* bits it accepts (the others are
 * "not ours") and then, for each argument:
 *   - hand-written loop: r = cli_input_opt(cmd, &in, argc, argv, &i);
 *     1: consumed (i moved past the value), 0: not ours, -1: usage error
 *     printed (return CLI_EXIT_USAGE);
 *   - getopt_long: put CLI_IN_LONGOPTS_* in the option table and pass
 *     what getopt returned to cli_input_getopt(cmd, &in, ch, optarg),
 *     same result values.
 * Values are checked here (--mode, --dialect); the strings point into
 * argv.  Unset: NULL, dialect IBP_CONF_DIALECT_AUTO.
 */
enum {
	CLI_IN_TOPO = 1 << 0,
	CLI_IN_CONF = 1 << 1,
	CLI_IN_NNM = 1 << 2,
	CLI_IN_DIALECT = 1 << 3,
	CLI_IN_SM_PORT = 1 << 4,
	CLI_IN_MODE = 1 << 5
};
struct cli_input {
	unsigned takes; /* CLI_IN_* */
	const char *topo, *conf, *node_name_map, *sm_port;
	const char *mode; /* "opensm" or "strict" */
	ibp_conf_dialect dialect;
};
/* getopt_long codes of the long-only options (-t and -c are 't', 'c'). */
enum { CLI_OPT_NNM = 0x1000, CLI_OPT_DIALECT, CLI_OPT_SM_PORT, CLI_OPT_MODE };
#define CLI_IN_LONGOPT_TOPO                                                    \
	{                                                                      \
		"topology", required_argument, NULL, 't'                       \
	}
#define CLI_IN_LONGOPT_CONF                                                    \
	{                                                                      \
		"conf", required_argument, NULL, 'c'                           \
	}
#define CLI_IN_LONGOPT_NNM                                                     \
	{                                                                      \
		"node-name-map", required_argument, NULL, CLI_OPT_NNM          \
	}
#define CLI_IN_LONGOPT_DIALECT                                                 \
	{                                                                      \
		"dialect", required_argument, NULL, CLI_OPT_DIALECT            \
	}
#define CLI_IN_LONGOPT_SM_PORT                                                 \
	{                                                                      \
		"sm-port", required_argument, NULL, CLI_OPT_SM_PORT            \
	}
#define CLI_IN_LONGOPT_MODE                                                    \
	{                                                                      \
		"mode", required_argument, NULL, CLI_OPT_MODE                  \
	}

int cli_input_opt(const char *cmd, struct cli_input *in, int argc, char **argv,
		  int *i);
int cli_input_getopt(const char *cmd, struct cli_input *in, int ch,
		     const char *arg);

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

/* Options every command takes, wherever they stand on the line (before a
 * "--"): main() takes them out of argv before the command sees it.
 *   --max-errors N   print the first N errors of a file, then a count of
 *                    the findings not shown (default 20; 0: all); JSON
 *                    always has every one */
struct cli_common {
	size_t max_errors;
	bool progress; /* --progress: show it even when stderr is no tty */
};
extern struct cli_common cli_common;
#define CLI_COMMON_USAGE                                                       \
	"  --max-errors N       print the first N errors of an input "         \
	"(default 20;\n"                                                       \
	"                       0: all), then how many findings were not "     \
	"shown\n"                                                              \
	"  --progress           progress on stderr (by default only on a\n"    \
	"                       terminal, for work over a second)\n"
/* Take the common options out of argv (*argc shrinks).  0, or 2 after a
 * usage error (printed). */
int cli_common_options(int *argc, char **argv);
/* The library progress callback the commands hand to long work
 * (progress.h): NULL unless stderr is a terminal or --progress was
 * given.  It prints "ibpart: [  1.2 s] what: done/total" lines on stderr,
 * at most two a second and, without --progress, only once the command
 * has run a second. */
const ibp_progress *cli_progress_hook(void);
/* Findings to stderr as the common options say (ibp_diags_print_ex). */
void cli_print_diags(const ibp_diags *d);

/* The M_Key in FILE (one number, decimal or 0x hex; '#' comments), so it
 * need not be on the command line where ps shows it.  The file must not
 * be readable by others.  0, or 2 after a message that never shows the
 * key. */
int cli_mkey_file(const char *cmd, const char *path, uint64_t *out);

/* A library progress callback: "[  1.234 s] msg" on stderr. */
void cli_progress(void *ctx, long elapsed_ms, const char *msg);

/* Parse an unsigned number (decimal or 0x hex) within [min, max]. */
bool cli_parse_uint(const char *s, unsigned long long min,
		    unsigned long long max, unsigned long long *out);

/* The exit status of a library status: 0 for IBP_OK, 3 out of memory,
 * 2 anything else (bad input). */
int cli_exit_status(int rc);

/* Print the failure err of an operation whose findings d were printed,
 * unless it is one of them (a topology that does not load: its first
 * error is the failure). */
void cli_print_failure(const ibp_diags *d, const ibp_error *err);

/*
 * Numeric options in one table, parsed by one helper: for a getopt code
 * in the table, arg is checked as cli_parse_uint(arg, min, max) and
 * stored in *dest (an unsigned or int when size is 4, a uint64_t when 8;
 * CLI_NUM fills size).  A bad value is a usage error, printed as
 *   bad == NULL:  "NAME wants a number MIN..MAX, not 'ARG'"
 *   else:         "BAD 'ARG'", then " (MIN..MAX)" when range is set.
 * cli_num_getopt returns 1 when it took ch, 0 when ch is not in the
 * table, -1 after a usage error (printed).
 */
struct cli_num {
	int code; /* what getopt_long returns for it */
	const char *name;
	unsigned long long min, max;
	void *dest;
	size_t size;
	const char *bad;
	bool range;
};
#define CLI_NUM(code, name, min, max, dest, bad, range)                        \
	{                                                                      \
		code, name, min, max, dest, sizeof(*(dest)), bad, range        \
	}
int cli_num_getopt(const char *cmd, const struct cli_num *t, size_t n, int ch,
		   const char *arg);

/* The capacity options of a fabric (ibp_fabric_options), 1..65535:
 *   --ca-partition-cap N      NodeInfo PartitionCap of CA ports
 *   --switch-partition-cap N  a switch's PartitionCap (its port 0)
 *   --enforcement-cap N       SwitchInfo PartitionEnforcementCap
 * and the subnet's limits (CLI_SUBNET_LONGOPTS, cli_subnet_getopt):
 *   --lft-cap N               SwitchInfo LinearFDBCap (2..65535)
 *   --mft-cap N               SwitchInfo MulticastFDBCap (1..65535)
 *   --lmc N                   the subnet's LMC (0..7)
 * Put CLI_CAP_LONGOPTS in the getopt_long table and pass what it returns
 * to cli_cap_getopt (results as cli_num_getopt; it takes the subnet's
 * options too). */
enum {
	CLI_OPT_CA_CAP = 0x1100,
	CLI_OPT_SW_CAP,
	CLI_OPT_ENF_CAP,
	CLI_OPT_LFT_CAP,
	CLI_OPT_MFT_CAP,
	CLI_OPT_LMC
};
#define CLI_SUBNET_LONGOPTS                                                    \
	{"lft-cap", required_argument, NULL, CLI_OPT_LFT_CAP},                 \
	    {"mft-cap", required_argument, NULL, CLI_OPT_MFT_CAP},             \
	{                                                                      \
		"lmc", required_argument, NULL, CLI_OPT_LMC                    \
	}
#define CLI_CAP_LONGOPTS                                                       \
	{"ca-partition-cap", required_argument, NULL, CLI_OPT_CA_CAP},         \
	    {"switch-partition-cap", required_argument, NULL, CLI_OPT_SW_CAP}, \
	    {"enforcement-cap", required_argument, NULL, CLI_OPT_ENF_CAP},     \
	    CLI_SUBNET_LONGOPTS
int cli_cap_getopt(const char *cmd, ibp_fabric_options *fo, int ch,
		   const char *arg);
/* The subnet's options alone, into the three numbers (see above). */
int cli_subnet_getopt(const char *cmd, unsigned *lft_cap, unsigned *mft_cap,
		      unsigned *lmc, int ch, const char *arg);
/* The same for a hand-parsed argv (matrix, audit): consumes argv[*i] and
 * its value when it is one of them; 1, 0 (not ours) or -1 (printed). */
int cli_subnet_opt(const char *cmd, unsigned *lft_cap, unsigned *mft_cap,
		   unsigned *lmc, int argc, char **argv, int *i);

#endif
