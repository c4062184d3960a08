/*
 * test_suggest.c - "did you mean" (ibp_suggest): typos within reach are
 * found (a changed, dropped, added or swapped letter), the closest wins,
 * and words that are merely different are not "suggested".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/sys/suggest.h"

static const char *const cmds[] = {"check",  "convert", "tables", "matrix",
				   "audit",  "sim",	"demo",	  "discover",
				   "verify", "apply",	"gen"};
#define N (sizeof(cmds) / sizeof(*cmds))

static void test_typos(void **state)
{
	(void)state;
	assert_string_equal(ibp_suggest("tabels", cmds, N),
			    "tables");				      /* swap */
	assert_string_equal(ibp_suggest("verfy", cmds, N), "verify"); /* drop */
	assert_string_equal(ibp_suggest("applly", cmds, N), "apply"); /* add */
	assert_string_equal(ibp_suggest("matrox", cmds, N),
			    "matrix"); /* change */
	assert_string_equal(ibp_suggest("discovre", cmds, N), "discover");
	assert_string_equal(ibp_suggest("tables", cmds, N), "tables");
}

static void test_not_close(void **state)
{
	(void)state;
	assert_null(ibp_suggest("xyzzy", cmds, N));
	assert_null(ibp_suggest("", cmds, N));
	assert_null(ibp_suggest("tablespoonful", cmds, N));
	assert_null(ibp_suggest("tables", cmds, 0));
	/* short words get at most 2 edits: "sum" -> "sim", not "gen" */
	assert_string_equal(ibp_suggest("sum", cmds, N), "sim");
	assert_null(ibp_suggest("ab", (const char *const[]){"xyzw"}, 1));
	/* very long words are compared without overflowing anything */
	char longw[300];
	memset(longw, 'a', sizeof(longw) - 1);
	longw[sizeof(longw) - 1] = 0;
	const char *c[] = {longw, "aaaa"};
	assert_null(ibp_suggest("aaab", c + 0, 1));
	assert_string_equal(ibp_suggest("aaab", c, 2), "aaaa");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_typos),
	    cmocka_unit_test(test_not_close),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
