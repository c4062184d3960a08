/*
 * test_sm_oom.c - a push, a policy computation or a plan read that runs
 * out of memory never leaves a table short of a P_Key (or a plan short of
 * its Default partition) while reporting success.  Linked with
 * -Wl,--wrap=calloc (CMakeLists.txt): the push's Nth calloc() fails, for
 * every N until a push runs without failing one.  Each time, either
 * ibp_sm_push() returns an error or the simulated port holds the whole
 * table wanted (ten P_Keys: its copy and its read grow a P_KeyTable's
 * hash, which is a calloc).  Before the SM checked ibp_pkey_table_set()
 * (sm_push.c, sm_tables.c), a failed copy was pushed as it was: the read
 * back matched what was written, and the push said IBP_OK.  The
 * same for ibp_tables_compute(): the policy's desired table of a port in
 * ten partitions is whole or the call fails (policy_place.c stored what
 * its failed sets left).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <stdio.h>

#include "conf/conf_lib.h"
#include "ibpart/conf.h"
#include "ibpart/sys/sm.h"
#include "ibpart/tables_compute.h"
#include "ibpart/sys/transport_sim.h"
#include "pkey/pkey_table_lib.h"
#include "pkey/tables_lib.h"
#include "sim_fixture.h"
#include "topo/topo_lib.h"

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

static unsigned long callocs; /* counted while armed */
static unsigned long fail_at; /* this one fails (0: none) */
static int armed;

void *__wrap_calloc(size_t n, size_t size)
{
	if (armed && ++callocs == fail_at)
		return NULL;
	return __real_calloc(n, size);
}

#define NKEYS 10

/* Push tenantA-node-01's table of NKEYS P_Keys with calloc number `at`
 * of the push failing; true when no calloc failed (at is past the
 * push's last one). */
static bool push_failing(unsigned long at)
{
	ibp_fabric *f = fixture_seed_fabric();
	assert_non_null(f);
	ibp_sim *s;
	assert_int_equal(ibp_sim_new(f, &s, NULL), IBP_OK);
	size_t node = fixture_node(f, "tenantA-node-01");
	ibp_tables *want = ibp_tables_new(f);
	assert_non_null(want);
	ibp_pkey_table *w = ibp_tables_get_or_create(want, node, 1);
	assert_non_null(w);
	for (unsigned i = 0; i < NKEYS; i++)
		assert_int_equal(
		    ibp_pkey_table_set(w, i, (uint16_t)(0x8001 + i), NULL),
		    IBP_OK);
	ibp_transport *t;
	assert_int_equal(ibp_transport_sim_new(s, fixture_node(f, "sm-01"), 1,
					       NULL, &t, NULL),
			 IBP_OK);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.keep_enforcement = true; /* the table only */
	ibp_sm *sm;
	assert_int_equal(ibp_sm_new(t, &o, &sm, NULL), IBP_OK);
	struct ibp_sm_report rep;
	ibp_error err;
	callocs = 0;
	fail_at = at;
	armed = 1;
	int rc = ibp_sm_push(sm, want, &rep, &err);
	armed = 0;
	bool failed_one = callocs >= at;
	if (rc == IBP_OK) {
		const ibp_pkey_table *h =
		    ibp_tables_get(ibp_sim_tables(s), node, 1);
		assert_non_null(h);
		for (unsigned i = 0; i < NKEYS; i++)
			if (ibp_pkey_table_get(h, i) != 0x8001 + i)
				fail_msg("calloc %lu failed, the push said "
					 "IBP_OK, index %u holds 0x%04x, not "
					 "0x%04x",
					 at, i, ibp_pkey_table_get(h, i),
					 0x8001 + i);
	}
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
	ibp_tables_free(want);
	ibp_sim_free(s);
	ibp_fabric_free(f);
	return !failed_one;
}

static void test_push_out_of_memory(void **state)
{
	(void)state;
	unsigned long at = 1;
	while (!push_failing(at))
		at++;
	assert_true(at > 1); /* some calloc of the push did fail */
}

/* ibp_tables_compute() of the seed fabric and a plan putting
 * tenantA-node-01 in NKEYS partitions, calloc number `at` failing; true
 * when no calloc failed. */
static bool compute_failing(unsigned long at, const char *topo,
			    const char *plan)
{
	ibp_tables_compute_options o;
	ibp_tables_compute_options_init(&o, IBP_TABLES_COMPUTE_OPTIONS_VERSION);
	o.topology_path = topo;
	o.plan_text = plan;
	o.plan_len = strlen(plan);
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	ibp_error err;
	callocs = 0;
	fail_at = at;
	armed = 1;
	int rc = ibp_tables_compute(&o, &r, NULL, &err);
	armed = 0;
	bool failed_one = callocs >= at;
	if (rc == IBP_OK) {
		size_t node = fixture_node(r.fabric, "tenantA-node-01");
		const ibp_pkey_table *t = ibp_tables_get(r.tables, node, 1);
		assert_non_null(t);
		for (unsigned i = 0; i < NKEYS; i++)
			if (ibp_pkey_table_find(t, (uint16_t)(0x8001 + i)) < 0)
				fail_msg("calloc %lu failed, the policy said "
					 "IBP_OK, its table lacks 0x%04x",
					 at, 0x8001 + i);
	}
	ibp_tables_result_free(&r);
	return !failed_one;
}

static void test_policy_out_of_memory(void **state)
{
	(void)state;
	char topo[512], plan[2048];
	snprintf(topo, sizeof(topo), "%s/seed/seed.topo",
		 getenv("IBP_EXAMPLES") ? getenv("IBP_EXAMPLES") : "examples");
	size_t n = 0;
	for (unsigned i = 0; i < NKEYS; i++)
		n += (size_t)snprintf(
		    plan + n, sizeof(plan) - n,
		    "P%u=0x%04x : 0x506b4b0300a1b200=full ;\n", i, 0x0001 + i);
	unsigned long at = 1;
	while (!compute_failing(at, topo, plan))
		at++;
	assert_true(at > 1);
}

/* The plan reader: OpenSM creates the Default partition before it reads
 * the file, so a plan read without failing has it, whichever calloc
 * fails (conf_semantics_init dropped the failure: a plan without 0x7fff,
 * read as IBP_OK). */
static void test_plan_default_out_of_memory(void **state)
{
	(void)state;
	static const char plan[] = "A=0x0001 : 0x506b4b0300a1b200=full ;\n";
	unsigned long at = 1;
	for (;; at++) {
		ibp_conf *c = NULL;
		callocs = 0;
		fail_at = at;
		armed = 1;
		int rc = ibp_conf_parse_buffer("p.conf", plan, strlen(plan),
					       NULL, &c, NULL, NULL);
		armed = 0;
		bool failed_one = callocs >= at;
		if (rc == IBP_OK) {
			bool dflt = false;
			for (size_t i = 0; i < ibp_conf_group_count(c); i++)
				dflt |= ibp_conf_group_pkey(
					    ibp_conf_group_at(c, i)) == 0x7fff;
			if (!dflt)
				fail_msg("calloc %lu failed, the plan read "
					 "IBP_OK without the Default "
					 "partition",
					 at);
		}
		ibp_conf_free(c);
		if (!failed_one)
			break;
	}
	assert_true(at > 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_push_out_of_memory),
	    cmocka_unit_test(test_policy_out_of_memory),
	    cmocka_unit_test(test_plan_default_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
