/*
 * test_live_enforce.c - partition enforcement reconciled like OpenSM, on
 * the simulated seed fabric through a live session: apply checks every
 * leaf port against part_enforce and Sets those that differ, also where
 * no table changes (a port whose bits were changed behind our back,
 * part_enforce off); verify calls a difference drift; a rollback puts
 * back the bits the state file saved; switches that implement no
 * enforcement bit (ibsim's) are neither checked nor Set; a leaf port
 * whose copy is truncated is wanted off (OpenSM's ERR 0507); bits set
 * on ports between switches are cleared, as OpenSM clears them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ibpart/apply.h"
#include "live/apply_lib.h"
#include "ibpart/live.h"
#include "live/live_lib.h"
#include "ibpart/sys/transport_sim.h"
#include "ibpart/verify.h"
#include "live/verify_lib.h"
#include "sim_fixture.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/apply.h"
#include "front/print.h"
#include "ibpart/sys/live.h"

struct fx {
	ibp_fabric *f;
	ibp_sim *s;
	ibp_transport *t;
	ibp_live *l;
	size_t leaf, sm;
	char conf[1024];
	char state[64];
};

static void open_session_dry(struct fx *x, int enforce, bool dry_run)
{
	ibp_live_close(x->l);
	x->l = NULL;
	struct ibp_live_options lo;
	ibp_live_options_init(&lo, IBP_LIVE_OPTIONS_VERSION);
	lo.ca = "sim";
	lo.enforce = enforce;
	lo.dry_run = dry_run;
	assert_int_equal(
	    ibp_live_open_transport(
		&lo, x->t, ibp_fabric_port_guid(x->f, x->sm, 1), &x->l, NULL),
	    IBP_OK);
	assert_int_equal(ibp_live_discover(x->l, NULL), IBP_OK);
	ibp_live_set_topology(x->l, x->f);
	assert_int_equal(ibp_live_find_sm(x->l, NULL, NULL), IBP_OK);
}

static void open_session(struct fx *x, int enforce)
{
	open_session_dry(x, enforce, false);
}

/* The seed fabric, or (mixed) tests/data/interop/mixed.topo: two
 * switches joined by two links, with m01-mixed.conf as the plan. */
static int setup_fabric(void **state, bool mixed)
{
	struct fx *x = calloc(1, sizeof(*x));
	const char *td = getenv("IBP_TESTDATA");
	char path[1024];
	if (mixed) {
		snprintf(path, sizeof(path), "%s/interop/mixed.topo",
			 td ? td : "tests/data");
		ibp_fabric_options fo;
		ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
		assert_int_equal(ibp_fabric_load(path, &fo, &x->f, NULL),
				 IBP_OK);
		assert_int_equal(ibp_fabric_assign_lids(x->f, 0, NULL), IBP_OK);
	} else {
		x->f = fixture_seed_fabric();
	}
	assert_non_null(x->f);
	assert_int_equal(ibp_sim_new(x->f, &x->s, NULL), IBP_OK);
	x->sm = fixture_node(x->f, mixed ? "sm-node" : "sm-01");
	assert_int_equal(
	    ibp_transport_sim_new(x->s, x->sm, 1, NULL, &x->t, NULL), IBP_OK);
	x->leaf = fixture_node(x->f, mixed ? "sw1" : "leaf-01");
	const char *ex = getenv("IBP_EXAMPLES");
	if (mixed)
		snprintf(x->conf, sizeof(x->conf), "%s/interop/m01-mixed.conf",
			 td ? td : "tests/data");
	else
		snprintf(x->conf, sizeof(x->conf), "%s/seed/partitions.conf",
			 ex ? ex : "examples");
	snprintf(x->state, sizeof(x->state), "/tmp/ibp-enf-%ld.json",
		 (long)getpid());
	open_session(x, IBP_ENFORCE_BOTH);
	*state = x;
	return 0;
}

static int setup(void **state)
{
	return setup_fabric(state, false);
}

static int setup_mixed(void **state)
{
	return setup_fabric(state, true);
}

static int teardown(void **state)
{
	struct fx *x = *state;
	ibp_live_close(x->l);
	ibp_transport_close(x->t);
	ibp_sim_free(x->s);
	ibp_fabric_free(x->f);
	unlink(x->state);
	free(x);
	return 0;
}

/* apply (a plan, or a rollback to x->state); the state saved to
 * x->state when save.  Returns the apply (the caller frees it). */
static ibp_apply *apply(struct fx *x, bool rollback, bool save)
{
	struct ibp_apply_options ao;
	ibp_apply_options_init(&ao, IBP_APPLY_OPTIONS_VERSION);
	if (rollback)
		ao.rollback = x->state;
	else
		ao.conf_path = x->conf;
	ao.force = true; /* the simulated SM port is this program */
	ibp_apply *a = NULL;
	ibp_error e;
	int rc = ibp_apply_plan(x->l, &ao, &a, NULL, &e);
	if (rc)
		print_error("plan: %s\n", e.message);
	assert_int_equal(rc, IBP_OK);
	struct ibp_apply_run_options ro;
	ibp_apply_run_options_init(&ro, IBP_APPLY_RUN_OPTIONS_VERSION);
	if (save) {
		ro.state_path = x->state;
		ro.state_always = true;
	}
	rc = ibp_apply_run(a, &ro, &e);
	if (rc)
		print_error("run: %s\n", e.message);
	assert_int_equal(rc, IBP_OK);
	assert_true(ibp_apply_complete(a));
	return a;
}

static ibp_verify_result *verify(struct fx *x)
{
	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo, IBP_VERIFY_OPTIONS_VERSION);
	vo.conf_path = x->conf;
	ibp_verify_result *r = NULL;
	assert_int_equal(ibp_verify(x->l, &vo, &r, NULL, NULL), IBP_OK);
	return r;
}

static unsigned leaf_ports_with(struct fx *x, bool in, bool out)
{
	unsigned n = 0;
	for (unsigned p = 1; p <= ibp_fabric_node_nports(x->f, x->leaf); p++) {
		const struct ibp_sim_port_info *pi =
		    ibp_sim_port_info(x->s, x->leaf, p);
		size_t pn;
		unsigned pp;
		if (ibp_fabric_port_peer(x->f, x->leaf, p, &pn, &pp) &&
		    pi->part_enforce_in == in && pi->part_enforce_out == out)
			n++;
	}
	return n;
}

/* A leaf port whose bits are changed while its table is right: verify
 * says so (drift, text and JSON), the next apply Sets only that port's
 * PortInfo, no P_KeyTable block. */
static void test_reconcile_unchanged_table(void **state)
{
	struct fx *x = *state;
	ibp_apply_free(apply(x, false, false));
	assert_int_equal(leaf_ports_with(x, true, true), 7);
	ibp_verify_result *r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	assert_int_equal(ibp_verify_result_enforcement_checked(r), 7);
	ibp_verify_result_free(r);

	size_t ta = fixture_node(x->f, "tenantA-node-01");
	size_t sw;
	unsigned swp;
	assert_true(ibp_fabric_port_peer(x->f, ta, 1, &sw, &swp));
	ibp_sim_port_info(x->s, sw, swp)->part_enforce_in = false;
	r = verify(x);
	size_t ports = 0;
	assert_int_equal(ibp_verify_result_differences(r, &ports), 1);
	assert_int_equal(ports, 1);
	const struct ibp_drift_item *it =
	    ibp_drift_at(ibp_verify_result_drift(r), 0);
	assert_int_equal(it->kind, IBP_DRIFT_ENFORCEMENT);
	assert_int_equal(it->node, sw);
	assert_int_equal(it->port, swp);
	assert_int_equal(it->want_enforce, IBP_ENFORCE_BOTH);
	assert_int_equal(it->have_enforce, IBP_ENFORCE_OUT);
	char *j = ibp_verify_result_json(r);
	assert_non_null(strstr(j, "\"kind\": \"enforcement\""));
	assert_non_null(strstr(j, "\"have\": \"out\""));
	free(j);
	char *txt = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&txt, &len);
	ibp_verify_result_print(r, m);
	fclose(m);
	assert_non_null(strstr(txt, "DRIFT "));
	assert_non_null(strstr(txt, "PortInfo partition enforcement out "
				    "(Inbound 0, Outbound 1), part_enforce "
				    "wants both (1, 1)"));
	free(txt);
	ibp_verify_result_free(r);

	ibp_apply *a = apply(x, false, false);
	assert_int_equal(ibp_apply_port_count(a), 1);
	const struct ibp_apply_port *p = ibp_apply_port_at(a, 0);
	assert_true(p->enforce);
	assert_int_equal(p->nblocks, 0);
	assert_int_equal(p->state, IBP_APPLY_CHANGED);
	assert_int_equal(ibp_apply_report(a)->blocks_written, 0);
	assert_int_equal(ibp_apply_report(a)->enforce_ports, 1);
	ibp_apply_free(a);
	assert_true(ibp_sim_port_info(x->s, sw, swp)->part_enforce_in);
	r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	ibp_verify_result_free(r);
}

/* part_enforce off: the tables are as planned, so no leaf port is in the
 * block diff, yet every leaf port's bits go off (OpenSM clears them on
 * its sweep); the state file saved before keeps "both", and the rollback
 * puts it back on each port. */
static void test_off_then_rollback(void **state)
{
	struct fx *x = *state;
	ibp_apply_free(apply(x, false, false));
	assert_int_equal(leaf_ports_with(x, true, true), 7);
	open_session(x, IBP_ENFORCE_OFF);
	ibp_verify_result *r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 7);
	ibp_verify_result_free(r);
	ibp_apply *a = apply(x, false, true);
	assert_int_equal(ibp_apply_port_count(a), 7);
	assert_int_equal(ibp_apply_report(a)->blocks_written, 0);
	assert_int_equal(ibp_apply_report(a)->enforce_ports, 7);
	ibp_apply_free(a);
	assert_int_equal(leaf_ports_with(x, false, false), 7);

	/* the rollback (which leaves bits the file does not hold alone)
	 * restores each saved port's bits */
	open_session(x, -1);
	a = apply(x, true, false);
	assert_int_equal(ibp_apply_report(a)->enforce_ports, 7);
	assert_int_equal(ibp_apply_report(a)->blocks_written, 0);
	ibp_apply_free(a);
	assert_int_equal(leaf_ports_with(x, true, true), 7);
	/* a session that leaves enforcement alone checks nothing */
	r = verify(x);
	assert_int_equal(ibp_verify_result_enforcement_checked(r), 0);
	ibp_verify_result_free(r);
}

/* Switches whose SwitchInfo implements neither bit (ibsim's): not
 * checked, not drift, not Set. */
static void test_unsupported_not_checked(void **state)
{
	struct fx *x = *state;
	ibp_sim_set_enforcement_bits(x->s, false);
	open_session(x, IBP_ENFORCE_BOTH);
	ibp_apply *a = apply(x, false, false);
	assert_int_equal(ibp_apply_report(a)->enforce_ports, 0);
	ibp_apply_free(a);
	ibp_verify_result *r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	assert_int_equal(ibp_verify_result_enforcement_checked(r), 0);
	ibp_verify_result_free(r);
	assert_int_equal(leaf_ports_with(x, false, false), 7);
}

/* The dry run lists each PortInfo Set it would send, with the bits, and
 * sends none. */
static void test_dry_run_lists_portinfo_sets(void **state)
{
	struct fx *x = *state;
	ibp_apply_free(apply(x, false, false));
	open_session_dry(x, IBP_ENFORCE_IN, true);
	struct ibp_apply_options ao;
	ibp_apply_options_init(&ao, IBP_APPLY_OPTIONS_VERSION);
	ao.conf_path = x->conf;
	ibp_apply *a = NULL;
	assert_int_equal(ibp_apply_plan(x->l, &ao, &a, NULL, NULL), IBP_OK);
	assert_int_equal(ibp_apply_port_count(a), 7);
	char *txt = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&txt, &len);
	ibp_apply_print_plan(a, m);
	fclose(m);
	unsigned lines = 0;
	for (const char *p = txt; (p = strstr(p, "SubnSet(PortInfo) ")); p++)
		lines++;
	assert_int_equal(lines, 7);
	assert_non_null(strstr(txt, "partition enforcement both -> in "
				    "(PartitionEnforcementInbound 1, Outbound "
				    "0; PortState, PortPhysicalState, "
				    "LinkDownDefaultState 0: no change)"));
	assert_non_null(strstr(txt, "0 SubnSet(P_KeyTable)"));
	assert_non_null(strstr(txt, ", 7 SubnSet(PortInfo); nothing sent"));
	free(txt);
	ibp_apply_free(a);
	assert_int_equal(leaf_ports_with(x, true, true), 7);
}

/* A leaf port whose copy of its end port's table does not fit
 * (PartitionEnforcementCap 2, three P_Keys): OpenSM truncates the copy
 * and turns enforcement off there (ERR 0507) - so does apply, and verify
 * wants it off; the other leaf ports get both. */
static void test_truncated_copy_unenforced(void **state)
{
	struct fx *x = *state;
	ibp_live_close(x->l);
	x->l = NULL;
	ibp_sim_free(x->s);
	ibp_transport_close(x->t);
	assert_int_equal(ibp_fabric_set_enforcement_cap(x->f, x->leaf, 2),
			 IBP_OK);
	assert_int_equal(ibp_sim_new(x->f, &x->s, NULL), IBP_OK);
	assert_int_equal(ibp_transport_sim_new(x->s,
					       fixture_node(x->f, "sm-01"), 1,
					       NULL, &x->t, NULL),
			 IBP_OK);
	snprintf(x->conf, sizeof(x->conf), "/tmp/ibp-enf-%ld.conf",
		 (long)getpid());
	FILE *c = fopen(x->conf, "w");
	assert_non_null(c);
	fputs("Default=0x7fff : ALL=full ;\n"
	      "A=0x0001 : 0x506b4b0300a1b200=full ;\n"
	      "B=0x0002 : 0x506b4b0300a1b200=full ;\n",
	      c);
	fclose(c);
	open_session(x, IBP_ENFORCE_BOTH);
	ibp_apply *a = apply(x, false, false);
	ibp_apply_free(a);
	size_t ta = fixture_node(x->f, "tenantA-node-01");
	size_t sw;
	unsigned swp;
	assert_true(ibp_fabric_port_peer(x->f, ta, 1, &sw, &swp));
	assert_false(ibp_sim_port_info(x->s, sw, swp)->part_enforce_in);
	assert_false(ibp_sim_port_info(x->s, sw, swp)->part_enforce_out);
	assert_int_equal(leaf_ports_with(x, true, true), 6);
	ibp_verify_result *r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	ibp_verify_result_free(r);
	/* turned on behind our back: drift, wanted off */
	ibp_sim_port_info(x->s, sw, swp)->part_enforce_in = true;
	r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 1);
	const struct ibp_drift_item *it =
	    ibp_drift_at(ibp_verify_result_drift(r), 0);
	assert_int_equal(it->kind, IBP_DRIFT_ENFORCEMENT);
	assert_int_equal(it->want_enforce, IBP_ENFORCE_OFF);
	ibp_verify_result_free(r);
	unlink(x->conf);
}

/* Bits set on switch ports facing another switch: drift (wanted off,
 * whatever part_enforce says), cleared by the next apply with no table
 * written there, as OpenSM clears them on its sweep. */
static void test_ports_between_switches_cleared(void **state)
{
	struct fx *x = *state;
	ibp_apply_free(apply(x, false, false));
	ibp_verify_result *r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	ibp_verify_result_free(r);
	size_t sw2 = fixture_node(x->f, "sw2");
	ibp_sim_port_info(x->s, x->leaf, 10)->part_enforce_in = true;
	ibp_sim_port_info(x->s, sw2, 11)->part_enforce_out = true;
	r = verify(x);
	size_t ports = 0;
	assert_int_equal(ibp_verify_result_differences(r, &ports), 2);
	assert_int_equal(ports, 2);
	const ibp_drift *d = ibp_verify_result_drift(r);
	for (size_t i = 0; i < 2; i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		assert_int_equal(it->kind, IBP_DRIFT_ENFORCEMENT);
		assert_int_equal(it->want_enforce, IBP_ENFORCE_OFF);
		assert_true((it->node == x->leaf && it->port == 10 &&
			     it->have_enforce == IBP_ENFORCE_IN) ||
			    (it->node == sw2 && it->port == 11 &&
			     it->have_enforce == IBP_ENFORCE_OUT));
	}
	ibp_verify_result_free(r);
	ibp_apply *a = apply(x, false, false);
	assert_int_equal(ibp_apply_port_count(a), 2);
	assert_int_equal(ibp_apply_report(a)->blocks_written, 0);
	assert_int_equal(ibp_apply_report(a)->enforce_ports, 2);
	ibp_apply_free(a);
	assert_false(ibp_sim_port_info(x->s, x->leaf, 10)->part_enforce_in);
	assert_false(ibp_sim_port_info(x->s, sw2, 11)->part_enforce_out);
	r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	ibp_verify_result_free(r);
	/* --enforce unchanged leaves them, and checks nothing */
	ibp_sim_port_info(x->s, x->leaf, 11)->part_enforce_in = true;
	open_session(x, -1);
	r = verify(x);
	assert_int_equal(ibp_verify_result_differences(r, NULL), 0);
	assert_int_equal(ibp_verify_result_enforcement_checked(r), 0);
	ibp_verify_result_free(r);
	ibp_apply_free(apply(x, false, false));
	assert_true(ibp_sim_port_info(x->s, x->leaf, 11)->part_enforce_in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_reconcile_unchanged_table,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_off_then_rollback, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_unsupported_not_checked, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_dry_run_lists_portinfo_sets,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ports_between_switches_cleared,
					    setup_mixed, teardown),
	    cmocka_unit_test_setup_teardown(test_truncated_copy_unenforced,
					    setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
