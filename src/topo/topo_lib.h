/*
 * topo_lib.h - the library's own half of ibpart/topo.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/topo.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_TOPO_TOPO_LIB_H
#define IBPART_TOPO_TOPO_LIB_H

#include "ibpart/topo.h"

/* Read an ibnetdiscover/ibsim topology file.  Every problem goes to diags
 * (file:line:col); returns IBP_EPARSE when there was an error, and then
 * *out is NULL. */
int ibp_fabric_load_buffer(const char *name, const char *text, size_t len,
			   const ibp_fabric_options *o, ibp_fabric **out,
			   ibp_diags *diags);

/* ibp_fabric_load_buffer() with every port line read by the general
 * parser, none by the fast path for the common line shape: the same
 * fabric and the same diagnostics, byte for byte (the fuzz target and
 * test_topo_errors compare the two). */
int topo_load_buffer_general(const char *name, const char *text, size_t len,
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

/* A node's SystemImageGUID (0 when the file gives none); n must be
 * below the count.  A pure read.  (Its type, NodeGUID, description and
 * port count are the stable ibpart/topo.h's.) */
uint64_t ibp_fabric_sysimg_guid(const ibp_fabric *f, size_t n);

/* The name the file used for the node ("H-…", "S-…"), never NULL. */
const char *ibp_fabric_node_id(const ibp_fabric *f, size_t n);
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

/* The P_KeyTable capacity of (n, port): PartitionCap for CA/router ports
 * and switch port 0, PartitionEnforcementCap for switch external ports. */
unsigned ibp_fabric_port_capacity(const ibp_fabric *f, size_t n, unsigned port);

/* An end port: a CA or router port, or a switch's port 0. */
bool ibp_fabric_is_end_port(const ibp_fabric *f, size_t n, unsigned port);

/* Look-ups; IBP_ENOENT when absent. */
int ibp_fabric_find_port_guid(const ibp_fabric *f, uint64_t guid, size_t *n,
			      unsigned *port);
int ibp_fabric_find_node_guid(const ibp_fabric *f, uint64_t guid, size_t *n);

/* Node whose description (or file id) equals desc; IBP_EINVAL when
 * several nodes share it. */
int ibp_fabric_find_desc(const ibp_fabric *f, const char *desc, size_t *n);

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

/* The port that ran the discovery: the "# Initiated from node N port P"
 * line of ibnetdiscover output (ibpart's discover writes it too), or 0
 * when the file does not say.  The setter is for the discovering SM. */
uint64_t ibp_fabric_initiator_port_guid(const ibp_fabric *f);
void ibp_fabric_set_initiator_port_guid(ibp_fabric *f, uint64_t port_guid);

/* How many end ports of node n are linked: 1 for a switch (port 0); for
 * a CA or router the ports the topology connects. */
unsigned ibp_fabric_node_linked_end_ports(const ibp_fabric *f, size_t n);

/* The name a user sees for port (n, port), and that
 * ibp_fabric_resolve_port() reads back: the node description, or
 * "description/port" when the node has more than one linked end port
 * (written into buf, len bytes).  Returns buf or the description. */
const char *ibp_fabric_port_name(const ibp_fabric *f, size_t n, unsigned port,
				 char *buf, size_t len);

/* Write the fabric in ibnetdiscover's format (what ibsim and our reader
 * load). */
int ibp_fabric_write(const ibp_fabric *f, FILE *out, ibp_error *err);

/* ibp_fabric_write() into memory, then whole to path atomically (a
 * temporary file, synced, renamed) or, path NULL, to stdout.  Returns
 * IBP_OK, IBP_ENOMEM, or the write's error (IBP_EIO "cannot write the
 * topology" for stdout); err set. */
int ibp_fabric_write_path(const ibp_fabric *f, const char *path,
			  ibp_error *err);
/* The same with those warnings (about path, or "<stdout>"). */
int ibp_fabric_write_path_diags(const ibp_fabric *f, const char *path,
				ibp_diags *diags, ibp_error *err);

/* ibp_fabric_write() with a warning (code "desc-replaced", file name,
 * which may be NULL) in diags (may be NULL) for each node whose
 * NodeDescription holds a '"', a line break or another control byte: the
 * format has no escapes (ibsim and ibnetdiscover's readers take a
 * description up to the next quote), so a quote is written as ' and a
 * line break or control byte as a space. */
int ibp_fabric_write_diags(const ibp_fabric *f, FILE *out, const char *name,
			   ibp_diags *diags, ibp_error *err);

#endif
