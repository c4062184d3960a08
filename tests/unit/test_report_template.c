/*
 * test_report_template.c - the web view's template (src/report/web/
 * report.html) and the slots report_html.c fills agree: a slot renamed
 * in either, added to one only or left unused fails here, not as a
 * section silently missing from the page.  And the renderer
 * (src/report/template.c): slots, numbers, blocks shown and hidden,
 * comments, joined lines, and every malformed template refused at its
 * place with nothing written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/error.h"
#include "report/report_lib.h"
#include "report/template_lib.h"

static void test_page_agrees(void **state)
{
	(void)state;
	ibp_error err = {0};
	int rc = ibp_report_html_check(&err);
	if (rc) {
		char buf[1024];
		ibp_error_format(&err, buf, sizeof(buf));
		fail_msg("%s", buf);
	}
}

struct ctx {
	FILE *out;
};

static void put_x(const void *v)
{
	const struct ctx *c = v;
	fputs("<X>", c->out);
}

/* t rendered with y (a block), n = 42, x: the output, or NULL with err
 * filled when the renderer refuses it (then it must have written
 * nothing). */
static char *render(const char *t, int y, ibp_error *err)
{
	const ibp_template_slot s[] = {
	    IBP_TEMPLATE_WRITE("x", put_x),
	    IBP_TEMPLATE_BLOCK("y", y),
	    IBP_TEMPLATE_NUMBER("n_2", 42),
	};
	char *buf = NULL;
	size_t len = 0;
	struct ctx c = {open_memstream(&buf, &len)};
	assert_non_null(c.out);
	int rc = ibp_template_render("t.html", t, s, 3, &c, c.out, err);
	assert_int_equal(fclose(c.out), 0);
	if (rc) {
		assert_int_equal(rc, IBP_EPARSE);
		assert_int_equal(len, 0);
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_render(void **state)
{
	(void)state;
	const char *t = "{{! a comment, not written }}a{{x}}b\\\n"
			"c{{#y}}Y{{n_2}}{{^y}}never{{/y}}{{/y}}"
			"{{^y}}N{{#y}}never{{/y}}{{/y}}\\d\n";
	ibp_error err = {0};
	char *out = render(t, 1, &err);
	assert_non_null(out);
	assert_string_equal(out, "a<X>bcY42\\d\n");
	free(out);
	out = render(t, 0, &err);
	assert_non_null(out);
	assert_string_equal(out, "a<X>bcN\\d\n");
	free(out);
}

static void expect_refused(const char *t, unsigned line, unsigned col,
			   const char *msg)
{
	ibp_error err = {0};
	char *out = render(t, 1, &err);
	if (out)
		fail_msg("\"%s\" rendered as \"%s\"", t, out);
	assert_string_equal(err.file, "t.html");
	assert_int_equal(err.line, line);
	assert_int_equal(err.col, col);
	if (!strstr(err.message, msg))
		fail_msg("\"%s\": \"%s\", not \"%s\"", t, err.message, msg);
}

static void test_refused(void **state)
{
	(void)state;
	/* each: every entry used once, and one thing wrong */
	expect_refused("{{x}}{{#y}}{{n_2}}{{/y}}\n  {{z}}", 2, 3,
		       "unknown slot \"z\"");
	expect_refused("{{x}}{{#y}}{{/y}}", 0, 0, "slot \"n_2\" has no place");
	expect_refused("{{x}}{{y}}{{n_2}}", 1, 6, "\"y\" is a block");
	expect_refused("{{#x}}{{/x}}{{#y}}{{n_2}}{{/y}}", 1, 1,
		       "\"x\" is a slot");
	expect_refused("{{x}}{{n_2}}\n{{#y}}", 2, 1, "{{#y}} is never closed");
	expect_refused("{{x}}{{n_2}}{{#y}}{{/x}}", 1, 19,
		       "{{/x}} closes no open block");
	expect_refused("{{x}}{{n_2}}{{/y}}", 1, 13,
		       "{{/y}} closes no open block");
	expect_refused("{{x}}{{#y}}{{n_2}}{{/y}}{{x", 1, 25, "without");
	expect_refused("{{x}}{{#y}}{{ n_2 }}{{/y}}", 1, 12,
		       "\" n_2 \" is not a slot name");
	expect_refused("{{x}}{{#y}}{{n_2}}{{/y}}{{}}", 1, 25,
		       "is not a slot name");
}

static void test_table_twice(void **state)
{
	(void)state;
	const ibp_template_slot s[] = {
	    IBP_TEMPLATE_NUMBER("a", 1),
	    IBP_TEMPLATE_NUMBER("a", 2),
	};
	ibp_error err = {0};
	assert_int_equal(ibp_template_check("t.html", "{{a}}", s, 2, &err),
			 IBP_EPARSE);
	assert_non_null(strstr(err.message, "\"a\" is in the table twice"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_page_agrees),
	    cmocka_unit_test(test_render),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_table_twice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
