/*
 * test_tables_compute.c - `ibpart tables` as one library call
 * (tables_compute.h): the seed plan on the seed topology gives the tables
 * the policy gives for the same inputs; an SM port given by name wins; a
 * --state file round trip keeps what OpenSM remembers; missing inputs and
 * a topology that does not load are errors with nothing left allocated;
 * no_partition_enforcement TRUE then FALSE on a running OpenSM leaves
 * enforcement off until a part_enforce line says otherwise; OpenSM's
 * partition objects outlive the plan that made them.
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

#include "ibpart/tables_compute.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "util/diag_lib.h"
#include "policy/policy_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/tables_compute.h"

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

static void seed_options(ibp_tables_compute_options *o)
{
	ibp_tables_compute_options_init(o, IBP_TABLES_COMPUTE_OPTIONS_VERSION);
	o->topology_path = path_of("IBP_EXAMPLES", "seed/seed.topo");
	o->plan_path = path_of("IBP_EXAMPLES", "seed/partitions.conf");
}

static void test_seed(void **state)
{
	(void)state;
	ibp_tables_compute_options o;
	seed_options(&o);
	ibp_diags *d = ibp_diags_new();
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	ibp_error err;
	assert_int_equal(ibp_tables_compute(&o, &r, d, &err), IBP_OK);
	assert_non_null(r.fabric);
	assert_non_null(r.conf);
	assert_non_null(r.tables);
	assert_null(r.remembered);
	assert_int_equal(r.sm_port_guid, SM);
	/* the same as the policy's on the same inputs */
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	ibp_tables *ts;
	assert_int_equal(
	    ibp_policy_compute(r.conf, r.fabric, &po, &ts, NULL, &err), 0);
	char *a = ibp_tables_to_json(ts, "opensm", SM, 0);
	char *b = ibp_tables_to_json(r.tables, "opensm", SM, 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
	ibp_tables_free(ts);
	ibp_tables_result_free(&r);
	assert_null(r.tables);
	ibp_diags_free(d);
}

static void test_sm_port_and_state(void **state)
{
	(void)state;
	ibp_tables_compute_options o;
	seed_options(&o);
	o.sm_port = "ufm-server";
	char tmpl[] = "/tmp/ibp-tc-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char path[64];
	snprintf(path, sizeof(path), "%s/st.json", tmpl);
	o.state_path = path; /* missing: a fresh fabric */
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	ibp_error err;
	assert_int_equal(ibp_tables_compute(&o, &r, NULL, &err), IBP_OK);
	assert_int_not_equal(r.sm_port_guid, SM);
	assert_non_null(r.remembered);
	assert_int_equal(ibp_tables_write_state_path(r.tables, r.remembered,
						     "opensm", r.sm_port_guid,
						     path, &err),
			 0);
	char *first = ibp_tables_to_json(r.tables, "opensm", 0, 0);
	ibp_tables_result_free(&r);
	assert_int_equal(ibp_tables_compute(&o, &r, NULL, &err), IBP_OK);
	char *again = ibp_tables_to_json(r.tables, "opensm", 0, 0);
	assert_string_equal(first, again); /* same plan: same indexes */
	free(first);
	free(again);
	ibp_tables_result_free(&r);
	unlink(path);
	rmdir(tmpl);
}

static void test_errors(void **state)
{
	(void)state;
	ibp_tables_compute_options o;
	ibp_tables_compute_options_init(&o, IBP_TABLES_COMPUTE_OPTIONS_VERSION);
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	ibp_error err;
	assert_int_equal(ibp_tables_compute(&o, &r, NULL, &err), IBP_EINVAL);
	seed_options(&o);
	o.topology_path = "/nonexistent.topo";
	ibp_diags *d = ibp_diags_new();
	assert_int_not_equal(ibp_tables_compute(&o, &r, d, &err), IBP_OK);
	assert_null(r.fabric);
	ibp_tables_result_free(&r);
	seed_options(&o);
	o.sm_port = "no-such-port";
	assert_int_equal(ibp_tables_compute(&o, &r, d, &err), IBP_ENOENT);
	ibp_tables_result_free(&r);
	/* the policy's options have their own version: part_enforce off
	 * (no switch external port programmed) is read through the pointer,
	 * a version out of range refused */
	seed_options(&o);
	assert_int_equal(ibp_tables_compute(&o, &r, d, &err), IBP_OK);
	size_t enforced = ibp_tables_count(r.tables);
	ibp_tables_result_free(&r);
	ibp_policy_options po;
	ibp_policy_options_init(&po, IBP_POLICY_OPTIONS_VERSION);
	po.part_enforce = IBP_ENFORCE_OFF;
	o.policy = &po;
	assert_int_equal(ibp_tables_compute(&o, &r, d, &err), IBP_OK);
	assert_true(ibp_tables_count(r.tables) < enforced);
	ibp_tables_result_free(&r);
	unsigned wrong[] = {0, IBP_POLICY_OPTIONS_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		po.version = wrong[i];
		assert_int_equal(ibp_tables_compute(&o, &r, d, &err),
				 IBP_EINVAL);
		assert_non_null(strstr(err.message, "policy options"));
		ibp_tables_result_free(&r);
	}
	ibp_tables_result_free(&r);
	ibp_diags_free(d);
}

/* One `tables --state` run with opensm.conf text conf; the part_enforce
 * OpenSM uses after it, and whether the seed's leaf port 3 (facing
 * tenantA-node-01) got a table. */
static ibp_part_enforce run_conf(const char *dir, const char *conf,
				 bool *mirrored)
{
	char cpath[128], spath[128];
	snprintf(cpath, sizeof(cpath), "%s/opensm.conf", dir);
	snprintf(spath, sizeof(spath), "%s/st.json", dir);
	FILE *f = fopen(cpath, "w");
	assert_non_null(f);
	fputs(conf, f);
	fclose(f);
	ibp_tables_compute_options o;
	seed_options(&o);
	o.state_path = spath;
	o.opensm_conf_path = cpath;
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	ibp_error err;
	assert_int_equal(ibp_tables_compute(&o, &r, NULL, &err), IBP_OK);
	assert_int_equal(ibp_tables_result_write_state(&r, spath, &err), 0);
	size_t n;
	assert_int_equal(
	    ibp_fabric_find_node_guid(r.fabric, 0x506b4b0300a1b100ull, &n),
	    IBP_OK);
	*mirrored = ibp_tables_get(r.tables, n, 3) != NULL;
	ibp_part_enforce pe = r.opensm.part_enforce;
	ibp_tables_result_free(&r);
	unlink(cpath);
	return pe;
}

static void test_enforcement_off_sticks(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ibp-tc-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	bool m;
	assert_int_equal(run_conf(tmpl, "no_partition_enforcement TRUE\n", &m),
			 IBP_ENFORCE_OFF);
	assert_false(m);
	/* SIGHUP with FALSE: OpenSM's part_enforce string now reads "off" */
	assert_int_equal(run_conf(tmpl, "no_partition_enforcement FALSE\n", &m),
			 IBP_ENFORCE_OFF);
	assert_false(m);
	/* a part_enforce line of the same value changes nothing */
	assert_int_equal(run_conf(tmpl,
				  "no_partition_enforcement FALSE\n"
				  "part_enforce off\n",
				  &m),
			 IBP_ENFORCE_OFF);
	/* another value is read again */
	assert_int_equal(run_conf(tmpl,
				  "no_partition_enforcement FALSE\n"
				  "part_enforce both\n",
				  &m),
			 IBP_ENFORCE_BOTH);
	assert_true(m);
	char spath[128];
	snprintf(spath, sizeof(spath), "%s/st.json", tmpl);
	unlink(spath);
	/* a fresh OpenSM started with FALSE enforces */
	assert_int_equal(run_conf(tmpl, "no_partition_enforcement FALSE\n", &m),
			 IBP_ENFORCE_BOTH);
	assert_true(m);
	unlink(spath);
	rmdir(tmpl);
}

/* One `tables --state` run of plan text on the seed: the table of
 * tenantA-node-02's port (0x…b201) as "0x7fff 0x9234", and how many
 * opensm-earlier-partition findings the run gave. */
static const char *run_plan(const char *dir, const char *plan, size_t *nearly)
{
	static char out[256];
	char ppath[128], spath[128];
	snprintf(ppath, sizeof(ppath), "%s/p.conf", dir);
	snprintf(spath, sizeof(spath), "%s/st.json", dir);
	FILE *f = fopen(ppath, "w");
	assert_non_null(f);
	fputs(plan, f);
	fclose(f);
	ibp_tables_compute_options o;
	seed_options(&o);
	o.plan_path = ppath;
	o.state_path = spath;
	ibp_diags *d = ibp_diags_new();
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	ibp_error err;
	assert_int_equal(ibp_tables_compute(&o, &r, d, &err), IBP_OK);
	assert_int_equal(ibp_tables_result_write_state(&r, spath, &err), 0);
	*nearly = 0;
	for (size_t i = 0; i < ibp_diags_count(d); i++)
		*nearly += !strcmp(ibp_diags_get(d, i)->code,
				   "opensm-earlier-partition");
	size_t n;
	unsigned p;
	assert_int_equal(
	    ibp_fabric_find_port_guid(r.fabric, 0x506b4b0300a1b201ull, &n, &p),
	    IBP_OK);
	const ibp_pkey_table *t = ibp_tables_get(r.tables, n, p);
	assert_non_null(t);
	out[0] = 0;
	for (unsigned i = 0; i < ibp_pkey_table_used(t); i++)
		snprintf(out + strlen(out), sizeof(out) - strlen(out),
			 "%s0x%04x", i ? " " : "", ibp_pkey_table_get(t, i));
	ibp_tables_result_free(&r);
	ibp_diags_free(d);
	unlink(ppath);
	return out;
}

static void test_partitions_outlive(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ibp-tc-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	size_t w;
	assert_string_equal(
	    run_plan(tmpl, "Default=0x1234 : 0x506b4b0300a1b200=full ;\n", &w),
	    "0x7fff");
	assert_int_equal(w, 0);
	/* the stale 0x1234 named Default comes first in OpenSM's table */
	assert_string_equal(run_plan(tmpl, "Default : ALL_CAS=full ;\n", &w),
			    "0x7fff 0x9234");
	assert_int_equal(w, 1);
	/* 0x0080 first made as B keeps that name */
	assert_string_equal(
	    run_plan(tmpl, "B=0x0080 : 0x506b4b0300a1b200=full ;\n", &w),
	    "0x7fff");
	assert_string_equal(run_plan(tmpl,
				     "Default=0x0080 : 0x506b4b0300a1b200 ;\n"
				     "Default : ALL_CAS=full ;\n",
				     &w),
			    "0xffff");
	assert_int_equal(w, 1);
	/* the same plan on a fresh OpenSM: 'Default :' is 0x0080 */
	char spath[128];
	snprintf(spath, sizeof(spath), "%s/st.json", tmpl);
	unlink(spath);
	assert_string_equal(run_plan(tmpl,
				     "Default=0x0080 : 0x506b4b0300a1b200 ;\n"
				     "Default : ALL_CAS=full ;\n",
				     &w),
			    "0x7fff 0x8080");
	assert_int_equal(w, 0);
	unlink(spath);
	rmdir(tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seed),
	    cmocka_unit_test(test_sm_port_and_state),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_enforcement_off_sticks),
	    cmocka_unit_test(test_partitions_outlive),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
