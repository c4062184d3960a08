/*
 * input_args.h - the input options every front end's command shares, as
 * entries of its option table (args.h), and what they become: the
 * analysis input's options (analysis_input.h) and the one plan of a
 * command that takes it as `-c CONF` or as its one argument.
 *   -t, --topo, --topology TOPO   IBP_ARG_TOPO(in, help)
 *   -c, --conf CONF               IBP_ARG_CONF(in)
 *   --node-name-map FILE          IBP_ARG_NNM(in)
 *   --alias-guids FILE            IBP_ARG_ALIAS_GUIDS(in)
 *   --dialect auto|opensm|seed    IBP_ARG_DIALECT(in)
 *   --sm-port PORT                IBP_ARG_SM_PORT(in)
 *   --mode opensm|strict          IBP_ARG_MODE(in)
 * and the fabric's limits, into ibp_fabric_options' fields:
 *   --ca-partition-cap N ...      IBP_ARG_CAP_OPTS(fo)
 *   --lft-cap N, --mft-cap N, --lmc L  IBP_ARG_SUBNET_OPTS(lft, mft, lmc)
 * (a command with other words for one writes its own entry with the same
 * names and destination).  Unset: NULL, dialect IBP_CONF_DIALECT_AUTO.
 *
 * Thread safety: no global state; the functions only read their inputs.
 */
#ifndef IBPART_INPUT_ARGS_H
#define IBPART_INPUT_ARGS_H

#include "ibpart/analysis_input.h"
#include "front/args.h"
#include "ibpart/error.h"

/* The values of the shared input options (pointing into argv). */
struct ibp_input_args {
	const char *topo, *conf, *node_name_map, *sm_port;
	const char *alias_guids; /* the alias map (alias_map.h) */
	const char *mode;	 /* "opensm" or "strict" */
	int dialect;		 /* an ibp_conf_dialect */
	int vf_guids;		 /* an ibp_vf_guids (alias_map.h) */
};
#define IBP_ARG_TOPO(in, help)                                                 \
	IBP_ARG_STR("-t|--topo|--topology", &(in)->topo, "TOPO", help)
#define IBP_ARG_CONF(in)                                                       \
	IBP_ARG_STR("-c|--conf", &(in)->conf, "CONF",                          \
		    "the plan: OpenSM partitions.conf or the seed's "          \
		    "PartitionConfig block (or as the one argument)")
#define IBP_ARG_NNM(in)                                                        \
	IBP_ARG_STR("--node-name-map", &(in)->node_name_map, "FILE",           \
		    "rdma-core node-name-map for the topology")
#define IBP_ARG_ALIAS_GUIDS(in)                                                \
	IBP_ARG_STR("--alias-guids", &(in)->alias_guids, "FILE",               \
		    "the fabric's alias GUIDs (VFs): lines ALIAS-GUID "        \
		    "PORT-GUID INDEX, as `discover` writes them; their GUIDs " \
		    "in the plan are reported guid-alias-ignored, not "        \
		    "guid-unknown")
#define IBP_ARG_VF_GUIDS(in)                                                   \
	IBP_ARG_INDEX(                                                         \
	    "--vf-guids", &(in)->vf_guids, "alias|physical",                   \
	    "what the alias map's GUIDs in the plan become: alias (default; "  \
	    "OpenSM 3.3.23 skips them) or physical (each written on its "      \
	    "physical port, so OpenSM programs that port's P_KeyTable; for "   \
	    "mlx4-style hosts, whose VF mapping pkey_idx must then keep "      \
	    "tenants apart)")
#define IBP_ARG_DIALECT(in)                                                    \
	IBP_ARG_INDEX(                                                         \
	    "--dialect", &(in)->dialect, "auto|opensm|seed",                   \
	    "the plan's dialect (default auto: the seed's if it has "          \
	    "a PartitionConfig block)")
#define IBP_ARG_SM_PORT(in)                                                    \
	IBP_ARG_STR("--sm-port", &(in)->sm_port, "PORT",                       \
		    "the SM's port: port GUID, node GUID, node description "   \
		    "or LID (NAME/N: port N); default: the port the topology " \
		    "says ran the discovery, else its first CA port (an "      \
		    "assumption: said)")
#define IBP_ARG_MODE(in)                                                       \
	IBP_ARG_WORD("--mode", &(in)->mode, "opensm|strict",                   \
		     "opensm (default): exactly what OpenSM 3.3.23 programs; " \
		     "strict: the seed's model, the default partition holds "  \
		     "only the SM port and the ports the plan names in it")

/* The capacity options of a fabric (ibp_fabric_options), 1..65535, as
 * entries of a command's table: --ca-partition-cap, --switch-partition-cap,
 * --enforcement-cap. */
#define IBP_ARG_CAP_OPTS(fo)                                                   \
	IBP_ARG_NUM("--ca-partition-cap", &(fo)->ca_partition_cap, 1, 65535,   \
		    "N", "NodeInfo PartitionCap of CA ports (64)"),            \
	    IBP_ARG_NUM("--switch-partition-cap", &(fo)->switch_partition_cap, \
			1, 65535, "N",                                         \
			"a switch's PartitionCap, bounds its port 0 (8)"),     \
	    IBP_ARG_NUM("--enforcement-cap", &(fo)->enforcement_cap, 1, 65535, \
			"N",                                                   \
			"SwitchInfo PartitionEnforcementCap, bounds switch "   \
			"external ports (64)")

/* The subnet's limits as entries of a command's table: the switches'
 * LinearFDBCap and MulticastFDBCap (where the topology does not say) and
 * the LMC, into three unsigned (ibp_fabric_options' fields, or the
 * analysis input's). */
#define IBP_ARG_SUBNET_OPTS(lft, mft, lmc)                                     \
	IBP_ARG_NUM(                                                           \
	    "--lft-cap", lft, 2, 65535, "N",                                   \
	    "the switches' SwitchInfo LinearFDBCap (default 49152: LIDs "      \
	    "up to 0xBFFF; ibsim's switches have 30720): the subnet's "        \
	    "last LID is N-1, end ports past it get no LID (a table all the "  \
	    "same: finding no-lid, exit 1)"),                                  \
	    IBP_ARG_NUM("--mft-cap", mft, 1, 65535, "N",                       \
			"the switches' MulticastFDBCap (default 1024): the "   \
			"multicast groups (MLIDs) they forward"),              \
	    IBP_ARG_NUM("--lmc", lmc, 0, 7, "L",                               \
			"the subnet's LMC: 2^L LIDs per end port (default 0)")

/* The one plan of a command that takes it as -c CONF or as its one
 * positional argument (a, as ibp_args_parse left it) into *path.
 * Errors: IBP_EINVAL "expected one CONF file" (none, or two). */
int ibp_input_args_conf_path(const struct ibp_input_args *in,
			     const struct ibp_args *a, const char **path,
			     ibp_error *err);

/* The plan of a command that takes it as -c CONF or as its one
 * positional argument, but not always (matrix and audit read --tables
 * instead; apply --rollback reads none): the positional, if any, into
 * in->conf.  Errors: IBP_EINVAL "expected one CONF file" (both given). */
int ibp_input_args_take_conf(struct ibp_input_args *in,
			     const struct ibp_args *a, ibp_error *err);

/* Set o's topology, node-name-map, alias map, SM port, plan and mode
 * (mode_given when --mode was given) from in; o's other fields are left as they
 * are. */
void ibp_input_args_analysis(const struct ibp_input_args *in,
			     ibp_analysis_input_options *o);

#endif
