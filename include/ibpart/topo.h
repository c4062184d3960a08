/*
 * Module topo (src/topo/): the fabric model and its files.  Owns
 * ibp_fabric (nodes, ports, GUIDs, links, capacities, LIDs in OpenSM's
 * order), the ibnetdiscover/ibsim topology reader and writer, rdma-core's
 * node-name-map (node_name_map.h) and generated fat trees (fabric_gen.h).
 * Files: topo_model.c, topo_reader.c, topo_writer.c, topo_lids.c,
 * node_name_map.c, fabric_gen.c; private topo_priv.h.  Depends on util
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

typedef struct ibp_fabric_options {
	unsigned ca_partition_cap; /* NodeInfo PartitionCap of CAs/routers */
	unsigned switch_partition_cap; /* a switch's PartitionCap (port 0) */
	unsigned enforcement_cap;      /* SwitchInfo PartitionEnforcementCap */
	const char *node_name_map;     /* rdma-core node-name-map, or NULL;
					  applied by ibp_fabric_load*()
					  (ibp_fabric_new() ignores it) */
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
void ibp_fabric_options_init(ibp_fabric_options *o);

/* Read an ibnetdiscover/ibsim topology file.  Every problem goes to diags
 * (file:line:col); returns IBP_EPARSE when there was an error, and then
 * *out is NULL. */
int ibp_fabric_load(const char *path, const ibp_fabric_options *o,
		    ibp_fabric **out, ibp_diags *diags);
int ibp_fabric_load_buffer(const char *name, const char *text, size_t len,
			   const ibp_fabric_options *o, ibp_fabric **out,
			   ibp_diags *diags);

/* Building a fabric by hand. */
ibp_fabric *ibp_fabric_new(const ibp_fabric_options *o);
int ibp_fabric_add_node(ibp_fabric *f, ibp_node_type type, uint64_t node_guid,
			unsigned nports, const char *desc, size_t *node_out,
			ibp_error *err);
int ibp_fabric_set_port_guid(ibp_fabric *f, size_t node, unsigned port,
			     uint64_t guid, ibp_error *err);
int ibp_fabric_set_partition_cap(ibp_fabric *f, size_t node, unsigned cap);
int ibp_fabric_set_enforcement_cap(ibp_fabric *f, size_t node, unsigned cap);
int ibp_fabric_set_sysimg_guid(ibp_fabric *f, size_t node, uint64_t guid);
/* A switch's SwitchInfo LinearFDBCap and MulticastFDBCap (what discovery
 * reads); IBP_EINVAL for a node that is not a switch. */
int ibp_fabric_set_fdb_caps(ibp_fabric *f, size_t node, unsigned linear_cap,
			    unsigned multicast_cap);
int ibp_fabric_link(ibp_fabric *f, size_t a, unsigned aport, size_t b,
		    unsigned bport, ibp_error *err);

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

/* Record what port `port` of node reports; IBP_ERANGE for no such port. */
int ibp_fabric_set_port_link(ibp_fabric *f, size_t node, unsigned port,
			     const ibp_port_link *link);
/* Fill *out (all 0 when nothing is known or there is no such port);
 * true when the LID or the link width is known. */
bool ibp_fabric_port_link(const ibp_fabric *f, size_t node, unsigned port,
			  ibp_port_link *out);
/* ibnetdiscover's name of a link's width and speed ("4xSDR", "4xEDR") in
 * buf, from link's LinkWidthActive and LinkSpeed(Ext)Active; false (buf
 * "") when either is not known or not one the spec names. */
bool ibp_port_link_rate(const ibp_port_link *link, char *buf, size_t len);
void ibp_fabric_free(ibp_fabric *f);

/* Nodes are numbered 0..count-1 in file (or discovery) order; a node's
 * type, NodeGUID and SystemImageGUID (0 when the file gives none).  n
 * must be below the count.  Pure reads of the fabric. */
size_t ibp_fabric_node_count(const ibp_fabric *f);
ibp_node_type ibp_fabric_node_type(const ibp_fabric *f, size_t n);
uint64_t ibp_fabric_node_guid(const ibp_fabric *f, size_t n);
uint64_t ibp_fabric_sysimg_guid(const ibp_fabric *f, size_t n);
/* The description (after a node-name-map, if any); never NULL. */
const char *ibp_fabric_node_desc(const ibp_fabric *f, size_t n);
/* The name the file used for the node ("H-…", "S-…"), never NULL. */
const char *ibp_fabric_node_id(const ibp_fabric *f, size_t n);
unsigned ibp_fabric_node_nports(const ibp_fabric *f, size_t n);
unsigned ibp_fabric_node_partition_cap(const ibp_fabric *f, size_t n);
unsigned ibp_fabric_node_enforcement_cap(const ibp_fabric *f, size_t n);
/* A switch's LinearFDBCap / MulticastFDBCap (the fabric options' when
 * not set); 0 for a node that is not a switch. */
unsigned ibp_fabric_node_linear_fdb_cap(const ibp_fabric *f, size_t n);
unsigned ibp_fabric_node_multicast_fdb_cap(const ibp_fabric *f, size_t n);

/* The subnet's limits.  The highest unicast LID the subnet can use:
 * 0xBFFF (IBA vol. 1, 4.1.3), and no more than the smallest LinearFDBCap
 * of its switches minus one (a switch forwards only the LIDs its linear
 * forwarding table holds, 14.2.5.4).  *lft_node (may be NULL): the switch
 * with that smallest LinearFDBCap, or SIZE_MAX when the unicast space is
 * the limit.  The smallest MulticastFDBCap (0 without switches): the
 * multicast groups (MLIDs) the subnet can forward; *mft_node likewise. */
unsigned ibp_fabric_max_unicast_lid(const ibp_fabric *f, size_t *lft_node);
unsigned ibp_fabric_multicast_cap(const ibp_fabric *f, size_t *mft_node);
/* The LMC the fabric was made with (ibp_fabric_options.lmc). */
unsigned ibp_fabric_lmc(const ibp_fabric *f);

/* Port GUID of (n, port); 0 when the port does not exist. */
uint64_t ibp_fabric_port_guid(const ibp_fabric *f, size_t n, unsigned port);
/* The P_KeyTable capacity of (n, port): PartitionCap for CA/router ports
 * and switch port 0, PartitionEnforcementCap for switch external ports. */
unsigned ibp_fabric_port_capacity(const ibp_fabric *f, size_t n, unsigned port);
/* Whether (n, port) is linked, and to what. */
bool ibp_fabric_port_peer(const ibp_fabric *f, size_t n, unsigned port,
			  size_t *peer_node, unsigned *peer_port);

/* An end port: a CA or router port, or a switch's port 0. */
bool ibp_fabric_is_end_port(const ibp_fabric *f, size_t n, unsigned port);

/* Look-ups; IBP_ENOENT when absent. */
int ibp_fabric_find_port_guid(const ibp_fabric *f, uint64_t guid, size_t *n,
			      unsigned *port);
int ibp_fabric_find_node_guid(const ibp_fabric *f, uint64_t guid, size_t *n);
/* Node whose description (or file id) equals desc; IBP_EINVAL when
 * several nodes share it. */
int ibp_fabric_find_desc(const ibp_fabric *f, const char *desc, size_t *n);

/* Assign LIDs the way OpenSM 3.3.23 does on a fresh fabric with LMC 0:
 * the SM's port gets LID 1, then every other end port (CA/router port,
 * switch port 0) in ascending order of its port GUID read as a
 * little-endian number (OpenSM keys its port table by the GUID in network
 * byte order), LIDs 2, 3, …  sm_port_guid 0 means the first CA port.
 * Only end ports OpenSM's discovery reaches from the SM port get a LID
 * (a CA does not forward SMPs, so a port behind an unlinked or other CA
 * port gets 0).  With LMC l each end port takes 2^l LIDs from a base
 * that is a multiple of 2^l (IBA vol. 1, 7.11.1).  Ports past
 * ibp_fabric_max_unicast_lid() get 0: OpenSM runs out of LIDs there, and
 * those ports are counted below. */
int ibp_fabric_assign_lids(ibp_fabric *f, uint64_t sm_port_guid,
			   ibp_error *err);
/* After ibp_fabric_assign_lids(): the end ports discovery reaches but
 * that got no LID because the subnet's LIDs ran out, in the order they
 * would have had them (the i-th, false past the end), and how many LIDs
 * the reached end ports need in all (2^LMC each).  0 before assignment. */
size_t ibp_fabric_lidless_count(const ibp_fabric *f);
bool ibp_fabric_lidless_port(const ibp_fabric *f, size_t i, size_t *n,
			     unsigned *port);
size_t ibp_fabric_lids_needed(const ibp_fabric *f);
/* Whether end port (n, port) is one of those (a switch's external ports
 * answer for its port 0). */
bool ibp_fabric_port_is_lidless(const ibp_fabric *f, size_t n, unsigned port);
/* The `no-lid` finding as one sentence (no prefix, no newline) in buf,
 * cut to len: how many end ports get no LID, what the subnet has and
 * what the ports need, which limit it is (the unicast space or a
 * switch's LinearFDBCap, the LMC), the first `first` ports by name, and
 * what that means.  Returns false (buf untouched) when every reached
 * port has a LID. */
bool ibp_fabric_lidless_message(const ibp_fabric *f, size_t first, char *buf,
				size_t len);
/* LID of an end port (a switch's external ports answer its port 0 LID);
 * 0 before assignment. */
uint16_t ibp_fabric_port_lid(const ibp_fabric *f, size_t n, unsigned port);
int ibp_fabric_find_lid(const ibp_fabric *f, uint16_t lid, size_t *n,
			unsigned *port);

/* The port that ran the discovery: the "# Initiated from node N port P"
 * line of ibnetdiscover output (ibpart's discover writes it too), or 0
 * when the file does not say.  The setter is for the discovering SM. */
uint64_t ibp_fabric_initiator_port_guid(const ibp_fabric *f);
void ibp_fabric_set_initiator_port_guid(ibp_fabric *f, uint64_t port_guid);

/* Every command's default SM port: the port that ran the discovery when
 * the file names it and it is a CA's (ibp_fabric_initiator_port_guid),
 * else the first CA port in file order (ibsim's rule).  Either way an
 * assumption the caller should say it made.  IBP_ENOENT when the fabric
 * has no CA. */
int ibp_fabric_default_sm_port(const ibp_fabric *f, size_t *n, unsigned *port);

/* How many end ports of node n are linked: 1 for a switch (port 0); for
 * a CA or router the ports the topology connects. */
unsigned ibp_fabric_node_linked_end_ports(const ibp_fabric *f, size_t n);

/* The name a user sees for port (n, port), and that
 * ibp_fabric_resolve_port() reads back: the node description, or
 * "description/port" when the node has more than one linked end port
 * (written into buf, len bytes).  Returns buf or the description. */
const char *ibp_fabric_port_name(const ibp_fabric *f, size_t n, unsigned port,
				 char *buf, size_t len);

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

/* Write the fabric in ibnetdiscover's format (what ibsim and our reader
 * load). */
int ibp_fabric_write(const ibp_fabric *f, FILE *out, ibp_error *err);

/* ibp_fabric_write() into memory, then whole to path atomically (a
 * temporary file, synced, renamed) or, path NULL, to stdout.  Returns
 * IBP_OK, IBP_ENOMEM, or the write's error (IBP_EIO "cannot write the
 * topology" for stdout); err set. */
int ibp_fabric_write_path(const ibp_fabric *f, const char *path,
			  ibp_error *err);
/* ibp_fabric_write() with a warning (code "desc-replaced", file name,
 * which may be NULL) in diags (may be NULL) for each node whose
 * NodeDescription holds a '"', a line break or another control byte: the
 * format has no escapes (ibsim and ibnetdiscover's readers take a
 * description up to the next quote), so a quote is written as ' and a
 * line break or control byte as a space. */
int ibp_fabric_write_diags(const ibp_fabric *f, FILE *out, const char *name,
			   ibp_diags *diags, ibp_error *err);
/* ibp_fabric_write_path() with those warnings (about path, or
 * "<stdout>"). */
int ibp_fabric_write_path_diags(const ibp_fabric *f, const char *path,
				ibp_diags *diags, ibp_error *err);

/* The LIDs OpenSM would assign with the SM on port sm (a port spec as
 * ibp_fabric_resolve_port() reads it; NULL: the default SM port), one
 * line per LID from 1 up: "LID PORTGUID TYPE PORT DESC", what the interop
 * tests compare with a real OpenSM.  Assigns f's LIDs (hence not const).
 * Returns IBP_OK, or the error of resolving sm or assigning LIDs (err
 * set, nothing written). */
int ibp_fabric_print_lids(ibp_fabric *f, const char *sm, FILE *out,
			  ibp_error *err);

/* The fabric in a canonical, id-free form for comparing topologies:
 * per node "node GUID TYPE NPORTS "DESC"", then per linked port
 * "port NODEGUID N PORTGUID -> PEERGUID PEERPORT".  Cannot fail. */
void ibp_fabric_dump(const ibp_fabric *f, FILE *out);

/* "CA", "SW" or "RT": a static string. */
const char *ibp_node_type_str(ibp_node_type t);

IBP_END_DECLS
#endif
