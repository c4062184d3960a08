/*
 * cmd_monitor.c - `ibpart monitor`: argv -> ibp_monitor_run_options ->
 * ibp_monitor_run_once() (monitor.h: the sweep of the enforcement
 * counters per tenant, the posture, the output) once or every --interval
 * seconds, on the live fabric (-C/-P, as verify) or the simulated one.
 */
#include <unistd.h>

#include "cli.h"
#include "ibpart/monitor.h"
#include "live_cli.h"
#include "sim_cli.h"
#include "ibpart/sys/monitor.h"

static const char usage[] =
    "usage: ibpart monitor -c CONF [-t TOPO] [--mode opensm|strict]\n"
    "         [--format prometheus|json|text] [--interval S [--count N]]\n"
    "         [-o FILE] [--reset] [--opensm-log FILE] [--opensm-conf FILE]\n"
    "         [--subscribe [--sa-key KEY]]\n"
    "         [-C CA] [-P PORT] [--mkey KEY] [--timeout MS] ... [-q]\n"
    "       ibpart monitor --sim -t TOPO -c CONF [--pingpong SRC DST\n"
    "         [--pkey-index N] [-n ITERS]] ...\n\n"
    "Per tenant (partition of CONF), the P_Key constraint errors, violations\n"
    "and Bad P_Key traps (OpenSM's log, or an SA subscription ended on\n"
    "exit) of the ports facing its nodes; the audit of the plan by\n"
    "severity and the drift from it.  docs/monitoring.md.\n";

static const char tail[] =
    "Exit: 0 nothing counted, 1 a constraint error or P_Key violation\n"
    "counted (or a port unread), 2 bad input, 3 the fabric or the system\n"
    "failed (-o FILE not written).\n";

struct mon {
	struct lc c;
	struct ibp_monitor_run_options o;
	struct ibp_monitor_options so; /* o.sweep */
	const char *pp_src, *pp_dst;
	unsigned interval, count, iters, pkey_index;
	bool sim;
};

/* One sweep written (the library's); an exit status. */
static int sweep_once(struct mon *m, ibp_monitor_state *st)
{
	struct cli_op op;
	struct ibp_monitor_run_result res;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	int st_rc =
	    ibp_monitor_run_once(m->c.l, &m->o, st, &res, op.diags, &op.err);
	int rc = cli_op_end(&op, st_rc, CLI_OP_SERIOUS | CLI_OP_ERROR);
	if (res.output_failed) /* as every command's -o: 2 or 3 */
		rc = cli_output_status(st_rc);
	m->so.ntraps = 0; /* counted: in the state now */
	if (!rc && !res.full_member && !m->c.quiet)
		fprintf(stderr,
			"ibpart monitor: warning: the monitoring port is not a "
			"full member of the default partition (0xffff): the "
			"PMAs of its limited members refuse its GMPs\n");
	return rc ? rc : res.found ? CLI_EXIT_FOUND : CLI_EXIT_OK;
}

/* --sim: the simulated fabric, a pingpong (its story on stderr), the
 * traps its SM received, a session at its SM port; an exit status. */
static int open_sim(struct mon *m, ibp_sim_session **ss, ibp_transport **t)
{
	struct ibp_sim_session_options so;
	ibp_sim_session_options_init(&so, IBP_SIM_SESSION_OPTIONS_VERSION);
	so.topo_path = m->c.in.topo, so.conf_path = m->c.in.conf;
	so.mode = m->c.in.mode, so.sm_port = m->c.in.sm_port;
	so.max_input_size = cli_common.max_input_size;
	int rc = sim_cli_open(&so, m->c.quiet, NULL, ss, NULL);
	if (rc)
		return rc;
	if (m->pp_src) {
		struct ibp_sim_pingpong_options po;
		ibp_sim_pingpong_options_init(&po,
					      IBP_SIM_PINGPONG_OPTIONS_VERSION);
		po.pkey_index = m->pkey_index, po.iters = m->iters;
		rc = sim_cli_pingpong(*ss, m->pp_src, m->pp_dst, &po,
				      m->c.quiet ? NULL : stderr);
		if (rc == CLI_EXIT_USAGE || rc == CLI_EXIT_SYSTEM)
			return rc;
		static struct ibp_sm_trap traps[IBP_SM_TRAPS_KEPT];
		m->so.traps = traps;
		m->so.ntraps = ibp_sm_traps_take(ibp_sim_session_sm(*ss), traps,
						 IBP_SM_TRAPS_KEPT);
	}
	ibp_error err = {0};
	m->c.lo.progress = m->c.quiet ? NULL : cli_progress;
	if ((rc = ibp_monitor_open_sim(*ss, &m->c.lo, t, &m->c.l, &err))) {
		cli_print_error(&err);
		return cli_exit_status(rc, &err);
	}
	return CLI_EXIT_OK;
}

/* argv into m (the sweep's options set): 0, or an exit status (usage
 * printed). */
static int parse_args(struct mon *m, int argc, char **argv)
{
	struct ibp_monitor_options *so = &m->so;
	const struct cli_opt opts[] = {
	    CLI_CONF(&m->c.in),
	    CLI_MODE(&m->c.in),
	    /* the sweep's own defaults (monitor.h); discovery's are verify's */
	    LC_PORT_OPTS_DEFAULTS(&m->c.lo, &m->c.quiet, "200; discovery 100",
				  "2; discovery 3", "16; discovery 4"),
	    CLI_STR("-t|--topo|--topology", &m->c.in.topo, "TOPO",
		    "the fabric's topology (--sim: the simulated one)"),
	    CLI_STR("--sm-port", &m->c.in.sm_port, "PORT",
		    "the SM's port (the plan's SELF); default as verify"),
	    CLI_FLAG("-W|--allow-both-pkeys", &m->c.allow_both,
		     "OpenSM's allow_both_pkeys, for reading the plan"),
	    CLI_WORD("--format", &m->o.format, "prometheus|json|text",
		     "prometheus text exposition (default), json or text"),
	    CLI_NUM("--interval", &m->interval, 1, 86400, "S",
		    "sweep every S seconds (until killed, or --count)"),
	    CLI_NUM("--count", &m->count, 1, 1000000, "N",
		    "with --interval: stop after N sweeps"),
	    CLI_STR("-o|--output", &m->o.output_path, "FILE",
		    "write each sweep to FILE whole (textfile collector)"),
	    CLI_FLAG("--reset", &so->reset,
		     "clear the constraint error counters after reading them"),
	    CLI_STR("--opensm-log", &so->opensm_log_path, "FILE",
		    "count the Bad P_Key traps (257, 259) OpenSM logged"),
	    CLI_STR(
		"--opensm-conf", &m->c.osm_conf_path, "FILE",
		"opensm->conf: the audit's posture rules, verify's options"),
	    CLI_FLAG("--subscribe", &so->subscribe,
		     "subscribe to traps 257 and 259 through the SA "
		     "(InformInfo) and count the SM's Reports"),
	    CLI_NUM("--sa-key", &so->sa_key, 0, UINT64_MAX, "KEY",
		    "the SM_Key of the SA MADs: OpenSM's sa_key (default 1, "
		    "its default)"),
	    CLI_FLAG("--sim", &m->sim,
		     "the built-in simulated fabric of -t and -c"),
	    CLI_STR2(
		"--pingpong", &m->pp_src, &m->pp_dst, "SRC DST",
		"--sim: first an RC pingpong (port specs as `ibpart sim`)"),
	    CLI_NUM("--pkey-index", &m->pkey_index, 0, 65535, "N",
		    "the pingpong requester's P_Key index (default 0)"),
	    CLI_NUM("-n|--iters", &m->iters, 1, 1000000, "ITERS",
		    "pingpong iterations (default 1)"),
	};
	struct cli_args a = {"monitor", usage, tail, opts, CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc || (rc = cli_take_conf("monitor", &m->c.in, &a)))
		return rc;
	const char *why = !m->c.in.conf		    ? "-c CONF is required"
			  : m->sim && !m->c.in.topo ? "--sim needs -t TOPO"
			  : m->pp_src && !m->sim    ? "--pingpong needs --sim"
			  : m->count && !m->interval
			      ? "--count needs --interval"
			      : NULL;
	if (why)
		return cli_usage_error("monitor", "%s", why);
	if ((rc = lc_opensm_conf(&m->c)))
		return rc;
	so->conf_path = m->c.in.conf, so->mode = m->c.in.mode;
	so->allow_both_pkeys = m->c.allow_both;
	so->window = m->c.lo.max_wire_smps;
	so->max_input_size = cli_common.max_input_size;
	so->timeout_ms = m->c.lo.timeout_ms, so->retries = m->c.lo.retries;
	so->osm = m->c.have_osm ? &m->c.osm : NULL;
	m->o.out = stdout;
	if (so->subscribe) /* SIGINT/SIGTERM: end the subscription */
		cli_catch_stop(&m->c.lo.cancel);
	return 0;
}

static int run(int argc, char **argv)
{
	struct mon m = {.iters = 1};
	lc_init(&m.c, "monitor");
	ibp_monitor_run_options_init(&m.o, IBP_MONITOR_RUN_OPTIONS_VERSION);
	ibp_monitor_options_init(&m.so, IBP_MONITOR_OPTIONS_VERSION);
	m.so.audit = m.so.drift = true; /* the posture beside the counters */
	m.o.sweep = &m.so;
	int rc = parse_args(&m, argc, argv);
	if (rc)
		return rc;
	ibp_sim_session *ss = NULL;
	ibp_transport *t = NULL;
	rc = m.sim ? open_sim(&m, &ss, &t) : lc_open(&m.c);
	ibp_monitor_state *st = rc ? NULL : ibp_monitor_state_new();
	if (!rc && !st)
		rc = CLI_EXIT_SYSTEM;
	for (unsigned k = 0; !rc || rc == CLI_EXIT_FOUND; k++) {
		rc = sweep_once(&m, st);
		if (!m.interval || (m.count && k + 1 >= m.count))
			break;
		ibp_error werr;
		if (ibp_monitor_wait(m.c.l, st, m.interval * 1000u, &werr))
			break;
	}
	ibp_monitor_state_free(st);
	lc_close(&m.c);
	ibp_transport_close(t);
	ibp_sim_session_free(ss);
	return rc;
}

CLI_COMMAND(monitor, "partition enforcement counters per tenant (Prometheus)");
