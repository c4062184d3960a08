/*
 * test_sm.c - the SM over the simulated transport: directed-route
 * discovery rebuilds the topology file's fabric; a push writes only the
 * differing blocks and the ports end up holding the wanted tables; a
 * second push writes nothing; lost MADs are retried; a fabric that stops
 * answering gives an incomplete report naming the ports; dry run writes
 * nothing; leaf-port partition enforcement, its PortInfo Set as OpenSM
 * writes it (state fields 0, only the enforcement bits changed, sent only
 * where they differ); traps are counted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ibpart/sys/fabric_gen.h"
#include "ibpart/sys/mad.h"
#include "ibpart/sys/sa.h"
#include "ibpart/sys/sm.h"
#include "ibpart/sys/transport_sim.h"
#include "sim_fixture.h"
#include "topo/alias_map_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/alias_map.h"

struct fx {
	ibp_fabric *f;
	ibp_sim *s;
	ibp_tables *want;
	size_t sm_node;
};

static void put(ibp_tables *ts, size_t n, unsigned p, const uint16_t *k,
		unsigned nk)
{
	ibp_pkey_table *t = ibp_tables_get_or_create(ts, n, p);
	assert_non_null(t);
	for (unsigned i = 0; i < nk; i++)
		ibp_pkey_table_set(t, i, k[i], NULL);
}

/* The seed's strict plan, and the leaf ports mirroring their CA. */
static int setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));
	x->f = fixture_seed_fabric();
	assert_non_null(x->f);
	assert_int_equal(ibp_sim_new(x->f, &x->s, NULL), IBP_OK);
	x->sm_node = fixture_node(x->f, "sm-01");
	x->want = ibp_tables_new(x->f);
	const char *names[] = {"sm-01",		  "ufm-server",
			       "tenantA-node-01", "tenantA-node-02",
			       "tenantB-node-01", "tenantB-node-02",
			       "storage-node"};
	uint16_t tabs[7][2] = {{0xffff}, {0xffff}, {0x8001},	    {0x8001},
			       {0x8002}, {0x8002}, {0x0001, 0x0002}};
	size_t leaf = fixture_node(x->f, "leaf-01");
	for (unsigned i = 0; i < 7; i++) {
		size_t n = fixture_node(x->f, names[i]);
		unsigned nk = tabs[i][1] ? 2 : 1;
		put(x->want, n, 1, tabs[i], nk);
		size_t sn;
		unsigned sp;
		assert_true(ibp_fabric_port_peer(x->f, n, 1, &sn, &sp));
		put(x->want, sn, sp, tabs[i], nk);
	}
	uint16_t p0[] = {0xffff};
	put(x->want, leaf, 0, p0, 1);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct fx *x = *state;
	ibp_tables_free(x->want);
	ibp_sim_free(x->s);
	ibp_fabric_free(x->f);
	free(x);
	return 0;
}

static ibp_sm *new_sm(struct fx *x, double loss, unsigned retries,
		      ibp_transport **t)
{
	struct ibp_transport_sim_opts to = {.drop_rate = loss, .seed = 7};
	assert_int_equal(
	    ibp_transport_sim_new(x->s, x->sm_node, 1, &to, t, NULL), IBP_OK);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.retries = retries;
	ibp_sm *sm;
	assert_int_equal(ibp_sm_new(*t, &o, &sm, NULL), IBP_OK);
	return sm;
}

/* Every wanted table is what the simulated port holds. */
static void assert_holds(struct fx *x)
{
	for (size_t i = 0; i < ibp_tables_count(x->want); i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *w = ibp_tables_at(x->want, i, &n, &p);
		const ibp_pkey_table *h =
		    ibp_tables_get(ibp_sim_tables(x->s), n, p);
		assert_non_null(h);
		for (unsigned k = 0; k < ibp_pkey_table_capacity(h); k++)
			assert_int_equal(ibp_pkey_table_get(h, k),
					 ibp_pkey_table_get(w, k));
	}
}

/* Discover and read every table with `window` SMPs in flight (1: the
 * one-at-a-time walk; more: the pipelined rounds) over a transport losing
 * `loss` of the MADs; the fabric found must be the topology's.  Returns
 * the SMPs sent. */
static unsigned long discover_and_check(struct fx *x, unsigned window,
					double loss)
{
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, loss, loss > 0 ? 20 : 0, &t);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.retries = loss > 0 ? 20 : 0;
	o.max_wire_smps = window;
	assert_int_equal(ibp_sm_set_options(sm, &o, NULL), IBP_OK);
	assert_int_equal(ibp_sm_discover(sm, NULL), IBP_OK);
	const ibp_fabric *d = ibp_sm_fabric(sm);
	assert_int_equal(ibp_fabric_node_count(d), 8);
	for (size_t n = 0; n < ibp_fabric_node_count(x->f); n++) {
		size_t m;
		uint64_t g = ibp_fabric_node_guid(x->f, n);
		assert_int_equal(ibp_fabric_find_node_guid(d, g, &m), IBP_OK);
		assert_string_equal(ibp_fabric_node_desc(d, m),
				    ibp_fabric_node_desc(x->f, n));
		assert_int_equal(ibp_fabric_node_type(d, m),
				 ibp_fabric_node_type(x->f, n));
		unsigned np = ibp_fabric_node_nports(x->f, n);
		assert_int_equal(ibp_fabric_node_nports(d, m), np);
		for (unsigned p = 0; p <= np; p++) {
			size_t pn, qn;
			unsigned pp, qp;
			bool a = ibp_fabric_port_peer(x->f, n, p, &pn, &pp);
			bool b = ibp_fabric_port_peer(d, m, p, &qn, &qp);
			assert_int_equal(a, b);
			if (a) {
				assert_int_equal(ibp_fabric_node_guid(x->f, pn),
						 ibp_fabric_node_guid(d, qn));
				assert_int_equal(pp, qp);
			}
			if (ibp_fabric_is_end_port(x->f, n, p))
				assert_int_equal(
				    ibp_fabric_port_capacity(x->f, n, p),
				    ibp_fabric_port_capacity(d, m, p));
		}
	}
	ibp_tables *cur;
	assert_int_equal(ibp_sm_read_tables(sm, &cur, NULL), IBP_OK);
	assert_true(ibp_tables_count(cur) >= 8);
	/* every table read is what the port holds */
	for (size_t i = 0; i < ibp_tables_count(cur); i++) {
		size_t n, sn;
		unsigned p;
		const ibp_pkey_table *h = ibp_tables_at(cur, i, &n, &p);
		assert_int_equal(ibp_fabric_find_node_guid(
				     x->f, ibp_fabric_node_guid(d, n), &sn),
				 IBP_OK);
		const ibp_pkey_table *s =
		    ibp_tables_get(ibp_sim_tables(x->s), sn, p);
		assert_non_null(s);
		assert_true(ibp_pkey_table_equal(h, s));
	}
	ibp_tables_free(cur);
	unsigned long smps;
	ibp_sm_counters(sm, &smps, NULL, NULL);
	ibp_sm_free(sm);
	ibp_transport_close(t);
	return smps;
}

static void test_discover_rebuilds_fabric(void **state)
{
	struct fx *x = *state;
	unsigned long one = discover_and_check(x, 1, 0);
	/* pipelined: the same fabric from the same SMPs, in rounds */
	assert_int_equal(discover_and_check(x, 4, 0), one);
	assert_int_equal(discover_and_check(x, 16, 0), one);
	/* and with a fifth of the MADs lost, retried until answered */
	assert_true(discover_and_check(x, 4, 0.2) > one);
}

/* Alias GUIDs registered in the simulated ports' GUIDInfo tables come
 * back from discovery as the alias map: every one, with its port and
 * index, from every block up to GUIDCap (a second block too), one-at-a-
 * time and pipelined, over a lossy transport as well; a port left at
 * GUIDCap 1 gives none. */
/* One SA request of GUIDInfoRecord r (method, component mask) from
 * (node, port) to the SA at sa_lid; the answer's header and its first
 * record into *h and *out. */
static int sa_gir(struct fx *x, size_t node, unsigned port, uint16_t sa_lid,
		  uint8_t method, uint64_t mask,
		  const struct ibp_guid_info_record *r, struct ibp_sa_mad *h,
		  struct ibp_guid_info_record *out)
{
	uint8_t req[IBP_MAD_SIZE], resp[IBP_MAD_SIZE];
	assert_int_equal(ibp_sa_mad_init(req, sizeof(req), method,
					 IBP_SA_ATTR_GUID_INFO_RECORD, 0x77, 0,
					 NULL),
			 IBP_OK);
	assert_int_equal(ibp_sa_mad_decode(h, req, sizeof(req), NULL), IBP_OK);
	h->comp_mask = mask;
	assert_int_equal(ibp_sa_mad_encode(h, req, sizeof(req), NULL), IBP_OK);
	assert_int_equal(ibp_guid_info_record_encode(r,
						     req + IBP_SA_DATA_OFFSET,
						     IBP_SA_DATA_SIZE, NULL),
			 IBP_OK);
	int rc = ibp_sim_sa_process(x->s, node, port, sa_lid, req, resp, NULL);
	if (rc)
		return rc;
	assert_int_equal(ibp_sa_mad_decode(h, resp, sizeof(resp), NULL),
			 IBP_OK);
	assert_int_equal(ibp_guid_info_record_decode(out,
						     resp + IBP_SA_DATA_OFFSET,
						     IBP_SA_DATA_SIZE, NULL),
			 IBP_OK);
	return IBP_OK;
}

/* The simulated SA (transport_sim_sa.c): a host registers its VF's alias
 * with SubnAdmSet(GUIDInfoRecord), the SMA's GUIDInfo then holds it, the
 * SA's GetTable answers from the SMAs' tables, and the SM's alias
 * reading asks the SA one block at a time (IBA 15.2.5.18). */
static void test_alias_guids_sim_sa(void **state)
{
	struct fx *x = *state;
	size_t a1 = fixture_node(x->f, "tenantA-node-01");
	size_t b1 = fixture_node(x->f, "tenantB-node-01");
	size_t smn;
	unsigned smp;
	ibp_sim_sm_port(x->s, &smn, &smp);
	uint16_t sa_lid = ibp_sim_port_info(x->s, smn, smp)->lid;
	uint16_t a1_lid = ibp_sim_port_info(x->s, a1, 1)->lid;
	assert_int_equal(ibp_sim_set_guid_cap(x->s, a1, 1, 16, NULL), IBP_OK);
	assert_int_equal(ibp_sim_set_guid_cap(x->s, b1, 1, 8, NULL), IBP_OK);
	struct ibp_guid_info_record r = {.lid = a1_lid, .block_num = 1}, got;
	r.guid[1] = 0x0002c90300aa0109ull; /* VF 9 */
	struct ibp_sa_mad h;
	uint64_t set_mask =
	    IBP_GIR_COMP_LID | IBP_GIR_COMP_BLOCK | IBP_GIR_COMP_GUID(1);
	assert_int_equal(
	    sa_gir(x, a1, 1, sa_lid, IBP_SA_METHOD_SET, set_mask, &r, &h, &got),
	    IBP_OK);
	assert_int_equal(h.method, IBP_SA_METHOD_GET_RESP);
	assert_int_equal(h.status, 0);
	assert_true(got.guid[1] == r.guid[1] && got.lid == a1_lid &&
		    got.block_num == 1);
	assert_true(ibp_sim_guid(x->s, a1, 1, 9) == r.guid[1]);
	/* the same alias for b1 is refused (0 in the answer), entry 0 and
	 * a set without the block are errors, another LID has no SA */
	struct ibp_guid_info_record rb = {
	    .lid = ibp_sim_port_info(x->s, b1, 1)->lid};
	rb.guid[2] = r.guid[1];
	assert_int_equal(
	    sa_gir(x, b1, 1, sa_lid, IBP_SA_METHOD_SET,
		   IBP_GIR_COMP_LID | IBP_GIR_COMP_BLOCK | IBP_GIR_COMP_GUID(2),
		   &rb, &h, &got),
	    IBP_OK);
	assert_int_equal(h.status, 0);
	assert_true(got.guid[2] == 0 && ibp_sim_guid(x->s, b1, 1, 2) == 0);
	assert_int_equal(
	    sa_gir(x, b1, 1, sa_lid, IBP_SA_METHOD_SET,
		   IBP_GIR_COMP_LID | IBP_GIR_COMP_BLOCK | IBP_GIR_COMP_GUID(0),
		   &rb, &h, &got),
	    IBP_OK);
	assert_int_equal(h.status, 2u << 8); /* ERR_REQ_INVALID */
	assert_int_equal(sa_gir(x, b1, 1, sa_lid, IBP_SA_METHOD_SET,
				IBP_GIR_COMP_LID | IBP_GIR_COMP_GUID(2), &rb,
				&h, &got),
			 IBP_OK);
	assert_int_equal(h.status, 6u << 8); /* insufficient components */
	assert_int_equal(sa_gir(x, b1, 1, a1_lid, IBP_SA_METHOD_GET_TABLE,
				IBP_GIR_COMP_LID, &r, &h, &got),
			 IBP_ETIMEDOUT);
	/* GetTable by LID: a1's two blocks, as its SMA's GUIDInfo */
	assert_int_equal(sa_gir(x, b1, 1, sa_lid, IBP_SA_METHOD_GET_TABLE,
				IBP_GIR_COMP_LID, &r, &h, &got),
			 IBP_OK);
	assert_int_equal(h.method, IBP_SA_METHOD_GET_TABLE_RESP);
	assert_int_equal(h.attr_offset, 9);
	assert_true(got.block_num == 0 &&
		    got.guid[0] == ibp_fabric_port_guid(x->f, a1, 1));
	/* the SM's reading asks the SA too: it answers, one query a block */
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 0, &t);
	ibp_alias_map *m = NULL;
	struct ibp_sm_alias_read ar;
	assert_int_equal(
	    ibp_sm_read_alias_guids_sa(sm, sa_lid, 0, &m, &ar, NULL), IBP_OK);
	assert_true(ar.sa_answered);
	assert_int_equal(ibp_alias_map_count(m), 1);
	assert_int_equal(ar.guid_info, 1); /* the SMA holds it: SMPs first */
	assert_int_equal(ar.sa, 0);
	assert_true(ar.sa_queries >= 3); /* a1's 2 blocks, b1's 1, ... */
	ibp_alias_map_free(m);
	/* no SA at that LID: the SMPs' alone, one query tried */
	assert_int_equal(
	    ibp_sm_read_alias_guids_sa(sm, a1_lid, 0, &m, &ar, NULL), IBP_OK);
	assert_false(ar.sa_answered);
	assert_int_equal(ar.sa_queries, 1);
	assert_int_equal(ibp_alias_map_count(m), 1);
	ibp_alias_map_free(m);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

static void test_alias_guids_discovered(void **state)
{
	struct fx *x = *state;
	size_t a1 = fixture_node(x->f, "tenantA-node-01");
	size_t b1 = fixture_node(x->f, "tenantB-node-01");
	size_t leaf = fixture_node(x->f, "leaf-01");
	assert_int_equal(ibp_sim_set_guid_cap(x->s, a1, 1, 16, NULL), IBP_OK);
	assert_int_equal(ibp_sim_set_guid_cap(x->s, b1, 1, 8, NULL), IBP_OK);
	assert_int_equal(ibp_sim_set_guid_cap(x->s, leaf, 0, 8, NULL), IBP_OK);
	const struct {
		size_t node;
		unsigned port, index;
		uint64_t guid;
	} want[] = {{a1, 1, 1, 0x0002c90300aa0101ull},
		    {a1, 1, 2, 0x0002c90300aa0102ull},
		    {a1, 1, 9, 0x0002c90300aa0109ull},
		    {a1, 1, 15, 0x0002c90300aa010full},
		    {b1, 1, 3, 0x0002c90300bb0103ull},
		    {leaf, 0, 7, 0x0002c90300cc0007ull}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(
		    ibp_sim_set_alias_guid(x->s, want[i].node, want[i].port,
					   want[i].index, want[i].guid, NULL),
		    IBP_OK);
	const unsigned windows[] = {1, 8};
	const double losses[] = {0, 0.2};
	for (unsigned w = 0; w < 2; w++) {
		ibp_transport *t;
		ibp_sm *sm = new_sm(x, losses[w], losses[w] > 0 ? 20 : 0, &t);
		struct ibp_sm_options o;
		ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
		o.retries = losses[w] > 0 ? 20 : 0;
		o.max_wire_smps = windows[w];
		assert_int_equal(ibp_sm_set_options(sm, &o, NULL), IBP_OK);
		ibp_alias_map *m = NULL;
		size_t dups = 99;
		assert_int_equal(ibp_sm_read_alias_guids(sm, &m, &dups, NULL),
				 IBP_OK);
		assert_int_equal(dups, 0);
		assert_int_equal(ibp_alias_map_count(m),
				 sizeof(want) / sizeof(want[0]));
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			const struct ibp_alias *a =
			    ibp_alias_map_find(m, want[i].guid);
			assert_non_null(a);
			assert_int_equal(a->index, want[i].index);
			assert_int_equal(a->port_guid,
					 ibp_fabric_port_guid(
					     x->f, want[i].node, want[i].port));
		}
		ibp_alias_map_free(m);
		ibp_sm_free(sm);
		ibp_transport_close(t);
	}
	/* the same alias registered on a second port is left out there */
	assert_int_equal(
	    ibp_sim_set_alias_guid(x->s, b1, 1, 4, 0x0002c90300aa0101ull, NULL),
	    IBP_OK);
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 0, &t);
	ibp_alias_map *m = NULL;
	size_t dups = 0;
	assert_int_equal(ibp_sm_read_alias_guids(sm, &m, &dups, NULL), IBP_OK);
	assert_int_equal(dups, 1);
	assert_int_equal(ibp_alias_map_count(m),
			 sizeof(want) / sizeof(want[0]));
	ibp_alias_map_free(m);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

static void test_push_diff_readback_idempotent(void **state)
{
	struct fx *x = *state;
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 0, &t);
	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_true(rep.complete);
	/* sm-01, ufm and their switch ports and the switch's port 0 start
	 * as 0xffff: nothing to write there.  The 5 other CAs and their 5
	 * leaf ports change block 0. */
	assert_int_equal(rep.blocks_written, 10);
	assert_int_equal(rep.blocks_confirmed, 10);
	assert_int_equal(rep.nchanged, 10 + 2); /* + enforcement on 2 ports */
	assert_int_equal(rep.enforce_ports, 7);
	assert_int_equal(rep.timeouts, 0);
	assert_holds(x);
	size_t leaf = fixture_node(x->f, "leaf-01");
	for (unsigned p = 1; p <= 7; p++) {
		assert_true(ibp_sim_port_info(x->s, leaf, p)->part_enforce_in);
		assert_true(ibp_sim_port_info(x->s, leaf, p)->part_enforce_out);
	}
	assert_false(ibp_sim_port_info(x->s, leaf, 8)->part_enforce_in);
	unsigned long first = rep.smps;
	ibp_sm_report_free(&rep);

	/* Again: reads only. */
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_int_equal(rep.blocks_written, 0);
	assert_int_equal(rep.nchanged, 0);
	assert_true(rep.smps < first);
	assert_int_equal(rep.smps, rep.blocks_read + 7 /* PortInfo Gets */);
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

static void test_push_retries_lost_mads(void **state)
{
	struct fx *x = *state;
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0.25, 20, &t);
	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_true(rep.complete);
	assert_true(rep.retries > 0);
	assert_int_equal(rep.retries, rep.timeouts);
	assert_holds(x);
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

static void test_push_fails_midway_reports_ports(void **state)
{
	struct fx *x = *state;
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 3, &t);
	assert_int_equal(ibp_sm_discover(sm, NULL), IBP_OK);
	/* tenantB-node-01 starts dropping every Set: M_Key, protect 1. */
	size_t b1 = fixture_node(x->f, "tenantB-node-01");
	ibp_sim_port_info(x->s, b1, 1)->m_key = 0x5ec2e7;
	ibp_sim_port_info(x->s, b1, 1)->m_key_protect_bits = 1;
	struct ibp_sm_report rep;
	ibp_error err;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, &err), IBP_ETIMEDOUT);
	assert_false(rep.complete);
	assert_int_equal(rep.nfailed, 1);
	assert_int_equal(rep.failed[0].port_guid, 0x506b4b0300a1b202ull);
	assert_true(rep.nchanged >= 1);
	for (size_t i = 0; i < rep.nchanged; i++)
		assert_true(rep.changed[i].port_guid != 0x506b4b0300a1b202ull);
	assert_int_equal(rep.retries, 3);
	assert_int_equal(rep.timeouts, 4);
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

static void test_dry_run_writes_nothing(void **state)
{
	struct fx *x = *state;
	ibp_transport *t;
	struct ibp_transport_sim_opts to = {0};
	assert_int_equal(
	    ibp_transport_sim_new(x->s, x->sm_node, 1, &to, &t, NULL), IBP_OK);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.dry_run = true;
	ibp_sm *sm;
	ibp_sm_new(t, &o, &sm, NULL);
	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_int_equal(rep.blocks_written, 10);
	assert_int_equal(rep.blocks_confirmed, 0);
	size_t a1 = fixture_node(x->f, "tenantA-node-01");
	assert_int_equal(
	    ibp_pkey_table_get(ibp_tables_get(ibp_sim_tables(x->s), a1, 1), 0),
	    0xffff);
	size_t leaf = fixture_node(x->f, "leaf-01");
	assert_false(ibp_sim_port_info(x->s, leaf, 3)->part_enforce_in);
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

static void test_enforce_modes(void **state)
{
	struct fx *x = *state;
	ibp_part_enforce e;
	assert_int_equal(ibp_part_enforce_parse("in", &e), IBP_OK);
	assert_int_equal(e, IBP_ENFORCE_IN);
	assert_int_equal(ibp_part_enforce_parse("sideways", &e), IBP_EINVAL);
	ibp_transport *t;
	assert_int_equal(
	    ibp_transport_sim_new(x->s, x->sm_node, 1, NULL, &t, NULL), IBP_OK);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.enforce = IBP_ENFORCE_OUT;
	ibp_sm *sm;
	ibp_sm_new(t, &o, &sm, NULL);
	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	size_t leaf = fixture_node(x->f, "leaf-01");
	assert_false(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_in);
	assert_true(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_out);
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

/* A transport over the simulator that keeps every PortInfo SubnSet the
 * SM sends. */
struct rec {
	ibp_transport *inner;
	unsigned nset;
	struct ibp_smp sets[32];
};

static int rec_smp(void *ctx, const uint8_t req[IBP_MAD_SIZE],
		   uint8_t resp[IBP_MAD_SIZE], int timeout_ms, ibp_error *err)
{
	struct rec *r = ctx;
	struct ibp_smp smp;
	assert_int_equal(ibp_smp_decode(&smp, req, IBP_MAD_SIZE, NULL), IBP_OK);
	if (smp.method == IBP_METHOD_SET && smp.attr_id == IBP_ATTR_PORT_INFO) {
		assert_true(r->nset < 32);
		r->sets[r->nset++] = smp;
	}
	return ibp_transport_smp(r->inner, req, resp, timeout_ms, err);
}

static void rec_close(void *ctx)
{
	(void)ctx;
}

/* The enforcement Set as OpenSM's pkey manager writes it: the PortInfo
 * the port holds, PortState, PortPhysicalState and LinkDownDefaultState
 * 0 (no state change, IBA 14.2.5.6), only PartitionEnforcementInbound/
 * Outbound changed, sent only where those bits differ.  The simulated
 * SMA answers the old encoding (the PortInfo read, Active and LinkUp
 * written back) with status 7, so this push fails with it. */
static void test_enforcement_set_as_opensm(void **state)
{
	struct fx *x = *state;
	static const struct ibp_transport_ops ops = {
	    .name = "rec", .smp = rec_smp, .close = rec_close};
	struct rec r = {0};
	assert_int_equal(
	    ibp_transport_sim_new(x->s, x->sm_node, 1, NULL, &r.inner, NULL),
	    IBP_OK);
	ibp_transport *t = ibp_transport_new(&ops, &r);
	assert_non_null(t);
	ibp_sm *sm;
	assert_int_equal(ibp_sm_new(t, NULL, &sm, NULL), IBP_OK);
	struct ibp_sm_report rep;
	ibp_error e;
	int rc = ibp_sm_push(sm, x->want, &rep, &e);
	if (rc)
		print_error("push: %s\n", e.message);
	assert_int_equal(rc, IBP_OK);
	assert_true(rep.complete);
	assert_int_equal(rep.enforce_ports, 7);
	assert_int_equal(r.nset, 7);
	ibp_sm_report_free(&rep);
	size_t leaf = fixture_node(x->f, "leaf-01");
	for (unsigned i = 0; i < r.nset; i++) {
		struct ibp_port_info set, held;
		ibp_port_info_decode(&set, r.sets[i].data, IBP_SMP_DATA_SIZE,
				     NULL);
		assert_int_equal(set.link_state, IBP_PORT_STATE_NOP);
		assert_int_equal(set.port_phys_state, IBP_PHYS_STATE_NOP);
		assert_int_equal(set.link_down_default_state, 0);
		assert_true(set.partition_enforcement_inbound);
		assert_true(set.partition_enforcement_outbound);
		/* everything else is the PortInfo the port holds (read now,
		 * by the same route) */
		struct ibp_smp get = r.sets[i];
		get.method = IBP_METHOD_GET;
		memset(get.data, 0, sizeof(get.data));
		uint8_t b[IBP_MAD_SIZE], a[IBP_MAD_SIZE];
		assert_int_equal(ibp_smp_encode(&get, b, sizeof(b), NULL),
				 IBP_OK);
		assert_int_equal(ibp_transport_smp(r.inner, b, a, 10, NULL),
				 IBP_OK);
		struct ibp_smp ans;
		assert_int_equal(ibp_smp_decode(&ans, a, sizeof(a), NULL),
				 IBP_OK);
		ibp_port_info_decode(&held, ans.data, IBP_SMP_DATA_SIZE, NULL);
		assert_int_equal(held.link_state, IBP_PORT_STATE_ACTIVE);
		assert_int_equal(held.port_phys_state, IBP_PHYS_STATE_LINKUP);
		held.link_state = 0;
		held.port_phys_state = 0;
		held.link_down_default_state = 0;
		uint8_t hb[IBP_SMP_DATA_SIZE], sb[IBP_SMP_DATA_SIZE];
		ibp_port_info_encode(&held, hb, sizeof(hb), NULL);
		ibp_port_info_encode(&set, sb, sizeof(sb), NULL);
		assert_memory_equal(hb, sb, sizeof(hb));
		/* the port stays Active */
		assert_int_equal(
		    ibp_sim_port_info(x->s, leaf, r.sets[i].attr_mod)
			->port_state,
		    IBP_SIM_PORT_ACTIVE);
	}
	/* bits already as wanted: no Set */
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_int_equal(r.nset, 7);
	assert_int_equal(rep.enforce_ports, 0);
	ibp_sm_report_free(&rep);
	/* in only: one bit differs on each port, a Set each, outbound off */
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.enforce = IBP_ENFORCE_IN;
	assert_int_equal(ibp_sm_set_options(sm, &o, NULL), IBP_OK);
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_int_equal(r.nset, 14);
	struct ibp_port_info last;
	ibp_port_info_decode(&last, r.sets[13].data, IBP_SMP_DATA_SIZE, NULL);
	assert_true(last.partition_enforcement_inbound);
	assert_false(last.partition_enforcement_outbound);
	assert_false(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_out);
	assert_true(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_in);
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
	ibp_transport_close(r.inner);
}

/* Switches that implement no enforcement bits (ibsim's): the SM reads
 * SwitchInfo, leaves PortInfo alone, pushes the tables all the same and
 * says how many leaf ports it left; a switch that implements them gets
 * them on the next push. */
static void test_enforce_unsupported(void **state)
{
	struct fx *x = *state;
	ibp_sim_set_enforcement_bits(x->s, false);
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 0, &t);
	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_true(rep.complete);
	assert_int_equal(rep.enforce_ports, 0);
	assert_int_equal(rep.enforce_unsupported, 7);
	size_t leaf = fixture_node(x->f, "leaf-01");
	assert_false(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_in);
	const ibp_pkey_table *held =
	    ibp_tables_get(ibp_sim_tables(x->s), leaf, 4);
	assert_non_null(held);
	assert_true(
	    ibp_pkey_table_equal(held, ibp_tables_get(x->want, leaf, 4)));
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);

	ibp_sim_set_enforcement_bits(x->s, true);
	sm = new_sm(x, 0, 0, &t);
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_int_equal(rep.enforce_unsupported, 0);
	assert_int_equal(rep.enforce_ports, 7);
	assert_int_equal(rep.blocks_written, 0);
	assert_true(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_in);
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

/* The bits read with the tables go back with them: apply turns leaf
 * enforcement on, a push of what was read (a rollback) turns it off
 * again, even with the SM told to keep enforcement as it is. */
static void test_enforcement_read_and_rolled_back(void **state)
{
	struct fx *x = *state;
	size_t leaf = fixture_node(x->f, "leaf-01");
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 0, &t);
	ibp_tables *before;
	assert_int_equal(ibp_sm_read_tables(sm, &before, NULL), IBP_OK);
	size_t dn;
	assert_int_equal(
	    ibp_fabric_find_node_guid(ibp_sm_fabric(sm),
				      ibp_fabric_node_guid(x->f, leaf), &dn),
	    IBP_OK);
	bool in = true, out = true;
	assert_true(ibp_tables_get_enforcement(before, dn, 4, &in, &out));
	assert_false(in);
	assert_false(out);
	/* port 0 and an unlinked port carry no enforcement */
	assert_false(ibp_tables_get_enforcement(before, dn, 0, NULL, NULL));

	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	ibp_sm_report_free(&rep);
	assert_true(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_in);

	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.keep_enforcement = true;
	assert_int_equal(ibp_sm_set_options(sm, &o, NULL), IBP_OK);
	assert_int_equal(ibp_sm_push(sm, before, &rep, NULL), IBP_OK);
	assert_int_equal(rep.enforce_ports, 7);
	ibp_sm_report_free(&rep);
	assert_false(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_in);
	assert_false(ibp_sim_port_info(x->s, leaf, 4)->part_enforce_out);
	ibp_tables *after;
	assert_int_equal(ibp_sm_read_tables(sm, &after, NULL), IBP_OK);
	assert_true(ibp_tables_get_enforcement(after, dn, 4, &in, &out));
	assert_false(in);
	ibp_tables_free(after);
	ibp_tables_free(before);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

static void test_traps_counted(void **state)
{
	struct fx *x = *state;
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 0, &t);
	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	ibp_sm_report_free(&rep);
	struct ibp_sim_packet p = {
	    .src_node = fixture_node(x->f, "tenantB-node-01"),
	    .src_port = 1,
	    .dst_node = fixture_node(x->f, "tenantA-node-01"),
	    .dst_port = 1,
	    .dest_qp = 0x49};
	struct ibp_sim_result r;
	for (int i = 0; i < 3; i++) {
		ibp_sim_send(x->s, &p, &r, NULL);
		/* enforcement (both) stops it at the switch: trap 259 */
		assert_int_equal(r.verdict, IBP_SIM_DROP_SWITCH_OUT);
	}
	unsigned got;
	assert_int_equal(ibp_sm_poll_traps(sm, &got, NULL), IBP_OK);
	assert_int_equal(got, 3);
	assert_int_equal(ibp_sm_trap_count(sm, 259), 3);
	assert_int_equal(ibp_sm_trap_count(sm, 257), 0);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

/* A chain: CA "sm" - switch 1 - ... - switch nsw - CA "far".  The far
 * CA is nsw + 1 hops from the SM. */
static ibp_fabric *chain(unsigned nsw)
{
	ibp_fabric *f = ibp_fabric_new(NULL);
	char desc[32];
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x1000, 1, "sm", NULL, NULL),
	    0);
	for (unsigned i = 0; i < nsw; i++) {
		snprintf(desc, sizeof(desc), "sw-%02u", i + 1);
		assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH,
						     0x2000 + i, 4, desc, NULL,
						     NULL),
				 0);
		assert_int_equal(
		    ibp_fabric_link(f, i ? i : 0, i ? 2 : 1, 1 + i, 1, NULL),
		    0);
	}
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x3000, 1, "far", NULL, NULL),
	    0);
	assert_int_equal(ibp_fabric_link(f, nsw, 2, nsw + 1, 1, NULL), 0);
	return f;
}

static int discover_chain(unsigned nsw, unsigned window, ibp_error *err,
			  size_t *found)
{
	ibp_fabric *f = chain(nsw);
	ibp_sim *s;
	assert_int_equal(ibp_sim_new(f, &s, NULL), IBP_OK);
	ibp_transport *t;
	assert_int_equal(ibp_transport_sim_new(s, 0, 1, NULL, &t, NULL),
			 IBP_OK);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.max_wire_smps = window;
	ibp_sm *sm;
	assert_int_equal(ibp_sm_new(t, &o, &sm, NULL), IBP_OK);
	int rc = ibp_sm_discover(sm, err);
	*found =
	    ibp_sm_fabric(sm) ? ibp_fabric_node_count(ibp_sm_fabric(sm)) : 0;
	ibp_sm_free(sm);
	ibp_transport_close(t);
	ibp_sim_free(s);
	ibp_fabric_free(f);
	return rc;
}

/* A directed route has at most 63 hops (IBA 14.2.2): a CA 63 hops away
 * is discovered; one 64 hops away is an error naming the switch at the
 * limit, in the one-at-a-time walk and the pipelined one alike. */
static void test_hop_limit(void **state)
{
	(void)state;
	for (unsigned w = 1; w <= 4; w += 3) {
		ibp_error err;
		size_t found;
		assert_int_equal(discover_chain(62, w, &err, &found), IBP_OK);
		assert_int_equal(found, 64);
		assert_int_equal(discover_chain(63, w, &err, &found),
				 IBP_ERANGE);
		assert_non_null(strstr(err.message, "switch \"sw-63\""));
		assert_non_null(strstr(err.message, "0x000000000000203e"));
		assert_non_null(strstr(err.message, "port 2 is up"));
		assert_non_null(strstr(err.message, "at most 63"));
	}
}

/* The 40,000-CA fat tree of radix 64 (three tiers, 43,554 LIDs: within
 * the unicast space) is discovered whole by directed route, to its
 * farthest CA, with every switch's LinearFDBCap read from SwitchInfo. */
static void test_discover_40k_fat_tree(void **state)
{
	(void)state;
	ibp_fabric_gen_options go;
	ibp_fabric_gen_options_init(&go, IBP_FABRIC_GEN_OPTIONS_VERSION);
	go.cas = 40000;
	go.radix = 64;
	ibp_fabric *f;
	assert_int_equal(ibp_fabric_generate(&go, &f, NULL), 0);
	assert_int_equal(ibp_fabric_assign_lids(f, 0, NULL), 0);
	assert_int_equal(ibp_fabric_lidless_count(f), 0);
	ibp_sim *s;
	assert_int_equal(ibp_sim_new(f, &s, NULL), IBP_OK);
	ibp_transport *t;
	assert_int_equal(ibp_transport_sim_new(s, 0, 1, NULL, &t, NULL),
			 IBP_OK);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.max_wire_smps = 16;
	ibp_sm *sm;
	assert_int_equal(ibp_sm_new(t, &o, &sm, NULL), IBP_OK);
	ibp_error err;
	assert_int_equal(ibp_sm_discover(sm, &err), IBP_OK);
	const ibp_fabric *d = ibp_sm_fabric(sm);
	assert_int_equal(ibp_fabric_node_count(d), ibp_fabric_node_count(f));
	size_t n;
	/* the last CA, the last core */
	assert_int_equal(ibp_fabric_find_node_guid(
			     d, IBP_GEN_CA_GUID_BASE + 2ULL * 39999, &n),
			 IBP_OK);
	assert_true(ibp_fabric_port_peer(d, n, 1, NULL, NULL));
	size_t last = ibp_fabric_node_count(f) - 1;
	assert_int_equal(
	    ibp_fabric_find_node_guid(d, ibp_fabric_node_guid(f, last), &n),
	    IBP_OK);
	assert_int_equal(ibp_fabric_node_linear_fdb_cap(d, n), 49152);
	ibp_sm_free(sm);
	ibp_transport_close(t);
	ibp_sim_free(s);
	ibp_fabric_free(f);
}

/* Options of a version the library cannot read are refused by name, and
 * the SM keeps the ones it had: a dry run stays a dry run. */
static void test_set_options_version_refused(void **state)
{
	struct fx *x = *state;
	ibp_transport *t;
	ibp_sm *sm = new_sm(x, 0, 0, &t);
	struct ibp_sm_options o;
	ibp_sm_options_init(&o, IBP_SM_OPTIONS_VERSION);
	o.dry_run = true;
	assert_int_equal(ibp_sm_set_options(sm, &o, NULL), IBP_OK);
	unsigned bad[] = {0, IBP_SM_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		struct ibp_sm_options b;
		ibp_sm_options_init(&b, IBP_SM_OPTIONS_VERSION);
		b.version = bad[i];
		ibp_error err = {0};
		assert_int_equal(ibp_sm_set_options(sm, &b, &err), IBP_EINVAL);
		assert_non_null(strstr(err.message, "SM options"));
	}
	struct ibp_sm_report rep;
	assert_int_equal(ibp_sm_push(sm, x->want, &rep, NULL), IBP_OK);
	assert_int_equal(rep.blocks_written, 10);
	assert_int_equal(rep.blocks_confirmed, 0); /* nothing sent */
	ibp_sm_report_free(&rep);
	ibp_sm_free(sm);
	ibp_transport_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_discover_rebuilds_fabric,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_alias_guids_discovered, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_alias_guids_sim_sa, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_push_diff_readback_idempotent,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_push_retries_lost_mads, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(
		test_push_fails_midway_reports_ports, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dry_run_writes_nothing, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_enforcement_set_as_opensm,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_enforce_unsupported, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(
		test_enforcement_read_and_rolled_back, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_enforce_modes, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_traps_counted, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_set_options_version_refused,
					    setup, teardown),
	    cmocka_unit_test(test_hop_limit),
	    cmocka_unit_test(test_discover_40k_fat_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
