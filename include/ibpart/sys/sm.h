/*
 * Module sm (src/sm/: sm.c the handle and SMP exchange, sm_discover.c,
 * sm_tables.c reads, sm_push.c push and enforcement, sm_traps.c,
 * sm_report.c, sm_guid_info.c the alias GUIDs of every port's GUIDInfo,
 * sm_sa_guid_info.c those the SA's GUIDInfoRecords hold;
 * private sm_priv.h): the subnet manager's partition
 * work.  Unstable API (include/ibpart/sys/).  Owns directed-route discovery
 * (per switch, in pipelined rounds; the nodes it leaves out, a NodeInfo
 * GUID of 0, as findings), reading the tables of the ports it
 * programs (one pipelined batch), the block diff, SubnSet and read-back with
 * retries, switch leaf-port enforcement where SwitchInfo says it exists, the
 * finding of the master SM's port (the one LID-routed exchange), trap counting,
 * and the push report.  Depends on wire (mad.h, transport.h), pkey (tables),
 * topo (the discovered fabric is an ibp_fabric), policy (ibp_part_enforce) and
 * util.
 *
 * sm.h - the subnet manager's partition work over an SMP transport:
 * discover the fabric by directed route, read the P_KeyTable of every
 * port it programs (end ports, switch port 0, switch ports facing an end
 * port: see ibp_sm_read_tables), write only the 32-entry blocks that
 * differ from the desired tables (SubnSet(P_KeyTable), IBA vol. 1,
 * 14.2.5.7), read them back to confirm, set PortInfo partition
 * enforcement on switch leaf ports (10.9.4; OpenSM's --part_enforce), and
 * report what was sent.
 *
 * It talks to the fabric only through ibp_transport (transport.h), so it
 * runs the same over the built-in simulator and over libibumad.  Lost
 * MADs are retried here: the transport never retries.
 *
 * Threads: no global state.  An ibp_sm, like its transport, is used by
 * one thread at a time; ibp_sm_fabric, ibp_sm_counters and
 * ibp_sm_trap_count only read it.  Reports are plain data.
 */
#ifndef IBPART_SM_H
#define IBPART_SM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/alias_map.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/sys/mad.h" /* struct ibp_notice */
#include "ibpart/policy.h"  /* ibp_part_enforce: OpenSM's part_enforce */
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_SM_OPTIONS_VERSION 1
struct ibp_sm_options {
	unsigned version;	  /* IBP_SM_OPTIONS_VERSION (set by _init) */
	int timeout_ms;		  /* per SMP (default 100) */
	unsigned retries;	  /* re-sends after a timeout (default 3) */
	ibp_part_enforce enforce; /* PortInfo bits on switch leaf ports
				     (default IBP_ENFORCE_BOTH) */
	bool keep_enforcement;	  /* do not touch PortInfo at all */
	bool dry_run;		  /* read and plan, write nothing */
	unsigned max_wire_smps;	  /* SMPs outstanding at once when reading
				     every table (OpenSM's max_wire_smps;
				     default 4; 1: one at a time) */
	uint64_t mkey;		  /* M_Key put in every SMP (default 0) */
	/* Asked before each port of a push: true stops it there, as a
	 * failure would (IBP_ECANCELED, rep->complete false, the ports
	 * not yet pushed left as they are).  NULL: never. */
	bool (*cancel)(void *ctx);
	void *cancel_ctx;
};
/* Fill o with the defaults above (100 ms, 3 retries, both, 4 SMPs on the
 * wire, M_Key 0, everything else 0/false/NULL).  Cannot fail. */
void ibp_sm_options_init(struct ibp_sm_options *o, unsigned version);

/* A port the push touched, planned to touch, or failed on. */
struct ibp_sm_port {
	uint64_t node_guid;
	uint64_t port_guid;
	unsigned port;
	char desc[65];
	unsigned blocks;      /* P_KeyTable blocks written (or planned) */
	uint32_t block_mask;  /* which (blocks 0..31) */
	bool enforce_changed; /* PortInfo enforcement bits written */
	char why[512];	      /* for a failure */
};

struct ibp_sm_report {
	bool dry_run;
	bool complete;	    /* false when the push stopped at a failure */
	unsigned long smps; /* SMPs sent, retries included */
	unsigned long timeouts;
	unsigned long retries;
	unsigned long blocks_read;
	unsigned long blocks_written; /* planned, in a dry run */
	unsigned long blocks_confirmed;
	unsigned long ports_checked;
	unsigned long enforce_ports;	   /* switch ports whose bits changed */
	unsigned long enforce_unsupported; /* leaf ports of switches whose
					      SwitchInfo has neither
					      Inbound- nor
					      OutboundEnforcementCap */
	struct ibp_sm_port *changed;
	size_t nchanged;
	struct ibp_sm_port *failed;
	size_t nfailed;
};
/* Free the report's changed[] and failed[] arrays and zero it (the struct
 * itself is the caller's; NULL is allowed).  A zeroed report may be freed
 * again. */
void ibp_sm_report_free(struct ibp_sm_report *r);

typedef struct ibp_sm ibp_sm;

/* The SM on transport t, into *out; the caller frees it with
 * ibp_sm_free().  t is borrowed (not owned): it must outlive the SM.  o
 * (copied; NULL for the defaults).  IBP_ENOMEM (*out NULL).  Nothing is
 * sent yet.  Free releases the SM and its discovered fabric (NULL is
 * allowed), not the transport. */
int ibp_sm_new(ibp_transport *t, const struct ibp_sm_options *o, ibp_sm **out,
	       ibp_error *err);
void ibp_sm_free(ibp_sm *sm);
/* Change the options for the next operations (e.g. a re-push with
 * another --part-enforce); counters and the discovered fabric stay.  o is
 * copied (NULL: the defaults).  IBP_EINVAL naming the struct, the options
 * unchanged, when o's version is 0 or newer than the library's. */
int ibp_sm_set_options(ibp_sm *sm, const struct ibp_sm_options *o,
		       ibp_error *err);

/* Breadth-first directed-route discovery from the local port: NodeInfo,
 * NodeDescription, SwitchInfo and PortInfo of every node.  Replaces (and
 * frees) the fabric of an earlier discovery: tables read against it
 * (ibp_sm_read_tables) must be freed first.  Fails with IBP_ETIMEDOUT when
 * a node stops answering after the retries, IBP_EMAD when one answers
 * with a bad status, IBP_EIO for a transport failure or an unexpected
 * response, IBP_ENOMEM.  After a failure the fabric is the part found so
 * far (not NULL): call it again before reading or pushing. */
int ibp_sm_discover(ibp_sm *sm, ibp_error *err);
/* The discovered fabric (NULL before discovery); node order is BFS
 * order.  Owned by sm: valid until the next discovery or ibp_sm_free. */
const ibp_fabric *ibp_sm_fabric(const ibp_sm *sm);
/* What the last discovery found wrong but went past (NULL before any
 * discovery): a node whose NodeInfo reports NodeGUID 0 (node-guid-zero)
 * or PortGUID 0 (port-guid-zero) - IBA vol. 1, 14.2.5.3: neither is ever
 * 0 - is left out of the fabric as OpenSM leaves it out of its sweep (not
 * added, not linked, not walked through, so no P_KeyTable of it is read
 * or written), each a warning naming the node (its GUID and
 * NodeDescription, where it answers one), its port and the directed
 * route ("0,1,3") that reached it.  Owned by sm: valid until the next
 * discovery or ibp_sm_free; a kept discovery (ibp_sm_discovery_take)
 * carries them. */
const ibp_diags *ibp_sm_discovery_findings(const ibp_sm *sm);
/* SMPs sent so far (all operations), timeouts, retries; any pointer may
 * be NULL.  Cannot fail. */
void ibp_sm_counters(const ibp_sm *sm, unsigned long *smps,
		     unsigned long *timeouts, unsigned long *retries);

/* The port of the master SM: the local port's PortInfo MasterSMLID (by
 * directed route, IBA 14.2.5.6), then a LID-routed SubnGet(NodeInfo) to
 * that LID, whose PortGUID is the SM's port (14.2.5.3); *running (may be
 * NULL) says whether that port's PortInfo CapabilityMask still has IsSM
 * (an SM that exited leaves MasterSMLID behind).  IBP_ENOENT when
 * MasterSMLID is 0 or not a unicast LID; IBP_ETIMEDOUT when the LID does
 * not answer; IBP_EMAD/IBP_EIO as for discovery.  *running stays false
 * when the second PortInfo cannot be read.  *port_guid is 0 on error. */
int ibp_sm_master_sm_port(ibp_sm *sm, uint64_t *port_guid, bool *running,
			  ibp_error *err);

/* Read the P_KeyTable of every port the SM programs - each CA/router
 * port, each switch's port 0, and each switch external port facing a
 * CA/router port when the switch has an enforcement table
 * (PartitionEnforcementCap > 0) - into a set keyed by the discovered
 * fabric, with those leaf ports' PortInfo enforcement bits
 * (the tables JSON's "enforcement"), and the enforcement bits (no table) of
 * the switch ports facing another switch, on switches whose SwitchInfo
 * implements a bit (OpenSM clears them).  Ports between switches and unlinked
 * switch ports are neither read nor written.  All of it is one pipelined
 * batch of directed-route Gets.  Discovers first when nothing has been
 * discovered.  *out (NULL on error) is the caller's to free with
 * ibp_tables_free(); it borrows ibp_sm_fabric(), so free it before the
 * next discovery or ibp_sm_free().  Errors as for discovery. */
int ibp_sm_read_tables(ibp_sm *sm, ibp_tables **out, ibp_error *err);

/* The alias GUIDs of the discovered fabric: PortInfo GUIDCap of every
 * CA and router port and every switch's port 0, then each one's GUIDInfo
 * blocks up to GUIDCap (IBA vol. 1 14.2.5.5), as two pipelined batches
 * of directed-route Gets.  Every non-zero entry past index 0 is an alias
 * of that port (mlx4: VF n's GUID at index n) in *out, the caller's to
 * free with ibp_alias_map_free(); *dups (may be NULL) counts the entries
 * left out because the same alias was seen first elsewhere.  Discovers
 * first when nothing has been discovered.  Errors as for discovery. */
int ibp_sm_read_alias_guids(ibp_sm *sm, ibp_alias_map **out, size_t *dups,
			    ibp_error *err);

/* What ibp_sm_read_alias_guids_sa read. */
struct ibp_sm_alias_read {
	size_t guid_info;  /* aliases from the ports' GUIDInfo (SMPs) */
	size_t sa;	   /* more from the SA's GUIDInfoRecords */
	size_t dups;	   /* entries left out: the alias seen first
			      elsewhere (another port or index) */
	size_t sa_queries; /* GUIDInfoRecord queries sent (retries not
			      counted) */
	bool sa_answered;  /* the SA answered them */
};
/* ibp_sm_read_alias_guids, then - where sa_lid is not 0 - the SA at
 * sa_lid (the master SM's port) asked for its GUIDInfoRecords (IBA vol. 1
 * 15.2.5.18; SubnAdmGetTable with the LID and the block, one record an
 * answer, so no RMPP is needed) of every such port's blocks, SM_Key
 * sa_key (0: untrusted, as OpenSM answers GUIDInfoRecords).  The SA
 * holds the aliases hosts registered with SubnAdmSet (mlx4: the VF
 * driver asks the SM), also where the port's own table does not (yet)
 * hold them; an SMP's entry wins over the SA's for the same alias.  The
 * first query unanswered after the retries means no SA answers: the
 * GUIDInfo of the SMPs alone, sa_answered false.  r may be NULL. */
int ibp_sm_read_alias_guids_sa(ibp_sm *sm, uint16_t sa_lid, uint64_t sa_key,
			       ibp_alias_map **out, struct ibp_sm_alias_read *r,
			       ibp_error *err);

/* A discovery kept between sessions: the fabric and the directed route
 * to each node.  A daemon that sweeps a fabric nothing has changed in
 * (its SM's sweep counters say so) gives the next session the last one
 * instead of discovering again. */
typedef struct ibp_sm_discovery ibp_sm_discovery;
/* Move sm's discovery out (sm is then as before any discovery; what
 * borrowed ibp_sm_fabric() must be gone); NULL when nothing was
 * discovered or out of memory. */
ibp_sm_discovery *ibp_sm_discovery_take(ibp_sm *sm);
/* Give sm a discovery taken from another ibp_sm on the same local port,
 * as if it had discovered it (d consumed; the one sm held is freed). */
void ibp_sm_discovery_give(ibp_sm *sm, ibp_sm_discovery *d);
/* Free a kept discovery (NULL is fine). */
void ibp_sm_discovery_free(ibp_sm_discovery *d);
/* Nodes in a kept discovery's fabric. */
size_t ibp_sm_discovery_nodes(const ibp_sm_discovery *d);

/* Which PortInfo partition enforcement bits the discovered switch with
 * this node GUID implements (its SwitchInfo InboundEnforcementCap and
 * OutboundEnforcementCap, IBA vol. 1 14.2.5.4), into *inbound and
 * *outbound (either may be NULL).  false, with both false, for a node
 * that is not a discovered switch.  Only reads sm. */
bool ibp_sm_switch_enforcement_caps(const ibp_sm *sm, uint64_t node_guid,
				    bool *inbound, bool *outbound);

/* Make the fabric hold `want`.  want may be keyed by any fabric model of
 * the same subnet (the topology file's, or ibp_sm_fabric()): ports are
 * matched by node GUID and port number.  Discovers first if needed.
 * Returns 0 when every port holds its table (rep->complete); on a
 * failure the report says which ports were already changed and where it
 * stopped.  rep is overwritten (free an earlier report first) and must be
 * freed with ibp_sm_report_free() whatever the result.  want is only
 * read.  Errors: IBP_ENOENT for a node that was not discovered or a port
 * with no P_KeyTable; IBP_ECANCELED (o->cancel); IBP_ETIMEDOUT, IBP_EMAD,
 * IBP_EIO from the fabric; IBP_ENOMEM.  A table the read-back does not
 * confirm is a failure of that port.  A switch port facing another
 * switch that `want` gives enforcement bits but no table gets only its
 * PortInfo Set (where the switch implements the bits). */
int ibp_sm_push(ibp_sm *sm, const ibp_tables *want, struct ibp_sm_report *rep,
		ibp_error *err);

/* Drain the traps waiting on the transport (Notice MADs) and count them.
 * *got (may be NULL) receives how many arrived in this call.  MADs that
 * are not a Trap(Notice) are dropped uncounted.  Returns 0 once the
 * transport has nothing more, or the transport's error (IBP_EIO, ...),
 * with *got the traps counted before it. */
int ibp_sm_poll_traps(ibp_sm *sm, unsigned *got, ibp_error *err);
/* Traps received so far by number: 257, 259, or the total of all traps
 * for any other number (0 by convention). */
unsigned long ibp_sm_trap_count(const ibp_sm *sm, unsigned trap_number);

/* One Bad P_Key trap as received (Notice DataDetails, IBA 14.2.5.1,
 * traps 257 and 259) or as OpenSM logged it (monitor.h): what is not
 * known is 0 / false. */
struct ibp_sm_trap {
	uint16_t number;     /* 257 or 259 */
	uint16_t issuer_lid; /* the port that raised it (259: the switch) */
	bool lids_valid;     /* lid1, lid2 hold data */
	uint16_t lid1;	     /* the sender of the refused packet */
	uint16_t lid2;	     /* its destination */
	bool pkey_valid;
	uint16_t pkey;	 /* the packet's P_Key */
	uint8_t sw_port; /* 259: the switch port that filtered it (0: not
			    known) */
};
/* A Bad P_Key trap from its Notice (257 or 259; the caller checks the
 * TrapNumber): a 257's LID1, LID2 and P_Key; a 259's LID1 and LID2 when
 * DataValid says both hold data, its P_Key when DataValid says so, and
 * its PortNo.  Pure. */
void ibp_sm_trap_from_notice(const struct ibp_notice *no,
			     struct ibp_sm_trap *out);
/* How many Bad P_Key traps the SM keeps. */
#define IBP_SM_TRAPS_KEPT 4096
/* The SM keeps the last IBP_SM_TRAPS_KEPT Bad P_Key traps it received
 * (older ones are dropped, still counted by ibp_sm_trap_count); take up
 * to max of them, oldest first, into out (they are no longer kept).
 * Returns how many. */
size_t ibp_sm_traps_take(ibp_sm *sm, struct ibp_sm_trap *out, size_t max);

IBP_END_DECLS
#endif
