/*
 * cmd_verify.c - `ibpart verify`: read every programmed port's P_KeyTable
 * from the live fabric over SMPs, compare with the tables the plan implies,
 * and report drift port by port (missing, extra, wrong membership, wrong
 * index, unreachable); optionally the reach matrix and the audit of what
 * the fabric really holds.  Exit 1 on drift.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/live.h"
#include "live_cli.h"

static const char usage[] =
    "usage: ibpart verify -c CONF [-t TOPO] [--mode opensm|strict]\n"
    "                     [--sm-port PORT] [--previous STATE] [--matrix]\n"
    "                     [--audit] [--format text|json] [-C CA] [-P PORT]\n"
    "                     [--mkey KEY] [--timeout MS] [--retries N] [-q]\n"
    "\n"
    "Read the P_KeyTable of every port the plan programs from the live\n"
    "fabric (directed-route SubnGet(P_KeyTable), discovering the fabric\n"
    "first) and compare it with the table the plan implies.  Each\n"
    "difference is one line (or one JSON object):\n"
    "  missing      a P_Key the plan wants is not in the port's table\n"
    "  extra        the port holds a P_Key the plan does not give it\n"
    "  membership   the right partition with the wrong full/limited bit\n"
    "  index        the right P_Key at another index than planned\n"
    "  unreachable  the port could not be read\n"
    "A port GUID the plan names that the fabric does not have is listed\n"
    "as absent (JSON: \"absent\") but is not drift: OpenSM skips it too,\n"
    "and without a topology an unplugged port and a GUID that never\n"
    "existed look the same.  With -t, a topology port that cannot be\n"
    "read is drift (unreachable).\n"
    "\n" LC_COMMON_USAGE
    "      --previous STATE  the tables the ports held before the plan was\n"
    "                       applied (a state file of `ibpart apply`):\n"
    "                       OpenSM keeps surviving P_Keys at their index,\n"
    "                       so this predicts indices after a change\n"
    "      --matrix         also the connectivity matrix of the tables\n"
    "                       the fabric holds\n"
    "      --audit          also the security audit of those tables\n"
    "\n"
    "Exit: 0 no drift, 1 drift, 2 bad input, 3 the fabric failed.\n";

static int run(int argc, char **argv)
{
	struct lc c;
	lc_init(&c, "verify");
	bool matrix = false, audit = false;
	const char *previous_path = NULL;
	const struct cli_opt opts[] = {
	    LC_OPTS(&c), CLI_FLAG("--matrix", &matrix),
	    CLI_FLAG("--audit", &audit), CLI_STR("--previous", &previous_path)};
	struct cli_args a = {"verify", opts, CLI_NOPTS(opts), &c.in, 1};
	if (cli_args_parse(&a, argc, argv))
		return CLI_EXIT_USAGE;
	if (a.npos && c.in.conf)
		return cli_usage_error("verify", "one CONF only");
	if (a.npos)
		c.in.conf = a.pos[0]; /* like check/tables: CONF positional */
	if (!c.in.conf)
		return cli_usage_error("verify", "-c CONF is required");
	int rc = lc_open(&c);
	ibp_tables *previous = NULL;
	ibp_error err;
	ibp_error_clear(&err);
	if (!rc && previous_path &&
	    ibp_state_load_limit(ibp_live_fabric(c.l), previous_path,
				 cli_common.max_input_size, true, &previous,
				 &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_USAGE;
	}
	if (!rc)
		rc = lc_verify(&c, previous, matrix, audit);
	ibp_tables_free(previous);
	lc_close(&c);
	return rc;
}

const struct cli_cmd cli_cmd_verify = {
    .name = "verify",
    .summary = "compare the live fabric's P_Key tables with a plan",
    .usage = usage,
    .run = run,
};
