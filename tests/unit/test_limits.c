/*
 * test_limits.c - a limit as a person writes it (ibp_input_size_parse,
 * limits.h): bytes, K/M/G as powers of 1024, and what is no size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ibpart/limits.h"
#include "ibpart/sys/limits.h"

static void sizes(void **state)
{
	(void)state;
	size_t v = 7;
	assert_true(ibp_input_size_parse("0", &v));
	assert_int_equal(v, 0);
	assert_true(ibp_input_size_parse("1500", &v));
	assert_int_equal(v, 1500);
	assert_true(ibp_input_size_parse("2k", &v));
	assert_int_equal(v, 2048);
	assert_true(ibp_input_size_parse("64M", &v));
	assert_int_equal(v, (size_t)64 << 20);
	assert_true(ibp_input_size_parse("1G", &v));
	assert_int_equal(v, (size_t)1 << 30);
	v = 7;
	static const char *const bad[] = {"",	  " 1", "-1",
					  "+1",	  "1T", "1KB",
					  "0x10", "M",	"99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(ibp_input_size_parse(bad[i], &v));
	assert_false(ibp_input_size_parse(NULL, &v));
	assert_int_equal(v, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(sizes)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
