/*
 * test_analysis_audit.c - the audit rules on hand-built tables of the
 * seed fabric: the seed's sound plans raise no critical/high finding,
 * each broken variant raises its finding with the right ports and
 * partitions; the tenant map file, opensm.conf reader, and the JSON shape
 * scripts depend on.
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
#include "util/diag_lib.h"
#include "policy/opensm_conf_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/opensm_conf.h"

static const char *const names[] = {
    "sm-01",	       "ufm-server",	  "tenantA-node-01", "tenantA-node-02",
    "tenantB-node-01", "tenantB-node-02", "storage-node"};
#define NH	7
#define GUID(i) (0x506b4b0300a1b001ull + (uint64_t)(i)*0x10)

static ibp_fabric *fabric(void)
{
	ibp_fabric *f = ibp_fabric_new(NULL);
	size_t sw, n;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH,
					     0x506b4b0300a1b100ull, 24,
					     "leaf-01", &sw, NULL),
			 0);
	for (unsigned i = 0; i < NH; i++) {
		assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_CA,
						     GUID(i) - 1, 1, names[i],
						     &n, NULL),
				 0);
		assert_int_equal(ibp_fabric_link(f, n, 1, sw, i + 1, NULL), 0);
	}
	return f;
}

/* tables from a spec: per host up to 4 keys, 0-terminated */
static ibp_tables *tables(const ibp_fabric *f, const uint16_t spec[NH][4])
{
	ibp_tables *ts = ibp_tables_new(f);
	for (unsigned h = 0; h < NH; h++) {
		ibp_pkey_table *t = ibp_tables_get_or_create(ts, h + 1, 1);
		for (unsigned e = 0; e < 4 && spec[h][e]; e++)
			ibp_pkey_table_set(t, e, spec[h][e], NULL);
	}
	return ts;
}

static const uint16_t strict_spec[NH][4] = {
    {0xffff}, {0xffff}, {0x8001}, {0x8001}, {0x8002}, {0x8002}, {1, 2}};
static const uint16_t opensm_spec[NH][4] = {
    {0xffff},	      {0xffff},		{0x7fff, 0x8001}, {0x7fff, 0x8001},
    {0x7fff, 0x8002}, {0x7fff, 0x8002}, {0x7fff, 1, 2}};

static ibp_findings *audit(const ibp_fabric *f, const uint16_t spec[NH][4],
			   const ibp_tenant_map *tm, const ibp_osm_conf *osm)
{
	ibp_tables *ts = tables(f, spec);
	ibp_findings *out = ibp_findings_new();
	ibp_audit_input in = {.tables = ts,
			      .sm_node = 1,
			      .sm_port = 1,
			      .tenants = tm,
			      .osm = osm};
	assert_int_equal(ibp_audit_run(&in, out, NULL), 0);
	ibp_tables_free(ts);
	/* every finding is a rule of the catalog (audit --help, docs) */
	for (size_t i = 0; i < ibp_findings_count(out); i++)
		if (!ibp_audit_rule_find(ibp_findings_get(out, i)->code))
			fail_msg("finding %s is no rule of the catalog",
				 ibp_findings_get(out, i)->code);
	return out;
}

static const ibp_finding *get(const ibp_findings *f, const char *code)
{
	long i = ibp_findings_find(f, code);
	if (i < 0)
		fail_msg("finding %s missing", code);
	return ibp_findings_get(f, (size_t)i);
}

static void absent(const ibp_findings *f, const char *code)
{
	if (ibp_findings_find(f, code) >= 0)
		fail_msg("unexpected finding %s: %s", code,
			 get(f, code)->message);
}

static bool has_port(const ibp_finding *x, unsigned host)
{
	for (size_t i = 0; i < x->nports; i++)
		if (x->ports[i] == GUID(host))
			return true;
	return false;
}

static void test_sound_strict(void **state)
{
	(void)state;
	ibp_fabric *f = fabric();
	ibp_findings *o = audit(f, strict_spec, NULL, NULL);
	assert_true(ibp_findings_max_severity(o) < IBP_AUDIT_HIGH);
	const ibp_finding *x = get(o, "shared-limited-member");
	assert_int_equal(x->severity, IBP_AUDIT_MEDIUM);
	assert_int_equal(x->nports, 1);
	assert_true(has_port(x, 6));
	assert_int_equal(x->npartitions, 2);
	assert_int_equal(x->partitions[0], 1);
	assert_int_equal(x->partitions[1], 2);
	/* strict: tenants are out of the default partition: no SA */
	x = get(o, "no-sa-path");
	assert_int_equal(x->nports, 5);
	assert_false(has_port(x, 1));
	assert_true(has_port(x, 2) && has_port(x, 6));
	absent(o, "default-full-member");
	absent(o, "default-limited-member");
	absent(o, "tenant-bridge");
	absent(o, "partition-no-full-member");
	absent(o, "partition-single-member");
	absent(o, "part-enforce-off");
	absent(o, "mkey-not-set");
	ibp_findings_free(o);
	ibp_fabric_free(f);
}

static void test_sound_opensm(void **state)
{
	(void)state;
	ibp_fabric *f = fabric();
	ibp_findings *o = audit(f, opensm_spec, NULL, NULL);
	assert_true(ibp_findings_max_severity(o) < IBP_AUDIT_HIGH);
	const ibp_finding *x = get(o, "default-limited-member");
	assert_int_equal(x->severity, IBP_AUDIT_INFO);
	assert_int_equal(x->nports, 5);
	assert_int_equal(x->partitions[0], 0x7fff);
	absent(o, "no-sa-path");
	absent(o, "default-full-member");
	get(o, "shared-limited-member");
	ibp_findings_free(o);
	ibp_fabric_free(f);
}

static void test_default_full(void **state)
{
	(void)state;
	/* OpenSM's fail-open result plus tenant partitions */
	static const uint16_t spec[NH][4] = {{0xffff},	       {0xffff},
					     {0xffff, 0x8001}, {0xffff, 0x8001},
					     {0xffff, 0x8002}, {0x7fff, 0x8002},
					     {0x7fff, 1, 2}};
	ibp_fabric *f = fabric();
	ibp_findings *o = audit(f, spec, NULL, NULL);
	const ibp_finding *x = get(o, "default-full-member");
	assert_int_equal(x->severity, IBP_AUDIT_CRITICAL);
	assert_int_equal(x->nports, 3);
	assert_true(has_port(x, 2) && has_port(x, 3) && has_port(x, 4));
	assert_false(has_port(x, 0)); /* the SM port is meant to be full */
	assert_false(has_port(x, 1)); /* ufm: only in the default */
	x = get(o, "default-limited-member");
	assert_int_equal(x->nports, 2);
	assert_int_equal(ibp_findings_max_severity(o), IBP_AUDIT_CRITICAL);
	ibp_findings_free(o);
	ibp_fabric_free(f);
}

static void test_bridge_and_partitions(void **state)
{
	(void)state;
	/* storage full in both tenants; A1 also holds a partition with no
	 * full member (0x0003, shared with A2) and one alone (0x8004) */
	static const uint16_t spec[NH][4] = {{0xffff},
					     {0xffff},
					     {0x7fff, 0x8001, 0x0003},
					     {0x7fff, 0x8001, 0x0003, 0x8004},
					     {0x7fff, 0x8002},
					     {0x7fff, 0x8002},
					     {0x7fff, 0x8001, 0x8002}};
	ibp_fabric *f = fabric();
	ibp_findings *o = audit(f, spec, NULL, NULL);
	const ibp_finding *x = get(o, "tenant-bridge");
	assert_int_equal(x->severity, IBP_AUDIT_HIGH);
	assert_int_equal(x->nports, 1);
	assert_true(has_port(x, 6));
	assert_int_equal(x->npartitions, 2);
	absent(o, "shared-limited-member");
	x = get(o, "partition-no-full-member");
	assert_int_equal(x->partitions[0], 3);
	assert_int_equal(x->nports, 2);
	x = get(o, "partition-single-member");
	assert_int_equal(x->partitions[0], 4);
	assert_true(has_port(x, 3));
	ibp_findings_free(o);
	ibp_fabric_free(f);
}

/* No bridge where nothing is bridged: two ports that share several
 * partitions, and clients (full in their tenant) of a service partition
 * where the server is full and the clients limited. */
static void test_no_false_bridge(void **state)
{
	(void)state;
	static const uint16_t same[NH][4] = {{0xffff},
					     {0xffff},
					     {0x7fff, 0x8001, 0x8003, 0x8004},
					     {0x7fff, 0x8001, 0x8003, 0x8004},
					     {0x7fff, 0x8002},
					     {0x7fff, 0x8002},
					     {0x7fff, 0x0001, 0x0002}};
	static const uint16_t service[NH][4] = {{0xffff},
						{0xffff},
						{0x7fff, 0x8001, 0x0009},
						{0x7fff, 0x8001, 0x0009},
						{0x7fff, 0x8002, 0x0009},
						{0x7fff, 0x8002, 0x0009},
						{0x7fff, 0x8009}};
	ibp_fabric *f = fabric();
	ibp_findings *o = audit(f, same, NULL, NULL);
	absent(o, "tenant-bridge");
	const ibp_finding *x = get(o, "shared-limited-member");
	assert_int_equal(x->nports, 1); /* storage only */
	assert_true(has_port(x, 6));
	ibp_findings_free(o);
	o = audit(f, service, NULL, NULL);
	absent(o, "tenant-bridge");
	absent(o, "shared-limited-member");
	assert_true(ibp_findings_max_severity(o) < IBP_AUDIT_MEDIUM);
	ibp_findings_free(o);
	ibp_fabric_free(f);
}

static void test_tenant_map(void **state)
{
	(void)state;
	/* tenantB-node-01 put in TenantA's partition by mistake */
	static const uint16_t spec[NH][4] = {{0xffff},	       {0xffff},
					     {0x7fff, 0x8001}, {0x7fff, 0x8001},
					     {0x7fff, 0x8001}, {0x7fff, 0x8002},
					     {0x7fff, 1, 2}};
	ibp_fabric *f = fabric();
	const char text[] = "# tenants\n"
			    "A: tenantA-node-01 0x506b4b0300a1b031\n"
			    "B: \"tenantB-node-01\" \\\n"
			    "   tenantB-node-02\n";
	ibp_tenant_map *tm = NULL;
	ibp_error err;
	assert_int_equal(ibp_tenant_map_load_buffer(
			     f, "t.txt", text, strlen(text), &tm, NULL, &err),
			 0);
	assert_int_equal(ibp_tenant_map_count(tm), 2);
	assert_int_equal(ibp_tenant_map_get(tm, 3, 1), 0);
	assert_int_equal(ibp_tenant_map_get(tm, 4, 1), 0);
	assert_int_equal(ibp_tenant_map_get(tm, 5, 1), 1);
	assert_int_equal(ibp_tenant_map_get(tm, 6, 1), 1);
	assert_int_equal(ibp_tenant_map_get(tm, 7, 1), -1);
	ibp_findings *o = audit(f, spec, tm, NULL);
	const ibp_finding *x = get(o, "cross-tenant-reach");
	assert_int_equal(x->severity, IBP_AUDIT_CRITICAL);
	assert_int_equal(x->partitions[0], 1);
	assert_true(has_port(x, 2) && has_port(x, 3) && has_port(x, 4));
	assert_false(has_port(x, 6));
	ibp_findings_free(o);
	/* the sound plan with the map: no cross-tenant finding; storage
	 * (unmapped) shared by A and B */
	o = audit(f, opensm_spec, tm, NULL);
	absent(o, "cross-tenant-reach");
	absent(o, "tenant-bridge");
	x = get(o, "shared-limited-member");
	assert_true(has_port(x, 6));
	assert_true(ibp_findings_max_severity(o) < IBP_AUDIT_HIGH);
	ibp_findings_free(o);
	ibp_tenant_map_free(tm);

	/* errors: file:line:col */
	const char bad[] = "A: tenantA-node-01\nB tenantA-node-02\n";
	assert_int_equal(ibp_tenant_map_load_buffer(
			     f, "t.txt", bad, strlen(bad), &tm, NULL, &err),
			 IBP_EPARSE);
	assert_null(tm);
	assert_int_equal(err.line, 2);
	const char two[] = "A: tenantA-node-01\nB: tenantA-node-01\n";
	assert_int_equal(ibp_tenant_map_load_buffer(
			     f, "t.txt", two, strlen(two), &tm, NULL, &err),
			 IBP_EPARSE);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.col, 4);
	const char unk[] = "A: nosuchnode\n";
	assert_int_equal(ibp_tenant_map_load_buffer(
			     f, "t.txt", unk, strlen(unk), &tm, NULL, &err),
			 IBP_EPARSE);
	assert_non_null(strstr(err.message, "nosuchnode"));
	ibp_fabric_free(f);
}

static void test_osm_conf(void **state)
{
	(void)state;
	ibp_fabric *f = fabric();
	ibp_osm_conf c = {.version = IBP_OSM_CONF_VERSION};
	const char weak[] = "# opensm.conf\nm_key 0x0000000000000000\n"
			    "m_key_protection_level 0\npart_enforce off\n";
	assert_int_equal(ibp_osm_conf_parse("o", weak, strlen(weak), &c, NULL),
			 0);
	assert_int_equal(c.part_enforce, IBP_OSM_ENFORCE_OFF);
	ibp_findings *o = audit(f, opensm_spec, NULL, &c);
	const ibp_finding *x = get(o, "mkey-not-set");
	assert_int_equal(x->severity, IBP_AUDIT_HIGH);
	assert_int_equal(x->nports, NH);
	x = get(o, "part-enforce-off");
	assert_int_equal(x->severity, IBP_AUDIT_HIGH);
	assert_int_equal(x->nports, NH);
	ibp_findings_free(o);

	const char half[] = "m_key 0x1234\nm_key_protection_level 0\n"
			    "part_enforce in\n";
	assert_int_equal(ibp_osm_conf_parse("o", half, strlen(half), &c, NULL),
			 0);
	o = audit(f, opensm_spec, NULL, &c);
	absent(o, "mkey-not-set");
	get(o, "mkey-readable");
	get(o, "part-enforce-partial");
	absent(o, "part-enforce-off");
	ibp_findings_free(o);

	const char good[] = "m_key 0x1234\nm_key_protection_level 2\n"
			    "part_enforce both\nno_partition_enforcement "
			    "FALSE\n";
	assert_int_equal(ibp_osm_conf_parse("o", good, strlen(good), &c, NULL),
			 0);
	o = audit(f, opensm_spec, NULL, &c);
	absent(o, "mkey-not-set");
	absent(o, "mkey-readable");
	absent(o, "part-enforce-off");
	absent(o, "part-enforce-partial");
	ibp_findings_free(o);

	const char old[] = "no_partition_enforcement TRUE\n";
	assert_int_equal(ibp_osm_conf_parse("o", old, strlen(old), &c, NULL),
			 0);
	o = audit(f, opensm_spec, NULL, &c);
	get(o, "part-enforce-off");
	ibp_findings_free(o);

	/* as OpenSM reads them: an unknown part_enforce is "both", a
	 * boolean not exactly TRUE is FALSE, each a warning here */
	ibp_error err;
	const char odd[] = "m_key 0x1\npart_enforce sometimes\n"
			   "allow_both_pkeys true\nkeep_pkey_indexes FALSE\n"
			   "no_partition_enforcement 'TRUE'  # quoted\n";
	ibp_diags *d = ibp_diags_new();
	assert_int_equal(ibp_osm_conf_read("o", odd, strlen(odd), &c, d, &err),
			 0);
	assert_int_equal(c.part_enforce, IBP_ENFORCE_BOTH);
	assert_false(c.allow_both_pkeys);
	assert_true(c.have_allow_both_pkeys);
	assert_false(c.keep_pkey_indexes);
	assert_true(c.no_partition_enforcement);
	assert_int_equal(ibp_osm_conf_enforce(&c), IBP_ENFORCE_OFF);
	assert_int_equal(ibp_diags_count(d), 2);
	assert_int_equal(ibp_diags_get(d, 0)->line, 2);
	assert_int_equal(ibp_diags_get(d, 1)->line, 3);
	ibp_diags_free(d);
	/* the M_Key is never guessed */
	const char bad[] = "part_enforce in\nm_key zero\n";
	assert_int_equal(ibp_osm_conf_parse("o", bad, strlen(bad), &c, &err),
			 IBP_EPARSE);
	assert_int_equal(err.line, 2);
	ibp_fabric_free(f);
}

static bool enforce_cb(void *ctx, size_t sw, unsigned swp, bool *in, bool *out)
{
	(void)ctx;
	(void)sw;
	*in = *out = swp != 3; /* off on the port of tenantA-node-01 */
	return true;
}

static void test_enforcement_state(void **state)
{
	(void)state;
	ibp_fabric *f = fabric();
	ibp_tables *ts = tables(f, opensm_spec);
	ibp_findings *o = ibp_findings_new();
	ibp_audit_input in = {.tables = ts,
			      .sm_node = 1,
			      .sm_port = 1,
			      .enforcement = enforce_cb};
	assert_int_equal(ibp_audit_run(&in, o, NULL), 0);
	const ibp_finding *x = get(o, "part-enforce-off");
	assert_int_equal(x->nports, 1);
	assert_true(has_port(x, 2));
	ibp_findings_free(o);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

static void test_plan_and_json(void **state)
{
	(void)state;
	ibp_fabric *f = fabric();
	ibp_findings *o = ibp_findings_new();
	assert_int_equal(ibp_audit_plan_rejected(o, f, "line 4: no ':'", false),
			 0);
	uint64_t g = GUID(3);
	uint16_t p = 0x8001;
	assert_int_equal(
	    ibp_audit_plan_misread(o, &g, 1, &p, 1, "missing comma"), 0);
	uint16_t dropped[] = {0x8005, 0x0006};
	assert_int_equal(
	    ibp_audit_capacity_overflow(o, GUID(4), 2, 4, dropped, 2), 0);
	const ibp_finding *x = get(o, "plan-rejected");
	assert_int_equal(x->severity, IBP_AUDIT_CRITICAL);
	assert_int_equal(x->nports, NH + 1); /* + the switch's port 0 */
	get(o, "plan-misread");
	get(o, "capacity-overflow");
	/* ports alike are one finding, the first four named */
	ibp_findings *many = ibp_findings_new();
	uint64_t six[] = {GUID(1), GUID(2), GUID(3), GUID(4), GUID(5), GUID(6)};
	assert_int_equal(
	    ibp_audit_capacity_overflow_ports(many, six, 6, 2, 4, dropped, 2),
	    0);
	assert_int_equal(ibp_findings_count(many), 1);
	x = get(many, "capacity-overflow");
	assert_int_equal(x->nports, 6);
	assert_int_equal(x->npartitions, 2);
	assert_non_null(strstr(x->message, "6 ports ("));
	assert_non_null(strstr(x->message, " and 2 more) should each hold 4"));
	ibp_findings_free(many);
	ibp_findings_sort(o);
	assert_string_equal(ibp_findings_get(o, 0)->code, "plan-rejected");

	/* a plan in the seed dialect: the same code, high, the fix says
	 * what to hand OpenSM instead */
	ibp_findings *sd = ibp_findings_new();
	assert_int_equal(
	    ibp_audit_plan_rejected(sd, f, "line 7: PartitionConfig", true), 0);
	x = get(sd, "plan-rejected");
	assert_int_equal(x->severity, IBP_AUDIT_HIGH);
	assert_non_null(strstr(x->fix, "ibpart convert"));
	ibp_findings_free(sd);

	char *s = ibp_findings_to_json(o);
	json_t *j = json_loads(s, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_object_size(j), 1);
	json_t *arr = json_object_get(j, "findings");
	assert_int_equal(json_array_size(arr), 3);
	/* sorted: critical first, then high by code */
	assert_string_equal(ibp_findings_get(o, 1)->code, "capacity-overflow");
	json_t *c = json_array_get(arr, 1);
	const char *keys[] = {"code",	    "severity", "ports",
			      "partitions", "message",	"fix"};
	for (int i = 0; i < 6; i++)
		assert_non_null(json_object_get(c, keys[i]));
	assert_int_equal(json_object_size(c), 6);
	json_t *parts = json_object_get(c, "partitions");
	/* masked to the base, sorted */
	assert_string_equal(json_string_value(json_array_get(parts, 0)),
			    "0x0005");
	assert_string_equal(json_string_value(json_array_get(parts, 1)),
			    "0x0006");
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(c, "ports"), 0)),
	    "0x506b4b0300a1b041");
	json_decref(j);
	free(s);

	ibp_audit_severity sev;
	assert_int_equal(ibp_audit_severity_parse("medium", &sev), 0);
	assert_int_equal(sev, IBP_AUDIT_MEDIUM);
	assert_int_equal(ibp_audit_severity_parse("low", &sev), IBP_EINVAL);
	ibp_findings_free(o);
	ibp_fabric_free(f);
}

/* The catalog: codes unique, each findable, nothing past its end, by
 * severity (audit --help's layout of it: cli.audit_rules_doc). */
static void test_rule_catalog(void **state)
{
	(void)state;
	size_t n = ibp_audit_rule_count();
	assert_true(n >= 20);
	assert_null(ibp_audit_rule_get(n));
	assert_null(ibp_audit_rule_find("no-such-rule"));
	assert_null(ibp_audit_rule_find(NULL));
	for (size_t i = 0; i < n; i++) {
		const ibp_audit_rule *r = ibp_audit_rule_get(i);
		assert_ptr_equal(ibp_audit_rule_find(r->code), r);
		assert_true(i == 0 ||
			    ibp_audit_rule_get(i - 1)->severity >= r->severity);
	}
	assert_int_equal(ibp_audit_rule_find("cross-tenant-reach")->severity,
			 IBP_AUDIT_CRITICAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sound_strict),
	    cmocka_unit_test(test_sound_opensm),
	    cmocka_unit_test(test_default_full),
	    cmocka_unit_test(test_bridge_and_partitions),
	    cmocka_unit_test(test_no_false_bridge),
	    cmocka_unit_test(test_tenant_map),
	    cmocka_unit_test(test_osm_conf),
	    cmocka_unit_test(test_enforcement_state),
	    cmocka_unit_test(test_plan_and_json),
	    cmocka_unit_test(test_rule_catalog),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
