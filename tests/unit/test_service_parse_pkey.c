/*
 * test_service_parse_pkey.c - ibp_service_parse_pkey, the one reader of
 * a P_Key's text that the service's operations and ibpartd's users-file
 * ranges share: every spelling UFM's clients use, no range yet, and the
 * texts it refuses (among them those strtoul would have taken: a second
 * "0x", blanks, a sign, more than 6 digits).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "ibpart/error.h"
#include "ibpart/sys/service.h"

static void test_spellings(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		unsigned long value;
	} ok[] = {
	    {"0x000A", 10},	{"0xa", 10},	    {"0XfF", 255},
	    {"10", 10},		{"0x7fff", 0x7fff}, {"0x7FFE", 0x7ffe},
	    {"0", 0},		{"0x0", 0},	    {"0x123456", 0x123456},
	    {"999999", 999999}, {"0x8001", 0x8001}, {"007", 7}};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		unsigned long v = 1234567;
		assert_int_equal(ibp_service_parse_pkey(ok[i].text, &v),
				 IBP_OK);
		assert_int_equal(v, ok[i].value);
	}
}

static void test_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "",		 "0x",	       "-5",   "+5",   " 5",   "\t5", "5 ",
	    "0x0x5",	 "0x 5",       "0x-1", "0x+1", "5a",   "0xg", "1234567",
	    "0x1234567", "0x00000001", "1e3",  "0b1",  "10.0", "x10"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned long v = 77;
		assert_int_equal(ibp_service_parse_pkey(bad[i], &v),
				 IBP_EINVAL);
		assert_int_equal(v, 77); /* untouched */
	}
	unsigned long v = 77;
	assert_int_equal(ibp_service_parse_pkey(NULL, &v), IBP_EINVAL);
	assert_int_equal(ibp_service_parse_pkey("5", NULL), IBP_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spellings),
	    cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
