/*
 * cmd_monitor.c - `ibpart monitor`: sweep the fabric's partition
 * enforcement counters (PerfMgt constraint errors, PortInfo key
 * violations) once or every --interval seconds, attribute them to the
 * plan's tenants, and print them as Prometheus text, JSON or text (the
 * library's monitor.h does all of it; this is argv -> options -> call ->
 * print).  On the live fabric (-C/-P, as verify) or on the built-in
 * simulated one (--sim, with a cross-tenant pingpong to watch).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "ibpart/atomic_file.h"
#include "ibpart/monitor.h"
#include "ibpart/transport_sim.h"
#include "live_cli.h"
#include "sim_cli.h"

static const char usage[] =
    "usage: ibpart monitor -c CONF [-t TOPO] [--mode opensm|strict]\n"
    "                      [--format prometheus|json|text]\n"
    "                      [--interval S [--count N]] [-o FILE] [--reset]\n"
    "                      [--opensm-log FILE] [--subscribe [--sa-key KEY]]\n"
    "                      [-C CA] [-P PORT] [--mkey KEY] [--timeout MS]\n"
    "                      [--retries N] [--max-wire-smps N] [-q]\n"
    "       ibpart monitor --sim -t TOPO -c CONF [--pingpong SRC DST\n"
    "                      [--pkey-index N] [-n ITERS]] ...\n"
    "\n"
    "Read, on every HCA port and every switch port facing one, the\n"
    "PerfMgt PortXmitConstraintErrors and PortRcvConstraintErrors\n"
    "(PortCountersExtended's 64-bit ones where the PMA has them, else\n"
    "PortCounters' 8-bit ones) and PortInfo's P_KeyViolations,\n"
    "M_KeyViolations and Q_KeyViolations, and attribute them to the\n"
    "tenants (partitions of CONF) of the node each port faces: a switch\n"
    "port's receive errors are packets FROM that node refused, its\n"
    "transmit errors packets TOWARD it.  Counters are kept monotonic\n"
    "across saturation and resets by others within one run (--interval);\n"
    "--reset clears the constraint error counters after reading them.\n"
    "The monitoring port must be a full member of the default partition\n"
    "(0xffff) to read the PMAs of its limited members; a warning says\n"
    "when it is not.  With --opensm-log, the Bad P_Key traps (257, 259)\n"
    "OpenSM logged since the previous sweep are counted for the port\n"
    "that raised them and the tenants of the ports they name; with\n"
    "--sim, the traps the simulator's SM received.  With --subscribe,\n"
    "the traps the SM reports to an InformInfo subscription through its\n"
    "SA (ended on exit, also on SIGINT/SIGTERM); the log counts when the\n"
    "SA refuses it.\n"
    "Metrics: docs/monitoring.md.\n";

static const char tail[] =
    "Exit: 0 nothing counted, 1 a constraint error or P_Key violation\n"
    "counted (or a port unread), 2 bad input, 3 the fabric failed.\n";

struct mon {
	struct lc c;
	const char *format, *out_path, *pp_src, *pp_dst, *osm_log;
	struct ibp_sm_trap *traps; /* --sim: the simulator SM's, once */
	size_t ntraps;
	unsigned interval, count, iters, pkey_index;
	uint64_t sa_key;
	bool reset, sim, subscribe;
};

/* One sweep printed or written; an exit status. */
static int sweep_once(struct mon *m, ibp_monitor_state *st)
{
	struct ibp_monitor_options o;
	ibp_monitor_options_init(&o);
	o.conf_path = m->c.in.conf;
	o.mode = m->c.in.mode;
	o.allow_both_pkeys = m->c.allow_both;
	o.reset = m->reset;
	o.max_input_size = cli_common.max_input_size;
	o.timeout_ms = m->c.lo.timeout_ms;
	o.retries = m->c.lo.retries;
	o.window = m->c.lo.max_wire_smps;
	o.opensm_log_path = m->osm_log;
	o.traps = m->traps;
	o.ntraps = m->ntraps;
	o.subscribe = m->subscribe;
	o.sa_key = m->sa_key;
	struct cli_op op;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	ibp_monitor_sweep *s = NULL;
	int rc = cli_op_end(
	    &op, ibp_monitor_sweep_run(m->c.l, &o, st, &s, op.diags, &op.err),
	    CLI_OP_SERIOUS | CLI_OP_ERROR);
	m->ntraps = 0; /* counted: in the state now */
	if (rc)
		return rc;
	ibp_error err;
	ibp_error_clear(&err);
	if (!ibp_monitor_sweep_full_member(s) && !m->c.quiet)
		fprintf(stderr,
			"ibpart monitor: warning: the monitoring port is not a "
			"full member of the default partition (0xffff): the "
			"PMAs of its limited members refuse its GMPs\n");
	char *text = NULL;
	if (!strcmp(m->format, "prometheus"))
		text = ibp_monitor_sweep_prometheus(s);
	else if (!strcmp(m->format, "json"))
		text = ibp_monitor_sweep_json(s);
	else {
		size_t len;
		FILE *mem = open_memstream(&text, &len);
		if (mem) {
			ibp_monitor_sweep_print(s, mem);
			fclose(mem);
		}
	}
	int status = ibp_monitor_sweep_unread(s) ? CLI_EXIT_FOUND : CLI_EXIT_OK;
	for (size_t i = 0; i < ibp_monitor_sweep_port_count(s); i++) {
		const struct ibp_monitor_port *q = ibp_monitor_sweep_port(s, i);
		if (q->total[IBP_MON_XMIT_CONSTRAINT] ||
		    q->total[IBP_MON_RCV_CONSTRAINT] ||
		    q->total[IBP_MON_PKEY_VIOLATIONS])
			status = CLI_EXIT_FOUND;
	}
	ibp_monitor_sweep_free(s);
	if (!text) {
		fprintf(stderr, "ibpart monitor: out of memory\n");
		return CLI_EXIT_SYSTEM;
	}
	size_t n = strlen(text);
	if (m->out_path) {
		if (ibp_write_file_atomic(m->out_path, text, n, false, &err)) {
			cli_print_error(&err);
			status = cli_exit_status(IBP_EIO, &err);
		}
	} else {
		fputs(text, stdout);
		if (strcmp(m->format, "prometheus") && n && text[n - 1] != '\n')
			fputc('\n', stdout);
		fflush(stdout);
	}
	free(text);
	return status;
}

/* --sim: the simulated fabric, an optional pingpong, and a session over
 * a transport at its SM port; an exit status. */
static int open_sim(struct mon *m, ibp_sim_session **ss, ibp_transport **t)
{
	struct ibp_sim_session_options so;
	ibp_sim_session_options_init(&so);
	so.topo_path = m->c.in.topo;
	so.conf_path = m->c.in.conf;
	so.mode = m->c.in.mode;
	so.sm_port = m->c.in.sm_port;
	so.max_input_size = cli_common.max_input_size;
	int rc = sim_cli_open(&so, m->c.quiet, NULL, ss, NULL);
	if (rc)
		return rc;
	if (m->pp_src) {
		struct ibp_sim_pingpong_options po;
		ibp_sim_pingpong_options_init(&po);
		po.pkey_index = m->pkey_index;
		po.iters = m->iters;
		/* its story on stderr: stdout is the metrics' */
		FILE *log = m->c.quiet ? fopen("/dev/null", "w") : stderr;
		rc = sim_cli_pingpong(*ss, m->pp_src, m->pp_dst, &po,
				      log ? log : stderr);
		if (log && log != stderr)
			fclose(log);
		if (rc == CLI_EXIT_USAGE || rc == CLI_EXIT_SYSTEM)
			return rc;
		/* the Bad P_Key traps its SM received */
		m->traps = calloc(IBP_SM_TRAPS_KEPT, sizeof(*m->traps));
		if (!m->traps)
			return CLI_EXIT_SYSTEM;
		m->ntraps = ibp_sm_traps_take(ibp_sim_session_sm(*ss), m->traps,
					      IBP_SM_TRAPS_KEPT);
	}
	size_t node;
	unsigned port;
	ibp_sim_session_sm_port(*ss, &node, &port);
	ibp_error err;
	ibp_error_clear(&err);
	m->c.lo.progress = m->c.quiet ? NULL : cli_progress;
	rc = ibp_transport_sim_new(ibp_sim_session_sim(*ss), node, port, NULL,
				   t, &err);
	if (!rc)
		rc = ibp_live_open_transport(
		    &m->c.lo, *t,
		    ibp_fabric_port_guid(ibp_sim_session_fabric(*ss), node,
					 port),
		    &m->c.l, &err);
	if (!rc)
		rc = ibp_live_discover(m->c.l, &err);
	if (!rc)
		rc = ibp_live_find_sm(m->c.l, NULL, &err);
	if (rc) {
		cli_print_error(&err);
		return cli_exit_status(rc, &err);
	}
	return CLI_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct mon m = {.format = "prometheus", .iters = 1, .sa_key = 1};
	lc_init(&m.c, "monitor");
	const struct cli_opt opts[] = {
	    CLI_CONF(&m.c.in),
	    CLI_MODE(&m.c.in),
	    /* the sweep's own defaults (monitor.h); discovery's are verify's */
	    LC_PORT_OPTS_DEFAULTS(&m.c.lo, &m.c.quiet,
				  "200 for the counters' MADs, 100 for "
				  "discovery's SMPs",
				  "2 for the counters' MADs, 3 for discovery's",
				  "16 for the counters' MADs, 4 for "
				  "discovery's, as OpenSM's max_wire_smps"),
	    CLI_STR("-t|--topo|--topology", &m.c.in.topo, "TOPO",
		    "the fabric's topology, for names (required with --sim: "
		    "the simulated fabric)"),
	    CLI_STR("--sm-port", &m.c.in.sm_port, "PORT",
		    "the SM's port (the plan's SELF); default as verify"),
	    CLI_FLAG("-W|--allow-both-pkeys", &m.c.allow_both,
		     "OpenSM's allow_both_pkeys, for reading the plan"),
	    CLI_WORD("--format", &m.format, "prometheus|json|text",
		     "prometheus text exposition (default), json or text"),
	    CLI_NUM("--interval", &m.interval, 1, 86400, "S",
		    "sweep every S seconds (until killed, or --count)"),
	    CLI_NUM("--count", &m.count, 1, 1000000, "N",
		    "with --interval: stop after N sweeps"),
	    CLI_STR("-o|--output", &m.out_path, "FILE",
		    "write each sweep to FILE atomically (node_exporter's "
		    "textfile collector) instead of stdout"),
	    CLI_FLAG("--reset", &m.reset,
		     "clear the constraint error counters after reading them"),
	    CLI_STR("--opensm-log", &m.osm_log, "FILE",
		    "count the Bad P_Key traps (257, 259) in OpenSM's log "
		    "since the previous sweep"),
	    CLI_FLAG("--subscribe", &m.subscribe,
		     "subscribe to traps 257 and 259 through the SA "
		     "(InformInfo) and count the SM's Reports"),
	    CLI_NUM("--sa-key", &m.sa_key, 0, UINT64_MAX, "KEY",
		    "the SM_Key of the SA MADs: OpenSM's sa_key (default 1, "
		    "its default)"),
	    CLI_FLAG("--sim", &m.sim,
		     "the built-in simulated fabric of -t and -c instead of "
		     "the live one"),
	    CLI_STR2("--pingpong", &m.pp_src, &m.pp_dst, "SRC DST",
		     "--sim: first an RC pingpong from SRC to DST (port specs "
		     "as `ibpart sim`)"),
	    CLI_NUM("--pkey-index", &m.pkey_index, 0, 65535, "N",
		    "the pingpong requester's P_Key index (default 0)"),
	    CLI_NUM("-n|--iters", &m.iters, 1, 1000000, "ITERS",
		    "pingpong iterations (default 1)"),
	};
	struct cli_args a = {"monitor", usage, tail, opts, CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc;
	if (a.npos && m.c.in.conf)
		return cli_usage_error("monitor", "one CONF only");
	if (a.npos)
		m.c.in.conf = a.pos[0];
	if (!m.c.in.conf)
		return cli_usage_error("monitor", "-c CONF is required");
	if (m.sim && !m.c.in.topo)
		return cli_usage_error("monitor", "--sim needs -t TOPO");
	if (m.pp_src && !m.sim)
		return cli_usage_error("monitor", "--pingpong needs --sim");
	if (m.count && !m.interval)
		return cli_usage_error("monitor", "--count needs --interval");
	if (m.subscribe) /* SIGINT/SIGTERM: end the subscription */
		cli_catch_stop(&m.c.lo.cancel);
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
	free(m.traps);
	return rc;
}

const struct cli_cmd cli_cmd_monitor = {
    .name = "monitor",
    .summary = "partition enforcement counters per tenant (Prometheus)",
    .run = run,
};
