/*
 * test_topo_errors.c - malformed topologies: every problem is reported
 * with file:line:col and a stable code, loading fails with IBP_EPARSE and
 * yields no fabric; harmless oddities are warnings.
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
#include "util/diag_lib.h"

/* Load text; return the diags (caller frees) and the status. */
static ibp_diags *load(const char *text, int *rc, ibp_fabric **f)
{
	ibp_diags *d = ibp_diags_new();
	*rc = ibp_fabric_load_buffer("t.topo", text, strlen(text), NULL, f, d);
	return d;
}

/* Is there an error with this code at line:col? */
static bool has(const ibp_diags *d, ibp_severity sev, const char *code,
		unsigned line, unsigned col)
{
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *g = ibp_diags_get(d, i);
		if (g->severity == sev && !strcmp(g->code, code) &&
		    g->line == line && (col == 0 || g->col == col) &&
		    !strcmp(g->file, "t.topo"))
			return true;
	}
	ibp_diags_print(d, stderr);
	return false;
}

static void expect_error(const char *text, const char *code, unsigned line,
			 unsigned col)
{
	int rc;
	ibp_fabric *f = (ibp_fabric *)1;
	ibp_diags *d = load(text, &rc, &f);
	assert_int_equal(rc, IBP_EPARSE);
	assert_null(f);
	assert_true(has(d, IBP_SEV_ERROR, code, line, col));
	ibp_diags_free(d);
}

#define SW "switchguid=0x10\nSwitch\t4 \"S-1\"\t# \"sw\"\n"

static void test_syntax(void **state)
{
	(void)state;
	/* header without a port count */
	expect_error("Switch \"S-1\"\n", "syntax", 1, 8);
	/* port count out of range */
	expect_error("Switch 255 \"S-1\"\n", "port-range", 1, 8);
	expect_error("Ca 0 \"H-1\"\n", "port-range", 1, 4);
	/* unterminated id */
	expect_error("Ca 1 \"H-1\n", "unterminated-string", 1, 6);
	/* bad GUID */
	expect_error("caguid=0xZZ\nCa 1 \"H\"\n", "bad-guid", 1, 8);
	expect_error("caguid 5\n", "syntax", 1, 8);
	/* port line with garbage */
	expect_error(SW "[x]\t\"H\"[1]\n", "syntax", 3, 2);
	expect_error(SW "[1](0xq)\t\"H\"[1]\n", "bad-guid", 3, 0);
	/* port line outside a record */
	expect_error(SW "\n[1]\t\"H\"[1]\n", "syntax", 4, 1);
	/* ibsim extensions we do not model */
	expect_error("include \"x\"\n", "unsupported", 1, 1);
	/* reserved characters in ids */
	expect_error("Ca 1 \"H#1\"\n", "bad-node-id", 1, 7);
	/* a router needs its GUID */
	expect_error("Rt 1 \"R\"\n", "missing-guid", 1, 1);
	/* no nodes at all */
	expect_error("# nothing\n", "empty", 0, 0);
}

static void test_semantics(void **state)
{
	(void)state;
	/* port out of range on the node and on the peer */
	expect_error(SW "[5]\t\"H\"[1]\n\nCa 1 \"H\"\n[1]\t\"S-1\"[5]\n",
		     "port-range", 3, 2);
	expect_error(SW "[1]\t\"H\"[3]\n\nCa 1 \"H\"\n[1]\t\"S-1\"[1]\n",
		     "port-range", 3, 0);
	/* link to an unknown node */
	expect_error(SW "[1]\t\"H-nope\"[1]\n", "unknown-node", 3, 5);
	/* one-sided link (ibsim refuses it too) */
	expect_error(SW "[1]\t\"H\"[1]\n\nCa 1 \"H\"\n", "peer-mismatch", 3, 5);
	/* inconsistent: H says it is on S-1 port 2 */
	expect_error(SW "[1]\t\"H\"[1]\n[2]\t\"X\"[1]\n\nCa 1 \"H\"\n"
			"[1]\t\"S-1\"[2]\n\nCa 1 \"X\"\n[1]\t\"S-1\"[2]\n",
		     "peer-mismatch", 3, 0);
	/* a port listed twice */
	expect_error(SW "[1]\t\"H\"[1]\n[1]\t\"H\"[1]\n\nCa 1 \"H\"\n"
			"[1]\t\"S-1\"[1]\n",
		     "duplicate-port", 4, 2);
	/* duplicate node ids and GUIDs */
	expect_error("caguid=0x100\nCa 1 \"H\"\n\ncaguid=0x200\nCa 1 \"H\"\n",
		     "duplicate-node-id", 5, 6);
	expect_error("caguid=0x100\nCa 1 \"A\"\n\ncaguid=0x100\nCa 1 \"B\"\n",
		     "duplicate-guid", 5, 1);
	/* port GUID given twice */
	expect_error(SW "[1]\t\"A\"[1]\n[2]\t\"B\"[1]\n\n"
			"caguid=0x100\nCa 1 \"A\"\n[1](0x777)\t\"S-1\"[1]\n\n"
			"caguid=0x200\nCa 1 \"B\"\n[1](777)\t\"S-1\"[2]\n",
		     "duplicate-guid", 12, 0);
}

static void test_all_errors_reported(void **state)
{
	(void)state;
	int rc;
	ibp_fabric *f;
	ibp_diags *d = load("Switch x \"S\"\n\nCa 0 \"H\"\n\ncaguid=\n"
			    "Ca 1 \"Y\"\n[1]\t\"nowhere\"[1]\n",
			    &rc, &f);
	assert_int_equal(rc, IBP_EPARSE);
	assert_true(has(d, IBP_SEV_ERROR, "syntax", 1, 8));
	assert_true(has(d, IBP_SEV_ERROR, "port-range", 3, 4));
	assert_true(has(d, IBP_SEV_ERROR, "bad-guid", 5, 8));
	assert_true(has(d, IBP_SEV_ERROR, "unknown-node", 7, 5));
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 4);
	ibp_diags_free(d);
}

static void test_warnings_only(void **state)
{
	(void)state;
	int rc;
	ibp_fabric *f;
	/* an unknown line and an unknown option: warnings, the fabric
	 * loads; a wrong "(peer GUID)" is a warning too */
	ibp_diags *d =
	    load("hello there\n" SW "[1]\t\"H\"[1](0x999) x=3\n\n"
		 "caguid=0x100\nCa 1 \"H\"\n[1]\t\"S-1\"[1]\t# lid 2 lmc 0\n",
		 &rc, &f);
	assert_int_equal(rc, 0);
	assert_non_null(f);
	assert_true(has(d, IBP_SEV_WARNING, "ignored-line", 1, 1));
	assert_true(has(d, IBP_SEV_WARNING, "guid-mismatch", 4, 0));
	assert_true(has(d, IBP_SEV_WARNING, "ignored-text", 4, 0));
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 0);
	ibp_fabric_free(f);
	ibp_diags_free(d);
	/* a description NodeDescription cannot hold */
	d = load("Ca 1 \"H\" # \"0123456789012345678901234567890123456789"
		 "0123456789012345678901234\"\n",
		 &rc, &f);
	assert_int_equal(rc, 0);
	assert_true(has(d, IBP_SEV_WARNING, "long-description", 1, 10));
	ibp_fabric_free(f);
	ibp_diags_free(d);
}

static void test_crlf_and_dialects(void **state)
{
	(void)state;
	int rc;
	ibp_fabric *f;
	/* CRLF, "Hca", no "[q]" (ibsim: peer port 1), relative GUIDs, an
	 * unquoted description ending at " lid " */
	ibp_diags *d =
	    load("switchguid=0x50\r\nSwitch 2 \"S\" # leaf one lid 3 "
		 "lmc 0\r\n[2] \"A\"\r\n\r\n"
		 "hcaguids=0x1000\r\nhcaguids+0x10\r\n"
		 "Hca 1 \"A\"\r\n[1] \"S\"[2] w=4\r\n",
		 &rc, &f);
	if (rc)
		ibp_diags_print(d, stderr);
	assert_int_equal(rc, 0);
	assert_string_equal(ibp_fabric_node_desc(f, 0), "leaf one");
	assert_int_equal(ibp_fabric_node_guid(f, 1), 0x1010);
	assert_int_equal(ibp_fabric_port_guid(f, 1, 1), 0x1011);
	size_t pn;
	unsigned pp;
	assert_true(ibp_fabric_port_peer(f, 0, 2, &pn, &pp));
	assert_int_equal(pn, 1);
	assert_int_equal(pp, 1);
	ibp_fabric_free(f);
	ibp_diags_free(d);
}

static void test_missing_file(void **state)
{
	(void)state;
	ibp_diags *d = ibp_diags_new();
	ibp_fabric *f;
	assert_int_equal(ibp_fabric_load("/nonexistent/x.topo", NULL, &f, d),
			 IBP_EIO);
	assert_null(f);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 1);
	ibp_diags_free(d);
}

/* A buffer that ends without a NUL: nothing reads past len (ASan
 * catches a read of the byte after an exact-size heap copy). */
static void test_unterminated_buffer(void **state)
{
	(void)state;
	static const char *const texts[] = {
	    "include", "module", "do", "Switch 2 \"S-1\"", "[1]", "caguid=0x1"};
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		size_t n = strlen(texts[i]);
		char *buf = malloc(n);
		assert_non_null(buf);
		memcpy(buf, texts[i], n);
		ibp_diags *d = ibp_diags_new();
		ibp_fabric *f = NULL;
		int rc = ibp_fabric_load_buffer("t.topo", buf, n, NULL, &f, d);
		/* ibsim's extensions are refused; the rest may load */
		if (i < 3)
			assert_int_not_equal(rc, IBP_OK);
		ibp_fabric_free(f);
		ibp_diags_free(d);
		free(buf);
	}
}

/* The written fabric (malloc'd), NULL for none. */
static char *written(const ibp_fabric *f)
{
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);
	assert_non_null(mem);
	assert_int_equal(ibp_fabric_write(f, mem, NULL), IBP_OK);
	fclose(mem);
	return buf;
}

/* The fast path for the common port line reads every line as the
 * general parser does: the same status, diagnostics and fabric, on
 * lines of the common shape and on every near miss of it. */
static void test_fast_path_same(void **state)
{
	(void)state;
	static const char *const lines[] = {
	    "[1](21)\t\"H-1\"[1](11)\t\t# \"ca\"",
	    "[1]\t\"H-1\"[1](11)\t\t# \"ca\" lid 3 4xQDR",
	    "[1](21) \"H-1\"[1](11) # lid 5 lmc 1 \"ca\" lid 3 4xEDR",
	    "[1]\t\"H-1\"[1]",
	    "[1]\t\"H-1\"",
	    "[1]\t\"H-1\"(11)",
	    "[1]\t\"H-1\"[1](11)",
	    "[1]\t\"H-1\"[1](11)\r",
	    "[1]\t\"H-1\"[1](11)\t# \"ca\"\r",
	    "[1]\t\"H-1\"[1](11) w=4",
	    "[1]\t\"H-1\"[1](11) x",
	    "[1]\t\"H-1\"[1](11)\r x",
	    "[1](0x21)\t\"H-1\"[1](11)",
	    "[1](0)\t\"H-1\"[1](11)",
	    "[1]()\t\"H-1\"[1](11)",
	    "[1](21\t\"H-1\"[1](11)",
	    "[1](00000000000000021)\t\"H-1\"[1](11)",
	    "[1](1ffffffffffffffff)\t\"H-1\"[1](11)",
	    "[0x1]\t\"H-1\"[1](11)",
	    "[01]\t\"H-1\"[1](11)",
	    "[0001]\t\"H-1\"[1](11)",
	    "[0]\t\"H-1\"[1](11)",
	    "[5]\t\"H-1\"[1](11)",
	    "[1a]\t\"H-1\"[1](11)",
	    "[1]\t\"H-1\"[0](11)",
	    "[1]\t\"H-1\"[255](11)",
	    "[1]\t\"H-1\"[2](11)",
	    "[1]\t\"H-1\"[1](12)",
	    "[1]\t\"H-1\"[1](0x11)",
	    "[1]\t\"H-1\"[1](11",
	    "[1]\t\"H-2\"[1](11)",
	    "[1]\t\"\"[1](11)",
	    "[1]\t\"H#1\"[1](11)",
	    "[1]\t\"H@1\"[1](11)",
	    "[1]\t\"H-1[1](11)",
	    "[1]\tH-1[1](11)",
	    "[1]",
	    "[1",
	    "[",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		for (int twice = 0; twice < 2; twice++) {
			char text[512];
			snprintf(
			    text, sizeof(text),
			    "switchguid=0x10\nSwitch\t4 \"S-1\"\t# \"sw\"\n"
			    "%s\n%s"
			    "\ncaguid=0x10\nCa\t1 \"H-1\"\t# \"ca\"\n"
			    "[1](11)\t\"S-1\"[1]\t# \"sw\"\n",
			    lines[i], twice ? "[2]\t\"H-1\"[1]\n" : "");
			int rc[2];
			ibp_fabric *f[2] = {NULL, NULL};
			char *json[2], *out[2];
			for (int k = 0; k < 2; k++) {
				ibp_diags *d = ibp_diags_new();
				rc[k] = (k ? topo_load_buffer_general
					   : ibp_fabric_load_buffer)(
				    "t.topo", text, strlen(text), NULL, &f[k],
				    d);
				json[k] = ibp_diags_to_json(d);
				out[k] = written(f[k]);
				ibp_diags_free(d);
				ibp_fabric_free(f[k]);
			}
			assert_int_equal(rc[0], rc[1]);
			assert_string_equal(json[0], json[1]);
			assert_true(!out[0] == !out[1]);
			if (out[0])
				assert_string_equal(out[0], out[1]);
			for (int k = 0; k < 2; k++) {
				free(json[k]);
				free(out[k]);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_syntax),
	    cmocka_unit_test(test_semantics),
	    cmocka_unit_test(test_all_errors_reported),
	    cmocka_unit_test(test_warnings_only),
	    cmocka_unit_test(test_crlf_and_dialects),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_unterminated_buffer),
	    cmocka_unit_test(test_fast_path_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
