/*
 * test_fabric_gen.c - the fat-tree and partition-plan generator: counts,
 * names, GUIDs, connectivity, the partitions.conf text, the ports whose
 * P_Keys overflow their table, real fat trees (2 or 3 tiers, at most 4
 * or 6 links between CAs), the LID budget (refused, forced, LMC), and
 * scale (48,000 CA ports and 2,508 switches generate, write and load in
 * seconds, and look-ups stay O(1)).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ibpart/sys/fabric_gen.h"
#include "topo/fabric_gen_lib.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "util/diag_lib.h"
#include "ibpart/sys/topo.h"

/* CPU seconds of this process: the scale bounds below catch a quadratic
 * cost, and must not depend on how loaded the machine is (wall time did). */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every node reachable from node 0 over links. */
static bool connected(const ibp_fabric *f)
{
	size_t nn = ibp_fabric_node_count(f);
	size_t *q = malloc(nn * sizeof(*q));
	bool *seen = calloc(nn, 1);
	size_t h = 0, t = 0, count = 1;
	q[t++] = 0;
	seen[0] = true;
	while (h < t) {
		size_t n = q[h++];
		for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n); p++) {
			size_t pn;
			if (ibp_fabric_port_peer(f, n, p, &pn, NULL) &&
			    !seen[pn]) {
				seen[pn] = true;
				q[t++] = pn;
				count++;
			}
		}
	}
	free(q);
	free(seen);
	return count == nn;
}

/* The most links between CA `from` and any CA (BFS over the links);
 * SIZE_MAX when some CA is not reached. */
static size_t farthest_ca(const ibp_fabric *f, size_t from)
{
	size_t nn = ibp_fabric_node_count(f);
	size_t *q = malloc(nn * sizeof(*q)), *dist = malloc(nn * sizeof(*dist));
	for (size_t i = 0; i < nn; i++)
		dist[i] = SIZE_MAX;
	size_t h = 0, t = 0, most = 0;
	q[t++] = from;
	dist[from] = 0;
	while (h < t) {
		size_t n = q[h++];
		if (ibp_fabric_node_type(f, n) == IBP_NODE_CA && n != from)
			continue; /* a CA does not forward */
		for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n); p++) {
			size_t pn;
			if (ibp_fabric_port_peer(f, n, p, &pn, NULL) &&
			    dist[pn] == SIZE_MAX) {
				dist[pn] = dist[n] + 1;
				q[t++] = pn;
			}
		}
	}
	for (size_t i = 0; i < nn; i++)
		if (ibp_fabric_node_type(f, i) == IBP_NODE_CA &&
		    (dist[i] == SIZE_MAX || dist[i] > most))
			most = dist[i];
	free(q);
	free(dist);
	return most;
}

/* A real fat tree: two tiers while the leaves fit a spine's ports, then
 * three; every leaf reaches every spine of its group, so any two CAs are
 * at most 4 (2 tiers) or 6 (3 tiers) links apart, whatever the size (the
 * old chained spines grew to 82 at 48,000 CAs, past the 63 hops a
 * directed route can take). */
static void test_hops(void **state)
{
	(void)state;
	static const unsigned shapes[][4] = {
	    /* cas, radix, tiers, most links */
	    {30, 36, 1, 2},    {100, 36, 2, 4},	  {648, 36, 2, 4},
	    {649, 36, 3, 6},   {96, 12, 3, 6},	  {5000, 36, 3, 6},
	    {22680, 36, 3, 6}, {40000, 64, 3, 6},
	};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		ibp_fabric_gen_options o;
		ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
		o.cas = shapes[i][0];
		o.radix = shapes[i][1];
		ibp_fabric_gen_shape sh;
		ibp_fabric_gen_shape_of(&o, &sh);
		assert_int_equal(sh.tiers, shapes[i][2]);
		ibp_fabric *f;
		ibp_error err;
		assert_int_equal(ibp_fabric_generate(&o, &f, &err), 0);
		assert_int_equal(ibp_fabric_node_count(f),
				 o.cas + sh.leaves + sh.spines + sh.cores);
		assert_true(sh.lids <= 0xBFFF);
		/* no switch port used twice: ibp_fabric_link refuses that,
		 * so generation succeeding proves it; every CA linked */
		assert_int_equal(farthest_ca(f, 0), shapes[i][3]);
		assert_int_equal(farthest_ca(f, o.cas - 1), shapes[i][3]);
		ibp_fabric_free(f);
	}
	/* one more CA than three tiers of radix 36 hold: refused */
	ibp_fabric_gen_options o;
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	o.cas = 22681;
	ibp_fabric *f;
	ibp_error err;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_ERANGE);
	assert_non_null(strstr(err.message, "three-tier"));
}

/* A fabric needing more LIDs than the subnet has is refused with the
 * numbers; --force builds it, and LID assignment leaves exactly the
 * excess without a LID. */
static void test_lid_budget(void **state)
{
	(void)state;
	ibp_fabric_gen_options o;
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	o.cas = 48000;
	o.radix = 64;
	ibp_fabric *f;
	ibp_error err;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_ERANGE);
	assert_non_null(strstr(err.message, "need 52028 LIDs"));
	assert_non_null(strstr(err.message, "2877 end ports would get no LID"));
	o.force = true;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), 0);
	assert_int_equal(ibp_fabric_assign_lids(f, 0, &err), 0);
	assert_int_equal(ibp_fabric_lids_needed(f), 52028);
	assert_int_equal(ibp_fabric_lidless_count(f), 52028 - 49151);
	size_t n;
	unsigned p;
	assert_true(ibp_fabric_lidless_port(f, 0, &n, &p));
	assert_int_equal(ibp_fabric_port_lid(f, n, p), 0);
	assert_true(ibp_fabric_port_is_lidless(f, n, p));
	assert_false(ibp_fabric_lidless_port(f, 52028 - 49151, &n, &p));
	assert_int_equal(ibp_fabric_find_lid(f, 0xBFFF, &n, &p), 0);
	char msg[1024];
	assert_true(ibp_fabric_lidless_message(f, 4, msg, sizeof(msg)));
	assert_non_null(strstr(msg, "2877 end port(s) get no LID"));
	assert_non_null(strstr(msg, "and 2873 more"));
	ibp_fabric_free(f);
	/* ibsim's switches: LinearFDBCap 30720, so LIDs 1..30719 */
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	o.fabric = &fo;
	o.cas = 30000;
	o.force = false;
	fo.linear_fdb_cap = IBP_IBSIM_LINEAR_FDB_CAP;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_ERANGE);
	assert_non_null(strstr(err.message, "LIDs 1..30719"));
	/* LMC 1: two LIDs a port, bases 2, 4, ..., 49150 */
	o.cas = 24000;
	fo.linear_fdb_cap = 0;
	fo.lmc = 1;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_ERANGE);
	o.force = true;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), 0);
	assert_int_equal(ibp_fabric_assign_lids(f, 0, &err), 0);
	ibp_fabric_gen_shape sh;
	ibp_fabric_gen_shape_of(&o, &sh);
	size_t ports = o.cas + sh.leaves + sh.spines + sh.cores;
	assert_int_equal(ibp_fabric_lids_needed(f), 2 * ports);
	assert_int_equal(ibp_fabric_lidless_count(f), ports - 24575);
	assert_int_equal(ibp_fabric_port_lid(f, 0, 1), 2); /* the SM's */
	assert_int_equal(ibp_fabric_find_lid(f, 3, &n, &p), 0);
	assert_int_equal(n, 0);
	ibp_fabric_free(f);
}

static void test_small(void **state)
{
	(void)state;
	ibp_fabric_gen_options o;
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	o.cas = 10;
	o.partitions = 3;
	o.storage = 2;
	ibp_fabric *f;
	ibp_error err;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), 0);
	/* one leaf, no spine */
	assert_int_equal(ibp_fabric_node_count(f), 11);
	assert_string_equal(ibp_fabric_node_desc(f, 0), "mgmt-0001");
	assert_string_equal(ibp_fabric_node_desc(f, 1), "storage-0001");
	assert_string_equal(ibp_fabric_node_desc(f, 3), "t0001-node-0001");
	/* 7 tenant nodes over 3 tenants: 3, 2, 2 */
	assert_string_equal(ibp_fabric_node_desc(f, 5), "t0001-node-0003");
	assert_string_equal(ibp_fabric_node_desc(f, 6), "t0002-node-0001");
	assert_string_equal(ibp_fabric_node_desc(f, 9), "t0003-node-0002");
	assert_string_equal(ibp_fabric_node_desc(f, 10), "leaf-0001");
	assert_true(ibp_fabric_node_guid(f, 3) == IBP_GEN_CA_GUID_BASE + 6);
	assert_true(ibp_fabric_port_guid(f, 3, 1) == IBP_GEN_CA_GUID_BASE + 7);
	assert_true(connected(f));
	/* the plan */
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_int_equal(ibp_partition_plan_write(&o, f, m, &err), 0);
	fclose(m);
	assert_non_null(strstr(text, "Default=0x7fff, ipoib :\n    "
				     "0xe41d2d0300000001=full ;\n"));
	assert_non_null(strstr(text, "t0002=0x0002, ipoib :\n"
				     "    0xe41d2d030000000d=full,\n"
				     "    0xe41d2d030000000f=full,\n"
				     "    0xe41d2d0300000003=limited,\n"
				     "    0xe41d2d0300000005=limited ;\n"));
	assert_null(strstr(text, "t0004"));
	free(text);
	ibp_fabric_free(f);
}

static void test_fat_tree(void **state)
{
	(void)state;
	static const unsigned shapes[][3] = {
	    /* cas, radix, uplinks */
	    {100, 36, 0}, {648, 36, 0}, {1000, 36, 0},
	    {300, 8, 2},  {777, 24, 6}, {37, 36, 0},
	};
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		ibp_fabric_gen_options o;
		ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
		o.cas = shapes[i][0];
		o.radix = shapes[i][1];
		o.uplinks = shapes[i][2];
		ibp_fabric *f;
		ibp_error err;
		assert_int_equal(ibp_fabric_generate(&o, &f, &err), 0);
		unsigned leaves, spines;
		ibp_fabric_gen_counts(&o, &leaves, &spines);
		assert_int_equal(ibp_fabric_node_count(f),
				 o.cas + leaves + spines);
		unsigned up = o.uplinks ? o.uplinks : o.radix / 2;
		assert_int_equal(leaves,
				 (o.cas + o.radix - up - 1) / (o.radix - up));
		/* every CA is linked, every leaf uplink too */
		for (unsigned c = 0; c < o.cas; c++)
			assert_true(ibp_fabric_port_peer(f, c, 1, NULL, NULL));
		for (unsigned l = 0; l < leaves && spines; l++)
			for (unsigned p = o.radix - up + 1; p <= o.radix; p++)
				assert_true(ibp_fabric_port_peer(
				    f, o.cas + l, p, NULL, NULL));
		assert_true(connected(f));
		/* the first spine follows the leaves */
		if (spines)
			assert_string_equal(
			    ibp_fabric_node_desc(f, o.cas + leaves),
			    "spine-0001");
		ibp_fabric_free(f);
	}
	/* 648 = 36 * 36 / 2: a full-bisection two-level tree: 36 leaves,
	 * 18 spines */
	ibp_fabric_gen_options o;
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	o.cas = 648;
	unsigned leaves, spines;
	ibp_fabric_gen_counts(&o, &leaves, &spines);
	assert_int_equal(leaves, 36);
	assert_int_equal(spines, 18);
}

static void test_bad_options(void **state)
{
	(void)state;
	ibp_fabric_gen_options o;
	ibp_fabric *f;
	ibp_error err;
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_ERANGE);
	o.cas = 5;
	o.storage = 5;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_EINVAL);
	o.storage = 0;
	o.partitions = 5;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_EINVAL);
	o.partitions = 0;
	o.radix = 3;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_ERANGE);
	o.radix = 8;
	o.cas = 100;
	o.uplinks = 8;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_ERANGE);
	assert_null(f);
}

static void test_scale(void **state)
{
	(void)state;
	ibp_fabric_gen_options o;
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	o.cas = 48000;
	o.radix = 48;
	o.uplinks = 16; /* 1500 leaves, 47 pods of 16 spines, 256 cores */
	o.partitions = 4000;
	o.storage = 8;
	o.force = true; /* 50,508 LIDs */
	double t0 = now();
	ibp_fabric *f;
	ibp_error err;
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), 0);
	double t1 = now();
	assert_int_equal(ibp_fabric_node_count(f), 50508);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_int_equal(ibp_fabric_write(f, m, &err), 0);
	fclose(m);
	double t2 = now();
	ibp_fabric *g;
	ibp_diags *d = ibp_diags_new();
	assert_int_equal(ibp_fabric_load_buffer("big", text, len, NULL, &g, d),
			 0);
	double t3 = now();
	assert_int_equal(ibp_diags_count(d), 0);
	assert_int_equal(ibp_fabric_node_count(g), 50508);
	/* 100,000 look-ups of each kind */
	size_t n;
	unsigned p;
	char desc[64];
	for (unsigned i = 0; i < 100000; i++) {
		unsigned c = (i * 7919u) % 48000;
		assert_int_equal(
		    ibp_fabric_find_port_guid(
			g, IBP_GEN_CA_GUID_BASE + 2ULL * c + 1, &n, &p),
		    0);
		assert_int_equal(n, c);
		assert_int_equal(ibp_fabric_find_node_guid(
				     g, IBP_GEN_CA_GUID_BASE + 2ULL * c, &n),
				 0);
		snprintf(desc, sizeof(desc), "leaf-%04u", c % 1500 + 1);
		assert_int_equal(ibp_fabric_find_desc(g, desc, &n), 0);
		assert_int_equal(n, 48000 + c % 1500);
	}
	double t4 = now();
	assert_int_equal(ibp_fabric_assign_lids(g, 0, &err), 0);
	for (unsigned lid = 1; lid < 49152; lid += 7)
		assert_int_equal(ibp_fabric_find_lid(g, (uint16_t)lid, &n, &p),
				 0);
	double t5 = now();
	fprintf(stderr,
		"# 48000 CAs + 2000 switches: generate %.3f s, write %.3f s "
		"(%zu bytes), load %.3f s, 300k look-ups %.3f s, LIDs %.3f "
		"s\n",
		t1 - t0, t2 - t1, len, t3 - t2, t4 - t3, t5 - t4);
	/* "a few seconds" of CPU even under the sanitizers */
	assert_true(t3 - t0 < 20.0);
	assert_true(t4 - t3 < 5.0);
	free(text);
	ibp_diags_free(d);
	ibp_fabric_free(g);
	ibp_fabric_free(f);
}

/* Ports whose P_Keys do not fit their table (counts worked out by hand:
 * 0x7fff on every port, a tenant node its tenant, a storage node every
 * tenant; a CA's table holds 64 unless said). */
static void test_plan_overfull(void **state)
{
	(void)state;
	static const struct {
		unsigned cas, partitions, storage, cap, over, most;
	} cases[] = {
	    {2000, 100, 4, 64, 4, 101}, /* the storage nodes */
	    {2000, 63, 4, 64, 0, 64},	/* exactly full, not over */
	    {2000, 100, 0, 64, 0, 2},	/* tenant nodes hold two */
	    /* a one-entry table: 8 tenant nodes (2 each) and 1 storage
	     * node (3) are over, the management host (0x7fff) is not */
	    {10, 2, 1, 1, 9, 3},
	    {10, 2, 20, 64, 0, 0}, /* impossible options: nothing to say */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ibp_fabric_gen_options o;
		ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
		o.cas = cases[i].cas;
		o.partitions = cases[i].partitions;
		o.storage = cases[i].storage;
		ibp_fabric_options fo;
		ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
		fo.ca_partition_cap = cases[i].cap;
		o.fabric = &fo;
		unsigned most;
		assert_int_equal(ibp_partition_plan_overfull(&o, &most),
				 cases[i].over);
		assert_int_equal(most, cases[i].most);
	}
}

/* The options and the fabric options they point to are each read as far
 * as their own version goes: 0 or a version newer than the library's is
 * refused, naming the struct; a NULL fabric is ibp_fabric_options_init's
 * defaults (a CA's table of 64, LIDs up to 0xBFFF). */
static void test_options_version(void **state)
{
	(void)state;
	ibp_fabric_gen_options o;
	ibp_fabric *f = NULL;
	ibp_error err;
	char msg[256];
	const unsigned bad[] = {0, IBP_FABRIC_GEN_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		ibp_fabric_gen_options_init(&o, bad[i]);
		o.cas = 10; /* beyond what _init wrote: the version decides */
		assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_EINVAL);
		assert_null(f);
		assert_non_null(
		    strstr(err.message, "fabric generator options: version"));
		assert_int_equal(
		    ibp_fabric_gen_write_files(&o, NULL, "/x", NULL, &err),
		    IBP_EINVAL);
		assert_non_null(
		    strstr(err.message, "fabric generator options: version"));
		ibp_fabric_gen_summary(&o, "t", NULL, msg, sizeof(msg));
		assert_string_equal(msg, "t: bad generator options");
		unsigned leaves = 1, spines = 1;
		ibp_fabric_gen_counts(&o, &leaves, &spines);
		assert_int_equal(leaves + spines, 0);
	}
	ibp_fabric_options fo;
	const unsigned fbad[] = {0, IBP_FABRIC_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
		o.cas = 10;
		ibp_fabric_options_init(&fo, fbad[i]);
		o.fabric = &fo;
		assert_int_equal(ibp_fabric_generate(&o, &f, &err), IBP_EINVAL);
		assert_null(f);
		assert_non_null(strstr(err.message, "fabric options: version"));
		assert_null(strstr(err.message, "generator"));
		ibp_fabric_gen_summary(&o, "t", NULL, msg, sizeof(msg));
		assert_string_equal(msg, "t: bad generator options");
		unsigned most = 1;
		assert_int_equal(ibp_partition_plan_overfull(&o, &most), 0);
		assert_int_equal(most, 0);
	}
	/* NULL: the defaults (by hand: 4 storage nodes each need 0x7fff
	 * and 100 tenants' P_Keys, 101 > a CA's 64 entries; LIDs up to
	 * 49151, below the LinearFDBCap of 49152) */
	ibp_fabric_gen_options_init(&o, IBP_FABRIC_GEN_OPTIONS_VERSION);
	assert_null(o.fabric);
	o.cas = 2000;
	o.partitions = 100;
	o.storage = 4;
	unsigned most;
	assert_int_equal(ibp_partition_plan_overfull(&o, &most), 4);
	assert_int_equal(most, 101);
	ibp_fabric_gen_summary(&o, "t", NULL, msg, sizeof(msg));
	assert_non_null(strstr(msg, " LIDs of 49151)"));
	assert_int_equal(ibp_fabric_generate(&o, &f, &err), 0);
	assert_int_equal(ibp_fabric_node_partition_cap(f, 0), 64);
	assert_int_equal(ibp_fabric_node_linear_fdb_cap(f, o.cas), 49152);
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_small),
	    cmocka_unit_test(test_fat_tree),
	    cmocka_unit_test(test_hops),
	    cmocka_unit_test(test_lid_budget),
	    cmocka_unit_test(test_bad_options),
	    cmocka_unit_test(test_scale),
	    cmocka_unit_test(test_plan_overfull),
	    cmocka_unit_test(test_options_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
