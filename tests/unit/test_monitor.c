/*
 * test_monitor.c - the monitor (src/monitor/) on the simulated seed
 * fabric (examples/seed): a cross-tenant RC pingpong raises exactly the
 * counters the data plane's rules give (IBA 10.9.3/10.9.4: every one of
 * the 1 + retry_cnt(7) = 8 transmissions refused at the egress of the
 * leaf port facing the responder), and the monitor reports them on that
 * port and for that tenant with the right direction; the 8-bit
 * PortCounters stop at 255 (16.1.3.5) and the total stays monotonic
 * across saturation, a clear by others and --reset; a monitoring port
 * that is not a full member of 0x7fff cannot read the limited members'
 * PMAs and says so; label escaping.  Bad P_Key traps: OpenSM 3.3.23's
 * log lines (their text transcribed by hand from osm_trap_rcv.c's
 * log_trap_info and osm_log.c's prefix format, not made by our code)
 * parsed, hostile ones refused; the log read incrementally across
 * appends, truncation and rotation; the simulator SM's traps of a
 * cross-tenant pingpong given to the very tenants and port whose
 * counters rose.  ClassPortInfo read once per state.
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

#include "ibpart/monitor.h"
#include "monitor/monitor_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/transport_sim.h"
#include "seed_live.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/monitor.h"
#include "ibpart/sys/verify.h"
#include "ibpart/sys/report.h"

struct fx {
	ibp_sim_session *ss;
	ibp_transport *t;
	ibp_live *l;
	ibp_monitor_state *st;
	char conf[1024];
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));
	if (seed_sim_open(x->conf, sizeof(x->conf), &x->ss, &x->t) ||
	    seed_live_open(x->ss, x->t, &x->l))
		return -1;
	x->st = ibp_monitor_state_new();
	*state = x;
	return x->st ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *x = *state;
	seed_live_close(x->st, x->l, x->t, x->ss);
	free(x);
	return 0;
}

static ibp_monitor_sweep *sweep(struct fx *x, bool reset)
{
	struct ibp_monitor_options o;
	ibp_monitor_options_init(&o, IBP_MONITOR_OPTIONS_VERSION);
	o.conf_path = x->conf;
	o.reset = reset;
	ibp_monitor_sweep *s = NULL;
	ibp_error err;
	assert_int_equal(ibp_monitor_sweep_run(x->l, &o, x->st, &s, NULL, &err),
			 IBP_OK);
	return s;
}

static void pingpong(struct fx *x, const char *src, const char *dst,
		     unsigned index)
{
	struct ibp_sim_pingpong_options po;
	ibp_sim_pingpong_options_init(&po, IBP_SIM_PINGPONG_OPTIONS_VERSION);
	po.pkey_index = index;
	po.iters = 1;
	struct ibp_sim_pingpong_result res;
	ibp_error err;
	assert_int_equal(
	    ibp_sim_session_pingpong(x->ss, src, dst, &po, NULL, &res, &err),
	    IBP_OK);
	assert_int_equal(res.outcome, IBP_SIM_PINGPONG_FAILED);
}

/* Totals of every port but one are zero. */
static void only(const ibp_monitor_sweep *s, const struct ibp_monitor_port *q,
		 ibp_monitor_counter c, uint64_t v)
{
	for (size_t i = 0; i < ibp_monitor_sweep_port_count(s); i++) {
		const struct ibp_monitor_port *p = ibp_monitor_sweep_port(s, i);
		for (int k = 0; k < IBP_MON_NCOUNTERS; k++)
			if (p == q && k == (int)c)
				assert_true(p->total[k] == v);
			else
				assert_true(p->total[k] == 0);
	}
}

static void test_cross_tenant(void **state)
{
	struct fx *x = *state;
	ibp_monitor_sweep *s = sweep(x, false);
	assert_true(ibp_monitor_sweep_full_member(s));
	assert_int_equal(ibp_monitor_sweep_unread(s), 0);
	/* 7 CA ports, 7 leaf ports */
	assert_int_equal(ibp_monitor_sweep_port_count(s), 14);
	only(s, NULL, IBP_MON_NCOUNTERS, 0);
	ibp_monitor_sweep_free(s);

	/* TenantA's key (index 1) toward a TenantB node: refused at the
	 * egress of leaf-01's port facing tenantB-node-01, 8 times */
	pingpong(x, "tenantA-node-01", "tenantB-node-01", 1);
	s = sweep(x, false);
	const struct ibp_monitor_port *q =
	    port_of(s, "leaf-01", true, "tenantB-node-01");
	assert_true(q->pma_read && q->pma_64bit);
	only(s, q, IBP_MON_XMIT_CONSTRAINT, 8);
	assert_int_equal(q->ntenants, 1);
	const struct ibp_monitor_tenant *b = tenant(s, "TenantB");
	const struct ibp_monitor_tenant *a = tenant(s, "TenantA");
	assert_true(b->toward == 8 && b->from == 0 && b->pkey_violations == 0);
	assert_true(a->toward == 0 && a->from == 0);
	assert_int_equal(b->ports, 3); /* two nodes and the storage node */
	char *prom = ibp_monitor_sweep_prometheus(s);
	assert_non_null(strstr(
	    prom, "infiniband_switch_port_transmit_constraint_errors_total{"
		  "guid=\"0x506b4b0300a1b100\",port=\"5\"} 8\n"));
	assert_non_null(strstr(prom, "ibpart_tenant_constraint_errors_total{"
				     "tenant=\"TenantB\",direction=\"toward\"} "
				     "8\n"));
	assert_non_null(strstr(prom, "# TYPE ibpart_tenant_pkey_violations_"
				     "total counter\n"));
	free(prom);
	ibp_monitor_sweep_free(s);

	/* The default key (index 0, limited at both ends) passes the
	 * switches and is refused by the receiving HCA: P_KeyViolations
	 * there, 8, for TenantB and (the storage node is in both) not A */
	pingpong(x, "tenantA-node-01", "tenantB-node-01", 0);
	s = sweep(x, false);
	q = port_of(s, "tenantB-node-01", false, "tenantB-node-01");
	assert_true(q->total[IBP_MON_PKEY_VIOLATIONS] == 8);
	assert_true(tenant(s, "TenantB")->pkey_violations == 8);
	assert_true(tenant(s, "TenantA")->pkey_violations == 0);
	ibp_monitor_sweep_free(s);

	/* --reset clears the PMA's (64-bit) counters, not the totals */
	ibp_monitor_sweep_free(sweep(x, true));
	s = sweep(x, false);
	q = port_of(s, "leaf-01", true, "tenantB-node-01");
	assert_true(q->raw[IBP_MON_XMIT_CONSTRAINT] == 0);
	assert_true(q->total[IBP_MON_XMIT_CONSTRAINT] == 8);
	assert_true(tenant(s, "TenantB")->toward == 8);
	ibp_monitor_sweep_free(s);
}

static void test_saturation_and_resets(void **state)
{
	struct fx *x = *state;
	ibp_sim *sim = ibp_sim_session_sim(x->ss);
	ibp_sim_set_pma_ext_errors(sim, false); /* ibsim's PMAs: 8 bits */
	for (int i = 0; i < 40; i++)		/* 320 refusals */
		pingpong(x, "tenantB-node-02", "tenantA-node-02", 1);
	ibp_monitor_sweep *s = sweep(x, false);
	const struct ibp_monitor_port *q =
	    port_of(s, "leaf-01", true, "tenantA-node-02");
	assert_false(q->pma_64bit);
	assert_true(q->raw[IBP_MON_XMIT_CONSTRAINT] == 255);
	assert_true(q->saturated[IBP_MON_XMIT_CONSTRAINT]);
	assert_true(q->total[IBP_MON_XMIT_CONSTRAINT] == 255);
	assert_true(tenant(s, "TenantA")->toward == 255);
	ibp_monitor_sweep_free(s);

	/* still saturated: nothing more is known, the total holds; then
	 * the monitor clears it (--reset) */
	pingpong(x, "tenantB-node-02", "tenantA-node-02", 1);
	s = sweep(x, true);
	q = port_of(s, "leaf-01", true, "tenantA-node-02");
	assert_true(q->total[IBP_MON_XMIT_CONSTRAINT] == 255);
	assert_int_equal(ibp_monitor_sweep_reset_ports(s), 14);
	ibp_monitor_sweep_free(s);
	size_t n;
	unsigned p;
	ibp_sim_session_port(x->ss, "leaf-01", &n, &p, NULL);
	size_t an;
	unsigned ap;
	ibp_sim_session_port(x->ss, "tenantA-node-02", &an, &ap, NULL);
	size_t pn;
	unsigned pp = 0;
	for (unsigned k = 1; k <= 24; k++)
		if (ibp_fabric_port_peer(ibp_sim_session_fabric(x->ss), n, k,
					 &pn, &ap) &&
		    pn == an)
			pp = k;
	assert_int_equal(
	    ibp_sim_port_counters(sim, n, pp)->pc_xmit_constraint_errors, 0);

	/* counts from 0 after our clear */
	pingpong(x, "tenantB-node-02", "tenantA-node-02", 1);
	s = sweep(x, false);
	q = port_of(s, "leaf-01", true, "tenantA-node-02");
	assert_true(q->raw[IBP_MON_XMIT_CONSTRAINT] == 8);
	assert_true(q->total[IBP_MON_XMIT_CONSTRAINT] == 263);
	assert_false(q->saturated[IBP_MON_XMIT_CONSTRAINT]);
	ibp_monitor_sweep_free(s);

	/* cleared by someone else (OpenSM's PerfMgr): the total does not
	 * go down; then 8 more count from the cleared value */
	ibp_sim_port_counters_mut(sim, n, pp)->pc_xmit_constraint_errors = 0;
	s = sweep(x, false);
	q = port_of(s, "leaf-01", true, "tenantA-node-02");
	assert_true(q->raw[IBP_MON_XMIT_CONSTRAINT] == 0);
	assert_true(q->total[IBP_MON_XMIT_CONSTRAINT] == 263);
	ibp_monitor_sweep_free(s);
	pingpong(x, "tenantB-node-02", "tenantA-node-02", 1);
	s = sweep(x, false);
	q = port_of(s, "leaf-01", true, "tenantA-node-02");
	assert_true(q->total[IBP_MON_XMIT_CONSTRAINT] == 271);
	assert_true(tenant(s, "TenantA")->toward == 271);
	ibp_monitor_sweep_free(s);
}

static void test_not_full_member(void **state)
{
	struct fx *x = *state;
	ibp_sim *sim = ibp_sim_session_sim(x->ss);
	size_t n;
	unsigned p;
	ibp_sim_session_sm_port(x->ss, &n, &p);
	ibp_pkey_table *t = ibp_tables_get_mut(ibp_sim_tables(sim), n, p);
	int i = ibp_pkey_table_find(t, 0xffff);
	assert_true(i >= 0);
	ibp_pkey_table_set(t, (unsigned)i, 0x7fff, NULL);
	ibp_monitor_sweep *s = sweep(x, false);
	assert_false(ibp_monitor_sweep_full_member(s));
	/* a limited GMP matches only full members (IBA 10.9.3): the
	 * tenants' HCAs and the switch (port 0 holds 0x7fff as the plan
	 * leaves it) refuse it, ufm-server (full in Default) answers */
	const struct ibp_monitor_port *q =
	    port_of(s, "tenantA-node-01", false, "tenantA-node-01");
	assert_false(q->pma_read);
	q = port_of(s, "leaf-01", true, "tenantA-node-01");
	assert_false(q->pma_read);
	q = port_of(s, "ufm-server", false, "ufm-server");
	assert_true(q->pma_read);
	/* PortInfo comes over SMPs, which are never P_Key checked */
	assert_true(q->smp_read);
	assert_true(ibp_monitor_sweep_unread(s) > 0);
	ibp_monitor_sweep_free(s);
	ibp_pkey_table_set(t, (unsigned)i, 0xffff, NULL);
}

/* OpenSM's lines: "%s %02d %02d:%02d:%02d %06d [%04X] 0x%02x -> " then
 * OSM_LOG's "%s: " (the function) and log_trap_info's messages
 * (osm_trap_rcv.c, 3.3.23). */
static void test_log_lines(void **state)
{
	(void)state;
	struct ibp_sm_trap t;
	const char *l257 =
	    "Dec 04 14:31:07 482113 [7F3A2B7FE700] 0x01 -> "
	    "log_trap_info: Bad P_Key:0x8002 on SL:0 from LID1:3 QP1:0x48 to "
	    "LID2:7 QP2:0x49";
	assert_int_equal(ibp_opensm_log_trap_parse(l257, strlen(l257), &t), 1);
	assert_int_equal(t.number, 257);
	assert_true(t.lids_valid && t.lid1 == 3 && t.lid2 == 7);
	assert_true(t.pkey_valid && t.pkey == 0x8002 && t.issuer_lid == 7);
	const char *l259 =
	    "Dec  4 14:31:07 482301 [7F3A2B7FE700] 0x01 -> log_trap_info: "
	    "Received Generic "
	    "Notice type:1 num:259 (Bad P_Key (switch external port)) "
	    "Producer:2 (Switch) from LID:2 TID:0x0000000000001234";
	assert_int_equal(ibp_opensm_log_trap_parse(l259, strlen(l259), &t), 1);
	assert_true(t.number == 259 && t.issuer_lid == 2 && !t.lids_valid);
	/* the generic line of a 257: its detail line counts, not it */
	const char *g257 =
	    "Dec 04 14:31:07 482100 [7F3A2B7FE700] 0x01 -> "
	    "log_trap_info: Received Generic Notice type:1 num:257 (Bad P_Key) "
	    "Producer:1 (Channel Adapter) from LID:7 "
	    "TID:0x0000000000000042";
	assert_int_equal(ibp_opensm_log_trap_parse(g257, strlen(g257), &t), 0);
	/* as the real OpenSM 3.3.23 wrote them on ibsim
	 * (tests/interop/test_live_traps.sh): the detail line counts; the
	 * SA's report of the same trap (osm_inform.c log_notice, 0x02) does
	 * not count it twice */
	const char *real = "Dec 04 14:37:49 136112 [29BCB6C0] 0x01 -> "
			   "log_trap_info: Bad P_Key:0x8001 on SL:0 from "
			   "LID1:3 QP1:0x48 to LID2:6 QP2:0x49";
	assert_int_equal(ibp_opensm_log_trap_parse(real, strlen(real), &t), 1);
	assert_true(t.lid1 == 3 && t.lid2 == 6 && t.pkey == 0x8001);
	const char *sa =
	    "Dec 04 14:37:49 136200 [29BCB6C0] 0x02 -> "
	    "log_notice: Reporting Security Notice \"Bad P_Key\" "
	    "from LID 6, GUID 0x506b4b0300a1b202 : LID1 3, LID2 6, "
	    "P_Key 0x8001, SL 0, QP1 0x48, QP2 0x49, GID1 ::, GID2 "
	    "::";
	assert_int_equal(ibp_opensm_log_trap_parse(sa, strlen(sa), &t), 0);
	/* the SA's report of a 259 (osm_inform.c log_notice, 0x02): the
	 * trap's whole DataDetails; DataValid 0x0007: LID1, LID2, P_Key */
	const char *r259 =
	    "Dec 04 14:37:49 136300 [29BCB6C0] 0x02 -> log_notice: "
	    "Reporting Security Notice \"Bad P_Key (switch external port)\" "
	    "from switch LID 2, GUID 0x506b4b0300a1b100 port 5 : data_valid "
	    "0x0007, LID1 3, LID2 6, PKey 0x8001, SL 0, QP1 0x48, QP2 0x49, "
	    "GID1 ::, GID2 fe80::506b:4b03:a1:b202";
	assert_int_equal(ibp_opensm_log_trap_parse(r259, strlen(r259), &t), 2);
	assert_true(t.number == 259 && t.issuer_lid == 2 && t.sw_port == 5);
	assert_true(t.lids_valid && t.lid1 == 3 && t.lid2 == 6);
	assert_true(t.pkey_valid && t.pkey == 0x8001);
	/* DataValid without LID1 and LID2: the LIDs are not taken */
	const char *r259n =
	    "Dec 04 14:37:49 136300 [29BCB6C0] 0x02 -> log_notice: "
	    "Reporting Security Notice \"Bad P_Key (switch external port)\" "
	    "from switch LID 2, GUID 0x506b4b0300a1b100 port 5 : data_valid "
	    "0x0004, LID1 3, LID2 6, PKey 0x8001, SL 0, QP1 0x0, QP2 0x0, "
	    "GID1 ::, GID2 ::";
	assert_int_equal(ibp_opensm_log_trap_parse(r259n, strlen(r259n), &t),
			 2);
	assert_true(!t.lids_valid && t.pkey_valid && t.sw_port == 5);
	/* cut, out of range, a GID that is not one: refused */
	const char *r259bad[] = {
	    "Dec 04 14:37:49 136300 [29BCB6C0] 0x02 -> log_notice: "
	    "Reporting Security Notice \"Bad P_Key (switch external port)\" "
	    "from switch LID 2, GUID 0x506b4b0300a1b100 port 256 : data_valid "
	    "0x0007, LID1 3, LID2 6, PKey 0x8001, SL 0, QP1 0x48, QP2 0x49, "
	    "GID1 ::, GID2 ::",
	    "Dec 04 14:37:49 136300 [29BCB6C0] 0x02 -> log_notice: "
	    "Reporting Security Notice \"Bad P_Key (switch external port)\" "
	    "from switch LID 2, GUID 0x506b4b0300a1b100 port 5 : data_valid "
	    "0x0007, LID1 3, LID2 6, PKey 0x8001, SL 0, QP1 0x48, QP2 0x49, "
	    "GID1 ::, GID2 :: and more",
	    "Dec 04 14:37:49 136300 [29BCB6C0] 0x02 -> log_notice: "
	    "Reporting Security Notice \"Bad P_Key (switch external port)\" "
	    "from switch LID 2, GUID 0x506b4b0300a1b100 port 5 : data_valid "
	    "0x0007, LID1 3",
	};
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(ibp_opensm_log_trap_parse(
				     r259bad[i], strlen(r259bad[i]), &t),
				 -1);
	/* text a tenant wrote (a NodeDescription), not at a message's start,
	 * or without OpenSM's prefix and function name, is not a trap */
	const char *fake[] = {
	    "Dec 04 14:31:07 482113 [7F3A] 0x01 -> Bad P_Key:0x8002 on SL:0 "
	    "from LID1:3 QP1:0x48 to LID2:7 QP2:0x49",
	    "Dec 04 14:31:07 482113 [7F3A] 0x02 -> node \"Bad P_Key:0x8002 on "
	    "SL:0 from LID1:3 QP1:0x48 to LID2:7 QP2:0x49\"",
	    "Bad P_Key:0x8002 on SL:0 from LID1:3 QP1:0x48 to LID2:7 QP2:0x49",
	    "",
	};
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(
		    ibp_opensm_log_trap_parse(fake[i], strlen(fake[i]), &t), 0);
	/* out of range, cut, trailing text: refused, not wrapped */
	const char *bad[] = {
	    "Dec 04 14:31:07 482113 [7F3A] 0x01 -> log_trap_info: Bad "
	    "P_Key:0x8002 on SL:0 "
	    "from LID1:65536 QP1:0x48 to LID2:7 QP2:0x49",
	    "Dec 04 14:31:07 482113 [7F3A] 0x01 -> log_trap_info: Bad "
	    "P_Key:0x1ffffffff on "
	    "SL:0 from LID1:3 QP1:0x48 to LID2:7 QP2:0x49",
	    "Dec 04 14:31:07 482113 [7F3A] 0x01 -> log_trap_info: Bad "
	    "P_Key:0x8002 on SL:0 "
	    "from LID1:3 QP1:0x48 to LID2:",
	    "Dec 04 14:31:07 482113 [7F3A] 0x01 -> log_trap_info: Bad "
	    "P_Key:0x8002 on SL:0 "
	    "from LID1:3 QP1:0x48 to LID2:7 QP2:0x49\x1b[2J",
	};
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(
		    ibp_opensm_log_trap_parse(bad[i], strlen(bad[i]), &t), -1);
	/* bounded: a length shorter than the text is all that is read */
	assert_int_equal(ibp_opensm_log_trap_parse(l257, 90, &t), -1);
}

static ibp_monitor_sweep *sweep_log(struct fx *x, const char *log,
				    const struct ibp_sm_trap *traps,
				    size_t ntraps)
{
	struct ibp_monitor_options o;
	ibp_monitor_options_init(&o, IBP_MONITOR_OPTIONS_VERSION);
	o.conf_path = x->conf;
	o.opensm_log_path = log;
	o.traps = traps;
	o.ntraps = ntraps;
	ibp_monitor_sweep *s = NULL;
	ibp_error err;
	assert_int_equal(ibp_monitor_sweep_run(x->l, &o, x->st, &s, NULL, &err),
			 IBP_OK);
	return s;
}

static void append(const char *path, const char *mode, const char *text)
{
	FILE *f = fopen(path, mode);
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Write text to the log (mode "w" or "a"), sweep: the sweep counts
 * traps new traps and TenantB's total toward is toward. */
static void expect_log(struct fx *x, const char *log, const char *mode,
		       const char *text, size_t traps, uint64_t toward)
{
	append(log, mode, text);
	ibp_monitor_sweep *s = sweep_log(x, log, NULL, 0);
	assert_int_equal(ibp_monitor_sweep_traps(s), traps);
	assert_true(tenant(s, "TenantB")->traps_toward == toward);
	ibp_monitor_sweep_free(s);
}

static void test_log_incremental(void **state)
{
	struct fx *x = *state;
	ibp_monitor_sweep *s = sweep(x, false);
	uint16_t la =
	    port_of(s, "tenantA-node-01", false, "tenantA-node-01")->lid;
	uint16_t lb =
	    port_of(s, "tenantB-node-01", false, "tenantB-node-01")->lid;
	ibp_monitor_sweep_free(s);
	char line[256], log[] = "/tmp/ibpart-osmlog-XXXXXX";
	int fd = mkstemp(log);
	assert_true(fd >= 0);
	close(fd);
	snprintf(
	    line, sizeof(line),
	    "Dec 04 14:31:07 482113 [7F3A2B7FE700] 0x01 -> log_trap_info: Bad "
	    "P_Key:0x8001 on SL:0 from LID1:%u QP1:0x48 to LID2:%u "
	    "QP2:0x49\n",
	    la, lb);
	append(log, "w", "Dec 04 14:31:06 000001 [7F3A] 0x02 -> SUBNET UP\n");
	append(log, "a", line);
	append(log, "a", line);
	/* an unfinished line is left for the next sweep */
	append(log, "a",
	       "Dec 04 14:31:07 482113 [7F3A2B7FE700] 0x01 -> log_trap_info: "
	       "Bad ");
	s = sweep_log(x, log, NULL, 0);
	assert_int_equal(ibp_monitor_sweep_traps(s), 2);
	assert_true(tenant(s, "TenantA")->traps_from == 2);
	assert_true(tenant(s, "TenantB")->traps_toward == 2);
	assert_true(tenant(s, "TenantA")->traps_toward == 0);
	assert_int_equal(ibp_monitor_sweep_trap_port_count(s), 1);
	ibp_monitor_sweep_free(s);
	/* the line finished: one more, the earlier ones not again */
	expect_log(x, log, "a",
		   line + strlen("Dec 04 14:31:07 482113 [7F3A2B7FE700] "
				 "0x01 -> log_trap_info: Bad "),
		   1, 3);
	/* truncated (logrotate's copytruncate): read from its start */
	expect_log(x, log, "w", line, 1, 4);
	/* rotated: another file at the path, longer than the offset */
	char old[64];
	snprintf(old, sizeof(old), "%s.1", log);
	assert_int_equal(rename(log, old), 0);
	append(log, "w", line);
	append(log, "a", line);
	s = sweep_log(x, log, NULL, 0);
	assert_int_equal(ibp_monitor_sweep_traps(s), 2);
	assert_true(tenant(s, "TenantB")->traps_toward == 6);
	char *prom = ibp_monitor_sweep_prometheus(s);
	assert_non_null(strstr(prom, "ibpart_tenant_bad_pkey_traps_total{"
				     "tenant=\"TenantB\",direction=\"toward\"} "
				     "6\n"));
	free(prom);
	ibp_monitor_sweep_free(s);
	unlink(old);
	unlink(log);
}

/* A trap 259 in OpenSM's log: its num:259 line counts it, the SA's
 * report line after it gives it its switch port, LID1 and LID2; when a
 * sweep falls between the two lines, the next one adds only the
 * tenants. */
static void test_log_259(void **state)
{
	struct fx *x = *state;
	ibp_monitor_sweep *s = sweep(x, false);
	uint16_t la =
	    port_of(s, "tenantA-node-01", false, "tenantA-node-01")->lid;
	const struct ibp_monitor_port *leaf =
	    port_of(s, "leaf-01", true, "tenantB-node-01");
	uint16_t lb =
	    port_of(s, "tenantB-node-01", false, "tenantB-node-01")->lid;
	uint16_t lsw = leaf->lid;
	uint64_t swguid = leaf->node_guid;
	unsigned swport = leaf->port;
	ibp_monitor_sweep_free(s);
	char num[256], rep[512], log[] = "/tmp/ibpart-osmlog259-XXXXXX";
	int fd = mkstemp(log);
	assert_true(fd >= 0);
	close(fd);
	snprintf(num, sizeof(num),
		 "Dec 04 14:37:49 136200 [29BCB6C0] 0x01 -> log_trap_info: "
		 "Received Generic Notice type:2 num:259 (Bad P_Key (switch "
		 "external port)) Producer:2 (Switch) from LID:%u "
		 "TID:0x0000000000001234\n",
		 lsw);
	snprintf(rep, sizeof(rep),
		 "Dec 04 14:37:49 136300 [29BCB6C0] 0x02 -> log_notice: "
		 "Reporting Security Notice \"Bad P_Key (switch external "
		 "port)\" from switch LID %u, GUID 0x%016llx port %u : "
		 "data_valid 0x0007, LID1 %u, LID2 %u, PKey 0x8001, SL 0, QP1 "
		 "0x48, QP2 0x49, GID1 ::, GID2 ::\n",
		 lsw, (unsigned long long)swguid, swport, la, lb);
	append(log, "w", num);
	append(log, "a", rep);
	s = sweep_log(x, log, NULL, 0);
	assert_int_equal(ibp_monitor_sweep_traps(s), 1);
	assert_true(tenant(s, "TenantA")->traps_from == 1);
	assert_true(tenant(s, "TenantB")->traps_toward == 1);
	assert_int_equal(ibp_monitor_sweep_trap_port_count(s), 1);
	const struct ibp_monitor_trap_port *tp =
	    ibp_monitor_sweep_trap_port(s, 0);
	assert_true(tp->node_guid == swguid && tp->port == swport &&
		    tp->total == 1);
	ibp_monitor_sweep_free(s);
	/* the num:259 line read by one sweep, its report line by the next:
	 * counted once, on the switch (port 0), then given its tenants */
	expect_log(x, log, "a", num, 1, 1);
	append(log, "a", rep);
	s = sweep_log(x, log, NULL, 0);
	assert_int_equal(ibp_monitor_sweep_traps(s), 0);
	assert_true(tenant(s, "TenantA")->traps_from == 2);
	assert_true(tenant(s, "TenantB")->traps_toward == 2);
	size_t on_port0 = 0;
	for (size_t i = 0; i < ibp_monitor_sweep_trap_port_count(s); i++) {
		tp = ibp_monitor_sweep_trap_port(s, i);
		if (tp->node_guid == swguid && tp->port == 0)
			on_port0 = tp->total;
	}
	assert_int_equal(on_port0, 1);
	ibp_monitor_sweep_free(s);
	/* a report line with no num:259 line before it counts by itself */
	expect_log(x, log, "a", rep, 1, 3);
	unlink(log);
}

/* The "a cross-tenant pingpong raises exactly the counters and
 * traps the monitor then reports for that tenant": the simulator's SM
 * received 8 traps 259 from the very leaf port whose 8
 * PortXmitConstraintErrors the monitor gives TenantB toward. */
static void test_sim_traps(void **state)
{
	struct fx *x = *state;
	pingpong(x, "tenantA-node-01", "tenantB-node-01", 1);
	struct ibp_sm_trap traps[64];
	size_t n = ibp_sm_traps_take(ibp_sim_session_sm(x->ss), traps, 64);
	assert_int_equal(n, 8);
	ibp_monitor_sweep *s = sweep_log(x, NULL, traps, n);
	const struct ibp_monitor_port *q =
	    port_of(s, "leaf-01", true, "tenantB-node-01");
	only(s, q, IBP_MON_XMIT_CONSTRAINT, 8);
	assert_true(tenant(s, "TenantB")->toward == 8);
	assert_true(tenant(s, "TenantB")->traps_toward == 8);
	assert_true(tenant(s, "TenantB")->traps_from == 0);
	assert_true(tenant(s, "TenantA")->traps_from == 8);
	assert_int_equal(ibp_monitor_sweep_trap_port_count(s), 1);
	const struct ibp_monitor_trap_port *tp =
	    ibp_monitor_sweep_trap_port(s, 0);
	assert_true(tp->node_guid == q->node_guid && tp->port == q->port &&
		    tp->total == 8);
	ibp_monitor_sweep_free(s);
	/* counted once: the next sweep has none new, the totals stay */
	s = sweep_log(x, NULL, NULL, 0);
	assert_int_equal(ibp_monitor_sweep_traps(s), 0);
	assert_true(tenant(s, "TenantB")->traps_toward == 8);
	ibp_monitor_sweep_free(s);
}

/* ClassPortInfo once per node per state: the second sweep sends only
 * the counters' GMPs (one per port read). */
static void test_cpi_cached(void **state)
{
	struct fx *x = *state;
	ibp_monitor_sweep *s = sweep(x, false);
	unsigned long first = ibp_monitor_sweep_gmps(s);
	size_t ports = ibp_monitor_sweep_port_count(s);
	ibp_monitor_sweep_free(s);
	s = sweep(x, false);
	assert_int_equal(ibp_monitor_sweep_gmps(s), ports);
	assert_true(first > ports);
	ibp_monitor_sweep_free(s);
}

/* The posture beside the counters: the seed plan on the fabric it was
 * pushed to has no drift; its findings by hand: shared-limited-member
 * (medium: storage-node limited in both tenants), default-limited-member
 * and multicast-groups (info); the SM port is known, so no
 * sm-port-assumed.  Then tenantA-node-01's TenantA key made limited
 * (0x8001 -> 0x0001) behind the plan's back: one port drifts, in
 * membership only (its leaf port keeps the full key: a copy is not
 * re-made by the port's change). */
static void test_posture(void **state)
{
	struct fx *x = *state;
	struct ibp_monitor_options o;
	ibp_monitor_options_init(&o, IBP_MONITOR_OPTIONS_VERSION);
	o.conf_path = x->conf;
	o.audit = o.drift = true;
	struct ibp_monitor_posture p;
	ibp_error err;
	assert_int_equal(
	    ibp_monitor_posture_compute(x->l, &o, &p, NULL, NULL, &err),
	    IBP_OK);
	assert_true(p.audit_known && p.drift_known);
	assert_int_equal(p.audit[IBP_AUDIT_CRITICAL], 0);
	assert_int_equal(p.audit[IBP_AUDIT_HIGH], 0);
	assert_int_equal(p.audit[IBP_AUDIT_MEDIUM], 1);
	assert_int_equal(p.audit[IBP_AUDIT_INFO], 2);
	assert_int_equal(p.drifted, 0);
	size_t n;
	unsigned port;
	assert_int_equal(
	    ibp_sim_session_port(x->ss, "tenantA-node-01", &n, &port, &err),
	    IBP_OK);
	ibp_pkey_table *t = ibp_tables_get_mut(
	    ibp_sim_tables(ibp_sim_session_sim(x->ss)), n, port);
	int i = ibp_pkey_table_find(t, 0x8001);
	assert_true(i >= 0);
	ibp_pkey_table_set(t, (unsigned)i, 0x0001, NULL);
	ibp_verify_result *vr = NULL;
	assert_int_equal(
	    ibp_monitor_posture_compute(x->l, &o, &p, &vr, NULL, &err), IBP_OK);
	assert_int_equal(p.drifted, 1);
	/* the same drift as the web view's rows: that port, its words */
	ibp_web_drift *rows = NULL;
	size_t nrows = 0;
	assert_int_equal(ibp_verify_result_web_drift(vr, &rows, &nrows, &err),
			 IBP_OK);
	assert_int_equal(nrows, 1);
	assert_int_equal(rows[0].port, port);
	assert_string_equal(rows[0].kind, "membership");
	assert_non_null(strstr(rows[0].node_desc, "tenantA-node-01"));
	char want[80];
	snprintf(
	    want, sizeof(want),
	    "index %d holds 0x0001 (limited), the plan wants 0x8001 (full)", i);
	assert_string_equal(rows[0].detail, want);
	ibp_web_drift_free(rows, nrows);
	ibp_verify_result_free(vr);
	assert_int_equal(p.drift[IBP_DRIFT_MEMBERSHIP], 1);
	assert_int_equal(p.drift[IBP_DRIFT_MISSING] + p.drift[IBP_DRIFT_EXTRA] +
			     p.drift[IBP_DRIFT_INDEX] +
			     p.drift[IBP_DRIFT_UNREACHABLE] +
			     p.drift[IBP_DRIFT_ENFORCEMENT],
			 0);
	/* the exposition: ibpartd's names, labels and order */
	ibp_monitor_sweep *s = sweep(x, false);
	char *text = ibp_monitor_sweep_format(s, &p, "prometheus");
	assert_non_null(text);
	assert_non_null(strstr(text,
			       "# TYPE ibpart_drift_ports gauge\n"
			       "ibpart_drift_ports{kind=\"missing\"} 0\n"
			       "ibpart_drift_ports{kind=\"extra\"} 0\n"
			       "ibpart_drift_ports{kind=\"membership\"} 1\n"));
	assert_non_null(
	    strstr(text, "ibpart_audit_findings{severity=\"critical\"} 0\n"
			 "ibpart_audit_findings{severity=\"high\"} 0\n"
			 "ibpart_audit_findings{severity=\"medium\"} 1\n"
			 "ibpart_audit_findings{severity=\"info\"} 2\n"));
	free(text);
	/* kept as a service keeps it: the drift series has the sweep */
	ibp_monitor_history *h = ibp_monitor_history_new(2);
	assert_non_null(h);
	for (int k = 0; k < 3; k++)
		assert_int_equal(ibp_monitor_history_add(h, s, k ? &p : NULL),
				 IBP_OK);
	assert_int_equal(ibp_monitor_history_count(h), 2); /* bounded */
	ibp_monitor_series *xs = NULL;
	assert_int_equal(ibp_monitor_history_series(h, &xs, &err), IBP_OK);
	size_t ns;
	const ibp_web_series *ws = ibp_monitor_series_get(xs, &ns);
	assert_int_equal(ns, 2 * 3 + 1); /* two tenants, the drift */
	assert_string_equal(ws[0].tenant, "TenantA");
	assert_string_equal(ws[0].counter, "from");
	assert_int_equal(ws[0].n, 2);
	assert_string_equal(ws[6].counter, "ports drifted");
	assert_int_equal(ws[6].n, 2);
	assert_true(ws[6].values[1] == 1.0);
	assert_true(ws[6].times[1] == (int64_t)ibp_monitor_sweep_time(s));
	ibp_monitor_series_free(xs);
	ibp_monitor_history_free(h);
	ibp_monitor_sweep_free(s);
	ibp_pkey_table_set(t, (unsigned)i, 0x8001, NULL);
}

/* One ibp_monitor_run_once into a memory stream: its status, and what it
 * wrote (the caller frees *text). */
static int run_once(struct fx *x, const struct ibp_monitor_run_options *o,
		    char **text, ibp_error *err)
{
	size_t len = 0;
	FILE *out = open_memstream(text, &len);
	assert_non_null(out);
	struct ibp_monitor_run_options oo = *o;
	oo.out = out;
	struct ibp_monitor_run_result res;
	int rc = ibp_monitor_run_once(x->l, &oo, x->st, &res, NULL, err);
	fclose(out);
	return rc;
}

/* ibp_monitor_run_once reads its options and the sweep's they point to
 * each as far as its own version goes: 0 or a version newer than the
 * library's is refused, naming the struct, with nothing written; a NULL
 * sweep is the defaults (no plan: the sweep's own refusal); a version 2
 * sweep (before audit and drift) gets the run's defaults for them, so
 * the posture is beside the counters even though the caller's bytes
 * past version 2 say false. */
static void test_run_options_version(void **state)
{
	struct fx *x = *state;
	struct ibp_monitor_run_options o;
	struct ibp_monitor_options so;
	ibp_error err;
	char *text = NULL;
	const unsigned bad[] = {0, IBP_MONITOR_RUN_OPTIONS_VERSION + 1};
	const unsigned sbad[] = {0, IBP_MONITOR_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		ibp_monitor_options_init(&so, IBP_MONITOR_OPTIONS_VERSION);
		so.conf_path = x->conf;
		ibp_monitor_run_options_init(&o, bad[i]);
		o.sweep = &so;
		assert_int_equal(run_once(x, &o, &text, &err), IBP_EINVAL);
		assert_non_null(
		    strstr(err.message, "monitor run options: version"));
		assert_string_equal(text, "");
		free(text);
		ibp_monitor_run_options_init(&o,
					     IBP_MONITOR_RUN_OPTIONS_VERSION);
		assert_null(o.sweep);
		ibp_monitor_options_init(&so, sbad[i]);
		so.conf_path = x->conf;
		o.sweep = &so;
		assert_int_equal(run_once(x, &o, &text, &err), IBP_EINVAL);
		assert_non_null(
		    strstr(err.message, "monitor options: version"));
		assert_null(strstr(err.message, "run"));
		assert_string_equal(text, "");
		free(text);
	}
	/* NULL: the defaults, which name no plan */
	ibp_monitor_run_options_init(&o, IBP_MONITOR_RUN_OPTIONS_VERSION);
	assert_int_equal(run_once(x, &o, &text, &err), IBP_EINVAL);
	assert_non_null(strstr(err.message, "the plan's path"));
	free(text);
	/* version 2: audit and drift are the run's (on), not the bytes */
	ibp_monitor_options_init(&so, IBP_MONITOR_OPTIONS_VERSION);
	ibp_monitor_options_init(&so, 2);
	so.conf_path = x->conf;
	so.audit = so.drift = false; /* past version 2: not read */
	o.sweep = &so;
	assert_int_equal(run_once(x, &o, &text, &err), IBP_OK);
	assert_non_null(
	    strstr(text, "ibpart_audit_findings{severity=\"medium\"} 1\n"));
	assert_non_null(
	    strstr(text, "ibpart_drift_ports{kind=\"missing\"} 0\n"));
	free(text);
	/* the current version's false is read: no posture */
	ibp_monitor_options_init(&so, IBP_MONITOR_OPTIONS_VERSION);
	so.conf_path = x->conf;
	assert_int_equal(run_once(x, &o, &text, &err), IBP_OK);
	assert_non_null(strstr(text, "tenant=\"TenantA\""));
	assert_null(strstr(text, "ibpart_audit_findings"));
	assert_null(strstr(text, "ibpart_drift_ports"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_cross_tenant, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_saturation_and_resets, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_not_full_member, setup,
					    teardown),
	    cmocka_unit_test(test_log_lines),
	    cmocka_unit_test_setup_teardown(test_log_incremental, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_log_259, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sim_traps, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cpi_cached, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_posture, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_run_options_version, setup,
					    teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
