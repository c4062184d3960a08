/*
 * cmd_audit.c - `ibpart audit`: the security audit of a partition plan on
 * a fabric (or of tables read elsewhere): every finding with a stable
 * code, a severity, the ports and partitions involved, the reason and
 * the fix (docs/audit.md).  Exit 1 when a finding reaches --fail-on.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_input.h"
#include "cli.h"
#include "ibpart/opensm_conf.h"
#include "front/print.h"

static const char usage[] =
    "usage: ibpart audit -t TOPO [--sm-port PORT] [--mode opensm|strict]\n"
    "                    [--tenants FILE] [--opensm-conf FILE]\n"
    "                    [--fail-on critical|high|medium|info]\n"
    "                    [--format text|json] [-o FILE] [--lft-cap N]\n"
    "                    [--mft-cap N] [--lmc L]\n"
    "                    (CONF | -c CONF | --tables FILE)\n"
    "\n"
    "Check a partition plan (CONF, as the SM would program it on TOPO) or\n"
    "P_KeyTables read elsewhere (--tables, `ibpart tables --format json`\n"
    "output) for the ways P_Key isolation is commonly broken:\n";
/* then the rules (print_rules), then: */
static const char usage_foot[] =
    "\n"
    "A tenant is a partition (other than the default one) unless --tenants\n"
    "maps ports to tenants: one tenant per line, 'NAME: PORT PORT ...',\n"
    "'#' comments, a trailing '\\' continues the line; a PORT is a port\n"
    "GUID, node GUID, node description, file id or LID (\"quoted\" when it\n"
    "has blanks).  See docs/audit.md.\n";

static const char tail[] =
    "Without --opensm-conf the text report ends with a line naming the\n"
    "rules that could not run (mkey-*, the key rules, and part-enforce-*\n"
    "unless --tables gave the switch ports' enforcement).\n"
    "\n"
    "Exit status: 0 no finding at or above --fail-on; 1 some; 2 bad input\n"
    "or usage; 3 system failure.\n";

struct audit_args {
	struct ai_opts ao;
	const char *format, *outpath, *tenants, *osmconf;
	ibp_audit_severity fail_sev;
};

/* Write the words of s from column col (indent on every new line),
 * breaking before a word that would pass column width. */
static void wrap(FILE *out, const char *s, size_t col, size_t indent,
		 size_t width)
{
	while (*s) {
		size_t n = strcspn(s, " ");
		if (col > indent && col + 1 + n > width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, n, out);
		col += n;
		s += n + (s[n] == ' ');
	}
	fputc('\n', out);
}

/* The rule catalog (ibp_audit_rule_get), by severity: the code from
 * column 2, the severity from 26, the summary from 36 wrapped before
 * column 72. */
static void print_rules(FILE *out)
{
	for (size_t i = 0; i < ibp_audit_rule_count(); i++) {
		const ibp_audit_rule *r = ibp_audit_rule_get(i);
		/* the code from column 2, the severity from 26 (one blank
		 * after a longer code), the summary from 36 */
		int n = fprintf(out, "  %-23s ", r->code);
		const char *sev = ibp_audit_severity_str(r->severity);
		n += fprintf(out, "%-*s", n < 36 ? 36 - n : 0, sev);
		wrap(out, r->summary, (size_t)n, 36, 71);
	}
}

/* argv -> a; 0 or the exit status of a usage error (printed). */
static int parse_args(int argc, char **argv, struct audit_args *a)
{
	*a = (struct audit_args){.format = "text"};
	ai_init(&a->ao);
	ibp_audit_severity_parse("high", &a->fail_sev);
	const struct cli_opt opts[] = {
	    AI_OPTS(&a->ao),
	    CLI_STR("--tenants", &a->tenants, "FILE",
		    "the ports of each tenant"),
	    CLI_STR("--opensm-conf", &a->osmconf, "FILE",
		    "OpenSM's opensm.conf: m_key, m_key_protection_level, "
		    "part_enforce, no_partition_enforcement; NVIDIA's "
		    "virt_enabled 2 makes the plan's GUIDs that are no port "
		    "vport-unmodelled"),
	    CLI_FAIL_ON(&a->fail_sev),
	    CLI_WORD("--format", &a->format, "text|json",
		     "text (default) or json: {\"findings\": [{\"code\", "
		     "\"severity\", \"ports\", \"partitions\", \"message\", "
		     "\"fix\"}]}, ports by port GUID"),
	    CLI_STR("-o|--output", &a->outpath, "FILE",
		    "write there (atomically) instead of stdout")};
	char *help = NULL; /* usage, the rules, usage_foot */
	size_t len;
	FILE *m = open_memstream(&help, &len);
	if (m) {
		fputs(usage, m);
		print_rules(m);
		fputs(usage_foot, m);
	}
	if (!m || fclose(m)) {
		free(help);
		fprintf(stderr, "ibpart audit: out of memory\n");
		return CLI_EXIT_SYSTEM;
	}
	struct cli_args args = {"audit", help, tail, opts, CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&args, argc, argv);
	free(help);
	return rc ? rc : cli_take_conf("audit", &a->ao.in, &args);
}

/* The findings, as the format asks; 0 or an exit status. */
static int write_report(const struct audit_args *a, const ibp_findings *f,
			const char *unchecked)
{
	struct ai_out o;
	int rc = ai_open(a->outpath, &o);
	if (rc)
		return rc;
	bool ok = true;
	if (!strcmp(a->format, "json")) {
		ok = !cli_put_json(ibp_findings_to_json(f), o.fp);
	} else {
		ibp_findings_print(f, o.fp);
		if (unchecked) /* a clean report must not hide them */
			fprintf(o.fp,
				"not checked without --opensm-conf: %s (give "
				"OpenSM's opensm.conf)\n",
				unchecked);
	}
	rc = ai_close(&o, ok);
	return !ok && !rc ? CLI_EXIT_SYSTEM : rc;
}

static int run(int argc, char **argv)
{
	struct audit_args a;
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	ibp_analysis_input *in;
	a.ao.more_inputs[0] = a.tenants;
	a.ao.more_inputs[1] = a.osmconf;
	/* NVIDIA's virtualization changes how the plan's GUIDs are read
	 * (vport-unmodelled); the file's faults are reported below */
	ibp_osm_conf osm = {.version = IBP_OSM_CONF_VERSION};
	a.ao.vports = a.osmconf && strcmp(a.osmconf, "-") &&
		      !ibp_osm_conf_load_diags(a.osmconf, &osm, NULL, NULL) &&
		      osm.virt_enabled == 2;
	if ((rc = ai_load("audit", &a.ao, &in)))
		return rc;
	struct ibp_audit_files_options fo;
	ibp_audit_files_options_init(&fo, IBP_AUDIT_FILES_OPTIONS_VERSION);
	fo.tenants_path = a.tenants;
	fo.opensm_conf_path = a.osmconf;
	fo.max_input_size = cli_common.max_input_size;
	ibp_findings *f = NULL;
	const char *unchecked = NULL;
	struct cli_op op;
	if (cli_op_begin(&op) == CLI_EXIT_OK)
		rc = cli_op_end(&op,
				ibp_analysis_input_audit_files(
				    in, &fo, &f, &unchecked, op.diags, &op.err),
				0);
	else
		rc = CLI_EXIT_SYSTEM;
	if (!rc)
		rc = write_report(&a, f, unchecked);
	if (!rc && ibp_findings_max_severity(f) >= (int)a.fail_sev)
		rc = CLI_EXIT_FOUND;
	ibp_findings_free(f);
	ibp_analysis_input_free(in);
	return rc;
}

CLI_COMMAND(audit, "security audit of a partition plan (isolation, SA, M_Key)");
