/*
 * cmd_check.c - `ibpart check`: read a partitions.conf (OpenSM syntax or
 * the seed dialect) as OpenSM 3.3.23 would and report every problem like
 * a compiler: file:line:col, the line, a caret.  --opensm adds what
 * OpenSM itself would do with the file.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/conf.h"

static const char usage[] =
    "usage: ibpart check [-t TOPO] [--node-name-map FILE] [--format "
    "text|json]\n"
    "                    [--opensm] [--dialect auto|opensm|seed] (CONF | -c "
    "CONF)\n"
    "\n"
    "Read CONF (OpenSM partitions.conf, or the seed document's\n"
    "'PartitionConfig { ... }' block) exactly as OpenSM 3.3.23 reads it and\n"
    "report every problem as file:line:col: severity: message [code], with\n"
    "the line and a caret under the column.\n"
    "\n"
    "Errors: everything OpenSM rejects (it would then fall back to\n"
    "'Default=0x7fff : ALL=full ;', every port a full member of 0xffff),\n"
    "and everything OpenSM accepts with a meaning the author almost\n"
    "certainly did not intend: a missing comma, an unknown membership word\n"
    "or flag, a rate or MTU written as a name or out of range, one P_Key\n"
    "under two names with different flags, a CRLF file, ...\n"
    "Warnings: GUIDs not in the topology (with -t), a member listed twice,\n"
    "an empty partition, a partition without a full member, ...\n"
    "Notes: abbreviations OpenSM accepts ('limi', 'f').\n"
    "\n"
    "Options:\n"
    "  -t, --topology TOPO    ibnetdiscover/ibsim topology: resolves node\n"
    "                         names (seed dialect), checks GUIDs\n"
    "      --node-name-map F  rdma-core node-name-map for the topology\n"
    "      --format text|json findings as text (stderr) or JSON (stdout)\n"
    "      --opensm           also say what OpenSM 3.3.23 would do with it\n"
    "      --allow-both-pkeys read 'both' as OpenSM does with that option\n"
    "      --qos              read 'sl=' as OpenSM does with QoS on\n"
    "      --dialect D        auto (default), opensm or seed\n"
    "  -h, --help             this text\n"
    "\n"
    "Exit status: 0 no errors and no warnings; 1 warnings only; 2 errors\n"
    "(or bad usage, or CONF unreadable); 3 system failure.\n";

static int run(int argc, char **argv)
{
	static const struct option opts[] = {
	    CLI_IN_LONGOPT_TOPO,
	    CLI_IN_LONGOPT_CONF,
	    CLI_IN_LONGOPT_NNM,
	    {"format", required_argument, NULL, 'f'},
	    {"opensm", no_argument, NULL, 'o'},
	    {"allow-both-pkeys", no_argument, NULL, 'b'},
	    {"qos", no_argument, NULL, 'q'},
	    CLI_IN_LONGOPT_DIALECT,
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0}};
	const char *format = "text";
	bool opensm = false;
	struct cli_input in = {CLI_IN_TOPO | CLI_IN_CONF | CLI_IN_NNM |
			       CLI_IN_DIALECT};
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	int ch, r;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "t:c:h", opts, NULL)) != -1) {
		if ((r = cli_input_getopt("check", &in, ch, optarg)) < 0)
			return CLI_EXIT_USAGE;
		switch (r ? 0 : ch) {
		case 0:
			break;
		case 'f':
			format = optarg;
			break;
		case 'o':
			opensm = true;
			break;
		case 'b':
			co.allow_both_pkeys = true;
			break;
		case 'q':
			co.qos = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		default:
			return cli_usage_error("check", "bad option");
		}
	}
	if (strcmp(format, "text") && strcmp(format, "json"))
		return cli_usage_error("check", "unknown format '%s'", format);
	co.dialect = in.dialect;
	const char *path = cli_conf_path("check", argc, argv, optind, in.conf);
	if (!path)
		return CLI_EXIT_USAGE;

	ibp_fabric *fabric;
	ibp_conf *c;
	ibp_diags *d;
	int status = cli_read_plan(in.topo, in.node_name_map, path, &co,
				   &fabric, &c, &d);
	if (status)
		return status;
	size_t nerr = ibp_diags_count_severity(d, IBP_SEV_ERROR);
	size_t nwarn = ibp_diags_count_severity(d, IBP_SEV_WARNING);
	if (!strcmp(format, "json")) {
		char *js = ibp_diags_to_json(d);
		json_t *root = js ? json_loads(js, 0, NULL) : NULL;
		free(js);
		if (!root) {
			status = CLI_EXIT_SYSTEM;
			goto out;
		}
		json_object_set_new(
		    root, "dialect",
		    json_string(ibp_conf_get_dialect(c) == IBP_CONF_DIALECT_SEED
				    ? "seed"
				    : "opensm"));
		if (opensm) {
			const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
			json_t *o = json_object();
			json_object_set_new(o, "rejected",
					    json_boolean(v->rejected));
			json_object_set_new(o, "crashes",
					    json_boolean(v->crashes));
			json_object_set_new(o, "reason",
					    v->reason ? json_string(v->reason)
						      : json_null());
			json_object_set_new(o, "line",
					    json_integer(v->pos.line));
			json_object_set_new(o, "opensm_log_line",
					    json_integer(v->opensm_line));
			json_t *mis = json_array();
			for (size_t i = 0; i < v->nmisreadings; i++) {
				const ibp_conf_misreading *m =
				    &v->misreadings[i];
				json_array_append_new(
				    mis,
				    json_pack("{s:s,s:i,s:i,s:s}", "code",
					      m->code, "line", (int)m->pos.line,
					      "column", (int)m->pos.col,
					      "message", m->message));
			}
			json_object_set_new(o, "misreadings", mis);
			json_t *parts = json_array();
			for (size_t i = 0;
			     !v->rejected && i < ibp_conf_group_count(c); i++) {
				const ibp_conf_group *g =
				    ibp_conf_group_at(c, i);
				char pk[8];
				snprintf(pk, sizeof(pk), "0x%04x",
					 ibp_conf_group_pkey(g));
				json_array_append_new(
				    parts,
				    json_pack(
					"{s:s,s:s,s:i}", "pkey", pk, "name",
					ibp_conf_group_name(g), "definitions",
					(int)ibp_conf_group_partition_count(
					    g)));
			}
			json_object_set_new(o, "partitions", parts);
			json_object_set_new(root, "opensm", o);
		}
		char *outs = json_dumps(root, JSON_INDENT(1));
		json_decref(root);
		if (outs) {
			puts(outs);
			free(outs);
		}
	} else {
		ibp_diags_print(d, stderr);
		if (nerr || nwarn)
			fprintf(stderr, "%s: %zu error(s), %zu warning(s)\n",
				path, nerr, nwarn);
		if (opensm)
			ibp_conf_print_opensm_summary(c, stdout);
	}
	status = nerr ? CLI_EXIT_USAGE : nwarn ? CLI_EXIT_FOUND : CLI_EXIT_OK;
out:
	ibp_conf_free(c);
	ibp_diags_free(d);
	ibp_fabric_free(fabric);
	return status;
}

const struct cli_cmd cli_cmd_check = {
    .name = "check",
    .summary = "diagnose a partitions.conf as OpenSM 3.3.23 reads it",
    .usage = usage,
    .run = run,
};
