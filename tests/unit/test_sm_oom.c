/*
 * test_sm_oom.c - a push that runs out of memory never leaves a port
 * short of a P_Key while reporting success.  Linked with
 * -Wl,--wrap=calloc (CMakeLists.txt): the push's Nth calloc() fails, for
 * every N until a push runs without failing one.  Each time, either
 * ibp_sm_push() returns an error or the simulated port holds the whole
 * table wanted (ten P_Keys: its copy and its read grow a P_KeyTable's
 * hash, which is a calloc).  Before the SM checked ibp_pkey_table_set()
 * (sm_push.c, sm_tables.c), a failed copy was pushed as it was: the read
 * back matched what was written, and the push said IBP_OK.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ibpart/sys/sm.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_push_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
