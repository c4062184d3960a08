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

static const char usage[] =
    "usage: ibpart audit -t TOPO [--sm-port PORT] [--mode opensm|strict]\n"
    "                    [--tenants FILE] [--opensm-conf FILE]\n"
    "                    [--fail-on critical|high|medium|info]\n"
    "                    [--format text|json] [-o FILE]\n"
    "                    (CONF | --tables FILE)\n"
    "\n"
    "Check a partition plan (CONF, as the SM would program it on TOPO) or\n"
    "P_KeyTables read elsewhere (--tables, `ibpart tables --format json`\n"
    "output) for the ways P_Key isolation is commonly broken:\n"
    "  plan-rejected           critical  OpenSM rejects the file and falls\n"
    "                                    back to ALL=full (high for a plan\n"
    "                                    in the seed dialect, audited as\n"
    "                                    written)\n"
    "  default-full-member     critical  a tenant port is a full member of\n"
    "                                    the default partition\n"
    "  cross-tenant-reach      critical  ports of two tenants share a\n"
    "                                    partition with a full member\n"
    "                                    (--tenants)\n"
    "  tenant-bridge           high      one port is a full member of two\n"
    "                                    tenants' partitions\n"
    "  plan-misread            high      OpenSM reads the plan otherwise\n"
    "                                    than it says (e.g. a missing comma)\n"
    "  capacity-overflow       high      a port's P_KeyTable cannot hold its\n"
    "                                    entries\n"
    "  part-enforce-off        high      switch partition enforcement off on\n"
    "                                    leaf ports (--opensm-conf)\n"
    "  mkey-not-set            high      no M_Key: any host can rewrite\n"
    "                                    P_KeyTables (--opensm-conf)\n"
    "  shared-limited-member   medium    a node shared by tenants (limited):\n"
    "                                    isolated on the wire, a trust point\n"
    "  no-sa-path              medium    a port cannot reach the SA\n"
    "  partition-no-full-member medium   no two members can talk\n"
    "  part-enforce-partial    medium    enforcement in one direction only\n"
    "  mkey-readable           medium    M_Key set, protection level 0\n"
    "  default-limited-member  info      tenant ports limited in 0x7fff\n"
    "  partition-single-member info      a partition with one member\n"
    "\n"
    "A tenant is a partition (other than the default one) unless --tenants\n"
    "maps ports to tenants: one tenant per line, 'NAME: PORT PORT ...',\n"
    "'#' comments, a trailing '\\' continues the line; a PORT is a port\n"
    "GUID, node GUID, node description, file id or LID (\"quoted\" when it\n"
    "has blanks).  See docs/audit.md.\n"
    "\n"
    "Options:\n"
    "  -t, --topology TOPO  ibnetdiscover/ibsim topology (required)\n"
    "      --node-name-map F  rdma-core node-name-map for TOPO\n"
    "      --sm-port PORT   the SM/SA port (default: the first CA port)\n"
    "      --mode M         opensm (default) or strict (see ibpart matrix)\n"
    "      --tables FILE    audit these tables instead of computing them;\n"
    "                       a switch port's \"enforcement\": \"both\"|\"in\"|\n"
    "                       \"out\"|\"off\" there (the simulator's or a\n"
    "                       live fabric's state) feeds part-enforce-*\n"
    "      --tenants FILE   the ports of each tenant\n"
    "      --opensm-conf F  OpenSM's opensm.conf: m_key,\n"
    "                       m_key_protection_level, part_enforce,\n"
    "                       no_partition_enforcement\n"
    "      --fail-on SEV    exit 1 when a finding is at least SEV (default\n"
    "                       high)\n"
    "      --format F       text (default) or json: {\"findings\": "
    "[{\"code\",\n"
    "                       \"severity\", \"ports\", \"partitions\", "
    "\"message\",\n"
    "                       \"fix\"}]}, ports by port GUID\n"
    "  -o, --output FILE    write there (atomically) instead of stdout\n"
    "  -h, --help           this text\n"
    "\n"
    "Without --opensm-conf the text report ends with a line naming the\n"
    "rules that could not run (mkey-*, and part-enforce-* unless --tables\n"
    "gave the switch ports' enforcement).\n"
    "\n"
    "Exit status: 0 no finding at or above --fail-on; 1 some; 2 bad input\n"
    "or usage; 3 system failure.\n";

/* The ports a misreading is about: the GUIDs its message names that are
 * ports of the fabric; and the partition at that line. */
static size_t guids_in(const ibp_fabric *fab, const char *s, uint64_t *out,
		       size_t max)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, "0x")) && n < max; p += 2) {
		char *end;
		unsigned long long g = strtoull(p, &end, 16);
		size_t node;
		unsigned port;
		if (end - p > 6 &&
		    !ibp_fabric_find_port_guid(fab, g, &node, &port))
			out[n++] = g;
	}
	return n;
}

static int plan_findings(const struct ai_input *in, ibp_findings *f)
{
	if (in->conf) {
		const ibp_conf_verdict *v = ibp_conf_opensm_verdict(in->conf);
		if (v->rejected) {
			char why[512];
			snprintf(why, sizeof(why), "%s:%u: %s",
				 ibp_conf_file(in->conf), v->pos.line,
				 v->reason ? v->reason : "parse error");
			if (ibp_audit_plan_rejected(
				f, in->fabric, why,
				ibp_conf_get_dialect(in->conf) ==
				    IBP_CONF_DIALECT_SEED))
				return IBP_ENOMEM;
		}
		for (size_t i = 0; i < v->nmisreadings; i++) {
			const ibp_conf_misreading *x = &v->misreadings[i];
			char why[768];
			snprintf(why, sizeof(why), "%s:%u:%u: %s [%s]",
				 ibp_conf_file(in->conf), x->pos.line,
				 x->pos.col, x->message, x->code);
			uint64_t g[16];
			size_t ng = guids_in(in->fabric, x->message, g, 16);
			uint16_t pk[1];
			size_t np = 0;
			for (size_t k = 0;
			     k < ibp_conf_partition_count(in->conf); k++) {
				const ibp_conf_partition *p =
				    ibp_conf_partition_at(in->conf, k);
				if (ibp_conf_partition_pos(p).line <=
				    x->pos.line) {
					pk[0] = ibp_conf_partition_pkey(p);
					np = pk[0] ? 1 : 0;
				}
			}
			if (ibp_audit_plan_misread(f, g, ng, pk, np, why))
				return IBP_ENOMEM;
		}
	}
	for (size_t i = 0; i < in->noverflow; i++) {
		const struct ai_overflow *o = &in->overflow[i];
		if (ibp_audit_capacity_overflow(f, o->guid, o->capacity,
						o->wanted, o->dropped,
						o->ndropped))
			return IBP_ENOMEM;
	}
	return 0;
}

/* The rules that need opensm.conf are skipped without it, which a clean
 * report must not hide: one line at the end of the text report names
 * them (JSON keeps its shape).  Switch enforcement read from --tables
 * feeds the part-enforce rules without it. */
static void print_unchecked(FILE *fp, bool have_osm, bool enforce_known)
{
	if (have_osm)
		return;
	fprintf(fp,
		"not checked without --opensm-conf: mkey-not-set, "
		"mkey-readable%s (give OpenSM's opensm.conf)\n",
		enforce_known ? ""
			      : ", part-enforce-off, part-enforce-partial");
}

static int run(int argc, char **argv)
{
	struct ai_opts ao = {0};
	const char *format = "text", *outpath = NULL, *tenants = NULL,
		   *osmconf = NULL, *failon = "high";
	for (int i = 1; i < argc; i++) {
		int r = ai_parse_opt("audit", argc, argv, &i, &ao);
		if (r < 0)
			return CLI_EXIT_USAGE;
		if (r)
			continue;
		const char *a = argv[i];
		bool has = i + 1 < argc;
		if (!strcmp(a, "--format") && has)
			format = argv[++i];
		else if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && has)
			outpath = argv[++i];
		else if (!strcmp(a, "--tenants") && has)
			tenants = argv[++i];
		else if (!strcmp(a, "--opensm-conf") && has)
			osmconf = argv[++i];
		else if (!strcmp(a, "--fail-on") && has)
			failon = argv[++i];
		else if (a[0] == '-' && a[1])
			return cli_usage_error("audit",
					       "unknown option or missing "
					       "value: %s",
					       a);
		else if (!ao.conf)
			ao.conf = a;
		else
			return cli_usage_error("audit", "one CONF only");
	}
	if (strcmp(format, "text") && strcmp(format, "json"))
		return cli_usage_error("audit", "--format is text or json");
	ibp_audit_severity fail_sev;
	if (ibp_audit_severity_parse(failon, &fail_sev))
		return cli_usage_error(
		    "audit", "--fail-on is critical, high, medium or info");

	struct ai_input in;
	int rc = ai_load("audit", &ao, &in);
	ibp_tenant_map *tm = NULL;
	ibp_osm_conf osm;
	ibp_findings *f = NULL;
	ibp_error err;
	if (rc)
		goto out;
	if (tenants) {
		ibp_diags *d = ibp_diags_new();
		int r = ibp_tenant_map_load(in.fabric, tenants, &tm, d, &err);
		if (d && ibp_diags_count(d))
			ibp_diags_print(d, stderr);
		else if (r)
			cli_print_error(&err);
		ibp_diags_free(d);
		if (r) {
			rc = r == IBP_EIO ? CLI_EXIT_USAGE : CLI_EXIT_USAGE;
			goto out;
		}
	}
	if (osmconf && ibp_osm_conf_load(osmconf, &osm, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	f = ibp_findings_new();
	if (!f) {
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	ibp_audit_input ai = {
	    .tables = in.tables,
	    .sm_node = in.sm_node,
	    .sm_port = in.sm_port,
	    .tenants = tm,
	    .partition_names = (const char *const *)in.names,
	    .osm = osmconf ? &osm : NULL,
	    .enforcement = in.have_enforce ? ai_enforcement : NULL,
	    .enforcement_ctx = &in,
	};
	if (plan_findings(&in, f) || ibp_audit_run(&ai, f, &err)) {
		fprintf(stderr, "ibpart audit: out of memory\n");
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	ibp_findings_sort(f);
	struct ai_out o;
	if ((rc = ai_open(outpath, &o)))
		goto out;
	bool ok = true;
	if (!strcmp(format, "json")) {
		char *s = ibp_findings_to_json(f);
		ok = s && fputs(s, o.fp) >= 0 && fputc('\n', o.fp) != EOF;
		free(s);
	} else {
		ibp_findings_print(f, o.fp);
		print_unchecked(o.fp, osmconf != NULL, in.have_enforce);
	}
	rc = ai_close(&o, ok);
	if (!ok && !rc)
		rc = CLI_EXIT_SYSTEM;
	if (!rc && ibp_findings_max_severity(f) >= (int)fail_sev)
		rc = CLI_EXIT_FOUND;
out:
	ibp_findings_free(f);
	ibp_tenant_map_free(tm);
	ai_free(&in);
	return rc;
}

const struct cli_cmd cli_cmd_audit = {
    .name = "audit",
    .summary = "security audit of a partition plan (isolation, SA, M_Key)",
    .usage = usage,
    .run = run,
};
