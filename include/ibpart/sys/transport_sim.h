/*
 * transport_sim.h - the SMP transport over the built-in simulated fabric:
 * every node of an ibp_sim answers SMPs as a real subnet management agent
 * does (IBA vol. 1, 14.2): NodeDescription, NodeInfo, SwitchInfo,
 * PortInfo and P_KeyTable Get/Set, the MAD status a real SMA returns for a
 * bad attribute, method, port or block, a PortInfo Set refused with
 * status 7 when its PortState is no allowed transition or its
 * PortPhysicalState or LinkDownDefaultState no value a Set may carry
 * (14.2.5.6), M_Key checking by the protect bits (14.2.4), and directed
 * routes walked hop by hop over the fabric's
 * links with the return path recorded (14.2.2).  Requests and responses
 * are the encoded 256-byte MADs of mad.h, so the SM code that drives this
 * transport drives libibumad unchanged.
 *
 * Fault injection: a transport can lose a fraction of the MADs it carries
 * (requests and responses independently, from a seeded generator, so a
 * run is reproducible), which is how the SM's retries are tested.
 *
 * Threads: the transport changes the sim it serves (Sets, M_Key
 * counters, traps), so the transport and its sim are used by one thread
 * at a time, together.
 */
#ifndef IBPART_TRANSPORT_SIM_H
#define IBPART_TRANSPORT_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/sys/sim.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

struct ibp_transport_sim_opts {
	double drop_rate; /* 0..1: chance each request or response is lost */
	uint64_t seed;	  /* for the loss generator (0 picks a fixed one) */
};

/* A transport whose SMPs leave from (node, port) of sim (the SM's port;
 * sim is borrowed, not owned, and must outlive the transport), into
 * *out, the caller's to close with ibp_transport_close().  opts (copied)
 * may be NULL (no loss).  Traps the data plane raises are delivered by
 * ibp_transport_recv() as LID-routed SubnTrap(Notice) MADs.  IBP_EINVAL
 * when (node, port) is not an end port of the sim's fabric, IBP_ENOMEM;
 * *out is NULL on error. */
int ibp_transport_sim_new(ibp_sim *sim, size_t node, unsigned port,
			  const struct ibp_transport_sim_opts *opts,
			  ibp_transport **out, ibp_error *err);

/* The SMA side on its own: deliver one SMP sent from (node, port) and
 * build the response.  A directed-route SMP follows its InitialPath; a
 * LID-routed one goes to dlid (the LRH's DLID, which the 256-byte MAD
 * does not carry).  IBP_ETIMEDOUT when the SMP is discarded on the way or
 * by the SMA (a broken path, an M_Key check that fails) - a requester
 * sees no response; IBP_EINVAL for a MAD that is not an SMP request.  An
 * SMA's error is not a failure: it is IBP_OK with the MAD status set in
 * resp.  May change sim (a Set). */
int ibp_sim_sma_process(ibp_sim *sim, size_t node, unsigned port, uint16_t dlid,
			const uint8_t req[IBP_MAD_SIZE],
			uint8_t resp[IBP_MAD_SIZE], ibp_error *err);

/* The PMA side (transport_sim_pma.c): deliver one PerfMgt GMP (class
 * 0x04) sent from (node, port) to the end port with LID dlid across the
 * data plane on QP1, with the P_Key at ibp_sim_gmp_pkey_index() (so it
 * is P_Key checked, and counted, as any packet: IBA 10.9.3), and build
 * the PMA's response: ClassPortInfo, PortCounters and
 * PortCountersExtended (Get; Set clears the counters CounterSelect /
 * CounterSelect2 name), others answered with an unsupported status.
 * IBP_ETIMEDOUT when the GMP is dropped (no such LID, a P_Key check
 * failed); IBP_EINVAL for a MAD that is not a PerfMgt request.  Changes
 * sim (packet counters, a Set, a violation). */
int ibp_sim_pma_process(ibp_sim *sim, size_t node, unsigned port, uint16_t dlid,
			const uint8_t req[IBP_MAD_SIZE],
			uint8_t resp[IBP_MAD_SIZE], ibp_error *err);
/* The SA side (transport_sim_sa.c): deliver one SA GMP (class 0x03) sent
 * from (node, port) to LID dlid as the PMA's are, answered by the SA at
 * the SM's port (ibp_sim_sm_port): GUIDInfoRecord (IBA 15.2.5.18)
 * SubnAdmGet and GetTable from the SMAs' GUIDInfo tables (a GetTable
 * with the records one MAD holds: no RMPP), SubnAdmSet registering alias
 * GUIDs in them (what an mlx4 host's VF driver asks the SM); other
 * attributes and methods answered with an unsupported status.
 * IBP_ETIMEDOUT when the GMP is dropped or dlid is not the SM's port;
 * IBP_EINVAL for a MAD that is not an SA request.  May change sim. */
int ibp_sim_sa_process(ibp_sim *sim, size_t node, unsigned port, uint16_t dlid,
		       const uint8_t req[IBP_MAD_SIZE],
		       uint8_t resp[IBP_MAD_SIZE], ibp_error *err);
/* The P_KeyTable index GMPs from (node, port) carry: that of 0xffff (the
 * default partition, full member), else of 0x7fff, else 0. */
unsigned ibp_sim_gmp_pkey_index(ibp_sim *sim, size_t node, unsigned port);

IBP_END_DECLS
#endif
