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
#include "topo/topo_lib.h"

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

/* A CA with two linked ports is named per port ("name/N"); a bare name
 * of it is ambiguous; single-port nodes keep their plain name. */
static void test_resolve_dual_port(void **state)
{
	(void)state;
	ibp_fabric *f = load(path_of("IBP_TESTDATA", "interop/mixed.topo"));
	size_t n;
	unsigned p;
	ibp_error err;
	ibp_error_clear(&err);
	assert_int_equal(ibp_fabric_resolve_port(f, "dual-port", &n, &p, &err),
			 IBP_EINVAL);
	assert_string_equal(
	    err.message, "'dual-port' has 2 ports: dual-port/1, dual-port/2");
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "dual-port/2", &n, &p, &err), 0);
	assert_true(ibp_fabric_port_guid(f, n, p) == 0x0002c90000002002ULL);
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "dual-port/1", &n, &p, &err), 0);
	assert_true(ibp_fabric_port_guid(f, n, p) == 0x0002c90000002001ULL);
	/* the file id and the node GUID take "/N" too */
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "H-0002c90000002000/2", &n, &p, &err),
	    0);
	assert_true(ibp_fabric_port_guid(f, n, p) == 0x0002c90000002002ULL);
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "0x0002c90000002000/1", &n, &p, &err),
	    0);
	assert_true(ibp_fabric_port_guid(f, n, p) == 0x0002c90000002001ULL);
	/* ports it does not have */
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "dual-port/3", &n, &p, &err),
	    IBP_ERANGE);
	assert_non_null(strstr(err.message, "no port 3"));
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "dual-port/0", &n, &p, &err),
	    IBP_ERANGE);
	assert_int_equal(ibp_fabric_resolve_port(f, "sw1/3", &n, &p, &err),
			 IBP_ERANGE);
	assert_int_equal(ibp_fabric_resolve_port(f, "sw1/0", &n, &p, &err), 0);
	assert_string_equal(ibp_fabric_node_desc(f, n), "sw1");
	assert_int_equal(p, 0);
	assert_int_equal(ibp_fabric_resolve_port(f, "nosuch/1", &n, &p, &err),
			 IBP_ENOENT);
	/* node-c has two ports but only port 2 linked: its plain name is
	 * that port, as before; "/1" still names the other */
	assert_int_equal(ibp_fabric_resolve_port(f, "node-c", &n, &p, &err), 0);
	assert_int_equal(p, 2);
	assert_int_equal(ibp_fabric_resolve_port(f, "node-c/1", &n, &p, &err),
			 0);
	assert_int_equal(p, 1);
	/* single-port nodes: plain, and "/1" also works */
	assert_int_equal(ibp_fabric_resolve_port(f, "node-a", &n, &p, &err), 0);
	assert_int_equal(p, 1);
	char buf[64];
	assert_string_equal(ibp_fabric_port_name(f, n, 1, buf, sizeof(buf)),
			    "node-a");
	assert_int_equal(ibp_fabric_resolve_port(f, "node-a/1", &n, &p, &err),
			 0);
	assert_int_equal(ibp_fabric_node_linked_end_ports(f, n), 1);
	/* names round-trip through the resolver */
	assert_int_equal(ibp_fabric_find_desc(f, "dual-port", &n), 0);
	assert_int_equal(ibp_fabric_node_linked_end_ports(f, n), 2);
	assert_string_equal(ibp_fabric_port_name(f, n, 2, buf, sizeof(buf)),
			    "dual-port/2");
	size_t n2;
	assert_int_equal(ibp_fabric_resolve_port(f, buf, &n2, &p, &err), 0);
	assert_int_equal(n2, n);
	assert_int_equal(p, 2);
	ibp_fabric_free(f);

	/* a description with a '/' of its own (switches are often named
	 * "host:MQM8700/U1") is read whole before any "/N" */
	f = ibp_fabric_new(NULL);
	size_t sw, ca;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x100, 8,
					     "sw-01:MQM8700/1", &sw, NULL),
			 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x200, 1, "h", &ca, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, ca, 1, sw, 1, NULL), 0);
	assert_int_equal(
	    ibp_fabric_resolve_port(f, "sw-01:MQM8700/1", &n, &p, &err), 0);
	assert_int_equal(n, sw);
	assert_int_equal(p, 0);
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
	    cmocka_unit_test(test_resolve_dual_port),
	    cmocka_unit_test(test_ibsim_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
