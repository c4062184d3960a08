/*
 * sm.h - the subnet manager's partition work over an SMP transport:
 * discover the fabric by directed route, read every port's P_KeyTable,
 * write only the 32-entry blocks that differ from the desired tables
 * (SubnSet(P_KeyTable), IBA vol. 1, 14.2.5.7), read them back to confirm,
 * set PortInfo partition enforcement on switch leaf ports (10.9.4; OpenSM's
 * --part_enforce), and report what was sent.
 *
 * It talks to the fabric only through ibp_transport (transport.h), so it
 * runs the same over the built-in simulator and over libibumad.  Lost
 * MADs are retried here: the transport never retries.
 */
#ifndef IBPART_SM_H
#define IBPART_SM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/policy.h" /* ibp_part_enforce: OpenSM's part_enforce */
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

struct ibp_sm_options {
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
void ibp_sm_options_init(struct ibp_sm_options *o);

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
void ibp_sm_report_free(struct ibp_sm_report *r);
/* Human-readable report (what a fabric engineer reads). */
void ibp_sm_report_print(const struct ibp_sm_report *r, FILE *out);

typedef struct ibp_sm ibp_sm;

/* The SM on transport t (not owned). o may be NULL for the defaults. */
int ibp_sm_new(ibp_transport *t, const struct ibp_sm_options *o, ibp_sm **out,
	       ibp_error *err);
void ibp_sm_free(ibp_sm *sm);
/* Change the options for the next operations (e.g. a re-push with
 * another --part-enforce); counters and the discovered fabric stay. */
void ibp_sm_set_options(ibp_sm *sm, const struct ibp_sm_options *o);

/* Breadth-first directed-route discovery from the local port: NodeInfo,
 * NodeDescription, SwitchInfo and PortInfo of every node.  Fails with
 * IBP_ETIMEDOUT when a node stops answering after the retries. */
int ibp_sm_discover(ibp_sm *sm, ibp_error *err);
/* The discovered fabric (NULL before discovery); node order is BFS
 * order.  Owned by sm. */
const ibp_fabric *ibp_sm_fabric(const ibp_sm *sm);
/* SMPs sent so far (all operations), timeouts, retries. */
void ibp_sm_counters(const ibp_sm *sm, unsigned long *smps,
		     unsigned long *timeouts, unsigned long *retries);

/* The port of the master SM: the local port's PortInfo MasterSMLID (by
 * directed route, IBA 14.2.5.6), then a LID-routed SubnGet(NodeInfo) to
 * that LID, whose PortGUID is the SM's port (14.2.5.3); *running (may be
 * NULL) says whether that port's PortInfo CapabilityMask still has IsSM
 * (an SM that exited leaves MasterSMLID behind).  IBP_ENOENT when
 * MasterSMLID is 0; IBP_ETIMEDOUT when the LID does not answer. */
int ibp_sm_master_sm_port(ibp_sm *sm, uint64_t *port_guid, bool *running,
			  ibp_error *err);

/* Read every P_KeyTable (CA ports, switch port 0, switch external ports
 * with an enforcement capacity) into a set keyed by the discovered
 * fabric. */
int ibp_sm_read_tables(ibp_sm *sm, ibp_tables **out, ibp_error *err);

/* Make the fabric hold `want`.  want may be keyed by any fabric model of
 * the same subnet (the topology file's, or ibp_sm_fabric()): ports are
 * matched by node GUID and port number.  Discovers first if needed.
 * Returns 0 when every port holds its table (rep->complete); on a
 * failure the report says which ports were already changed and where it
 * stopped.  rep must be freed with ibp_sm_report_free(). */
int ibp_sm_push(ibp_sm *sm, const ibp_tables *want, struct ibp_sm_report *rep,
		ibp_error *err);

/* Drain the traps waiting on the transport (Notice MADs) and count them.
 * *got (may be NULL) receives how many arrived in this call. */
int ibp_sm_poll_traps(ibp_sm *sm, unsigned *got, ibp_error *err);
/* Traps received so far by number (257, 259; 0 = all). */
unsigned long ibp_sm_trap_count(const ibp_sm *sm, unsigned trap_number);

IBP_END_DECLS
#endif
