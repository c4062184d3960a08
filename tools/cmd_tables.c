/*
 * cmd_tables.c - `ibpart tables`: the P_KeyTable the subnet manager
 * programs into every port of a fabric for a partition plan, in
 * smpquery's layout or as the JSON of docs/json-schemas.md (policy.h does
 * the work).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ibpart/conf.h"
#include "ibpart/pkey.h"
#include "ibpart/policy.h"
#include "ibpart/tables_json.h"

static const char usage[] =
    "usage: ibpart tables -t TOPO [--sm-port PORT] [--mode opensm|strict]\n"
    "                     [--allow-both-pkeys] [--part-enforce "
    "both|in|out|off]\n"
    "                     [--state FILE] [--ca-partition-cap N]\n"
    "                     [--switch-partition-cap N] [--enforcement-cap N]\n"
    "                     [--node-name-map F] [--format smpquery|json]\n"
    "                     (CONF | -c CONF)\n"
    "\n"
    "Compute the P_KeyTable of every port the subnet manager programs for\n"
    "the partition plan CONF on fabric TOPO: each CA/router port, each\n"
    "switch's port 0, and each switch external port facing an end port\n"
    "(which gets that port's table, for switch partition enforcement).\n"
    "\n"
    "--mode opensm (default) gives exactly what OpenSM 3.3.23 programs on a\n"
    "fresh fabric, index for index: every end port a limited member of\n"
    "0x7fff and the SM port a full one, 0x7fff at index 0, the others in\n"
    "OpenSM's order; what does not fit a table is dropped (reported); a\n"
    "file OpenSM rejects gives its fallback, every port 0xffff (reported).\n"
    "--mode strict: the default partition holds only the ports the plan\n"
    "names (the SM port always full), tables packed from index 0; a file\n"
    "OpenSM rejects is refused.\n"
    "\n"
    "Options:\n"
    "  -t, --topology TOPO       ibnetdiscover/ibsim topology (required)\n"
    "      --sm-port PORT        the SM's port: port GUID, node GUID, node\n"
    "                            description or LID (default: the first CA\n"
    "                            port of TOPO, ibsim's rule)\n"
    "      --mode M              opensm (default) or strict\n"
    "      --allow-both-pkeys    OpenSM's allow_both_pkeys (opensm -W): a\n"
    "                            port may hold the full and limited key\n"
    "      --part-enforce E      OpenSM's part_enforce: both (default), in,\n"
    "                            out, or off (switch ports left untouched)\n"
    "      --state FILE          the tables the ports hold now and what\n"
    "                            OpenSM remembers of their indexes, from\n"
    "                            the previous run (JSON as --format json,\n"
    "                            plus \"remembered\" per port; a missing\n"
    "                            FILE means a fresh fabric): surviving\n"
    "                            P_Keys keep their index, a P_Key that\n"
    "                            comes back gets its old one, new ones go\n"
    "                            after the highest index used.  FILE is\n"
    "                            then rewritten atomically for the next run\n"
    "      --ca-partition-cap N  NodeInfo PartitionCap of CA ports (64)\n"
    "      --switch-partition-cap N  a switch's PartitionCap, bounds its\n"
    "                            port 0 (8)\n"
    "      --enforcement-cap N   SwitchInfo PartitionEnforcementCap, bounds\n"
    "                            switch external ports (64)\n"
    "      --node-name-map F     rdma-core node-name-map for TOPO\n"
    "      --format F            smpquery (default): per port a header\n"
    "                            '# <name> port <n> (<port guid>) <type>',\n"
    "                            smpquery's rows of 8 and its capacity line;\n"
    "                            json: docs/json-schemas.md\n"
    "  -h, --help                this text\n"
    "\n"
    "Findings (tables full, OpenSM's fallback) go to stderr.\n"
    "Exit status: 0 tables computed, nothing to report; 1 computed, with\n"
    "warnings or OpenSM's fallback; 2 bad input or usage (CONF errors in\n"
    "strict mode); 3 system failure.\n";

static void print_smpquery(const ibp_tables *ts, FILE *out)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	size_t cnt = ibp_tables_count(ts);
	for (size_t i = 0; i < cnt; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &n, &p);
		unsigned cap = ibp_pkey_table_capacity(t);
		fprintf(out, "%s# %s port %u (0x%016" PRIx64 ") %s\n",
			i ? "\n" : "", ibp_fabric_node_desc(f, n), p,
			ibp_fabric_port_guid(f, n, p),
			ibp_node_type_str(ibp_fabric_node_type(f, n)));
		for (unsigned k = 0; k < cap; k += 8) {
			fprintf(out, "%4u:", k);
			for (unsigned j = k; j < k + 8 && j < cap; j++)
				fprintf(out, " 0x%04x",
					ibp_pkey_table_get(t, j));
			fputc('\n', out);
		}
		fprintf(out, "%u pkeys capacity for this port\n", cap);
	}
}

static int parse_cap(const char *cmd, const char *s, unsigned *out)
{
	unsigned long long v;
	if (!cli_parse_uint(s, 1, IBP_PKEY_TABLE_MAX, &v))
		return cli_usage_error(cmd, "bad capacity '%s' (1..65535)", s);
	*out = (unsigned)v;
	return 0;
}

static int run(int argc, char **argv)
{
	enum {
		O_SM = 256,
		O_MODE,
		O_BOTH,
		O_ENF,
		O_STATE,
		O_CACAP,
		O_SWCAP,
		O_ENFCAP,
		O_NNM,
		O_FORMAT
	};
	static const struct option opts[] = {
	    {"topology", required_argument, NULL, 't'},
	    {"conf", required_argument, NULL, 'c'},
	    {"sm-port", required_argument, NULL, O_SM},
	    {"mode", required_argument, NULL, O_MODE},
	    {"allow-both-pkeys", no_argument, NULL, O_BOTH},
	    {"part-enforce", required_argument, NULL, O_ENF},
	    {"state", required_argument, NULL, O_STATE},
	    {"ca-partition-cap", required_argument, NULL, O_CACAP},
	    {"switch-partition-cap", required_argument, NULL, O_SWCAP},
	    {"enforcement-cap", required_argument, NULL, O_ENFCAP},
	    {"node-name-map", required_argument, NULL, O_NNM},
	    {"format", required_argument, NULL, O_FORMAT},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0}};
	const char *topo = NULL, *sm_spec = NULL, *state = NULL;
	const char *format = "smpquery";
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo);
	ibp_policy_options po;
	ibp_policy_options_init(&po);
	const char *conf_arg = NULL;
	int ch;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "t:c:h", opts, NULL)) != -1) {
		switch (ch) {
		case 't':
			topo = optarg;
			break;
		case 'c': /* -c CONF, as sim, verify and apply take it */
			conf_arg = optarg;
			break;
		case O_SM:
			sm_spec = optarg;
			break;
		case O_MODE:
			if (ibp_policy_mode_parse(optarg, &po.mode))
				return cli_usage_error(
				    "tables", "unknown mode '%s'", optarg);
			break;
		case O_BOTH:
			po.allow_both_pkeys = true;
			break;
		case O_ENF:
			if (ibp_part_enforce_parse(optarg, &po.part_enforce))
				return cli_usage_error(
				    "tables", "unknown --part-enforce '%s'",
				    optarg);
			break;
		case O_STATE:
			state = optarg;
			break;
		case O_CACAP:
			if (parse_cap("tables", optarg, &fo.ca_partition_cap))
				return CLI_EXIT_USAGE;
			break;
		case O_SWCAP:
			if (parse_cap("tables", optarg,
				      &fo.switch_partition_cap))
				return CLI_EXIT_USAGE;
			break;
		case O_ENFCAP:
			if (parse_cap("tables", optarg, &fo.enforcement_cap))
				return CLI_EXIT_USAGE;
			break;
		case O_NNM:
			fo.node_name_map = optarg;
			break;
		case O_FORMAT:
			format = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		default:
			return cli_usage_error("tables", "bad option");
		}
	}
	if (strcmp(format, "smpquery") && strcmp(format, "json"))
		return cli_usage_error("tables", "unknown format '%s'", format);
	if (!topo)
		return cli_usage_error("tables", "-t TOPO is required");
	const char *path =
	    cli_conf_path("tables", argc, argv, optind, conf_arg);
	if (!path)
		return CLI_EXIT_USAGE;

	ibp_fabric *f = NULL;
	int status = cli_load_fabric(topo, &fo, &f);
	if (status)
		return status;
	ibp_conf *c = NULL;
	ibp_tables *prev = NULL, *ts = NULL, *rem = NULL, *rem_out = NULL;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	ibp_error_clear(&err);
	if (!d) {
		status = CLI_EXIT_SYSTEM;
		goto out;
	}
	/* the SM port: LIDs need the SM first, so a LID is read against
	 * the default SM's numbering */
	uint64_t sm = 0;
	if (sm_spec) {
		size_t n;
		unsigned p;
		if (ibp_fabric_assign_lids(f, 0, &err) ||
		    ibp_fabric_resolve_port(f, sm_spec, &n, &p, &err)) {
			cli_print_error(&err);
			status = CLI_EXIT_USAGE;
			goto out;
		}
		sm = ibp_fabric_port_guid(f, n, p);
		po.sm_port_guid = sm;
	}
	if (ibp_policy_sm_port(f, &po, &sm, &err) ||
	    ibp_fabric_assign_lids(f, sm, &err)) {
		cli_print_error(&err);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	co.fabric = f;
	co.allow_both_pkeys = po.allow_both_pkeys;
	int rc = ibp_conf_parse_file(path, &co, &c, d, &err);
	if (rc) {
		cli_print_error(&err);
		status = rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
		goto out;
	}
	if (state && access(state, F_OK) == 0) {
		if (ibp_tables_read_state_path(f, state, &prev, &rem, &err)) {
			cli_print_error(&err);
			status = CLI_EXIT_USAGE;
			goto out;
		}
		po.previous = prev;
		po.remembered = rem;
	}
	/* the conf's own findings are check's business; here only errors
	 * (they decide OpenSM's fallback) are shown, with the policy's */
	ibp_diags *pd = ibp_diags_new();
	if (!pd) {
		status = CLI_EXIT_SYSTEM;
		goto out;
	}
	rc = ibp_policy_compute_state(c, f, &po, &ts, state ? &rem_out : NULL,
				      pd, &err);
	ibp_diags_print(pd, stderr);
	size_t nfound = ibp_diags_count_severity(pd, IBP_SEV_WARNING) +
			ibp_diags_count_severity(pd, IBP_SEV_ERROR);
	ibp_diags_free(pd);
	if (rc) {
		cli_print_error(&err);
		status = rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
		goto out;
	}
	const char *mode = ibp_policy_mode_str(po.mode);
	if (!strcmp(format, "json")) {
		if (ibp_tables_write_json(ts, mode, sm, stdout, &err)) {
			cli_print_error(&err);
			status = CLI_EXIT_SYSTEM;
			goto out;
		}
	} else {
		print_smpquery(ts, stdout);
	}
	if (fflush(stdout)) {
		status = CLI_EXIT_SYSTEM;
		goto out;
	}
	if (state &&
	    ibp_tables_write_state_path(ts, rem_out, mode, sm, state, &err)) {
		cli_print_error(&err);
		status = CLI_EXIT_SYSTEM;
		goto out;
	}
	status = nfound ? CLI_EXIT_FOUND : CLI_EXIT_OK;
out:
	ibp_tables_free(ts);
	ibp_tables_free(prev);
	ibp_tables_free(rem);
	ibp_tables_free(rem_out);
	ibp_conf_free(c);
	ibp_diags_free(d);
	ibp_fabric_free(f);
	return status;
}

const struct cli_cmd cli_cmd_tables = {
    .name = "tables",
    .summary = "the P_KeyTable of every port, as OpenSM 3.3.23 programs it",
    .usage = usage,
    .run = run,
};
