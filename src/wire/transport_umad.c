/*
 * transport_umad.c - the SMP transport over libibumad (see
 * include/ibpart/sys/transport_umad.h): port selection and agent registration
 * by libibumad, header fields read and written with libibmad's field
 * table, and the one thing neither library does for raw MADs: wait for
 * the response whose transaction ID matches, set aside unsolicited traps,
 * and drop stale responses to earlier (timed-out) requests.
 *
 * The MAD layer owns the upper 32 bits of the TID (the kernel puts its
 * agent's hi_tid there, libumad2sim the agent id), so a response is
 * matched on the low 32 bits, and the caller gets its own TID back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include "ibpart/sys/transport_umad.h"

#define SMP_CLASS_LID	 0x01
#define SMP_CLASS_DR	 0x81
#define PERF_CLASS	 0x04 /* PerfMgt GMPs (IBA 16.1), on QP1 */
#define SA_CLASS	 0x03 /* SA GMPs (IBA 15.2), on QP1 */
#define SA_VERSION	 2
#define METHOD_REPORT	 0x06 /* SubnAdmReport (15.2.2.1) */
#define QP1_QKEY	 0x80010000u
#define METHOD_TRAP	 0x05
#define METHOD_RESP_BIT	 0x80
#define PERMISSIVE_LID	 0xffff
#define TRAP_QUEUE_SLOTS 32

struct ibp_umad {
	int fd;
	int agent_lid;	/* agent for class 0x01 */
	int agent_dr;	/* agent for class 0x81 */
	int agent_perf; /* agent for class 0x04 (-1: none registered) */
	int agent_sa;	/* agent for class 0x03, with Report (-1: none) */
	uint64_t mkey;
	ibp_umad_port_info info;
	size_t umad_len; /* umad_size() + 256: each buffer's size */
	void *sbuf;
	void *rbuf;
	/* Unsolicited MADs that arrived while we waited for a response. */
	uint8_t traps[TRAP_QUEUE_SLOTS][IBP_MAD_SIZE];
	unsigned trap_head, trap_count;
	unsigned long traps_dropped;
};

void ibp_umad_options_init(ibp_umad_options *o)
{
	memset(o, 0, sizeof(*o));
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint8_t mad_class(const uint8_t *mad)
{
	return mad[1];
}

static uint8_t mad_method(const uint8_t *mad)
{
	return mad[3];
}

static uint32_t tid_low(const uint8_t *mad)
{
	return (uint32_t)(mad_get_field64((void *)mad, 0, IB_MAD_TRID_F) &
			  0xffffffffu);
}

static void queue_trap(ibp_umad *u, const uint8_t *mad)
{
	if (u->trap_count == TRAP_QUEUE_SLOTS) {
		u->traps_dropped++;
		return;
	}
	unsigned slot = (u->trap_head + u->trap_count) % TRAP_QUEUE_SLOTS;
	memcpy(u->traps[slot], mad, IBP_MAD_SIZE);
	u->trap_count++;
}

/* Is mad a response to an SMP?  Unsolicited SMPs (a Trap to us as SM,
 * or something we do not serve) are not; traps are kept for recv. */
static bool smp_response(ibp_umad *u, const uint8_t *mad)
{
	uint8_t cls = mad_class(mad);
	if (cls == PERF_CLASS)
		return (mad_method(mad) & METHOD_RESP_BIT) != 0;
	if (cls == SA_CLASS) {
		/* an SA Report (a trap forwarded to a subscriber) is kept
		 * for recv like a Trap */
		if (mad_method(mad) == METHOD_REPORT)
			queue_trap(u, mad);
		return (mad_method(mad) & METHOD_RESP_BIT) != 0;
	}
	if (cls != SMP_CLASS_LID && cls != SMP_CLASS_DR)
		return false;
	if (!(mad_method(mad) & METHOD_RESP_BIT)) {
		if (mad_method(mad) == METHOD_TRAP)
			queue_trap(u, mad);
		return false;
	}
	return true;
}

/* Receive one MAD into u->rbuf within the time left until deadline.
 * IBP_OK with *mad pointing at it, IBP_ETIMEDOUT, or IBP_EIO. */
static int recv_one(ibp_umad *u, long long deadline, uint8_t **mad, int *status,
		    ibp_error *err)
{
	for (;;) {
		long long left = deadline - now_ms();
		if (left < 0)
			left = 0;
		int len = IBP_MAD_SIZE;
		int rc = umad_recv(u->fd, u->rbuf, &len, (int)left);
		if (rc == -ETIMEDOUT)
			return IBP_ETIMEDOUT;
		if (rc == -EINTR || rc == -EAGAIN) {
			if (now_ms() >= deadline)
				return IBP_ETIMEDOUT;
			continue;
		}
		if (rc < 0)
			return ibp_error_set(
			    err, IBP_EIO, "umad_recv on %s port %d: %s",
			    u->info.ca_name, u->info.port, strerror(-rc));
		if (len < 24) /* not even a MAD header: skip it */
			continue;
		if (len < (int)IBP_MAD_SIZE)
			memset((uint8_t *)umad_get_mad(u->rbuf) + len, 0,
			       IBP_MAD_SIZE - (size_t)len);
		*mad = umad_get_mad(u->rbuf);
		*status = umad_status(u->rbuf);
		return IBP_OK;
	}
}

/* Put req into u->sbuf with the M_Key stamped and send it to dlid
 * (permissive for directed route) on the agent of its class. */
static int send_req(ibp_umad *u, const uint8_t req[IBP_MAD_SIZE], uint16_t dlid,
		    int timeout_ms, ibp_error *err)
{
	memset(u->sbuf, 0, u->umad_len);
	uint8_t *out = umad_get_mad(u->sbuf);
	memcpy(out, req, IBP_MAD_SIZE);
	if (u->mkey && mad_class(req) != PERF_CLASS &&
	    mad_class(req) != SA_CLASS)
		mad_set_field64(out, 0, IB_MAD_MKEY_F, u->mkey);
	int agent;
	if (mad_class(req) == PERF_CLASS || mad_class(req) == SA_CLASS) {
		/* A GMP goes to QP1 with the well-known Q_Key and the P_Key
		 * at gmp_pkey_index, which the PMA (the SA) checks (IBA
		 * 16.1.1, 10.9.3); it carries no M_Key. */
		umad_set_addr(u->sbuf, dlid, 1, 0, QP1_QKEY);
		umad_set_pkey(u->sbuf, (int)u->info.gmp_pkey_index);
		agent =
		    mad_class(req) == SA_CLASS ? u->agent_sa : u->agent_perf;
	} else {
		/* SMPs go to QP0, which has no Q_Key (IBA 14.2.1). */
		umad_set_addr(u->sbuf, dlid ? dlid : PERMISSIVE_LID, 0, 0, 0);
		agent =
		    mad_class(req) == SMP_CLASS_DR ? u->agent_dr : u->agent_lid;
	}
	int rc = umad_send(u->fd, agent, u->sbuf, IBP_MAD_SIZE, timeout_ms, 0);
	if (rc < 0)
		return ibp_error_set(
		    err, IBP_EIO, "umad_send on %s port %d: %s",
		    u->info.ca_name, u->info.port, strerror(-rc));
	return IBP_OK;
}

/* Pipelined SMPs: up to `window` sent and not yet answered, each with
 * its own deadline; a response is matched to its request by the low 32
 * bits of the TID (the MAD layer owns the upper half). */
static int umad_op_smp_batch(void *ctx, struct ibp_smp_xfer *x, size_t n,
			     unsigned window, int timeout_ms, ibp_error *err)
{
	ibp_umad *u = ctx;
	if (timeout_ms <= 0)
		timeout_ms = 1;
	if (window > 64)
		window = 64;
	size_t slot_of[64];
	long long due[64];
	unsigned busy = 0;
	size_t next = 0;
	while (next < n || busy) {
		while (busy < window && next < n) {
			uint8_t c = mad_class(x[next].req);
			if ((c == PERF_CLASS && u->agent_perf < 0) ||
			    (c == SA_CLASS && u->agent_sa < 0)) {
				x[next++].rc = IBP_EINVAL;
				continue;
			}
			if ((c != SMP_CLASS_DR && c != SMP_CLASS_LID &&
			     c != PERF_CLASS && c != SA_CLASS) ||
			    (c != SMP_CLASS_DR &&
			     (x[next].dlid == 0 || x[next].dlid >= 0xc000))) {
				x[next++].rc = IBP_EINVAL;
				continue;
			}
			int rc = send_req(u, x[next].req,
					  c == SMP_CLASS_DR ? 0 : x[next].dlid,
					  timeout_ms, err);
			if (rc)
				return rc;
			x[next].rc = IBP_ETIMEDOUT; /* until answered */
			slot_of[busy] = next++;
			due[busy++] = now_ms() + timeout_ms;
		}
		if (!busy)
			break;
		long long first = due[0];
		for (unsigned k = 1; k < busy; k++)
			if (due[k] < first)
				first = due[k];
		uint8_t *mad;
		int status;
		int rc = recv_one(u, first, &mad, &status, err);
		if (rc == IBP_ETIMEDOUT) {
			/* every request past its deadline stays ETIMEDOUT */
			long long now = now_ms();
			for (unsigned k = 0; k < busy;)
				if (due[k] <= now) {
					slot_of[k] = slot_of[--busy];
					due[k] = due[busy];
				} else {
					k++;
				}
			continue;
		}
		if (rc)
			return rc;
		if (!smp_response(u, mad))
			continue;
		uint32_t tid = tid_low(mad);
		for (unsigned k = 0; k < busy; k++) {
			struct ibp_smp_xfer *xi = &x[slot_of[k]];
			if (tid_low(xi->req) != tid)
				continue;
			/* ETIMEDOUT: the kernel's own timeout report for
			 * our send; the slot stays IBP_ETIMEDOUT */
			if (status != ETIMEDOUT) {
				memcpy(xi->resp, mad, IBP_MAD_SIZE);
				/* the caller's TID back (the MAD layer
				 * rewrote the upper half), and its M_Key
				 * field as it sent it */
				memcpy(xi->resp + 8, xi->req + 8, 8);
				xi->rc = IBP_OK;
			}
			slot_of[k] = slot_of[--busy];
			due[k] = due[busy];
			break;
		}
	}
	return IBP_OK;
}

/* One SMP to dlid (0: directed route), waiting for its response: a
 * batch of one. */
static int send_and_wait(ibp_umad *u, uint16_t dlid,
			 const uint8_t req[IBP_MAD_SIZE],
			 uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
			 ibp_error *err)
{
	struct ibp_smp_xfer x = {.req = req, .resp = resp, .dlid = dlid};
	int rc = umad_op_smp_batch(u, &x, 1, 1, timeout_ms, err);
	if (rc)
		return rc;
	if (x.rc == IBP_ETIMEDOUT)
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "no response to SMP TID 0x%08x within "
				     "%d ms",
				     tid_low(req),
				     timeout_ms > 0 ? timeout_ms : 1);
	if (x.rc)
		return ibp_error_set(err, x.rc,
				     "bad SMP (class 0x%02x, LID %u)",
				     mad_class(req), dlid);
	return IBP_OK;
}

static int umad_op_smp(void *ctx, const uint8_t req[IBP_MAD_SIZE],
		       uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
		       ibp_error *err)
{
	ibp_umad *u = ctx;
	switch (mad_class(req)) {
	case SMP_CLASS_DR:
		return send_and_wait(u, 0, req, resp, timeout_ms, err);
	case SMP_CLASS_LID:
		return ibp_error_set(err, IBP_EINVAL,
				     "a LID-routed SMP needs a destination "
				     "LID (ibp_transport_smp_lid)");
	default:
		return ibp_error_set(err, IBP_EINVAL,
				     "management class 0x%02x is not an SMP "
				     "class",
				     mad_class(req));
	}
}

int ibp_umad_smp_lid(ibp_umad *u, uint16_t dlid,
		     const uint8_t req[IBP_MAD_SIZE],
		     uint8_t resp[IBP_MAD_SIZE], int timeout_ms, ibp_error *err)
{
	if (mad_class(req) != SMP_CLASS_LID)
		return ibp_error_set(err, IBP_EINVAL,
				     "not a LID-routed SMP (class 0x%02x)",
				     mad_class(req));
	if (dlid == 0 || dlid >= 0xc000)
		return ibp_error_set(err, IBP_EINVAL,
				     "LID %u is not a unicast LID", dlid);
	return send_and_wait(u, dlid, req, resp, timeout_ms, err);
}

static int umad_op_smp_lid(void *ctx, uint16_t dlid,
			   const uint8_t req[IBP_MAD_SIZE],
			   uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
			   ibp_error *err)
{
	return ibp_umad_smp_lid(ctx, dlid, req, resp, timeout_ms, err);
}

static int umad_op_recv(void *ctx, uint8_t buf[IBP_MAD_SIZE], int timeout_ms,
			ibp_error *err)
{
	ibp_umad *u = ctx;
	if (u->trap_count) {
		memcpy(buf, u->traps[u->trap_head], IBP_MAD_SIZE);
		u->trap_head = (u->trap_head + 1) % TRAP_QUEUE_SLOTS;
		u->trap_count--;
		return IBP_OK;
	}
	long long deadline = now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
	for (;;) {
		uint8_t *mad;
		int status;
		int rc = recv_one(u, deadline, &mad, &status, err);
		if (rc == IBP_ETIMEDOUT)
			return ibp_error_set(err, IBP_ETIMEDOUT,
					     "no trap within %d ms",
					     timeout_ms);
		if (rc)
			return rc;
		if (mad_method(mad) & METHOD_RESP_BIT)
			continue; /* a late response nobody waits for */
		memcpy(buf, mad, IBP_MAD_SIZE);
		return IBP_OK;
	}
}

/* A response to an unsolicited request (an SA ReportResponse): sent on
 * its class's agent, waiting for nothing. */
static int umad_op_send(void *ctx, uint16_t dlid,
			const uint8_t mad[IBP_MAD_SIZE], ibp_error *err)
{
	ibp_umad *u = ctx;
	if (mad_class(mad) != SA_CLASS || u->agent_sa < 0 || dlid == 0 ||
	    dlid >= 0xc000)
		return ibp_error_set(err, IBP_EINVAL,
				     "cannot send a class 0x%02x MAD to LID "
				     "%u%s",
				     mad_class(mad), dlid,
				     u->agent_sa < 0 ? " (no SA agent)" : "");
	return send_req(u, mad, dlid, 0, err);
}

static void umad_op_close(void *ctx)
{
	ibp_umad *u = ctx;
	if (!u)
		return;
	if (u->fd >= 0) {
		if (u->agent_lid >= 0)
			umad_unregister(u->fd, u->agent_lid);
		if (u->agent_dr >= 0)
			umad_unregister(u->fd, u->agent_dr);
		if (u->agent_perf >= 0)
			umad_unregister(u->fd, u->agent_perf);
		if (u->agent_sa >= 0)
			umad_unregister(u->fd, u->agent_sa);
		umad_close_port(u->fd);
	}
	free(u->sbuf);
	free(u->rbuf);
	free(u);
}

static const struct ibp_transport_ops umad_ops = {
    .name = "umad",
    .smp = umad_op_smp,
    .recv = umad_op_recv,
    .close = umad_op_close,
    .smp_lid = umad_op_smp_lid,
    .smp_batch = umad_op_smp_batch,
    .send = umad_op_send,
};

static int do_open(ibp_umad *u, const ibp_umad_options *o, ibp_error *err)
{
	if (umad_init() < 0)
		return ibp_error_set(err, IBP_EIO,
				     "libibumad cannot initialise (no "
				     "InfiniBand MAD support?)");
	umad_port_t p;
	char *ca = o->ca ? (char *)o->ca : NULL;
	int rc = umad_get_port(ca, o->port, &p);
	if (rc < 0)
		return ibp_error_set(
		    err, IBP_EIO, "no usable port %s%s%s %d: %s",
		    o->ca ? "on CA " : "", o->ca ? o->ca : "(first CA)",
		    o->port ? " port" : ", first active port", o->port,
		    strerror(-rc));
	snprintf(u->info.ca_name, sizeof(u->info.ca_name), "%s", p.ca_name);
	u->info.port = p.portnum;
	u->info.lid = (uint16_t)p.base_lid;
	u->info.sm_lid = (uint16_t)p.sm_lid;
	u->info.state = p.state;
	u->info.phys_state = p.phys_state;
	u->info.port_guid = be64toh(p.port_guid);
	/* The index GMPs leave with: the default partition's full key
	 * where the port holds it, else its limited key, else 0. */
	int full = -1, limited = -1;
	for (unsigned i = 0; p.pkeys && i < p.pkeys_size; i++) {
		if (p.pkeys[i] == 0xffff && full < 0)
			full = (int)i;
		if (p.pkeys[i] == 0x7fff && limited < 0)
			limited = (int)i;
	}
	u->info.gmp_pkey_index = (uint16_t)(full >= 0	   ? full
					    : limited >= 0 ? limited
							   : 0);
	u->info.gmp_pkey = full >= 0 ? 0xffff
			   : limited >= 0
			       ? 0x7fff
			       : (p.pkeys && p.pkeys_size ? p.pkeys[0] : 0);
	umad_release_port(&p);

	u->fd = umad_open_port(u->info.ca_name, u->info.port);
	if (u->fd < 0) {
		int e = -u->fd;
		u->fd = -1;
		return ibp_error_set(err, IBP_EIO,
				     "cannot open %s port %d: %s%s",
				     u->info.ca_name, u->info.port, strerror(e),
				     e == EACCES ? " (need access to "
						   "/dev/infiniband/umad*)"
						 : "");
	}
	/* umad_size() grows once the port is open (the P_Key index field
	 * of the newer user_mad ABI), so size the buffers only now. */
	u->umad_len = umad_size() + IBP_MAD_SIZE;
	u->sbuf = calloc(1, u->umad_len);
	u->rbuf = calloc(1, u->umad_len);
	if (!u->sbuf || !u->rbuf)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (o->want_traps) {
		long mask[16 / sizeof(long)] = {0};
		mask[METHOD_TRAP / (8 * sizeof(long))] |=
		    1L << (METHOD_TRAP % (8 * sizeof(long)));
		u->agent_lid = umad_register(u->fd, SMP_CLASS_LID, 1, 0, mask);
		u->info.traps = u->agent_lid >= 0;
	}
	if (u->agent_lid < 0)
		u->agent_lid = umad_register(u->fd, SMP_CLASS_LID, 1, 0, NULL);
	u->agent_dr = umad_register(u->fd, SMP_CLASS_DR, 1, 0, NULL);
	/* PerfMgt (class 0x04, version 1): optional, only the monitor's
	 * GMPs need it */
	u->agent_perf = umad_register(u->fd, PERF_CLASS, 1, 0, NULL);
	/* SA (class 0x03, version 2): optional, for the monitor's
	 * InformInfo subscription; with SubnAdmReport in its methods, so
	 * the Reports the SA sends the subscriber are delivered to it (on
	 * the SM's own host OpenSM may hold them: then none) */
	long sa_mask[16 / sizeof(long)] = {0};
	sa_mask[METHOD_REPORT / (8 * sizeof(long))] |=
	    1L << (METHOD_REPORT % (8 * sizeof(long)));
	u->agent_sa = umad_register(u->fd, SA_CLASS, SA_VERSION, 0, sa_mask);
	if (u->agent_sa < 0)
		u->agent_sa =
		    umad_register(u->fd, SA_CLASS, SA_VERSION, 0, NULL);
	if (u->agent_lid < 0 || u->agent_dr < 0)
		return ibp_error_set(err, IBP_EIO,
				     "cannot register SMP agents on %s port "
				     "%d",
				     u->info.ca_name, u->info.port);
	return IBP_OK;
}

int ibp_transport_umad_open(const ibp_umad_options *o, ibp_transport **out,
			    ibp_umad **umad_out, ibp_error *err)
{
	ibp_umad_options defaults;
	if (!o) {
		ibp_umad_options_init(&defaults);
		o = &defaults;
	}
	*out = NULL;
	if (umad_out)
		*umad_out = NULL;
	ibp_umad *u = calloc(1, sizeof(*u));
	if (!u)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	u->fd = -1;
	u->agent_lid = -1;
	u->agent_dr = -1;
	u->agent_perf = -1;
	u->agent_sa = -1;
	u->mkey = o->mkey;
	int rc = do_open(u, o, err);
	if (rc) {
		umad_op_close(u);
		return rc;
	}
	ibp_transport *t = ibp_transport_new(&umad_ops, u);
	if (!t) {
		umad_op_close(u);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	*out = t;
	if (umad_out)
		*umad_out = u;
	return IBP_OK;
}

void ibp_umad_port_info_get(const ibp_umad *u, ibp_umad_port_info *out)
{
	*out = u->info;
}
