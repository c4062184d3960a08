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

#include "ibpart/escape.h"
#include "ibpart/tables.h"
#include "ibpart/tables_json.h"
#include "ibpart/topo.h"

static void test_text(void **state)
{
	(void)state;
	const char in[] = "a\\b\t\x1b[2K\r\n\xff\xc3\xa9z";
	char *e = ibp_escape_text(in, sizeof(in) - 1);
	assert_string_equal(e, "a\\\\b\t\\x1b[2K\\x0d\\x0a\\xff\xc3\xa9z");
	free(e);
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
	    cmocka_unit_test(test_tables_json_keeps_port),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
