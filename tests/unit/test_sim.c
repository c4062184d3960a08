/*
 * test_sim.c - the data plane: BTH P_Key from the sender's table, the
 * receiving port's check (QP0 exempt, QP1 checked), switch inbound and
 * outbound enforcement, counters and traps, shortest-path forwarding
 * across switches, and a probe matrix equal to the IBA rule applied to
 * the tables (computed here by a plain double loop over the entries);
 * virtual functions sending through their physical port's table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/pkey.h"
#include "sim_fixture.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

static void set_table(ibp_sim *s, size_t n, unsigned p, const uint16_t *keys,
		      unsigned nk)
{
	ibp_pkey_table *t = ibp_tables_get_mut(ibp_sim_tables(s), n, p);
	assert_non_null(t);
	ibp_pkey_table_clear(t);
	for (unsigned i = 0; i < nk; i++)
		assert_int_equal(ibp_pkey_table_set(t, i, keys[i], NULL),
				 IBP_OK);
}

struct fx {
	ibp_fabric *f;
	ibp_sim *s;
	size_t sm, ufm, a1, a2, b1, b2, st, leaf;
};

/* The seed's strict tables. */
static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));
	x->f = fixture_seed_fabric();
	assert_non_null(x->f);
	assert_int_equal(ibp_sim_new(x->f, &x->s, NULL), IBP_OK);
	x->sm = fixture_node(x->f, "sm-01");
	x->ufm = fixture_node(x->f, "ufm-server");
	x->a1 = fixture_node(x->f, "tenantA-node-01");
	x->a2 = fixture_node(x->f, "tenantA-node-02");
	x->b1 = fixture_node(x->f, "tenantB-node-01");
	x->b2 = fixture_node(x->f, "tenantB-node-02");
	x->st = fixture_node(x->f, "storage-node");
	x->leaf = fixture_node(x->f, "leaf-01");
	uint16_t mg[] = {0xffff}, ta[] = {0x8001}, tb[] = {0x8002},
		 sto[] = {0x0001, 0x0002};
	set_table(x->s, x->sm, 1, mg, 1);
	set_table(x->s, x->ufm, 1, mg, 1);
	set_table(x->s, x->a1, 1, ta, 1);
	set_table(x->s, x->a2, 1, ta, 1);
	set_table(x->s, x->b1, 1, tb, 1);
	set_table(x->s, x->b2, 1, tb, 1);
	set_table(x->s, x->st, 1, sto, 2);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;
	ibp_sim_free(x->s);
	ibp_fabric_free(x->f);
	free(x);
	return 0;
}

static ibp_sim_verdict send1(ibp_sim *s, size_t src, size_t dst, uint16_t idx,
			     uint32_t qp, struct ibp_sim_result *r)
{
	struct ibp_sim_packet p = {.src_node = src,
				   .src_port = 1,
				   .dst_node = dst,
				   .dst_port = 1,
				   .pkey_index = idx,
				   .src_qp = 0x48,
				   .dest_qp = qp};
	assert_int_equal(ibp_sim_send(s, &p, r, NULL), IBP_OK);
	return r->verdict;
}

static void test_receive_check_and_trap_257(void **state)
{
	struct fx *x = *state;
	struct ibp_sim_result r;
	assert_int_equal(send1(x->s, x->a1, x->a2, 0, 0x49, &r),
			 IBP_SIM_DELIVERED);
	assert_int_equal(r.pkey, 0x8001);
	assert_int_equal(r.hops, 2);
	assert_int_equal(r.match_index, 0);
	/* TenantB -> TenantA: dropped by the receiver, counted, trapped. */
	assert_int_equal(send1(x->s, x->b1, x->a1, 0, 0x49, &r),
			 IBP_SIM_DROP_RECV_PKEY);
	assert_int_equal(r.drop_node, x->a1);
	assert_int_equal(ibp_sim_port_info(x->s, x->a1, 1)->p_key_violations,
			 1);
	assert_int_equal(ibp_sim_port_info(x->s, x->b1, 1)->p_key_violations,
			 0);
	assert_int_equal(ibp_sim_trap_pending(x->s), 1);
	struct ibp_sim_trap t;
	assert_int_equal(ibp_sim_trap_pop(x->s, &t), IBP_OK);
	assert_int_equal(t.trap_number, 257);
	assert_int_equal(t.pkey, 0x8002);
	assert_int_equal(t.lid1, ibp_fabric_port_lid(x->f, x->b1, 1));
	assert_int_equal(t.lid2, ibp_fabric_port_lid(x->f, x->a1, 1));
	assert_int_equal(t.qp2, 0x49);
	assert_int_equal(ibp_sim_trap_pop(x->s, &t), IBP_ENOENT);
	/* Limited storage <-> full tenant both ways; storage's limited
	 * keys never reach each other's limited members. */
	assert_int_equal(send1(x->s, x->st, x->a1, 0, 0x49, &r),
			 IBP_SIM_DELIVERED);
	assert_int_equal(send1(x->s, x->b2, x->st, 0, 0x49, &r),
			 IBP_SIM_DELIVERED);
	assert_int_equal(r.match_index, 1);
	assert_int_equal(send1(x->s, x->st, x->b2, 0, 0x49, &r),
			 IBP_SIM_DROP_RECV_PKEY);
	/* An empty P_Key index is not sent at all. */
	assert_int_equal(send1(x->s, x->a1, x->a2, 5, 0x49, &r),
			 IBP_SIM_DROP_SEND_PKEY);
	assert_int_equal(ibp_sim_traps_raised(x->s, 257), 2);
}

static void test_qp0_exempt_qp1_checked(void **state)
{
	struct fx *x = *state;
	struct ibp_sim_result r;
	assert_int_equal(send1(x->s, x->b1, x->a1, 0, IBP_QP0, &r),
			 IBP_SIM_DELIVERED);
	assert_int_equal(r.pkey, 0xffff);
	/* QP1 (GMPs, e.g. to the SA): a tenant without the default
	 * partition cannot reach the SM's port. */
	assert_int_equal(send1(x->s, x->a1, x->sm, 0, IBP_QP1, &r),
			 IBP_SIM_DROP_RECV_PKEY);
	assert_int_equal(ibp_sim_port_info(x->s, x->sm, 1)->p_key_violations,
			 1);
	assert_int_equal(send1(x->s, x->ufm, x->sm, 0, IBP_QP1, &r),
			 IBP_SIM_DELIVERED);
}

static void test_switch_enforcement_and_trap_259(void **state)
{
	struct fx *x = *state;
	struct ibp_sim_result r;
	/* tenantB-node-01 also holds 0x8001 (as if its host rewrote its
	 * own table); its switch port only allows 0x8002 inbound. */
	uint16_t rogue[] = {0x8002, 0x8001};
	set_table(x->s, x->b1, 1, rogue, 2);
	uint16_t p5[] = {0x8002}, p3[] = {0x8001};
	set_table(x->s, x->leaf, 5, p5, 1);
	set_table(x->s, x->leaf, 3, p3, 1);
	/* Without enforcement the receiver is the only check: delivered. */
	assert_int_equal(send1(x->s, x->b1, x->a1, 1, 0x49, &r),
			 IBP_SIM_DELIVERED);
	ibp_sim_port_info(x->s, x->leaf, 5)->part_enforce_in = true;
	assert_int_equal(send1(x->s, x->b1, x->a1, 1, 0x49, &r),
			 IBP_SIM_DROP_SWITCH_IN);
	assert_int_equal(r.drop_node, x->leaf);
	assert_int_equal(r.drop_port, 5);
	assert_int_equal(
	    ibp_sim_port_counters(x->s, x->leaf, 5)->rcv_constraint_errors, 1);
	assert_int_equal(ibp_sim_port_info(x->s, x->a1, 1)->p_key_violations,
			 0);
	/* Outbound on port 3: storage's 0x0001 leaving toward a1 passes
	 * (0x8001 matches it), 0xffff from the SM does not. */
	ibp_sim_port_info(x->s, x->leaf, 3)->part_enforce_out = true;
	assert_int_equal(send1(x->s, x->st, x->a1, 0, 0x49, &r),
			 IBP_SIM_DELIVERED);
	assert_int_equal(send1(x->s, x->sm, x->a1, 0, 0x49, &r),
			 IBP_SIM_DROP_SWITCH_OUT);
	assert_int_equal(
	    ibp_sim_port_counters(x->s, x->leaf, 3)->xmit_constraint_errors, 1);
	assert_int_equal(ibp_sim_traps_raised(x->s, 259), 2);
	struct ibp_sim_trap t;
	size_t pending = ibp_sim_trap_pending(x->s);
	assert_int_equal(pending, 2);
	assert_int_equal(ibp_sim_trap_pop(x->s, &t), IBP_OK);
	assert_int_equal(t.trap_number, 259);
	assert_int_equal(t.sw_port, 5);
	assert_int_equal(t.pkey, 0x8001);
	assert_int_equal(t.sw_lid, ibp_fabric_port_lid(x->f, x->leaf, 0));
	/* The switch checks the partition, not the membership: storage's
	 * limited 0x0001 passes its leaf port holding limited 0x0001. */
	uint16_t p7[] = {0x0001, 0x0002};
	set_table(x->s, x->leaf, 7, p7, 2);
	ibp_sim_port_info(x->s, x->leaf, 7)->part_enforce_in = true;
	assert_int_equal(send1(x->s, x->st, x->a1, 0, 0x49, &r),
			 IBP_SIM_DELIVERED);
	uint16_t p7b[] = {0x0002};
	set_table(x->s, x->leaf, 7, p7b, 1);
	assert_int_equal(send1(x->s, x->st, x->a1, 0, 0x49, &r),
			 IBP_SIM_DROP_SWITCH_IN);
	/* SMPs pass enforcement. */
	assert_int_equal(send1(x->s, x->sm, x->a1, 0, IBP_QP0, &r),
			 IBP_SIM_DELIVERED);
}

/* The IBA rule over the entries, without the table's hash. */
static bool share_key(const ibp_pkey_table *a, const ibp_pkey_table *b)
{
	for (unsigned i = 0; i < ibp_pkey_table_capacity(a); i++)
		for (unsigned j = 0; j < ibp_pkey_table_capacity(b); j++) {
			uint16_t x = ibp_pkey_table_get(a, i);
			uint16_t y = ibp_pkey_table_get(b, j);
			if ((x & 0x7fff) != 0 && (x & 0x7fff) == (y & 0x7fff) &&
			    ((x | y) & 0x8000))
				return true;
		}
	return false;
}

static void test_probe_matrix_equals_rule(void **state)
{
	struct fx *x = *state;
	size_t ends[] = {x->sm, x->ufm, x->a1, x->a2, x->b1, x->b2, x->st};
	/* A probe from i can use any of i's entries: the pair can talk
	 * when some index gets through. */
	for (unsigned i = 0; i < 7; i++)
		for (unsigned j = 0; j < 7; j++) {
			if (i == j)
				continue;
			bool any = false;
			const ibp_pkey_table *ti =
			    ibp_tables_get(ibp_sim_tables(x->s), ends[i], 1);
			for (unsigned k = 0; k < ibp_pkey_table_used(ti); k++) {
				struct ibp_sim_result r;
				if (send1(x->s, ends[i], ends[j], (uint16_t)k,
					  0x49, &r) == IBP_SIM_DELIVERED)
					any = true;
			}
			bool rule =
			    share_key(ti, ibp_tables_get(ibp_sim_tables(x->s),
							 ends[j], 1));
			assert_int_equal(any, rule);
		}
}

/* The probe matrix equals the analysis module's matrix from the same
 * tables - here OpenSM-style tables (every host limited in 0x7fff, the
 * SM and UFM full), leaf ports mirroring their host, enforcement on. */
static void test_probe_matrix_equals_analysis(void **state)
{
	struct fx *x = *state;
	size_t ends[] = {x->sm, x->ufm, x->a1, x->a2, x->b1, x->b2, x->st};
	uint16_t t[7][3] = {{0xffff},
			    {0xffff},
			    {0x7fff, 0x8001},
			    {0x7fff, 0x8001},
			    {0x7fff, 0x8002},
			    {0x7fff, 0x8002},
			    {0x7fff, 0x0001, 0x0002}};
	unsigned nk[7] = {1, 1, 2, 2, 2, 2, 3};
	for (unsigned i = 0; i < 7; i++) {
		set_table(x->s, ends[i], 1, t[i], nk[i]);
		size_t sn;
		unsigned sp;
		assert_true(ibp_fabric_port_peer(x->f, ends[i], 1, &sn, &sp));
		set_table(x->s, sn, sp, t[i], nk[i]);
		ibp_sim_port_info(x->s, sn, sp)->part_enforce_in = true;
		ibp_sim_port_info(x->s, sn, sp)->part_enforce_out = true;
	}
	ibp_matrix *m;
	assert_int_equal(ibp_matrix_build(ibp_sim_tables(x->s), NULL, &m, NULL),
			 IBP_OK);
	assert_int_equal(ibp_matrix_endpoint_count(m), 7);
	unsigned talk = 0;
	for (size_t i = 0; i < 7; i++)
		for (size_t j = 0; j < 7; j++) {
			if (i == j)
				continue;
			size_t ni, nj;
			unsigned pi, pj;
			ibp_matrix_endpoint(m, i, &ni, &pi);
			ibp_matrix_endpoint(m, j, &nj, &pj);
			bool any = false;
			for (uint16_t k = 0; k < 3; k++) {
				struct ibp_sim_result r;
				struct ibp_sim_packet p = {.src_node = ni,
							   .src_port = pi,
							   .dst_node = nj,
							   .dst_port = pj,
							   .pkey_index = k,
							   .dest_qp = 0x49};
				ibp_sim_send(x->s, &p, &r, NULL);
				any |= r.verdict == IBP_SIM_DELIVERED;
			}
			assert_int_equal(any, ibp_matrix_can_talk(m, i, j));
			talk += any;
		}
	/* SM and UFM reach everyone; a tenant reaches SM, UFM, its peer and
	 * storage; storage reaches all six. */
	assert_int_equal(talk, 2 * 6 + 4 * 4 + 6);
	ibp_matrix_free(m);
}

/* Two switches in a line: CA - sw1 - sw2 - CA; 3 links, and a CA is
 * never a transit hop. */
static void test_route_across_switches(void **state)
{
	(void)state;
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	ibp_fabric *f = ibp_fabric_new(&o);
	size_t s1, s2, c1, c2;
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x100, 4, "sw1", &s1, NULL),
	    IBP_OK);
	ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x200, 4, "sw2", &s2, NULL);
	ibp_fabric_add_node(f, IBP_NODE_CA, 0x300, 1, "h1", &c1, NULL);
	ibp_fabric_add_node(f, IBP_NODE_CA, 0x400, 1, "h2", &c2, NULL);
	ibp_fabric_link(f, c1, 1, s1, 1, NULL);
	ibp_fabric_link(f, s1, 4, s2, 3, NULL);
	ibp_fabric_link(f, c2, 1, s2, 2, NULL);
	assert_int_equal(ibp_fabric_assign_lids(f, 0, NULL), IBP_OK);
	ibp_sim *s;
	assert_int_equal(ibp_sim_new(f, &s, NULL), IBP_OK);
	struct ibp_sim_result r;
	assert_int_equal(send1(s, c1, c2, 0, 0x49, &r), IBP_SIM_DELIVERED);
	assert_int_equal(r.hops, 3);
	/* Outbound enforcement on sw1's inter-switch port is applied too. */
	ibp_sim_port_info(s, s1, 4)->part_enforce_out = true;
	uint16_t only[] = {0x8009};
	set_table(s, s1, 4, only, 1);
	assert_int_equal(send1(s, c1, c2, 0, 0x49, &r),
			 IBP_SIM_DROP_SWITCH_OUT);
	/* To a switch's own port 0. */
	struct ibp_sim_packet p = {.src_node = c1,
				   .src_port = 1,
				   .dst_node = s2,
				   .dst_port = 0,
				   .dest_qp = IBP_QP0};
	assert_int_equal(ibp_sim_send(s, &p, &r, NULL), IBP_OK);
	assert_int_equal(r.verdict, IBP_SIM_DELIVERED);
	assert_int_equal(r.hops, 2);
	/* A switch external port is not an end port. */
	p.dst_port = 2;
	assert_int_equal(ibp_sim_send(s, &p, &r, NULL), IBP_EINVAL);
	ibp_sim_free(s);
	ibp_fabric_free(f);
}

/* Two tenants' VFs on one physical port (mlx4 model): the physical
 * P_KeyTable holds both tenants' keys; each VF reaches only what the
 * host's pkey_idx mapping gives it, and a mapping that gives VF 2 the
 * other tenant's entry lets it into tenant A: the sharing the audit's
 * shared-physical-port reports. */
static void test_vfs_share_physical_table(void **state)
{
	struct fx *x = *state;
	uint16_t both[] = {0x8001, 0x8002};
	set_table(x->s, x->a1, 1, both, 2);
	assert_int_equal(ibp_sim_set_guid_cap(x->s, x->a1, 1, 8, NULL), IBP_OK);
	assert_int_equal(ibp_sim_set_alias_guid(x->s, x->a1, 1, 1,
						0x0002c90300a1f001ull, NULL),
			 IBP_OK);
	assert_int_equal(ibp_sim_set_alias_guid(x->s, x->a1, 1, 2,
						0x0002c90300a1f002ull, NULL),
			 IBP_OK);
	uint16_t vf1[] = {0}, vf2[] = {1}, careless[] = {1, 0};
	assert_int_equal(
	    ibp_sim_set_vf_pkey_map(x->s, x->a1, 1, 1, vf1, 1, NULL), IBP_OK);
	assert_int_equal(
	    ibp_sim_set_vf_pkey_map(x->s, x->a1, 1, 2, vf2, 1, NULL), IBP_OK);
	struct ibp_sim_packet p = {.src_node = x->a1,
				   .src_port = 1,
				   .dst_node = x->b1,
				   .dst_port = 1,
				   .src_vf = 2,
				   .src_qp = 0x48,
				   .dest_qp = 0x49};
	struct ibp_sim_result r;
	/* VF 2 (tenant B's) reaches tenant B with 0x8002. */
	assert_int_equal(ibp_sim_send(x->s, &p, &r, NULL), IBP_OK);
	assert_int_equal(r.verdict, IBP_SIM_DELIVERED);
	assert_int_equal(r.pkey, 0x8002);
	/* VF 1 (tenant A's) does not. */
	p.src_vf = 1;
	assert_int_equal(ibp_sim_send(x->s, &p, &r, NULL), IBP_OK);
	assert_int_equal(r.verdict, IBP_SIM_DROP_RECV_PKEY);
	/* An index the VF has no mapping for sends nothing. */
	p.src_vf = 2;
	p.pkey_index = 1;
	assert_int_equal(ibp_sim_send(x->s, &p, &r, NULL), IBP_OK);
	assert_int_equal(r.verdict, IBP_SIM_DROP_SEND_PKEY);
	/* A careless mapping gives VF 2 tenant A's key too. */
	assert_int_equal(
	    ibp_sim_set_vf_pkey_map(x->s, x->a1, 1, 2, careless, 2, NULL),
	    IBP_OK);
	p.dst_node = x->a2;
	assert_int_equal(ibp_sim_send(x->s, &p, &r, NULL), IBP_OK);
	assert_int_equal(r.verdict, IBP_SIM_DELIVERED);
	assert_int_equal(r.pkey, 0x8001);
	size_t n;
	unsigned port, idx;
	assert_int_equal(ibp_sim_find_alias_guid(x->s, 0x0002c90300a1f002ull,
						 &n, &port, &idx),
			 IBP_OK);
	assert_int_equal(n, x->a1);
	assert_int_equal(port, 1);
	assert_int_equal(idx, 2);
	assert_int_equal(ibp_sim_find_alias_guid(x->s, 0x0002c90300a1f003ull,
						 &n, &port, &idx),
			 IBP_ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_receive_check_and_trap_257,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_qp0_exempt_qp1_checked, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(
		test_switch_enforcement_and_trap_259, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_probe_matrix_equals_rule,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_probe_matrix_equals_analysis,
					    setup, teardown),
	    cmocka_unit_test(test_route_across_switches),
	    cmocka_unit_test_setup_teardown(test_vfs_share_physical_table,
					    setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
