/*
 * test_service_revision_end.c - ibp_service_revision_end, the decision
 * of a revision's end state from the facts of ibpartd's cycle
 * (docs/ibpartd.md, "States"): every state, every reason text as the
 * docs and the cli/interop tests read it (written out here, not
 * produced by the library), and the precedence - a reload error other
 * than a timeout first, then no fabric, then (verified) differences,
 * vports, logged or held, else not demonstrated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/error.h"
#include "ibpart/sys/service.h"

static struct ibp_service_cycle_facts facts(void)
{
	struct ibp_service_cycle_facts f;
	ibp_service_cycle_facts_init(&f, IBP_SERVICE_CYCLE_FACTS_VERSION);
	f.opensm_pid = 4242;
	f.fabric_read = true;
	f.verified = true;
	return f;
}

static ibp_service_state end(const struct ibp_service_cycle_facts *f, char *why,
			     size_t size)
{
	ibp_service_state st = IBP_SERVICE_DRIFTED; /* never an answer */
	ibp_error err;
	ibp_error_clear(&err);
	memset(why, 'x', size);
	assert_int_equal(ibp_service_revision_end(f, &st, why, size, &err),
			 IBP_OK);
	return st;
}

static void test_reload_error_first(void **state)
{
	(void)state;
	char why[1000];
	struct ibp_service_cycle_facts f = facts();
	f.reload_rc = IBP_EIO;
	f.reload_why = "cannot signal process 4242: Operation not permitted";
	f.fabric_read = false; /* ignored: the reload failed first */
	f.differences = 3;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_FAILED);
	assert_string_equal(
	    why, "cannot signal process 4242: Operation not permitted");
	f.reload_why = NULL;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_FAILED);
	assert_string_equal(why, "");
}

static void test_no_fabric(void **state)
{
	(void)state;
	char why[1000];
	struct ibp_service_cycle_facts f = facts();
	f.fabric_read = false;
	f.no_fabric_why = "no umad device";
	f.differences = 3; /* ignored: nothing was verified */
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_APPLIED);
	assert_string_equal(
	    why, "OpenSM 4242 signalled; not verified: no umad device");
	f.logged_subnet_up = true;
	f.reload_rc = IBP_ETIMEDOUT; /* a timeout is no failure */
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_APPLIED);
	assert_string_equal(why, "OpenSM 4242 signalled and logged SUBNET UP; "
				 "not verified: no umad device");
}

static void test_not_verified_yet(void **state)
{
	(void)state;
	char why[1000];
	struct ibp_service_cycle_facts f = facts();
	f.verified = false;
	f.differences = 3;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_PENDING);
	assert_string_equal(why, "");
}

static void test_differences(void **state)
{
	(void)state;
	char why[1000];
	struct ibp_service_cycle_facts f = facts();
	f.differences = 5;
	f.ports = 2;
	f.vports = 1; /* differences come first */
	f.logged_subnet_up = true;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_FAILED);
	assert_string_equal(why, "drift: 5 differences on 2 ports after "
				 "OpenSM took the file");
	f.reload_rc = IBP_ETIMEDOUT;
	f.reload_why = "OpenSM 4242 logged no SUBNET UP within 30000 ms";
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_FAILED);
	assert_string_equal(why, "OpenSM 4242 logged no SUBNET UP within "
				 "30000 ms: 5 differences on 2 ports");
}

static void test_vports(void **state)
{
	(void)state;
	char why[1000];
	struct ibp_service_cycle_facts f = facts();
	f.vports = 2;
	f.absent = 3;
	f.logged_subnet_up = true; /* vports come before logged */
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_APPLIED);
	assert_string_equal(
	    why, "not verifiable: 2 GUIDs it names may be vports of NVIDIA "
		 "OpenSM's virtualization (virt_enabled 2), whose P_KeyTables "
		 "ibpart does not read; the ports of the fabric hold the rest");
}

static void test_logged_or_held(void **state)
{
	(void)state;
	char why[1000];
	struct ibp_service_cycle_facts f = facts();
	f.logged_subnet_up = true;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_VERIFIED);
	assert_string_equal(why, "");
	f.logged_subnet_up = false;
	f.fabric_held = true;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_VERIFIED);
	assert_string_equal(why, "");
	f.absent = 4;
	assert_int_equal(end(&f, why, sizeof(why)),
			 IBP_SERVICE_APPLIED_PARTIALLY);
	assert_string_equal(why, "4 GUIDs it names are not ports of the "
				 "fabric: OpenSM programs the others");
}

static void test_not_demonstrated(void **state)
{
	(void)state;
	char why[1000];
	struct ibp_service_cycle_facts f = facts();
	f.absent = 1; /* neither logged nor held: not demonstrated */
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_APPLIED);
	assert_string_equal(why, "not demonstrated: OpenSM 4242 was signalled "
				 "(no --opensm-log), and this revision "
				 "changes no P_KeyTable; the ports hold it");
	f.opensm_log = true;
	f.reload_rc = IBP_ETIMEDOUT;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_APPLIED);
	assert_string_equal(why, "not demonstrated: OpenSM 4242 logged no "
				 "SUBNET UP in time, and this revision "
				 "changes no P_KeyTable; the ports hold it");
}

static void test_cut_and_refused(void **state)
{
	(void)state;
	char why[8];
	struct ibp_service_cycle_facts f = facts();
	f.differences = 5;
	f.ports = 2;
	assert_int_equal(end(&f, why, sizeof(why)), IBP_SERVICE_FAILED);
	assert_string_equal(why, "drift: ");
	ibp_service_state st = IBP_SERVICE_DRIFTED;
	ibp_error err;
	f.version = IBP_SERVICE_CYCLE_FACTS_VERSION + 1;
	assert_int_equal(
	    ibp_service_revision_end(&f, &st, why, sizeof(why), &err),
	    IBP_EINVAL);
	assert_int_equal(st, IBP_SERVICE_DRIFTED);
	assert_int_equal(
	    ibp_service_revision_end(NULL, &st, why, sizeof(why), &err),
	    IBP_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reload_error_first),
	    cmocka_unit_test(test_no_fabric),
	    cmocka_unit_test(test_not_verified_yet),
	    cmocka_unit_test(test_differences),
	    cmocka_unit_test(test_vports),
	    cmocka_unit_test(test_logged_or_held),
	    cmocka_unit_test(test_not_demonstrated),
	    cmocka_unit_test(test_cut_and_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
