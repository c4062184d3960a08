/*
 * cmd_check.c - `ibpart check`: read a partitions.conf (OpenSM syntax or
 * the seed dialect) as OpenSM 3.3.23 would and report every problem like
 * a compiler: file:line:col, the line, a caret.  --opensm adds what
 * OpenSM itself would do with the file.
 */
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
    "Notes: abbreviations OpenSM accepts ('limi', 'f').\n";

static const char tail[] =
    "Exit status: 0 no errors and no warnings; 1 warnings only; 2 errors\n"
    "(or bad usage, or CONF unreadable); 3 system failure.\n";

/* One P_Key of the summary: "  0xPKEY NAME", how many definitions it
 * merges, and whether OpenSM drops it for want of members. */
static void print_group(const ibp_conf_group *g, FILE *out)
{
	uint16_t pkey = ibp_conf_group_pkey(g);
	size_t nparts = ibp_conf_group_partition_count(g), nm = 0;
	fprintf(out, "  0x%04x %s", pkey, ibp_conf_group_name(g));
	if (nparts > 1)
		fprintf(out, " (%zu definitions merged)", nparts);
	for (size_t j = 0; j < nparts; j++) {
		const ibp_conf_partition *p = ibp_conf_group_partition(g, j);
		for (size_t k = 0; k < ibp_conf_partition_member_count(p); k++)
			nm += ibp_conf_partition_member(p, k)->kind !=
			      IBP_MEMBER_NONE;
	}
	if (!nm && pkey != IBP_CONF_DEFAULT_PKEY)
		fputs(" (no members: OpenSM drops it)", out);
	fputc('\n', out);
}

/* OpenSM 3.3.23's verdict on the plan (ibp_conf_opensm_verdict) as
 * `ibpart check --opensm` prints it: a crash, a rejection and its
 * fallback, or the P_Keys it would create and what it would misread. */
static void print_opensm_summary(const ibp_conf *c, FILE *out)
{
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
	const char *file = ibp_conf_file(c);
	if (v->crashes) {
		fprintf(out,
			"%s:%u: OpenSM 3.3.23 would crash (segmentation fault) "
			"reading this file (%s): no subnet manager, no P_Key "
			"programmed at all.\n",
			file, v->pos.line, v->reason);
		return;
	}
	if (v->rejected) {
		if (v->pos.line)
			fprintf(
			    out,
			    "%s:%u: OpenSM 3.3.23 would reject this file "
			    "(log: \"PARSE ERROR: line %u: %s\") and fall "
			    "back to \"Default=0x7fff : ALL=full ;\": every "
			    "port a full member of 0xffff, no isolation.\n",
			    file, v->pos.line, v->opensm_line, v->reason);
		else
			fprintf(out,
				"%s: OpenSM 3.3.23 would reject this file (%s) "
				"and fall back to \"Default=0x7fff : ALL=full "
				";\": every port a full member of 0xffff, no "
				"isolation.\n",
				file, v->reason);
		return;
	}
	size_t ng = ibp_conf_group_count(c);
	fprintf(out,
		"%s: OpenSM 3.3.23 would accept this file: %zu partition "
		"definition(s), %zu P_Key(s) including the default 0x7fff "
		"(every end port a limited member, the SM port full).\n",
		file, ibp_conf_partition_count(c), ng);
	for (size_t i = 0; i < ng; i++)
		print_group(ibp_conf_group_at(c, i), out);
	if (v->nmisreadings) {
		fprintf(out,
			"It would silently read %zu thing(s) otherwise than "
			"written:\n",
			v->nmisreadings);
		for (size_t i = 0; i < v->nmisreadings; i++)
			fprintf(out, "  %s:%u:%u: %s [%s]\n", file,
				v->misreadings[i].pos.line,
				v->misreadings[i].pos.col,
				v->misreadings[i].message,
				v->misreadings[i].code);
	}
}

/* Read the plan, print what was found; the exit status. */
static int check(const struct cli_input *in, const char *path,
		 ibp_conf_options *co, const char *format, bool opensm)
{
	ibp_plan p = {.version = IBP_PLAN_VERSION};
	int status = cli_read_plan("check", in, path, co, &p);
	if (status)
		return status;
	const ibp_conf *c = p.conf;
	const ibp_diags *d = p.diags;
	size_t nerr = ibp_diags_count_severity(d, IBP_SEV_ERROR);
	size_t nwarn = ibp_diags_count_severity(d, IBP_SEV_WARNING);
	if (!strcmp(format, "json")) {
		if ((status = cli_put_json(ibp_conf_check_json(c, d, opensm),
					   stdout)))
			goto out;
	} else {
		cli_print_diags(d);
		if (nerr || nwarn)
			cli_say("%s: %zu error(s), %zu warning(s)", path, nerr,
				nwarn);
		if (opensm)
			print_opensm_summary(c, stdout);
	}
	status = nerr ? CLI_EXIT_USAGE : nwarn ? CLI_EXIT_FOUND : CLI_EXIT_OK;
out:
	ibp_plan_clear(&p);
	return status;
}

static int run(int argc, char **argv)
{
	const char *format = "text";
	bool opensm = false;
	struct cli_input in = {0};
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	const struct cli_opt opts[] = {
	    CLI_CONF(&in),
	    CLI_TOPO(&in,
		     "ibnetdiscover/ibsim topology: resolves node names (seed "
		     "dialect), checks GUIDs"),
	    CLI_NNM(&in),
	    CLI_ALIASES(&in),
	    CLI_VF_GUIDS(&in),
	    CLI_DIALECT(&in),
	    CLI_WORD("--format", &format, "text|json",
		     "findings as text (stderr) or JSON (stdout)"),
	    CLI_FLAG("--opensm", &opensm,
		     "also say what OpenSM 3.3.23 would do with it"),
	    CLI_FLAG("--allow-both-pkeys", &co.allow_both_pkeys,
		     "read 'both' as OpenSM does with that option"),
	    CLI_FLAG("--qos", &co.qos,
		     "read 'sl=' as OpenSM does with QoS on")};
	struct cli_args a = {"check", usage, tail, opts, CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc;
	co.dialect = in.dialect;
	const char *path = cli_conf_path("check", &in, &a);
	return path ? check(&in, path, &co, format, opensm) : CLI_EXIT_USAGE;
}

CLI_COMMAND(check, "diagnose a partitions.conf as OpenSM 3.3.23 reads it");
