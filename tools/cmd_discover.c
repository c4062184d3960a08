/*
 * cmd_discover.c - `ibpart discover`: walk the live fabric by directed
 * route from a local port (the SM's discovery, over libibumad) and write
 * the topology in ibnetdiscover's format, which `-t` of every other
 * command, ibsim and our topo reader load; and, beside it, the alias map
 * of every port's GUIDInfo table (the GUIDs of SR-IOV virtual functions,
 * which a topology file cannot carry), which they load with
 * --alias-guids.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/live.h"
#include "ibpart/sys/sm.h"
#include "live_cli.h"
#include "ibpart/sys/live.h"

static const char usage[] =
    "usage: ibpart discover [-C CA] [-P PORT] [--mkey KEY] [--timeout MS]\n"
    "                       [--retries N] [--max-wire-smps N] [-q]\n"
    "                       [-o FILE] [--alias-guids FILE]\n"
    "\n"
    "Walk the fabric by directed-route SMPs from a local HCA port\n"
    "(NodeInfo, NodeDescription, SwitchInfo, PortInfo of every node) and\n"
    "write its topology in ibnetdiscover's format: nodes, GUIDs, port\n"
    "GUIDs, links, descriptions.  Needs no SM and no LIDs.  Alias GUIDs\n"
    "(SR-IOV VFs) of every GUIDInfo: an alias map (--alias-guids).\n";

static const char tail[] =
    "On ibsim: LD_PRELOAD=$(dpkg -L libumad2sim0 | grep "
    "'libumad2sim.so$')\n"
    "SIM_HOST=<node id of the CA to act as> ibpart discover ...\n"
    "\n"
    "Exit: 0 written, 2 usage, 3 the port or the fabric failed.\n";

static int run(int argc, char **argv)
{
	struct ibp_live_options lo;
	ibp_live_options_init(&lo, IBP_LIVE_OPTIONS_VERSION);
	lo.progress = cli_progress;
	int env_rc = lc_mkey_env(&lo);
	const char *out_path = NULL, *alias_path = NULL;
	bool quiet = false;
	const struct cli_opt opts[] = {
	    LC_PORT_OPTS(&lo, &quiet),
	    CLI_STR("-o|--output", &out_path, "FILE",
		    "write there atomically (default: stdout)"),
	    CLI_STR("--alias-guids", &alias_path, "FILE",
		    "the alias map's path (default: FILE.aliases beside -o "
		    "FILE; none with stdout)")};
	struct cli_args a = {"discover", usage, tail, opts, CLI_NOPTS(opts)};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc;
	if (env_rc)
		return lc_mkey_env_refused("discover");
	if (quiet)
		lo.progress = NULL;

	struct cli_op op;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	ibp_live *l = NULL;
	rc = ibp_live_open(&lo, &l, &op.err);
	if (rc == IBP_OK)
		rc = ibp_live_discover(l, &op.err);
	if (rc == IBP_OK) /* the summary line unless -q */
		rc = ibp_live_write_discovery(l, out_path, alias_path, op.diags,
					      lo.progress ? stderr : NULL,
					      &op.err);
	int st = cli_op_end(&op, rc, CLI_OP_ERROR);
	ibp_live_close(l);
	return st ? CLI_EXIT_SYSTEM : CLI_EXIT_OK;
}

CLI_COMMAND(discover,
	    "walk the live fabric by directed route, write its topology");
