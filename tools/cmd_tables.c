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

enum { O_BOTH = 256, O_ENF, O_STATE, O_CACAP, O_SWCAP, O_ENFCAP, O_FORMAT };

static int parse_cap(const char *cmd, const char *s, unsigned *out)
{
	unsigned long long v;
	if (!cli_parse_uint(s, 1, IBP_PKEY_TABLE_MAX, &v))
		return cli_usage_error(cmd, "bad capacity '%s' (1..65535)", s);
	*out = (unsigned)v;
	return 0;
}

struct tables_args {
	struct cli_input in;
	const char *state, *format, *path;
	ibp_fabric_options fo;
	ibp_policy_options po;
};

/* One getopt option into a; 0, or the exit status to return. */
static int take_opt(int ch, struct tables_args *a)
{
	int r = cli_input_getopt("tables", &a->in, ch, optarg);
	if (r)
		return r < 0 ? CLI_EXIT_USAGE : 0;
	switch (ch) {
	case O_BOTH:
		a->po.allow_both_pkeys = true;
		return 0;
	case O_ENF:
		if (ibp_part_enforce_parse(optarg, &a->po.part_enforce))
			return cli_usage_error(
			    "tables", "unknown --part-enforce '%s'", optarg);
		return 0;
	case O_STATE:
		a->state = optarg;
		return 0;
	case O_CACAP:
		return parse_cap("tables", optarg, &a->fo.ca_partition_cap);
	case O_SWCAP:
		return parse_cap("tables", optarg, &a->fo.switch_partition_cap);
	case O_ENFCAP:
		return parse_cap("tables", optarg, &a->fo.enforcement_cap);
	case O_FORMAT:
		a->format = optarg;
		return 0;
	default:
		return cli_usage_error("tables", "bad option");
	}
}

/* argv -> a; 0, or the exit status to return (-1: --help printed). */
static int parse_args(int argc, char **argv, struct tables_args *a)
{
	static const struct option opts[] = {
	    CLI_IN_LONGOPT_TOPO,
	    CLI_IN_LONGOPT_CONF,
	    CLI_IN_LONGOPT_SM_PORT,
	    CLI_IN_LONGOPT_MODE,
	    {"allow-both-pkeys", no_argument, NULL, O_BOTH},
	    {"part-enforce", required_argument, NULL, O_ENF},
	    {"state", required_argument, NULL, O_STATE},
	    {"ca-partition-cap", required_argument, NULL, O_CACAP},
	    {"switch-partition-cap", required_argument, NULL, O_SWCAP},
	    {"enforcement-cap", required_argument, NULL, O_ENFCAP},
	    CLI_IN_LONGOPT_NNM,
	    {"format", required_argument, NULL, O_FORMAT},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0}};
	memset(a, 0, sizeof(*a));
	a->format = "smpquery";
	ibp_fabric_options_init(&a->fo);
	ibp_policy_options_init(&a->po);
	a->in.takes = CLI_IN_TOPO | CLI_IN_CONF | CLI_IN_NNM | CLI_IN_SM_PORT |
		      CLI_IN_MODE;
	int ch, rc;
	optind = 1;
	while ((ch = getopt_long(argc, argv, "t:c:h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(usage, stdout);
			return -1;
		}
		if ((rc = take_opt(ch, a)))
			return rc;
	}
	if (strcmp(a->format, "smpquery") && strcmp(a->format, "json"))
		return cli_usage_error("tables", "unknown format '%s'",
				       a->format);
	if (!a->in.topo)
		return cli_usage_error("tables", "-t TOPO is required");
	if (a->in.mode)
		ibp_policy_mode_parse(a->in.mode, &a->po.mode);
	a->fo.node_name_map = a->in.node_name_map;
	a->path = cli_conf_path("tables", argc, argv, optind, a->in.conf);
	return a->path ? 0 : CLI_EXIT_USAGE;
}

/* The SM port: LIDs need the SM first, so a LID is read against the
 * default SM's numbering.  0 or an exit status (printed). */
static int sm_port(struct tables_args *a, ibp_fabric *f, uint64_t *sm)
{
	ibp_error err;
	ibp_error_clear(&err);
	*sm = 0;
	if (a->in.sm_port) {
		size_t n;
		unsigned p;
		if (ibp_fabric_assign_lids(f, 0, &err) ||
		    ibp_fabric_resolve_port(f, a->in.sm_port, &n, &p, &err)) {
			cli_print_error(&err);
			return CLI_EXIT_USAGE;
		}
		*sm = ibp_fabric_port_guid(f, n, p);
		a->po.sm_port_guid = *sm;
	}
	if (ibp_policy_sm_port(f, &a->po, sm, &err) ||
	    ibp_fabric_assign_lids(f, *sm, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

struct tables_run {
	ibp_conf *c;
	ibp_tables *prev, *ts, *rem, *rem_out;
	size_t nfound;
};

/* The plan, the --state file, the policy: 0 or an exit status. */
static int compute(struct tables_args *a, ibp_fabric *f, struct tables_run *r)
{
	ibp_error err;
	ibp_error_clear(&err);
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	co.fabric = f;
	co.allow_both_pkeys = a->po.allow_both_pkeys;
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	int rc = ibp_conf_parse_file(a->path, &co, &r->c, d, &err);
	ibp_diags_free(d);
	if (rc) {
		cli_print_error(&err);
		return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
	}
	if (a->state && access(a->state, F_OK) == 0) {
		if (ibp_tables_read_state_path(f, a->state, &r->prev, &r->rem,
					       &err)) {
			cli_print_error(&err);
			return CLI_EXIT_USAGE;
		}
		a->po.previous = r->prev;
		a->po.remembered = r->rem;
	}
	/* the conf's own findings are check's business; here only errors
	 * (they decide OpenSM's fallback) are shown, with the policy's */
	ibp_diags *pd = ibp_diags_new();
	if (!pd)
		return CLI_EXIT_SYSTEM;
	rc = ibp_policy_compute_state(r->c, f, &a->po, &r->ts,
				      a->state ? &r->rem_out : NULL, pd, &err);
	cli_print_diags(pd);
	r->nfound = ibp_diags_count_severity(pd, IBP_SEV_WARNING) +
		    ibp_diags_count_severity(pd, IBP_SEV_ERROR);
	ibp_diags_free(pd);
	if (rc) {
		cli_print_error(&err);
		return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
	}
	return 0;
}

/* The tables on stdout, then the --state file: 0 or an exit status. */
static int emit(const struct tables_args *a, const struct tables_run *r,
		uint64_t sm)
{
	ibp_error err;
	const char *mode = ibp_policy_mode_str(a->po.mode);
	if (!strcmp(a->format, "json")) {
		if (ibp_tables_write_json(r->ts, mode, sm, stdout, &err)) {
			cli_print_error(&err);
			return CLI_EXIT_SYSTEM;
		}
	} else {
		ibp_tables_print_smpquery(r->ts, stdout);
	}
	if (fflush(stdout))
		return CLI_EXIT_SYSTEM;
	if (a->state && ibp_tables_write_state_path(r->ts, r->rem_out, mode, sm,
						    a->state, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct tables_args a;
	int status = parse_args(argc, argv, &a);
	if (status)
		return status < 0 ? CLI_EXIT_OK : status;
	ibp_fabric *f = NULL;
	if ((status = cli_load_fabric(a.in.topo, &a.fo, &f)))
		return status;
	struct tables_run r = {0};
	uint64_t sm;
	if (!(status = sm_port(&a, f, &sm)) && !(status = compute(&a, f, &r)) &&
	    !(status = emit(&a, &r, sm)))
		status = r.nfound ? CLI_EXIT_FOUND : CLI_EXIT_OK;
	ibp_tables_free(r.ts);
	ibp_tables_free(r.prev);
	ibp_tables_free(r.rem);
	ibp_tables_free(r.rem_out);
	ibp_conf_free(r.c);
	ibp_fabric_free(f);
	return status;
}

const struct cli_cmd cli_cmd_tables = {
    .name = "tables",
    .summary = "the P_KeyTable of every port, as OpenSM 3.3.23 programs it",
    .usage = usage,
    .run = run,
};
