/*
 * test_state_file.c - the one state file (state_file.h) and OpenSM's
 * index memory (index_memory_lib.h): several P_Keys at one index and
 * last_pkey_idx survive a round trip, OpenSM's options and enforcement
 * bits too, a port the fabric lacks is kept (without what OpenSM
 * remembered of it); each older format loads - version 0 (tables JSON
 * with "remembered" arrays, or without), version 1 ("ibpart-pkey-state-
 * 1") - and a newer version, a bad index or P_Key are refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pkey/index_memory_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/state_file.h"
#include "pkey/state_file_lib.h"
#include "ibpart/tables.h"
#include "pkey/tables_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "pkey/opensm_partitions_lib.h"

/* switch 0x1000 (4 ports), CAs a 0x2000 (port 0x2001) on 1 and b 0x3000
 * (port 0x3001) on 2 */
static ibp_fabric *fabric(bool with_b)
{
	ibp_fabric *f = ibp_fabric_new(NULL);
	size_t sw, a, b;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x1000, 4,
					     "leaf", &sw, NULL),
			 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x2000, 1, "a", &a, NULL), 0);
	assert_int_equal(ibp_fabric_set_port_guid(f, a, 1, 0x2001, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, sw, 1, a, 1, NULL), 0);
	if (with_b) {
		assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_CA, 0x3000, 1,
						     "b", &b, NULL),
				 0);
		assert_int_equal(
		    ibp_fabric_set_port_guid(f, b, 1, 0x3001, NULL), 0);
		assert_int_equal(ibp_fabric_link(f, sw, 2, b, 1, NULL), 0);
	}
	return f;
}

static ibp_state_file *parse(const ibp_fabric *f, const char *text, int want)
{
	ibp_state_file *s = NULL;
	ibp_error e;
	ibp_error_clear(&e);
	int rc =
	    ibp_state_file_parse(f, "s.json", text, strlen(text), NULL, &s, &e);
	if (rc != want)
		fail_msg("parse: %d (%s), %d expected", rc, e.message, want);
	return s;
}

static void test_memory_object(void **state)
{
	(void)state;
	ibp_fabric *f = fabric(true);
	ibp_index_memory *m = ibp_index_memory_new(f);
	assert_false(ibp_index_memory_has_port(m, 1, 1));
	assert_int_equal(ibp_index_memory_set(m, 1, 1, 0x8001, 1), 0);
	assert_int_equal(ibp_index_memory_set(m, 1, 1, 0x0001, 1), 0);
	assert_int_equal(ibp_index_memory_set(m, 1, 1, 0x7fff, 0), 0);
	assert_true(ibp_index_memory_has_port(m, 1, 1));
	assert_int_equal(ibp_index_memory_size(m, 1, 1), 3);
	assert_int_equal(ibp_index_memory_last(m, 1, 1), 2);
	/* OpenSM's map order: by the byte-swapped value */
	uint16_t k;
	unsigned i;
	assert_true(ibp_index_memory_entry(m, 1, 1, 0, &k, &i));
	assert_int_equal(k, 0x0001);
	assert_true(ibp_index_memory_entry(m, 1, 1, 1, &k, &i));
	assert_int_equal(k, 0x8001);
	assert_true(ibp_index_memory_entry(m, 1, 1, 2, &k, &i));
	assert_int_equal(k, 0x7fff);
	assert_false(ibp_index_memory_entry(m, 1, 1, 3, &k, &i));
	/* moved lower: last_pkey_idx stays */
	assert_int_equal(ibp_index_memory_set(m, 1, 1, 0x8001, 0), 0);
	assert_int_equal(ibp_index_memory_last(m, 1, 1), 2);
	assert_int_equal(ibp_index_memory_set(m, 1, 1, 0x8000, 0), IBP_EINVAL);
	assert_int_equal(ibp_index_memory_set(m, 1, 9, 0x8001, 0), IBP_ERANGE);
	ibp_index_memory *c = ibp_index_memory_copy(m);
	ibp_index_memory_forget_port(m, 1, 1);
	assert_false(ibp_index_memory_has_port(m, 1, 1));
	assert_int_equal(ibp_index_memory_port_count(m), 0);
	assert_int_equal(ibp_index_memory_size(c, 1, 1), 3);
	ibp_index_memory_free(c);
	ibp_index_memory_free(m);
	ibp_fabric_free(f);
}

static void test_round_trip(void **state)
{
	(void)state;
	ibp_fabric *f = fabric(true);
	ibp_state_file *s = ibp_state_file_new(f);
	ibp_pkey_table *t =
	    ibp_tables_get_or_create(ibp_state_file_tables_mut(s), 1, 1);
	ibp_pkey_table_set(t, 0, 0x7fff, NULL);
	ibp_pkey_table_set(t, 1, 0x0001, NULL);
	ibp_tables_get_or_create(ibp_state_file_tables_mut(s), 0, 1);
	assert_int_equal(ibp_tables_set_enforcement(
			     ibp_state_file_tables_mut(s), 0, 1, true, false),
			 0);
	ibp_index_memory *m = ibp_index_memory_new(f);
	ibp_index_memory_set(m, 1, 1, 0x7fff, 0);
	ibp_index_memory_set(m, 1, 1, 0x8001, 1);
	ibp_index_memory_set(m, 1, 1, 0x0001, 1);
	ibp_index_memory_set_last(m, 1, 1, 5);
	ibp_index_memory_add_port(m, 2, 1); /* known, nothing remembered */
	/* a switch port facing a switch: enforcement bits, no table */
	assert_int_equal(ibp_tables_set_enforcement(
			     ibp_state_file_tables_mut(s), 0, 3, false, true),
			 0);
	ibp_state_file_set_memory(s, m);
	ibp_state_opensm o = {true, true, IBP_ENFORCE_IN, true};
	ibp_state_file_set_opensm(s, &o);
	/* OpenSM's partition objects: P_Key and first name */
	ibp_osm_partitions pl;
	ibp_osm_partitions_init(&pl);
	assert_int_equal(ibp_osm_partitions_add(&pl, 0x9234, "Default"), 0);
	assert_int_equal(ibp_osm_partitions_add(&pl, 0x1234, "Other"), 0);
	assert_int_equal(ibp_osm_partitions_add(&pl, 0x0080, "B"), 0);
	assert_int_equal(pl.n, 2); /* 0x1234 keeps its first name */
	const uint8_t g12[16] = {0xff, 0x12, [15] = 1};
	assert_int_equal(ibp_osm_partitions_track(&pl, 0x1234, g12, true), 0);
	assert_int_equal(ibp_state_file_set_partitions(s, &pl), 0);
	ibp_osm_partitions_clear(&pl);
	char *js = ibp_state_file_to_json(s);
	assert_non_null(js);
	assert_non_null(strstr(js, "\"version\": 2"));
	ibp_state_file *b = parse(f, js, 0);
	assert_int_equal(ibp_state_file_version(b), 2);
	const ibp_index_memory *bm = ibp_state_file_memory(b);
	unsigned i = 9;
	assert_true(ibp_index_memory_get(bm, 1, 1, 0x0001, &i));
	assert_int_equal(i, 1);
	assert_true(ibp_index_memory_get(bm, 1, 1, 0x8001, &i));
	assert_int_equal(i, 1);
	assert_int_equal(ibp_index_memory_last(bm, 1, 1), 5);
	/* a port with no table is not written (nothing to hold) */
	assert_false(ibp_index_memory_has_port(bm, 2, 1));
	ibp_state_opensm bo;
	assert_true(ibp_state_file_opensm(b, &bo));
	assert_true(bo.allow_both_pkeys);
	assert_true(bo.compact_pkey_indexes);
	assert_int_equal(bo.part_enforce, IBP_ENFORCE_IN);
	assert_true(bo.no_partition_enforcement);
	const ibp_osm_partitions *bp = ibp_state_file_partitions(b);
	assert_int_equal(bp->n, 2);
	assert_string_equal(ibp_osm_partitions_find(bp, 0x1234)->name,
			    "Default");
	assert_string_equal(ibp_osm_partitions_find(bp, 0x8080)->name, "B");
	const ibp_osm_partition *bg = ibp_osm_partitions_find(bp, 0x1234);
	assert_int_equal(bg->nmgroups, 1);
	assert_true(bg->mgroups[0].freed);
	assert_memory_equal(bg->mgroups[0].mgid, g12, 16);
	assert_non_null(strstr(js, "\"ff12::1\""));
	bool in = false, out = true;
	assert_true(ibp_tables_get_enforcement(ibp_state_file_tables(b), 0, 1,
					       &in, &out));
	assert_true(in);
	assert_false(out);
	assert_true(ibp_pkey_table_equal(
	    ibp_tables_get(ibp_state_file_tables(b), 1, 1), t));
	assert_null(ibp_tables_get(ibp_state_file_tables(b), 0, 3));
	assert_true(ibp_tables_get_enforcement(ibp_state_file_tables(b), 0, 3,
					       &in, &out));
	assert_false(in);
	assert_true(out);

	/* the same file read against a fabric without b keeps b aside */
	ibp_fabric *g = fabric(false);
	const char *withb = "{\"format\": \"ibpart-state\", \"version\": 2, "
			    "\"ports\": [{\"node_guid\": \"0x3000\", \"port\": "
			    "1, \"pkeys\": [\"0x7fff\", \"0x8002\"], "
			    "\"remembered\": {\"last_pkey_idx\": 2, \"pkeys\": "
			    "{\"0x8002\": 1}}}]}";
	ibp_state_file *a = parse(g, withb, 0);
	assert_int_equal(ibp_state_file_absent_count(a), 1);
	char *back = ibp_state_file_to_json(a);
	assert_non_null(strstr(back, "\"0x8002\""));
	assert_null(strstr(back, "remembered"));
	ibp_state_file *again = parse(f, back, 0);
	assert_non_null(ibp_tables_get(ibp_state_file_tables(again), 2, 1));
	free(back);
	ibp_state_file_free(again);
	ibp_state_file_free(a);
	ibp_fabric_free(g);
	free(js);
	ibp_state_file_free(b);
	ibp_state_file_free(s);
	ibp_fabric_free(f);
}

/* Version 0: the first `tables --state` format. */
static void test_version0(void **state)
{
	(void)state;
	ibp_fabric *f = fabric(true);
	const char *v0 =
	    "{\"mode\": \"opensm\", \"sm_port_guid\": \"0x2001\", \"ports\": "
	    "[{\"node_guid\": \"0x2000\", \"port_guid\": \"0x2001\", \"port\": "
	    "1, \"pkeys\": [\"0x7fff\", \"0x0000\", \"0x8002\"], "
	    "\"remembered\": [\"0x7fff\", \"0x8001\", \"0x8002\"]}, "
	    "{\"port_guid\": \"0x3001\", \"port\": 1, \"pkeys\": "
	    "[\"0x7fff\", \"0x8005\"]}]}";
	ibp_state_file *s = parse(f, v0, 0);
	assert_int_equal(ibp_state_file_version(s), 0);
	assert_string_equal(ibp_state_file_mode(s), "opensm");
	assert_int_equal(ibp_state_file_sm_port(s), 0x2001);
	const ibp_index_memory *m = ibp_state_file_memory(s);
	unsigned i = 9;
	assert_true(ibp_index_memory_get(m, 1, 1, 0x8001, &i));
	assert_int_equal(i, 1);
	/* without "remembered": what the table holds */
	assert_true(ibp_index_memory_get(m, 2, 1, 0x8005, &i));
	assert_int_equal(i, 1);
	assert_false(ibp_state_file_opensm(s, NULL));
	ibp_state_file_free(s);
	ibp_fabric_free(f);
}

/* Version 1: the first `apply --state` format: no memory. */
static void test_version1(void **state)
{
	(void)state;
	ibp_fabric *f = fabric(true);
	const char *v1 =
	    "{\"format\": \"ibpart-pkey-state-1\", \"ports\": [{\"node_guid\": "
	    "\"0x1000\", \"port_guid\": \"0x1000\", \"port\": 2, "
	    "\"node_desc\": \"leaf\", \"capacity\": 64, \"pkeys\": "
	    "[\"0xffff\"], \"enforcement\": \"out\"}]}";
	ibp_state_file *s = parse(f, v1, 0);
	assert_int_equal(ibp_state_file_version(s), 1);
	assert_null(ibp_state_file_memory(s));
	bool in = true, out = false;
	assert_true(ibp_tables_get_enforcement(ibp_state_file_tables(s), 0, 2,
					       &in, &out));
	assert_false(in);
	assert_true(out);
	ibp_state_file_free(s);
	ibp_fabric_free(f);
}

static void test_refused(void **state)
{
	(void)state;
	ibp_fabric *f = fabric(true);
	const char *bad[] = {
	    "{\"format\": \"ibpart-state\", \"version\": 3, \"ports\": []}",
	    "{\"format\": \"ibpart-state\", \"ports\": []}",
	    ("{\"format\": \"ibpart-state\", \"version\": 2, \"ports\": "
	     "[{\"port_guid\": \"0x2001\", \"port\": 1, \"pkeys\": [], "
	     "\"remembered\": {\"pkeys\": {\"0x8001\": 65535}}}]}"),
	    ("{\"format\": \"ibpart-state\", \"version\": 2, \"ports\": "
	     "[{\"port_guid\": \"0x2001\", \"port\": 1, \"pkeys\": [], "
	     "\"remembered\": {\"pkeys\": {\"0x8000\": 1}}}]}"),
	    ("{\"format\": \"ibpart-state\", \"version\": 2, \"ports\": "
	     "[{\"port_guid\": \"0x2001\", \"port\": 1, \"pkeys\": [], "
	     "\"remembered\": [\"0x7fff\"]}]}"),
	    ("{\"format\": \"ibpart-state\", \"version\": 2, \"opensm\": "
	     "{\"allow_both_pkeys\": \"yes\"}, \"ports\": []}"),
	    ("{\"format\": \"ibpart-state\", \"version\": 2, \"opensm\": "
	     "{\"partitions\": [{\"pkey\": \"0x8000\", \"name\": \"A\"}]}, "
	     "\"ports\": []}"),
	    ("{\"format\": \"ibpart-state\", \"version\": 2, \"opensm\": "
	     "{\"partitions\": {\"A\": 1}}, \"ports\": []}"),
	    "{\"ports\": [], \"ports\": []}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_null(parse(f, bad[i], IBP_EPARSE));
	ibp_fabric_free(f);
}

/* Strict (issue 12): an unknown field, a GUID that is not "0x" and 1 to
 * 16 hex digits (a sign, a blank, trailing text, 17 digits), a node
 * type, mode or capacity out of range, a P_Key with a blank before it,
 * each refused with the JSON path of the value, never read past. */
static void test_strict(void **state)
{
	(void)state;
	ibp_fabric *f = fabric(true);
#define HEAD "{\"format\": \"ibpart-state\", \"version\": 2, "
#define PORT "\"node_guid\": \"0x2000\", \"port\": 1, \"pkeys\": [\"0xffff\"]"
	static const char *const bad[][2] = {
	    {HEAD "\"zzz\": 1, \"ports\": []}", "unknown field 'zzz'"},
	    {HEAD "\"ports\": [{" PORT ", \"zzz\": 1}]}",
	     "ports[0]: unknown field 'zzz'"},
	    {HEAD "\"ports\": [{" PORT
		  ", \"remembered\": {\"pkeys\": {}, \"x\": 1}}]}",
	     "ports[0].remembered: unknown field 'x'"},
	    {HEAD "\"opensm\": {\"part_enforce\": \"both\", \"x\": 1}, "
		  "\"ports\": []}",
	     "opensm: unknown field 'x'"},
	    {HEAD "\"ports\": [{" PORT ", \"port_guid\": \"-0x1\"}]}",
	     "ports[0].port_guid: '-0x1' is not a GUID"},
	    {HEAD "\"ports\": [{" PORT ", \"port_guid\": \" 0x2001\"}]}",
	     "ports[0].port_guid"},
	    {HEAD "\"ports\": [{" PORT ", \"port_guid\": \"0x2001x\"}]}",
	     "ports[0].port_guid"},
	    {HEAD "\"ports\": [{" PORT
		  ", \"port_guid\": \"0x10000000000002001\"}]}",
	     "ports[0].port_guid"},
	    {HEAD "\"ports\": [{\"node_guid\": \"2000\", \"port\": 1, "
		  "\"pkeys\": []}]}",
	     "ports[0].node_guid: '2000' is not a GUID"},
	    {HEAD "\"ports\": [{\"node_guid\": 8192, \"port\": 1, "
		  "\"pkeys\": []}]}",
	     "ports[0].node_guid"},
	    {HEAD "\"sm_port_guid\": \"x\", \"ports\": []}",
	     "sm_port_guid: 'x' is not a GUID"},
	    {HEAD "\"mode\": \"x\", \"ports\": []}",
	     "mode: 'x' is not opensm or strict"},
	    {HEAD "\"ports\": [{" PORT ", \"node_type\": \"XX\"}]}",
	     "ports[0].node_type: 'XX' is not CA, SW or RT"},
	    {HEAD "\"ports\": [{" PORT ", \"node_desc\": 1}]}",
	     "ports[0].node_desc: not a string"},
	    {HEAD "\"ports\": [{" PORT ", \"capacity\": 0}]}",
	     "ports[0].capacity: 0 is not"},
	    {HEAD "\"ports\": [{" PORT ", \"capacity\": 65536}]}",
	     "ports[0].capacity: 65536 is not"},
	    {HEAD "\"ports\": [{" PORT ", \"capacity\": 1099511627776}]}",
	     "ports[0].capacity"},
	    {HEAD "\"ports\": [{" PORT ", \"capacity\": \"64\"}]}",
	     "ports[0].capacity"},
	    {HEAD "\"ports\": [{\"node_guid\": \"0x2000\", \"port\": 1, "
		  "\"capacity\": 1, \"pkeys\": [\"0xffff\", \"0x8001\"]}]}",
	     "ports[0].capacity: 1 is less than the 2 P_Keys"},
	    {HEAD "\"ports\": [{\"node_guid\": \"0x2000\", \"port\": 1, "
		  "\"pkeys\": [\" 0xffff\"]}]}",
	     "ports[0].pkeys[0]: not a P_Key"},
	    {HEAD "\"ports\": [{\"node_guid\": \"0x2000\", \"port\": 1, "
		  "\"pkeys\": [\"+0xffff\"]}]}",
	     "ports[0].pkeys[0]: not a P_Key"},
	};
#undef HEAD
#undef PORT
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		ibp_state_file *s = NULL;
		ibp_error e;
		ibp_error_clear(&e);
		int rc = ibp_state_file_parse(f, "s.json", bad[i][0],
					      strlen(bad[i][0]), NULL, &s, &e);
		if (rc != IBP_EPARSE || !strstr(e.message, bad[i][1]))
			fail_msg("case %zu: %d '%s', want '%s'", i, rc,
				 e.message, bad[i][1]);
		assert_null(s);
	}
	/* what the writer writes still loads: every field, a description
	 * that is not UTF-8 with its _hex beside it */
	const char *ok =
	    "{\"format\": \"ibpart-state\", \"version\": 2, \"mode\": "
	    "\"strict\", \"sm_port_guid\": \"0x0000000000002001\", "
	    "\"ports\": [{\"node_guid\": \"0x0000000000002000\", "
	    "\"port_guid\": \"0x0000000000002001\", \"port\": 1, "
	    "\"node_type\": \"CA\", \"node_desc\": \"a\\ufffd\", "
	    "\"node_desc_hex\": \"61ff\", \"capacity\": 65535, \"pkeys\": "
	    "[\"0xffff\"], \"remembered\": {\"last_pkey_idx\": 1, "
	    "\"pkeys\": {\"0xffff\": 0}}}, {\"node_guid\": \"0x1000\", "
	    "\"port_guid\": \"0X1000\", \"port\": 2, \"node_type\": \"SW\", "
	    "\"enforcement\": \"both\"}]}";
	ibp_state_file_free(parse(f, ok, 0));
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_memory_object),
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_version0),
	    cmocka_unit_test(test_version1),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_strict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
