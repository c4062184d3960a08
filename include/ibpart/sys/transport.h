/*
 * Module wire (src/wire/), its transport half (the SMP format is
 * mad.h): the interface the SM talks through, one SMP, a LID-routed SMP
 * or a pipelined batch, with counters (transport.c), and its two
 * implementations, transport_sim.h/.c (simulated SMAs answering from the
 * sim module's port state) and transport_umad.h/.c (libibumad: ibsim via
 * libumad2sim, or a real HCA).  Depends on mad.h, util, sim (transport_sim
 * only) and libibumad.
 *
 * transport.h - the SMP transport: the one interface between the SM logic
 * (discovery, read-back, push) and whatever carries its MADs.
 *
 * A transport sends one encoded 256-byte MAD (network byte order, as on
 * the wire) and returns the response it received, or times out.  It does
 * not retry: retries and their policy belong to the caller (sm).  Two
 * implementations: the built-in simulated fabric (transport_sim, whose
 * SMAs answer like real ones) and libibumad (transport_umad: ibsim through
 * libumad2sim, or a real HCA).  Because both take and give real MAD bytes,
 * SM code proven on one runs unchanged on the other.
 *
 * Threads: no global state.  A transport (its counters and, for umad,
 * its file descriptor and the responses in flight) is used by one thread
 * at a time; ibp_transport_name and ibp_transport_stats only read it.
 */
#ifndef IBPART_TRANSPORT_H
#define IBPART_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_MAD_SIZE 256u

/* One SMP of a batch (ibp_transport_smp_batch): req in, resp and rc out
 * (IBP_OK, IBP_ETIMEDOUT, or another error for this SMP alone).  dlid 0
 * for a directed-route SMP, else the destination of a LID-routed one. */
struct ibp_smp_xfer {
	const uint8_t *req;
	uint8_t *resp;
	uint16_t dlid;
	int rc;
};

struct ibp_transport_ops {
	const char *name; /* "sim", "umad" */
	/* Send req, wait up to timeout_ms for the response with the same
	 * TID, copy it to resp.  IBP_ETIMEDOUT when none came. */
	int (*smp)(void *ctx, const uint8_t req[IBP_MAD_SIZE],
		   uint8_t resp[IBP_MAD_SIZE], int timeout_ms, ibp_error *err);
	/* Receive an unsolicited MAD (a Trap sent to the SM), waiting up to
	 * timeout_ms; IBP_ETIMEDOUT when none.  May be NULL. */
	int (*recv)(void *ctx, uint8_t buf[IBP_MAD_SIZE], int timeout_ms,
		    ibp_error *err);
	void (*close)(void *ctx);
	/* Send a LID-routed SMP (class 0x01) to dlid: the 256-byte MAD
	 * carries no destination LID (it is in the LRH, which umad takes
	 * from its address header).  May be NULL: then only directed-route
	 * SMPs go through smp(). */
	int (*smp_lid)(void *ctx, uint16_t dlid,
		       const uint8_t req[IBP_MAD_SIZE],
		       uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
		       ibp_error *err);
	/* Send the n SMPs of x with up to `window` of them outstanding at a
	 * time (OpenSM's max_wire_smps), each waiting up to timeout_ms for
	 * the response with its TID; fill each x[i].rc.  The return value
	 * is an error that stops the whole batch (the port failed), else
	 * IBP_OK.  May be NULL: the SMPs then go one by one through smp()
	 * and smp_lid(). */
	int (*smp_batch)(void *ctx, struct ibp_smp_xfer *x, size_t n,
			 unsigned window, int timeout_ms, ibp_error *err);
	/* Send one MAD to dlid and wait for nothing: a response to an
	 * unsolicited request (an SA Report's ReportResponse).  May be
	 * NULL: then nothing can be sent that way. */
	int (*send)(void *ctx, uint16_t dlid, const uint8_t mad[IBP_MAD_SIZE],
		    ibp_error *err);
};

typedef struct ibp_transport ibp_transport;

struct ibp_transport_stats {
	unsigned long sent;	/* SMPs sent */
	unsigned long answered; /* responses received */
	unsigned long timeouts; /* sends that got no response */
};

/* Wrap an implementation.  On success the transport owns ctx (close
 * calls ops->close(ctx)); ops is borrowed and must outlive it (normally
 * a static table).  NULL when out of memory: ctx then stays the
 * caller's. */
ibp_transport *ibp_transport_new(const struct ibp_transport_ops *ops,
				 void *ctx);
/* One SMP through ops->smp: req and resp are the caller's 256-byte
 * buffers, resp filled only on IBP_OK.  Returns the implementation's
 * code: IBP_ETIMEDOUT when no response came, IBP_EIO when the transport
 * itself failed, IBP_EINVAL for a request it cannot send.  Counts one
 * sent, and answered or timed out. */
int ibp_transport_smp(ibp_transport *t, const uint8_t req[IBP_MAD_SIZE],
		      uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
		      ibp_error *err);
/* A LID-routed SMP to dlid; IBP_EINVAL when the transport has no
 * smp_lid. Counted like ibp_transport_smp(). */
int ibp_transport_smp_lid(ibp_transport *t, uint16_t dlid,
			  const uint8_t req[IBP_MAD_SIZE],
			  uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
			  ibp_error *err);
/* Several SMPs, up to `window` (>= 1) outstanding at once where the
 * transport can pipeline them (umad), one by one where it cannot.  Each
 * x[i].rc says how that SMP went (IBP_ENOENT: never sent, the batch
 * stopped on a port failure, which is returned); no retries (the
 * caller's).  Counted like ibp_transport_smp(). */
int ibp_transport_smp_batch(ibp_transport *t, struct ibp_smp_xfer *x, size_t n,
			    unsigned window, int timeout_ms, ibp_error *err);
/* Receive an unsolicited MAD (a trap) into buf, waiting up to timeout_ms
 * (0: only what is already there).  IBP_ETIMEDOUT when none came, also
 * always for a transport without ops->recv; IBP_EIO for a failure.  Not
 * counted in the stats. */
int ibp_transport_recv(ibp_transport *t, uint8_t buf[IBP_MAD_SIZE],
		       int timeout_ms, ibp_error *err);
/* Send mad to dlid through ops->send, waiting for no answer (a
 * response to a request received with ibp_transport_recv).  IBP_EINVAL
 * for a transport without ops->send or a MAD it cannot send, IBP_EIO
 * when the port failed.  Not counted in the stats. */
int ibp_transport_send(ibp_transport *t, uint16_t dlid,
		       const uint8_t mad[IBP_MAD_SIZE], ibp_error *err);
/* Whether t has ops->send: it can answer an unsolicited request (a
 * subscriber the SA's Reports).  Only reads t. */
bool ibp_transport_can_send(const ibp_transport *t);
/* ops->name ("sim", "umad"), borrowed from the ops table. */
const char *ibp_transport_name(const ibp_transport *t);
/* The counters so far into *out.  Cannot fail. */
void ibp_transport_stats(const ibp_transport *t,
			 struct ibp_transport_stats *out);
/* Close the implementation (ops->close(ctx)) and free t; NULL is
 * allowed.  Handles obtained from it (ibp_umad) die with it. */
void ibp_transport_close(ibp_transport *t);

IBP_END_DECLS
#endif
