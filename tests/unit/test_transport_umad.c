/*
 * test_transport_umad.c - what the libibumad transport guarantees without
 * a fabric: a CA that does not exist is a clean IBP_EIO naming it, with
 * nothing left open; defaults are initialised.  The transport's SMP path
 * is proven against ibsim in tests/interop/test_live_*.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ibpart/sys/transport_umad.h"

static void test_options_init(void **state)
{
	(void)state;
	ibp_umad_options o;
	memset(&o, 0xa5, sizeof(o));
	ibp_umad_options_init(&o);
	assert_null(o.ca);
	assert_int_equal(o.port, 0);
	assert_true(o.mkey == 0);
	assert_false(o.want_traps);
}

static void test_missing_ca(void **state)
{
	(void)state;
	ibp_umad_options o;
	ibp_umad_options_init(&o);
	o.ca = "no-such-ca-xyz";
	o.port = 1;
	ibp_transport *t = (ibp_transport *)1;
	ibp_umad *u = (ibp_umad *)1;
	ibp_error e;
	int rc = ibp_transport_umad_open(&o, &t, &u, &e);
	assert_int_equal(rc, IBP_EIO);
	assert_null(t);
	assert_null(u);
	/* the message names what was asked for (or why libibumad could not
	 * even start) */
	assert_true(strstr(e.message, "no-such-ca-xyz") ||
		    strstr(e.message, "libibumad"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options_init),
	    cmocka_unit_test(test_missing_ca),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
