/*
 * test_conf.c - the partitions.conf API: the AST of the seed's OpenSM
 * file (names, P_Keys, flags, members, positions), P_Key assignment and
 * merging, the misreading and rejection verdicts with their positions,
 * every-problem reporting, CR LF files named as the cause, the seed dialect
 * with names resolved through the topology, membership look-ups, and the writer
 * (round trip, atomic file, nothing written on error).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ibpart/conf.h"
#include "ibpart/plan.h"
#include "conf/conf_lib.h"
#include "util/diag_lib.h"
#include "ibpart/sys/conf.h"

#define A0  0x506b4b0300a1b200ull
#define A1  0x506b4b0300a1b201ull
#define B0  0x506b4b0300a1b202ull
#define B1  0x506b4b0300a1b203ull
#define ST  0x506b4b0300a1b210ull
#define SM  0x506b4b0300a1b300ull
#define UFM 0x506b4b0300a1b301ull

static char *path_of(const char *env, const char *rel)
{
	const char *base = getenv(env);
	static char buf[4][1024];
	static int i;
	char *b = buf[i++ % 4];
	snprintf(b, 1024, "%s/%s", base ? base : ".", rel);
	return b;
}

static ibp_fabric *seed_fabric(void)
{
	ibp_fabric *f = NULL;
	assert_int_equal(
	    ibp_fabric_load(path_of("IBP_EXAMPLES", "seed/seed.topo"), NULL, &f,
			    NULL),
	    0);
	return f;
}

static ibp_conf *parse(const char *text, ibp_diags *d)
{
	ibp_conf *c = NULL;
	assert_int_equal(ibp_conf_parse_buffer("t.conf", text, strlen(text),
					       NULL, &c, d, NULL),
			 0);
	assert_non_null(c);
	return c;
}

static bool has_code(const ibp_diags *d, const char *code, unsigned line,
		     unsigned col)
{
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *g = ibp_diags_get(d, i);
		if (!strcmp(g->code, code) && (!line || g->line == line) &&
		    (!col || g->col == col))
			return true;
	}
	return false;
}

/* plan_read's conf options are a pointer with their own version: NULL
 * is the defaults, a version out of range is refused. */
static void test_plan_read_conf(void **state)
{
	(void)state;
	ibp_plan_read_options o;
	ibp_plan_read_options_init(&o, IBP_PLAN_READ_OPTIONS_VERSION);
	o.plan_path = path_of("IBP_EXAMPLES", "seed/partitions.conf");
	ibp_plan p = {.version = IBP_PLAN_VERSION};
	ibp_error err;
	assert_int_equal(ibp_plan_read(&o, &p, NULL, &err), IBP_OK);
	assert_non_null(p.conf);
	ibp_plan_clear(&p);
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	co.dialect = IBP_CONF_DIALECT_OPENSM;
	o.conf = &co;
	assert_int_equal(ibp_plan_read(&o, &p, NULL, &err), IBP_OK);
	assert_int_equal(ibp_conf_get_dialect(p.conf), IBP_CONF_DIALECT_OPENSM);
	ibp_plan_clear(&p);
	unsigned wrong[] = {0, IBP_CONF_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		co.version = wrong[i];
		assert_int_equal(ibp_plan_read(&o, &p, NULL, &err), IBP_EINVAL);
		assert_non_null(strstr(err.message, "plan options"));
		assert_null(p.conf);
	}
	/* the result's own version: refused, nothing written, and its
	 * clear does nothing (issue 24) */
	co.version = IBP_CONF_OPTIONS_VERSION;
	unsigned bad[] = {0, IBP_PLAN_VERSION + 1};
	ibp_conf *mark = (ibp_conf *)&err;
	for (size_t i = 0; i < 2; i++) {
		ibp_plan q = {.version = bad[i], .conf = mark};
		assert_int_equal(ibp_plan_read(&o, &q, NULL, &err), IBP_EINVAL);
		assert_non_null(strstr(err.message, "ibp_plan: version"));
		assert_non_null(strstr(err.message, "IBP_PLAN_VERSION"));
		assert_ptr_equal(q.conf, mark);
		ibp_plan_clear(&q);
		assert_ptr_equal(q.conf, mark);
		assert_int_equal(q.version, bad[i]);
	}
	/* cleared, it keeps its version and may be read into again */
	assert_int_equal(ibp_plan_read(&o, &p, NULL, &err), IBP_OK);
	ibp_plan_clear(&p);
	assert_int_equal(p.version, IBP_PLAN_VERSION);
	assert_null(p.conf);
}

static void test_seed_opensm_file(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = NULL;
	assert_int_equal(
	    ibp_conf_parse_file(path_of("IBP_EXAMPLES", "seed/partitions.conf"),
				NULL, &c, d, NULL),
	    0);
	assert_int_equal(ibp_diags_count(d), 0);
	assert_int_equal(ibp_conf_get_dialect(c), IBP_CONF_DIALECT_OPENSM);
	assert_false(ibp_conf_opensm_verdict(c)->rejected);
	assert_int_equal(ibp_conf_partition_count(c), 3);
	const ibp_conf_partition *p = ibp_conf_partition_at(c, 1);
	assert_string_equal(ibp_conf_partition_name(p), "TenantA");
	uint16_t w;
	assert_true(ibp_conf_partition_pkey_written(p, &w));
	assert_int_equal(w, 0x0001);
	assert_int_equal(ibp_conf_partition_pkey(p), 0x0001);
	const ibp_conf_flags *f = ibp_conf_partition_flags(p);
	assert_true(f->ipoib);
	assert_int_equal(f->rate, 21);
	assert_int_equal(f->mtu, 5);
	assert_int_equal(ibp_conf_partition_pos(p).line, 5);
	assert_int_equal(ibp_conf_partition_pos(p).col, 1);
	assert_int_equal(ibp_conf_partition_member_count(p), 3);
	const ibp_conf_member *m = ibp_conf_partition_member(p, 2);
	assert_int_equal(m->kind, IBP_MEMBER_GUID);
	assert_true(m->guid == ST);
	assert_int_equal(m->written, IBP_MEMB_LIMITED);
	assert_int_equal(m->membership, IBP_MEMB_LIMITED);
	assert_int_equal(m->pos.line, 8);
	assert_int_equal(m->pos.col, 5);
	/* merged view: Default first, always there */
	assert_int_equal(ibp_conf_group_count(c), 3);
	const ibp_conf_group *g0 = ibp_conf_group_at(c, 0);
	assert_int_equal(ibp_conf_group_pkey(g0), 0x7fff);
	assert_string_equal(ibp_conf_group_name(g0), "Default");
	assert_int_equal(
	    ibp_conf_group_port_membership(g0, SM, IBP_NODE_CA, SM, NULL),
	    IBP_MEMB_FULL);
	assert_int_equal(
	    ibp_conf_group_port_membership(g0, UFM, IBP_NODE_CA, SM, NULL),
	    IBP_MEMB_FULL);
	assert_int_equal(
	    ibp_conf_group_port_membership(g0, A0, IBP_NODE_CA, SM, NULL),
	    IBP_MEMB_LIMITED);
	const ibp_conf_group *ga = ibp_conf_group_find(c, 0x8001);
	assert_non_null(ga);
	assert_int_equal(
	    ibp_conf_group_port_membership(ga, A0, IBP_NODE_CA, SM, NULL),
	    IBP_MEMB_FULL);
	assert_int_equal(
	    ibp_conf_group_port_membership(ga, B0, IBP_NODE_CA, SM, NULL),
	    IBP_MEMB_NONE);
	ibp_conf_free(c);
	ibp_diags_free(d);
}

static void test_generated_and_merged(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = parse("A : 0x10=full ;\n"
			    "B=0x0002 : 0x11=full ;\n"
			    "C : 0x12 ;\n"
			    "A : 0x10=limited, 0x13=both ;\n"
			    "D=0x8002, rate=7 : 0x14=full ;\n",
			    d);
	assert_int_equal(ibp_conf_partition_count(c), 5);
	assert_int_equal(ibp_conf_partition_pkey(ibp_conf_partition_at(c, 0)),
			 1);
	/* 2 is taken: C gets 3 */
	assert_int_equal(ibp_conf_partition_pkey(ibp_conf_partition_at(c, 2)),
			 3);
	/* A again: found by name */
	assert_int_equal(ibp_conf_partition_pkey(ibp_conf_partition_at(c, 3)),
			 1);
	/* D: high bit ignored, merges into B */
	assert_int_equal(ibp_conf_partition_pkey(ibp_conf_partition_at(c, 4)),
			 2);
	assert_true(has_code(d, "pkey-high-bit", 5, 3));
	assert_true(has_code(d, "pkey-two-names", 5, 1));
	assert_true(has_code(d, "duplicate-member", 4, 5));
	assert_int_equal(ibp_conf_group_count(c), 4);
	const ibp_conf_group *ga = ibp_conf_group_find(c, 1);
	assert_string_equal(ibp_conf_group_name(ga), "A");
	assert_int_equal(ibp_conf_group_partition_count(ga), 2);
	/* later wins */
	assert_int_equal(
	    ibp_conf_group_port_membership(ga, 0x10, IBP_NODE_CA, 0x99, NULL),
	    IBP_MEMB_LIMITED);
	/* both is full without allow_both_pkeys */
	assert_int_equal(
	    ibp_conf_group_port_membership(ga, 0x13, IBP_NODE_CA, 0x99, NULL),
	    IBP_MEMB_FULL);
	/* no word: limited (defmember) */
	const ibp_conf_member *m =
	    ibp_conf_partition_member(ibp_conf_partition_at(c, 2), 0);
	assert_int_equal(m->written, IBP_MEMB_UNSPECIFIED);
	assert_int_equal(m->membership, IBP_MEMB_LIMITED);
	assert_true(has_code(d, "no-full-member", 3, 1));
	ibp_conf_free(c);
	ibp_diags_free(d);
}

static void test_missing_comma(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = parse("# tenants\n"
			    "T=0x1 : 0xA=full 0xB=full, 0xC=full ;\n",
			    d);
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
	assert_false(v->rejected);
	assert_int_equal(v->nmisreadings, 1);
	assert_string_equal(v->misreadings[0].code, "missing-comma");
	assert_int_equal(v->misreadings[0].pos.line, 2);
	assert_int_equal(v->misreadings[0].pos.col, 13);
	const ibp_conf_partition *p = ibp_conf_partition_at(c, 0);
	assert_int_equal(ibp_conf_partition_member_count(p), 2);
	const ibp_conf_member *m = ibp_conf_partition_member(p, 0);
	assert_true(m->guid == 0xA);
	assert_int_equal(m->membership, IBP_MEMB_LIMITED);
	assert_string_equal(m->written_word, "full 0xB=full");
	assert_true(ibp_conf_partition_member(p, 1)->guid == 0xC);
	assert_int_equal(ibp_conf_error_count(c), 1);
	ibp_conf_free(c);
	ibp_diags_free(d);
}

static void test_every_problem(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = parse("A=0x1, rate=NDR, mtu=4096, ipob : ALL=fulll ;\n"
			    "B=0x2\n"
			    "C=0x3 : 0xzz=full, 0x5=limited ;\n"
			    "D=0x4 : all=full ;\n",
			    d);
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
	assert_true(v->rejected);
	/* OpenSM stops at the first: line 2 */
	assert_string_equal(v->reason, "no partition definition found");
	assert_int_equal(v->pos.line, 2);
	assert_int_equal(v->opensm_line, 2);
	assert_true(has_code(d, "rate-name", 1, 13));
	assert_true(has_code(d, "mtu-range", 1, 22));
	assert_true(has_code(d, "unknown-flag", 1, 28));
	assert_true(has_code(d, "unknown-membership", 1, 39));
	assert_true(has_code(d, "no-colon", 2, 1));
	/* the statement without ':' runs on to the ';' on line 3 */
	assert_true(has_code(d, "bad-guid", 4, 9));
	assert_true(ibp_conf_error_count(c) >= 6);
	ibp_conf_free(c);
	ibp_diags_free(d);
}

/* The finding with this code on this line, or NULL. */
static const ibp_diag *diag_at(const ibp_diags *d, const char *code,
			       unsigned line)
{
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *g = ibp_diags_get(d, i);
		if (!strcmp(g->code, code) && g->line == line)
			return g;
	}
	return NULL;
}

/* A CR LF file: OpenSM reads the CR as part of the line, which is right
 * (c06/c07 corners); what the reader is told names the CR as the cause
 * on the lines that end in one, and nowhere else.  Codes and severities
 * stay what they are. */
static void test_crlf_named(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = parse("Default=0x7fff : ALL=full ;\r\n", d);
	const ibp_diag *g = diag_at(d, "no-colon", 1);
	assert_non_null(g);
	assert_int_equal(g->severity, IBP_SEV_ERROR);
	assert_int_equal(g->col, 28);
	assert_non_null(strstr(g->message, "only the CR that ends the line"));
	assert_non_null(strstr(g->message, "Windows CR LF line ends"));
	assert_non_null(strstr(g->message, "dos2unix"));
	assert_true(ibp_conf_opensm_verdict(c)->rejected);
	ibp_conf_free(c);
	ibp_diags_free(d);

	/* a file of mixed line ends: line 1 has no CR, so its error is not
	 * blamed on one; line 2's "full\r" is already called a carriage
	 * return and gets no second hint; line 3 ends in ";\r" */
	d = ibp_diags_new();
	c = parse("U=0x2 : 0x7=fulll ;\nT=0x1 : 0x5=full\r\n, 0x6=full ;\r\n",
		  d);
	g = diag_at(d, "unknown-membership", 1);
	assert_non_null(g);
	assert_int_equal(g->severity, IBP_SEV_ERROR);
	assert_null(strstr(g->message, "CR LF"));
	g = diag_at(d, "carriage-return", 2);
	assert_non_null(g);
	assert_null(strstr(g->message, "dos2unix"));
	g = diag_at(d, "no-colon", 3);
	assert_non_null(g);
	assert_int_equal(g->severity, IBP_SEV_ERROR);
	assert_non_null(strstr(g->message, "CR LF"));
	ibp_conf_free(c);
	ibp_diags_free(d);

	/* the same mistakes with LF line ends say nothing of CRs */
	d = ibp_diags_new();
	c = parse("B=0x2\nC=0x3 : 0x5=limited ;\n", d);
	g = diag_at(d, "no-colon", 1);
	assert_non_null(g);
	assert_null(strstr(g->message, "CR"));
	ibp_conf_free(c);
	ibp_diags_free(d);
}

static void test_long_line(void **state)
{
	(void)state;
	/* OpenSM reads 4094 bytes at a time: its line numbers count the
	 * pieces */
	size_t n = 5000;
	char *t = malloc(n + 200);
	strcpy(t, "T=0x1 : ");
	while (strlen(t) < 4090)
		strcat(t, "0x10=full, ");
	strcat(t, "0x11=full ;\nU=0x2 : 0x\n");
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = parse(t, d);
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
	assert_true(has_code(d, "long-line", 1, 4095));
	/* the second piece of line 1 begins "full, 0x10=full": OpenSM
	 * reads "full" as a GUID and rejects the file, in its line 2 */
	assert_true(v->rejected);
	assert_string_equal(v->reason, "bad PortGUID");
	assert_int_equal(v->pos.line, 1);
	assert_int_equal(v->pos.col, 4095);
	assert_int_equal(v->opensm_line, 2);
	assert_true(has_code(d, "bad-guid", 2, 9));
	ibp_conf_free(c);
	ibp_diags_free(d);
	free(t);
}

static void test_mgid(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = parse("P=0x12, ipoib, rate=7, mtu=5 :\n"
			    "\tmgid=ff12:401b::1, sl=1,\n"
			    "\tmgid=ff12::5, rate=3, Q_Key=0x22,\n"
			    "\tALL=full ;\n",
			    d);
	assert_int_equal(ibp_conf_error_count(c), 0);
	const ibp_conf_partition *p = ibp_conf_partition_at(c, 0);
	assert_int_equal(ibp_conf_partition_mgid_count(p), 2);
	const ibp_conf_mgid *m = ibp_conf_partition_mgid(p, 0);
	/* an IP group gets the partition's P_Key, full bit set */
	assert_int_equal(m->mgid[4], 0x80);
	assert_int_equal(m->mgid[5], 0x12);
	assert_int_equal(m->flags.qkey, IBP_CONF_IPOIB_QKEY);
	assert_int_equal(m->flags.rate, 7);
	m = ibp_conf_partition_mgid(p, 1);
	assert_int_equal(m->flags.rate, 3);
	assert_int_equal(m->flags.qkey, 0x22);
	assert_int_equal(m->pos.line, 3);
	assert_int_equal(ibp_conf_partition_member_count(p), 1);
	ibp_conf_free(c);
	ibp_diags_free(d);

	/* members after an mgid on the same line are swallowed as flags */
	d = ibp_diags_new();
	c = parse("P=0x12 : mgid=ff12::1, 0x10=full ;\n", d);
	assert_int_equal(
	    ibp_conf_partition_member_count(ibp_conf_partition_at(c, 0)), 0);
	assert_true(has_code(d, "unknown-flag", 1, 24));
	ibp_conf_free(c);
	ibp_diags_free(d);
}

static void test_seed_dialect(void **state)
{
	(void)state;
	ibp_fabric *f = seed_fabric();
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.fabric = f;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = NULL;
	assert_int_equal(
	    ibp_conf_parse_file(path_of("IBP_TESTDATA", "conf/seed-block.conf"),
				&o, &c, d, NULL),
	    0);
	assert_int_equal(ibp_conf_get_dialect(c), IBP_CONF_DIALECT_SEED);
	assert_int_equal(ibp_conf_error_count(c), 0);
	/* OpenSM itself would reject the block */
	assert_true(ibp_conf_opensm_verdict(c)->rejected);
	assert_int_equal(ibp_conf_partition_count(c), 3);
	assert_int_equal(ibp_conf_partition_pkey(ibp_conf_partition_at(c, 0)),
			 0x7fff);
	assert_int_equal(ibp_conf_partition_pkey(ibp_conf_partition_at(c, 1)),
			 1);
	assert_int_equal(ibp_conf_partition_pkey(ibp_conf_partition_at(c, 2)),
			 2);
	const ibp_conf_partition *p = ibp_conf_partition_at(c, 1);
	assert_int_equal(ibp_conf_partition_flags(p)->rate, 21);
	assert_int_equal(ibp_conf_partition_flags(p)->mtu, 5);
	const ibp_conf_member *m = ibp_conf_partition_member(p, 2);
	assert_int_equal(m->kind, IBP_MEMBER_NAME);
	assert_string_equal(m->text, "storage-node");
	assert_true(m->guid == ST);
	assert_int_equal(m->membership, IBP_MEMB_LIMITED);
	const ibp_conf_group *gb = ibp_conf_group_find(c, 2);
	assert_int_equal(
	    ibp_conf_group_port_membership(gb, B1, IBP_NODE_CA, SM, NULL),
	    IBP_MEMB_FULL);
	ibp_conf_free(c);
	ibp_diags_free(d);

	/* an unknown name, and no topology at all, are errors */
	const char *txt = "PartitionConfig {\nT = rate=QDR ;\nnobody = full "
			  ";\nsm-01 = full ;\n}\n";
	d = ibp_diags_new();
	assert_int_equal(
	    ibp_conf_parse_buffer("s.conf", txt, strlen(txt), &o, &c, d, NULL),
	    0);
	assert_int_equal(ibp_conf_error_count(c), 1);
	assert_true(has_code(d, "unresolved-name", 3, 1));
	assert_int_equal(
	    ibp_conf_partition_flags(ibp_conf_partition_at(c, 0))->rate, 7);
	ibp_conf_free(c);
	ibp_diags_free(d);
	d = ibp_diags_new();
	assert_int_equal(ibp_conf_parse_buffer("s.conf", txt, strlen(txt), NULL,
					       &c, d, NULL),
			 0);
	assert_int_equal(ibp_conf_error_count(c), 2);
	ibp_conf_free(c);
	ibp_diags_free(d);
	ibp_fabric_free(f);
}

static void test_rates_mtus(void **state)
{
	(void)state;
	assert_int_equal(ibp_conf_rate_code("SDR"), 3);
	assert_int_equal(ibp_conf_rate_code("ddr"), 6);
	assert_int_equal(ibp_conf_rate_code("QDR"), 7);
	assert_int_equal(ibp_conf_rate_code("FDR"), 12);
	assert_int_equal(ibp_conf_rate_code("EDR"), 16);
	assert_int_equal(ibp_conf_rate_code("HDR"), 17);
	assert_int_equal(ibp_conf_rate_code("NDR"), 21);
	assert_int_equal(ibp_conf_rate_code("XDR"), 23);
	assert_int_equal(ibp_conf_rate_code("PDR"), 0);
	assert_int_equal(ibp_conf_mtu_code(256), 1);
	assert_int_equal(ibp_conf_mtu_code(4096), 5);
	assert_int_equal(ibp_conf_mtu_code(4095), 0);
}

static void test_writer_round_trip(void **state)
{
	(void)state;
	ibp_fabric *f = seed_fabric();
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.fabric = f;
	ibp_conf *c = NULL;
	assert_int_equal(
	    ibp_conf_parse_file(path_of("IBP_TESTDATA", "conf/seed-block.conf"),
				&o, &c, NULL, NULL),
	    0);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	assert_int_equal(ibp_conf_write_opensm(c, f, m, NULL), 0);
	fclose(m);
	ibp_diags *d = ibp_diags_new();
	ibp_conf *back = NULL;
	assert_int_equal(
	    ibp_conf_parse_buffer("out", buf, len, &o, &back, d, NULL), 0);
	if (ibp_diags_count(d))
		ibp_diags_print(d, stderr);
	assert_int_equal(ibp_diags_count(d), 0);
	assert_false(ibp_conf_opensm_verdict(back)->rejected);
	assert_int_equal(ibp_conf_get_dialect(back), IBP_CONF_DIALECT_OPENSM);
	uint64_t ports[] = {SM, UFM, A0, A1, B0, B1, ST};
	for (size_t i = 0; i < ibp_conf_group_count(c); i++) {
		const ibp_conf_group *g = ibp_conf_group_at(c, i);
		const ibp_conf_group *h =
		    ibp_conf_group_find(back, ibp_conf_group_pkey(g));
		assert_non_null(h);
		for (size_t k = 0; k < 7; k++)
			assert_int_equal(
			    ibp_conf_group_port_membership(
				g, ports[k], IBP_NODE_CA, SM, NULL),
			    ibp_conf_group_port_membership(
				h, ports[k], IBP_NODE_CA, SM, NULL));
	}
	ibp_conf_free(back);
	ibp_diags_free(d);
	free(buf);

	/* atomic file: created 0644, and nothing on error */
	char dir[] = "/tmp/test_conf.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof(path), "%s/out.conf", dir);
	assert_int_equal(ibp_conf_write_opensm_path(c, f, path, NULL), 0);
	struct stat sb;
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0644);
	unlink(path);
	snprintf(path, sizeof(path), "%s/no/such/dir/out.conf", dir);
	ibp_error err;
	assert_int_equal(ibp_conf_write_opensm_path(c, f, path, &err), IBP_EIO);
	ibp_conf_free(c);

	/* an unresolved name: refused, nothing created */
	const char *txt =
	    "PartitionConfig {\nT = rate=7 ;\nnobody = full ;\n}\n";
	assert_int_equal(ibp_conf_parse_buffer("s.conf", txt, strlen(txt), &o,
					       &c, NULL, NULL),
			 0);
	snprintf(path, sizeof(path), "%s/out.conf", dir);
	assert_int_equal(ibp_conf_write_opensm_path(c, f, path, &err),
			 IBP_EINVAL);
	assert_int_equal(stat(path, &sb), -1);
	assert_int_equal(rmdir(dir), 0); /* empty: no temp file left */
	ibp_conf_free(c);
	ibp_fabric_free(f);
}

static void test_keywords_and_membership(void **state)
{
	(void)state;
	ibp_conf_options o;
	ibp_conf_options_init(&o, IBP_CONF_OPTIONS_VERSION);
	o.allow_both_pkeys = true;
	const char *txt = "P=0x5 : ALL_SWITCHES=full, ALL_CAS=limited, "
			  "SELF=both, ALL_ROUTERS, NONE ;\n"
			  "Default=0x7fff : SELF=limited ;\n";
	ibp_conf *c = NULL;
	assert_int_equal(ibp_conf_parse_buffer("k.conf", txt, strlen(txt), &o,
					       &c, NULL, NULL),
			 0);
	const ibp_conf_group *g = ibp_conf_group_find(c, 5);
	assert_int_equal(
	    ibp_conf_group_port_membership(g, 1, IBP_NODE_SWITCH, 9, NULL),
	    IBP_MEMB_FULL);
	assert_int_equal(
	    ibp_conf_group_port_membership(g, 1, IBP_NODE_CA, 9, NULL),
	    IBP_MEMB_LIMITED);
	assert_int_equal(
	    ibp_conf_group_port_membership(g, 9, IBP_NODE_CA, 9, NULL),
	    IBP_MEMB_BOTH);
	assert_int_equal(
	    ibp_conf_group_port_membership(g, 1, IBP_NODE_ROUTER, 9, NULL),
	    IBP_MEMB_LIMITED);
	const ibp_conf_partition *p = ibp_conf_partition_at(c, 0);
	assert_int_equal(ibp_conf_partition_member(p, 4)->kind,
			 IBP_MEMBER_NONE);
	/* the file can demote the SM in the default partition */
	const ibp_conf_group *d = ibp_conf_group_find(c, 0x7fff);
	assert_int_equal(ibp_conf_group_partition_count(d), 1);
	assert_int_equal(
	    ibp_conf_group_port_membership(d, 9, IBP_NODE_CA, 9, NULL),
	    IBP_MEMB_LIMITED);
	ibp_conf_free(c);
}

static void test_pkey_conflict(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_conf *c = parse("A=0x3, rate=7 : 0x10=full ;\n"
			    "B=0x3, rate=12 : 0x11=full ;\n"
			    "A=0x3, rate=3 : 0x12=full ;\n",
			    d);
	/* two names, different flags: an error; the same name again: not */
	assert_true(has_code(d, "pkey-conflict", 2, 1));
	assert_false(has_code(d, "pkey-conflict", 3, 0));
	assert_int_equal(ibp_conf_error_count(c), 1);
	assert_int_equal(ibp_conf_opensm_verdict(c)->nmisreadings, 1);
	assert_int_equal(ibp_conf_group_count(c), 2);
	assert_string_equal(ibp_conf_group_name(ibp_conf_group_find(c, 3)),
			    "A");
	ibp_conf_free(c);
	ibp_diags_free(d);
}

static void test_io_errors(void **state)
{
	(void)state;
	ibp_conf *c = (ibp_conf *)1;
	ibp_error err;
	assert_int_equal(
	    ibp_conf_parse_file("/nonexistent/p.conf", NULL, &c, NULL, &err),
	    IBP_EIO);
	assert_null(c);
	assert_string_equal(err.file, "/nonexistent/p.conf");
	/* an empty text is a rejected file, not a failure */
	ibp_diags *d = ibp_diags_new();
	c = parse("", d);
	assert_true(ibp_conf_opensm_verdict(c)->rejected);
	assert_true(has_code(d, "empty-file", 0, 0));
	ibp_conf_free(c);
	ibp_diags_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_read_conf),
	    cmocka_unit_test(test_seed_opensm_file),
	    cmocka_unit_test(test_generated_and_merged),
	    cmocka_unit_test(test_missing_comma),
	    cmocka_unit_test(test_every_problem),
	    cmocka_unit_test(test_crlf_named),
	    cmocka_unit_test(test_long_line),
	    cmocka_unit_test(test_mgid),
	    cmocka_unit_test(test_seed_dialect),
	    cmocka_unit_test(test_rates_mtus),
	    cmocka_unit_test(test_writer_round_trip),
	    cmocka_unit_test(test_keywords_and_membership),
	    cmocka_unit_test(test_pkey_conflict),
	    cmocka_unit_test(test_io_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
