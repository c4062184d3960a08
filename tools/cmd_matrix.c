/*
 * cmd_matrix.c - `ibpart matrix`: who can reach whom on the data plane,
 * for every pair of end ports, from the tables a plan gives (or from
 * tables read elsewhere with --tables), in text, Markdown, CSV, JSON or a
 * self-contained HTML heat map; --explain says why one pair can or cannot
 * talk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_input.h"
#include "cli.h"
#include "ibpart/sys/matrix_view.h"
#include "ibpart/monitor.h"
#include "front/print.h"
#include "ibpart/sys/monitor.h"

static const char usage[] =
    "usage: ibpart matrix -t TOPO [--sm-port PORT] [--mode opensm|strict]\n"
    "                     [--format text|md|csv|json|html] [-o FILE]\n"
    "                     [--explain SRC DST] [--switch-ports]\n"
    "                     [--grid-limit N] [--form auto|ports|classes]\n"
    "                     [--lft-cap N] [--mft-cap N] [--lmc L]\n"
    "                     [--monitor FILE]\n"
    "                     (CONF | -c CONF | --tables FILE)\n"
    "\n"
    "The data-plane reachability of every pair of end ports (CA and router\n"
    "ports): two ports can exchange packets iff some P_Key base is in both\n"
    "P_KeyTables with at least one side a full member (IBA vol. 1,\n"
    "10.9.3); limited-limited never matches, 0x0000/0x8000 match nothing.\n"
    "Ports with the same membership form a class; the matrix is computed\n"
    "per class pair with bitsets (48,000 ports in well under a second).\n"
    "\n"
    "Input: the P_KeyTables the SM would program for CONF (a\n"
    "partitions.conf, or the seed's PartitionConfig dialect) on TOPO, or\n"
    "tables from FILE (the output of `ibpart tables --format json`: tables\n"
    "predicted, simulated or read live).\n";

static const char tail[] =
    "Exit status: 0 written; 1 written, of the fallback OpenSM programs for\n"
    "a plan it rejects (every port 0xffff), or with end ports that got no\n"
    "LID (no-lid); 2 bad input or usage; 3 system failure.\n";

struct matrix_args {
	struct ai_opts ao;
	int format; /* an ibp_matrix_format: the words' order */
	const char *outpath, *xsrc, *xdst, *monitor;
	bool sw0;
	unsigned long long grid;
	int form; /* an ibp_matrix_form: auto, ports, classes */
};

/* argv -> a; 0 or the exit status of a usage error (printed). */
static int parse_args(int argc, char **argv, struct matrix_args *a)
{
	*a = (struct matrix_args){.format = IBP_MATRIX_TEXT};
	ai_init(&a->ao);
	const struct cli_opt opts[] = {
	    AI_OPTS(&a->ao),
	    CLI_INDEX(
		"--format", &a->format, IBP_MATRIX_FORMAT_WORDS,
		"text (default): rows and columns named by node description "
		"(NAME/N for each port of a node with several), ✓/✗, — on the "
		"diagonal, up to --grid-limit ports (default 32), else a "
		"summary by class and partition; md: the same as Markdown; "
		"csv: every pair, 1/0; json: {\"mode\", \"form\", "
		"\"endpoints\": [{\"port_guid\", \"node_desc\"}], "
		"\"can_talk\": "
		"[[null, true, ...]]} (--form); html: one self-contained "
		"page, "
		"the web view (docs/matrix.md): tenants and their members, "
		"audit findings, the matrix of ports (up to 64) or classes "
		"grouped by tenant, every class's ports, every port's "
		"P_KeyTable, a search box"),
	    CLI_STR("-o|--output", &a->outpath, "FILE",
		    "write there (atomically) instead of stdout"),
	    CLI_STR2("--explain", &a->xsrc, &a->xdst, "SRC DST",
		     "why SRC and DST can or cannot talk: both tables, every "
		     "shared partition, the rule (as JSON with --format json)"),
	    CLI_FLAG("--switch-ports", &a->sw0,
		     "count each switch's port 0 as an end port"),
	    CLI_NUM("--grid-limit", &a->grid, 1, 100000, "N",
		    "largest fabric printed as a grid (text, md)"),
	    CLI_INDEX("--form", &a->form, IBP_MATRIX_FORM_WORDS,
		      "json and csv: ports, a cell per pair of ports (ports^2: "
		      "16 GB of JSON at 48,000 ports); classes, the classes "
		      "with their ports and a cell per pair of classes "
		      "(megabytes); auto (default): ports up to 2,000 end "
		      "ports"),
	    CLI_STR("--monitor", &a->monitor, "FILE",
		    "html: the violations over time of "
		    "`ibpart monitor "
		    "--format json --interval S` (FILE: its "
		    "output, one JSON "
		    "object per sweep), a sparkline per "
		    "tenant and counter")};
	struct cli_args args = {"matrix", usage,	   tail,
				opts,	  CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&args, argc, argv);
	return rc ? rc : cli_take_conf("matrix", &a->ao.in, &args);
}

/* --explain SRC DST: 0 or an exit status (printed). */
static int explain(const struct matrix_args *a, const ibp_matrix *m, FILE *out)
{
	ibp_explanation e = {.version = IBP_EXPLANATION_VERSION};
	ibp_error err;
	int rc = ibp_matrix_explain_ports(m, a->xsrc, a->xdst, &e, &err);
	if (rc) {
		cli_print_error(&err);
		return cli_exit_status(rc, &err);
	}
	if (a->format == IBP_MATRIX_JSON) /* the other formats: text */
		rc = cli_put_json(ibp_explanation_json(m, &e), out);
	else
		ibp_explanation_print(m, &e, out);
	ibp_explanation_free(&e);
	return rc;
}

/* The report in format fmt: 0 or an exit status (printed). */
static int report(const struct matrix_args *a, ibp_matrix_format fmt,
		  const ibp_analysis_input *in, const ibp_matrix *m, FILE *out)
{
	char title[256];
	const char *src = a->ao.in.conf ? a->ao.in.conf : a->ao.tables_json;
	const char *slash = strrchr(src, '/');
	snprintf(title, sizeof(title), "%s: P_Key reachability (%s)",
		 slash ? slash + 1 : src, ibp_analysis_input_mode(in));
	ibp_matrix_view_options vo;
	ibp_matrix_view_options_init(&vo, IBP_MATRIX_VIEW_OPTIONS_VERSION);
	vo.title = title;
	vo.grid_limit = (size_t)a->grid;
	vo.form = (ibp_matrix_form)a->form;
	vo.progress = cli_progress_hook();
	ibp_error err;
	ibp_monitor_series *ser = NULL;
	int rc = a->monitor ? ibp_monitor_series_load(a->monitor,
						      cli_common.max_input_size,
						      &ser, &err)
			    : IBP_OK;
	if (rc) {
		cli_print_error(&err);
		return cli_exit_status(rc, &err);
	}
	vo.series = ibp_monitor_series_get(ser, &vo.nseries);
	if (ibp_analysis_input_matrix_report(in, m, fmt, &vo, out, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_SYSTEM;
	}
	ibp_monitor_series_free(ser);
	return rc;
}

static int run(int argc, char **argv)
{
	struct matrix_args a;
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (a.monitor && a.format != IBP_MATRIX_HTML)
		return cli_usage_error("matrix",
				       "--monitor needs --format html");
	ibp_analysis_input *in;
	if ((rc = ai_load("matrix", &a.ao, &in)))
		return rc;
	ibp_matrix *m = NULL;
	ibp_error err;
	ibp_matrix_options mo = {.version = IBP_MATRIX_OPTIONS_VERSION,
				 .include_switch_port0 = a.sw0,
				 .progress = cli_progress_hook()};
	struct ai_out out;
	if (ibp_matrix_build(ibp_analysis_input_tables(in), &mo, &m, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_SYSTEM;
	} else if (!(rc = ai_open(a.outpath, &out))) {
		rc = a.xsrc ? explain(&a, m, out.fp)
			    : report(&a, a.format, in, m, out.fp);
		int crc = ai_close(&out, !rc);
		if (!rc)
			rc = crc;
		if (!rc && !a.xsrc && ai_warn_lidless("matrix", in))
			rc = CLI_EXIT_FOUND;
	}
	if (!rc && a.ao.rejected) /* the matrix of OpenSM's fallback */
		rc = CLI_EXIT_FOUND;
	ibp_matrix_free(m);
	ibp_analysis_input_free(in);
	return rc;
}

CLI_COMMAND(matrix, "who can reach whom: the P_Key reachability matrix");
