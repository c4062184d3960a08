/*
 * test_topo_write.c - ibp_fabric_write() output reloads into the same
 * fabric (nodes, GUIDs, descriptions, links, unlinked ports stay
 * unlinked); the builder API; node-name-map renaming; LID rule details;
 * the ports' own LIDs and link rates (ibnetdiscover's comments) read,
 * kept and written back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "topo/node_name_map.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "util/diag_lib.h"

static char *path_of(const char *env, const char *rel)
{
	static char buf[4][1024];
	static int i;
	const char *base = getenv(env);
	char *b = buf[i++ % 4];
	snprintf(b, 1024, "%s/%s", base ? base : ".", rel);
	return b;
}

static ibp_fabric *reload(const ibp_fabric *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_non_null(m);
	assert_int_equal(ibp_fabric_write(f, m, NULL), 0);
	fclose(m);
	ibp_diags *d = ibp_diags_new();
	ibp_fabric *g = NULL;
	int rc = ibp_fabric_load_buffer("w.topo", text, len, NULL, &g, d);
	if (rc || ibp_diags_count(d))
		ibp_diags_print(d, stderr);
	assert_int_equal(rc, 0);
	assert_int_equal(ibp_diags_count(d), 0);
	ibp_diags_free(d);
	free(text);
	return g;
}

static void same(const ibp_fabric *a, const ibp_fabric *b)
{
	assert_int_equal(ibp_fabric_node_count(a), ibp_fabric_node_count(b));
	for (size_t n = 0; n < ibp_fabric_node_count(a); n++) {
		assert_int_equal(ibp_fabric_node_type(a, n),
				 ibp_fabric_node_type(b, n));
		assert_true(ibp_fabric_node_guid(a, n) ==
			    ibp_fabric_node_guid(b, n));
		assert_true(ibp_fabric_sysimg_guid(a, n) ==
			    ibp_fabric_sysimg_guid(b, n));
		assert_string_equal(ibp_fabric_node_desc(a, n),
				    ibp_fabric_node_desc(b, n));
		assert_string_equal(ibp_fabric_node_id(a, n),
				    ibp_fabric_node_id(b, n));
		unsigned np = ibp_fabric_node_nports(a, n);
		assert_int_equal(np, ibp_fabric_node_nports(b, n));
		for (unsigned p = 0; p <= np; p++) {
			assert_true(ibp_fabric_port_guid(a, n, p) ==
				    ibp_fabric_port_guid(b, n, p));
			size_t an = 0, bn = 0;
			unsigned ap = 0, bp = 0;
			bool al = ibp_fabric_port_peer(a, n, p, &an, &ap);
			bool bl = ibp_fabric_port_peer(b, n, p, &bn, &bp);
			assert_int_equal(al, bl);
			assert_int_equal(an, bn);
			assert_int_equal(ap, bp);
		}
	}
}

static ibp_fabric *load(const char *path)
{
	ibp_fabric *f = NULL;
	assert_int_equal(ibp_fabric_load(path, NULL, &f, NULL), 0);
	return f;
}

static void test_roundtrip_files(void **state)
{
	(void)state;
	const char *files[][2] = {
	    {"IBP_EXAMPLES", "seed/seed.topo"},
	    {"IBP_TESTDATA", "topo/ibsim-net"},
	    {"IBP_TESTDATA", "topo/ibsim-net.2sw2path4hca2port"},
	    {"IBP_TESTDATA", "topo/ibnetdiscover-seed-s.topo"},
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		ibp_fabric *f = load(path_of(files[i][0], files[i][1]));
		ibp_fabric *g = reload(f);
		same(f, g);
		ibp_fabric_free(g);
		ibp_fabric_free(f);
	}
}

static void test_builder(void **state)
{
	(void)state;
	ibp_fabric_options o;
	ibp_fabric_options_init(&o);
	o.ca_partition_cap = 128;
	o.switch_partition_cap = 16;
	o.enforcement_cap = 32;
	ibp_fabric *f = ibp_fabric_new(&o);
	size_t sw, a, r;
	ibp_error err;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x10, 8,
					     "spine \"x\"", &sw, &err),
			 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x20, 2, "", &a, &err), 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_ROUTER, 0x30, 1, "rt", &r, &err),
	    0);
	/* duplicates and bad arguments */
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x20, 1, "x", NULL, &err),
	    IBP_EINVAL);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x21, 0, "x", NULL, &err),
	    IBP_ERANGE);
	assert_string_equal(ibp_fabric_node_id(f, a), "H-0000000000000020");
	assert_string_equal(ibp_fabric_node_desc(f, a), "H-0000000000000020");
	assert_int_equal(ibp_fabric_set_port_guid(f, a, 2, 0x99, &err), 0);
	assert_int_equal(ibp_fabric_set_port_guid(f, sw, 1, 0x99, &err),
			 IBP_EINVAL);
	assert_int_equal(ibp_fabric_set_port_guid(f, a, 3, 0x98, &err),
			 IBP_ERANGE);
	assert_int_equal(ibp_fabric_link(f, sw, 1, a, 1, &err), 0);
	assert_int_equal(ibp_fabric_link(f, sw, 2, a, 2, &err), 0);
	assert_int_equal(ibp_fabric_link(f, sw, 3, a, 1, &err), IBP_EINVAL);
	assert_int_equal(ibp_fabric_link(f, sw, 0, r, 1, &err), IBP_ERANGE);
	assert_int_equal(ibp_fabric_link(f, sw, 8, r, 1, &err), 0);
	assert_int_equal(ibp_fabric_port_capacity(f, a, 1), 128);
	assert_int_equal(ibp_fabric_port_capacity(f, r, 1), 128);
	assert_int_equal(ibp_fabric_port_capacity(f, sw, 0), 16);
	assert_int_equal(ibp_fabric_port_capacity(f, sw, 5), 32);
	assert_int_equal(ibp_fabric_set_partition_cap(f, a, 8), 0);
	assert_int_equal(ibp_fabric_port_capacity(f, a, 2), 8);
	assert_int_equal(ibp_fabric_set_enforcement_cap(f, a, 8), IBP_EINVAL);
	assert_int_equal(ibp_fabric_set_sysimg_guid(f, a, 0x777), 0);
	size_t n;
	unsigned p;
	assert_int_equal(ibp_fabric_find_port_guid(f, 0x99, &n, &p), 0);
	assert_int_equal(n, a);
	assert_int_equal(p, 2);
	assert_int_equal(ibp_fabric_find_port_guid(f, 0x22, &n, &p),
			 IBP_ENOENT);
	assert_int_equal(ibp_fabric_find_port_guid(f, 0x21, &n, &p), 0);
	assert_string_equal(ibp_node_type_str(ibp_fabric_node_type(f, r)),
			    "RT");
	/* write + reload keeps it (the '"' in a description becomes '\'') */
	ibp_fabric *g = reload(f);
	assert_string_equal(ibp_fabric_node_desc(g, sw), "spine 'x'");
	assert_int_equal(ibp_fabric_port_guid(g, a, 2), 0x99);
	assert_int_equal(ibp_fabric_sysimg_guid(g, a), 0x777);
	assert_true(ibp_fabric_port_peer(g, r, 1, &n, &p));
	assert_int_equal(n, sw);
	assert_int_equal(p, 8);
	ibp_fabric_free(g);
	ibp_fabric_free(f);
}

static void test_name_map(void **state)
{
	(void)state;
	const char *map = "# comment\n\n0x506b4b0300a1b100 \"core switch\"\n"
			  "  0x506b4b0300a1b2ff sm-host   # bare name\n"
			  "0x506b4b0300a1b2ff \"sm-host-2\"\n";
	ibp_diags *d = ibp_diags_new();
	ibp_node_name_map *m;
	assert_int_equal(
	    ibp_node_name_map_load_buffer("m", map, strlen(map), &m, d), 0);
	assert_int_equal(ibp_node_name_map_count(m), 2);
	assert_string_equal(ibp_node_name_map_lookup(m, 0x506b4b0300a1b100),
			    "core switch");
	/* the last name wins, with a warning */
	assert_string_equal(ibp_node_name_map_lookup(m, 0x506b4b0300a1b2ff),
			    "sm-host-2");
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_WARNING), 1);
	assert_null(ibp_node_name_map_lookup(m, 1));
	ibp_node_name_map_free(m);
	ibp_diags_free(d);

	const char *bad = "0x12\nzz \"x\"\n0x13 \"open\n";
	d = ibp_diags_new();
	assert_int_equal(
	    ibp_node_name_map_load_buffer("b", bad, strlen(bad), &m, d),
	    IBP_EPARSE);
	assert_null(m);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 3);
	assert_int_equal(ibp_diags_get(d, 1)->line, 2);
	assert_int_equal(ibp_diags_get(d, 1)->col, 1);
	ibp_diags_free(d);

	/* through the loader: renamed nodes, found by their new names */
	char tmpl[] = "/tmp/ibp-nnm-XXXXXX";
	int fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	FILE *fp = fdopen(fd, "w");
	fputs("0x506b4b0300a1b100 \"core switch\"\n", fp);
	fclose(fp);
	ibp_fabric_options o;
	ibp_fabric_options_init(&o);
	o.node_name_map = tmpl;
	ibp_fabric *f;
	assert_int_equal(
	    ibp_fabric_load(path_of("IBP_EXAMPLES", "seed/seed.topo"), &o, &f,
			    NULL),
	    0);
	size_t n;
	assert_int_equal(ibp_fabric_find_desc(f, "core switch", &n), 0);
	assert_int_equal(ibp_fabric_node_type(f, n), IBP_NODE_SWITCH);
	assert_int_equal(ibp_fabric_find_desc(f, "leaf-01", &n), IBP_ENOENT);
	ibp_fabric_free(f);
	/* a broken map fails the load */
	fp = fopen(tmpl, "w");
	fputs("nonsense\n", fp);
	fclose(fp);
	d = ibp_diags_new();
	assert_int_equal(
	    ibp_fabric_load(path_of("IBP_EXAMPLES", "seed/seed.topo"), &o, &f,
			    d),
	    IBP_EPARSE);
	assert_null(f);
	ibp_diags_free(d);
	unlink(tmpl);
}

static void test_lid_rule(void **state)
{
	(void)state;
	/* ibsim-net: Hca1 port 2 and Hca2 port 1 are not linked: OpenSM
	 * does not reach them, they get no LID (measured with OpenSM) */
	ibp_fabric *f = load(path_of("IBP_TESTDATA", "topo/ibsim-net"));
	ibp_error err;
	assert_int_equal(ibp_fabric_assign_lids(f, 0x100001, &err), 0);
	assert_int_equal(ibp_fabric_port_lid(f, 2, 1), 1);
	assert_int_equal(ibp_fabric_port_lid(f, 2, 2), 0);
	assert_int_equal(ibp_fabric_port_lid(f, 3, 1), 0);
	/* the rest by byte-reversed GUID: 0x200000 < 0x200001 <
	 * 0x100005 compared from the low byte up (00, 01, 05), as OpenSM
	 * gave them */
	assert_int_equal(ibp_fabric_port_lid(f, 0, 0), 2);
	assert_int_equal(ibp_fabric_port_lid(f, 0, 5), 2);
	assert_int_equal(ibp_fabric_port_lid(f, 1, 0), 3);
	assert_int_equal(ibp_fabric_port_lid(f, 3, 2), 4);
	size_t n;
	unsigned p;
	assert_int_equal(ibp_fabric_find_lid(f, 4, &n, &p), 0);
	assert_int_equal(n, 3);
	assert_int_equal(p, 2);
	assert_int_equal(ibp_fabric_find_lid(f, 5, &n, &p), IBP_ENOENT);
	/* an unknown SM port */
	assert_int_equal(ibp_fabric_assign_lids(f, 0x4242, &err), IBP_ENOENT);
	ibp_fabric_free(f);
}

/* A description the format cannot hold (a quote, a line break, a control
 * byte) is written changed, and each such node gets one warning saying
 * so; a plain one gets none.  The file still reads back, one node per
 * header, with the replaced descriptions. */
static void test_desc_replaced_warns(void **state)
{
	(void)state;
	ibp_fabric *f = ibp_fabric_new(NULL);
	assert_non_null(f);
	size_t sw, a, b, c;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x100, 4,
					     "leaf", &sw, NULL),
			 0);
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_CA, 0x200, 1,
					     "evil\" [1] injected", &a, NULL),
			 0);
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_CA, 0x300, 1,
					     "two\nlines\r\x1b[2K", &b, NULL),
			 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x400, 1, "plain", &c, NULL),
	    0);
	assert_int_equal(ibp_fabric_link(f, a, 1, sw, 1, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, b, 1, sw, 2, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, c, 1, sw, 3, NULL), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_non_null(m);
	ibp_diags *d = ibp_diags_new();
	assert_int_equal(ibp_fabric_write_diags(f, m, "out.topo", d, NULL), 0);
	fclose(m);
	assert_int_equal(ibp_diags_count(d), 2);
	const ibp_diag *w0 = ibp_diags_get(d, 0), *w1 = ibp_diags_get(d, 1);
	assert_int_equal(w0->severity, IBP_SEV_WARNING);
	assert_string_equal(w0->code, "desc-replaced");
	assert_string_equal(w0->file, "out.topo");
	assert_non_null(strstr(w0->message, "0x0000000000000200"));
	assert_non_null(strstr(w0->message, "a double quote (written as ')"));
	assert_null(strstr(w0->message, "line break"));
	assert_non_null(strstr(w1->message, "0x0000000000000300"));
	assert_non_null(strstr(w1->message, "a line break, a control byte"));
	assert_null(strstr(w1->message, "double quote"));
	/* nothing raw in the file: one header line per node, the quote
	 * and the line breaks replaced */
	assert_non_null(strstr(text, "# \"evil' [1] injected\""));
	assert_non_null(strstr(text, "# \"two lines  [2K\""));
	assert_null(memchr(text, '\r', len));
	assert_null(memchr(text, 0x1b, len));
	ibp_fabric *g = NULL;
	assert_int_equal(
	    ibp_fabric_load_buffer("out.topo", text, len, NULL, &g, NULL), 0);
	assert_int_equal(ibp_fabric_node_count(g), 4);
	size_t n;
	assert_int_equal(ibp_fabric_find_node_guid(g, 0x300, &n), 0);
	assert_string_equal(ibp_fabric_node_desc(g, n), "two lines  [2K");
	ibp_fabric_free(g);
	/* ibp_fabric_write() writes the same bytes, without diags */
	char *text2 = NULL;
	size_t len2 = 0;
	m = open_memstream(&text2, &len2);
	assert_int_equal(ibp_fabric_write(f, m, NULL), 0);
	fclose(m);
	assert_int_equal(len, len2);
	assert_memory_equal(text, text2, len);
	free(text);
	free(text2);
	ibp_diags_free(d);
	ibp_fabric_free(f);
}

/* ibnetdiscover's comments: a switch's "base port 0 lid L lmc M", a CA
 * port's "lid L lmc M" and the link's "lid L 4xSDR" are read into the
 * ports' PortInfo view, survive a write and a reload, and a description
 * that itself says "lid" does not fool the reader. */
static void test_port_link_comments(void **state)
{
	(void)state;
	static const char text[] =
	    "switchguid=0x20(20)\n"
	    "Switch\t3 \"S-20\"\t\t# \"lid 9 lmc 3 port 0 lid 99\" base port 0 "
	    "lid 2 lmc 1\n"
	    "[1]\t\"H-10\"[1](11)\t\t# \"a lid 4xQDR\" lid 5 4xEDR\n"
	    "[2]\t\"H-30\"[1](31)\t\t# \"old\"\n"
	    "\n"
	    "caguid=0x10\n"
	    "Ca\t1 \"H-10\"\t\t# \"a lid 4xQDR\"\n"
	    "[1](11)\t\"S-20\"[1]\t\t# lid 5 lmc 2 \"sw\" lid 2 4xEDR\n"
	    "\n"
	    "caguid=0x30\n"
	    "Ca\t1 \"H-30\"\t\t# \"old\"\n"
	    "[1](31)\t\"S-20\"[2]\t\t# \"sw\" lid 2 bogus\n";
	ibp_fabric *f = NULL;
	ibp_diags *d = ibp_diags_new();
	assert_int_equal(ibp_fabric_load_buffer("c.topo", text,
						sizeof(text) - 1, NULL, &f, d),
			 0);
	assert_int_equal(ibp_diags_count(d), 0);
	size_t sw, ca, old;
	assert_int_equal(ibp_fabric_find_node_guid(f, 0x20, &sw), 0);
	assert_int_equal(ibp_fabric_find_node_guid(f, 0x10, &ca), 0);
	assert_int_equal(ibp_fabric_find_node_guid(f, 0x30, &old), 0);
	for (int round = 0; round < 2; round++) {
		ibp_port_link l;
		assert_true(ibp_fabric_port_link(f, sw, 0, &l));
		assert_int_equal(l.lid, 2);
		assert_int_equal(l.lmc, 1);
		assert_true(ibp_fabric_port_link(f, sw, 1, &l));
		assert_int_equal(l.lid, 0); /* external ports have no LID */
		assert_int_equal(l.width_active, 2);
		assert_int_equal(l.speed_ext_active, 2);
		assert_true(ibp_fabric_port_link(f, ca, 1, &l));
		assert_int_equal(l.lid, 5);
		assert_int_equal(l.lmc, 2);
		char rate[16];
		assert_true(ibp_port_link_rate(&l, rate, sizeof(rate)));
		assert_string_equal(rate, "4xEDR");
		/* a rate the spec does not name is not a rate */
		assert_false(ibp_fabric_port_link(f, old, 1, &l));
		assert_int_equal(l.width_active, 0);
		ibp_fabric *g = reload(f);
		ibp_fabric_free(f);
		f = g;
	}
	ibp_diags_free(d);
	ibp_fabric_free(f);
}

/* Every width and speed the spec names, formatted and parsed back. */
static void test_port_link_rates(void **state)
{
	(void)state;
	static const struct {
		uint8_t w, s, e;
		const char *name;
	} t[] = {{1, 1, 0, "1xSDR"},  {2, 2, 0, "4xDDR"},  {4, 4, 0, "8xQDR"},
		 {8, 4, 1, "12xFDR"}, {16, 1, 4, "2xHDR"}, {2, 4, 8, "4xNDR"}};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ibp_port_link l = {.width_active = t[i].w,
				   .speed_active = t[i].s,
				   .speed_ext_active = t[i].e};
		char buf[16];
		assert_true(ibp_port_link_rate(&l, buf, sizeof(buf)));
		assert_string_equal(buf, t[i].name);
	}
	ibp_port_link bad = {.width_active = 3, .speed_active = 1};
	char buf[16];
	assert_false(ibp_port_link_rate(&bad, buf, sizeof(buf)));
	assert_string_equal(buf, "");
	bad.width_active = 2;
	bad.speed_active = 0;
	assert_false(ibp_port_link_rate(&bad, buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip_files),
	    cmocka_unit_test(test_builder),
	    cmocka_unit_test(test_name_map),
	    cmocka_unit_test(test_lid_rule),
	    cmocka_unit_test(test_desc_replaced_warns),
	    cmocka_unit_test(test_port_link_comments),
	    cmocka_unit_test(test_port_link_rates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
