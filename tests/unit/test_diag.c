/*
 * test_diag.c - located findings: counting by severity, sorting, the
 * compiler-style text with the quoted line and caret, JSON, and errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/diag.h"
#include "util/diag_lib.h"
#include "ibpart/error.h"
#include "ibpart/sys/diag.h"
#include "util/error_lib.h"

static void test_print_and_json(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	const char *text =
	    "Default=0x7fff : ALL ;\nTenantA=0x1 : 0xA=full 0xB ;\n";
	ibp_diags_set_source(d, "p.conf", text, strlen(text));
	ibp_diags_add(d, IBP_SEV_WARNING, "dup", "p.conf", 2, 24, "twice %d",
		      2);
	ibp_diags_add(d, IBP_SEV_ERROR, "missing-comma", "p.conf", 2, 15,
		      "missing comma");
	assert_int_equal(ibp_diags_count(d), 2);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 1);
	ibp_diags_sort(d);
	assert_string_equal(ibp_diags_get(d, 0)->code, "missing-comma");

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ibp_diags_print(d, f);
	fclose(f);
	assert_non_null(strstr(buf, "p.conf:2:15: error: missing comma "
				    "[missing-comma]\n"
				    "    2 | TenantA=0x1 : 0xA=full 0xB ;\n"
				    "      |               ^\n"));
	assert_non_null(strstr(buf, "p.conf:2:24: warning: twice 2"));
	free(buf);

	char *js = ibp_diags_to_json(d);
	json_error_t jerr;
	json_t *root = json_loads(js, 0, &jerr);
	assert_non_null(root);
	assert_int_equal(json_integer_value(json_object_get(root, "errors")),
			 1);
	json_t *first = json_array_get(json_object_get(root, "findings"), 0);
	assert_int_equal(json_integer_value(json_object_get(first, "line")), 2);
	assert_int_equal(json_integer_value(json_object_get(first, "column")),
			 15);
	assert_string_equal(
	    json_string_value(json_object_get(first, "severity")), "error");
	json_decref(root);
	free(js);
	ibp_diags_free(d);
}

static void test_error_format(void **state)
{
	(void)state;
	ibp_error err;
	ibp_error_clear(&err);
	assert_int_equal(err.status, IBP_OK);
	assert_int_equal(
	    ibp_error_set_at(&err, IBP_EPARSE, "a.topo", 3, 7, "no %s", "peer"),
	    IBP_EPARSE);
	char buf[256];
	ibp_error_format(&err, buf, sizeof(buf));
	assert_string_equal(buf, "a.topo:3:7: error: no peer");
	ibp_error_set(&err, IBP_EIO, "umad_open_port failed");
	ibp_error_format(&err, buf, sizeof(buf));
	assert_string_equal(buf, "error: umad_open_port failed");
	/* NULL is allowed and the status still returned */
	assert_int_equal(ibp_error_set(NULL, IBP_ENOENT, "x"), IBP_ENOENT);
	assert_string_equal(ibp_status_str(IBP_EFULL), "table full");
}

/* Long messages are cut at 400 bytes with a mark, whatever their length
 * (one byte over the cut overflowed the buffer: found by fuzz_conf). */
static void test_long_message_cut(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	char buf[2100];
	for (size_t n = 390; n < 2048; n += (n < 420 ? 1 : 97)) {
		memset(buf, 'x', n);
		buf[n] = 0;
		assert_int_equal(
		    ibp_diags_add(d, IBP_SEV_ERROR, "c", "f", 1, 1, "%s", buf),
		    IBP_OK);
		const char *m =
		    ibp_diags_get(d, ibp_diags_count(d) - 1)->message;
		assert_true(strlen(m) <= 400 + strlen("…"));
	}
	ibp_diags_free(d);
}

/* A message of stray continuation bytes loses at most 3 bytes to the
 * cut, not its head; and a caret whose column falls inside a UTF-8
 * character stands under that character (the stray lead byte is not
 * counted as a four-column \xNN). */
static void test_utf8_cut_and_caret(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	char buf[700] = "bad";
	memset(buf + 3, 0x80, 596);
	buf[599] = 0;
	assert_int_equal(
	    ibp_diags_add(d, IBP_SEV_ERROR, "c", "f", 1, 1, "%s", buf), IBP_OK);
	assert_memory_equal(ibp_diags_get(d, 0)->message, "bad", 3);
	ibp_diags_free(d);

	/* "ééé" then x: the caret at column 6 (byte 5, the 2nd byte of the 3rd
	 * é) must stand under that é: 2 columns of indent */
	d = ibp_diags_new();
	static const char text[] = "\xc3\xa9\xc3\xa9\xc3\xa9x\n";
	ibp_diags_set_source(d, "u.conf", text, sizeof(text) - 1);
	ibp_diags_add(d, IBP_SEV_ERROR, "c", "u.conf", 1, 6, "here");
	char *out = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&out, &n);
	ibp_diags_print(d, mem);
	fclose(mem);
	const char *caret = strstr(out, "      | ");
	assert_non_null(caret);
	assert_string_equal(caret, "      |   ^\n");
	free(out);
	ibp_diags_free(d);
}

/* A finding that repeats is shown max_errors times, then summed up in
 * one line with its count and first subjects; another code is not held
 * back by it; max_errors 0 shows every one. */
static void test_repeats_summed_up(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	char subj[16];
	for (int i = 0; i < 30; i++) {
		assert_int_equal(ibp_diags_add(d, IBP_SEV_WARNING, "table-full",
					       "", 0, 0, "key %d dropped", i),
				 0);
		snprintf(subj, sizeof(subj), "port-%d", i / 5 + 1);
		assert_int_equal(ibp_diags_set_subject(d, subj), 0);
	}
	assert_int_equal(
	    ibp_diags_add(d, IBP_SEV_NOTE, "other", "", 0, 0, "once"), 0);
	ibp_diags_print_options o;
	ibp_diags_print_options_init(&o, IBP_DIAGS_PRINT_OPTIONS_VERSION);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(ibp_diags_print_ex(d, &o, f), IBP_OK);
	fclose(f);
	size_t lines = 0;
	for (char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 20 + 1 + 1);
	assert_non_null(strstr(buf, "warning: key 19 dropped [table-full]"));
	assert_null(strstr(buf, "key 20 dropped"));
	assert_non_null(strstr(buf, "note: once [other]"));
	assert_non_null(strstr(
	    buf, "warning: 10 [table-full] findings more like the 20 above "
		 "(30 in all; about port-1, port-2, port-3, port-4 and more); "
		 "--max-errors 0 shows each\n"));
	free(buf);
	o.max_errors = 0;
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(ibp_diags_print_ex(d, &o, f), IBP_OK);
	fclose(f);
	assert_non_null(strstr(buf, "key 29 dropped"));
	assert_null(strstr(buf, "more like"));
	free(buf);
	ibp_diags_free(d);
}

/* An operation's failure is recognised among the findings only when it
 * is one of their errors, at the same place with the same words. */
/* A version the library cannot read is refused, and nothing printed. */
static void test_print_version_refused(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	assert_non_null(d);
	assert_int_equal(
	    ibp_diags_add(d, IBP_SEV_ERROR, "bad-guid", "f", 1, 1, "x"), 0);
	unsigned bad[] = {0, IBP_DIAGS_PRINT_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		ibp_diags_print_options o;
		ibp_diags_print_options_init(&o, bad[i]);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		assert_int_equal(ibp_diags_print_ex(d, &o, f), IBP_EINVAL);
		fclose(f);
		assert_int_equal(len, 0);
		free(buf);
	}
	ibp_diags_free(d);
}

static void test_has_error(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_diags_add(d, IBP_SEV_WARNING, "w", "t.topo", 3, 1, "weak");
	ibp_diags_add(d, IBP_SEV_ERROR, "e", "t.topo", 7, 5, "no such port");
	ibp_error err;
	ibp_error_set_at(&err, IBP_EPARSE, "t.topo", 7, 5, "no such port");
	assert_true(ibp_diags_has_error(d, &err));
	ibp_error_set_at(&err, IBP_EPARSE, "t.topo", 7, 6, "no such port");
	assert_false(ibp_diags_has_error(d, &err)); /* another column */
	ibp_error_set_at(&err, IBP_EPARSE, "t.topo", 3, 1, "weak");
	assert_false(ibp_diags_has_error(d, &err)); /* a warning */
	ibp_error_set_at(&err, IBP_EPARSE, "u.topo", 7, 5, "no such port");
	assert_false(ibp_diags_has_error(d, &err));
	assert_false(ibp_diags_has_error(NULL, &err));
	ibp_diags_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_utf8_cut_and_caret),
	    cmocka_unit_test(test_long_message_cut),
	    cmocka_unit_test(test_print_and_json),
	    cmocka_unit_test(test_error_format),
	    cmocka_unit_test(test_repeats_summed_up),
	    cmocka_unit_test(test_print_version_refused),
	    cmocka_unit_test(test_has_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
