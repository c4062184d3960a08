/*
 * transport_umad.h - the SMP transport over libibumad: the same SM code
 * that runs on the built-in simulated fabric talks, through this, to a
 * real HCA port or to ibsim (programs run under LD_PRELOAD=libumad2sim.so
 * with SIM_HOST naming the CA to act as).
 *
 * The port is chosen as infiniband-diags choose it (-C CA -P PORT; no CA
 * means the first CA, port 0 means the first active port, else the first
 * with its physical link up - libibumad's umad_get_port rule).  The
 * transport registers one agent for each SMP class, LID-routed (0x01) and
 * directed-route (0x81) (IBA vol. 1, 14.2.1), sends one MAD, waits for the
 * response with the same transaction ID and returns it; it does not retry
 * (the caller does).  It also registers a PerfMgt agent (class 0x04):
 * a LID-routed batch entry of that class is sent as a GMP to QP1 with
 * the Q_Key 0x80010000 and the P_Key of gmp_pkey_index (IBA 16.1.1).
 * Directed-route SMPs go to the permissive LID 0xFFFF
 * (IBA 14.2.2: a DR SMP that starts at the requester); LID-routed SMPs go
 * to the destination LID given to ibp_transport_smp_lid() (or
 * ibp_umad_smp_lid()), which umad puts in the LRH.
 *
 * An M_Key (IBA 14.2.4) given in the options is stamped into the M_Key
 * field of every SMP sent, so a fabric protected by M_Key can be read and
 * programmed by the holder of the key.
 *
 * Threads: no global state in ibpart (libibumad's own initialisation
 * aside).  One opened port, with its transport, is used by one thread at
 * a time; ibp_umad_port_info_get only reads it.
 */
#ifndef IBPART_TRANSPORT_UMAD_H
#define IBPART_TRANSPORT_UMAD_H

#include <stdbool.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_umad_options {
	const char *ca;	 /* CA name (-C); NULL: libibumad's default CA */
	int port;	 /* port number (-P); 0: the first active port */
	uint64_t mkey;	 /* M_Key for every SMP sent; 0: leave the SMP's */
	bool want_traps; /* also ask for unsolicited Trap/TrapRepress MADs */
} ibp_umad_options;

/* What the opened port is (from libibumad's view of sysfs). */
typedef struct ibp_umad_port_info {
	char ca_name[32];
	int port;
	uint16_t lid;	 /* base LID; 0 when no SM has assigned one */
	uint16_t sm_lid; /* MasterSMLID; 0 when none */
	unsigned state;	 /* PortState: 1 down, 2 init, 3 armed, 4 active */
	unsigned phys_state;
	uint64_t port_guid; /* host byte order */
	bool traps;	    /* an agent for unsolicited MADs got registered */
	/* GMPs (PerfMgt, class 0x04, on QP1) leave with the P_Key at this
	 * index of the port's table: 0xffff's, else 0x7fff's, else 0;
	 * gmp_pkey is the key found there (from sysfs when opened). */
	uint16_t gmp_pkey_index;
	uint16_t gmp_pkey;
} ibp_umad_port_info;

typedef struct ibp_umad ibp_umad;

/* Every field 0/NULL/false: the default CA, its first active port, no
 * M_Key, no traps.  Cannot fail. */
void ibp_umad_options_init(ibp_umad_options *o);

/* Open the port and register the SMP agents.  On success *out is a
 * transport that owns the port (ibp_transport_close releases it) and, when
 * umad_out is not NULL, *umad_out the port handle for the calls below,
 * valid until the transport is closed (it is borrowed: do not free it).
 * o may be NULL (defaults; o->ca is only read during the call).  IBP_EIO
 * when the port cannot be opened (no CA, no umad device, permission) or
 * an agent cannot be registered, IBP_ENOMEM; *out (and *umad_out) are
 * NULL on error, and nothing stays open. */
int ibp_transport_umad_open(const ibp_umad_options *o, ibp_transport **out,
			    ibp_umad **umad_out, ibp_error *err);

/* What the port was when it was opened (not refreshed later) into *out.
 * Cannot fail. */
void ibp_umad_port_info_get(const ibp_umad *u, ibp_umad_port_info *out);

/* Send a LID-routed SMP (class 0x01) to dlid and wait for its response
 * (no retry).  IBP_EINVAL when req is not a LID-routed SMP or dlid is not
 * a unicast LID (0, or 0xc000 and above); IBP_ETIMEDOUT, IBP_EIO as
 * ibp_transport_smp().  Not counted in the transport's stats (use
 * ibp_transport_smp_lid() for that). */
int ibp_umad_smp_lid(ibp_umad *u, uint16_t dlid,
		     const uint8_t req[IBP_MAD_SIZE],
		     uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
		     ibp_error *err);

IBP_END_DECLS
#endif
