/*
 * cmd_gen.c - `ibpart gen`: write a generated fat-tree topology (and its
 * partitions.conf) for benchmarks and tests, atomically; and the hidden
 * `--print-lids TOPO` that prints the LIDs OpenSM would assign, which the
 * interop tests compare with a real OpenSM.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ibpart/fabric_gen.h"
#include "ibpart/topo.h"

static const char usage[] =
    "usage: ibpart gen --cas N [--partitions P] [--radix R] [--uplinks U]\n"
    "                  [--storage S] [--mgmt M] [--lft-cap N] [--lmc L]\n"
    "                  [--force] -o TOPO [--conf OUT.conf]\n"
    "\n"
    "Write a fat tree (a folded Clos of two tiers, or three when the\n"
    "leaves outnumber a switch's ports) with N CA ports (one port per CA)\n"
    "in ibnetdiscover's format, which ibsim and every ibpart command load,\n"
    "and, with --conf, an OpenSM partitions.conf for it.  Every leaf\n"
    "reaches every spine of its group, so two CAs are at most 4 (two\n"
    "tiers) or 6 (three tiers) links apart.  GUIDs and names are\n"
    "deterministic: the same options give the same files.\n"
    "\n"
    "  --cas N          CA ports in all, management and storage included\n"
    "  --partitions P   tenants: partition tNNNN=0xNNNN holds its nodes as\n"
    "                   full members (default 0: nodes node-00001...)\n"
    "  --radix R        ports per switch (default 36, 4..254)\n"
    "  --uplinks U      leaf ports going up to spines (default R/2); a leaf\n"
    "                   has R-U CAs.  One leaf and no spine when N <= R\n"
    "  --lft-cap N      the switches' LinearFDBCap (default 49152: LIDs up\n"
    "                   to 0xBFFF; ibsim's switches have 30720)\n"
    "  --lmc L          the subnet's LMC: 2^L LIDs per port (default 0)\n"
    "  --force          write a fabric that needs more LIDs than the subnet\n"
    "                   has (refused otherwise: the last ports get none)\n"
    "  --storage S      shared storage nodes storage-NNNN, limited members\n"
    "                   of every tenant partition (default 0)\n"
    "  --mgmt M         management hosts mgmt-NNNN, full members of\n"
    "                   Default; the first is the SM port (default 1)\n"
    "  -o TOPO          the topology file to write\n"
    "  --conf OUT.conf  the partitions.conf to write\n"
    "\n"
    "Names: CAs are mgmt-0001..., storage-0001..., then tNNNN-node-NNNN\n"
    "(tenants in order, nodes spread evenly); switches leaf-NNNN,\n"
    "spine-NNNN and core-NNNN.  Files are written to a temporary file, synced "
    "and\n"
    "renamed, so a reader never sees half a file.  The counts of nodes,\n"
    "switches and links go to stderr, and so does a warning when the plan\n"
    "gives ports more P_Keys than a CA's P_KeyTable holds (64, ibsim's\n"
    "PartitionCap): storage nodes are in every tenant partition and\n"
    "0x7fff, so more than 63 partitions with --storage overflow them.\n"
    "\n"
    "ibsim's default limits are 2048 nodes, 256 switches and 13312 ports\n"
    "(raise them with ibsim -N/-S/-P) - see docs/topology.md.\n"
    "\n"
    "Exit status: 0 written, 2 bad usage or a fabric that cannot be built\n"
    "(more CAs than three tiers of radix R hold, more LIDs than the subnet\n"
    "has without --force), 3 a file could not be written.\n";

/* Hidden --print-lids TOPO [--sm-port P] and --dump TOPO. */
static int print_fabric(const char *topo, bool lids, const char *sm)
{
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo);
	ibp_fabric *f;
	int rc = cli_load_fabric(topo, &fo, &f);
	if (rc)
		return rc;
	ibp_error err;
	ibp_error_clear(&err);
	if (!lids)
		ibp_fabric_dump(f, stdout);
	else if (ibp_fabric_print_lids(f, sm, stdout, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_USAGE;
	}
	ibp_fabric_free(f);
	return rc;
}

static bool opt_uint(const char *name, const char *arg, unsigned max,
		     unsigned *out)
{
	unsigned long long v;
	if (!cli_parse_uint(arg, 0, max, &v)) {
		cli_usage_error("gen", "%s wants a number 0..%u, not '%s'",
				name, max, arg);
		return false;
	}
	*out = (unsigned)v;
	return true;
}

enum {
	O_CAS = 256,
	O_PART,
	O_RADIX,
	O_UP,
	O_STOR,
	O_MGMT,
	O_CONF,
	O_LIDS,
	O_DUMP,
	O_REWRITE,
	O_FORCE
};

struct gen_args {
	ibp_fabric_gen_options go;
	const char *out, *conf, *lids, *dumpf, *rewrite;
	struct cli_input in;
	bool have_cas;
};

/* The numeric options: getopt code, name, largest value, where. */
static int num_arg(struct gen_args *a, int c, const char *arg)
{
	const struct {
		int code;
		const char *name;
		unsigned max;
		unsigned *dst;
	} nums[] = {
	    {O_CAS, "--cas", IBP_GEN_MAX_CAS, &a->go.cas},
	    {O_PART, "--partitions", 0x7ffe, &a->go.partitions},
	    {O_RADIX, "--radix", IBP_MAX_PORTS, &a->go.radix},
	    {O_UP, "--uplinks", IBP_MAX_PORTS, &a->go.uplinks},
	    {O_STOR, "--storage", IBP_GEN_MAX_CAS, &a->go.storage},
	    {O_MGMT, "--mgmt", IBP_GEN_MAX_CAS, &a->go.mgmt},
	};
	for (size_t k = 0; k < sizeof(nums) / sizeof(*nums); k++) {
		if (nums[k].code != c)
			continue;
		if (!opt_uint(nums[k].name, arg, nums[k].max, nums[k].dst))
			return -1;
		a->have_cas = a->have_cas || c == O_CAS;
		return 1;
	}
	return 0;
}

/* argv into a: 0, or an exit status (printed). */
static int parse_args(int argc, char **argv, struct gen_args *a)
{
	static const struct option longopts[] = {
	    {"cas", required_argument, NULL, O_CAS},
	    {"partitions", required_argument, NULL, O_PART},
	    {"radix", required_argument, NULL, O_RADIX},
	    {"uplinks", required_argument, NULL, O_UP},
	    {"storage", required_argument, NULL, O_STOR},
	    {"mgmt", required_argument, NULL, O_MGMT},
	    {"conf", required_argument, NULL, O_CONF},
	    {"output", required_argument, NULL, 'o'},
	    {"print-lids", required_argument, NULL, O_LIDS},
	    CLI_IN_LONGOPT_SM_PORT,
	    {"dump", required_argument, NULL, O_DUMP},
	    {"rewrite", required_argument, NULL, O_REWRITE},
	    {"force", no_argument, NULL, O_FORCE},
	    CLI_SUBNET_LONGOPTS,
	    {NULL, 0, NULL, 0}};
	const struct {
		int code;
		const char **dst;
	} strs[] = {{O_CONF, &a->conf},
		    {'o', &a->out},
		    {O_LIDS, &a->lids},
		    {O_DUMP, &a->dumpf},
		    {O_REWRITE, &a->rewrite}};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		if (cli_input_getopt("gen", &a->in, c, optarg))
			continue; /* --sm-port, the one that cannot fail */
		if (c == O_FORCE) {
			a->go.force = true;
			continue;
		}
		int r = num_arg(a, c, optarg);
		if (!r)
			r = cli_subnet_getopt("gen",
					      &a->go.fabric.linear_fdb_cap,
					      &a->go.fabric.multicast_fdb_cap,
					      &a->go.fabric.lmc, c, optarg);
		if (r < 0)
			return CLI_EXIT_USAGE;
		for (size_t k = 0; !r && k < sizeof(strs) / sizeof(*strs); k++)
			if (strs[k].code == c) {
				*strs[k].dst = optarg;
				r = 1;
			}
		if (!r)
			return cli_usage_error("gen", "unknown option '%s'",
					       argv[optind - 1]);
	}
	if (optind < argc)
		return cli_usage_error("gen", "unexpected argument '%s'",
				       argv[optind]);
	return CLI_EXIT_OK;
}

/* Generate (or, hidden, --rewrite a topology) and write the files. */
static int generate(struct gen_args *a)
{
	ibp_error err;
	ibp_error_clear(&err);
	ibp_fabric *f;
	const char *conf = a->conf;
	if (a->rewrite) { /* hidden: load a topology and write it again */
		ibp_fabric_options fo;
		ibp_fabric_options_init(&fo);
		int lrc = cli_load_fabric(a->rewrite, &fo, &f);
		if (lrc)
			return lrc;
		conf = NULL;
	} else if (ibp_fabric_generate(&a->go, &f, &err)) {
		fprintf(stderr, "ibpart gen: %s\n", err.message);
		return CLI_EXIT_USAGE;
	}
	int exit = CLI_EXIT_OK;
	if (ibp_fabric_gen_write_files(&a->go, f, a->out, conf, &err)) {
		cli_print_error(&err);
		ibp_fabric_free(f);
		return CLI_EXIT_SYSTEM;
	}
	ibp_fabric_gen_shape sh;
	ibp_fabric_gen_shape_of(&a->go, &sh);
	if (!a->rewrite)
		fprintf(stderr,
			"ibpart gen: %s: %u CAs, %u leaf + %u spine + %u core "
			"switches (radix %u, %u tier%s, %llu LIDs of %u)%s%s\n",
			a->out, a->go.cas, sh.leaves, sh.spines, sh.cores,
			a->go.radix, sh.tiers, sh.tiers > 1 ? "s" : "",
			(unsigned long long)sh.lids, sh.max_lid,
			conf ? "; " : "", conf ? conf : "");
	if (!a->rewrite && sh.lids > sh.max_lid)
		fprintf(stderr,
			"ibpart gen: warning: --force: %llu LIDs needed, the "
			"subnet has %u: the last end ports get none\n",
			(unsigned long long)sh.lids, sh.max_lid);
	char warn[512];
	if (conf &&
	    ibp_partition_plan_overfull_message(&a->go, warn, sizeof(warn)))
		fprintf(stderr, "ibpart gen: warning: %s\n", warn);
	ibp_fabric_free(f);
	return exit;
}

static int run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return CLI_EXIT_OK;
	}
	struct gen_args a = {.in = {CLI_IN_SM_PORT}};
	ibp_fabric_gen_options_init(&a.go);
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (a.lids || a.dumpf)
		return print_fabric(a.lids ? a.lids : a.dumpf, a.lids,
				    a.in.sm_port);
	if (!a.have_cas && !a.rewrite)
		return cli_usage_error("gen", "--cas N is required");
	if (!a.out)
		return cli_usage_error("gen", "-o TOPO is required");
	return generate(&a);
}

const struct cli_cmd cli_cmd_gen = {
    .name = "gen",
    .summary = "generate a fat-tree topology and partitions.conf",
    .usage = usage,
    .run = run,
};
