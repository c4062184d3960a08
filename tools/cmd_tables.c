/*
 * cmd_tables.c - `ibpart tables`: the P_KeyTable the subnet manager
 * programs into every port of a fabric for a partition plan, in
 * smpquery's layout or as the JSON of docs/json-schemas.md
 * (tables_compute.h does the work).
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"
#include "ibpart/tables_compute.h"
#include "ibpart/tables_json.h"
#include "ibpart/sys/escape.h"
#include "ibpart/sys/tables_compute.h"

static const char usage[] =
    "usage: ibpart tables -t TOPO [--sm-port PORT] [--mode opensm|strict]\n"
    "                     [--allow-both-pkeys] [--part-enforce "
    "both|in|out|off]\n"
    "                     [--state FILE] [--ca-partition-cap N]\n"
    "                     [--switch-partition-cap N] [--enforcement-cap N]\n"
    "                     [--lft-cap N] [--mft-cap N] [--lmc L]\n"
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
    "OpenSM rejects is refused.\n";

static const char tail[] =
    "Findings (tables full, no LID, OpenSM's fallback, an outcome OpenSM\n"
    "leaves to uninitialised memory, a P_Key OpenSM overwrites) go to\n"
    "stderr; one that repeats is shown --max-errors times, then counted\n"
    "in one line.\n"
    "Exit status: 0 tables computed, nothing to report; 1 computed, with\n"
    "warnings or OpenSM's fallback; 2 bad input or usage (CONF errors in\n"
    "strict mode); 3 system failure.\n";

struct tables_args {
	struct cli_input in;
	const char *format;
	int enforce; /* --part-enforce: an ibp_part_enforce; -1: not given */
	ibp_tables_compute_options to;
	ibp_fabric_options fo; /* to.fabric */
	ibp_policy_options po; /* to.policy */
};

/* argv -> a; 0, or the exit status of a usage error (printed). */
static const char osm_help[] =
    "OpenSM's opensm.conf, read as OpenSM does: "
    "allow_both_pkeys, keep_pkey_indexes, part_enforce, "
    "no_partition_enforcement (the two flags above override "
    "it). With a --state that records a running OpenSM this "
    "run is a SIGHUP: allow_both_pkeys stays as OpenSM started; "
    "NVIDIA's virt_enabled 2 makes the plan's GUIDs that are no "
    "port vport-unmodelled";

static int parse_args(int argc, char **argv, struct tables_args *a)
{
	memset(a, 0, sizeof(*a));
	a->format = "smpquery";
	a->enforce = -1;
	ibp_tables_compute_options_init(&a->to,
					IBP_TABLES_COMPUTE_OPTIONS_VERSION);
	ibp_fabric_options_init(&a->fo, IBP_FABRIC_OPTIONS_VERSION);
	ibp_policy_options_init(&a->po, IBP_POLICY_OPTIONS_VERSION);
	a->to.fabric = &a->fo;
	a->to.policy = &a->po;
	ibp_policy_options *po = &a->po;
	const struct cli_opt opts[] = {
	    CLI_TOPO(&a->in, "ibnetdiscover/ibsim topology (required)"),
	    CLI_CONF(&a->in),
	    CLI_NNM(&a->in),
	    CLI_ALIASES(&a->in),
	    CLI_VF_GUIDS(&a->in),
	    CLI_SM_PORT(&a->in),
	    CLI_MODE(&a->in),
	    CLI_FLAG("--allow-both-pkeys", &po->allow_both_pkeys,
		     "OpenSM's allow_both_pkeys (opensm -W): a port may hold "
		     "the full and limited key"),
	    CLI_INDEX("--part-enforce", &a->enforce, IBP_PART_ENFORCE_WORDS,
		      "OpenSM's part_enforce: both (default), in, out, or off "
		      "(switch ports left untouched)"),
	    CLI_STR("--opensm-conf", &a->to.opensm_conf_path, "FILE", osm_help),
	    CLI_STR(
		"--state", &a->to.state_path, "FILE",
		"what the ports hold and what OpenSM remembers of their "
		"indexes, from the previous run (docs/json-schemas.md, "
		"\"State file\"; a missing FILE is a fresh fabric under a "
		"fresh OpenSM): OpenSM's SIGHUP replayed - surviving P_Keys "
		"keep their index, one that comes back gets its old one, "
		"new ones go after the highest used; a port absent from "
		"TOPO keeps its table and OpenSM forgets it. FILE is then "
		"rewritten atomically for the next run"),
	    IBP_ARG_CAP_OPTS(&a->fo),
	    IBP_ARG_SUBNET_OPTS(&a->fo.linear_fdb_cap, &a->fo.multicast_fdb_cap,
				&a->fo.lmc),
	    CLI_WORD("--format", &a->format, "smpquery|json",
		     "smpquery (default): per port a header '# <name> port <n> "
		     "(<port guid>) <type>', smpquery's rows of 8 and its "
		     "capacity line; json: docs/json-schemas.md")};
	struct cli_args args = {"tables", usage,	   tail,
				opts,	  CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&args, argc, argv);
	if (rc)
		return rc;
	a->to.allow_both_pkeys_given = po->allow_both_pkeys;
	/* given, --part-enforce overrides opensm.conf */
	if ((a->to.part_enforce_given = a->enforce >= 0))
		po->part_enforce = (ibp_part_enforce)a->enforce;
	if (!a->in.topo)
		return cli_usage_error("tables", "-t TOPO is required");
	if (a->in.mode)
		ibp_policy_mode_parse(a->in.mode, &a->po.mode);
	a->to.topology_path = a->in.topo;
	a->fo.node_name_map = a->in.node_name_map;
	a->to.alias_guids_path = a->in.alias_guids;
	a->to.vf_guids = (ibp_vf_guids)a->in.vf_guids;
	a->fo.max_input_size = a->to.max_input_size = cli_common.max_input_size;
	a->to.sm_port = a->in.sm_port;
	a->to.plan_path = cli_conf_path("tables", &a->in, &args);
	if (!a->to.plan_path)
		return CLI_EXIT_USAGE;
	/* the state file is read and then rewritten: a path, not - */
	if (a->to.state_path && !strcmp(a->to.state_path, "-"))
		return cli_usage_error(
		    "tables", "--state needs a file (it is rewritten), "
			      "not -");
	const char *inputs[] = {a->in.topo, a->in.node_name_map,
				a->in.alias_guids, a->to.plan_path,
				a->to.opensm_conf_path};
	return cli_stdin_once("tables", inputs, 5);
}

/* smpquery's row of port p of node n's P_KeyTable from index k, "%4u:"
 * and up to eight " 0x%04x", made here and written at once: at 48,000
 * ports a printf per P_Key was most of `ibpart tables`' time. */
static void print_row(FILE *out, const ibp_tables *ts, size_t n, unsigned p,
		      unsigned k, unsigned cap)
{
	static const char hex[] = "0123456789abcdef";
	char b[32 + 8 * 7];
	char num[12];
	size_t nd = 0, len = 0;
	unsigned v = k;
	do
		num[nd++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (nd + len < 4)
		b[len++] = ' ';
	while (nd)
		b[len++] = num[--nd];
	b[len++] = ':';
	for (unsigned j = k; j < k + 8 && j < cap; j++) {
		uint16_t pk = ibp_tables_pkey_at(ts, n, p, j);
		memcpy(b + len, " 0x", 3);
		b[len + 3] = hex[pk >> 12];
		b[len + 4] = hex[(pk >> 8) & 15];
		b[len + 5] = hex[(pk >> 4) & 15];
		b[len + 6] = hex[pk & 15];
		len += 7;
	}
	b[len++] = '\n';
	fwrite(b, 1, len, out);
}

/* Every table in the layout of `smpquery pkeys` (a "# DESC port N
 * (GUID) TYPE" header, eight entries a line with their index, the
 * capacity line), a blank line between ports: the default output. */
static void print_smpquery(const ibp_tables *ts, FILE *out)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	size_t cnt = ibp_tables_count(ts);
	for (size_t i = 0; i < cnt; i++) {
		size_t n = 0;
		unsigned p = 0;
		ibp_tables_port_at(ts, i, &n, &p);
		unsigned cap = ibp_tables_port_capacity(ts, n, p, NULL);
		const char *d = ibp_fabric_node_desc(f, n);
		fprintf(out, "%s# ", i ? "\n" : "");
		ibp_escape_write(out, d, strlen(d)); /* escape.h */
		fprintf(out, " port %u (0x%016" PRIx64 ") %s\n", p,
			ibp_fabric_port_guid(f, n, p),
			ibp_node_type_str(ibp_fabric_node_type(f, n)));
		for (unsigned k = 0; k < cap; k += 8)
			print_row(out, ts, n, p, k, cap);
		fprintf(out, "%u pkeys capacity for this port\n", cap);
	}
}

/* The tables on stdout, then the --state file: 0 or an exit status. */
static int emit(const struct tables_args *a, const ibp_tables_result *r)
{
	ibp_error err;
	const char *mode = ibp_policy_mode_str(a->po.mode);
	if (!strcmp(a->format, "json")) {
		if (ibp_tables_write_json(r->tables, mode, r->sm_port_guid,
					  stdout, &err)) {
			cli_print_error(&err);
			return CLI_EXIT_SYSTEM;
		}
	} else {
		print_smpquery(r->tables, stdout);
	}
	if (fflush(stdout))
		return CLI_EXIT_SYSTEM;
	if (a->to.state_path &&
	    ibp_tables_result_write_state(r, a->to.state_path, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return r->nfound ? CLI_EXIT_FOUND : CLI_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct tables_args a;
	int status = parse_args(argc, argv, &a);
	if (status)
		return status;
	struct cli_op op;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	a.fo.progress = a.po.progress = cli_progress_hook();
	int rc = ibp_tables_compute(&a.to, &r, op.diags, &op.err);
	/* a failure after the topology loaded is no finding of it */
	status = cli_op_end(&op, rc, r.fabric ? CLI_OP_ERROR : 0);
	if (!status)
		status = emit(&a, &r);
	ibp_tables_result_free(&r);
	return status;
}

CLI_COMMAND(tables,
	    "the P_KeyTable of every port, as OpenSM 3.3.23 programs it");
