/*
 * cmd_demo.c - `ibpart demo` (and `make demo`): the seed document's whole
 * story replayed on the simulated fabric, from the project's own copies of
 * the seed's fabric and plan (examples/seed/).  The walkthrough and its
 * checks are front/'s (front/sim_demo.h); this file finds the
 * examples, runs it with stdout for the narrative, prints the result.
 */
#include <limits.h>
#include <stdlib.h>

#include "cli.h"
#include "front/sim_demo.h"

static const char usage[] =
    "usage: ibpart demo [--mode strict|opensm]\n"
    "\n"
    "Replay the seed document (InfiniBand P_Key multi-tenancy) on the\n"
    "built-in simulated fabric: the seed's leaf switch with sm-01,\n"
    "ufm-server, two TenantA nodes, two TenantB nodes and a shared storage\n"
    "node, and the seed's own PartitionConfig block.  The SM pushes the\n"
    "plan over SMPs; then TenantA-01's P_Key table, `smpquery pkeys`, an\n"
    "RC pingpong inside TenantA (works), TenantB -> TenantA (fails: the\n"
    "fabric drops it; counters and traps go up), storage <-> both tenants\n"
    "(works: limited membership), and the 7x7 connectivity matrix, which\n"
    "in strict mode (the default) must equal the seed's table cell by\n"
    "cell.  Ends with what changes under OpenSM's own rules (--mode\n"
    "opensm shows that side in full).\n"
    "\n"
    "Files: examples/seed/seed.topo and seed-block.conf, found through\n"
    "$IBP_EXAMPLES, next to the binary (../examples), or the installed\n"
    "share directory (../share/ibpart/examples).\n";

static const char tail[] =
    "Exit status: 0 every check held; 1 a check did not; 2 usage;\n"
    "3 files missing or the fabric failed.\n";

static int run(int argc, char **argv)
{
	struct ibp_sim_demo_options o;
	ibp_sim_demo_options_init(&o, IBP_SIM_DEMO_OPTIONS_VERSION);
	const struct cli_opt opts[] = {
	    CLI_WORD("--mode", &o.mode, "opensm|strict",
		     "strict (default): the seed's model, whose matrix must "
		     "equal the seed's table; opensm: OpenSM's rules")};
	struct cli_args a = {"demo", usage, tail, opts, CLI_NOPTS(opts)};
	int rc = cli_args_parse(&a, argc, argv);
	if (rc)
		return rc;
	char dir[PATH_MAX];
	if (ibp_sim_demo_find_examples(getenv("IBP_EXAMPLES"), dir,
				       sizeof(dir))) {
		fprintf(stderr, "ibpart demo: examples/seed not found (set "
				"IBP_EXAMPLES to the examples directory)\n");
		return CLI_EXIT_SYSTEM;
	}
	o.examples_dir = dir;
	o.max_input_size = cli_common.max_input_size;
	struct cli_op op;
	ibp_sim_demo *r;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	rc = ibp_sim_demo_run(&o, stdout, &r, op.diags, &op.err);
	if ((rc = cli_op_end(&op, rc, 0)))
		return rc;
	ibp_sim_demo_print(r, stdout);
	rc = ibp_sim_demo_failures(r) ? CLI_EXIT_FOUND : CLI_EXIT_OK;
	ibp_sim_demo_free(r);
	return rc;
}

CLI_COMMAND(demo, "replay the seed document on the simulated fabric");
