/*
 * cmd_discover.c - `ibpart discover`: walk the live fabric by directed
 * route from a local port (the SM's discovery, over libibumad) and write
 * the topology in ibnetdiscover's format, which `-t` of every other
 * command, ibsim and our topo reader load.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/live.h"
#include "ibpart/sm.h"
#include "live_cli.h"

static const char usage[] =
    "usage: ibpart discover [-C CA] [-P PORT] [--mkey KEY] [--timeout MS]\n"
    "                       [--retries N] [--max-wire-smps N] [-q]\n"
    "                       [-o FILE]\n"
    "\n"
    "Walk the fabric by directed-route SMPs from a local HCA port\n"
    "(NodeInfo, NodeDescription, SwitchInfo, PortInfo of every node) and\n"
    "write its topology in ibnetdiscover's format: nodes, GUIDs, port\n"
    "GUIDs, links, descriptions.  Needs no SM and no LIDs.\n"
    "\n"
    "  -C, --Ca CA        the local CA (infiniband-diags' -C); default: "
    "the first\n"
    "  -P, --Port PORT    its port; default: the first active port\n"
    "      --mkey KEY     M_Key to put in every SMP (fabrics protected by\n"
    "                     M_Key answer only the holder of the key; ps\n"
    "                     shows it: prefer --mkey-file or $IBPART_MKEY)\n"
    "      --mkey-file F  the M_Key from a file only its owner reads\n"
    "      --timeout MS   wait per SMP (default 100)\n"
    "      --retries N    re-sends of an unanswered SMP (default 3)\n"
    "      --max-wire-smps N  SMPs in flight at once (default 4, as\n"
    "                     OpenSM's max_wire_smps)\n"
    "  -o, --output FILE  write there atomically (default: stdout)\n"
    "  -q, --quiet        no progress on stderr\n"
    "\n"
    "On ibsim: LD_PRELOAD=$(dpkg -L libumad2sim0 | grep "
    "'libumad2sim.so$')\n"
    "SIM_HOST=<node id of the CA to act as> ibpart discover ...\n"
    "\n"
    "Exit: 0 written, 2 usage, 3 the port or the fabric failed.\n";

static int run(int argc, char **argv)
{
	struct ibp_live_options lo;
	ibp_live_options_init(&lo);
	lo.progress = cli_progress;
	lc_mkey_env(&lo);
	const char *out_path = NULL;
	bool quiet = false;
	const struct cli_opt opts[] = {LC_PORT_OPTS(&lo),
				       CLI_STR("-o|--output", &out_path),
				       CLI_FLAG("-q|--quiet", &quiet)};
	struct cli_args a = {"discover", opts, CLI_NOPTS(opts)};
	if (cli_args_parse(&a, argc, argv))
		return CLI_EXIT_USAGE;
	if (quiet)
		lo.progress = NULL;

	ibp_error err;
	ibp_error_clear(&err);
	ibp_live *l = NULL;
	int rc = ibp_live_open(&lo, &l, &err);
	if (rc == IBP_OK)
		rc = ibp_live_discover(l, &err);
	const ibp_fabric *f = l ? ibp_sm_fabric(ibp_live_sm(l)) : NULL;
	ibp_diags *d = ibp_diags_new();
	if (rc == IBP_OK)
		rc = ibp_fabric_write_path_diags(f, out_path, d, &err);
	cli_print_diags(d); /* descriptions the format cannot hold */
	ibp_diags_free(d);
	if (rc) {
		cli_print_error(&err);
		ibp_live_close(l);
		return CLI_EXIT_SYSTEM;
	}
	unsigned long smps, to, re;
	ibp_sm_counters(ibp_live_sm(l), &smps, &to, &re);
	if (lo.progress)
		fprintf(stderr,
			"discover: %zu nodes from %s port %d, %lu SMPs (%lu "
			"timed out, %lu retries), %ld ms\n",
			ibp_fabric_node_count(f), ibp_live_local_ca(l),
			ibp_live_local_port(l), smps, to, re,
			ibp_live_elapsed_ms(l));
	ibp_live_close(l);
	return CLI_EXIT_OK;
}

const struct cli_cmd cli_cmd_discover = {
    .name = "discover",
    .summary = "walk the live fabric by directed route, write its topology",
    .usage = usage,
    .run = run,
};
