/*
 * test_transport_sim.c - the simulated SMAs answer encoded SMPs as a real
 * SMA does: attributes and their values, the MAD status for a bad
 * attribute/method/version/port/block, directed routes walked hop by hop
 * with the return path, LID routing, M_Key protection, loss injection,
 * a PortInfo Set checked as IBA 14.2.5.6 says (PortState transitions,
 * PortPhysicalState, LinkDownDefaultState; else status 7), GUIDInfo Get
 * and Set by block with PortInfo's GUIDCap (14.2.5.5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ibpart/sys/transport_sim.h"
#include "ibpart/sys/mad.h"
#include "sim_fixture.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

struct fx {
	ibp_fabric *f;
	ibp_sim *sim;
	ibp_transport *t;
	size_t sm_node;
};

static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));
	x->f = fixture_seed_fabric();
	assert_non_null(x->f);
	assert_int_equal(ibp_sim_new(x->f, &x->sim, NULL), IBP_OK);
	x->sm_node = fixture_node(x->f, "sm-01");
	assert_int_equal(
	    ibp_transport_sim_new(x->sim, x->sm_node, 1, NULL, &x->t, NULL),
	    IBP_OK);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;
	ibp_transport_close(x->t);
	ibp_sim_free(x->sim);
	ibp_fabric_free(x->f);
	free(x);
	return 0;
}

/* Send a DR SMP; returns the transport's status, fills resp. */
static int dr(struct fx *x, uint8_t method, uint16_t attr, uint32_t mod,
	      const uint8_t *path, unsigned hops, const uint8_t *data,
	      struct ibp_smp *resp)
{
	struct ibp_smp req;
	assert_int_equal(ibp_smp_init_dr(&req, method, attr, mod, path, hops,
					 0x1234, 0, NULL),
			 IBP_OK);
	if (data)
		memcpy(req.data, data, IBP_SMP_DATA_SIZE);
	uint8_t b[IBP_MAD_SIZE], r[IBP_MAD_SIZE];
	assert_int_equal(ibp_smp_encode(&req, b, sizeof(b), NULL), IBP_OK);
	int rc = ibp_transport_smp(x->t, b, r, 10, NULL);
	if (rc == IBP_OK) {
		assert_int_equal(ibp_smp_decode(resp, r, sizeof(r), NULL),
				 IBP_OK);
		assert_int_equal(resp->tid, 0x1234);
		assert_int_equal(resp->method, IBP_METHOD_GET_RESP);
		assert_true(resp->direction);
	}
	return rc;
}

/* PortInfo of the port at the end of path. */
static void get_port_info(struct fx *x, const uint8_t *path, unsigned hops,
			  struct ibp_port_info *pi)
{
	struct ibp_smp r;
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 0, path, hops, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, 0);
	ibp_port_info_decode(pi, r.data, sizeof(r.data), NULL);
}

static void test_node_info_local_and_remote(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	struct ibp_node_info ni;
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, NULL, 0, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, 0);
	ibp_node_info_decode(&ni, r.data, sizeof(r.data), NULL);
	assert_int_equal(ni.node_type, 1);
	assert_int_equal(ni.node_guid, 0x506b4b0300a1b2ffull);
	assert_int_equal(ni.port_guid, 0x506b4b0300a1b300ull);
	assert_int_equal(ni.local_port_num, 1);
	assert_int_equal(ni.partition_cap, 64);

	/* One hop: the leaf switch, entered by its port 1. */
	uint8_t p1[] = {1};
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, p1, 1, NULL, &r),
	    IBP_OK);
	ibp_node_info_decode(&ni, r.data, sizeof(r.data), NULL);
	assert_int_equal(ni.node_type, 2);
	assert_int_equal(ni.num_ports, 24);
	assert_int_equal(ni.node_guid, 0x506b4b0300a1b100ull);
	assert_int_equal(ni.local_port_num, 1);
	assert_int_equal(ni.partition_cap, 8);
	assert_int_equal(r.return_path[1], 1);

	/* Two hops: out of the switch by port 3 to tenantA-node-01. */
	uint8_t p2[] = {1, 3};
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, p2, 2, NULL, &r),
	    IBP_OK);
	ibp_node_info_decode(&ni, r.data, sizeof(r.data), NULL);
	assert_int_equal(ni.node_guid, 0x506b4b0300a1b1ffull);
	assert_int_equal(ni.port_guid, 0x506b4b0300a1b200ull);
	assert_int_equal(r.return_path[1], 1);
	assert_int_equal(r.return_path[2], 1);
	assert_int_equal(r.hop_cnt, 2);

	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_DESC, 0, p2, 2, NULL, &r),
	    IBP_OK);
	char desc[IBP_NODE_DESC_SIZE + 1];
	ibp_node_desc_decode(desc, r.data, sizeof(r.data), NULL);
	assert_string_equal(desc, "tenantA-node-01");
}

static void test_broken_route_discarded(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	uint8_t unlinked[] = {1, 20}; /* switch port 20 has no cable */
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, unlinked, 2, NULL, &r),
	    IBP_ETIMEDOUT);
	uint8_t through_ca[] = {1, 3, 1}; /* a CA does not forward */
	assert_int_equal(dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0,
			    through_ca, 3, NULL, &r),
			 IBP_ETIMEDOUT);
	uint8_t noport[] = {2}; /* the SM's CA has one port */
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, noport, 1, NULL, &r),
	    IBP_ETIMEDOUT);
}

static void test_bad_requests_get_real_status(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	uint8_t sw[] = {1};
	/* An attribute this SMA does not implement. */
	assert_int_equal(dr(x, IBP_METHOD_GET, 0x0099, 0, NULL, 0, NULL, &r),
			 IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_UNSUP_METHOD_ATTR);
	/* SwitchInfo of a CA. */
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_SWITCH_INFO, 0, NULL, 0, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_UNSUP_METHOD_ATTR);
	/* Set(NodeInfo) is not a thing. */
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_NODE_INFO, 0, NULL, 0, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_UNSUP_METHOD_ATTR);
	/* Block 2 of a 64-entry table (blocks 0, 1). */
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE, 2, NULL, 0, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	/* Switch port 25 of a 24-port switch; port 0 block 1 (cap 8). */
	assert_int_equal(dr(x, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE,
			    ibp_pkey_attr_mod(0, 25), sw, 1, NULL, &r),
			 IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	assert_int_equal(dr(x, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE,
			    ibp_pkey_attr_mod(1, 0), sw, 1, NULL, &r),
			 IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	/* PortInfo of port 30. */
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 30, sw, 1, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);

	/* Bad class version, unsupported method: built by hand. */
	struct ibp_smp req;
	uint8_t b[IBP_MAD_SIZE], rb[IBP_MAD_SIZE];
	ibp_smp_init_dr(&req, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, NULL, 0, 7,
			0, NULL);
	req.class_version = 2;
	ibp_smp_encode(&req, b, sizeof(b), NULL);
	assert_int_equal(ibp_transport_smp(x->t, b, rb, 10, NULL), IBP_OK);
	ibp_smp_decode(&r, rb, sizeof(rb), NULL);
	assert_int_equal(r.status, IBP_MAD_STATUS_BAD_VERSION);
	ibp_smp_init_dr(&req, IBP_METHOD_SEND, IBP_ATTR_NODE_INFO, 0, NULL, 0,
			8, 0, NULL);
	ibp_smp_encode(&req, b, sizeof(b), NULL);
	assert_int_equal(ibp_transport_smp(x->t, b, rb, 10, NULL), IBP_OK);
	ibp_smp_decode(&r, rb, sizeof(rb), NULL);
	assert_int_equal(r.status, IBP_MAD_STATUS_UNSUP_METHOD);
}

static void test_pkey_table_set_get_by_block_and_port(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	uint16_t keys[32] = {0x8001, 0x7fff}, back[32];
	uint8_t d[IBP_SMP_DATA_SIZE];
	ibp_pkey_block_encode(keys, d, sizeof(d), NULL);
	uint8_t sw[] = {1}, ta[] = {1, 3};
	/* The switch's external port 3 via the attribute modifier. */
	assert_int_equal(dr(x, IBP_METHOD_SET, IBP_ATTR_PKEY_TABLE,
			    ibp_pkey_attr_mod(0, 3), sw, 1, d, &r),
			 IBP_OK);
	assert_int_equal(r.status, 0);
	size_t leaf = fixture_node(x->f, "leaf-01");
	const ibp_pkey_table *t =
	    ibp_tables_get(ibp_sim_tables(x->sim), leaf, 3);
	assert_int_equal(ibp_pkey_table_get(t, 0), 0x8001);
	assert_int_equal(ibp_pkey_table_get(t, 1), 0x7fff);
	/* Port 4 untouched: still ibsim's initial 0xffff. */
	t = ibp_tables_get(ibp_sim_tables(x->sim), leaf, 4);
	assert_int_equal(ibp_pkey_table_get(t, 0), 0xffff);
	/* The CA's block 1 (entries 32..63). */
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PKEY_TABLE, 1, ta, 2, d, &r),
	    IBP_OK);
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PKEY_TABLE, 1, ta, 2, NULL, &r),
	    IBP_OK);
	ibp_pkey_block_decode(back, r.data, sizeof(r.data), NULL);
	assert_memory_equal(back, keys, sizeof(keys));
	t = ibp_tables_get(ibp_sim_tables(x->sim),
			   fixture_node(x->f, "tenantA-node-01"), 1);
	assert_int_equal(ibp_pkey_table_get(t, 0), 0xffff);
	assert_int_equal(ibp_pkey_table_get(t, 32), 0x8001);
	/* Entries past a switch port 0's capacity of 8 are dropped. */
	uint16_t many[32];
	for (unsigned i = 0; i < 32; i++)
		many[i] = (uint16_t)(0x8000 | (i + 1));
	ibp_pkey_block_encode(many, d, sizeof(d), NULL);
	assert_int_equal(dr(x, IBP_METHOD_SET, IBP_ATTR_PKEY_TABLE,
			    ibp_pkey_attr_mod(0, 0), sw, 1, d, &r),
			 IBP_OK);
	ibp_pkey_block_decode(back, r.data, sizeof(r.data), NULL);
	assert_int_equal(back[7], 0x8008);
	assert_int_equal(back[8], 0);
}

static void test_port_info_and_enforcement_bits(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	struct ibp_port_info pi;
	uint8_t sw[] = {1};
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 3, sw, 1, NULL, &r),
	    IBP_OK);
	ibp_port_info_decode(&pi, r.data, sizeof(r.data), NULL);
	assert_int_equal(pi.link_state, IBP_PORT_STATE_ACTIVE);
	assert_int_equal(pi.lid, 2); /* the switch's LID (OpenSM order) */
	assert_false(pi.partition_enforcement_inbound);
	assert_int_equal(pi.port_phys_state, IBP_PHYS_STATE_LINKUP);
	pi.partition_enforcement_inbound = true;
	pi.partition_enforcement_outbound = true;
	uint8_t d[IBP_SMP_DATA_SIZE];
	/* The PortInfo as read, written back with the bits changed: its
	 * PortState Active (Active to Active is no transition) and
	 * PortPhysicalState LinkUp (not settable) make it invalid (14.2.5.6):
	 * status 7, and nothing of it is applied. */
	ibp_port_info_encode(&pi, d, sizeof(d), NULL);
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, 3, sw, 1, d, &r), IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	size_t leaf = fixture_node(x->f, "leaf-01");
	assert_false(ibp_sim_port_info(x->sim, leaf, 3)->part_enforce_in);
	assert_false(ibp_sim_port_info(x->sim, leaf, 3)->part_enforce_out);
	/* each state field alone */
	struct ibp_port_info bad = pi;
	bad.port_phys_state = IBP_PHYS_STATE_NOP;
	bad.link_down_default_state = 0;
	ibp_port_info_encode(&bad, d, sizeof(d), NULL); /* PortState Active */
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, 3, sw, 1, d, &r), IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	bad = pi;
	bad.link_state = IBP_PORT_STATE_NOP;
	bad.link_down_default_state = 0;
	ibp_port_info_encode(&bad, d, sizeof(d), NULL); /* LinkUp */
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, 3, sw, 1, d, &r), IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	bad.port_phys_state = IBP_PHYS_STATE_NOP;
	bad.link_down_default_state = 3; /* reserved */
	ibp_port_info_encode(&bad, d, sizeof(d), NULL);
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, 3, sw, 1, d, &r), IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	bad.link_down_default_state = 0;
	bad.link_state = IBP_PORT_STATE_INIT; /* never by a Set */
	ibp_port_info_encode(&bad, d, sizeof(d), NULL);
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, 3, sw, 1, d, &r), IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	assert_false(ibp_sim_port_info(x->sim, leaf, 3)->part_enforce_in);
	/* As OpenSM writes it: the three state fields 0, no change. */
	pi.link_state = IBP_PORT_STATE_NOP;
	pi.port_phys_state = IBP_PHYS_STATE_NOP;
	pi.link_down_default_state = 0;
	ibp_port_info_encode(&pi, d, sizeof(d), NULL);
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, 3, sw, 1, d, &r), IBP_OK);
	assert_int_equal(r.status, 0);
	ibp_port_info_decode(&pi, r.data, sizeof(r.data), NULL);
	assert_true(pi.partition_enforcement_inbound);
	assert_int_equal(pi.link_state, IBP_PORT_STATE_ACTIVE);
	assert_true(ibp_sim_port_info(x->sim, leaf, 3)->part_enforce_out);
	/* Unlinked port: Down. */
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 20, sw, 1, NULL, &r),
	    IBP_OK);
	ibp_port_info_decode(&pi, r.data, sizeof(r.data), NULL);
	assert_int_equal(pi.link_state, IBP_PORT_STATE_DOWN);
}

/* The PortState machine a Set walks (14.2.5.6): Down retrains the link
 * (both ends Initialize), then Armed, then Active, one step at a time. */
static void test_port_state_transitions(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	struct ibp_port_info pi;
	uint8_t sw[] = {1}, d[IBP_SMP_DATA_SIZE];
	size_t leaf = fixture_node(x->f, "leaf-01");
	size_t ta = fixture_node(x->f, "tenantA-node-01");
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 3, sw, 1, NULL, &r),
	    IBP_OK);
	ibp_port_info_decode(&pi, r.data, sizeof(r.data), NULL);
	pi.port_phys_state = IBP_PHYS_STATE_NOP;
	pi.link_down_default_state = 0;
	static const struct {
		uint8_t want;
		uint16_t status;
		uint8_t after;
	} steps[] = {
	    {IBP_PORT_STATE_ARMED, IBP_MAD_STATUS_INVALID_FIELD,
	     IBP_SIM_PORT_ACTIVE},
	    {IBP_PORT_STATE_DOWN, 0, IBP_SIM_PORT_INIT},
	    {IBP_PORT_STATE_ACTIVE, IBP_MAD_STATUS_INVALID_FIELD,
	     IBP_SIM_PORT_INIT},
	    {IBP_PORT_STATE_ARMED, 0, IBP_SIM_PORT_ARMED},
	    {IBP_PORT_STATE_ARMED, IBP_MAD_STATUS_INVALID_FIELD,
	     IBP_SIM_PORT_ARMED},
	    {IBP_PORT_STATE_ACTIVE, 0, IBP_SIM_PORT_ACTIVE},
	    {5, IBP_MAD_STATUS_INVALID_FIELD, IBP_SIM_PORT_ACTIVE},
	};
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		pi.link_state = steps[i].want;
		ibp_port_info_encode(&pi, d, sizeof(d), NULL);
		assert_int_equal(
		    dr(x, IBP_METHOD_SET, IBP_ATTR_PORT_INFO, 3, sw, 1, d, &r),
		    IBP_OK);
		assert_int_equal(r.status, steps[i].status);
		assert_int_equal(ibp_sim_port_info(x->sim, leaf, 3)->port_state,
				 steps[i].after);
		if (i == 1) /* the other end of the link retrained too */
			assert_int_equal(
			    ibp_sim_port_info(x->sim, ta, 1)->port_state,
			    IBP_SIM_PORT_INIT);
	}
}

static void test_mkey_protection(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	uint8_t ta[] = {1, 3};
	size_t n = fixture_node(x->f, "tenantA-node-01");
	struct ibp_sim_port_info *pi = ibp_sim_port_info(x->sim, n, 1);
	pi->m_key = 0xdeadbeef;
	pi->m_key_protect_bits = 0;
	uint16_t keys[32] = {0x8005};
	uint8_t d[IBP_SMP_DATA_SIZE];
	ibp_pkey_block_encode(keys, d, sizeof(d), NULL);
	/* Level 0: Get works and shows the key; a Set without it is
	 * dropped and counted. */
	struct ibp_port_info got;
	get_port_info(x, ta, 2, &got);
	assert_int_equal(got.mkey, 0xdeadbeef);
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PKEY_TABLE, 0, ta, 2, d, &r),
	    IBP_ETIMEDOUT);
	assert_int_equal(pi->m_key_violations, 1);
	ibp_pkey_table *t = ibp_tables_get_mut(ibp_sim_tables(x->sim), n, 1);
	assert_int_equal(ibp_pkey_table_get(t, 0), 0xffff);
	/* Level 1: Get works, the key reads 0; Set still dropped. */
	pi->m_key_protect_bits = 1;
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_PORT_INFO, 0, ta, 2, NULL, &r),
	    IBP_OK);
	ibp_port_info_decode(&got, r.data, sizeof(r.data), NULL);
	assert_int_equal(got.mkey, 0);
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_PKEY_TABLE, 0, ta, 2, d, &r),
	    IBP_ETIMEDOUT);
	assert_int_equal(pi->m_key_violations, 2);
	/* Levels 2 and 3: even Get is dropped. */
	pi->m_key_protect_bits = 2;
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, ta, 2, NULL, &r),
	    IBP_ETIMEDOUT);
	pi->m_key_protect_bits = 3;
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, ta, 2, NULL, &r),
	    IBP_ETIMEDOUT);
	assert_int_equal(pi->m_key_violations, 4);
	/* With the right M_Key, Set works. */
	struct ibp_smp req;
	ibp_smp_init_dr(&req, IBP_METHOD_SET, IBP_ATTR_PKEY_TABLE, 0, ta, 2, 9,
			0xdeadbeef, NULL);
	memcpy(req.data, d, sizeof(d));
	uint8_t b[IBP_MAD_SIZE], rb[IBP_MAD_SIZE];
	ibp_smp_encode(&req, b, sizeof(b), NULL);
	assert_int_equal(ibp_transport_smp(x->t, b, rb, 10, NULL), IBP_OK);
	assert_int_equal(ibp_pkey_table_get(t, 0), 0x8005);
}

static void test_lid_routed(void **state)
{
	struct fx *x = *state;
	struct ibp_smp req, r;
	uint8_t b[IBP_MAD_SIZE], rb[IBP_MAD_SIZE];
	ibp_smp_init_lid(&req, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, 5, 0);
	ibp_smp_encode(&req, b, sizeof(b), NULL);
	/* The plain op refuses: the MAD has no DLID. */
	assert_int_equal(ibp_transport_smp(x->t, b, rb, 10, NULL), IBP_EINVAL);
	size_t n = fixture_node(x->f, "tenantA-node-01");
	uint16_t lid = ibp_fabric_port_lid(x->f, n, 1);
	assert_int_equal(ibp_transport_smp_lid(x->t, lid, b, rb, 10, NULL),
			 IBP_OK);
	ibp_smp_decode(&r, rb, sizeof(rb), NULL);
	struct ibp_node_info ni;
	ibp_node_info_decode(&ni, r.data, sizeof(r.data), NULL);
	assert_int_equal(ni.node_guid, 0x506b4b0300a1b1ffull);
	/* No such LID: nothing answers. */
	assert_int_equal(ibp_transport_smp_lid(x->t, 999, b, rb, 10, NULL),
			 IBP_ETIMEDOUT);
}

static unsigned lost_pattern(ibp_sim *sim, size_t node, uint64_t seed,
			     uint32_t *bits)
{
	struct ibp_transport_sim_opts o = {.drop_rate = 0.3, .seed = seed};
	ibp_transport *t;
	assert_int_equal(ibp_transport_sim_new(sim, node, 1, &o, &t, NULL),
			 IBP_OK);
	struct ibp_smp req;
	uint8_t b[IBP_MAD_SIZE], rb[IBP_MAD_SIZE];
	ibp_smp_init_dr(&req, IBP_METHOD_GET, IBP_ATTR_NODE_INFO, 0, NULL, 0, 1,
			0, NULL);
	ibp_smp_encode(&req, b, sizeof(b), NULL);
	unsigned lost = 0;
	*bits = 0;
	for (unsigned i = 0; i < 32; i++)
		if (ibp_transport_smp(t, b, rb, 10, NULL) == IBP_ETIMEDOUT) {
			lost++;
			*bits |= 1u << i;
		}
	struct ibp_transport_stats st;
	ibp_transport_stats(t, &st);
	assert_int_equal(st.timeouts, lost);
	ibp_transport_close(t);
	return lost;
}

static void test_loss_injection_is_reproducible(void **state)
{
	struct fx *x = *state;
	uint32_t a, b, c;
	unsigned la = lost_pattern(x->sim, x->sm_node, 42, &a);
	unsigned lb = lost_pattern(x->sim, x->sm_node, 42, &b);
	lost_pattern(x->sim, x->sm_node, 43, &c);
	assert_int_equal(a, b);
	assert_int_equal(la, lb);
	assert_true(la > 0 && la < 32);
	assert_true(a != c);
}

static uint64_t guid_at(const struct ibp_smp *r, unsigned i)
{
	uint64_t g = 0;
	for (unsigned b = 0; b < 8; b++)
		g = (g << 8) | r->data[i * 8 + b];
	return g;
}

static void test_guid_info_get_set(void **state)
{
	struct fx *x = *state;
	struct ibp_smp r;
	uint8_t ta[] = {1, 3};
	size_t a1 = fixture_node(x->f, "tenantA-node-01");
	uint64_t pg = ibp_fabric_port_guid(x->f, a1, 1);
	/* As ibsim: GUIDCap 1, block 0 holds the port GUID only. */
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_GUID_INFO, 0, ta, 2, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, 0);
	assert_true(guid_at(&r, 0) == pg);
	assert_true(guid_at(&r, 1) == 0);
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_GUID_INFO, 1, ta, 2, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	/* A host with 16 GUIDs: PortInfo says so; a Set writes aliases,
	 * never entry 0. */
	assert_int_equal(ibp_sim_set_guid_cap(x->sim, a1, 1, 16, NULL), IBP_OK);
	struct ibp_port_info pi;
	get_port_info(x, ta, 2, &pi);
	assert_int_equal(pi.guid_cap, 16);
	uint8_t d[IBP_SMP_DATA_SIZE] = {0};
	for (unsigned i = 0; i < 8; i++)
		d[i * 8 + 7] = (uint8_t)(0x10 + i); /* GUID 0x10+i */
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_GUID_INFO, 1, ta, 2, d, &r), IBP_OK);
	assert_int_equal(r.status, 0);
	assert_true(guid_at(&r, 0) == 0x10);
	assert_true(ibp_sim_guid(x->sim, a1, 1, 8) == 0x10);
	assert_true(ibp_sim_guid(x->sim, a1, 1, 15) == 0x17);
	assert_int_equal(
	    dr(x, IBP_METHOD_SET, IBP_ATTR_GUID_INFO, 0, ta, 2, d, &r), IBP_OK);
	assert_true(guid_at(&r, 0) == pg); /* read-only */
	assert_true(guid_at(&r, 1) == 0x11);
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_GUID_INFO, 2, ta, 2, NULL, &r),
	    IBP_OK);
	assert_int_equal(r.status, IBP_MAD_STATUS_INVALID_FIELD);
	/* A switch answers with its port 0's table on any port. */
	uint8_t sw[] = {1};
	assert_int_equal(
	    dr(x, IBP_METHOD_GET, IBP_ATTR_GUID_INFO, 0, sw, 1, NULL, &r),
	    IBP_OK);
	assert_true(
	    guid_at(&r, 0) ==
	    ibp_fabric_port_guid(x->f, fixture_node(x->f, "leaf-01"), 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_node_info_local_and_remote,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_broken_route_discarded, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_bad_requests_get_real_status,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(
		test_pkey_table_set_get_by_block_and_port, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_port_info_and_enforcement_bits,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_port_state_transitions, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_mkey_protection, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_lid_routed, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_guid_info_get_set, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_loss_injection_is_reproducible,
					    setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
