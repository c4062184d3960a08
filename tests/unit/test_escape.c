/*
 * test_escape.c - the escaping rules (escape.h) and that JSON writers
 * keep a string that is not UTF-8 instead of dropping what holds it: a
 * NodeDescription off the wire must not hide a port from the tables
 * JSON (or its drift from verify's).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "ibpart/sys/escape.h"
#include "util/escape_lib.h"
#include "ibpart/tables.h"
#include "pkey/tables_lib.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

static void test_text(void **state)
{
	(void)state;
	const char in[] = "a\\b\t\x1b[2K\r\n\xff\xc3\xa9z";
	char *e = ibp_escape_text(in, sizeof(in) - 1);
	assert_string_equal(e, "a\\\\b\t\\x1b[2K\\x0d\\x0a\\xff\xc3\xa9z");
	free(e);
}

/* Valid UTF-8 a terminal runs instead of showing: U+009B (C2 9B) is
 * CSI in xterm, so "\u009b2K" erased the line as ESC [ 2K does; U+202E
 * reverses what follows (Trojan Source); U+2028 breaks the line.  Each
 * goes out as the \xNN of its bytes; printable UTF-8 (é, ✓) still
 * passes. */
static void test_text_hidden_unicode(void **state)
{
	(void)state;
	const char in[] = "a\xc2\x9b"
			  "2K\xc2\x85\xe2\x80\xae"
			  "b\xe2\x81\xa6\xe2\x80\xa8\xe2\x80\x8f"
			  "\xc3\xa9\xe2\x9c\x93\xc2\xa0";
	char *e = ibp_escape_text(in, sizeof(in) - 1);
	assert_string_equal(e, "a\\xc2\\x9b2K\\xc2\\x85\\xe2\\x80\\xaeb"
			       "\\xe2\\x81\\xa6\\xe2\\x80\\xa8\\xe2\\x80\\x8f"
			       "\xc3\xa9\xe2\x9c\x93\xc2\xa0");
	free(e);
	assert_true(ibp_escape_needed("\xc2\x9b", 2));
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	ibp_escape_write(m, in, sizeof(in) - 1);
	fclose(m);
	e = ibp_escape_text(in, sizeof(in) - 1);
	assert_string_equal(buf, e);
	free(e);
	free(buf);
}

/* The Prometheus text exposition format: a label value is UTF-8 with
 * backslash, double quote and line feed written \\ \" \n, and no other
 * escape exists (so CR, tab and ESC stay as they are: valid UTF-8).
 * Invalid bytes and NUL become U+FFFD, so the value is always valid. */
static void test_prometheus(void **state)
{
	(void)state;
	const char in[] = "a\\b\"c\nd\xff\x00\xc3\xa9\r\t\x1b}\xe2\x82";
	char *e = ibp_escape_prometheus(in, sizeof(in) - 1);
	assert_non_null(e);
	assert_string_equal(e, "a\\\\b\\\"c\\nd\xef\xbf\xbd\xef\xbf\xbd"
			       "\xc3\xa9\r\t\x1b}\xef\xbf\xbd\xef\xbf\xbd");
	assert_true(ibp_utf8_valid(e, strlen(e)));
	free(e);
	/* a name trying to close the value and add a label or a sample */
	const char inj[] = "x\",pkey=\"0xffff\"} 1\nibp_evil 1";
	e = ibp_escape_prometheus(inj, sizeof(inj) - 1);
	assert_string_equal(e, "x\\\",pkey=\\\"0xffff\\\"} 1\\nibp_evil 1");
	assert_null(strchr(e, '\n'));
	free(e);
	e = ibp_escape_prometheus("", 0);
	assert_string_equal(e, "");
	free(e);
}

static char *html(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	ibp_escape_html_write(m, s, len);
	fclose(m);
	return buf;
}

/* HTML: no NodeDescription can open a tag, end an attribute quoted
 * either way, or start an entity; control, invalid and C1 bytes show as
 * the text rule shows them (\xNN), never raw in the page. */
static void test_html(void **state)
{
	(void)state;
	const char in[] = "<img src=x onerror='a(\"1\")'>&amp;\xff\x00\x1b"
			  "\xc2\x9b\xc3\xa9\\";
	char *e = html(in, sizeof(in) - 1);
	assert_string_equal(e,
			    "&lt;img src=x onerror=&#39;a(&quot;1&quot;)&#39;"
			    "&gt;&amp;amp;\\xff\\x00\\x1b\\xc2\\x9b\xc3\xa9"
			    "\\\\");
	assert_true(ibp_utf8_valid(e, strlen(e)));
	free(e);
}

static char *csv(const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	ibp_escape_csv_write(m, s, strlen(s));
	fclose(m);
	return buf;
}

/* CSV: RFC 4180 quoting, and OWASP's CSV injection defused: a cell
 * starting with = + - @ tab or CR is shown with a leading '. */
static void test_csv(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
	    {"plain name", "plain name"},
	    {"a,b", "\"a,b\""},
	    {"say \"hi\"", "\"say \"\"hi\"\"\""},
	    {"two\nlines", "\"two\nlines\""},
	    {"=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""},
	    {"+1", "\"'+1\""},
	    {"-2+3", "\"'-2+3\""},
	    {"@SUM(A1)", "\"'@SUM(A1)\""},
	    {"\t=1", "\"'\t=1\""},
	    {"\r=1", "\"'\r=1\""},
	    {"a=1", "a=1"},
	    {"", ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e = csv(cases[i][0]);
		assert_string_equal(e, cases[i][1]);
		free(e);
	}
	assert_false(ibp_csv_formula("\0=", 2));
}

/* Markdown: a table cell of text-escaped text renders as that text: a
 * '|' cannot split the cell, HTML cannot open, formatting cannot start,
 * and a backslash of the text form stays visible. */
static void test_markdown(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	const char in[] = "a|b<img src=x>&\\x1b*_`[l](u)#!~\x01";
	ibp_escape_markdown_write(m, in, sizeof(in) - 1);
	fclose(m);
	assert_string_equal(buf, "a\\|b&lt;img src=x&gt;&amp;\\\\x1b\\*\\_\\`"
				 "\\[l\\](u)\\#\\!\\~\\\\x01");
	free(buf);
}

static void test_utf8(void **state)
{
	(void)state;
	assert_true(ibp_utf8_valid("h\xc3\xa9llo", 6));
	assert_false(ibp_utf8_valid("\xc0\xaf", 2));	     /* overlong */
	assert_false(ibp_utf8_valid("\xed\xa0\x80", 3));     /* surrogate */
	assert_false(ibp_utf8_valid("\xf4\x90\x80\x80", 4)); /* > U+10FFFF */
	assert_false(ibp_utf8_valid("\xe2\x82", 2));	     /* cut short */
	char *l = ibp_utf8_lossy("a\xff"
				 "b",
				 3);
	assert_string_equal(l, "a\xef\xbf\xbd"
			       "b");
	free(l);
	char *h = ibp_hex("\x00\xff", 2);
	assert_string_equal(h, "00ff");
	free(h);
}

static void test_tables_json_keeps_port(void **state)
{
	(void)state;
	static const char topo[] =
	    "Switch 2 \"S-0000000000000001\" # \"leaf\" lid 1\n"
	    "[1] \"H-0000000000000002\"[1]\n\n"
	    "Ca 1 \"H-0000000000000002\" # \"evil\xff\x1b[8m\"\n"
	    "[1](0000000000000003) \"S-0000000000000001\"[1]\n";
	ibp_fabric *f = NULL;
	assert_int_equal(ibp_fabric_load_buffer(
			     "t.topo", topo, sizeof(topo) - 1, NULL, &f, NULL),
			 IBP_OK);
	ibp_tables *ts = ibp_tables_new(f);
	size_t n = 0;
	while (n < ibp_fabric_node_count(f) &&
	       ibp_fabric_node_type(f, n) != IBP_NODE_CA)
		n++;
	assert_true(n < ibp_fabric_node_count(f));
	ibp_pkey_table *t = ibp_tables_get_or_create(ts, n, 1);
	assert_non_null(t);
	char *s = ibp_tables_to_json(ts, "opensm", 0, 1);
	assert_non_null(s);
	json_t *j = json_loads(s, 0, NULL);
	assert_non_null(j);
	json_t *ports = json_object_get(j, "ports");
	assert_int_equal(json_array_size(ports), 1);
	json_t *p = json_array_get(ports, 0);
	assert_string_equal(json_string_value(json_object_get(p, "node_desc")),
			    "evil\xef\xbf\xbd\x1b[8m");
	assert_string_equal(
	    json_string_value(json_object_get(p, "node_desc_hex")),
	    "6576696cff1b5b386d");
	json_decref(j);
	free(s);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_utf8),
	    cmocka_unit_test(test_text_hidden_unicode),
	    cmocka_unit_test(test_prometheus),
	    cmocka_unit_test(test_html),
	    cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_markdown),
	    cmocka_unit_test(test_tables_json_keeps_port),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
