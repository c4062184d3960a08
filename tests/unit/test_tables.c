/*
 * test_tables.c - one P_KeyTable per port of a fabric: put/get by
 * (node, port), ownership, creation at the port's capacity, iteration in
 * (node, port) order, deep copy.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ibpart/tables.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "pkey/tables_lib.h"

#include "word_list.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

static ibp_fabric *two_node_fabric(void)
{
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f = ibp_fabric_new(&o);
	size_t sw, ca;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x100, 8,
					     "leaf", &sw, NULL),
			 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x200, 2, "host", &ca, NULL),
	    0);
	assert_int_equal(ibp_fabric_link(f, sw, 3, ca, 1, NULL), 0);
	return f;
}

/* An option's words for the enforcement modes are the parser's names, in
 * the enum's order (the CLI's --part-enforce and --enforce read them). */
static void test_enforce_words(void **state)
{
	(void)state;
	char w[16];
	int k = 0;
	for (; nth_word(IBP_PART_ENFORCE_WORDS, k, w, sizeof(w)); k++) {
		ibp_part_enforce e;
		assert_int_equal(ibp_part_enforce_parse(w, &e), IBP_OK);
		assert_int_equal((int)e, k);
		assert_string_equal(ibp_part_enforce_str(e), w);
	}
	assert_int_equal(k, 4);
}

static void test_put_get_iterate(void **state)
{
	(void)state;
	ibp_fabric *f = two_node_fabric();
	ibp_tables *ts = ibp_tables_new(f);
	assert_int_equal(ibp_tables_count(ts), 0);
	assert_null(ibp_tables_get(ts, 1, 1));

	/* created at the port's capacity: CA 64, switch port 0 8, ext 64 */
	ibp_pkey_table *ca = ibp_tables_get_or_create(ts, 1, 1);
	assert_int_equal(ibp_pkey_table_capacity(ca),
			 IBP_DEFAULT_CA_PARTITION_CAP);
	ibp_pkey_table *sw0 = ibp_tables_get_or_create(ts, 0, 0);
	assert_int_equal(ibp_pkey_table_capacity(sw0),
			 IBP_DEFAULT_SWITCH_PARTITION_CAP);
	ibp_pkey_table *ext = ibp_tables_get_or_create(ts, 0, 3);
	assert_int_equal(ibp_pkey_table_capacity(ext),
			 IBP_DEFAULT_ENFORCEMENT_CAP);
	assert_ptr_equal(ibp_tables_get_or_create(ts, 1, 1), ca);
	assert_int_equal(ibp_tables_count(ts), 3);

	/* a port the fabric lacks */
	ibp_error err;
	ibp_pkey_table *t = ibp_pkey_table_new(4);
	assert_int_equal(ibp_tables_put(ts, 1, 3, t, &err), IBP_ERANGE);
	assert_int_equal(ibp_tables_put(ts, 7, 0, t, &err), IBP_ERANGE);
	ibp_pkey_table_free(t);

	/* order: (0,0), (0,3), (1,1) whatever the insertion order */
	size_t n;
	unsigned p;
	assert_ptr_equal(ibp_tables_at(ts, 0, &n, &p), sw0);
	assert_true(n == 0 && p == 0);
	assert_ptr_equal(ibp_tables_at(ts, 1, &n, &p), ext);
	assert_true(n == 0 && p == 3);
	assert_ptr_equal(ibp_tables_at(ts, 2, &n, &p), ca);
	assert_true(n == 1 && p == 1);
	assert_null(ibp_tables_at(ts, 3, &n, &p));
	/* random access after the cursor moved on */
	assert_ptr_equal(ibp_tables_at(ts, 0, &n, &p), sw0);

	/* replacing frees the old table; NULL removes */
	ibp_pkey_table_set(ca, 0, 0xffff, NULL);
	ibp_tables *copy = ibp_tables_copy(ts);
	assert_int_equal(ibp_tables_count(copy), 3);
	assert_true(ibp_pkey_table_equal(ibp_tables_get(copy, 1, 1), ca));
	assert_ptr_not_equal(ibp_tables_get(copy, 1, 1), ca);
	assert_int_equal(ibp_tables_put(ts, 0, 3, NULL, NULL), 0);
	assert_int_equal(ibp_tables_count(ts), 2);
	assert_ptr_equal(ibp_tables_at(ts, 1, &n, &p), ca);
	assert_int_equal(ibp_tables_put(ts, 1, 1, ibp_pkey_table_new(64), NULL),
			 0);
	assert_int_equal(ibp_tables_count(ts), 2);
	assert_int_equal(ibp_pkey_table_get(ibp_tables_get(ts, 1, 1), 0), 0);
	assert_int_equal(ibp_pkey_table_get(ibp_tables_get(copy, 1, 1), 0),
			 0xffff);

	ibp_tables_free(copy);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* `tables --format json` is written port by port (tables_json.c); its
 * bytes are jansson's dump of the same document, whatever the
 * descriptions hold: quotes, backslashes, controls, UTF-8, bytes that
 * are no UTF-8 (lossy text and a "_hex" twin), empty tables, no mode. */
static void test_json_stream_is_janssons(void **state)
{
	(void)state;
	static const char *const descs[] = {"plain",
					    "q\"uo\\te",
					    "tab\there\x01\x1f\x7f",
					    "l\xc3\xa9"
					    "af",
					    "bad-\xff\xfe"
					    "-utf8",
					    "",
					    "bidi \xe2\x80\xae x"};
	size_t nd = sizeof(descs) / sizeof(descs[0]);
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f = ibp_fabric_new(&o);
	for (size_t i = 0; i < nd; i++) {
		size_t n;
		assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_CA,
						     0x200 + i * 4, 2, descs[i],
						     &n, NULL),
				 0);
	}
	ibp_tables *ts = ibp_tables_new(f);
	for (size_t i = 0; i < nd; i++) {
		ibp_pkey_table *t = ibp_tables_get_or_create(ts, i, 1);
		for (unsigned k = 0; k < (unsigned)i; k++)
			ibp_pkey_table_set(t, k, (uint16_t)(0x8001 + k), NULL);
	}
	for (int with_mode = 0; with_mode < 2; with_mode++) {
		const char *mode = with_mode ? "opensm" : NULL;
		char *tree = ibp_tables_to_json(ts, mode, 0x201, 1);
		assert_non_null(tree);
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		ibp_error err;
		assert_int_equal(
		    ibp_tables_write_json(ts, mode, 0x201, out, &err), 0);
		fclose(out);
		assert_int_equal(len, strlen(tree) + 1);
		assert_memory_equal(text, tree, strlen(tree));
		assert_int_equal(text[len - 1], '\n');
		free(text);
		free(tree);
	}
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_put_get_iterate),
	    cmocka_unit_test(test_json_stream_is_janssons),
	    cmocka_unit_test(test_enforce_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
