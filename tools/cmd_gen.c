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
#include "ibpart/atomic_file.h"
#include "ibpart/fabric_gen.h"
#include "ibpart/topo.h"

static const char usage[] =
    "usage: ibpart gen --cas N [--partitions P] [--radix R] [--uplinks U]\n"
    "                  [--storage S] [--mgmt M] -o TOPO [--conf OUT.conf]\n"
    "\n"
    "Write a two-level fat tree with N CA ports (one port per CA) in\n"
    "ibnetdiscover's format, which ibsim and every ibpart command load,\n"
    "and, with --conf, an OpenSM partitions.conf for it.  GUIDs and names\n"
    "are deterministic: the same options give the same files.\n"
    "\n"
    "  --cas N          CA ports in all, management and storage included\n"
    "  --partitions P   tenants: partition tNNNN=0xNNNN holds its nodes as\n"
    "                   full members (default 0: nodes node-00001...)\n"
    "  --radix R        ports per switch (default 36, 4..254)\n"
    "  --uplinks U      leaf ports going up to spines (default R/2); a leaf\n"
    "                   has R-U CAs.  One leaf and no spine when N <= R\n"
    "  --storage S      shared storage nodes storage-NNNN, limited members\n"
    "                   of every tenant partition (default 0)\n"
    "  --mgmt M         management hosts mgmt-NNNN, full members of\n"
    "                   Default; the first is the SM port (default 1)\n"
    "  -o TOPO          the topology file to write\n"
    "  --conf OUT.conf  the partitions.conf to write\n"
    "\n"
    "Names: CAs are mgmt-0001..., storage-0001..., then tNNNN-node-NNNN\n"
    "(tenants in order, nodes spread evenly); switches leaf-NNNN and\n"
    "spine-NNNN.  Files are written to a temporary file, synced and\n"
    "renamed, so a reader never sees half a file.  The counts of nodes,\n"
    "switches and links go to stderr, and so does a warning when the plan\n"
    "gives ports more P_Keys than a CA's P_KeyTable holds (64, ibsim's\n"
    "PartitionCap): storage nodes are in every tenant partition and\n"
    "0x7fff, so more than 63 partitions with --storage overflow them.\n"
    "\n"
    "ibsim's default limits are 2048 nodes, 256 switches and 13312 ports\n"
    "(raise them with ibsim -N/-S/-P) - see docs/topology.md.\n"
    "\n"
    "Exit status: 0 written, 2 bad usage, 3 a file could not be written.\n";

static int print_lids(const char *topo, const char *sm)
{
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo);
	ibp_fabric *f;
	int rc = cli_load_fabric(topo, &fo, &f);
	if (rc)
		return rc;
	ibp_error err;
	ibp_error_clear(&err);
	uint64_t sm_guid = 0;
	if (sm) {
		size_t n;
		unsigned p;
		if (ibp_fabric_resolve_port(f, sm, &n, &p, &err)) {
			cli_print_error(&err);
			ibp_fabric_free(f);
			return CLI_EXIT_USAGE;
		}
		sm_guid = ibp_fabric_port_guid(f, n, p);
	}
	if (ibp_fabric_assign_lids(f, sm_guid, &err)) {
		cli_print_error(&err);
		ibp_fabric_free(f);
		return CLI_EXIT_USAGE;
	}
	for (unsigned lid = 1; lid <= 0xbfff; lid++) {
		size_t n;
		unsigned p;
		if (ibp_fabric_find_lid(f, (uint16_t)lid, &n, &p))
			break;
		printf("%u 0x%016" PRIx64 " %s %u %s\n", lid,
		       ibp_fabric_port_guid(f, n, p),
		       ibp_node_type_str(ibp_fabric_node_type(f, n)), p,
		       ibp_fabric_node_desc(f, n));
	}
	ibp_fabric_free(f);
	return CLI_EXIT_OK;
}

/* Hidden --dump TOPO: the fabric in a canonical, id-free form (nodes by
 * GUID, their port GUIDs and links by GUID), so that tests can compare a
 * topology with what ibnetdiscover reports for it. */
static int dump(const char *topo)
{
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo);
	ibp_fabric *f;
	int rc = cli_load_fabric(topo, &fo, &f);
	if (rc)
		return rc;
	for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
		ibp_node_type t = ibp_fabric_node_type(f, n);
		printf("node 0x%016" PRIx64 " %s %u \"%s\"\n",
		       ibp_fabric_node_guid(f, n), ibp_node_type_str(t),
		       ibp_fabric_node_nports(f, n),
		       ibp_fabric_node_desc(f, n));
		for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n); p++) {
			size_t pn;
			unsigned pp;
			if (!ibp_fabric_port_peer(f, n, p, &pn, &pp))
				continue;
			printf("port 0x%016" PRIx64 " %u 0x%016" PRIx64
			       " -> 0x%016" PRIx64 " %u\n",
			       ibp_fabric_node_guid(f, n), p,
			       ibp_fabric_port_guid(f, n, p),
			       ibp_fabric_node_guid(f, pn), pp);
		}
	}
	ibp_fabric_free(f);
	return CLI_EXIT_OK;
}

/* A plan whose ports need more P_Keys than their tables hold is written
 * all the same (it is what was asked for), but not silently: OpenSM
 * would drop the P_Keys past the table's end. */
static void warn_overfull(const ibp_fabric_gen_options *go)
{
	unsigned most;
	unsigned over = ibp_partition_plan_overfull(go, &most);
	if (!over)
		return;
	unsigned cap = go->fabric.ca_partition_cap;
	fprintf(stderr,
		"ibpart gen: warning: %u CA port(s) need more P_Keys than "
		"their P_KeyTable holds: up to %u in %u entries (the CA "
		"PartitionCap)",
		over, most, cap);
	if (go->storage && most == go->partitions + 1)
		fprintf(stderr,
			", the storage nodes being in 0x7fff and all %u "
			"tenant partitions",
			go->partitions);
	fprintf(stderr,
		"; OpenSM drops the last %u of each (ERR 0512), so those "
		"ports lose partitions.  Use --partitions %u or fewer (ibpart "
		"tables --ca-partition-cap N checks the plan against HCAs "
		"with bigger tables)\n",
		most - cap, cap > 1 ? cap - 1 : 0);
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

static int run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return CLI_EXIT_OK;
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
		O_REWRITE
	};
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
	    {NULL, 0, NULL, 0}};
	ibp_fabric_gen_options go;
	ibp_fabric_gen_options_init(&go);
	const char *out = NULL, *conf = NULL, *lids = NULL;
	struct cli_input in = {CLI_IN_SM_PORT};
	const char *dumpf = NULL, *rewrite = NULL;
	bool have_cas = false;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		if (cli_input_getopt("gen", &in, c, optarg))
			continue; /* --sm-port, the one that cannot fail */
		switch (c) {
		case O_CAS:
			if (!opt_uint("--cas", optarg, IBP_GEN_MAX_CAS,
				      &go.cas))
				return CLI_EXIT_USAGE;
			have_cas = true;
			break;
		case O_PART:
			if (!opt_uint("--partitions", optarg, 0x7ffe,
				      &go.partitions))
				return CLI_EXIT_USAGE;
			break;
		case O_RADIX:
			if (!opt_uint("--radix", optarg, IBP_MAX_PORTS,
				      &go.radix))
				return CLI_EXIT_USAGE;
			break;
		case O_UP:
			if (!opt_uint("--uplinks", optarg, IBP_MAX_PORTS,
				      &go.uplinks))
				return CLI_EXIT_USAGE;
			break;
		case O_STOR:
			if (!opt_uint("--storage", optarg, IBP_GEN_MAX_CAS,
				      &go.storage))
				return CLI_EXIT_USAGE;
			break;
		case O_MGMT:
			if (!opt_uint("--mgmt", optarg, IBP_GEN_MAX_CAS,
				      &go.mgmt))
				return CLI_EXIT_USAGE;
			break;
		case O_CONF:
			conf = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case O_LIDS:
			lids = optarg;
			break;
		case O_DUMP:
			dumpf = optarg;
			break;
		case O_REWRITE:
			rewrite = optarg;
			break;
		default:
			return cli_usage_error("gen", "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error("gen", "unexpected argument '%s'",
				       argv[optind]);
	if (lids)
		return print_lids(lids, in.sm_port);
	if (dumpf)
		return dump(dumpf);
	if (!have_cas && !rewrite)
		return cli_usage_error("gen", "--cas N is required");
	if (!out)
		return cli_usage_error("gen", "-o TOPO is required");
	ibp_error err;
	ibp_error_clear(&err);
	ibp_fabric *f;
	if (rewrite) { /* hidden: load a topology and write it again */
		ibp_fabric_options fo;
		ibp_fabric_options_init(&fo);
		int lrc = cli_load_fabric(rewrite, &fo, &f);
		if (lrc)
			return lrc;
		conf = NULL;
	} else if (ibp_fabric_generate(&go, &f, &err)) {
		fprintf(stderr, "ibpart gen: %s\n", err.message);
		return CLI_EXIT_USAGE;
	}
	/* Both files are written whole before either replaces anything. */
	ibp_atomic_file *ft = NULL, *fc = NULL;
	FILE *fpt, *fpc = NULL;
	int exit = CLI_EXIT_OK;
	if (ibp_atomic_file_open(out, &ft, &fpt, &err) ||
	    ibp_fabric_write(f, fpt, &err) ||
	    (conf && (ibp_atomic_file_open(conf, &fc, &fpc, &err) ||
		      ibp_partition_plan_write(&go, f, fpc, &err)))) {
		cli_print_error(&err);
		exit = CLI_EXIT_SYSTEM;
		goto out;
	}
	int crc = ibp_atomic_file_commit(ft, false, &err);
	ft = NULL;
	if (!crc && fc) {
		crc = ibp_atomic_file_commit(fc, false, &err);
		fc = NULL;
	}
	if (crc) {
		cli_print_error(&err);
		exit = CLI_EXIT_SYSTEM;
		goto out;
	}
	unsigned leaves, spines;
	ibp_fabric_gen_counts(&go, &leaves, &spines);
	if (!rewrite)
		fprintf(stderr,
			"ibpart gen: %s: %u CAs, %u leaf + %u spine switches "
			"(radix %u)%s%s\n",
			out, go.cas, leaves, spines, go.radix, conf ? "; " : "",
			conf ? conf : "");
	if (conf)
		warn_overfull(&go);
out:
	ibp_atomic_file_discard(ft);
	ibp_atomic_file_discard(fc);
	ibp_fabric_free(f);
	return exit;
}

const struct cli_cmd cli_cmd_gen = {
    .name = "gen",
    .summary = "generate a fat-tree topology and partitions.conf",
    .usage = usage,
    .run = run,
};
