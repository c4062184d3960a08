/*
 * cmd_gen.c - `ibpart gen`: write a generated fat-tree topology (and its
 * partitions.conf) for benchmarks and tests, atomically; and the hidden
 * `--print-lids TOPO` that prints the LIDs OpenSM would assign, which the
 * interop tests compare with a real OpenSM.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ibpart/sys/fabric_gen.h"
#include "ibpart/topo.h"
#include "ibpart/sys/topo.h"

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
    "deterministic: the same options give the same files.\n";

static const char tail[] =
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

/* The LIDs OpenSM would assign with the SM on port sm (a port spec as
 * ibp_fabric_resolve_port() reads it; NULL: the default SM port), one
 * line per LID from 1 up: "LID PORTGUID TYPE PORT DESC", what the interop
 * tests compare with a real OpenSM.  Returns IBP_OK, or the error of
 * resolving sm or assigning LIDs (err set, nothing written). */
static int print_lids(ibp_fabric *f, const char *sm, FILE *out, ibp_error *err)
{
	uint64_t sm_guid = 0;
	if (sm) {
		size_t n;
		unsigned p;
		int rc = ibp_fabric_resolve_port(f, sm, &n, &p, err);
		if (rc)
			return rc;
		sm_guid = ibp_fabric_port_guid(f, n, p);
	}
	int rc = ibp_fabric_assign_lids(f, sm_guid, err);
	if (rc)
		return rc;
	for (unsigned lid = 1; lid <= 0xbfff; lid++) {
		size_t n;
		unsigned p;
		if (ibp_fabric_find_lid(f, (uint16_t)lid, &n, &p))
			break;
		fprintf(out, "%u 0x%016" PRIx64 " %s %u %s\n", lid,
			ibp_fabric_port_guid(f, n, p),
			ibp_node_type_str(ibp_fabric_node_type(f, n)), p,
			ibp_fabric_node_desc(f, n));
	}
	return IBP_OK;
}

/* The fabric in a canonical, id-free form for comparing topologies:
 * per node "node GUID TYPE NPORTS "DESC"", then per linked port
 * "port NODEGUID N PORTGUID -> PEERGUID PEERPORT". */
static void dump_fabric(const ibp_fabric *f, FILE *out)
{
	for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
		ibp_node_type t = ibp_fabric_node_type(f, n);
		fprintf(out, "node 0x%016" PRIx64 " %s %u \"%s\"\n",
			ibp_fabric_node_guid(f, n), ibp_node_type_str(t),
			ibp_fabric_node_nports(f, n),
			ibp_fabric_node_desc(f, n));
		for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n); p++) {
			size_t pn;
			unsigned pp;
			if (!ibp_fabric_port_peer(f, n, p, &pn, &pp))
				continue;
			fprintf(out,
				"port 0x%016" PRIx64 " %u 0x%016" PRIx64
				" -> 0x%016" PRIx64 " %u\n",
				ibp_fabric_node_guid(f, n), p,
				ibp_fabric_port_guid(f, n, p),
				ibp_fabric_node_guid(f, pn), pp);
		}
	}
}

/* Hidden --print-lids TOPO [--sm-port P] and --dump TOPO. */
static int print_fabric(const char *topo, bool lids, const char *sm)
{
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f;
	int rc = cli_load_fabric(topo, &fo, &f);
	if (rc)
		return rc;
	ibp_error err;
	ibp_error_clear(&err);
	if (!lids)
		dump_fabric(f, stdout);
	else if (print_lids(f, sm, stdout, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_USAGE;
	}
	ibp_fabric_free(f);
	return rc;
}

struct gen_args {
	ibp_fabric_gen_options go;
	ibp_fabric_options fo; /* go.fabric: --linear-fdb-cap, ... */
	const char *out, *conf, *lids, *dumpf, *rewrite, *sm_port;
};

/* argv into a: 0, or an exit status (printed). */
static int parse_args(int argc, char **argv, struct gen_args *a)
{
	ibp_fabric_gen_options *g = &a->go;
	const struct cli_opt opts[] = {
	    CLI_NUM("--cas", &g->cas, 0, IBP_GEN_MAX_CAS, "N",
		    "CA ports in all, management and storage included"),
	    CLI_NUM("--partitions", &g->partitions, 0, 0x7ffe, "P",
		    "tenants: partition tNNNN=0xNNNN holds its nodes as full "
		    "members (default 0: nodes node-00001...)"),
	    CLI_NUM("--radix", &g->radix, 0, IBP_MAX_PORTS, "R",
		    "ports per switch (default 36, 4..254)"),
	    CLI_NUM("--uplinks", &g->uplinks, 0, IBP_MAX_PORTS, "U",
		    "leaf ports going up to spines (default R/2); a leaf has "
		    "R-U CAs. One leaf and no spine when N <= R"),
	    CLI_NUM("--storage", &g->storage, 0, IBP_GEN_MAX_CAS, "S",
		    "shared storage nodes storage-NNNN, limited members of "
		    "every tenant partition (default 0)"),
	    CLI_NUM("--mgmt", &g->mgmt, 0, IBP_GEN_MAX_CAS, "M",
		    "management hosts mgmt-NNNN, full members of Default; the "
		    "first is the SM port (default 1)"),
	    CLI_STR("-o|--output", &a->out, "TOPO",
		    "the topology file to write"),
	    CLI_STR("--conf", &a->conf, "OUT.conf",
		    "the partitions.conf to write"),
	    IBP_ARG_SUBNET_OPTS(&a->fo.linear_fdb_cap, &a->fo.multicast_fdb_cap,
				&a->fo.lmc),
	    CLI_FLAG("--force", &g->force,
		     "write a fabric that needs more LIDs than the subnet has "
		     "(refused otherwise: the last ports would get none)"),
	    /* hidden, for the tests: */
	    CLI_STR("--print-lids", &a->lids, "TOPO", NULL),
	    CLI_STR("--dump", &a->dumpf, "TOPO", NULL),
	    CLI_STR("--rewrite", &a->rewrite, "TOPO", NULL),
	    CLI_STR("--sm-port", &a->sm_port, "PORT", NULL)};
	struct cli_args args = {"gen", usage, tail, opts, CLI_NOPTS(opts)};
	return cli_args_parse(&args, argc, argv);
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
		ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
		int lrc = cli_load_fabric(a->rewrite, &fo, &f);
		if (lrc)
			return lrc;
		conf = NULL;
	} else if (ibp_fabric_generate(&a->go, &f, &err)) {
		cli_print_message("ibpart gen", err.message);
		return CLI_EXIT_USAGE;
	}
	int exit = CLI_EXIT_OK;
	int wrc = ibp_fabric_gen_write_files(&a->go, f, a->out, conf, &err);
	if (wrc) {
		cli_print_error(&err);
		ibp_fabric_free(f);
		return cli_output_status(wrc);
	}
	char msg[PATH_MAX + 512];
	ibp_fabric_gen_summary(&a->go, a->out, conf, msg, sizeof(msg));
	if (!a->rewrite)
		cli_say("ibpart gen: %s", msg);
	if (!a->rewrite && ibp_fabric_gen_lid_message(&a->go, msg, sizeof(msg)))
		cli_say("ibpart gen: warning: %s", msg);
	if (conf &&
	    ibp_partition_plan_overfull_message(&a->go, msg, sizeof(msg)))
		cli_say("ibpart gen: warning: %s", msg);
	ibp_fabric_free(f);
	return exit;
}

static int run(int argc, char **argv)
{
	struct gen_args a = {0};
	ibp_fabric_gen_options_init(&a.go, IBP_FABRIC_GEN_OPTIONS_VERSION);
	a.go.cas = 0; /* --cas is required: 0 is no fabric */
	ibp_fabric_options_init(&a.fo, IBP_FABRIC_OPTIONS_VERSION);
	a.go.fabric = &a.fo;
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (a.lids || a.dumpf)
		return print_fabric(a.lids ? a.lids : a.dumpf, a.lids,
				    a.sm_port);
	if (!a.go.cas && !a.rewrite)
		return cli_usage_error("gen", "--cas N is required");
	if (!a.out)
		return cli_usage_error("gen", "-o TOPO is required");
	return generate(&a);
}

CLI_COMMAND(gen, "generate a fat-tree topology and partitions.conf");
