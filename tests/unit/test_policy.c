/*
 * test_policy.c - the partition manager on hand-built fabrics: each test
 * asserts one rule of docs/opensm-behaviour.md (default partition, index
 * order, indx0, allow_both_pkeys, capacity overflow, mirroring and its
 * truncation, part_enforce off, fail-open, strict mode, --state index
 * stability) with the expected tables written from the rule, the record
 * of what did not fit (ibp_policy_unplaced), plus the tables JSON round
 * trip.
 *
 * The fabric: one switch (6 ports) "sw"; CAs sm (port 1 on switch port
 * 1), a (2), b (3), c (4); switch port 5 unlinked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "util/diag_lib.h"
#include "pkey/index_memory_lib.h"
#include "pkey/tables_lib.h"

#define SW  0x1000u
#define SM  0x2001u
#define A   0x3001u
#define B   0x4001u
#define C   0x5001u
#define SWN 0

struct fx {
	ibp_fabric *f;
	size_t sw, sm, a, b, c;
};

static void build(struct fx *x, unsigned ca_cap, unsigned sw_cap,
		  unsigned enf_cap)
{
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	if (ca_cap)
		o.ca_partition_cap = ca_cap;
	if (sw_cap)
		o.switch_partition_cap = sw_cap;
	if (enf_cap)
		o.enforcement_cap = enf_cap;
	x->f = ibp_fabric_new(&o);
	assert_non_null(x->f);
	assert_int_equal(ibp_fabric_add_node(x->f, IBP_NODE_SWITCH, SW, 6, "sw",
					     &x->sw, NULL),
			 0);
	const struct {
		uint64_t guid;
		const char *desc;
		size_t *n;
	} cas[] = {{SM - 1, "sm", &x->sm},
		   {A - 1, "a", &x->a},
		   {B - 1, "b", &x->b},
		   {C - 1, "c", &x->c}};
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(
		    ibp_fabric_add_node(x->f, IBP_NODE_CA, cas[i].guid, 1,
					cas[i].desc, cas[i].n, NULL),
		    0);
		assert_int_equal(ibp_fabric_set_port_guid(
				     x->f, *cas[i].n, 1, cas[i].guid + 1, NULL),
				 0);
		assert_int_equal(
		    ibp_fabric_link(x->f, x->sw, i + 1, *cas[i].n, 1, NULL), 0);
	}
}

static ibp_conf *conf(const char *text, bool allow_both)
{
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.allow_both_pkeys = allow_both;
	ibp_conf *c = NULL;
	assert_int_equal(ibp_conf_parse_buffer("t.conf", text, strlen(text), &o,
					       &c, NULL, NULL),
			 0);
	return c;
}

/* The table of (node, port) as "0x7fff 0x8001" (up to the last used
 * entry), or "-" when the result has no table for it. */
static const char *tab(const ibp_tables *ts, size_t n, unsigned p)
{
	static char buf[8][1024];
	static int k;
	char *b = buf[k++ % 8];
	const ibp_pkey_table *t = ibp_tables_get(ts, n, p);
	if (!t)
		return "-";
	b[0] = 0;
	unsigned used = ibp_pkey_table_used(t);
	for (unsigned i = 0; i < used; i++)
		snprintf(b + strlen(b), 1024 - strlen(b), "%s0x%04x",
			 i ? " " : "", ibp_pkey_table_get(t, i));
	return b;
}

static ibp_tables *run(struct fx *x, const char *text, const ibp_policy_run *po,
		       ibp_diags *d)
{
	ibp_conf *c = conf(text, po && po->allow_both_pkeys);
	ibp_tables *ts = NULL;
	assert_int_equal(ibp_policy_compute(c, x->f, po, &ts, d, NULL), 0);
	ibp_conf_free(c);
	return ts;
}

static size_t count_code(const ibp_diags *d, const char *code)
{
	size_t n = 0;
	for (size_t i = 0; i < ibp_diags_count(d); i++)
		n += !strcmp(ibp_diags_get(d, i)->code, code);
	return n;
}

/* Rule 4, 1-3: limited default for everyone, the SM full; switch port 0
 * programmed; ports facing a CA mirror it; the unlinked port absent. */
static void test_default_partition(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_tables *ts = run(&x, "P1=0x0001 : 0x5001 ;\n", NULL, NULL);
	assert_string_equal(tab(ts, x.sm, 1), "0xffff");
	assert_string_equal(tab(ts, x.c, 1), "0x7fff 0x0001");
	assert_string_equal(tab(ts, x.a, 1), "0x7fff");
	assert_string_equal(tab(ts, x.sw, 0), "0x7fff");
	assert_string_equal(tab(ts, x.sw, 1), "0xffff");
	assert_string_equal(tab(ts, x.sw, 2), "0x7fff");
	assert_string_equal(tab(ts, x.sw, 5), "-");
	assert_string_equal(tab(ts, x.sw, 6), "-");
	assert_int_equal(ibp_pkey_table_capacity(ibp_tables_get(ts, x.sw, 0)),
			 IBP_DEFAULT_SWITCH_PARTITION_CAP);
	assert_int_equal(ibp_tables_count(ts), 4 + 1 + 4);
	ibp_tables_free(ts);
	/* rule 5: a Default line naming the SM port (ALL, limited) wins
	 * over the implicit full membership */
	ts = run(&x, "Default=0x7fff : ALL ;\n", NULL, NULL);
	assert_string_equal(tab(ts, x.sm, 1), "0x7fff");
	ibp_tables_free(ts);
	ts = run(&x, "Default=0x7fff : ALL, SELF=full ;\n", NULL, NULL);
	assert_string_equal(tab(ts, x.sm, 1), "0xffff");
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* Rule 11: partitions visited by byte-swapped P_Key, limited first. */
static void test_order(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_tables *ts = run(&x,
			     "P2=0x0002 : 0x3001=full ;\n"
			     "P100=0x0100 : 0x3001=full ;\n"
			     "P3=0x0003 : 0x3001 ;\n"
			     "P201=0x0201 : 0x3001=full ;\n",
			     NULL, NULL);
	assert_string_equal(tab(ts, x.a, 1),
			    "0x7fff 0x8100 0x8201 0x8002 0x0003");
	assert_string_equal(tab(ts, x.sw, 2),
			    "0x7fff 0x8100 0x8201 0x8002 0x0003");
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* Rule 12: with allow_both_pkeys a limited 0x7fff is not found at index
 * 0 and goes last; "both" gives both keys, the mirror skips the limited
 * twin. */
static void test_allow_both(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.allow_both_pkeys = true;
	ibp_tables *ts = run(&x, "P1=0x0001 : 0x3001=both ;\n", &po, NULL);
	assert_string_equal(tab(ts, x.a, 1), "0x0000 0x0001 0x8001 0x7fff");
	assert_string_equal(tab(ts, x.sw, 2), "0x8001 0x7fff");
	assert_string_equal(tab(ts, x.b, 1), "0x0000 0x7fff");
	assert_string_equal(tab(ts, x.sm, 1), "0xffff");
	ibp_tables_free(ts);
	/* without it: both = full */
	ts = run(&x, "P1=0x0001 : 0x3001=both ;\n", NULL, NULL);
	assert_string_equal(tab(ts, x.a, 1), "0x7fff 0x8001");
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* Rule 13: indx0 takes index 0, 0x7fff moves after; a later line of the
 * same P_Key without indx0 cancels it. */
static void test_indx0(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_tables *ts = run(&x,
			     "A=0x0001, indx0 : 0x3001=full, 0x4001=full ;\n"
			     "B=0x0002 : 0x3001=full ;\n"
			     "A=0x0001 : 0x4001=full ;\n",
			     NULL, NULL);
	assert_string_equal(tab(ts, x.a, 1), "0x8001 0x8002 0x7fff");
	assert_string_equal(tab(ts, x.b, 1), "0x7fff 0x8001");
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* Rule 14: what does not fit is dropped in visiting order, reported. */
static void test_overflow(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 4, 2, 0);
	ibp_diags *d = ibp_diags_new();
	ibp_tables *ts = run(&x,
			     "P1=0x0001 : 0x3001=full, ALL_SWITCHES ;\n"
			     "P2=0x0002 : 0x3001=full, ALL_SWITCHES ;\n"
			     "P3=0x0003 : 0x3001=full ;\n"
			     "P4=0x0004 : 0x3001=full ;\n"
			     "P5=0x0005 : 0x3001=full ;\n",
			     NULL, d);
	assert_string_equal(tab(ts, x.a, 1), "0x7fff 0x8001 0x8002 0x8003");
	assert_string_equal(tab(ts, x.sw, 0), "0x7fff 0x0001");
	/* a: 0x8004, 0x8005 dropped; sw port 0: 0x0002 */
	assert_int_equal(count_code(d, "pkey-table-full"), 3);
	ibp_diags_free(d);
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* Rule 17: a packed table longer than PartitionEnforcementCap is
 * truncated on the switch port, and reported. */
static void test_mirror_truncated(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 2);
	ibp_diags *d = ibp_diags_new();
	ibp_tables *ts = run(&x,
			     "P1=0x0001 : 0x3001=full ;\n"
			     "P2=0x0002 : 0x3001=full ;\n",
			     NULL, d);
	assert_string_equal(tab(ts, x.a, 1), "0x7fff 0x8001 0x8002");
	assert_string_equal(tab(ts, x.sw, 2), "0x7fff 0x8001");
	assert_int_equal(count_code(d, "enforcement-table-full"), 1);
	ibp_diags_free(d);
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* The record of (node, port) among the ports that drop P_Keys, or NULL. */
static const ibp_policy_dropped *dropped_at(const ibp_policy_unplaced *u,
					    size_t node, unsigned port)
{
	for (size_t i = 0; i < ibp_policy_unplaced_port_count(u); i++) {
		const ibp_policy_dropped *r = ibp_policy_unplaced_port(u, i);
		if (r->node == node && r->port == port)
			return r;
	}
	return NULL;
}

static const char *const five_partitions =
    "P1=0x0001 : 0x3001=full, ALL_SWITCHES ;\n"
    "P2=0x0002 : 0x3001=full, ALL_SWITCHES ;\n"
    "P3=0x0003 : 0x3001=full ;\n"
    "P4=0x0004 : 0x3001=full ;\n"
    "P5=0x0005 : 0x3001=full ;\n";

/* Rule 14 as data: test_overflow's plan, recorded with no findings list.
 * a (capacity 4) wants 0x7fff and 0x8001-0x8005 and drops the last two
 * in visiting order; switch port 0 (capacity 2) wants 0x7fff, 0x0001,
 * 0x0002 and drops 0x0002.  A plan that fits empties the record. */
static void test_unplaced_dropped(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 4, 2, 0);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.unplaced = ibp_policy_unplaced_new();
	assert_non_null(po.unplaced);
	ibp_tables *ts = run(&x, five_partitions, &po, NULL);
	assert_int_equal(ibp_policy_unplaced_port_count(po.unplaced), 2);
	assert_int_equal(ibp_policy_unplaced_unenforced_count(po.unplaced), 0);
	const ibp_policy_dropped *r = dropped_at(po.unplaced, x.a, 1);
	assert_non_null(r);
	assert_int_equal(r->port_guid, A);
	assert_int_equal(r->capacity, 4);
	assert_int_equal(r->wanted, 6);
	assert_int_equal(r->ndropped, 2);
	assert_int_equal(r->dropped[0], 0x8004);
	assert_int_equal(r->dropped[1], 0x8005);
	r = dropped_at(po.unplaced, x.sw, 0);
	assert_non_null(r);
	assert_int_equal(r->port_guid, SW);
	assert_int_equal(r->capacity, 2);
	assert_int_equal(r->wanted, 3);
	assert_int_equal(r->ndropped, 1);
	assert_int_equal(r->dropped[0], 0x0002);
	assert_null(ibp_policy_unplaced_port(po.unplaced, 2));
	ibp_tables_free(ts);

	/* strict: no default partition for a or the switch; a wants
	 * 0x8001-0x8005, packed from index 0, and drops 0x8005 */
	po.mode = IBP_POLICY_STRICT;
	ts = run(&x, five_partitions, &po, NULL);
	assert_string_equal(tab(ts, x.a, 1), "0x8001 0x8002 0x8003 0x8004");
	assert_int_equal(ibp_policy_unplaced_port_count(po.unplaced), 1);
	r = dropped_at(po.unplaced, x.a, 1);
	assert_non_null(r);
	assert_int_equal(r->capacity, 4);
	assert_int_equal(r->wanted, 5);
	assert_int_equal(r->ndropped, 1);
	assert_int_equal(r->dropped[0], 0x8005);
	ibp_tables_free(ts);

	po.mode = IBP_POLICY_OPENSM;
	ts = run(&x, "P1=0x0001 : 0x3001=full ;\n", &po, NULL);
	assert_int_equal(ibp_policy_unplaced_port_count(po.unplaced), 0);
	assert_null(ibp_policy_unplaced_port(po.unplaced, 0));
	ibp_tables_free(ts);
	ibp_policy_unplaced_free(po.unplaced);
	ibp_fabric_free(x.f);
}

/* Rule 17 as data: a's packed table (0x7fff 0x8001 0x8002) does not fit
 * switch port 2 (PartitionEnforcementCap 2); nothing is dropped from a
 * itself.  With part_enforce off there is no copy, so no record. */
static void test_unplaced_unenforced(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 2);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.unplaced = ibp_policy_unplaced_new();
	assert_non_null(po.unplaced);
	ibp_diags *d = ibp_diags_new();
	const char *plan = "P1=0x0001 : 0x3001=full ;\n"
			   "P2=0x0002 : 0x3001=full ;\n";
	ibp_tables *ts = run(&x, plan, &po, d);
	assert_int_equal(count_code(d, "enforcement-table-full"), 1);
	assert_int_equal(ibp_policy_unplaced_port_count(po.unplaced), 0);
	assert_int_equal(ibp_policy_unplaced_unenforced_count(po.unplaced), 1);
	const ibp_policy_unenforced *u =
	    ibp_policy_unplaced_unenforced(po.unplaced, 0);
	assert_non_null(u);
	assert_int_equal(u->node, x.a);
	assert_int_equal(u->port, 1);
	assert_int_equal(u->port_guid, A);
	assert_int_equal(u->switch_node, x.sw);
	assert_int_equal(u->switch_port, 2);
	assert_int_equal(u->entries, 3);
	assert_int_equal(u->capacity, 2);
	assert_null(ibp_policy_unplaced_unenforced(po.unplaced, 1));
	ibp_tables_free(ts);

	po.part_enforce = IBP_ENFORCE_OFF;
	ts = run(&x, plan, &po, NULL);
	assert_int_equal(ibp_policy_unplaced_unenforced_count(po.unplaced), 0);
	ibp_tables_free(ts);
	ibp_diags_free(d);
	ibp_policy_unplaced_free(po.unplaced);
	ibp_fabric_free(x.f);
}

/* Rule 16: part_enforce off leaves switch external ports untouched. */
static void test_enforce_off(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.part_enforce = IBP_ENFORCE_OFF;
	ibp_tables *ts = run(&x, "P1=0x0001 : 0x3001=full ;\n", &po, NULL);
	assert_string_equal(tab(ts, x.a, 1), "0x7fff 0x8001");
	for (unsigned p = 1; p <= 6; p++)
		assert_string_equal(tab(ts, x.sw, p), "-");
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* Rule 18: a rejected file: every port 0xffff, reported; strict mode
 * refuses it. */
static void test_fail_open(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_diags *d = ibp_diags_new();
	ibp_tables *ts = run(&x,
			     "P1=0x0001 : 0x3001=full ;\n"
			     "P2=0x0002 0x4001=full ;\n",
			     NULL, d);
	assert_string_equal(tab(ts, x.a, 1), "0xffff");
	assert_string_equal(tab(ts, x.b, 1), "0xffff");
	assert_string_equal(tab(ts, x.sw, 0), "0xffff");
	assert_string_equal(tab(ts, x.sw, 3), "0xffff");
	assert_int_equal(count_code(d, "opensm-fallback"), 1);
	ibp_diags_free(d);
	ibp_tables_free(ts);

	ibp_conf *c = conf("P2=0x0002 0x4001=full ;\n", false);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.mode = IBP_POLICY_STRICT;
	ts = NULL;
	assert_int_equal(ibp_policy_compute(c, x.f, &po, &ts, NULL, NULL),
			 IBP_EPARSE);
	assert_null(ts);
	ibp_conf_free(c);
	ibp_fabric_free(x.f);
}

/* strict: the default partition holds only the named ports and the SM;
 * packed from index 0. */
static void test_strict(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.mode = IBP_POLICY_STRICT;
	ibp_tables *ts = run(&x,
			     "Default=0x7fff : 0x5001=full ;\n"
			     "T=0x0001 : 0x3001=full, 0x4001=full ;\n",
			     &po, NULL);
	assert_string_equal(tab(ts, x.a, 1), "0x8001");
	assert_string_equal(tab(ts, x.sw, 2), "0x8001");
	assert_string_equal(tab(ts, x.c, 1), "0xffff");
	assert_string_equal(tab(ts, x.sm, 1), "0xffff");
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* Rule 19: on a changed plan survivors keep their index, removed ones
 * leave holes, new ones go after the highest index ever used, and a
 * P_Key that comes back gets its remembered index. */
static void test_state(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_conf *c1 = conf("P1=0x0001 : 0x3001=full ;\n"
			    "P2=0x0002 : 0x3001=full ;\n",
			    false);
	ibp_conf *c2 = conf("P2=0x0002 : 0x3001=full ;\n"
			    "P100=0x0100 : 0x3001=full ;\n",
			    false);
	ibp_conf *c3 = conf("P1=0x0001 : 0x3001=full ;\n"
			    "P2=0x0002 : 0x3001=full ;\n",
			    false);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	ibp_tables *t1, *r1, *t2, *r2, *t3, *r3;
	assert_int_equal(
	    ibp_policy_compute_state(c1, x.f, &po, &t1, &r1, NULL, NULL), 0);
	assert_string_equal(tab(t1, x.a, 1), "0x7fff 0x8001 0x8002");
	po.previous = t1;
	po.remembered = r1;
	assert_int_equal(
	    ibp_policy_compute_state(c2, x.f, &po, &t2, &r2, NULL, NULL), 0);
	assert_string_equal(tab(t2, x.a, 1), "0x7fff 0x0000 0x8002 0x8100");
	po.previous = t2;
	po.remembered = r2;
	assert_int_equal(
	    ibp_policy_compute_state(c3, x.f, &po, &t3, &r3, NULL, NULL), 0);
	assert_string_equal(tab(t3, x.a, 1), "0x7fff 0x8001 0x8002");
	/* without what OpenSM remembers, 0x8001 is new: after the last */
	po.remembered = NULL;
	ibp_tables *t4;
	assert_int_equal(ibp_policy_compute(c3, x.f, &po, &t4, NULL, NULL), 0);
	assert_string_equal(tab(t4, x.a, 1),
			    "0x7fff 0x0000 0x8002 0x0000 0x8001");
	ibp_tables_free(t1);
	ibp_tables_free(r1);
	ibp_tables_free(t2);
	ibp_tables_free(r2);
	ibp_tables_free(t3);
	ibp_tables_free(r3);
	ibp_tables_free(t4);
	ibp_conf_free(c1);
	ibp_conf_free(c2);
	ibp_conf_free(c3);
	ibp_fabric_free(x.f);
}

/* The tables JSON: docs/json-schemas.md's fields, read back equal. */
static void test_json_round_trip(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_tables *ts = run(&x, "P1=0x0001 : 0x3001=full ;\n", NULL, NULL);
	char *js = ibp_tables_to_json(ts, "opensm", SM, 0);
	assert_non_null(js);
	assert_non_null(strstr(js, "\"sm_port_guid\":\"0x0000000000002001\""));
	assert_non_null(strstr(js, "\"pkeys\":[\"0x7fff\",\"0x8001\"]"));
	assert_non_null(strstr(js, "\"node_type\":\"SW\""));
	ibp_tables *back = NULL;
	assert_int_equal(
	    ibp_tables_from_json(x.f, js, strlen(js), &back, NULL, NULL, NULL),
	    0);
	assert_int_equal(ibp_tables_count(back), ibp_tables_count(ts));
	for (size_t i = 0; i < ibp_tables_count(ts); i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &n, &p);
		assert_true(
		    ibp_pkey_table_equal(t, ibp_tables_get(back, n, p)));
	}
	const char *bad = "{\"ports\":[{\"port_guid\":\"0x3001\",\"port\":1,"
			  "\"pkeys\":[\"0xzz\"]}]}";
	ibp_tables *b2 = NULL;
	assert_int_equal(
	    ibp_tables_from_json(x.f, bad, strlen(bad), &b2, NULL, NULL, NULL),
	    IBP_EPARSE);
	free(js);
	ibp_tables_free(back);
	ibp_tables_free(ts);
	ibp_fabric_free(x.f);
}

/* ---- OpenSM's index memory, exactly (issue 10; each expectation is the
 * table the real OpenSM programmed in tests/interop/
 * test_opensm_sequences.sh, written out from the rules) ---- */

struct run_state {
	ibp_tables *prev;
	ibp_index_memory *mem;
};

static void run_free(struct run_state *r)
{
	ibp_tables_free(r->prev);
	ibp_index_memory_free(r->mem);
	r->prev = NULL;
	r->mem = NULL;
}

/* One SIGHUP: the plan over what the ports hold and OpenSM remembers. */
static const char *hup(struct fx *x, struct run_state *r, const char *text,
		       ibp_policy_run *po, ibp_diags *d, size_t node,
		       unsigned port)
{
	ibp_conf *c = conf(text, po->allow_both_pkeys);
	po->previous = r->prev;
	po->memory = r->mem;
	ibp_tables *t = NULL;
	ibp_index_memory *m = NULL;
	assert_int_equal(
	    ibp_policy_compute_memory(c, x->f, po, &t, &m, d, NULL), 0);
	ibp_conf_free(c);
	run_free(r);
	r->prev = t;
	r->mem = m;
	po->previous = NULL;
	po->memory = NULL;
	return tab(t, node, port);
}

/* Several P_Keys remembered at one index: 0x8001 and 0x0001 both at 1
 * after the flip, so 0x0001 comes back to 1 (not after the last). */
static void test_memory_accumulated(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	struct run_state r = {NULL, NULL};
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	assert_string_equal(
	    hup(&x, &r, "A=0x0001 : 0x3001=full ;\n", &po, NULL, x.a, 1),
	    "0x7fff 0x8001");
	assert_string_equal(
	    hup(&x, &r, "A=0x0001 : 0x3001=limited ;\n", &po, NULL, x.a, 1),
	    "0x7fff 0x0001");
	unsigned i0 = 9, i1 = 9;
	assert_true(ibp_index_memory_get(r.mem, x.a, 1, 0x8001, &i0));
	assert_true(ibp_index_memory_get(r.mem, x.a, 1, 0x0001, &i1));
	assert_int_equal(i0, 1);
	assert_int_equal(i1, 1);
	assert_string_equal(
	    hup(&x, &r, "B=0x0002 : 0x4001=full ;\n", &po, NULL, x.a, 1),
	    "0x7fff");
	assert_string_equal(
	    hup(&x, &r, "A=0x0001 : 0x3001=limited ;\n", &po, NULL, x.a, 1),
	    "0x7fff 0x0001");
	run_free(&r);
	ibp_fabric_free(x.f);
}

/* indx0 onto a P_Key sharing its index: OpenSM forgets one of the two,
 * last_pkey_idx stays 2, so 0x7fff goes to 2 and index 1 is empty. */
static void test_memory_indx0_shared(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	struct run_state r = {NULL, NULL};
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	hup(&x, &r, "A=0x0001 : 0x3001=full ;\n", &po, NULL, x.a, 1);
	hup(&x, &r, "A=0x0001 : 0x3001=limited ;\n", &po, NULL, x.a, 1);
	assert_string_equal(hup(&x, &r, "A=0x0001, indx0 : 0x3001=limited ;\n",
				&po, NULL, x.a, 1),
			    "0x0001 0x0000 0x7fff");
	assert_int_equal(ibp_index_memory_last(r.mem, x.a, 1), 3);
	run_free(&r);
	ibp_fabric_free(x.f);
}

/* A port OpenSM does not know (it left the fabric for a sweep) is found
 * as it is: survivors keep their index, new P_Keys go after the last
 * index the table holds - not after the one OpenSM used to remember. */
static void test_memory_forgotten(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	struct run_state r = {NULL, NULL};
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	hup(&x, &r, "A=0x0001 : 0x3001=full ;\nB=0x0002 : 0x3001=full ;\n", &po,
	    NULL, x.a, 1);
	assert_string_equal(
	    hup(&x, &r, "B=0x0002 : 0x3001=full ;\n", &po, NULL, x.a, 1),
	    "0x7fff 0x0000 0x8002");
	ibp_index_memory_forget_port(r.mem, x.a, 1);
	assert_false(ibp_index_memory_has_port(r.mem, x.a, 1));
	assert_string_equal(
	    hup(&x, &r, "A=0x0001 : 0x3001=full ;\nB=0x0002 : 0x3001=full ;\n",
		&po, NULL, x.a, 1),
	    "0x7fff 0x0000 0x8002 0x8001");
	/* programmed again, OpenSM knows it again */
	assert_true(ibp_index_memory_has_port(r.mem, x.a, 1));
	run_free(&r);
	ibp_fabric_free(x.f);
}

/* keep_pkey_indexes FALSE: holes closed, as on a fresh fabric. */
static void test_memory_compact(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	struct run_state r = {NULL, NULL};
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	hup(&x, &r,
	    "A=0x0001 : 0x3001=full ;\nB=0x0002 : 0x3001=full ;\n"
	    "C=0x0003 : 0x3001=full ;\n",
	    &po, NULL, x.a, 1);
	assert_string_equal(
	    hup(&x, &r, "C=0x0003 : 0x3001=full ;\n", &po, NULL, x.a, 1),
	    "0x7fff 0x0000 0x0000 0x8003");
	po.compact_pkey_indexes = true;
	assert_string_equal(hup(&x, &r,
				"C=0x0003 : 0x3001=full ;\n"
				"D=0x0004 : 0x3001=full ;\n",
				&po, NULL, x.a, 1),
			    "0x7fff 0x8003 0x8004");
	run_free(&r);
	ibp_fabric_free(x.f);
}

/* A switch port 0 of 8 entries, full: index 2 is reused for 0x8008 and
 * OpenSM forgets 0x0002 there but not 0x8002; when 0x8002 comes back it
 * goes to 2 and overwrites 0x8008, which the port loses (a finding). */
static void test_memory_overwrite(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	struct run_state r = {NULL, NULL};
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	char plan[1024];
	unsigned keys[6][9] = {
	    {1, 2, 3, 4, 5, 6, 7, 0},	 {1, 2, 3, 4, 5, 6, 7, 0},
	    {1, 3, 4, 5, 6, 7, 8, 0},	 {1, 2, 3, 4, 5, 6, 7, 8, 0},
	    {1, 2, 3, 4, 5, 6, 7, 8, 0}, {1, 2, 3, 4, 5, 6, 7, 8, 0}};
	/* the same plan from the fourth sweep on: the two P_Keys
	 * remembered at index 2 take turns, every sweep rewrites it */
	const char *want[6] = {
	    "0x7fff 0x8001 0x8002 0x8003 0x8004 0x8005 0x8006 0x8007",
	    "0x7fff 0x8001 0x0002 0x8003 0x8004 0x8005 0x8006 0x8007",
	    "0x7fff 0x8001 0x8008 0x8003 0x8004 0x8005 0x8006 0x8007",
	    "0x7fff 0x8001 0x8002 0x8003 0x8004 0x8005 0x8006 0x8007",
	    "0x7fff 0x8001 0x8008 0x8003 0x8004 0x8005 0x8006 0x8007",
	    "0x7fff 0x8001 0x8002 0x8003 0x8004 0x8005 0x8006 0x8007"};
	for (int s = 0; s < 6; s++) {
		plan[0] = 0;
		for (int k = 0; keys[s][k]; k++)
			snprintf(
			    plan + strlen(plan), sizeof(plan) - strlen(plan),
			    "P%u=0x%04x : 0x1000=%s ;\n", keys[s][k],
			    keys[s][k],
			    s == 1 && keys[s][k] == 2 ? "limited" : "full");
		ibp_diags *d = ibp_diags_new();
		assert_string_equal(hup(&x, &r, plan, &po, d, x.sw, 0),
				    want[s]);
		assert_int_equal(count_code(d, "opensm-index-overwrite"),
				 s >= 3 ? 1 : 0);
		ibp_diags_free(d);
	}
	run_free(&r);
	ibp_fabric_free(x.f);
}

/* A rejected file's indx0 stays recorded: 0xffff goes to index 1. */
static void test_fallback_indx0(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_diags *d = ibp_diags_new();
	ibp_tables *ts =
	    run(&x, "A=0x0010, indx0 : 0x3001=full ;\nthis line is broken\n",
		NULL, d);
	assert_string_equal(tab(ts, x.a, 1), "0x0000 0xffff");
	assert_string_equal(tab(ts, x.b, 1), "0xffff");
	assert_int_equal(count_code(d, "opensm-fallback"), 1);
	assert_int_equal(count_code(d, "opensm-fallback-indx0"), 1);
	ibp_tables_free(ts);
	ibp_diags_free(d);
	ibp_fabric_free(x.f);
}

/* An mgid item ending a statement: the outcome is indeterminate. */
static void test_indeterminate(void **state)
{
	(void)state;
	struct fx x;
	build(&x, 0, 0, 0);
	ibp_diags *d = ibp_diags_new();
	ibp_tables *ts =
	    run(&x, "T=0x0001 : 0x3001=full, mgid=ff12::1;\n", NULL, d);
	assert_int_equal(count_code(d, "opensm-indeterminate"), 1);
	ibp_tables_free(ts);
	ibp_diags_free(d);
	d = ibp_diags_new();
	ts = run(&x, "T=0x0001 : mgid=ff12::1, 0x3001=full ;\n", NULL, d);
	assert_int_equal(count_code(d, "opensm-indeterminate"), 0);
	ibp_tables_free(ts);
	ibp_diags_free(d);
	ibp_fabric_free(x.f);
}

/* Rule 1a: LIDs run out (LinearFDBCap 4: LIDs 1..3 for 5 end ports);
 * OpenSM still programs the ports left without one, by directed route,
 * and mirrors them onto their switch ports. */
static void test_lidless_ports_programmed(void **state)
{
	(void)state;
	struct fx x;
	ibp_fabric_options o;
	ibp_fabric_options_init(&o, IBP_FABRIC_OPTIONS_VERSION);
	o.linear_fdb_cap = 4;
	x.f = ibp_fabric_new(&o);
	assert_non_null(x.f);
	assert_int_equal(
	    ibp_fabric_add_node(x.f, IBP_NODE_SWITCH, SW, 6, "sw", &x.sw, NULL),
	    0);
	uint64_t g[] = {SM - 1, A - 1, B - 1, C - 1};
	size_t *ns[] = {&x.sm, &x.a, &x.b, &x.c};
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(ibp_fabric_add_node(x.f, IBP_NODE_CA, g[i], 1,
						     "ca", ns[i], NULL),
				 0);
		assert_int_equal(
		    ibp_fabric_set_port_guid(x.f, *ns[i], 1, g[i] + 1, NULL),
		    0);
		assert_int_equal(
		    ibp_fabric_link(x.f, x.sw, i + 1, *ns[i], 1, NULL), 0);
	}
	ibp_error err;
	assert_int_equal(ibp_fabric_assign_lids(x.f, SM, &err), 0);
	assert_int_equal(ibp_fabric_lidless_count(x.f), 2);
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.sm_port_guid = SM;
	ibp_diags *d = ibp_diags_new();
	ibp_tables *ts = run(&x, "P=0x0010 : ALL_CAS=full ;\n", &po, d);
	size_t *cas[] = {&x.sm, &x.a, &x.b, &x.c};
	unsigned nlidless = 0;
	for (unsigned i = 0; i < 4; i++) {
		size_t n = *cas[i];
		nlidless += ibp_fabric_port_is_lidless(x.f, n, 1);
		assert_string_equal(tab(ts, n, 1),
				    i == 0 ? "0xffff 0x8010" : "0x7fff 0x8010");
		assert_string_equal(tab(ts, x.sw, i + 1),
				    i == 0 ? "0xffff 0x8010" : "0x7fff 0x8010");
	}
	assert_int_equal(nlidless, 2);
	assert_int_equal(count_code(d, "no-lid"), 1);
	for (size_t i = 0; i < ibp_diags_count(d); i++)
		if (!strcmp(ibp_diags_get(d, i)->code, "no-lid"))
			assert_null(strstr(ibp_diags_get(d, i)->message,
					   "no P_KeyTable"));
	ibp_tables_free(ts);
	ibp_diags_free(d);
	ibp_fabric_free(x.f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_default_partition),
	    cmocka_unit_test(test_order),
	    cmocka_unit_test(test_allow_both),
	    cmocka_unit_test(test_indx0),
	    cmocka_unit_test(test_overflow),
	    cmocka_unit_test(test_mirror_truncated),
	    cmocka_unit_test(test_unplaced_dropped),
	    cmocka_unit_test(test_unplaced_unenforced),
	    cmocka_unit_test(test_enforce_off),
	    cmocka_unit_test(test_fail_open),
	    cmocka_unit_test(test_strict),
	    cmocka_unit_test(test_state),
	    cmocka_unit_test(test_memory_accumulated),
	    cmocka_unit_test(test_memory_indx0_shared),
	    cmocka_unit_test(test_memory_forgotten),
	    cmocka_unit_test(test_memory_compact),
	    cmocka_unit_test(test_memory_overwrite),
	    cmocka_unit_test(test_fallback_indx0),
	    cmocka_unit_test(test_indeterminate),
	    cmocka_unit_test(test_json_round_trip),
	    cmocka_unit_test(test_lidless_ports_programmed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
