/*
 * test_analysis_input.c - the analysis input through the public API:
 * loaded from the seed plan and topology; loaded from the tables JSON the
 * library's writer produced, giving the same tables; a malformed or
 * mismatched tables file is a located error; switch enforcement read
 * from the file; the one both|in|out|off parser round-trips.
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

#include "ibpart/analysis_input.h"
#include "analysis/analysis_input_lib.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "analysis/analysis_lib.h"
#include "util/diag_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

#define SM 0x506b4b0300a1b300ull

static char *path_of(const char *env, const char *rel)
{
	const char *base = getenv(env);
	static char buf[4][1024];
	static int i;
	char *b = buf[i++ % 4];
	snprintf(b, 1024, "%s/%s", base ? base : ".", rel);
	return b;
}

/* A file in a fresh temporary directory, holding text. */
static char *temp_file(const char *text)
{
	const char *t = getenv("TMPDIR");
	char tmpl[1024];
	snprintf(tmpl, sizeof(tmpl), "%s/ibp-ai-XXXXXX", t ? t : "/tmp");
	assert_non_null(mkdtemp(tmpl));
	static char path[1100];
	snprintf(path, sizeof(path), "%s/tables.json", tmpl);
	if (text) {
		FILE *fp = fopen(path, "w");
		assert_non_null(fp);
		fputs(text, fp);
		fclose(fp);
	}
	return path;
}

static void remove_temp(const char *path)
{
	char dir[1100];
	snprintf(dir, sizeof(dir), "%s", path);
	unlink(path);
	*strrchr(dir, '/') = 0;
	rmdir(dir);
}

static ibp_analysis_input *load_plan(ibp_policy_mode mode)
{
	ibp_analysis_input_options o;
	ibp_analysis_input_options_init(&o, IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	o.topology_path = path_of("IBP_EXAMPLES", "seed/seed.topo");
	o.plan_path = path_of("IBP_EXAMPLES", "seed/partitions.conf");
	o.mode = mode;
	ibp_analysis_input *in = NULL;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	assert_int_equal(ibp_analysis_input_load(&o, &in, d, &err), IBP_OK);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 0);
	ibp_diags_free(d);
	return in;
}

static void test_from_plan(void **state)
{
	(void)state;
	ibp_analysis_input *in = load_plan(IBP_POLICY_OPENSM);
	const ibp_fabric *f = ibp_analysis_input_fabric(in);
	assert_non_null(f);
	assert_non_null(ibp_analysis_input_conf(in));
	assert_true(ibp_tables_count(ibp_analysis_input_tables(in)) > 0);
	assert_string_equal(ibp_analysis_input_mode(in), "opensm");
	size_t n;
	unsigned p;
	ibp_analysis_input_sm_port(in, &n, &p);
	assert_true(ibp_fabric_port_guid(f, n, p) == SM);
	assert_string_equal(ibp_analysis_input_partition_name(in, 0x0001),
			    "TenantA");
	assert_string_equal(ibp_analysis_input_partition_names(in)[0x0002],
			    "TenantB");
	assert_null(ibp_analysis_input_partition_name(in, 0x0abc));
	assert_non_null(ibp_analysis_input_unplaced(in));
	/* the seed plan is sound: no finding about the plan itself, but
	 * the SM port was assumed (no --sm-port): one info finding, and
	 * the multicast groups its IPoIB partitions need, well within the
	 * switches' MulticastFDBCap: another */
	assert_int_equal(ibp_analysis_input_sm_port_source(in),
			 IBP_SM_PORT_FIRST_CA);
	ibp_findings *fs = ibp_findings_new();
	assert_int_equal(ibp_analysis_input_plan_findings(in, fs), 0);
	assert_int_equal(ibp_findings_count(fs), 2);
	assert_string_equal(ibp_findings_get(fs, 0)->code, "sm-port-assumed");
	assert_int_equal(ibp_findings_get(fs, 0)->severity, IBP_AUDIT_INFO);
	assert_string_equal(ibp_findings_get(fs, 1)->code, "multicast-groups");
	assert_int_equal(ibp_findings_get(fs, 1)->severity, IBP_AUDIT_INFO);
	ibp_audit_input ai;
	ibp_analysis_input_audit_input(in, &ai);
	assert_ptr_equal(ai.tables, ibp_analysis_input_tables(in));
	assert_null(ai.tenants);
	assert_int_equal(ibp_audit_run(&ai, fs, NULL), 0);
	ibp_findings_free(fs);
	ibp_analysis_input_free(in);
}

/* The plan as a buffer (issue 24: ibpartd hands its rendering over as
 * it is, not through a memfd path): the same tables as the file gives;
 * a buffer the strict mode refuses is located under plan_path's name. */
static void test_from_buffer(void **state)
{
	(void)state;
	ibp_analysis_input *file = load_plan(IBP_POLICY_OPENSM);
	const char *path = path_of("IBP_EXAMPLES", "seed/partitions.conf");
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char text[65536];
	size_t len = fread(text, 1, sizeof(text), f);
	fclose(f);
	ibp_analysis_input_options o;
	ibp_analysis_input_options_init(&o, IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	o.topology_path = path_of("IBP_EXAMPLES", "seed/seed.topo");
	o.plan_text = text;
	o.plan_len = len;
	ibp_analysis_input *buf = NULL;
	ibp_error err;
	assert_int_equal(ibp_analysis_input_load(&o, &buf, NULL, &err), IBP_OK);
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	FILE *fa = open_memstream(&a, &alen), *fb = open_memstream(&b, &blen);
	assert_int_equal(ibp_tables_write_json(ibp_analysis_input_tables(file),
					       "opensm", SM, fa, &err),
			 IBP_OK);
	assert_int_equal(ibp_tables_write_json(ibp_analysis_input_tables(buf),
					       "opensm", SM, fb, &err),
			 IBP_OK);
	fclose(fa);
	fclose(fb);
	assert_true(alen > 100);
	assert_string_equal(a, b);
	free(a);
	free(b);
	ibp_analysis_input_free(buf);
	ibp_analysis_input_free(file);
	/* a line without ':' (tests/data/audit/rejected.conf's) */
	static const char bad[] = "Default=0x7fff, ipoib : ALL=full ;\n"
				  "TenantA=0x0001 0x506b4b0300a1b200=full ;\n";
	o.plan_text = bad;
	o.plan_len = sizeof(bad) - 1;
	o.plan_path = "partitions.conf";
	o.mode = IBP_POLICY_STRICT;
	assert_int_not_equal(ibp_analysis_input_load(&o, &buf, NULL, &err),
			     IBP_OK);
	assert_string_equal(err.file, "partitions.conf");
}

/* Written by the library's writer, read back: the same tables. */
static void test_from_tables_json(void **state)
{
	(void)state;
	ibp_analysis_input *plan = load_plan(IBP_POLICY_STRICT);
	const ibp_tables *ts = ibp_analysis_input_tables(plan);
	char *path = temp_file(NULL);
	ibp_error err;
	assert_int_equal(
	    ibp_tables_write_json_path(ts, "strict", SM, path, &err), IBP_OK);
	ibp_analysis_input_options o;
	ibp_analysis_input_options_init(&o, IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	o.fabric = ibp_analysis_input_fabric(plan); /* borrowed */
	o.tables_path = path;
	ibp_analysis_input *in = NULL;
	assert_int_equal(ibp_analysis_input_load(&o, &in, NULL, &err), IBP_OK);
	assert_null(ibp_analysis_input_conf(in));
	assert_null(ibp_analysis_input_unplaced(in));
	assert_false(ibp_analysis_input_has_enforcement(in));
	assert_string_equal(ibp_analysis_input_mode(in), "strict");
	const ibp_tables *back = ibp_analysis_input_tables(in);
	assert_int_equal(ibp_tables_count(back), ibp_tables_count(ts));
	for (size_t i = 0; i < ibp_tables_count(ts); i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &n, &p);
		assert_true(
		    ibp_pkey_table_equal(t, ibp_tables_get(back, n, p)));
	}
	ibp_analysis_input_free(in);
	remove_temp(path);
	ibp_analysis_input_free(plan);
}

static int load_tables_text(const char *text, ibp_analysis_input **in,
			    ibp_error *err, char **path_out)
{
	char *path = temp_file(text);
	ibp_analysis_input_options o;
	ibp_analysis_input_options_init(&o, IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	o.topology_path = path_of("IBP_EXAMPLES", "seed/seed.topo");
	o.tables_path = path;
	int rc = ibp_analysis_input_load(&o, in, NULL, err);
	*path_out = path;
	return rc;
}

static void test_bad_tables_json(void **state)
{
	(void)state;
	ibp_analysis_input *in = (ibp_analysis_input *)1;
	ibp_error err;
	char *path;
	assert_int_equal(load_tables_text("{\"ports\": [\n  {\"port\": }\n",
					  &in, &err, &path),
			 IBP_EPARSE);
	assert_null(in);
	assert_string_equal(err.file, path);
	assert_int_equal(err.line, 2);
	assert_true(err.col > 0);
	remove_temp(path);
	/* a port this topology does not have */
	assert_int_equal(
	    load_tables_text("{\"ports\": [{\"node_guid\": \"0x1234\", "
			     "\"port\": 1, \"pkeys\": []}]}",
			     &in, &err, &path),
	    IBP_ENOENT);
	assert_non_null(strstr(err.message, "no such port in the topology"));
	assert_string_equal(err.file, path);
	remove_temp(path);
	/* an enforcement that is none of both, in, out, off */
	assert_int_equal(
	    load_tables_text("{\"ports\": [{\"node_guid\": "
			     "\"0x506b4b0300a1b100\", \"port\": 3, "
			     "\"pkeys\": [], \"enforcement\": \"sometimes\"}]}",
			     &in, &err, &path),
	    IBP_EPARSE);
	assert_non_null(strstr(err.message, "enforcement"));
	remove_temp(path);
	/* options: no fabric; both a plan and tables */
	ibp_analysis_input_options o;
	ibp_analysis_input_options_init(&o, IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	o.plan_path = "x.conf";
	assert_int_equal(ibp_analysis_input_load(&o, &in, NULL, &err),
			 IBP_EINVAL);
	o.topology_path = path_of("IBP_EXAMPLES", "seed/seed.topo");
	o.tables_path = "x.json";
	assert_int_equal(ibp_analysis_input_load(&o, &in, NULL, &err),
			 IBP_EINVAL);
}

/* Strict mode refuses a plan OpenSM rejects, at the place it gives up. */
static void test_strict_rejected(void **state)
{
	(void)state;
	ibp_analysis_input_options o;
	ibp_analysis_input_options_init(&o, IBP_ANALYSIS_INPUT_OPTIONS_VERSION);
	o.topology_path = path_of("IBP_TESTDATA", "audit/seed.topo");
	o.plan_path = path_of("IBP_TESTDATA", "audit/rejected.conf");
	o.mode = IBP_POLICY_STRICT;
	ibp_analysis_input *in;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	assert_int_equal(ibp_analysis_input_load(&o, &in, d, &err), IBP_EPARSE);
	assert_null(in);
	assert_string_equal(err.file, o.plan_path);
	assert_true(err.line > 0);
	assert_true(ibp_diags_count(d) > 0); /* the plan's own findings */
	ibp_diags_free(d);
	/* opensm mode models the fall-back: plan-rejected */
	o.mode = IBP_POLICY_OPENSM;
	assert_int_equal(ibp_analysis_input_load(&o, &in, NULL, &err), IBP_OK);
	ibp_findings *fs = ibp_findings_new();
	assert_int_equal(ibp_analysis_input_plan_findings(in, fs), 0);
	assert_true(ibp_findings_find(fs, "plan-rejected") >= 0);
	ibp_findings_free(fs);
	ibp_analysis_input_free(in);
}

/* A switch port's "enforcement" feeds the enforcement callback. */
static void test_enforcement_from_tables(void **state)
{
	(void)state;
	ibp_analysis_input *in;
	ibp_error err;
	char *path;
	assert_int_equal(
	    load_tables_text(
		"{\"mode\": \"live\", \"ports\": ["
		"{\"node_guid\": \"0x506b4b0300a1b100\", \"port\": 3, "
		"\"pkeys\": [\"0x7fff\"], \"enforcement\": \"in\"},"
		"{\"node_guid\": \"0x506b4b0300a1b100\", \"port\": 4, "
		"\"pkeys\": [\"0x7fff\"]}]}",
		&in, &err, &path),
	    IBP_OK);
	assert_string_equal(ibp_analysis_input_mode(in), "live");
	assert_true(ibp_analysis_input_has_enforcement(in));
	size_t sw;
	assert_int_equal(
	    ibp_fabric_find_node_guid(ibp_analysis_input_fabric(in),
				      0x506b4b0300a1b100ull, &sw),
	    0);
	bool inb = false, outb = true;
	assert_true(ibp_analysis_input_enforcement(in, sw, 3, &inb, &outb));
	assert_true(inb);
	assert_false(outb);
	assert_false(ibp_analysis_input_enforcement(in, sw, 4, &inb, &outb));
	ibp_analysis_input_free(in);
	remove_temp(path);
}

static void test_enforce_round_trip(void **state)
{
	(void)state;
	for (int i = IBP_ENFORCE_BOTH; i <= IBP_ENFORCE_OFF; i++) {
		ibp_part_enforce e = (ibp_part_enforce)i, back;
		assert_int_equal(
		    ibp_part_enforce_parse(ibp_part_enforce_str(e), &back),
		    IBP_OK);
		assert_int_equal(back, e);
		bool in, out;
		ibp_part_enforce_bits(e, &in, &out);
		assert_int_equal(ibp_part_enforce_from_bits(in, out), e);
	}
	ibp_part_enforce e = IBP_ENFORCE_OUT;
	assert_int_equal(ibp_part_enforce_parse("sideways", &e), IBP_EINVAL);
	assert_int_equal(ibp_part_enforce_parse(NULL, &e), IBP_EINVAL);
	assert_int_equal(e, IBP_ENFORCE_OUT);
	assert_string_equal(ibp_part_enforce_str(IBP_ENFORCE_OFF), "off");
}

/* The audit with its files read by the library: the tenants map and
 * opensm.conf given (nothing left unchecked), a tenants file naming a
 * port the fabric lacks (refused with a located finding, no findings
 * object), a missing file, a wrong options version. */
static void test_audit_files(void **state)
{
	(void)state;
	ibp_analysis_input *in = load_plan(IBP_POLICY_OPENSM);
	char *tenants = temp_file("tenantA: tenantA-node-01 tenantA-node-02\n"
				  "tenantB: tenantB-node-01 tenantB-node-02\n");
	char osm[1100];
	snprintf(osm, sizeof(osm), "%s.osm", tenants);
	FILE *fp = fopen(osm, "w");
	assert_non_null(fp);
	fputs("part_enforce both\n", fp);
	fclose(fp);
	struct ibp_audit_files_options o;
	ibp_audit_files_options_init(&o, IBP_AUDIT_FILES_OPTIONS_VERSION);
	o.tenants_path = tenants;
	o.opensm_conf_path = osm;
	ibp_findings *f = NULL;
	const char *unchecked = "x";
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	assert_int_equal(
	    ibp_analysis_input_audit_files(in, &o, &f, &unchecked, d, &err),
	    IBP_OK);
	assert_non_null(f);
	assert_null(unchecked);
	ibp_findings_free(f);
	o.opensm_conf_path = NULL;
	assert_int_equal(
	    ibp_analysis_input_audit_files(in, &o, &f, &unchecked, d, &err),
	    IBP_OK);
	assert_non_null(unchecked);
	ibp_findings_free(f);
	unlink(osm);
	fp = fopen(tenants, "w");
	assert_non_null(fp);
	fputs("tenantA: no-such-node\n", fp);
	fclose(fp);
	assert_int_not_equal(
	    ibp_analysis_input_audit_files(in, &o, &f, NULL, d, &err), IBP_OK);
	assert_null(f);
	assert_true(ibp_diags_count_severity(d, IBP_SEV_ERROR) > 0);
	assert_string_equal(err.file, tenants);
	assert_int_equal(err.line, 1);
	o.tenants_path = "/nonexistent/tenants";
	assert_int_not_equal(
	    ibp_analysis_input_audit_files(in, &o, &f, NULL, NULL, &err),
	    IBP_OK);
	assert_null(f);
	o.version = 0;
	assert_int_equal(
	    ibp_analysis_input_audit_files(in, &o, &f, NULL, NULL, &err),
	    IBP_EINVAL);
	ibp_diags_free(d);
	remove_temp(tenants);
	ibp_analysis_input_free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_from_plan),
	    cmocka_unit_test(test_from_buffer),
	    cmocka_unit_test(test_from_tables_json),
	    cmocka_unit_test(test_bad_tables_json),
	    cmocka_unit_test(test_strict_rejected),
	    cmocka_unit_test(test_enforcement_from_tables),
	    cmocka_unit_test(test_enforce_round_trip),
	    cmocka_unit_test(test_audit_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
