/*
 * cmd_convert.c - `ibpart convert`: turn a partition plan (the seed's
 * "PartitionConfig { ... }" dialect, or an OpenSM file) into canonical
 * OpenSM 3.3.23 partitions.conf, node names resolved through the
 * topology.  Refuses input with errors; the output file is written
 * atomically, so nothing is created or changed on failure.
 */
#include <string.h>

#include "cli.h"
#include "ibpart/conf.h"
#include "ibpart/sys/conf.h"

static const char usage[] =
    "usage: ibpart convert [-t TOPO] [--node-name-map FILE] [-o OUT]\n"
    "                      [--alias-guids FILE [--vf-guids alias|physical]]\n"
    "                      [--allow-both-pkeys]\n"
    "                      [--dialect auto|opensm|seed] (CONF | -c CONF)\n"
    "\n"
    "Write CONF as canonical OpenSM 3.3.23 partitions.conf: every P_Key\n"
    "explicit (the seed's mgmt/management/Default is 0x7fff, other\n"
    "partitions are numbered 0x0001, 0x0002, ... as OpenSM numbers them),\n"
    "every member a port GUID with an explicit full/limited/both, rates and\n"
    "MTUs as IBTA codes (rate=NDR -> rate=21, mtu=4096 -> mtu=5).\n"
    "Node names (seed dialect) resolve through TOPO's node descriptions\n"
    "(or the node-name-map); an unknown name is an error.\n";

static const char tail[] =
    "Findings are printed as by 'ibpart check'. Exit status: 0 written;\n"
    "2 CONF has errors (nothing written) or bad usage; 3 cannot write.\n";

static int run(int argc, char **argv)
{
	const char *outp = NULL;
	struct cli_input in = {0};
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	const struct cli_opt opts[] = {
	    CLI_CONF(&in),
	    CLI_TOPO(&in, "topology for names and GUID comments"),
	    CLI_NNM(&in),
	    CLI_ALIASES(&in),
	    CLI_VF_GUIDS(&in),
	    CLI_FLAG("--allow-both-pkeys", &co.allow_both_pkeys,
		     "read the plan as OpenSM with allow_both_pkeys (-W) "
		     "does: `both` keeps both keys, and --vf-guids physical "
		     "writes a port named limited and full `both`"),
	    CLI_DIALECT(&in),
	    CLI_STR("-o|--output", &outp, "OUT",
		    "write OUT atomically (default: stdout)")};
	struct cli_args a = {"convert", usage, tail, opts, CLI_NOPTS(opts), 1};
	int status = cli_args_parse(&a, argc, argv);
	if (status)
		return status;
	co.dialect = in.dialect;
	const char *path = cli_conf_path("convert", &in, &a);
	if (!path)
		return CLI_EXIT_USAGE;

	ibp_plan p = {.version = IBP_PLAN_VERSION};
	if ((status = cli_read_plan("convert", &in, path, &co, &p)))
		return status;
	const ibp_conf *c = p.conf;
	ibp_error err;
	ibp_error_clear(&err);
	int rc;
	cli_print_diags(p.diags);
	if (ibp_conf_error_count(c)) {
		fprintf(stderr,
			"ibpart convert: %s has %zu error(s); nothing "
			"written\n",
			path, ibp_conf_error_count(c));
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (outp && strcmp(outp, "-"))
		rc = ibp_conf_write_opensm_path(c, p.fabric, outp, &err);
	else
		rc = ibp_conf_write_opensm(c, p.fabric, stdout, &err);
	if (rc) {
		cli_print_error(&err);
		status = rc == IBP_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_SYSTEM;
	}
out:
	ibp_plan_clear(&p);
	return status;
}

CLI_COMMAND(convert,
	    "write a partition plan as canonical OpenSM partitions.conf");
