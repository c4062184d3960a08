/*
 * cmd_verify.c - `ibpart verify`: read every programmed port's P_KeyTable
 * from the live fabric over SMPs, compare with the tables the plan implies,
 * and report drift port by port (missing, extra, wrong membership, wrong
 * index, unreachable, leaf-port enforcement); optionally the reach matrix
 * and the audit of what the fabric really holds.  Exit 1 on drift.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/live.h"
#include "live_cli.h"
#include "ibpart/sys/live.h"

static const char usage[] =
    "usage: ibpart verify -c CONF [-t TOPO] [--mode opensm|strict]\n"
    "                     [--sm-port PORT] [--previous STATE] [--matrix]\n"
    "                     [--audit [--fail-on SEV]] [--enforce E]\n            "
    "         [--format text|json]\n"
    "                     [-C CA] [-P PORT] [--mkey KEY] [--timeout MS]\n"
    "                     [--retries N] [-q]\n"
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
    "  enforcement  a switch port facing an end port has other PortInfo\n"
    "               partition enforcement bits than --enforce (only on\n"
    "               switches that implement them, SwitchInfo)\n"
    "A port GUID the plan names that the fabric does not have is listed\n"
    "as absent (JSON: \"absent\") but is not drift: OpenSM skips it too,\n"
    "and without a topology an unplugged port and a GUID that never\n"
    "existed look the same.  With -t, a topology port that cannot be\n"
    "read is drift (unreachable).\n";

static const char tail[] =
    "Exit: 0 no drift (and with --audit no finding at --fail-on or above),\n"
    "1 drift (or such a finding), 2 bad input, 3 the fabric failed.\n";

static int run(int argc, char **argv)
{
	struct lc c;
	lc_init(&c, "verify");
	bool matrix = false, audit = false;
	const char *previous_path = NULL;
	const struct cli_opt opts[] = {
	    LC_OPTS(&c),
	    CLI_STR(
		"--previous", &previous_path, "STATE",
		"the tables the ports held before the plan was applied (a "
		"state file of `ibpart apply`): OpenSM keeps surviving P_Keys "
		"at their index, so this predicts indices after a change"),
	    CLI_FLAG(
		"--matrix", &matrix,
		"also the connectivity matrix of the tables the fabric holds"),
	    CLI_FLAG("--audit", &audit,
		     "also the security audit of those tables; a finding at "
		     "--fail-on or above exits 1, as `ibpart audit`"),
	    CLI_FAIL_ON(&c.fail_on),
	    LC_ENFORCE(
		&c,
		"the PortInfo partition enforcement the switch ports facing "
		"end ports must hold (OpenSM's part_enforce): both "
		"(default, or the part_enforce of --opensm-conf), in, out, "
		"off, or unchanged (not checked)")};
	struct cli_args a = {"verify", usage, tail, opts, CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc || (rc = cli_take_conf("verify", &c.in, &a)))
		return rc;
	if (!c.in.conf)
		return cli_usage_error("verify", "-c CONF is required");
	rc = lc_opensm_conf(&c);
	if (rc)
		return rc;
	rc = lc_open(&c);
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

CLI_COMMAND(verify, "compare the live fabric's P_Key tables with a plan");
