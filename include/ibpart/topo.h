/*
 * Module topo (src/topo/): the fabric model and its files.  Owns
 * ibp_fabric (nodes, ports, GUIDs, links, capacities, LIDs in OpenSM's
 * order), the ibnetdiscover/ibsim topology reader and writer, rdma-core's
 * node-name-map (node_name_map.h) and generated fat trees (fabric_gen.h).
 * Files: topo_model.c, topo_reader.c, topo_writer.c, topo_lids.c,
 * topo_load.c (a topology loaded for an operation), node_name_map.c,
 * fabric_gen.c, alias_map.c (alias GUIDs, alias_map.h); private
 * topo_lib.h, topo_priv.h.  Depends on util
 * (error, diag, file_read) only; fabric_gen.c also writes partition plans
 * as text.
 *
 * topo.h - the fabric model: nodes, ports, GUIDs, links, descriptions and
 * P_KeyTable capacities, read from the topology file that ibnetdiscover
 * prints and ibsim reads, or built by hand (discovery, generators).
 *
 * Nodes are addressed by index (0 .. count-1, in file order); a port by
 * (node index, port number), port 0 being a switch's management port.
 * Port GUIDs follow ibsim's rule unless the file gives them: a CA or
 * router port is node GUID + port number, every port of a switch has the
 * switch's node GUID.  LIDs are assigned by ibp_fabric_assign_lids() in
 * OpenSM's order (see there), so "LID 5" means what it means on an ibsim
 * fabric that OpenSM brought up.
 *
 * Ownership and threads: no global state.  ibp_fabric_load()'s caller
 * owns the fabric (ibp_fabric_free()); accessors' strings live as long
 * as it.  One thread at a time changes a fabric (ibp_fabric_assign_lids());
 * a loaded fabric nobody is changing may be read from several threads at
 * once (its const functions write nothing; only a fabric built by hand
 * rebuilds its port-GUID index at its first look-up).
 */
#ifndef IBPART_TOPO_H
#define IBPART_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/export.h"
#include "ibpart/progress.h"

IBP_BEGIN_DECLS

/* NodeInfo NodeType (IBA vol. 1, 14.2.5.3). */
typedef enum ibp_node_type {
	IBP_NODE_UNKNOWN = 0,
	IBP_NODE_CA = 1,
	IBP_NODE_SWITCH = 2,
	IBP_NODE_ROUTER = 3
} ibp_node_type;

#define IBP_DEFAULT_CA_PARTITION_CAP	 64u /* ibsim's CA PartitionCap */
#define IBP_DEFAULT_SWITCH_PARTITION_CAP 8u  /* ibsim's switch PartitionCap */
#define IBP_DEFAULT_ENFORCEMENT_CAP	 64u /* ibsim's PartitionEnforcementCap */
#define IBP_MAX_PORTS			 254u
/* SwitchInfo LinearFDBCap of today's switches: LIDs 0..0xBFFF, the whole
 * unicast space (IBA vol. 1, 14.2.5.4); ibsim's switches have 30720. */
#define IBP_DEFAULT_LINEAR_FDB_CAP 49152u
#define IBP_IBSIM_LINEAR_FDB_CAP   30720u
/* SwitchInfo MulticastFDBCap assumed when unknown (ibsim's switches). */
#define IBP_DEFAULT_MULTICAST_FDB_CAP 1024u
#define IBP_MAX_UNICAST_LID	      0xBFFFu /* IBA vol. 1, 4.1.3 */
#define IBP_MAX_LMC		      7u

#define IBP_FABRIC_OPTIONS_VERSION 1
typedef struct ibp_fabric_options {
	unsigned version; /* IBP_FABRIC_OPTIONS_VERSION (set by _init) */
	unsigned ca_partition_cap; /* NodeInfo PartitionCap of CAs/routers */
	unsigned switch_partition_cap; /* a switch's PartitionCap (port 0) */
	unsigned enforcement_cap;      /* SwitchInfo PartitionEnforcementCap */
	const char *node_name_map;     /* rdma-core node-name-map, or NULL;
					  applied by ibp_fabric_load() */
	size_t max_input_size;	       /* ibp_fabric_load() reads at most this
					  (0: IBP_INPUT_MAX_DEFAULT, limits.h) */
	/* SwitchInfo LinearFDBCap / MulticastFDBCap of switches whose own
	 * SwitchInfo is not known (a topology file does not carry it;
	 * discovery sets each switch's), and the subnet's LMC: each end
	 * port takes 2^lmc LIDs (PortInfo LMC, IBA vol. 1, 7.11.1). */
	unsigned linear_fdb_cap;    /* default IBP_DEFAULT_LINEAR_FDB_CAP */
	unsigned multicast_fdb_cap; /* default IBP_DEFAULT_MULTICAST_FDB_CAP */
	unsigned lmc;		    /* 0..7, default 0 */
	/* "reading topology" (bytes) while ibp_fabric_load*() runs; NULL:
	 * none.  Borrowed for the call. */
	const ibp_progress *progress;
} ibp_fabric_options;

typedef struct ibp_fabric ibp_fabric;

/* The defaults: the capacities of today's HCAs and switches (see the
 * fields), no node-name-map, the default input limit. */
void ibp_fabric_options_init(ibp_fabric_options *o, unsigned version);

/* Read an ibnetdiscover/ibsim topology file.  Every problem goes to diags
 * (file:line:col); returns IBP_EPARSE when there was an error, and then
 * *out is NULL. */
int ibp_fabric_load(const char *path, const ibp_fabric_options *o,
		    ibp_fabric **out, ibp_diags *diags);

/* What a port itself reports in PortInfo (IBA vol. 1, 14.2.5.6), as
 * discovery reads it or a topology file's comments state it
 * (ibnetdiscover's "lid 8 lmc 0" and "lid 2 4xSDR"); every field 0 when
 * not known.  Not OpenSM's assignment (ibp_fabric_port_lid()): the LID the
 * port held when it was read.  For a switch, port 0 carries the LID and
 * the external ports their link's width and speed. */
typedef struct ibp_port_link {
	uint16_t lid;
	uint8_t lmc;
	uint8_t width_active;	  /* LinkWidthActive: 1 1x, 2 4x, 4 8x, 8 12x,
				     16 2x */
	uint8_t speed_active;	  /* LinkSpeedActive: 1 SDR, 2 DDR, 4 QDR */
	uint8_t speed_ext_active; /* LinkSpeedExtActive: 1 FDR, 2 EDR, 4 HDR,
				     8 NDR; 0 none */
} ibp_port_link;

/* Free a fabric (NULL is fine). */
void ibp_fabric_free(ibp_fabric *f);

/* Nodes are numbered 0..count-1 in file (or discovery) order. */
size_t ibp_fabric_node_count(const ibp_fabric *f);

/* A node's NodeInfo NodeType and NodeGUID; n must be below the count.
 * Pure reads of the fabric, like every accessor here. */
ibp_node_type ibp_fabric_node_type(const ibp_fabric *f, size_t n);
uint64_t ibp_fabric_node_guid(const ibp_fabric *f, size_t n);

/* "CA", "SW" or "RT" (ibnetdiscover's words; "??" for another value): a
 * static string. */
const char *ibp_node_type_str(ibp_node_type t);

/* A node's NodeDescription (after a node-name-map, if any); never NULL,
 * valid as long as f. */
const char *ibp_fabric_node_desc(const ibp_fabric *f, size_t n);

/* A node's NumPorts: its ports are 1..nports (and a switch's port 0). */
unsigned ibp_fabric_node_nports(const ibp_fabric *f, size_t n);

/* Whether port (n, port) is linked; if so, the node and port at its other
 * end in *peer_node and *peer_port (either may be NULL). */
bool ibp_fabric_port_peer(const ibp_fabric *f, size_t n, unsigned port,
			  size_t *peer_node, unsigned *peer_port);

/* Port GUID of (n, port); 0 when the port does not exist. */
uint64_t ibp_fabric_port_guid(const ibp_fabric *f, size_t n, unsigned port);
/* LID of an end port (a switch's external ports answer its port 0 LID);
 * 0 before assignment. */
uint16_t ibp_fabric_port_lid(const ibp_fabric *f, size_t n, unsigned port);

/* Resolve what a user typed for a port: a port GUID ("0x…"), a node GUID
 * (its first linked port), a node description or file id ("H-…"), either
 * of those or a node GUID followed by "/N" (port N of that node), or a
 * LID (decimal, after assignment).  A description that is itself the
 * whole text wins over reading a "/N" off its end.  A bare name of a node
 * with several linked end ports (a dual-port CA) is IBP_EINVAL, the
 * message listing the "name/N" choices; a single-port node is named
 * without "/N". */
int ibp_fabric_resolve_port(const ibp_fabric *f, const char *spec, size_t *n,
			    unsigned *port, ibp_error *err);

/* Assign LIDs the way OpenSM 3.3.23 does on a fresh fabric with LMC 0:
 * the SM's port gets LID 1, then every other end port (CA/router port,
 * switch port 0) in ascending order of its port GUID read as a
 * little-endian number (OpenSM keys its port table by the GUID in network
 * byte order), LIDs 2, 3, …  sm_port_guid 0 means the first CA port.
 * Only end ports OpenSM's discovery reaches from the SM port get a LID
 * (a CA does not forward SMPs, so a port behind an unlinked or other CA
 * port gets 0).  With LMC l each end port takes 2^l LIDs from a base
 * that is a multiple of 2^l (IBA vol. 1, 7.11.1).  Ports past
 * the last unicast LID (IBP_MAX_UNICAST_LID, or the smallest LinearFDBCap
 * of the switches minus one) get 0: OpenSM runs out of LIDs there (the
 * audit's no-lid finding counts them). */
int ibp_fabric_assign_lids(ibp_fabric *f, uint64_t sm_port_guid,
			   ibp_error *err);

/* After ibp_fabric_assign_lids(): the end port holding LID lid (a base
 * LID, or one of its 2^LMC) in *n and *port (either may be NULL); a
 * switch's is its port 0.  IBP_ENOENT when no port has it, IBP_EINVAL
 * for a NULL f. */
int ibp_fabric_find_lid(const ibp_fabric *f, uint16_t lid, size_t *n,
			unsigned *port);

/* Every command's default SM port: the port that ran the discovery when
 * the file names it and it is a CA's (ibnetdiscover's "# Initiated from" line),
 * else the first CA port in file order (ibsim's rule).  Either way an
 * assumption the caller should say it made.  IBP_ENOENT when the fabric
 * has no CA. */
int ibp_fabric_default_sm_port(const ibp_fabric *f, size_t *n, unsigned *port);

IBP_END_DECLS
#endif
