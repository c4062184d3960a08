/*
 * Module sim (src/sim/): the simulated fabric.  sim.c holds its port
 * state (P_KeyTables, PortInfo, counters, the trap queue, the GUIDs
 * NodeInfo reports where a test makes them wrong; GUIDInfo and
 * the VFs a host registers in it: sim_guid_info.c) and its data
 * plane (packets with a BTH P_Key, HCA and switch checks); its SMAs and
 * PMAs are transport_sim.c and transport_sim_pma.c (transport_sim.h),
 * its SA's GUIDInfoRecord transport_sim_sa.c,
 * which read and write this state; sim_session*.c bring a fabric up
 * from a topology and a plan and replay the seed's commands
 * (sim_session.h); `ibpart demo`'s walkthrough on such sessions is
 * the front ends' (front/sim_demo.h).  Unstable API
 * (include/ibpart/sys/).  Depends on wire, sm (a session's SM), policy,
 * conf, topo, pkey and util.
 *
 * sim.h - the simulated fabric: the state every port of an ibp_fabric
 * holds (its P_KeyTable, the PortInfo fields the SM and the enforcement
 * read and write, violation counters) and the data plane that enforces
 * P_Keys packet by packet (IBA vol. 1, 10.9).
 *
 * The management plane (SMAs answering SMPs) is transport_sim.h; it reads
 * and writes the state kept here, so what the SM pushes over SMPs is what
 * the data plane enforces.  The data plane:
 *  - a packet carries the BTH P_Key the sender's HCA takes from its own
 *    P_KeyTable at the QP's P_Key index (10.9.2), and a destination QP;
 *  - it follows a shortest path through the switches (one fixed choice
 *    among equal ones, from a breadth-first search from the destination:
 *    a stand-in for the SM's routing, which the P_Key rules do not depend
 *    on);
 *  - a switch external port with PortInfo PartitionEnforcementInbound
 *    (Outbound) set checks packets entering (leaving) through it against
 *    its own P_KeyTable by partition (the membership bit ignored: the
 *    port is no member); a failure drops the packet, counts
 *    PortRcvConstraintErrors (PortXmitConstraintErrors) and raises Trap
 *    259 (10.9.4, 14.2.5.1);
 *  - the receiving end port checks every packet except those to QP0
 *    (10.9.3): no matching entry drops it, counts PortInfo
 *    P_KeyViolations and raises Trap 257.
 * Every check is the IBA match rule (pkey.h) against a hashed table: O(1) in
 * the table size.
 *
 * Traps queue here until the SM's transport receives them (as Notice
 * MADs through ibp_transport_recv()).  The queue is bounded; traps past
 * the bound are counted as lost, as a real port's trap rate limit would.
 *
 * Threads: no global state.  A sim is used by one thread at a time,
 * together with the transport_sim over it: sending a packet changes
 * counters, the trap queue and a cached route.  The const getters only
 * read, and may run concurrently with each other but not with a send or
 * an SMP.
 */
#ifndef IBPART_SIM_H
#define IBPART_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_sim ibp_sim;

/* PortInfo PortState values (IBA 14.2.5.6).  A linked port starts
 * Active; a SubnSet(PortInfo) moves it along the state machine (Down,
 * then Initialize as the link retrains; Armed from Initialize; Active
 * from Armed). */
#define IBP_SIM_PORT_DOWN   1u
#define IBP_SIM_PORT_INIT   2u
#define IBP_SIM_PORT_ARMED  3u
#define IBP_SIM_PORT_ACTIVE 4u

/* The PortInfo fields a simulated port keeps (IBA 14.2.5.6).  Plain data
 * that the SMA reads and writes; the violation counters saturate at
 * 0xffff as the 16-bit PortInfo fields do. */
struct ibp_sim_port_info {
	uint64_t m_key;
	uint16_t m_key_lease_period;
	uint8_t m_key_protect_bits; /* 0..3, 14.2.4.1 */
	uint16_t lid;
	uint8_t lmc;
	uint16_t master_sm_lid;
	uint8_t master_sm_sl;
	uint32_t capability_mask;
	uint8_t port_state; /* IBP_SIM_PORT_* */
	bool part_enforce_in;
	bool part_enforce_out;
	uint16_t m_key_violations;
	uint16_t p_key_violations;
	uint16_t q_key_violations;
};

/* What the data plane counts per port beyond PortInfo (PortCounters,
 * IBA 16.1.3.5).  The PMA (transport_sim's PerfMgt agent) shows both
 * forms: the 64-bit counts in PortCountersExtended (cleared by a Set of
 * it) and the 8-bit PortCounters registers, which stop at 255 ("all
 * ones", 16.1.3.5); one counter behind both, so a Set of either
 * attribute clears both forms. */
struct ibp_sim_port_counters {
	uint64_t rcv_constraint_errors;	 /* PortRcvConstraintErrors */
	uint64_t xmit_constraint_errors; /* PortXmitConstraintErrors */
	uint64_t rcv_packets;
	uint64_t xmit_packets;
	uint8_t pc_rcv_constraint_errors;  /* PortCounters: saturating */
	uint8_t pc_xmit_constraint_errors; /* PortCounters: saturating */
};

/* A new simulated fabric over f (which must outlive it).  Every port
 * starts as ibsim starts it: P_KeyTable entry 0 = 0xffff, the rest empty;
 * linked ports (and every switch's port 0) Active; LIDs taken from
 * ibp_fabric_port_lid() (call ibp_fabric_assign_lids() first); no
 * M_Key; no partition enforcement.  The SM port, where traps go, is the
 * fabric's default SM port until ibp_sim_set_sm_port(). */
int ibp_sim_new(const ibp_fabric *f, ibp_sim **out, ibp_error *err);
void ibp_sim_free(ibp_sim *s);
const ibp_fabric *ibp_sim_fabric(const ibp_sim *s);
/* Whether switch SMAs implement the PortInfo PartitionEnforcementInbound/
 * Outbound bits (default true).  false models ibsim's switches: SwitchInfo
 * reports neither Inbound- nor OutboundEnforcementCap (IBA 14.2.5.4) and
 * a PortInfo Set leaves the bits 0. */
void ibp_sim_set_enforcement_bits(ibp_sim *s, bool implemented);
bool ibp_sim_enforcement_bits(const ibp_sim *s);

/* The P_KeyTables the ports hold (live: the SMA writes them). */
ibp_tables *ibp_sim_tables(ibp_sim *s);
/* The NodeGUID node's NodeInfo reports, and the PortGUID that of
 * (node, port) reports (a switch's: port 0's, whichever port is asked),
 * instead of the fabric's (IBA vol. 1, 14.2.5.3).  0 models firmware
 * whose GUIDs were never burnt in, a fault discovery leaves out as OpenSM
 * does (ibp_sm_discovery_findings).  Only NodeInfo says it: the fabric,
 * GUIDInfo entry 0 and the data plane keep the fabric's GUIDs.
 * IBP_ERANGE for a node or port the fabric does not have (a CA's
 * port 0). */
int ibp_sim_set_node_info_node_guid(ibp_sim *s, size_t node, uint64_t guid,
				    ibp_error *err);
int ibp_sim_set_node_info_port_guid(ibp_sim *s, size_t node, unsigned port,
				    uint64_t guid, ibp_error *err);
/* What NodeInfo reports: the GUID set above, else the fabric's (0 for a
 * node or port that does not exist). */
uint64_t ibp_sim_node_info_node_guid(const ibp_sim *s, size_t node);
uint64_t ibp_sim_node_info_port_guid(const ibp_sim *s, size_t node,
				     unsigned port);

/* The PortInfo state of (node, port); NULL for a port that does not
 * exist.  After changing a LID, call ibp_sim_lids_changed(). */
struct ibp_sim_port_info *ibp_sim_port_info(ibp_sim *s, size_t node,
					    unsigned port);
const struct ibp_sim_port_counters *
ibp_sim_port_counters(const ibp_sim *s, size_t node, unsigned port);
/* The same, writable: what a PMA's Set clears (transport_sim). */
struct ibp_sim_port_counters *ibp_sim_port_counters_mut(ibp_sim *s, size_t node,
							unsigned port);
/* Whether the PMAs report the 64-bit error counters of
 * PortCountersExtended (ClassPortInfo CapabilityMask2 bit 1; default
 * true).  false models ibsim's PMAs: only the 8-bit, saturating
 * PortCounters carry the constraint errors. */
void ibp_sim_set_pma_ext_errors(ibp_sim *s, bool supported);
bool ibp_sim_pma_ext_errors(const ibp_sim *s);
void ibp_sim_lids_changed(ibp_sim *s);
/* The end port that answers a LID (a switch answers on port 0). */
int ibp_sim_find_lid(const ibp_sim *s, uint16_t lid, size_t *node,
		     unsigned *port);

/* Where traps are sent (also every port's PortInfo MasterSMLID). */
int ibp_sim_set_sm_port(ibp_sim *s, size_t node, unsigned port, ibp_error *err);
void ibp_sim_sm_port(const ibp_sim *s, size_t *node, unsigned *port);

/* ---- data plane ---- */

#define IBP_QP0 0u /* SMI: not P_Key checked */
#define IBP_QP1 1u /* GSI: checked */

struct ibp_sim_packet {
	size_t src_node;
	unsigned src_port;
	size_t dst_node;
	unsigned dst_port;
	uint16_t pkey_index; /* into the sender's P_KeyTable */
	/* 0: the port itself; n: the port's VF n (alias GUID index n), whose
	 * pkey_index goes through the host's mapping onto the port's table
	 * (ibp_sim_set_vf_pkey_map): VFs share their port's table. */
	uint16_t src_vf;
	/* 0: the destination port itself; n: its VF n, whose QP matches the
	 * packet's P_Key against the VF's mapped entries only. */
	uint16_t dst_vf;
	uint32_t src_qp;
	uint32_t dest_qp; /* BTH DestQP */
	uint8_t sl;
};

typedef enum ibp_sim_verdict {
	IBP_SIM_DELIVERED = 0,
	IBP_SIM_DROP_SEND_PKEY,	 /* P_Key index empty or invalid at sender */
	IBP_SIM_DROP_NO_ROUTE,	 /* no path to the destination */
	IBP_SIM_DROP_SWITCH_IN,	 /* switch inbound enforcement */
	IBP_SIM_DROP_SWITCH_OUT, /* switch outbound enforcement */
	IBP_SIM_DROP_RECV_PKEY	 /* receiving end port's P_Key check */
} ibp_sim_verdict;

struct ibp_sim_result {
	ibp_sim_verdict verdict;
	uint16_t pkey;	  /* the BTH P_Key the packet carried */
	unsigned hops;	  /* links crossed (to the drop point) */
	size_t drop_node; /* where it was dropped (when not delivered) */
	unsigned drop_port;
	int match_index; /* receiver's matching entry when delivered, or -1 */
};

/* Send one packet through the data plane.  Returns 0 whatever the
 * verdict (drops are results, not errors); IBP_ERANGE/IBP_EINVAL for
 * ports that do not exist or are not end ports. */
int ibp_sim_send(ibp_sim *s, const struct ibp_sim_packet *p,
		 struct ibp_sim_result *r, ibp_error *err);
const char *ibp_sim_verdict_str(ibp_sim_verdict v);

/* ---- traps (IBA 14.2.5.1, Notice) ---- */

#define IBP_SIM_TRAP_257       257u /* end port P_Key violation */
#define IBP_SIM_TRAP_259       259u /* switch external port */
#define IBP_SIM_TRAP_QUEUE_MAX 4096u

struct ibp_sim_trap {
	uint16_t trap_number; /* 257 or 259 */
	uint16_t issuer_lid;  /* LID of the port that raised it */
	uint16_t lid1;	      /* source LID of the offending packet */
	uint16_t lid2;	      /* destination LID */
	uint16_t pkey;	      /* the packet's P_Key */
	uint8_t sl;
	uint32_t qp1;	 /* source QP */
	uint32_t qp2;	 /* destination QP */
	uint16_t sw_lid; /* 259: the switch's LID */
	uint8_t sw_port; /* 259: the external port that dropped it */
	uint64_t issuer_guid;
};

/* Take the oldest queued trap; IBP_ENOENT when none. */
int ibp_sim_trap_pop(ibp_sim *s, struct ibp_sim_trap *out);
size_t ibp_sim_trap_pending(const ibp_sim *s);
/* Traps raised so far (by number; 0 = all) and lost to a full queue. */
unsigned long ibp_sim_traps_raised(const ibp_sim *s, unsigned trap_number);
unsigned long ibp_sim_traps_lost(const ibp_sim *s);

/* ---- GUIDInfo and virtual functions (IBA 14.2.5.5; sim_guid_info.c) ----
 *
 * Every end port (and every switch's port 0) has a GUIDInfo table of
 * GUIDCap entries, 8 to a block: entry 0 is the port GUID, read-only;
 * entries 1.. are alias GUIDs (0 = empty).  GUIDCap starts at 1 (the port
 * GUID only, as ibsim's SMAs answer).  A host presenting SR-IOV virtual
 * functions the ConnectX-3 (mlx4) way registers VF n's GUID at index n
 * and maps the VF's P_KeyTable onto indexes of the physical port's table
 * (so a VF can only use P_Keys the physical table holds). */

#define IBP_SIM_GUID_CAP_MAX 128u /* 16 blocks of 8 */
#define IBP_SIM_VF_PKEYS     16u  /* entries of a VF's P_KeyTable */

/* The GUIDCap of (node, port) (a switch's port 0 for any of its ports);
 * 0 for a port that does not exist. */
unsigned ibp_sim_guid_cap(const ibp_sim *s, size_t node, unsigned port);
/* Set GUIDCap (1..IBP_SIM_GUID_CAP_MAX); entries below it are kept, the
 * VFs' P_Key mappings dropped. */
int ibp_sim_set_guid_cap(ibp_sim *s, size_t node, unsigned port, unsigned cap,
			 ibp_error *err);
/* GUIDInfo entry index of (node, port): the port GUID at 0; 0 for an
 * empty entry or one past GUIDCap. */
uint64_t ibp_sim_guid(const ibp_sim *s, size_t node, unsigned port,
		      unsigned index);
/* A host registers (or, with guid 0, removes) the alias GUID at index
 * 1..GUIDCap-1: what its driver asks the SM for through the SA. */
int ibp_sim_set_alias_guid(ibp_sim *s, size_t node, unsigned port,
			   unsigned index, uint64_t guid, ibp_error *err);
/* The port and index holding alias GUID guid; IBP_ENOENT when none. */
int ibp_sim_find_alias_guid(const ibp_sim *s, uint64_t guid, size_t *node,
			    unsigned *port, unsigned *index);
/* VF vf's P_KeyTable (the hypervisor's pkey_idx mapping): its entry i
 * is the physical port's entry phys_index[i], for i < n; the rest empty. */
int ibp_sim_set_vf_pkey_map(ibp_sim *s, size_t node, unsigned port, unsigned vf,
			    const uint16_t *phys_index, unsigned n,
			    ibp_error *err);
/* The physical port's index behind VF vf's entry vf_index; IBP_ENOENT
 * when the VF has no such entry. */
int ibp_sim_vf_pkey_index(const ibp_sim *s, size_t node, unsigned port,
			  unsigned vf, unsigned vf_index, uint16_t *phys_index);
/* The first entry of VF vf's P_KeyTable (through the mapping) that
 * matches pkey by the IBA rule (10.9.3), as the receiving QP checks it;
 * -1 when none does or the VF has no mapping. */
int ibp_sim_vf_pkey_match(const ibp_sim *s, size_t node, unsigned port,
			  unsigned vf, uint16_t pkey);

IBP_END_DECLS
#endif
