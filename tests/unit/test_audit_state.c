/*
 * test_audit_state.c - the audit kept up to date (ibp_audit_state) gives
 * the whole audit's findings (ibp_audit_run) after each of thousands of
 * random changes: members added full or limited, removed, partitions
 * deleted, on one port or several at once, across tenants, on nodes with
 * two ports; and the findings it says a change replaced are exactly the
 * difference between the whole audit before and after it (what the
 * service's guard judges a change by).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"

#define NCA    36 /* CA nodes; every fourth has two ports */
#define NBASES 6  /* tenant partitions 0x0001.. */
#define STEPS  1500

struct port {
	size_t node;
	unsigned port;
	uint16_t keys[NBASES + 1];
	size_t nk;
};

static struct port ports[2 * NCA];
static size_t nports;
static uint64_t rnd = 88172645463325252ull;

static unsigned next(unsigned n)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return (unsigned)(rnd % n);
}

static ibp_fabric *fabric(void)
{
	ibp_fabric *f = ibp_fabric_new(NULL);
	size_t sw[2], n;
	for (unsigned s = 0; s < 2; s++) {
		char d[16];
		snprintf(d, sizeof(d), "leaf-%02u", s);
		assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH,
						     0x506b4b0300a1c000ull + s,
						     64, d, &sw[s], NULL),
				 0);
	}
	assert_int_equal(ibp_fabric_link(f, sw[0], 64, sw[1], 64, NULL), 0);
	unsigned used[2] = {0, 0};
	for (unsigned i = 0; i < NCA; i++) {
		unsigned np = i % 4 == 3 ? 2 : 1;
		char d[32];
		snprintf(d, sizeof(d), "node-%02u", i);
		assert_int_equal(
		    ibp_fabric_add_node(f, IBP_NODE_CA,
					0x506b4b0300b10000ull + 0x10 * i, np, d,
					&n, NULL),
		    0);
		for (unsigned p = 1; p <= np; p++) {
			unsigned s = (i + p) % 2;
			assert_int_equal(
			    ibp_fabric_link(f, n, p, sw[s], ++used[s], NULL),
			    0);
			ports[nports++] = (struct port){.node = n, .port = p};
		}
	}
	return f;
}

static void set_table(ibp_tables *ts, const struct port *p)
{
	ibp_pkey_table *t = ibp_tables_get_or_create(ts, p->node, p->port);
	ibp_pkey_table_clear(t);
	for (size_t i = 0; i < p->nk; i++)
		assert_int_equal(
		    ibp_pkey_table_set(t, (unsigned)i, p->keys[i], NULL), 0);
}

static void put_key(struct port *p, uint16_t key)
{
	for (size_t i = 0; i < p->nk; i++)
		if (ibp_pkey_base(p->keys[i]) == ibp_pkey_base(key)) {
			p->keys[i] = key;
			return;
		}
	p->keys[p->nk++] = key;
}

static bool del_key(struct port *p, uint16_t base)
{
	for (size_t i = 0; i < p->nk; i++)
		if (ibp_pkey_base(p->keys[i]) == base) {
			p->keys[i] = p->keys[--p->nk];
			return true;
		}
	return false;
}

static ibp_findings *sorted(ibp_findings *f)
{
	ibp_findings_sort(f);
	return f;
}

static void same_findings(const ibp_findings *a, const ibp_findings *b,
			  size_t step)
{
	if (ibp_findings_count(a) != ibp_findings_count(b))
		fail_msg("step %zu: %zu findings kept, %zu audited", step,
			 ibp_findings_count(a), ibp_findings_count(b));
	for (size_t i = 0; i < ibp_findings_count(a); i++)
		if (!ibp_finding_equal(ibp_findings_get(a, i),
				       ibp_findings_get(b, i)))
			fail_msg("step %zu: finding %zu differs: %s \"%s\" "
				 "kept, %s \"%s\" audited",
				 step, i, ibp_findings_get(a, i)->code,
				 ibp_findings_get(a, i)->message,
				 ibp_findings_get(b, i)->code,
				 ibp_findings_get(b, i)->message);
}

/* Is x in list f (not yet taken in used)? */
static bool take(const ibp_findings *f, bool *used, const ibp_finding *x)
{
	for (size_t i = 0; i < ibp_findings_count(f); i++)
		if (!used[i] && ibp_finding_equal(ibp_findings_get(f, i), x)) {
			used[i] = true;
			return true;
		}
	return false;
}

/* after = before - old + new, as multisets */
static void delta_holds(const ibp_findings *before, const ibp_findings *after,
			const ibp_findings *old, const ibp_findings *neu,
			size_t step)
{
	size_t nb = ibp_findings_count(before), na = ibp_findings_count(after);
	bool *ub = calloc(nb + 1, 1), *ua = calloc(na + 1, 1);
	for (size_t i = 0; i < ibp_findings_count(old); i++)
		if (!take(before, ub, ibp_findings_get(old, i)))
			fail_msg("step %zu: replaced finding %s not in the "
				 "audit before",
				 step, ibp_findings_get(old, i)->code);
	for (size_t i = 0; i < ibp_findings_count(neu); i++)
		if (!take(after, ua, ibp_findings_get(neu, i)))
			fail_msg("step %zu: new finding %s not in the audit "
				 "after",
				 step, ibp_findings_get(neu, i)->code);
	for (size_t i = 0; i < nb; i++)
		if (!ub[i] && !take(after, ua, ibp_findings_get(before, i)))
			fail_msg("step %zu: finding %s \"%s\" changed outside "
				 "the slots the update recomputed",
				 step, ibp_findings_get(before, i)->code,
				 ibp_findings_get(before, i)->message);
	free(ub);
	free(ua);
}

static ibp_findings *full_audit(const ibp_audit_input *in)
{
	ibp_findings *f = ibp_findings_new();
	assert_int_equal(ibp_audit_run(in, f, NULL), 0);
	return sorted(f);
}

static ibp_findings *kept(const ibp_audit_state *st)
{
	ibp_findings *f = ibp_findings_new();
	assert_int_equal(ibp_audit_state_findings(st, f), 0);
	return sorted(f);
}

/* One random change: the ports it touches get new keys. */
static void change(ibp_audit_state *st, ibp_tables *ts)
{
	unsigned op = next(10);
	uint16_t base = (uint16_t)(1 + next(NBASES));
	if (op == 0) { /* delete the partition everywhere */
		for (size_t i = 0; i < nports; i++)
			if (del_key(&ports[i], base)) {
				set_table(ts, &ports[i]);
				assert_int_equal(
				    ibp_audit_state_set_keys(
					st, ports[i].node, ports[i].port,
					ports[i].keys, ports[i].nk),
				    0);
			}
		return;
	}
	unsigned k = 1 + next(3); /* ports named by the change */
	for (unsigned j = 0; j < k; j++) {
		struct port *p = &ports[next((unsigned)nports)];
		if (op <= 3)
			del_key(p, next(8) ? base : IBP_PKEY_DEFAULT_BASE);
		else if (op <= 6 || next(4) == 0)
			put_key(p,
				next(6) ? (uint16_t)(base | 0x8000) : 0xffff);
		else
			put_key(p, next(6) ? base : 0x7fff);
		set_table(ts, p);
		assert_int_equal(ibp_audit_state_set_keys(st, p->node, p->port,
							  p->keys, p->nk),
				 0);
	}
}

static void test_random_changes(void **state)
{
	(void)state;
	ibp_fabric *f = fabric();
	ibp_tables *ts = ibp_tables_new(f);
	for (size_t i = 0; i < nports; i++) { /* a plan to start from */
		struct port *p = &ports[i];
		put_key(p, i ? 0x7fff : 0xffff);
		if (i)
			put_key(p, (uint16_t)(0x8000 | (1 + i % NBASES)));
		set_table(ts, p);
	}
	static char name_buf[0x8000][24];
	static const char *names[0x8000];
	for (unsigned b = 1; b <= NBASES; b++) {
		snprintf(name_buf[b], sizeof(name_buf[b]), "tenant%u", b);
		names[b] = name_buf[b];
	}
	ibp_audit_input in = {.tables = ts,
			      .sm_node = ports[0].node,
			      .sm_port = ports[0].port,
			      .partition_names = names};
	ibp_audit_state *st = NULL;
	assert_int_equal(ibp_audit_state_new(&in, &st, NULL), 0);
	ibp_findings *before = full_audit(&in);
	ibp_findings *k0 = kept(st);
	same_findings(k0, before, 0);
	ibp_findings_free(k0);
	for (size_t step = 1; step <= STEPS; step++) {
		change(st, ts);
		ibp_findings *old = ibp_findings_new(),
			     *neu = ibp_findings_new();
		assert_int_equal(ibp_audit_state_update(st, old, neu), 0);
		ibp_findings *after = full_audit(&in), *k = kept(st);
		same_findings(k, after, step);
		delta_holds(before, after, old, neu, step);
		ibp_findings_free(k);
		ibp_findings_free(old);
		ibp_findings_free(neu);
		ibp_findings_free(before);
		before = after;
	}
	ibp_findings_free(before);
	ibp_audit_state_free(st);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* A tenant map or an opensm.conf are the whole audit's only. */
static void test_refuses_tenants(void **state)
{
	(void)state;
	nports = 0;
	ibp_fabric *f = fabric();
	ibp_tables *ts = ibp_tables_new(f);
	ibp_osm_conf osm = {.version = IBP_OSM_CONF_VERSION};
	memset(&osm, 0, sizeof(osm));
	ibp_audit_input in = {.tables = ts, .osm = &osm};
	ibp_audit_state *st = NULL;
	assert_int_equal(ibp_audit_state_new(&in, &st, NULL), IBP_EINVAL);
	assert_null(st);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_random_changes),
	    cmocka_unit_test(test_refuses_tenants),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
