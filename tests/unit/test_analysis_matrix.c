/*
 * test_analysis_matrix.c - the reachability matrix: the seed document's
 * matrix cell by cell (strict tables), OpenSM's observed tables, the IBA
 * match rule's corner cases (limited-limited, invalid keys, a port with
 * both memberships, a port with no table), classes, explain, the
 * "name/port" labels of a dual-port CA, and a
 * random cross-check against a pairwise scan of the tables (both the
 * bitset rows and the merge path).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/pkey.h"

#include "word_list.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "front/print.h"
#include "report/report_lib.h"
#include "ibpart/sys/report.h"

/* The seed fabric by hand: one leaf switch, seven hosts, in the seed
 * document's order. */
static const char *const seed_names[] = {
    "sm-01",	       "ufm-server",	  "tenantA-node-01", "tenantA-node-02",
    "tenantB-node-01", "tenantB-node-02", "storage-node"};
#define NSEED 7

static ibp_fabric *seed_fabric(void)
{
	ibp_fabric *f = ibp_fabric_new(NULL);
	assert_non_null(f);
	size_t sw;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH,
					     0x506b4b0300a1b100ull, 24,
					     "leaf-01", &sw, NULL),
			 0);
	for (unsigned i = 0; i < NSEED; i++) {
		size_t n;
		assert_int_equal(
		    ibp_fabric_add_node(f, IBP_NODE_CA,
					0x506b4b0300a1b000ull + i * 0x10, 1,
					seed_names[i], &n, NULL),
		    0);
		assert_int_equal(ibp_fabric_link(f, n, 1, sw, i + 1, NULL), 0);
	}
	return f;
}

/* Give CA number i (0..6, node i + 1) a table holding keys. */
static void put(ibp_tables *ts, size_t node, const uint16_t *keys, size_t n)
{
	ibp_pkey_table *t = ibp_tables_get_or_create(ts, node, 1);
	assert_non_null(t);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(
		    ibp_pkey_table_set(t, (unsigned)i, keys[i], NULL), 0);
}

/* The seed's strict tables: mgmt full for SM and UFM, tenants only in
 * their own partition, storage limited in both. */
static ibp_tables *seed_strict(const ibp_fabric *f)
{
	ibp_tables *ts = ibp_tables_new(f);
	uint16_t mgmt[] = {0xffff}, a[] = {0x8001}, b[] = {0x8002},
		 st[] = {0x0001, 0x0002};
	put(ts, 1, mgmt, 1);
	put(ts, 2, mgmt, 1);
	put(ts, 3, a, 1);
	put(ts, 4, a, 1);
	put(ts, 5, b, 1);
	put(ts, 6, b, 1);
	put(ts, 7, st, 2);
	return ts;
}

/* The seed document's table, transcribed: 1 = ✓, 0 = ✗, -1 = —. */
static const int seed_expected[NSEED][NSEED] = {
    {-1, 1, 0, 0, 0, 0, 0}, {1, -1, 0, 0, 0, 0, 0}, {0, 0, -1, 1, 0, 0, 1},
    {0, 0, 1, -1, 0, 0, 1}, {0, 0, 0, 0, -1, 1, 1}, {0, 0, 0, 0, 1, -1, 1},
    {0, 0, 1, 1, 1, 1, -1}};

static void test_seed_strict(void **state)
{
	(void)state;
	ibp_fabric *f = seed_fabric();
	ibp_tables *ts = seed_strict(f);
	for (int merge = 0; merge < 2; merge++) {
		ibp_matrix_options o = {.version = IBP_MATRIX_OPTIONS_VERSION,
					.max_row_bytes = merge ? 1 : 0};
		ibp_matrix *m = NULL;
		assert_int_equal(ibp_matrix_build(ts, &o, &m, NULL), 0);
		assert_int_equal(ibp_matrix_endpoint_count(m), NSEED);
		for (size_t i = 0; i < NSEED; i++) {
			assert_string_equal(ibp_matrix_endpoint_desc(m, i),
					    seed_names[i]);
			for (size_t j = 0; j < NSEED; j++)
				assert_int_equal(ibp_matrix_can_talk(m, i, j),
						 seed_expected[i][j] == 1);
		}
		/* classes: mgmt, A, B, storage */
		assert_int_equal(ibp_matrix_class_count(m), 4);
		assert_int_equal(ibp_matrix_class_of(m, 0),
				 ibp_matrix_class_of(m, 1));
		assert_int_equal(ibp_matrix_partition_count(m), 3);
		/* pairs: sm-ufm, A1-A2, B1-B2, 4 to storage */
		assert_int_equal(ibp_matrix_pair_count(m), 7);
		assert_int_equal(ibp_matrix_reach_count(m, 6), 4);
		assert_int_equal(ibp_matrix_reach_count(m, 0), 1);
		/* storage's class alone: two storage ports would not talk */
		size_t sc = ibp_matrix_class_of(m, 6);
		assert_int_equal(ibp_matrix_class_size(m, sc), 1);
		assert_false(ibp_matrix_class_can_talk(m, sc, sc));
		assert_true(ibp_matrix_class_can_talk(
		    m, ibp_matrix_class_of(m, 2), ibp_matrix_class_of(m, 2)));
		ibp_matrix_free(m);
	}
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* OpenSM 3.3.23's tables for the seed plan (reference doc): everyone in
 * 0x7fff, limited except the SM and UFM. */
static void test_seed_opensm(void **state)
{
	(void)state;
	ibp_fabric *f = seed_fabric();
	ibp_tables *ts = ibp_tables_new(f);
	uint16_t mgmt[] = {0xffff}, a[] = {0x7fff, 0x8001},
		 b[] = {0x7fff, 0x8002}, st[] = {0x7fff, 0x0001, 0x0002};
	put(ts, 1, mgmt, 1);
	put(ts, 2, mgmt, 1);
	put(ts, 3, a, 2);
	put(ts, 4, a, 2);
	put(ts, 5, b, 2);
	put(ts, 6, b, 2);
	put(ts, 7, st, 3);
	ibp_matrix *m = NULL;
	assert_int_equal(ibp_matrix_build(ts, NULL, &m, NULL), 0);
	/* SM and UFM reach everyone (full in the default partition) */
	for (size_t j = 1; j < NSEED; j++) {
		assert_true(ibp_matrix_can_talk(m, 0, j));
		assert_true(ibp_matrix_can_talk(m, j, 0));
	}
	assert_true(ibp_matrix_can_talk(m, 2, 3));
	assert_false(ibp_matrix_can_talk(m, 2, 4)); /* A-B: limited 0x7fff */
	assert_false(ibp_matrix_can_talk(m, 3, 5));
	assert_true(ibp_matrix_can_talk(m, 2, 6)); /* A-storage */
	assert_true(ibp_matrix_can_talk(m, 5, 6)); /* B-storage */
	ibp_explanation e = {.version = IBP_EXPLANATION_VERSION};
	assert_int_equal(ibp_matrix_explain(m, 2, 4, &e, NULL), 0);
	assert_false(e.can_talk);
	assert_int_equal(e.rule, IBP_RULE_LIMITED_LIMITED);
	assert_int_equal(e.nshared, 1);
	assert_int_equal(e.shared[0].base, 0x7fff);
	assert_false(e.shared[0].match);
	ibp_explanation_free(&e);
	assert_int_equal(ibp_matrix_explain(m, 2, 6, &e, NULL), 0);
	assert_true(e.can_talk);
	assert_int_equal(e.rule, IBP_RULE_FULL_LIMITED);
	assert_int_equal(e.nshared, 2); /* 0x7fff (no match), 0x0001 */
	assert_int_equal(e.shared[1].base, 0x0001);
	assert_int_equal(e.shared[1].src_pkey, 0x8001);
	assert_int_equal(e.shared[1].src_index, 1);
	assert_int_equal(e.shared[1].dst_pkey, 0x0001);
	assert_int_equal(e.shared[1].dst_index, 1);
	assert_true(e.shared[1].match);
	ibp_explanation_free(&e);
	assert_int_equal(ibp_matrix_explain(m, 0, 1, &e, NULL), 0);
	assert_int_equal(e.rule, IBP_RULE_FULL_FULL);
	ibp_explanation_free(&e);
	assert_int_equal(ibp_matrix_explain(m, 3, 3, &e, NULL), 0);
	assert_int_equal(e.rule, IBP_RULE_SAME_PORT);
	ibp_explanation_free(&e);
	assert_int_equal(ibp_matrix_explain(m, 0, 99, &e, NULL), IBP_ERANGE);
	/* by name: the same pair as (2, 6); the switch and a name that is
	 * no port refused with the name */
	ibp_error err;
	assert_int_equal(ibp_matrix_explain_ports(m, "tenantA-node-01",
						  "0x506b4b0300a1b060", &e,
						  &err),
			 0);
	assert_true(e.src == 2 && e.dst == 6 && e.can_talk);
	assert_int_equal(e.rule, IBP_RULE_FULL_LIMITED);
	ibp_explanation_free(&e);
	assert_int_equal(
	    ibp_matrix_explain_ports(m, "sm-01", "leaf-01/0", &e, &err),
	    IBP_ERANGE);
	assert_string_equal(err.message,
			    "leaf-01/0 is not an end port of the matrix (a CA "
			    "port; --switch-ports adds switch port 0)");
	assert_int_not_equal(
	    ibp_matrix_explain_ports(m, "nosuch", "sm-01", &e, &err), 0);
	assert_non_null(strstr(err.message, "nosuch"));
	/* the result's version: 0 or newer refused, nothing written; its
	 * free and JSON leave it alone (issue 24) */
	unsigned bad[] = {0, IBP_EXPLANATION_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		ibp_explanation x = {.version = bad[i], .src = 77};
		assert_int_equal(ibp_matrix_explain_ports(m, "tenantA-node-01",
							  "sm-01", &x, &err),
				 IBP_EINVAL);
		assert_non_null(
		    strstr(err.message, "ibp_explanation: version"));
		assert_int_equal(x.src, 77);
		assert_null(ibp_explanation_json(m, &x));
		ibp_explanation_free(&x);
		assert_int_equal(x.src, 77);
	}
	ibp_matrix_free(m);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* The words of matrix --format and --form are the parsers' names, in
 * the enums' order. */
static void test_format_words(void **state)
{
	(void)state;
	char w[16];
	int k = 0;
	for (; nth_word(IBP_MATRIX_FORMAT_WORDS, k, w, sizeof(w)); k++) {
		ibp_matrix_format f;
		assert_int_equal(ibp_matrix_format_parse(w, &f), 0);
		assert_int_equal((int)f, k);
	}
	assert_int_equal(k, 5);
	for (k = 0; nth_word(IBP_MATRIX_FORM_WORDS, k, w, sizeof(w)); k++) {
		ibp_matrix_form f;
		assert_int_equal(ibp_matrix_form_parse(w, &f), 0);
		assert_int_equal((int)f, k);
	}
	assert_int_equal(k, 3);
}

/* Corner cases of the match rule. */
static void test_rule_corners(void **state)
{
	(void)state;
	ibp_fabric *f = seed_fabric();
	ibp_tables *ts = ibp_tables_new(f);
	/* 0: invalid keys only; 1: invalid keys only (full form);
	 * 2: limited 0x0005 and full 0x8005 (both: full wins);
	 * 3: limited 0x0005; 4: limited 0x0005; 5: nothing (empty table);
	 * 6: no table at all */
	uint16_t inv0[] = {0x0000, 0x8000}, inv1[] = {0x8000},
		 both[] = {0x0005, 0x0000, 0x8005}, lim[] = {0x0005};
	put(ts, 1, inv0, 2);
	put(ts, 2, inv1, 1);
	put(ts, 3, both, 3);
	put(ts, 4, lim, 1);
	put(ts, 5, lim, 1);
	assert_non_null(ibp_tables_get_or_create(ts, 6, 1));
	ibp_matrix *m = NULL;
	assert_int_equal(ibp_matrix_build(ts, NULL, &m, NULL), 0);
	assert_int_equal(ibp_matrix_endpoint_count(m), 7); /* 7 linked */
	assert_false(ibp_matrix_can_talk(m, 0, 1));	   /* invalid never */
	assert_true(ibp_matrix_can_talk(m, 2, 3)); /* full+limited vs lim */
	assert_true(ibp_matrix_can_talk(m, 3, 2));
	assert_false(ibp_matrix_can_talk(m, 3, 4)); /* limited-limited */
	for (size_t j = 0; j < 7; j++) {
		assert_false(ibp_matrix_can_talk(m, 5, j));
		assert_false(ibp_matrix_can_talk(m, 6, j));
		assert_false(ibp_matrix_can_talk(m, j, j));
	}
	size_t nk;
	const uint16_t *k =
	    ibp_matrix_class_keys(m, ibp_matrix_class_of(m, 2), &nk);
	assert_int_equal(nk, 1);
	assert_int_equal(k[0], 0x8005);
	/* invalid-only, empty and table-less ports share a class */
	assert_int_equal(ibp_matrix_class_of(m, 0), ibp_matrix_class_of(m, 5));
	assert_int_equal(ibp_matrix_class_of(m, 0), ibp_matrix_class_of(m, 6));
	assert_int_equal(ibp_matrix_find(m, 7, 1), 6);
	assert_int_equal(ibp_matrix_find(m, 0, 1), -1); /* a switch port */
	ibp_explanation e = {.version = IBP_EXPLANATION_VERSION};
	assert_int_equal(ibp_matrix_explain(m, 0, 1, &e, NULL), 0);
	assert_int_equal(e.rule, IBP_RULE_NO_SHARED_PARTITION);
	ibp_explanation_free(&e);
	ibp_matrix_free(m);
	/* switch port 0 counted when asked */
	ibp_matrix_options o = {.version = IBP_MATRIX_OPTIONS_VERSION,
				.include_switch_port0 = true};
	assert_int_equal(ibp_matrix_build(ts, &o, &m, NULL), 0);
	assert_int_equal(ibp_matrix_endpoint_count(m), 8);
	assert_int_equal(ibp_matrix_find(m, 0, 0), 0);
	ibp_matrix_free(m);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* Random fabrics: the class matrix equals a pairwise scan of the
 * tables with ibp_pkey_match, entry by entry. */
static void test_random_vs_naive(void **state)
{
	(void)state;
	srand(12345);
	for (int round = 0; round < 6; round++) {
		ibp_fabric *f = ibp_fabric_new(NULL);
		size_t sw;
		unsigned nhosts = 40 + (unsigned)(rand() % 60);
		assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x100,
						     IBP_MAX_PORTS, "sw", &sw,
						     NULL),
				 0);
		for (unsigned h = 0; h < nhosts; h++) {
			size_t n;
			char d[32];
			snprintf(d, sizeof(d), "h%u", h);
			assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_CA,
							     0x1000 + h * 4, 1,
							     d, &n, NULL),
					 0);
			assert_int_equal(
			    ibp_fabric_link(f, n, 1, sw, h + 1, NULL), 0);
		}
		ibp_tables *ts = ibp_tables_new(f);
		unsigned nbases = 2 + (unsigned)(rand() % 8);
		for (unsigned h = 0; h < nhosts; h++) {
			ibp_pkey_table *t =
			    ibp_tables_get_or_create(ts, h + 1, 1);
			unsigned ne = (unsigned)(rand() % 5);
			for (unsigned e = 0; e < ne; e++) {
				uint16_t k = (uint16_t)(1 + rand() % nbases);
				if (rand() % 2)
					k |= 0x8000;
				if (rand() % 13 == 0)
					k = rand() % 2 ? 0x8000 : 0;
				ibp_pkey_table_set(t, e, k, NULL);
			}
		}
		for (int merge = 0; merge < 2; merge++) {
			ibp_matrix_options o = {.version =
						    IBP_MATRIX_OPTIONS_VERSION,
						.max_row_bytes = merge ? 1 : 0};
			ibp_matrix *m = NULL;
			assert_int_equal(ibp_matrix_build(ts, &o, &m, NULL), 0);
			uint64_t pairs = 0;
			for (unsigned i = 0; i < nhosts; i++) {
				const ibp_pkey_table *a =
				    ibp_tables_get(ts, i + 1, 1);
				size_t reach = 0;
				for (unsigned j = 0; j < nhosts; j++) {
					const ibp_pkey_table *b =
					    ibp_tables_get(ts, j + 1, 1);
					bool want = false;
					for (unsigned x = 0;
					     i != j &&
					     x < ibp_pkey_table_used(a);
					     x++)
						for (unsigned y = 0;
						     y < ibp_pkey_table_used(b);
						     y++)
							if (ibp_pkey_match(
								ibp_pkey_table_get(
								    a, x),
								ibp_pkey_table_get(
								    b, y)))
								want = true;
					assert_int_equal(
					    ibp_matrix_can_talk(m, i, j), want);
					ibp_explanation e = {
					    .version = IBP_EXPLANATION_VERSION};
					assert_int_equal(ibp_matrix_explain(
							     m, i, j, &e, NULL),
							 0);
					assert_int_equal(e.can_talk, want);
					ibp_explanation_free(&e);
					reach += want;
					if (want && i < j)
						pairs++;
				}
				assert_int_equal(ibp_matrix_reach_count(m, i),
						 reach);
			}
			assert_int_equal(ibp_matrix_pair_count(m), pairs);
			ibp_matrix_free(m);
		}
		ibp_tables_free(ts);
		ibp_fabric_free(f);
	}
}

static char *render(const ibp_matrix *m, ibp_matrix_format fmt,
		    const ibp_matrix_report_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(ibp_matrix_report(m, fmt, o, fp, NULL), 0);
	fclose(fp);
	return buf;
}

/* ibp_explanation_print() of end ports a and b, malloc'd. */
static char *explain_text(const ibp_matrix *m, size_t a, size_t b)
{
	ibp_explanation e = {.version = IBP_EXPLANATION_VERSION};
	assert_int_equal(ibp_matrix_explain(m, a, b, &e, NULL), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	ibp_explanation_print(m, &e, fp);
	fclose(fp);
	ibp_explanation_free(&e);
	return buf;
}

/* The seed's strict matrix; *f and *ts are the caller's to free. */
static ibp_matrix *seed_matrix(ibp_fabric **f, ibp_tables **ts)
{
	*f = seed_fabric();
	*ts = seed_strict(*f);
	ibp_matrix *m = NULL;
	assert_int_equal(ibp_matrix_build(*ts, NULL, &m, NULL), 0);
	return m;
}

static void test_reports(void **state)
{
	(void)state;
	ibp_fabric *f;
	ibp_tables *ts;
	ibp_matrix *m = seed_matrix(&f, &ts);
	ibp_matrix_report_options o = {
	    .version = IBP_MATRIX_REPORT_OPTIONS_VERSION, .mode = "strict"};

	/* JSON: docs/json-schemas.md's schema, cell by cell */
	char *s = render(m, IBP_MATRIX_JSON, &o);
	json_error_t je;
	json_t *j = json_loads(s, 0, &je);
	assert_non_null(j);
	assert_string_equal(json_string_value(json_object_get(j, "mode")),
			    "strict");
	json_t *eps = json_object_get(j, "endpoints");
	json_t *ct = json_object_get(j, "can_talk");
	assert_int_equal(json_array_size(eps), NSEED);
	assert_int_equal(json_array_size(ct), NSEED);
	assert_int_equal(json_object_size(j), 4);
	assert_string_equal(json_string_value(json_object_get(j, "form")),
			    "ports");
	assert_string_equal(json_string_value(json_object_get(
				json_array_get(eps, 2), "port_guid")),
			    "0x506b4b0300a1b021");
	for (size_t i = 0; i < NSEED; i++) {
		json_t *row = json_array_get(ct, i);
		assert_string_equal(json_string_value(json_object_get(
					json_array_get(eps, i), "node_desc")),
				    seed_names[i]);
		for (size_t k = 0; k < NSEED; k++) {
			json_t *c = json_array_get(row, k);
			if (seed_expected[i][k] < 0)
				assert_true(json_is_null(c));
			else
				assert_int_equal(json_is_true(c),
						 seed_expected[i][k]);
		}
	}
	json_decref(j);
	free(s);

	/* text: the seed's layout, storage's row ✗ ✗ ✓ ✓ ✓ ✓ — */
	s = render(m, IBP_MATRIX_TEXT, &o);
	const char *row = strstr(s, "\nstorage-node");
	assert_non_null(row);
	const char *want[] = {"✗", "✗", "✓", "✓", "✓", "✓", "—"};
	const char *p = row + strlen("\nstorage-node");
	for (int i = 0; i < 7; i++) {
		p = strstr(p, want[i]);
		assert_non_null(p);
		const char *nl = strchr(row + 1, '\n');
		assert_true(!nl || p < nl);
		p += strlen(want[i]);
	}
	assert_non_null(strstr(s, "7 of 21 pairs can talk"));
	free(s);

	/* markdown: a pipe table like the seed's */
	s = render(m, IBP_MATRIX_MD, &o);
	assert_non_null(strstr(s, "| sm-01 | — | ✓ | ✗ | ✗ | ✗ | ✗ | ✗ |"));
	assert_non_null(
	    strstr(s, "| storage-node | ✗ | ✗ | ✓ | ✓ | ✓ | ✓ | — |"));
	free(s);

	/* csv */
	s = render(m, IBP_MATRIX_CSV, &o);
	assert_non_null(strstr(s, "port_guid,node_desc,0x506b4b0300a1b001,"));
	assert_non_null(strstr(s, "0x506b4b0300a1b061,storage-node,0,0,1,1,"
				  "1,1,\r\n"));
	free(s);

	/* small summary when the grid limit is below the port count */
	o.grid_limit = 3;
	s = render(m, IBP_MATRIX_TEXT, &o);
	assert_non_null(strstr(s, "4 classes"));
	assert_non_null(strstr(s, "Class matrix"));
	free(s);

	/* html: self-contained */
	s = render(m, IBP_MATRIX_HTML, &o);
	assert_non_null(strstr(s, "<!DOCTYPE html>"));
	assert_null(strstr(s, "http://"));
	assert_null(strstr(s, "https://"));
	assert_non_null(strstr(s, "storage-node"));
	free(s);

	ibp_matrix_format fmt;
	assert_int_equal(ibp_matrix_format_parse("md", &fmt), 0);
	assert_int_equal(fmt, IBP_MATRIX_MD);
	assert_int_equal(ibp_matrix_format_parse("pdf", &fmt), IBP_EINVAL);

	/* explain text names the rule */
	char *buf = explain_text(m, 2, 4);
	assert_non_null(strstr(buf, "CANNOT TALK"));
	assert_non_null(strstr(buf, "no valid P_Key base is in both tables"));
	free(buf);

	ibp_matrix_free(m);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* The web view's caller-fed sections (ibpartd's drift and series, the
 * audit's findings): each drawn, hostile names entity-escaped, a
 * capacity-overflow finding marked on its port's P_KeyTable row. */
static void test_html_extras(void **state)
{
	(void)state;
	ibp_fabric *f;
	ibp_tables *ts;
	ibp_matrix *m = seed_matrix(&f, &ts);
	ibp_findings *fs = ibp_findings_new();
	uint64_t st = 0x506b4b0300a1b061ull; /* storage-node */
	uint16_t dropped[] = {0x0003};
	assert_int_equal(ibp_audit_capacity_overflow(fs, st, 2, 3, dropped, 1),
			 0);
	ibp_web_drift d[] = {{.port_guid = 0x506b4b0300a1b021ull,
			      .node_desc = "tenantA-node-01",
			      .port = 1,
			      .kind = "extra",
			      .detail = "0x8002 at index 1 <b>x</b>"}};
	double v[] = {0, 3, 8};
	int64_t t[] = {100, 160, 220};
	ibp_web_series se[] = {{.tenant = "Tenant<B>",
				.counter = "toward",
				.values = v,
				.times = t,
				.n = 3}};
	ibp_web_extras x;
	ibp_web_extras_init(&x, IBP_WEB_EXTRAS_VERSION);
	assert_int_equal(x.version, IBP_WEB_EXTRAS_VERSION);
	x.findings = fs;
	x.drift = d;
	x.ndrift = 1;
	x.series = se;
	x.nseries = 1;
	x.status = "last sweep & <now>";
	ibp_matrix_report_options o = {.version =
					   IBP_MATRIX_REPORT_OPTIONS_VERSION,
				       .mode = "strict",
				       .web = &x};
	char *s = render(m, IBP_MATRIX_HTML, &o);
	assert_non_null(strstr(s, "last sweep &amp; &lt;now&gt;"));
	assert_non_null(strstr(s, "<section id=drift><h2>Drift (1)</h2>"));
	assert_non_null(strstr(s, "<td>tenantA-node-01<td>1<td>"
				  "0x506b4b0300a1b021<td>extra<td>0x8002 at "
				  "index 1 &lt;b&gt;x&lt;/b&gt;"));
	assert_non_null(strstr(s, "<tr class=f><td>Tenant&lt;B&gt;<td>toward"
				  "<td><svg class=spark"));
	/* 3 samples across 156 px, 0..8 across 22 px from the bottom */
	assert_non_null(strstr(s, "points=\"2.0,25.0 80.0,16.8 158.0,3.0\""));
	/* the span in UTC: 100 s and 220 s after the epoch */
	assert_non_null(strstr(
	    s, "<td>8<td class=\"up\">+8<td>3 (<time "
	       "datetime=\"1970-01-01T00:01:40Z\">1970-01-01 00:01:40Z</time>"
	       "&ndash;<time datetime=\"1970-01-01T00:03:40Z\">"));
	assert_non_null(strstr(s, "<tr class=ovf><td>storage-node<td>1<td>"
				  "0x506b4b0300a1b061"));
	assert_non_null(strstr(s, "table full: 1 dropped"));
	assert_non_null(strstr(s, "capacity-overflow"));
	assert_null(strstr(s, "<b>x</b>"));
	assert_null(strstr(s, "<B>"));
	free(s);
	ibp_findings_free(fs);
	ibp_matrix_free(m);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* A dual-port CA: its two end ports are two rows, named "dual/1" and
 * "dual/2" wherever a port is shown by name (JSON keeps the node
 * description); single-port CAs keep their plain name. */
static void test_dual_port_labels(void **state)
{
	(void)state;
	ibp_fabric *f = ibp_fabric_new(NULL);
	size_t sw, dual, solo;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x100, 8,
					     "leaf", &sw, NULL),
			 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x200, 2, "dual", &dual, NULL),
	    0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x300, 1, "solo", &solo, NULL),
	    0);
	assert_int_equal(ibp_fabric_link(f, dual, 1, sw, 1, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, dual, 2, sw, 2, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, solo, 1, sw, 3, NULL), 0);
	ibp_tables *ts = ibp_tables_new(f);
	/* dual/1 full in 0x0001, dual/2 and solo limited: dual/1 talks to
	 * both, dual/2 and solo (limited-limited) do not */
	const struct {
		size_t node;
		unsigned port;
		uint16_t key;
	} keys[] = {{dual, 1, 0x8001}, {dual, 2, 0x0001}, {solo, 1, 0x0001}};
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(
		    ibp_pkey_table_set(ibp_tables_get_or_create(
					   ts, keys[i].node, keys[i].port),
				       0, keys[i].key, NULL),
		    0);
	ibp_matrix *m = NULL;
	assert_int_equal(ibp_matrix_build(ts, NULL, &m, NULL), 0);
	assert_int_equal(ibp_matrix_endpoint_count(m), 3);
	assert_string_equal(ibp_matrix_endpoint_label(m, 0), "dual/1");
	assert_string_equal(ibp_matrix_endpoint_label(m, 1), "dual/2");
	assert_string_equal(ibp_matrix_endpoint_label(m, 2), "solo");
	assert_string_equal(ibp_matrix_endpoint_desc(m, 1), "dual");
	/* a label names its port back */
	for (size_t i = 0; i < 3; i++) {
		size_t n, en;
		unsigned p, ep;
		assert_int_equal(
		    ibp_fabric_resolve_port(f, ibp_matrix_endpoint_label(m, i),
					    &n, &p, NULL),
		    0);
		assert_true(ibp_matrix_endpoint(m, i, &en, &ep));
		assert_int_equal(n, en);
		assert_int_equal(p, ep);
	}
	ibp_matrix_report_options o = {
	    .version = IBP_MATRIX_REPORT_OPTIONS_VERSION, .mode = "strict"};
	/* each format, the lines that show the two ports apart (HTML: the
	 * matrix's row and column headers) */
	const struct {
		ibp_matrix_format fmt;
		const char *want[3];
	} shown[] = {
	    {IBP_MATRIX_TEXT,
	     {"\ndual/1  —       ✓       ✓\n", "\ndual/2  ✓       —       ✗\n",
	      "        dual/1  dual/2  solo\n"}},
	    {IBP_MATRIX_MD,
	     {"| | dual/1 | dual/2 | solo |", "| dual/2 | ✓ | — | ✗ |", ""}},
	    {IBP_MATRIX_CSV, {"\n0x0000000000000202,dual/2,1,,0\r\n", "", ""}},
	    {IBP_MATRIX_HTML,
	     {"<th class=row>dual/1<td", "<th class=row>dual/2<td",
	      "<th class=col><span>dual/1</span>"}}};
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		char *s = render(m, shown[i].fmt, &o);
		for (size_t k = 0; k < 3; k++)
			if (!strstr(s, shown[i].want[k]))
				fail_msg("format %d lacks '%s' in:\n%s",
					 (int)shown[i].fmt, shown[i].want[k],
					 s);
		free(s);
	}
	char *s = render(m, IBP_MATRIX_JSON, &o);
	json_t *j = json_loads(s, 0, NULL);
	assert_non_null(j);
	json_t *eps = json_object_get(j, "endpoints");
	for (size_t i = 0; i < 2; i++)
		assert_string_equal(json_string_value(json_object_get(
					json_array_get(eps, i), "node_desc")),
				    "dual");
	json_decref(j);
	free(s);
	/* explain names the ports the same way */
	char *buf = explain_text(m, 1, 2);
	assert_non_null(strstr(buf, "dual/2 -> solo: CANNOT TALK"));
	free(buf);
	ibp_matrix_free(m);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seed_strict),
	    cmocka_unit_test(test_seed_opensm),
	    cmocka_unit_test(test_rule_corners),
	    cmocka_unit_test(test_random_vs_naive),
	    cmocka_unit_test(test_reports),
	    cmocka_unit_test(test_format_words),
	    cmocka_unit_test(test_html_extras),
	    cmocka_unit_test(test_dual_port_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
