/*
 * cmd_sim.c - `ibpart sim`: bring up the simulated fabric (the SM pushes
 * the plan over SMPs, the report goes to stderr) and replay the seed's
 * commands on it.  Several actions may follow one another on the command
 * line; they run in order on the same fabric, so `pingpong A B counters`
 * shows what the pingpong did to the counters.  The session and its
 * commands are the library's (ibpart/sys/sim_session.h); here their
 * findings, errors and results are printed and turned into exit
 * statuses.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sim_cli.h"
#include "front/sim_action.h"
#include "ibpart/sys/sim_session.h"
#include "front/print.h"

static const char usage[] =
    "usage: ibpart sim -t TOPO -c CONF [--mode opensm|strict]\n"
    "                  [--part-enforce both|in|out|off] [--sm-port PORT]\n"
    "                  [--mad-loss FRACTION] [-q] ACTION [ACTION ...]\n"
    "\n"
    "Bring up a simulated fabric: every node of TOPO answers SMPs as a\n"
    "real SMA; the built-in SM discovers it by directed route, computes\n"
    "the P_Key tables CONF asks for (--mode opensm, the default as in\n"
    "tables/matrix/audit: what OpenSM 3.3.23 programs; or strict, the\n"
    "seed's model; `ibpart demo` uses strict) and pushes them with\n"
    "SubnSet(P_KeyTable), only the blocks that differ, confirming each by\n"
    "reading it back; then it sets partition enforcement on the switch\n"
    "ports facing hosts (--part-enforce, OpenSM's option; default both).\n"
    "The SM's report and the plan's warnings go to stderr (-q: errors only).  "
    "Then the actions run, in\n"
    "order, on that fabric:\n"
    "\n"
    "  smpquery [-G|-D] pkeys ADDR [PORT]\n"
    "      the port's P_KeyTable, read over LID-routed SMPs (-D: over\n"
    "      directed-route ones, ADDR a path from the SM's port such as\n"
    "      0,1,3; -G: ADDR a port GUID) and printed byte for byte as\n"
    "      infiniband-diags' `smpquery pkeys` prints it.\n"
    "  pingpong SRC DST [--pkey-index N] [-n ITERS] [-s SIZE]\n"
    "      ibv_rc_pingpong from SRC (requester) to DST (responder) over\n"
    "      the data plane: both sides' output, the latency model used,\n"
    "      and the P_KeyViolations / trap counts before and after.\n"
    "      Defaults: index 0, 1000 iterations, 4096 bytes.\n"
    "  probe-matrix\n"
    "      a probe between every ordered pair of host ports, through the\n"
    "      data plane; prints the matrix (rows send, columns receive).\n"
    "  counters\n"
    "      every port's P_KeyViolations, M_KeyViolations,\n"
    "      PortRcvConstraintErrors, PortXmitConstraintErrors, and the\n"
    "      traps the SM received.\n"
    "  vf-map VF IDX[,IDX...]\n"
    "      VF's P_KeyTable entry i is its port's entry IDX i (pkey_idx).\n";

static const char tail[] =
    "ADDR, SRC, DST: a LID (LIDs are assigned in OpenSM's order: the SM\n"
    "port 1, then end ports by port GUID), a port GUID, a node GUID or a\n"
    "node description (name/N: port N of a node with several ports); VF,\n"
    "SRC, DST: an --alias-guids VF's GUID (entries 0..15 its port's).\n"
    "\n"
    "Exit status: 0 fine; 1 a pingpong failed (the fabric dropped it), or\n"
    "OpenSM rejects CONF and the fabric runs its fallback (every port\n"
    "0xffff);\n"
    "2 bad input or usage; 3 the fabric or the system failed.\n"
    "\n"
    "Example:\n"
    "  ibpart sim -t seed.topo -c seed-block.conf pingpong \\\n"
    "      tenantB-node-01 tenantA-node-01 counters\n";

/* The topology's findings always; the plan's too unless quiet and the
 * plan went through without an error. */
static void print_findings(const ibp_diags *d, const char *topo, bool quiet,
			   int rc)
{
	if (!quiet || rc != IBP_OK ||
	    ibp_diags_count_severity(d, IBP_SEV_ERROR)) {
		cli_print_diags(d);
		return;
	}
	ibp_diags *t = ibp_diags_new();
	if (t && ibp_diags_append(t, d, topo) == IBP_OK)
		cli_print_diags(t);
	ibp_diags_free(t);
}

int sim_cli_open(struct ibp_sim_session_options *o, bool quiet, FILE *log,
		 ibp_sim_session **out, bool *rejected)
{
	*out = NULL;
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	o->push = false; /* the findings first, then the push's report */
	ibp_error err;
	int rc = ibp_sim_session_open(o, out, d, &err);
	print_findings(d, o->topo_path, quiet, rc);
	if (rejected)
		*rejected = ibp_diags_has_code(d, "opensm-fallback");
	if (rc != IBP_OK && err.message[0])
		cli_print_failure(d, &err); /* unless a finding said it */
	ibp_diags_free(d);
	if (rc != IBP_OK)
		return cli_exit_status(rc, &err);
	ibp_error_clear(&err);
	rc = ibp_sim_session_push(*out, o->enforce, &err);
	if (log)
		ibp_sm_report_print(ibp_sim_session_report(*out), log);
	if (rc == IBP_OK)
		return CLI_EXIT_OK;
	cli_print_error(&err);
	ibp_sim_session_free(*out);
	*out = NULL;
	return CLI_EXIT_SYSTEM;
}

/* 0 when spec names an end port; else 2 after saying why. */
static int resolve_port(const ibp_sim_session *s, const char *spec)
{
	size_t n;
	unsigned p;
	ibp_error err;
	if (ibp_sim_session_port(s, spec, &n, &p, &err) == IBP_OK)
		return CLI_EXIT_OK;
	cli_print_error(&err);
	return CLI_EXIT_USAGE;
}

int sim_cli_pingpong(ibp_sim_session *s, const char *src, const char *dst,
		     const struct ibp_sim_pingpong_options *po, FILE *out)
{
	int rc = resolve_port(s, src);
	if (rc || (rc = resolve_port(s, dst)))
		return rc;
	struct ibp_sim_pingpong_result res;
	ibp_error err;
	rc = ibp_sim_session_pingpong(s, src, dst, po, out, &res, &err);
	if (rc != IBP_OK) {
		cli_print_error(&err);
		return cli_exit_status(rc, &err);
	}
	return res.outcome == IBP_SIM_PINGPONG_COMPLETED ? CLI_EXIT_OK
							 : CLI_EXIT_FOUND;
}

/* --mad-loss: a fraction in [0,1) into a double. */
static int take_loss(const char *cmd, void *dest, const char *val)
{
	char *end;
	double v = strtod(val, &end);
	if (!*val || *end || !(v >= 0 && v < 1)) {
		cli_usage_error(cmd, "--mad-loss is a fraction in [0,1)");
		return -1;
	}
	*(double *)dest = v;
	return 0;
}

/* The options before the actions; *first the first action's index.
 * Returns an exit status (0: go on). */
static int parse_options(int argc, char **argv,
			 struct ibp_sim_session_options *o, bool *quiet,
			 int *first)
{
	struct cli_input in = {0};
	int enforce = (int)o->enforce; /* an int for the word's index */
	const struct cli_opt opts[] = {
	    CLI_TOPO(&in, "ibnetdiscover/ibsim topology of the fabric"),
	    CLI_CONF(&in),
	    CLI_SM_PORT(&in),
	    CLI_MODE(&in),
	    CLI_ALIASES(&in),
	    CLI_INDEX("--part-enforce", &enforce, IBP_PART_ENFORCE_WORDS,
		      "OpenSM's part_enforce on the switch ports facing hosts "
		      "(default both)"),
	    CLI_FN("--mad-loss", &o->mad_loss, take_loss, "FRACTION",
		   "lose that fraction [0,1) of the SM's MADs (reproducibly) "
		   "to exercise its retries"),
	    CLI_FLAG("-q", quiet, "the SM's report and warnings: errors only")};
	struct cli_args a = {"sim",	      usage, tail, opts,
			     CLI_NOPTS(opts), 0,     true};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc;
	if (!in.topo || !in.conf)
		return cli_usage_error("sim", "-t TOPO and -c CONF are needed");
	if (a.next >= argc)
		return cli_usage_error("sim", "no action given");
	o->enforce = (ibp_part_enforce)enforce;
	o->topo_path = in.topo;
	o->conf_path = in.conf;
	o->sm_port = in.sm_port;
	o->alias_guids_path = in.alias_guids;
	if (in.mode)
		o->mode = in.mode;
	*first = a.next;
	return CLI_EXIT_OK;
}

/* The action a on s, its output to stdout, its errors printed: an exit
 * status (pingpong: 1 when the exchange did not complete). */
static int action(ibp_sim_session *s, const struct ibp_sim_action *a)
{
	int rc = CLI_EXIT_OK;
	if (a->kind == IBP_SIM_ACTION_PINGPONG)
		return sim_cli_pingpong(s, a->src, a->dst, &a->pingpong,
					stdout);
	if (a->kind == IBP_SIM_ACTION_SMPQUERY && a->how != IBP_SMPQUERY_DR)
		rc = resolve_port(s, a->addr);
	ibp_error err;
	if (rc || !(rc = ibp_sim_session_run_action(s, a, stdout, NULL, &err)))
		return rc;
	if (a->kind == IBP_SIM_ACTION_SMPQUERY)
		cli_print_message("ibpart sim smpquery", err.message);
	else if (a->kind == IBP_SIM_ACTION_PROBE_MATRIX)
		cli_print_message("ibpart", err.message);
	else
		cli_print_error(&err);
	return a->kind == IBP_SIM_ACTION_PROBE_MATRIX
		   ? CLI_EXIT_SYSTEM
		   : cli_exit_status(rc, &err);
}

/* The action at argv[*k] into *a, *k past it; an exit status. */
static int parse_action(int argc, char **argv, int *k, struct ibp_sim_action *a)
{
	ibp_error err;
	if (!ibp_sim_action_parse(argc, argv, k, a, &err))
		return CLI_EXIT_OK;
	if (err.message[0])
		return cli_usage_error("sim", "%s", err.message);
	return CLI_EXIT_USAGE;
}

static int run(int argc, char **argv)
{
	struct ibp_sim_session_options o;
	ibp_sim_session_options_init(&o, IBP_SIM_SESSION_OPTIONS_VERSION);
	o.max_input_size = cli_common.max_input_size;
	bool quiet = false;
	int first = 0;
	int rc = parse_options(argc, argv, &o, &quiet, &first);
	if (rc != CLI_EXIT_OK)
		return rc;
	/* Check the actions before bringing anything up. */
	struct ibp_sim_action a;
	for (int k = first; k < argc;)
		if ((rc = parse_action(argc, argv, &k, &a)) != CLI_EXIT_OK)
			return rc;
	ibp_sim_session *s;
	bool rejected = false;
	rc = sim_cli_open(&o, quiet, quiet ? NULL : stderr, &s, &rejected);
	if (rc != CLI_EXIT_OK)
		return rc;
	/* OpenSM rejects the plan: the fabric runs its fallback (exit 1) */
	int status = rejected ? CLI_EXIT_FOUND : CLI_EXIT_OK;
	for (int k = first; k < argc && status != CLI_EXIT_USAGE &&
			    status != CLI_EXIT_SYSTEM;) {
		parse_action(argc, argv, &k, &a);
		rc = action(s, &a);
		if (rc > status)
			status = rc;
		if (k < argc)
			fputc('\n', stdout);
	}
	ibp_sim_session_free(s);
	return status;
}

CLI_COMMAND(sim, "push a plan into a simulated fabric and replay smpquery, "
		 "pingpong, probes");
