/*
 * test_monitor_inform.c - the monitor's SA subscription
 * (src/monitor/monitor_inform.c) against a stand-in SA: a transport
 * that passes SMPs and GMPs to the simulated seed fabric and answers the
 * SA's class itself, as OpenSM 3.3.23's SA does (a SubnAdmSet
 * (InformInfo) answered with GetResp carrying a status; Reports sent as
 * SubnAdmReport(Notice)).  The real OpenSM is exercised in
 * tests/interop/test_live_subscribe.sh; this proves, under the
 * sanitizers, the answers (ReportResp: method 0x86, the Report's TID), a
 * resent Report counted once, the traps' attribution, the refusal's
 * warning with the log counting instead, and the end of the
 * subscription when the state is freed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibpart/sys/mad.h"
#include "ibpart/monitor.h"
#include "monitor/monitor_lib.h"
#include "ibpart/sys/sa.h"
#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/transport_sim.h"
#include "seed_live.h"
#include "util/diag_lib.h"

struct sa {
	ibp_transport *sim;		   /* the simulated fabric's */
	uint16_t status;		   /* what the SA answers a Set with */
	unsigned subscribed, unsubscribed; /* Sets accepted */
	uint64_t sm_key;		   /* of the last Set */
	uint8_t reports[8][IBP_MAD_SIZE];  /* to deliver */
	size_t nreports, next;
	uint8_t resp[8][IBP_MAD_SIZE]; /* ReportResps received */
	size_t nresp;
};

static int sa_answer(struct sa *s, const uint8_t *req, uint8_t *resp)
{
	struct ibp_sa_mad h;
	struct ibp_inform_info ii;
	assert_int_equal(ibp_sa_mad_decode(&h, req, IBP_MAD_SIZE, NULL), 0);
	assert_int_equal(h.method, IBP_SA_METHOD_SET);
	assert_int_equal(h.attr_id, IBP_SA_ATTR_INFORM_INFO);
	assert_int_equal(ibp_inform_info_decode(&ii, req + IBP_SA_DATA_OFFSET,
						IBP_INFORM_INFO_SIZE, NULL),
			 0);
	assert_true(ii.trap_num == 257 || ii.trap_num == 259);
	assert_true(ii.is_generic == 1 && ii.lid_range_begin == 0xffff &&
		    ii.producer_type == 0xffffff && ii.type == 0xffff);
	s->sm_key = h.sm_key;
	if (!s->status)
		(*(ii.subscribe ? &s->subscribed : &s->unsubscribed))++;
	memcpy(resp, req, IBP_MAD_SIZE);
	h.method = IBP_SA_METHOD_GET_RESP;
	h.status = s->status;
	return ibp_sa_mad_encode(&h, resp, IBP_MAD_SIZE, NULL);
}

static int sa_smp(void *ctx, const uint8_t req[IBP_MAD_SIZE],
		  uint8_t resp[IBP_MAD_SIZE], int timeout_ms, ibp_error *err)
{
	struct sa *s = ctx;
	return ibp_transport_smp(s->sim, req, resp, timeout_ms, err);
}

static int sa_smp_lid(void *ctx, uint16_t dlid, const uint8_t req[IBP_MAD_SIZE],
		      uint8_t resp[IBP_MAD_SIZE], int timeout_ms,
		      ibp_error *err)
{
	struct sa *s = ctx;
	if (req[1] == IBP_MGMT_CLASS_SA)
		return sa_answer(s, req, resp);
	return ibp_transport_smp_lid(s->sim, dlid, req, resp, timeout_ms, err);
}

static int sa_recv(void *ctx, uint8_t buf[IBP_MAD_SIZE], int timeout_ms,
		   ibp_error *err)
{
	(void)timeout_ms;
	struct sa *s = ctx;
	if (s->next == s->nreports)
		return ibp_error_set(err, IBP_ETIMEDOUT, "none");
	memcpy(buf, s->reports[s->next++], IBP_MAD_SIZE);
	return IBP_OK;
}

static int sa_send(void *ctx, uint16_t dlid, const uint8_t mad[IBP_MAD_SIZE],
		   ibp_error *err)
{
	(void)dlid;
	(void)err;
	struct sa *s = ctx;
	assert_true(s->nresp < 8);
	memcpy(s->resp[s->nresp++], mad, IBP_MAD_SIZE);
	return IBP_OK;
}

static void sa_close(void *ctx)
{
	(void)ctx;
}

static const struct ibp_transport_ops sa_ops = {
    .name = "sim+sa",
    .smp = sa_smp,
    .recv = sa_recv,
    .close = sa_close,
    .smp_lid = sa_smp_lid,
    .send = sa_send,
};

struct fx {
	ibp_sim_session *ss;
	struct sa sa;
	ibp_transport *t;
	ibp_live *l;
	ibp_monitor_state *st;
	char conf[1024];
	uint16_t la, lb, lsw;
	unsigned swport;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));
	if (seed_sim_open(x->conf, sizeof(x->conf), &x->ss, &x->sa.sim))
		return -1;
	x->t = ibp_transport_new(&sa_ops, &x->sa);
	if (!x->t || seed_live_open(x->ss, x->t, &x->l))
		return -1;
	x->st = ibp_monitor_state_new();
	*state = x;
	return x->st ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *x = *state;
	ibp_transport *sim = x->sa.sim;
	seed_live_close(x->st, x->l, x->t, NULL);
	ibp_transport_close(sim);
	ibp_sim_session_free(x->ss);
	free(x);
	return 0;
}

static ibp_monitor_sweep *sweep(struct fx *x, bool subscribe, const char *log,
				ibp_diags *diags)
{
	struct ibp_monitor_options o;
	ibp_monitor_options_init(&o, IBP_MONITOR_OPTIONS_VERSION);
	o.conf_path = x->conf;
	o.subscribe = subscribe;
	o.opensm_log_path = log;
	ibp_monitor_sweep *s = NULL;
	ibp_error err;
	assert_int_equal(
	    ibp_monitor_sweep_run(x->l, &o, x->st, &s, diags, &err), IBP_OK);
	if (x->la)
		return s;
	x->la = port_of(s, "tenantA-node-01", false, "tenantA-node-01")->lid;
	x->lb = port_of(s, "tenantB-node-01", false, "tenantB-node-01")->lid;
	const struct ibp_monitor_port *leaf =
	    port_of(s, "leaf-01", true, "tenantB-node-01");
	x->lsw = leaf->lid;
	x->swport = leaf->port;
	return s;
}

/* A Report(Notice) of trap 257 (from A to B, B's HCA refusing) or 259
 * (the leaf's port facing B refusing it), with TID tid. */
static void report(struct fx *x, unsigned trap, uint64_t tid)
{
	struct ibp_notice n;
	if (trap == 257) {
		ibp_notice_init_trap(&n, IBP_NOTICE_TYPE_SECURITY, IBP_NODE_CA,
				     257, x->lb);
		struct ibp_trap_257 d = {
		    .lid1 = x->la, .lid2 = x->lb, .key = 0x8001};
		ibp_trap_257_to_details(&d, n.data_details);
	} else {
		ibp_notice_init_trap(&n, IBP_NOTICE_TYPE_SECURITY,
				     IBP_NODE_SWITCH, 259, x->lsw);
		struct ibp_trap_259 d = {.data_valid = IBP_TRAP259_VALID_LID1 |
						       IBP_TRAP259_VALID_LID2 |
						       IBP_TRAP259_VALID_PKEY,
					 .lid1 = x->la,
					 .lid2 = x->lb,
					 .pkey = 0x8001,
					 .sw_lid = x->lsw,
					 .port = (uint8_t)x->swport};
		ibp_trap_259_to_details(&d, n.data_details);
	}
	uint8_t *b = x->sa.reports[x->sa.nreports++];
	assert_int_equal(ibp_sa_mad_init(b, IBP_MAD_SIZE, IBP_SA_METHOD_REPORT,
					 IBP_SA_ATTR_NOTICE, tid, 0, NULL),
			 0);
	assert_int_equal(ibp_notice_encode(&n, b + IBP_SA_DATA_OFFSET,
					   IBP_NOTICE_SIZE, NULL),
			 0);
}

static void test_reports(void **state)
{
	struct fx *x = *state;
	ibp_monitor_sweep *s = sweep(x, true, NULL, NULL);
	assert_int_equal(x->sa.subscribed, 2);
	assert_true(x->sa.sm_key == 1); /* OpenSM's default sa_key */
	assert_int_equal(ibp_monitor_sweep_traps(s), 0);
	ibp_monitor_sweep_free(s);
	report(x, 257, 0x02dab001);
	report(x, 259, 0x02dab002);
	report(x, 259, 0x02dab002); /* resent: the same TID */
	ibp_error err;
	assert_int_equal(ibp_monitor_wait(x->l, x->st, 50, &err), IBP_OK);
	/* each Report answered: ReportResp, its TID, status 0 */
	assert_int_equal(x->sa.nresp, 3);
	for (size_t i = 0; i < 3; i++) {
		struct ibp_sa_mad h;
		assert_int_equal(
		    ibp_sa_mad_decode(&h, x->sa.resp[i], IBP_MAD_SIZE, NULL),
		    0);
		assert_int_equal(h.method, IBP_SA_METHOD_REPORT_RESP);
		assert_int_equal(h.status, 0);
		assert_true(h.tid == (i ? 0x02dab002u : 0x02dab001u));
	}
	s = sweep(x, true, NULL, NULL);
	assert_int_equal(x->sa.subscribed, 2); /* not again */
	assert_int_equal(ibp_monitor_sweep_traps(s), 2);
	assert_true(tenant(s, "TenantA")->traps_from == 2);
	assert_true(tenant(s, "TenantB")->traps_toward == 2);
	assert_true(tenant(s, "TenantA")->traps_toward == 0);
	size_t on_swport = 0;
	for (size_t i = 0; i < ibp_monitor_sweep_trap_port_count(s); i++) {
		const struct ibp_monitor_trap_port *tp =
		    ibp_monitor_sweep_trap_port(s, i);
		if (tp->port == x->swport && tp->total == 1)
			on_swport++;
	}
	assert_int_equal(on_swport, 1);
	ibp_monitor_sweep_free(s);
	/* the state's end ends the subscription */
	ibp_monitor_state_free(x->st);
	x->st = NULL;
	assert_int_equal(x->sa.unsubscribed, 2);
}

/* ERR_REQ_INVALID (OpenSM's answer to an untrusted requester): a warning
 * naming it, and the log counts instead. */
static void test_refused(void **state)
{
	struct fx *x = *state;
	ibp_monitor_sweep *s = sweep(x, false, NULL, NULL);
	ibp_monitor_sweep_free(s);
	x->sa.status = 0x0200;
	char line[256], log[] = "/tmp/ibpart-informlog-XXXXXX";
	int fd = mkstemp(log);
	assert_true(fd >= 0);
	int len = snprintf(
	    line, sizeof(line),
	    "Dec 04 14:31:07 482113 [7F3A2B7FE700] 0x01 -> log_trap_info: Bad "
	    "P_Key:0x8001 on SL:0 from LID1:%u QP1:0x48 to LID2:%u "
	    "QP2:0x49\n",
	    x->la, x->lb);
	assert_int_equal(write(fd, line, (size_t)len), len);
	close(fd);
	ibp_diags *d = ibp_diags_new();
	s = sweep(x, true, log, d);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_WARNING), 2);
	const ibp_diag *g = ibp_diags_get(d, 0);
	assert_string_equal(g->code, "trap-subscription-refused");
	assert_non_null(strstr(g->message, "status 0x0200 (ERR_REQ_INVALID)"));
	assert_non_null(strstr(g->message, "counted from the OpenSM log"));
	assert_int_equal(ibp_monitor_sweep_traps(s), 1);
	assert_true(tenant(s, "TenantB")->traps_toward == 1);
	ibp_monitor_sweep_free(s);
	ibp_diags_free(d);
	/* not asked again; nothing to end */
	s = sweep(x, true, log, NULL);
	ibp_monitor_sweep_free(s);
	assert_int_equal(x->sa.subscribed + x->sa.unsubscribed, 0);
	unlink(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_reports, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
