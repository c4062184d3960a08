/*
 * test_pkey_table_oom.c - a P_KeyTable whose hash cannot grow is left as
 * it was.  Linked with -Wl,--wrap=calloc (CMakeLists.txt), so the test
 * decides when the library's calloc() fails: replacing an entry never
 * needs memory (the count of keys does not rise), and adding a key that
 * must grow the hash returns IBP_ENOMEM with every entry still in place
 * and found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "ibpart/error.h"
#include "pkey/pkey_table_lib.h"

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);

static int fail_calloc; /* the next calloc()s fail while set */

void *__wrap_calloc(size_t n, size_t size)
{
	return fail_calloc ? NULL : __real_calloc(n, size);
}

static void test_set_without_memory(void **state)
{
	(void)state;
	ibp_pkey_table *t = ibp_pkey_table_new(64);
	assert_non_null(t);
	/* fill to the hash's load limit: the next new key must grow it */
	unsigned i = 0;
	ibp_error err;
	for (; i < 4; i++)
		assert_int_equal(
		    ibp_pkey_table_set(t, i, (uint16_t)(0x8001 + i), &err),
		    IBP_OK);
	fail_calloc = 1;
	/* a replacement: no allocation, it works */
	assert_int_equal(ibp_pkey_table_set(t, 1, 0x8100, &err), IBP_OK);
	/* a fifth key must grow the hash (load over one half): refused */
	int rc = ibp_pkey_table_set(t, 4, 0x8200, &err);
	fail_calloc = 0;
	assert_int_equal(rc, IBP_ENOMEM);
	assert_int_equal(ibp_pkey_table_get(t, 4), 0);
	assert_int_equal(ibp_pkey_table_find(t, 0x8200), -1);
	assert_int_equal(ibp_pkey_table_count(t), 4);
	static const uint16_t want[4] = {0x8001, 0x8100, 0x8003, 0x8004};
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(ibp_pkey_table_get(t, k), want[k]);
		assert_int_equal(ibp_pkey_table_find(t, want[k]), (int)k);
	}
	/* and with memory back, the same call works */
	assert_int_equal(ibp_pkey_table_set(t, 4, 0x8200, &err), IBP_OK);
	assert_int_equal(ibp_pkey_table_find(t, 0x8200), 4);
	assert_int_equal(ibp_pkey_table_count(t), 5);
	ibp_pkey_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_set_without_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
