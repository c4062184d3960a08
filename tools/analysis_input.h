/*
 * analysis_input.h - the argv side of what `ibpart matrix` and `ibpart
 * audit` share: the common options (-t TOPO, --node-name-map, --sm-port,
 * --mode, --tables, CONF), loading them through the library's
 * ibp_analysis_input (analysis_input.h) with its findings and failure
 * printed, and opening the output file atomically.
 */
#ifndef IBPART_TOOLS_ANALYSIS_INPUT_H
#define IBPART_TOOLS_ANALYSIS_INPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "ibpart/analysis_input.h"
#include "ibpart/sys/atomic_file.h"

#include "cli.h"

struct ai_opts {
	struct cli_input in; /* -t, --node-name-map, --sm-port, --mode; CONF */
	const char *tables_json;
	unsigned lft_cap, mft_cap, lmc; /* --lft-cap, --mft-cap, --lmc */
	bool rejected; /* set by ai_load: OpenSM rejects the plan */
	/* the command's other input files (audit's --tenants and
	 * --opensm-conf), so ai_load can refuse - given twice */
	const char *more_inputs[2];
};

/* The common options as entries of a command's table (with ai_init's
 * cli_input for -t, -c, --node-name-map, --sm-port, --mode). */
#define AI_OPTS(o)                                                             \
	CLI_TOPO(&(o)->in, "ibnetdiscover/ibsim topology (required)"),         \
	    CLI_CONF(&(o)->in), CLI_NNM(&(o)->in), CLI_SM_PORT(&(o)->in),      \
	    CLI_MODE(&(o)->in), CLI_ALIASES(&(o)->in),                         \
	    CLI_STR(                                                           \
		"--tables", &(o)->tables_json, "FILE",                         \
		"analyse these tables instead of computing them (`ibpart "     \
		"tables --format json`: predicted, simulated or read live)"),  \
	    IBP_ARG_SUBNET_OPTS(&(o)->lft_cap, &(o)->mft_cap, &(o)->lmc)
void ai_init(struct ai_opts *o);
/* Load the input (*in, NULL on failure); prints the findings and the
 * failure to stderr and returns 0 or an exit status. */
int ai_load(const char *cmd, struct ai_opts *o, ibp_analysis_input **in);

/* The `no-lid` warning on stderr when the subnet's LIDs ran out before
 * every end port had one; returns whether it printed it (the command
 * then exits 1). */
bool ai_warn_lidless(const char *cmd, const ibp_analysis_input *in);

/* Output: stdout when path is NULL or "-", else a temp file next to path
 * that ai_close() fsyncs and renames over path (or removes on failure). */
struct ai_out {
	FILE *fp;
	ibp_atomic_file *file; /* NULL: stdout */
};
int ai_open(const char *path, struct ai_out *o);
/* ok = false: discard.  Returns 0 or an exit status. */
int ai_close(struct ai_out *o, bool ok);

#endif
