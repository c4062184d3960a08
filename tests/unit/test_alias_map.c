/*
 * test_alias_map.c - the alias map (alias_map.h): its lines read, its
 * errors located, written back the same, and the classification of a
 * GUID against the seed fabric (port, alias of port P, node GUID,
 * unknown) that every "guid-*" finding rests on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/alias_map.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/alias_map.h"

static ibp_alias_map *read_ok(const char *text)
{
	ibp_alias_map *m = NULL;
	ibp_error err;
	assert_int_equal(ibp_alias_map_load_buffer("a.map", text, strlen(text),
						   &m, NULL, &err),
			 IBP_OK);
	assert_non_null(m);
	return m;
}

/* The error's line:col for a text that must not read. */
static void read_bad(const char *text, unsigned line, unsigned col)
{
	ibp_alias_map *m = (ibp_alias_map *)1;
	ibp_error err;
	ibp_diags *d = ibp_diags_new();
	assert_int_equal(
	    ibp_alias_map_load_buffer("a.map", text, strlen(text), &m, d, &err),
	    IBP_EPARSE);
	assert_null(m);
	assert_int_equal(err.line, line);
	assert_int_equal(err.col, col);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 1);
	ibp_diags_free(d);
}

static void test_read(void **state)
{
	(void)state;
	ibp_alias_map *m =
	    read_ok("# comment\n\n"
		    "0x0002c90300aa0101 0x506b4b0300a1b200 1\n"
		    "  0x2c90300AA0102\t0x506b4b0300a1b200 2 # VF\r\n"
		    "0x0002c90300aa0201 0x506b4b0300a1b202 255");
	assert_int_equal(ibp_alias_map_count(m), 3);
	const struct ibp_alias *a = ibp_alias_map_find(m, 0x2c90300aa0102ull);
	assert_non_null(a);
	assert_int_equal(a->port_guid, 0x506b4b0300a1b200ull);
	assert_int_equal(a->index, 2);
	assert_int_equal(ibp_alias_map_at(m, 2)->index, 255);
	assert_null(ibp_alias_map_find(m, 0x506b4b0300a1b200ull));
	/* written, read again: the same map */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(ibp_alias_map_write(m, NULL, f), IBP_OK);
	fclose(f);
	ibp_alias_map *m2 = read_ok(buf);
	assert_int_equal(ibp_alias_map_count(m2), 3);
	for (size_t i = 0; i < 3; i++) {
		const struct ibp_alias *x = ibp_alias_map_at(m, i),
				       *y = ibp_alias_map_at(m2, i);
		assert_int_equal(x->alias, y->alias);
		assert_int_equal(x->port_guid, y->port_guid);
		assert_int_equal(x->index, y->index);
	}
	free(buf);
	ibp_alias_map_free(m2);
	ibp_alias_map_free(m);
}

static void test_errors(void **state)
{
	(void)state;
	read_bad("0x1 0x2\n", 1, 8);		    /* no index */
	read_bad("0x1 0x2 0\n", 1, 9);		    /* index 0 is the port */
	read_bad("0x1 0x2 256\n", 1, 9);	    /* past GUIDCap's reach */
	read_bad("1 0x2 1\n", 1, 1);		    /* not 0x */
	read_bad("0x1 0x2 1 x\n", 1, 11);	    /* trailing text */
	read_bad("\n0x1 0x2 1\n0x1 0x3 2\n", 3, 1); /* given twice */
	read_bad("0x5 0x5 1\n", 1, 1);		    /* its own port */
	/* two GUIDs at one GUIDInfo index of one port: an index holds one
	 * (the same index of another port, or another index, is fine) */
	read_bad("0x1 0x9 1\n0x2 0x8 1\n0x3 0x9 2\n0x4 0x9 1\n", 4, 1);
	read_bad("0x0 0x5 1\n", 1, 1); /* zero GUID */
	/* a NUL inside a field (found by fuzz_alias_map): strtoull
	 * stopped at it and the rest of the field went unread */
	static const char nul[] = "0x1\0zz 0x2 1\n0x3 0x4 1\0\n";
	ibp_alias_map *m = (ibp_alias_map *)1;
	ibp_error err;
	assert_int_equal(
	    ibp_alias_map_load_buffer("a.map", nul, 13, &m, NULL, &err),
	    IBP_EPARSE);
	assert_null(m);
	assert_int_equal(err.col, 1);
	assert_int_equal(ibp_alias_map_load_buffer("a.map", nul + 13,
						   sizeof(nul) - 14, &m, NULL,
						   &err),
			 IBP_EPARSE);
	assert_int_equal(err.col, 9);
}

/* The slot rule where the map is built from the fabric and merged with
 * a file (live_discovery.c, sm_sa_guid_info.c): the alias there first
 * keeps the index, the other is refused with IBP_EBUSY and the map is
 * unchanged - also for ports whose slot keys are the same (their GUIDs
 * differ in the top 8 bits only). */
static void test_slots(void **state)
{
	(void)state;
	ibp_alias_map *m = ibp_alias_map_new();
	assert_non_null(m);
	struct ibp_alias a = {0x0002c903000a0301, 0x0002c90000000301, 1};
	struct ibp_alias b = {0x0002c903000a0399, 0x0002c90000000301, 1};
	/* index 2 of this port has the key of index 1 of a's */
	struct ibp_alias c = {0x0002c903000a0398, 0x0302c90000000301, 2};
	struct ibp_alias d = {0x0002c903000a0397, 0x0302c90000000301, 2};
	assert_int_equal(ibp_alias_map_add(m, &a), IBP_OK);
	assert_int_equal(ibp_alias_map_add(m, &b), IBP_EBUSY);
	assert_int_equal(ibp_alias_map_add(m, &c), IBP_OK);
	assert_int_equal(ibp_alias_map_add(m, &d), IBP_EBUSY);
	assert_int_equal(ibp_alias_map_count(m), 2);
	assert_null(ibp_alias_map_find(m, b.alias));
	assert_int_equal(ibp_alias_map_slot(m, a.port_guid, 1)->alias, a.alias);
	assert_int_equal(ibp_alias_map_slot(m, c.port_guid, 2)->alias, c.alias);
	assert_null(ibp_alias_map_slot(m, c.port_guid, 1));
	assert_null(ibp_alias_map_slot(m, a.port_guid, 2));
	ibp_alias_map_free(m);
}

static void test_classify(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/seed/seed.topo",
		 getenv("IBP_EXAMPLES") ? getenv("IBP_EXAMPLES") : "examples");
	ibp_fabric *f = NULL;
	assert_int_equal(ibp_fabric_load(path, NULL, &f, NULL), IBP_OK);
	ibp_alias_map *m = read_ok("0x0002c90300aa0101 0x506b4b0300a1b200 1\n"
				   "0x0002c90300aa0901 0x0002c903ffffffff 1\n");
	struct ibp_guid_class c;
	assert_int_equal(ibp_guid_classify(f, m, 0x506b4b0300a1b200ull, &c),
			 IBP_GUID_PORT);
	assert_int_equal(ibp_guid_classify(f, m, 0x2c90300aa0101ull, &c),
			 IBP_GUID_ALIAS);
	assert_int_equal(c.port_guid, 0x506b4b0300a1b200ull);
	assert_int_equal(c.index, 1);
	assert_int_equal(c.port, 1);
	assert_string_equal(ibp_fabric_node_desc(f, c.node), "tenantA-node-01");
	/* an alias of a port the fabric lacks: nothing the SM sees */
	assert_int_equal(ibp_guid_classify(f, m, 0x2c90300aa0901ull, NULL),
			 IBP_GUID_UNKNOWN);
	/* without the map an alias is unknown */
	assert_int_equal(ibp_guid_classify(f, NULL, 0x2c90300aa0101ull, NULL),
			 IBP_GUID_UNKNOWN);
	assert_int_equal(ibp_guid_classify(f, m, 0x506b4b0300a1b1ffull, &c),
			 IBP_GUID_NODE);
	assert_string_equal(ibp_guid_kind_str(IBP_GUID_ALIAS), "alias");
	ibp_alias_map_free(m);
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_slots),
	    cmocka_unit_test(test_classify),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
