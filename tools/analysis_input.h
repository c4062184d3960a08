/*
 * analysis_input.h - what `ibpart matrix` and `ibpart audit` share: the
 * common options (-t TOPO, --sm-port, --mode, --tables, CONF), loading the
 * fabric and the plan, turning the plan into the P_Key tables the SM
 * would program, and writing an output file atomically.
 */
#ifndef IBPART_TOOLS_ANALYSIS_INPUT_H
#define IBPART_TOOLS_ANALYSIS_INPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "ibpart/analysis.h"
#include "ibpart/atomic_file.h"
#include "ibpart/conf.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"

struct ai_opts {
	const char *topo;
	const char *node_name_map;
	const char *sm_port;
	const char *mode; /* "opensm" (default) or "strict" */
	const char *tables_json;
	const char *conf;
};

struct ai_input {
	ibp_fabric *fabric;
	ibp_conf *conf; /* NULL with --tables */
	ibp_tables *tables;
	size_t sm_node;
	unsigned sm_port;
	const char *mode;
	char *names[0x8000]; /* partition names by base */
	/* switch external ports' partition enforcement, when --tables
	 * gave it ("enforcement": "both"|"in"|"out"|"off"): per node, per
	 * port, 0 unknown, else 1 + ibp_enforce */
	uint8_t **enforce;
	bool have_enforce;
	/* ports whose table could not hold every entry */
	size_t noverflow;
	struct ai_overflow {
		uint64_t guid;
		unsigned capacity, wanted;
		uint16_t *dropped; /* all of them, malloc'd */
		size_t ndropped;
	} * overflow;
};

/* Try to consume one common option at argv[*i] (advancing *i past its
 * value).  Returns 1 when consumed, 0 when not ours, -1 on a usage error
 * (printed). */
int ai_parse_opt(const char *cmd, int argc, char **argv, int *i,
		 struct ai_opts *o);
/* Load everything; prints diagnostics to stderr and returns 0 or an exit
 * status. */
int ai_load(const char *cmd, const struct ai_opts *o, struct ai_input *in);
void ai_free(struct ai_input *in);
/* An ibp_enforcement_fn over in->enforce (ctx = the ai_input). */
bool ai_enforcement(void *ctx, size_t sw_node, unsigned sw_port, bool *inbound,
		    bool *outbound);

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
