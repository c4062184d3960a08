/*
 * test_progress.c - the ready-made progress line printer (progress.h):
 * its line format, one line per half second within a phase but always a
 * new phase and a phase's end, and nothing before its delay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/progress.h"
#include "util/progress_lib.h"
#include "ibpart/sys/progress.h"

static void lines_and_throttle(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	ibp_progress_printer p;
	ibp_progress_printer_init(&p, out, "x: ", 0);
	ibp_progress_report(&p.hook, "reading", 1, 4);
	ibp_progress_report(&p.hook, "reading", 2, 4); /* too soon: none */
	ibp_progress_report(&p.hook, "reading", 4, 4); /* the end */
	ibp_progress_report(&p.hook, "counting", 7, 0);
	fclose(out);
	assert_string_equal(buf, "x: [  0.0 s] reading: 1/4 (25%)\n"
				 "x: [  0.0 s] reading: 4/4 (100%)\n"
				 "x: [  0.0 s] counting: 7\n");
	free(buf);
}

static void nothing_before_the_delay(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	ibp_progress_printer p;
	ibp_progress_printer_init(&p, out, NULL, 60000);
	ibp_progress_report(&p.hook, "reading", 4, 4);
	fclose(out);
	assert_int_equal(len, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(lines_and_throttle),
	    cmocka_unit_test(nothing_before_the_delay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
