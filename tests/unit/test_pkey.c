/*
 * test_pkey.c - the P_Key rules of IBA vol. 1, 10.9: membership bit,
 * invalid keys, and the match rule (limited-limited never matches).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ibpart/pkey.h"

static void test_fields(void **state)
{
	(void)state;
	assert_int_equal(ibp_pkey_base(0x8001), 0x0001);
	assert_int_equal(ibp_pkey_base(0xffff), 0x7fff);
	assert_true(ibp_pkey_is_full(0x8001));
	assert_false(ibp_pkey_is_full(0x0001));
	assert_false(ibp_pkey_is_valid(0x0000));
	assert_false(ibp_pkey_is_valid(0x8000));
	assert_true(ibp_pkey_is_valid(0x0001));
	assert_int_equal(ibp_pkey_make(0x0002, true), 0x8002);
	assert_int_equal(ibp_pkey_make(0x8002, false), 0x0002);
}

static void test_match_rule(void **state)
{
	(void)state;
	/* full-full, full-limited, limited-full match */
	assert_true(ibp_pkey_match(0x8001, 0x8001));
	assert_true(ibp_pkey_match(0x8001, 0x0001));
	assert_true(ibp_pkey_match(0x0001, 0x8001));
	/* limited-limited never */
	assert_false(ibp_pkey_match(0x0001, 0x0001));
	assert_false(ibp_pkey_match(0x7fff, 0x7fff));
	/* different partitions never */
	assert_false(ibp_pkey_match(0x8001, 0x8002));
	/* invalid keys match nothing, not even themselves */
	assert_false(ibp_pkey_match(0x8000, 0x8000));
	assert_false(ibp_pkey_match(0x0000, 0x8000));
	assert_false(ibp_pkey_match(0x8000, 0x0000));
	/* the default partition */
	assert_true(ibp_pkey_match(0xffff, 0x7fff));
}

static void test_parse_format(void **state)
{
	(void)state;
	uint16_t k = 0;
	ibp_error err;
	assert_int_equal(ibp_pkey_parse("0x8001", &k, &err), IBP_OK);
	assert_int_equal(k, 0x8001);
	assert_int_equal(ibp_pkey_parse("0X7FFF", &k, &err), IBP_OK);
	assert_int_equal(k, 0x7fff);
	assert_int_equal(ibp_pkey_parse("32769", &k, &err), IBP_OK);
	assert_int_equal(k, 0x8001);
	assert_int_equal(ibp_pkey_parse("0x10000", &k, &err), IBP_ERANGE);
	assert_int_equal(ibp_pkey_parse("0x12g", &k, &err), IBP_EINVAL);
	assert_int_equal(ibp_pkey_parse("", &k, &err), IBP_EINVAL);
	assert_int_equal(ibp_pkey_parse("-1", &k, &err), IBP_EINVAL);
	assert_non_null(strstr(err.message, "-1"));
	/* strtoul would skip these and read a key: not a P_Key */
	const char *bad[] = {"\t0x8001", " 0x8001", "\n1", "+1", "x1"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		k = 7;
		assert_int_equal(ibp_pkey_parse(bad[i], &k, &err), IBP_EINVAL);
		assert_int_equal(k, 7);
	}
	char buf[7];
	assert_string_equal(ibp_pkey_format(0x1, buf), "0x0001");
	assert_string_equal(ibp_pkey_format(0xffff, buf), "0xffff");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fields),
	    cmocka_unit_test(test_match_rule),
	    cmocka_unit_test(test_parse_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
