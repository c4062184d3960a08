/*
 * monitor_inform.c - the monitor's subscription to Bad P_Key traps
 * through the SA (see include/ibpart/monitor.h, "Subscribing"): the
 * SubnAdmSet(InformInfo) for traps 257 and 259 (IBA 13.4.8.3,
 * 15.2.5.12) and its end, the SubnAdmReport(Notice)s the SA forwards
 * (13.4.8.2) answered with SubnAdmReportResp and kept as traps until a
 * sweep counts them, and the wait between sweeps that answers them.
 * The MAD images come from wire/sa.h; the Notice's DataDetails are read
 * as the SM reads a trap (ibp_sm_trap_from_notice).
 */
#include <string.h>
#include <time.h>

#include "ibpart/sys/sa.h"
#include "monitor/monitor_priv.h"
#include "util/diag_lib.h"
#include "live/live_lib.h"
#include "topo/topo_lib.h"

/* SubnAdmSet(InformInfo) for traps 257 and 259, Subscribe sub, to the
 * SA: each answer's status in status[] (rc[] IBP_OK when answered, the
 * transport's code otherwise), unanswered ones resent up to
 * in->retries times.  The port's failure (IBP_EIO) is returned. */
static int inform_set(struct monitor_inform *in, ibp_monitor_state *st,
		      bool sub, int rc[2], uint16_t status[2], ibp_error *err)
{
	static const uint16_t traps[2] = {IBP_TRAP_BAD_PKEY,
					  IBP_TRAP_SWITCH_BAD_PKEY};
	uint8_t req[2][IBP_MAD_SIZE], resp[2][IBP_MAD_SIZE];
	for (int k = 0; k < 2; k++) {
		rc[k] = IBP_ETIMEDOUT;
		status[k] = 0;
	}
	for (int attempt = 0; attempt <= in->retries; attempt++) {
		struct ibp_smp_xfer x[2];
		size_t n = 0;
		int which[2];
		for (int k = 0; k < 2; k++) {
			if (rc[k] != IBP_ETIMEDOUT)
				continue;
			struct ibp_inform_info ii;
			ibp_inform_info_init_trap(&ii, traps[k], sub);
			int e = ibp_sa_mad_init(
			    req[k], IBP_MAD_SIZE, IBP_SA_METHOD_SET,
			    IBP_SA_ATTR_INFORM_INFO, monitor_state_tid(st),
			    in->sa_key, err);
			if (!e)
				e = ibp_inform_info_encode(
				    &ii, req[k] + IBP_SA_DATA_OFFSET,
				    IBP_SA_DATA_SIZE, err);
			if (e)
				return e;
			x[n] = (struct ibp_smp_xfer){
			    .req = req[k], .resp = resp[k], .dlid = in->sa_lid};
			which[n++] = k;
		}
		if (!n)
			break;
		int e = ibp_transport_smp_batch(in->t, x, n, 2, in->timeout_ms,
						err);
		if (e)
			return e;
		for (size_t i = 0; i < n; i++) {
			int k = which[i];
			rc[k] = x[i].rc;
			struct ibp_sa_mad h;
			if (rc[k] == IBP_OK &&
			    ibp_sa_mad_decode(&h, resp[k], IBP_MAD_SIZE,
					      NULL) == IBP_OK)
				status[k] = h.status;
		}
	}
	return IBP_OK;
}

/* Subscribe (once per state): a refusal is a warning. */
static int subscribe(ibp_live *l, const struct ibp_monitor_options *o,
		     ibp_monitor_state *st, struct monitor_inform *in,
		     ibp_diags *diags, ibp_error *err)
{
	in->refused = true; /* until both are accepted */
	in->t = ibp_live_transport(l);
	in->sa_lid = ibp_live_sa_lid(l);
	in->sa_key = o->sa_key;
	in->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 200;
	in->retries = o->retries >= 0 ? o->retries : 2;
	static const char code[] = "trap-subscription-refused";
	const char *then = o->opensm_log_path
			       ? "the Bad P_Key traps are counted from the "
				 "OpenSM log (--opensm-log)"
			       : "no Bad P_Key trap is counted (no OpenSM log "
				 "given, --opensm-log)";
	if (!ibp_transport_can_send(in->t))
		return ibp_diags_add(diags, IBP_SEV_WARNING, code, NULL, 0, 0,
				     "the %s transport has no SA (it cannot "
				     "answer Reports): no subscription to "
				     "traps 257 and 259",
				     ibp_transport_name(in->t));
	if (!in->sa_lid)
		return ibp_diags_add(diags, IBP_SEV_WARNING, code, NULL, 0, 0,
				     "no master SM with a LID: no SA to "
				     "subscribe to traps 257 and 259; %s",
				     then);
	int rc[2];
	uint16_t status[2];
	int e = inform_set(in, st, true, rc, status, err);
	if (e)
		return e;
	for (int k = 0; k < 2; k++) {
		unsigned trap = k ? 259 : 257;
		if (rc[k] != IBP_OK)
			e = ibp_diags_add(
			    diags, IBP_SEV_WARNING, code, NULL, 0, 0,
			    "the SA at LID %u did not answer the "
			    "subscription to trap %u (%s; OpenSM drops an SA "
			    "MAD whose SM_Key is neither 0 nor its sa_key: "
			    "check --sa-key); %s",
			    in->sa_lid, trap, ibp_status_str(rc[k]), then);
		else if (status[k])
			e = ibp_diags_add(
			    diags, IBP_SEV_WARNING, code, NULL, 0, 0,
			    "the SA at LID %u refused the subscription to "
			    "trap %u: status 0x%04x (%s)%s; %s",
			    in->sa_lid, trap, status[k],
			    ibp_sa_status_str(status[k]),
			    (status[k] >> 8) == 2
				? " - OpenSM gives the security traps "
				  "(256-259) only to a requester whose "
				  "SM_Key is its sa_key (--sa-key)"
				: "",
			    then);
		if (e)
			return e;
	}
	bool ok[2] = {rc[0] == IBP_OK && !status[0],
		      rc[1] == IBP_OK && !status[1]};
	if (ok[0] && ok[1]) {
		in->active = true;
		in->refused = false;
	} else if (ok[0] || ok[1]) {
		/* one of them stands: end it, the log counts both */
		in->active = true;
		monitor_inform_end(st);
		in->refused = true;
	}
	return IBP_OK;
}

/* Whether tid was answered before (a resent Report), keeping it. */
static bool seen_tid(struct monitor_inform *in, uint64_t tid)
{
	for (unsigned k = 0; k < in->ntids; k++)
		if (in->tids[k] == tid)
			return true;
	in->tids[in->tid_next] = tid;
	in->tid_next = (in->tid_next + 1) % MONITOR_INFORM_TIDS;
	if (in->ntids < MONITOR_INFORM_TIDS)
		in->ntids++;
	return false;
}

/* Receive the Reports waiting (the first wait up to timeout_ms), answer
 * each, keep its trap. */
static int drain(struct monitor_inform *in, int timeout_ms, ibp_error *err)
{
	for (;;) {
		uint8_t mad[IBP_MAD_SIZE];
		ibp_error e;
		int rc = ibp_transport_recv(in->t, mad, timeout_ms, &e);
		timeout_ms = 0;
		if (rc == IBP_ETIMEDOUT)
			return IBP_OK;
		if (rc) {
			if (err)
				*err = e;
			return rc;
		}
		struct ibp_sa_mad h;
		if (ibp_sa_mad_decode(&h, mad, IBP_MAD_SIZE, NULL) ||
		    h.mgmt_class != IBP_MGMT_CLASS_SA ||
		    h.method != IBP_SA_METHOD_REPORT ||
		    h.attr_id != IBP_SA_ATTR_NOTICE)
			continue; /* not ours to answer */
		/* SubnAdmReportResp: the Report back, method 0x86, status 0
		 * (13.4.8.2) */
		uint8_t resp[IBP_MAD_SIZE];
		memcpy(resp, mad, IBP_MAD_SIZE);
		h.method = IBP_SA_METHOD_REPORT_RESP;
		h.status = 0;
		rc = ibp_sa_mad_encode(&h, resp, IBP_MAD_SIZE, err);
		if (!rc)
			rc = ibp_transport_send(in->t, in->sa_lid, resp, err);
		if (rc == IBP_EIO)
			return rc;
		in->reports++;
		if (seen_tid(in, h.tid))
			continue;
		struct ibp_notice n;
		if (ibp_notice_decode(&n, mad + IBP_SA_DATA_OFFSET,
				      IBP_NOTICE_SIZE, NULL) ||
		    !n.is_generic ||
		    (n.trap_num != IBP_TRAP_BAD_PKEY &&
		     n.trap_num != IBP_TRAP_SWITCH_BAD_PKEY))
			continue;
		struct ibp_sm_trap t;
		ibp_sm_trap_from_notice(&n, &t);
		if (monitor_traps_push(&in->got, &t))
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
}

int monitor_inform_sweep(ibp_live *l, const struct ibp_monitor_options *o,
			 ibp_monitor_state *st, struct monitor_traps *v,
			 bool *active, ibp_diags *diags, ibp_error *err)
{
	struct monitor_inform *in = monitor_state_inform(st);
	*active = false;
	if (o->version < 4 || !o->subscribe)
		return IBP_OK;
	if (!in->active && !in->refused) {
		int rc = subscribe(l, o, st, in, diags, err);
		if (rc)
			return rc;
	}
	if (!in->active)
		return IBP_OK;
	int rc = drain(in, 0, err);
	for (size_t i = 0; rc == IBP_OK && i < in->got.n; i++)
		if (monitor_traps_push(v, &in->got.a[i]))
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	in->got.n = 0;
	*active = rc == IBP_OK;
	return rc;
}

int ibp_monitor_wait(ibp_live *l, ibp_monitor_state *st, unsigned ms,
		     ibp_error *err)
{
	struct monitor_inform *in = monitor_state_inform(st);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (l && ibp_live_cancelled(l))
			return ibp_error_set(err, IBP_ECANCELED,
					     "stopped (asked)");
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long spent = (now.tv_sec - t0.tv_sec) * 1000LL +
				  (now.tv_nsec - t0.tv_nsec) / 1000000;
		if (spent >= ms)
			return IBP_OK;
		int slice = ms - spent < 100 ? (int)(ms - spent) : 100;
		if (in->active) {
			int rc = drain(in, slice, err);
			if (rc)
				return rc;
		} else {
			struct timespec ts = {.tv_nsec = slice * 1000000L};
			nanosleep(&ts, NULL);
		}
	}
}

void monitor_inform_end(ibp_monitor_state *st)
{
	struct monitor_inform *in = monitor_state_inform(st);
	if (in->active) {
		int rc[2];
		uint16_t status[2];
		ibp_error err;
		/* answer what came meanwhile, then end it; nobody to tell of
		 * a failure (the SA drops the subscription of a port that
		 * leaves the subnet) */
		(void)drain(in, 0, &err);
		(void)inform_set(in, st, false, rc, status, &err);
		in->active = false;
	}
	monitor_traps_free(&in->got);
}
