/*
 * test_opensm_prtn_sweep.c - OpenSM's partition objects through sweeps
 * (opensm_prtn_sweep.h): the shape OpenSM 3.3.23 dies on (two partitions
 * tracking one multicast group, the first deleted, then the second), the
 * same MGID written with its scope (found as written: no second
 * tracker, no crash), and stale partitions kept only while they have a
 * member.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "policy/opensm_prtn_sweep.h"
#include "pkey/opensm_partitions_lib.h"

static ibp_conf *conf(const char *text)
{
	ibp_conf *c = NULL;
	assert_int_equal(ibp_conf_parse_buffer("t.conf", text, strlen(text),
					       NULL, &c, NULL, NULL),
			 0);
	return c;
}

/* One sweep of plan text whose partitions in `with` get a member. */
static ibp_osm_crash sweep(ibp_osm_partitions *held, const char *text,
			   const uint16_t *with, size_t nwith)
{
	ibp_conf *c = conf(text);
	ibp_osm_partitions kept, after;
	ibp_osm_partitions_init(&kept);
	ibp_osm_partitions_init(&after);
	assert_int_equal(ibp_osm_partitions_add(&kept, 0x7fff, "Default"), 0);
	for (size_t i = 0; i < nwith; i++)
		assert_int_equal(ibp_osm_partitions_add(&kept, with[i], "x"),
				 0);
	ibp_osm_crash cr;
	assert_int_equal(ibp_osm_partitions_sweep(held, c, &kept, &after, &cr),
			 0);
	assert_int_equal(ibp_osm_partitions_copy(&after, held), 0);
	ibp_osm_partitions_clear(&after);
	ibp_osm_partitions_clear(&kept);
	ibp_conf_free(c);
	return cr;
}

static void test_crash_shape(void **state)
{
	(void)state;
	ibp_osm_partitions held;
	ibp_osm_partitions_init(&held);
	uint16_t k1 = 0x11da, k2 = 0x0010, k3 = 0x0020;
	ibp_osm_crash cr = sweep(
	    &held, "S=0x11da : 0x10=limited, mgid=ff15::1, rate=3 ;\n", &k1, 1);
	assert_false(cr.crash);
	const ibp_osm_partition *p = ibp_osm_partitions_find(&held, 0x11da);
	assert_non_null(p);
	assert_int_equal(p->nmgroups, 1);
	assert_int_equal(p->mgroups[0].mgid[1], 0x12); /* link-local */
	cr = sweep(&held, "S=0x0010 : 0x10=limited, mgid=ff15::1, rate=3 ;\n",
		   &k2, 1);
	assert_false(cr.crash);
	assert_null(ibp_osm_partitions_find(&held, 0x11da));
	p = ibp_osm_partitions_find(&held, 0x0010);
	assert_non_null(p);
	assert_int_equal(p->nmgroups, 1);
	assert_true(p->mgroups[0].freed);
	cr = sweep(&held, "U=0x0020 : 0x10 ;\n", &k3, 1);
	assert_true(cr.crash);
	assert_int_equal(cr.pkey, 0x0010);
	assert_string_equal(cr.name, "S");
	ibp_osm_partitions_clear(&held);
}

static void test_scoped_mgid_survives(void **state)
{
	(void)state;
	ibp_osm_partitions held;
	ibp_osm_partitions_init(&held);
	uint16_t k1 = 0x11da, k2 = 0x0010, k3 = 0x0020;
	assert_false(sweep(&held,
			   "S=0x11da : 0x10=limited, mgid=ff12::1, rate=3 ;\n",
			   &k1, 1)
			 .crash);
	assert_false(sweep(&held,
			   "S=0x0010 : 0x10=limited, mgid=ff12::1, rate=3 ;\n",
			   &k2, 1)
			 .crash);
	assert_int_equal(ibp_osm_partitions_find(&held, 0x0010)->nmgroups, 0);
	assert_false(sweep(&held, "U=0x0020 : 0x10 ;\n", &k3, 1).crash);
	/* only the partitions with a member stay, and Default */
	assert_int_equal(held.n, 2);
	ibp_osm_partitions_clear(&held);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_crash_shape),
	    cmocka_unit_test(test_scoped_mgid_survives),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
