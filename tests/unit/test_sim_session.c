/*
 * test_sim_session.c - the sim session through its public API
 * (ibpart/sys/sim_session.h), on the seed's fabric and plan (examples/seed/
 * through IBP_EXAMPLES): the port's table the SM pushed, pingpong inside
 * a partition (completes), across partitions (the fabric drops it) and on
 * an empty P_Key index (refused), the probe matrix, progress reported
 * through the callback, and a plan strict mode refuses failing with a
 * located error and finding.
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

#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/sim_session.h"
#include "util/diag_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"

static const char *example(const char *rel)
{
	static char buf[2][1024];
	static int k;
	const char *ex = getenv("IBP_EXAMPLES");
	k ^= 1;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", ex ? ex : "examples", rel);
	return buf[k];
}

static void count_progress(void *ctx, const char *msg)
{
	assert_non_null(msg);
	assert_true(msg[0] != 0);
	(*(int *)ctx)++;
}

/* A session on the seed, strict mode (the seed's own model). */
static int setup(void **state)
{
	static int calls;
	calls = 0;
	struct ibp_sim_session_options o;
	ibp_sim_session_options_init(&o, IBP_SIM_SESSION_OPTIONS_VERSION);
	o.topo_path = example("seed/seed.topo");
	o.conf_path = example("seed/seed-block.conf");
	o.mode = "strict";
	o.progress = count_progress;
	o.progress_ctx = &calls;
	ibp_sim_session *s = NULL;
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	int rc = ibp_sim_session_open(&o, &s, d, &err);
	if (rc != IBP_OK) {
		ibp_diags_print(d, stderr);
		fprintf(stderr, "%s\n", err.message);
	}
	ibp_diags_free(d);
	assert_int_equal(rc, IBP_OK);
	assert_non_null(s);
	assert_true(calls >= 3); /* load, plan, bring-up, push, ... */
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	ibp_sim_session_free(*state);
	return 0;
}

static void test_tables_pushed(void **state)
{
	ibp_sim_session *s = *state;
	size_t n;
	unsigned p;
	ibp_error err;
	assert_int_equal(
	    ibp_sim_session_port(s, "tenantA-node-01", &n, &p, &err), IBP_OK);
	/* The seed: TenantA-01 holds 0x8001 at index 0, nothing else. */
	const ibp_pkey_table *held =
	    ibp_tables_get(ibp_sim_session_port_tables(s), n, p);
	assert_non_null(held);
	assert_int_equal(ibp_pkey_table_get(held, 0), 0x8001);
	assert_int_equal(ibp_pkey_table_count(held), 1);
	const ibp_pkey_table *want =
	    ibp_tables_get(ibp_sim_session_tables(s), n, p);
	assert_non_null(want);
	assert_int_equal(ibp_pkey_table_get(want, 0), 0x8001);
	const struct ibp_sm_report *r = ibp_sim_session_report(s);
	assert_true(r->complete);
	assert_true(r->blocks_written > 0);
	size_t sn;
	ibp_sim_session_sm_port(s, &sn, NULL);
	assert_string_equal(ibp_fabric_node_desc(ibp_sim_session_fabric(s), sn),
			    "sm-01");
	assert_string_equal(ibp_sim_session_mode(s), "strict");
	/* A switch external port is not an end port. */
	assert_int_equal(ibp_sim_session_port(s, "leaf-01/3", &n, &p, &err) < 0,
			 1);
}

static void test_smpquery(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	ibp_error err;
	assert_int_equal(ibp_sim_session_smpquery_pkeys(
			     *state, "tenantA-node-01", 1, out, &err),
			 IBP_OK);
	fclose(out);
	assert_non_null(strstr(buf, "   0: 0x8001 0x0000 0x0000 0x0000 "
				    "0x0000 0x0000 0x0000 0x0000\n"));
	assert_non_null(strstr(buf, "64 pkeys capacity for this port\n"));
	free(buf);
	assert_int_equal(
	    ibp_sim_session_smpquery_pkeys(*state, "2", 30, NULL, &err),
	    IBP_ERANGE);
}

static void test_pingpong(void **state)
{
	ibp_sim_session *s = *state;
	struct ibp_sim_pingpong_options po;
	ibp_sim_pingpong_options_init(&po, IBP_SIM_PINGPONG_OPTIONS_VERSION);
	po.iters = 10;
	struct ibp_sim_pingpong_result r;
	ibp_error err;
	/* Inside TenantA: completes. */
	assert_int_equal(ibp_sim_session_pingpong(s, "tenantA-node-01",
						  "tenantA-node-02", &po, NULL,
						  &r, &err),
			 IBP_OK);
	assert_int_equal(r.outcome, IBP_SIM_PINGPONG_COMPLETED);
	assert_int_equal(r.iters_done, 10);
	assert_int_equal(r.pkey, 0x8001);
	assert_true(r.usec_per_iter > 0);
	/* TenantB -> TenantA: the leaf switch drops every try. */
	unsigned long traps = ibp_sm_trap_count(ibp_sim_session_sm(s), 0);
	assert_int_equal(ibp_sim_session_pingpong(s, "tenantB-node-01",
						  "tenantA-node-01", &po, NULL,
						  &r, &err),
			 IBP_OK);
	assert_int_equal(r.outcome, IBP_SIM_PINGPONG_FAILED);
	assert_int_equal(r.iters_done, 0);
	assert_int_equal(r.verdict, IBP_SIM_DROP_SWITCH_OUT);
	assert_true(ibp_sm_trap_count(ibp_sim_session_sm(s), 0) > traps);
	/* Storage, a limited member, serves a full tenant member. */
	assert_int_equal(ibp_sim_session_pingpong(s, "tenantB-node-02",
						  "storage-node", NULL, NULL,
						  &r, &err),
			 IBP_OK);
	assert_int_equal(r.outcome, IBP_SIM_PINGPONG_COMPLETED);
	/* An empty index: the HCA refuses the QP. */
	po.pkey_index = 7;
	assert_int_equal(ibp_sim_session_pingpong(s, "tenantA-node-01",
						  "tenantA-node-02", &po, NULL,
						  &r, &err),
			 IBP_OK);
	assert_int_equal(r.outcome, IBP_SIM_PINGPONG_REFUSED);
	/* Bad input is an error, not an outcome. */
	assert_true(ibp_sim_session_pingpong(s, "tenantA-node-01", "nowhere",
					     &po, NULL, &r, &err) < 0);
	assert_true(err.message[0] != 0);
}

static void test_probe_matrix(void **state)
{
	ibp_sim_session *s = *state;
	struct ibp_sim_probe_result m;
	ibp_error err;
	assert_int_equal(ibp_sim_session_probe_matrix(s, NULL, &m, &err),
			 IBP_OK);
	assert_int_equal(m.n, 7);
	const ibp_fabric *f = ibp_sim_session_fabric(s);
	long a1 = -1, a2 = -1, b1 = -1, st = -1;
	for (size_t k = 0; k < m.n; k++) {
		const char *d = ibp_fabric_node_desc(f, m.node[k]);
		if (!strcmp(d, "tenantA-node-01"))
			a1 = (long)k;
		else if (!strcmp(d, "tenantA-node-02"))
			a2 = (long)k;
		else if (!strcmp(d, "tenantB-node-01"))
			b1 = (long)k;
		else if (!strcmp(d, "storage-node"))
			st = (long)k;
	}
	assert_true(a1 >= 0 && a2 >= 0 && b1 >= 0 && st >= 0);
	assert_int_equal(m.cells[a1 * (long)m.n + a2], 1);
	assert_int_equal(m.cells[b1 * (long)m.n + a1], 0);
	assert_int_equal(m.cells[st * (long)m.n + b1], 1);
	assert_int_equal(m.cells[a1 * (long)m.n + a1], 0);
	ibp_sim_probe_result_free(&m);
	assert_null(m.cells);
	assert_int_equal(ibp_sim_session_counters(s, NULL, &err), IBP_OK);
}

/* Re-push with enforcement off, then back: both complete. */
static void test_repush(void **state)
{
	ibp_sim_session *s = *state;
	ibp_error err;
	assert_int_equal(ibp_sim_session_push(s, IBP_ENFORCE_OFF, &err),
			 IBP_OK);
	assert_int_equal(ibp_sim_session_enforce(s), IBP_ENFORCE_OFF);
	assert_true(ibp_sim_session_report(s)->complete);
	struct ibp_sim_pingpong_result r;
	assert_int_equal(ibp_sim_session_pingpong(s, "tenantB-node-01",
						  "tenantA-node-01", NULL, NULL,
						  &r, &err),
			 IBP_OK);
	assert_int_equal(r.outcome, IBP_SIM_PINGPONG_FAILED);
	assert_int_equal(r.verdict, IBP_SIM_DROP_RECV_PKEY);
	assert_int_equal(ibp_sim_session_push(s, IBP_ENFORCE_BOTH, &err),
			 IBP_OK);
}

/* Strict mode refuses a plan OpenSM rejects: a located error, and the
 * findings in diags; no session. */
static void test_bad_plan(void **state)
{
	(void)state;
	char path[] = "/tmp/ibp_sim_session_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char text[] = "Foo=0xzzzz : ALL=full ;\n";
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	struct ibp_sim_session_options o;
	ibp_sim_session_options_init(&o, IBP_SIM_SESSION_OPTIONS_VERSION);
	o.topo_path = example("seed/seed.topo");
	o.conf_path = path;
	o.mode = "strict";
	ibp_sim_session *s = (ibp_sim_session *)&o; /* must be reset */
	ibp_diags *d = ibp_diags_new();
	ibp_error err;
	int rc = ibp_sim_session_open(&o, &s, d, &err);
	assert_int_equal(rc, IBP_EPARSE);
	assert_null(s);
	assert_string_equal(err.file, path);
	assert_int_equal(err.line, 1);
	assert_int_equal(err.col, 5);
	bool located = false;
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *g = ibp_diags_get(d, i);
		if (g->severity == IBP_SEV_ERROR && !strcmp(g->file, path) &&
		    g->line == 1 && g->col == 5)
			located = true;
	}
	assert_true(located);
	ibp_diags_free(d);
	unlink(path);

	/* A topology that is not there, an options struct never
	 * initialised, an unknown mode. */
	o.topo_path = "/nonexistent/seed.topo";
	assert_int_equal(ibp_sim_session_open(&o, &s, NULL, &err), IBP_ENOENT);
	assert_string_equal(err.file, "/nonexistent/seed.topo");
	struct ibp_sim_session_options raw = {0};
	assert_int_equal(ibp_sim_session_open(&raw, &s, NULL, &err),
			 IBP_EINVAL);
	ibp_sim_session_options_init(&raw, IBP_SIM_SESSION_OPTIONS_VERSION);
	raw.topo_path = example("seed/seed.topo");
	raw.conf_path = example("seed/partitions.conf");
	raw.mode = "lax";
	assert_int_equal(ibp_sim_session_open(&raw, &s, NULL, &err),
			 IBP_EINVAL);
	assert_null(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_tables_pushed, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_smpquery, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pingpong, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_probe_matrix, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repush, setup, teardown),
	    cmocka_unit_test(test_bad_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
