/*
 * analysis_input.c - the argv side of the inputs of `ibpart matrix` and
 * `ibpart audit` (see analysis_input.h); what they are and how they load
 * is the library's (include/ibpart/analysis_input.h).
 */
#include "analysis_input.h"
#include "cli.h"
#include "ibpart/sys/topo.h"

void ai_init(struct ai_opts *o)
{
	*o = (struct ai_opts){{0}};
}

int ai_load(const char *cmd, struct ai_opts *o, ibp_analysis_input **in)
{
	*in = NULL;
	const struct cli_input *c = &o->in;
	if (!c->topo)
		return cli_usage_error(cmd, "-t TOPO is required");
	const char *inputs[] = {c->topo,	   c->node_name_map,
				c->conf,	   o->tables_json,
				o->more_inputs[0], o->more_inputs[1]};
	if (cli_stdin_once(cmd, inputs, 6))
		return CLI_EXIT_USAGE;
	if (!c->conf == !o->tables_json)
		return cli_usage_error(cmd,
				       "give either CONF or --tables FILE");
	ibp_analysis_input_options lo;
	ibp_analysis_input_options_init(&lo,
					IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	ibp_input_args_analysis(c, &lo);
	lo.tables_path = o->tables_json;
	lo.max_input_size = cli_common.max_input_size;
	lo.linear_fdb_cap = o->lft_cap;
	lo.multicast_fdb_cap = o->mft_cap;
	lo.lmc = o->lmc;
	lo.progress = cli_progress_hook();
	struct cli_op op;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	int rc = ibp_analysis_input_load(&lo, in, op.diags, &op.err);
	const ibp_conf *conf = *in ? ibp_analysis_input_conf(*in) : NULL;
	o->rejected = conf && ibp_conf_opensm_verdict(conf)->rejected &&
		      ibp_conf_get_dialect(conf) != IBP_CONF_DIALECT_SEED;
	return cli_op_end(&op, rc, 0);
}

bool ai_warn_lidless(const char *cmd, const ibp_analysis_input *in)
{
	char msg[1024];
	if (!ibp_fabric_lidless_message(ibp_analysis_input_fabric(in), 4, msg,
					sizeof(msg)))
		return false;
	cli_say("ibpart %s: warning: %s [no-lid]", cmd, msg);
	return true;
}

int ai_open(const char *path, struct ai_out *o)
{
	ibp_error err;
	int rc = ibp_output_open(path, &o->file, &o->fp, &err);
	if (rc == IBP_OK)
		return 0;
	cli_print_error(&err);
	return cli_output_status(rc);
}

int ai_close(struct ai_out *o, bool ok)
{
	ibp_error err;
	bool to_file = o->file != NULL;
	int rc = ibp_output_close(o->file, ok, &err);
	o->file = NULL;
	if (rc && to_file) /* stdout: main() says it */
		cli_print_error(&err);
	return rc ? CLI_EXIT_SYSTEM : 0;
}
