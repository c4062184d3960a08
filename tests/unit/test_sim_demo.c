/*
 * test_sim_demo.c - the seed walkthrough through its public API
 * (front/sim_demo.h), on examples/seed/ (through IBP_EXAMPLES).  The
 * expectations come from the seed document and OpenSM's rules, by hand:
 * in strict mode every pingpong ends as the seed says and the probe
 * matrix equals the seed's table; under OpenSM's rules every end port
 * but the two full members of 0x7fff (sm-01, ufm-server) is a limited
 * member of 0x7fff, so the five others each gain both of them, both ways:
 * 5 x 2 x 2 = 20 cells.  Bad options and a directory without the seed
 * are refused.
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

#include "front/sim_demo.h"

static const char *examples(void)
{
	const char *ex = getenv("IBP_EXAMPLES");
	return ex ? ex : "examples";
}

static ibp_sim_demo *run(const char *mode)
{
	struct ibp_sim_demo_options o;
	ibp_sim_demo_options_init(&o, IBP_SIM_DEMO_OPTIONS_VERSION);
	o.examples_dir = examples();
	o.mode = mode;
	ibp_sim_demo *r = NULL;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	FILE *out = fopen("/dev/null", "w");
	assert_non_null(out);
	int rc = ibp_sim_demo_run(&o, out, &r, d, &err);
	fclose(out);
	if (rc != IBP_OK)
		fprintf(stderr, "%s\n", err.message);
	assert_int_equal(rc, IBP_OK);
	assert_int_equal(ibp_diags_count_severity(d, IBP_SEV_ERROR), 0);
	ibp_diags_free(d);
	return r;
}

static void strict_holds_the_seed(void **state)
{
	(void)state;
	ibp_sim_demo *r = run("strict");
	/* five pingpongs and the matrix */
	assert_int_equal(ibp_sim_demo_check_count(r), 6);
	assert_int_equal(ibp_sim_demo_failures(r), 0);
	for (size_t i = 0; i < ibp_sim_demo_check_count(r); i++)
		assert_true(ibp_sim_demo_check_at(r, i)->held);
	assert_null(ibp_sim_demo_check_at(r, 6));
	size_t other = 0;
	assert_int_equal(ibp_sim_demo_differences(r, &other), 0);
	assert_int_equal(other, 20);
	char *js = ibp_sim_demo_json(r);
	json_t *root = json_loads(js, 0, NULL);
	assert_non_null(root);
	assert_string_equal(json_string_value(json_object_get(root, "mode")),
			    "strict");
	assert_int_equal(json_array_size(json_object_get(root, "checks")), 6);
	assert_int_equal(json_integer_value(json_object_get(root, "failures")),
			 0);
	json_decref(root);
	free(js);
	ibp_sim_demo_free(r);
}

static void opensm_differs_by_the_default_partition(void **state)
{
	(void)state;
	ibp_sim_demo *r = run("opensm");
	/* the pingpongs only: the seed's table is not OpenSM's */
	assert_int_equal(ibp_sim_demo_check_count(r), 5);
	assert_int_equal(ibp_sim_demo_failures(r), 0);
	size_t other = 1;
	assert_int_equal(ibp_sim_demo_differences(r, &other), 20);
	assert_int_equal(other, 0);
	ibp_sim_demo_free(r);
}

static void bad_options_and_no_seed(void **state)
{
	(void)state;
	struct ibp_sim_demo_options o;
	ibp_sim_demo_options_init(&o, IBP_SIM_DEMO_OPTIONS_VERSION);
	ibp_sim_demo *r = (ibp_sim_demo *)&o;
	ibp_error err;
	assert_int_equal(ibp_sim_demo_run(&o, NULL, &r, NULL, &err),
			 IBP_EINVAL); /* no examples_dir */
	assert_null(r);
	o.examples_dir = examples();
	o.mode = "loose";
	assert_int_equal(ibp_sim_demo_run(&o, NULL, &r, NULL, &err),
			 IBP_EINVAL);
	o.mode = "strict";
	o.examples_dir = "/nonexistent";
	assert_int_not_equal(ibp_sim_demo_run(&o, NULL, &r, NULL, &err),
			     IBP_OK);
	assert_null(r);
	char dir[4096];
	assert_int_equal(
	    ibp_sim_demo_find_examples(examples(), dir, sizeof(dir)), IBP_OK);
	assert_string_equal(dir, examples());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(strict_holds_the_seed),
	    cmocka_unit_test(opensm_differs_by_the_default_partition),
	    cmocka_unit_test(bad_options_and_no_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
