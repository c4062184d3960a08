/*
 * test_topo.c - the topology reader on the seed fabric and ibsim's own
 * example nets: nodes, GUIDs (ibsim's rule), descriptions, links,
 * capacities, look-ups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/topo.h"

static char *path_of(const char *env, const char *rel)
{
	const char *base = getenv(env);
	static char buf[4][1024];
	static int i;
	char *b = buf[i++ % 4];
	snprintf(b, 1024, "%s/%s", base ? base : ".", rel);
	return b;
}

static ibp_fabric *load(const char *path)
{
	ibp_diags *d = ibp_diags_new();
	ibp_fabric *f = NULL;
	int rc = ibp_fabric_load(path, NULL, &f, d);
	if (rc)
		ibp_diags_print(d, stderr);
	assert_int_equal(rc, 0);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 0);
	ibp_diags_free(d);
	assert_non_null(f);
	return f;
}

static void test_seed(void **state)
{
	(void)state;
	ibp_fabric *f = load(path_of("IBP_EXAMPLES", "seed/seed.topo"));
	assert_int_equal(ibp_fabric_node_count(f), 8);
	/* the first node: the SM host */
	assert_int_equal(ibp_fabric_node_type(f, 0), IBP_NODE_CA);
	assert_true(ibp_fabric_node_guid(f, 0) == 0x506b4b0300a1b2ffULL);
	assert_true(ibp_fabric_port_guid(f, 0, 1) == 0x506b4b0300a1b300ULL);
	assert_string_equal(ibp_fabric_node_desc(f, 0), "sm-01");
	assert_string_equal(ibp_fabric_node_id(f, 0), "H-506b4b0300a1b2ff");
	assert_int_equal(ibp_fabric_node_nports(f, 0), 1);
	assert_int_equal(ibp_fabric_port_guid(f, 0, 0), 0);
	assert_int_equal(ibp_fabric_port_guid(f, 0, 2), 0);
	/* the switch */
	size_t sw;
	assert_int_equal(ibp_fabric_find_desc(f, "leaf-01", &sw), 0);
	assert_int_equal(sw, 1);
	assert_int_equal(ibp_fabric_node_type(f, sw), IBP_NODE_SWITCH);
	assert_int_equal(ibp_fabric_node_nports(f, sw), 24);
	assert_true(ibp_fabric_port_guid(f, sw, 0) == 0x506b4b0300a1b100ULL);
	assert_true(ibp_fabric_port_guid(f, sw, 24) == 0x506b4b0300a1b100ULL);
	assert_int_equal(ibp_fabric_port_guid(f, sw, 25), 0);
	/* capacities: ibsim's 64 / 8 / 64 */
	assert_int_equal(ibp_fabric_port_capacity(f, 0, 1), 64);
	assert_int_equal(ibp_fabric_port_capacity(f, sw, 0), 8);
	assert_int_equal(ibp_fabric_port_capacity(f, sw, 3), 64);
	assert_int_equal(ibp_fabric_port_capacity(f, 0, 0), 0);
	/* links */
	size_t pn;
	unsigned pp;
	assert_true(ibp_fabric_port_peer(f, sw, 3, &pn, &pp));
	assert_string_equal(ibp_fabric_node_desc(f, pn), "tenantA-node-01");
	assert_int_equal(pp, 1);
	assert_true(ibp_fabric_port_peer(f, pn, 1, &pn, &pp));
	assert_int_equal(pn, sw);
	assert_int_equal(pp, 3);
	assert_false(ibp_fabric_port_peer(f, sw, 8, NULL, NULL));
	assert_false(ibp_fabric_port_peer(f, sw, 0, NULL, NULL));
	/* GUID look-ups: node and port GUIDs are separate name spaces
	 * (0x…b300 is sm-01's port and ufm-server's node) */
	size_t n;
	unsigned p;
	assert_int_equal(
	    ibp_fabric_find_port_guid(f, 0x506b4b0300a1b300ULL, &n, &p), 0);
	assert_int_equal(n, 0);
	assert_int_equal(p, 1);
	assert_int_equal(
	    ibp_fabric_find_node_guid(f, 0x506b4b0300a1b300ULL, &n), 0);
	assert_string_equal(ibp_fabric_node_desc(f, n), "ufm-server");
	assert_int_equal(
	    ibp_fabric_find_port_guid(f, 0x506b4b0300a1b100ULL, &n, &p), 0);
	assert_int_equal(n, sw);
	assert_int_equal(p, 0);
	assert_int_equal(ibp_fabric_find_port_guid(f, 0x1234, &n, &p),
			 IBP_ENOENT);
	/* end ports */
	assert_true(ibp_fabric_is_end_port(f, 0, 1));
	assert_true(ibp_fabric_is_end_port(f, sw, 0));
	assert_false(ibp_fabric_is_end_port(f, sw, 1));
	assert_false(ibp_fabric_is_end_port(f, 0, 0));
	/* default SM port: the first CA port in the file */
	assert_int_equal(ibp_fabric_default_sm_port(f, &n, &p), 0);
	assert_int_equal(n, 0);
	assert_int_equal(p, 1);
	/* file ids resolve too */
	assert_int_equal(ibp_fabric_find_desc(f, "H-506b4b0300a1b20f", &n), 0);
	assert_string_equal(ibp_fabric_node_desc(f, n), "storage-node");
	assert_int_equal(ibp_fabric_sysimg_guid(f, n), 0x506b4b0300a1b20fULL);
	ibp_fabric_free(f);
}

static void test_resolve(void **state)
{
	(void)state;
	ibp_fabric *f = load(path_of("IBP_EXAMPLES", "seed/seed.topo"));
	size_t n;
	unsigned p;
	ibp_error err;
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "tenantB-node-02", &n, &p, &err), 0);
	assert_true(ibp_fabric_port_guid(f, n, p) == 0x506b4b0300a1b203ULL);
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "0x506b4b0300a1b203", &n, &p, &err), 0);
	assert_string_equal(ibp_fabric_node_desc(f, n), "tenantB-node-02");
	/* a node GUID names the node's first linked port */
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "0x506b4b0300a1b20f", &n, &p, &err), 0);
	assert_string_equal(ibp_fabric_node_desc(f, n), "storage-node");
	assert_int_equal(p, 1);
	/* a port GUID wins over a node GUID: 0x…b202 is tenantB-node-01's
	 * port and tenantB-node-02's node */
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "0x506b4b0300a1b202", &n, &p, &err), 0);
	assert_string_equal(ibp_fabric_node_desc(f, n), "tenantB-node-01");
	assert_int_equal(ibp_fabric_resolve_port(f, "nosuch", &n, &p, &err),
			 IBP_ENOENT);
	/* LIDs only after assignment */
	assert_int_not_equal(ibp_fabric_resolve_port(f, "1", &n, &p, &err), 0);
	assert_int_equal(ibp_fabric_assign_lids(f, 0, &err), 0);
	assert_int_equal(ibp_fabric_resolve_port(f, "1", &n, &p, &err), 0);
	assert_string_equal(ibp_fabric_node_desc(f, n), "sm-01");
	ibp_fabric_free(f);
}

static void test_ibsim_examples(void **state)
{
	(void)state;
	/* ibsim's net-examples (copied into tests/data/topo): no GUIDs in
	 * the file, so ibsim's counters give them: CAs from 0x100000 (a CA
	 * takes nports + 1), switches from 0x200000. */
	ibp_fabric *f = load(path_of("IBP_TESTDATA", "topo/ibsim-net"));
	assert_int_equal(ibp_fabric_node_count(f), 4);
	assert_int_equal(ibp_fabric_node_guid(f, 0), 0x200000);
	assert_int_equal(ibp_fabric_node_guid(f, 1), 0x200001);
	assert_int_equal(ibp_fabric_node_guid(f, 2), 0x100000);
	assert_int_equal(ibp_fabric_node_guid(f, 3), 0x100003);
	assert_int_equal(ibp_fabric_port_guid(f, 3, 2), 0x100005);
	/* no description: the node id */
	assert_string_equal(ibp_fabric_node_desc(f, 0), "Switch1");
	size_t pn;
	unsigned pp;
	assert_true(ibp_fabric_port_peer(f, 0, 2, &pn, &pp));
	assert_int_equal(pn, 3);
	assert_int_equal(pp, 2);
	assert_true(ibp_fabric_port_peer(f, 1, 4, &pn, &pp));
	assert_int_equal(pn, 0);
	assert_int_equal(pp, 4);
	ibp_fabric_free(f);
	static const char *const nets[] = {
	    "topo/ibsim-net.1", "topo/ibsim-net.2sw2path",
	    "topo/ibsim-net.2sw2path4hca", "topo/ibsim-net.2sw2path4hca2port"};
	for (size_t i = 0; i < 4; i++) {
		f = load(path_of("IBP_TESTDATA", nets[i]));
		assert_true(ibp_fabric_node_count(f) >= 3);
		ibp_fabric_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seed),
	    cmocka_unit_test(test_resolve),
	    cmocka_unit_test(test_ibsim_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
