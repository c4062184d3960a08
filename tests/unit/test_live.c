/*
 * test_live.c - the library half of the live-fabric commands: drift per
 * port (each kind on a hand-built fabric), the rollback state file round
 * trip and its rejection of foreign input, atomic writes keeping the old
 * file, pid files, and waiting for a line in a growing log.
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

#include "ibpart/live.h"
#include "live/live_lib.h"
#include "util/atomic_file_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/live.h"

/* A switch (node 0, 4 ports) and two CAs on its ports 1 and 2. */
static ibp_fabric *small_fabric(void)
{
	ibp_fabric *f = ibp_fabric_new(NULL);
	size_t sw, a, b;
	assert_int_equal(ibp_fabric_add_node(f, IBP_NODE_SWITCH, 0x1000, 4,
					     "leaf", &sw, NULL),
			 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x2000, 1, "a", &a, NULL), 0);
	assert_int_equal(
	    ibp_fabric_add_node(f, IBP_NODE_CA, 0x3000, 1, "b", &b, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, sw, 1, a, 1, NULL), 0);
	assert_int_equal(ibp_fabric_link(f, sw, 2, b, 1, NULL), 0);
	return f;
}

static void put(ibp_tables *ts, size_t node, unsigned port,
		const uint16_t *keys, unsigned n)
{
	ibp_pkey_table *t = ibp_tables_get_or_create(ts, node, port);
	assert_non_null(t);
	ibp_pkey_table_clear(t);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(ibp_pkey_table_set(t, i, keys[i], NULL), 0);
}

static void test_no_drift(void **state)
{
	(void)state;
	ibp_fabric *f = small_fabric();
	ibp_tables *want = ibp_tables_new(f), *have = ibp_tables_new(f);
	const uint16_t k[] = {0x7fff, 0x8001};
	put(want, 1, 1, k, 2);
	put(have, 1, 1, k, 2);
	/* a port the plan does not program is not judged */
	const uint16_t other[] = {0xffff};
	put(have, 2, 1, other, 1);
	ibp_drift *d;
	assert_int_equal(ibp_drift_compute(want, have, &d, NULL), 0);
	assert_int_equal(ibp_drift_count(d), 0);
	assert_int_equal(ibp_drift_ports_checked(d), 1);
	assert_int_equal(ibp_drift_ports_drifted(d), 0);
	ibp_drift_free(d);
	ibp_tables_free(want);
	ibp_tables_free(have);
	ibp_fabric_free(f);
}

static void test_each_kind(void **state)
{
	(void)state;
	ibp_fabric *f = small_fabric();
	ibp_tables *want = ibp_tables_new(f), *have = ibp_tables_new(f);
	/* want: 0x7fff@0 0x8001@1 0x0002@2 0x8003@3
	 * have: 0x7fff@0 0x0001@1 0x8003@2 0x8005@3 (0x0002 missing) */
	const uint16_t w[] = {0x7fff, 0x8001, 0x0002, 0x8003};
	const uint16_t h[] = {0x7fff, 0x0001, 0x8003, 0x8005};
	put(want, 1, 1, w, 4);
	put(have, 1, 1, h, 4);
	/* node 2 port 1 wanted but never read */
	put(want, 2, 1, w, 1);
	ibp_drift *d;
	assert_int_equal(ibp_drift_compute(want, have, &d, NULL), 0);
	assert_int_equal(ibp_drift_ports_checked(d), 2);
	assert_int_equal(ibp_drift_ports_drifted(d), 2);
	assert_int_equal(ibp_drift_count(d), 5);
	const struct ibp_drift_item *it = ibp_drift_at(d, 0);
	assert_int_equal(it->kind, IBP_DRIFT_MEMBERSHIP);
	assert_int_equal(it->want_pkey, 0x8001);
	assert_int_equal(it->have_pkey, 0x0001);
	assert_int_equal(it->want_index, 1);
	it = ibp_drift_at(d, 1);
	assert_int_equal(it->kind, IBP_DRIFT_MISSING);
	assert_int_equal(it->want_pkey, 0x0002);
	assert_int_equal(it->want_index, 2);
	assert_int_equal(it->have_index, -1);
	it = ibp_drift_at(d, 2);
	assert_int_equal(it->kind, IBP_DRIFT_INDEX);
	assert_int_equal(it->want_index, 3);
	assert_int_equal(it->have_index, 2);
	it = ibp_drift_at(d, 3);
	assert_int_equal(it->kind, IBP_DRIFT_EXTRA);
	assert_int_equal(it->have_pkey, 0x8005);
	assert_int_equal(it->have_index, 3);
	it = ibp_drift_at(d, 4);
	assert_int_equal(it->kind, IBP_DRIFT_UNREACHABLE);
	assert_int_equal(it->node, 2);
	assert_null(ibp_drift_at(d, 5));
	assert_string_equal(ibp_drift_kind_str(IBP_DRIFT_INDEX), "index");
	ibp_drift_free(d);
	ibp_tables_free(want);
	ibp_tables_free(have);
	ibp_fabric_free(f);
}

static void test_duplicate_base_is_extra(void **state)
{
	(void)state;
	ibp_fabric *f = small_fabric();
	ibp_tables *want = ibp_tables_new(f), *have = ibp_tables_new(f);
	const uint16_t w[] = {0xffff};
	const uint16_t h[] = {0xffff, 0x7fff};
	put(want, 0, 0, w, 1);
	put(have, 0, 0, h, 2);
	ibp_drift *d;
	assert_int_equal(ibp_drift_compute(want, have, &d, NULL), 0);
	assert_int_equal(ibp_drift_count(d), 1);
	assert_int_equal(ibp_drift_at(d, 0)->kind, IBP_DRIFT_EXTRA);
	assert_int_equal(ibp_drift_at(d, 0)->have_pkey, 0x7fff);
	ibp_drift_free(d);
	ibp_tables_free(want);
	ibp_tables_free(have);
	ibp_fabric_free(f);
}

static char *tmp_path(const char *name)
{
	static char buf[4][512];
	static int i;
	char *b = buf[i++ % 4];
	const char *dir = getenv("TMPDIR");
	snprintf(b, 512, "%s/ibp-test-live-%ld-%s", dir ? dir : "/tmp",
		 (long)getpid(), name);
	return b;
}

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return NULL;
	static char buf[65536];
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/* allow_both_pkeys: a port holds the full and the limited key of one
 * base.  Both held as planned is no drift; one of them gone is missing;
 * both at swapped indexes is two index drifts; the wrong bit on the only
 * copy is membership (items in index order). */
static void test_both_keys_one_base(void **state)
{
	(void)state;
	ibp_fabric *f = small_fabric();
	ibp_tables *want = ibp_tables_new(f), *have = ibp_tables_new(f);
	const uint16_t w[] = {0x7fff, 0x0001, 0x8001};
	put(want, 1, 1, w, 3);
	struct {
		uint16_t h[3];
		unsigned n;
		size_t count;
		ibp_drift_kind kind;
		uint16_t key;
	} cases[] = {
	    {{0x7fff, 0x0001, 0x8001}, 3, 0, 0, 0},
	    {{0x7fff, 0x8001}, 2, 2, IBP_DRIFT_MISSING, 0x0001}, /* + index */
	    {{0x7fff, 0x8001, 0x0001}, 3, 2, IBP_DRIFT_INDEX, 0x0001},
	    {{0x7fff, 0x0001, 0x0001}, 3, 1, IBP_DRIFT_MEMBERSHIP, 0x8001},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++) {
		put(have, 1, 1, cases[c].h, cases[c].n);
		ibp_drift *d;
		assert_int_equal(ibp_drift_compute(want, have, &d, NULL), 0);
		assert_int_equal(ibp_drift_count(d), cases[c].count);
		if (cases[c].count) {
			const struct ibp_drift_item *it = ibp_drift_at(d, 0);
			assert_int_equal(it->kind, cases[c].kind);
			assert_int_equal(it->want_pkey, cases[c].key);
		}
		ibp_drift_free(d);
	}
	ibp_tables_free(want);
	ibp_tables_free(have);
	ibp_fabric_free(f);
}

static void test_state_round_trip(void **state)
{
	(void)state;
	ibp_fabric *f = small_fabric();
	ibp_tables *ts = ibp_tables_new(f);
	const uint16_t k1[] = {0x7fff, 0x0000, 0x8002};
	const uint16_t k2[] = {0xffff};
	put(ts, 1, 1, k1, 3);
	put(ts, 0, 2, k2, 1);
	assert_int_equal(ibp_tables_set_enforcement(ts, 0, 2, true, false), 0);
	char *p = tmp_path("state.json");
	assert_int_equal(ibp_state_save(ts, p, NULL), 0);
	assert_non_null(strstr(slurp(p), "\"0x8002\""));
	assert_non_null(strstr(slurp(p), "\"enforcement\": \"in\""));
	ibp_tables *back;
	assert_int_equal(ibp_state_load(f, p, false, &back, NULL), 0);
	assert_int_equal(ibp_tables_count(back), 2);
	/* the switch port's enforcement bits come back; the CA's are not
	 * known */
	bool in = false, out = true;
	assert_true(ibp_tables_get_enforcement(back, 0, 2, &in, &out));
	assert_true(in);
	assert_false(out);
	assert_false(ibp_tables_get_enforcement(back, 1, 1, NULL, NULL));
	assert_true(ibp_pkey_table_equal(ibp_tables_get(back, 1, 1),
					 ibp_tables_get(ts, 1, 1)));
	assert_int_equal(ibp_pkey_table_get(ibp_tables_get(back, 0, 2), 0),
			 0xffff);
	ibp_tables_free(back);

	/* a file about another fabric is refused */
	ibp_fabric *g = ibp_fabric_new(NULL);
	size_t n;
	assert_int_equal(
	    ibp_fabric_add_node(g, IBP_NODE_CA, 0x9000, 1, "x", &n, NULL), 0);
	ibp_error e;
	assert_int_equal(ibp_state_load(g, p, false, &back, &e), IBP_ENOENT);
	assert_null(back);
	/* unless asked to skip what the fabric lacks */
	assert_int_equal(ibp_state_load(g, p, true, &back, NULL), 0);
	assert_int_equal(ibp_tables_count(back), 0);
	ibp_tables_free(back);
	ibp_fabric_free(g);

	/* and so is a file that is not a state file (plain tables JSON,
	 * the first `tables --state` format, is one: version 0) */
	FILE *fp = fopen(p, "w");
	fputs("{\"format\": \"ibpart-pkey-state-9\", \"ports\": []}\n", fp);
	fclose(fp);
	assert_int_equal(ibp_state_load(f, p, false, &back, &e), IBP_EPARSE);
	fp = fopen(p, "w");
	fputs("[]\n", fp);
	fclose(fp);
	assert_int_equal(ibp_state_load(f, p, false, &back, &e), IBP_EPARSE);
	unlink(p);
	ibp_tables_free(ts);
	ibp_fabric_free(f);
}

/* The state loader is strict: a key given twice, a port number that
 * would wrap, a port listed twice are errors that say where. */
static void test_state_strict(void **state)
{
	(void)state;
	ibp_fabric *f = small_fabric();
	static const char *const bad[][2] = {
	    {"{\"format\": \"ibpart-pkey-state-1\", \"format\": \"x\", "
	     "\"ports\": []}",
	     "duplicate"},
	    {"{\"format\": \"ibpart-pkey-state-1\", \"ports\": "
	     "[{\"node_guid\": \"0x2000\", \"port\": 4294967297, "
	     "\"pkeys\": [\"0xffff\"]}]}",
	     "ports[0].port"},
	    {"{\"format\": \"ibpart-pkey-state-1\", \"ports\": "
	     "[{\"node_guid\": \"0x2000\", \"port\": 1, \"pkeys\": "
	     "[\"0xffff\"]}, {\"node_guid\": \"0x2000\", \"port\": 1, "
	     "\"pkeys\": [\"0x8001\"]}]}",
	     "listed twice"},
	    {"{\"format\": \"ibpart-pkey-state-1\", \"ports\": "
	     "[{\"node_guid\": \"0x2000\", \"port\": 1, \"pkeys\": "
	     "[\"0x1ffff\"]}]}",
	     "ports[0].pkeys[0]"},
	};
	char p[] = "/tmp/ibp-state-strict-XXXXXX";
	int fd = mkstemp(p);
	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		FILE *fp = fopen(p, "w");
		assert_non_null(fp);
		fputs(bad[i][0], fp);
		fclose(fp);
		ibp_tables *back = NULL;
		ibp_error e;
		ibp_error_clear(&e);
		assert_int_equal(ibp_state_load(f, p, false, &back, &e),
				 IBP_EPARSE);
		assert_null(back);
		if (!strstr(e.message, bad[i][1]))
			fail_msg("case %zu: '%s' lacks '%s'", i, e.message,
				 bad[i][1]);
	}
	unlink(p);
	ibp_fabric_free(f);
}

static void test_atomic_write_keeps_backup(void **state)
{
	(void)state;
	char *p = tmp_path("conf");
	char bak[600];
	snprintf(bak, sizeof(bak), "%s.bak", p);
	unlink(p);
	unlink(bak);
	assert_int_equal(ibp_write_file_atomic(p, "one\n", 4, true, NULL), 0);
	assert_string_equal(slurp(p), "one\n");
	assert_int_equal(access(bak, F_OK), -1); /* nothing to back up */
	assert_int_equal(ibp_write_file_atomic(p, "two\n", 4, true, NULL), 0);
	assert_string_equal(slurp(p), "two\n");
	assert_string_equal(slurp(bak), "one\n");
	/* a directory that does not exist: error, nothing written */
	ibp_error e;
	assert_int_equal(
	    ibp_write_file_atomic("/nonexistent-dir/x", "z", 1, true, &e),
	    IBP_EIO);
	unlink(p);
	unlink(bak);
}

static void test_pidfile_and_log_wait(void **state)
{
	(void)state;
	char *pf = tmp_path("pid");
	FILE *fp = fopen(pf, "w");
	fprintf(fp, "%ld\n", (long)getpid());
	fclose(fp);
	pid_t pid = 0;
	assert_int_equal(ibp_read_pidfile(pf, &pid, NULL), 0);
	assert_int_equal(pid, getpid());
	fp = fopen(pf, "w");
	fputs("garbage\n", fp);
	fclose(fp);
	assert_int_equal(ibp_read_pidfile(pf, &pid, NULL), IBP_EINVAL);
	unlink(pf);

	char *log = tmp_path("log");
	fp = fopen(log, "w");
	fputs("old SUBNET UP\n", fp);
	fclose(fp);
	long off = ibp_file_size(log);
	/* the line before the offset does not count */
	assert_int_equal(ibp_wait_log(log, off, "SUBNET UP", 50, NULL, NULL),
			 IBP_ETIMEDOUT);
	fp = fopen(log, "a");
	fputs("x -> SUBNET UP\n", fp);
	fclose(fp);
	long ms = -1;
	assert_int_equal(ibp_wait_log(log, off, "SUBNET UP", 1000, &ms, NULL),
			 0);
	assert_true(ms >= 0 && ms < 1000);
	unlink(log);
}

/* ibp_log_count_lines, the one reader of OpenSM's log: lines appended
 * after the offset, a partial last line not yet, a shrunk (rotated) file
 * -1 with the offset reset, a missing file -1. */
static void append(const char *path, const char *mode, const char *text)
{
	FILE *fp = fopen(path, mode);
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static void test_log_count_lines(void **state)
{
	(void)state;
	char *log = tmp_path("log");
	append(log, "w", "old SUBNET UP\n");
	long off = 14; /* past "old SUBNET UP\n" */
	assert_int_equal(ibp_log_count_lines(log, "SUBNET UP", &off), 0);
	assert_int_equal(off, 14);
	append(log, "a", "a SUBNET UP\nb sweep\nc SUBNET UP\nd SUBNET");
	assert_int_equal(ibp_log_count_lines(log, "SUBNET UP", &off), 2);
	assert_int_equal(off, 14 + 12 + 8 + 12); /* "d SUBNET" not yet */
	append(log, "a", " UP\n");
	assert_int_equal(ibp_log_count_lines(log, "SUBNET UP", &off), 1);
	assert_int_equal(off, 14 + 12 + 8 + 12 + 12);
	assert_int_equal(ibp_log_count_lines(log, "SUBNET UP", &off), 0);
	append(log, "w", "new\n"); /* rotated: shorter than the offset */
	assert_int_equal(ibp_log_count_lines(log, "SUBNET UP", &off), -1);
	assert_int_equal(off, 0);
	append(log, "a", "e SUBNET UP\n");
	assert_int_equal(ibp_log_count_lines(log, "SUBNET UP", &off), 1);
	assert_int_equal(off, 4 + 12);
	unlink(log);
	off = 7;
	assert_int_equal(ibp_log_count_lines(log, "SUBNET UP", &off), -1);
	assert_int_equal(off, 7);
}

static void join_line(void *ctx, const char *line, size_t len)
{
	char *all = ctx;
	assert_int_equal(strlen(line), len); /* NUL-terminated, whole */
	assert_int_equal(line[len - 1], '\n');
	strcat(all, line);
}

/* Every whole line is handed on once, in order; a line still being
 * written waits for its newline; a shrunk log is read from its start
 * at the next call. */
static void test_log_read_lines(void **state)
{
	(void)state;
	char *log = tmp_path("log2");
	char all[256] = "";
	long off = 0;
	append(log, "w", "Entering STANDBY state\nx\nEntering MAST");
	assert_int_equal(ibp_log_read_lines(log, &off, join_line, all), 2);
	assert_string_equal(all, "Entering STANDBY state\nx\n");
	append(log, "a", "ER state\n");
	all[0] = 0;
	assert_int_equal(ibp_log_read_lines(log, &off, join_line, all), 1);
	assert_string_equal(all, "Entering MASTER state\n");
	assert_int_equal(ibp_log_read_lines(log, &off, join_line, all), 0);
	append(log, "w", "y\n");
	all[0] = 0;
	assert_int_equal(ibp_log_read_lines(log, &off, join_line, all), -1);
	assert_string_equal(all, "");
	assert_int_equal(ibp_log_read_lines(log, &off, join_line, all), 1);
	assert_string_equal(all, "y\n");
	assert_int_equal(ibp_log_read_lines(log, &off, NULL, NULL), 0);
	unlink(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_drift),
	    cmocka_unit_test(test_each_kind),
	    cmocka_unit_test(test_duplicate_base_is_extra),
	    cmocka_unit_test(test_both_keys_one_base),
	    cmocka_unit_test(test_state_round_trip),
	    cmocka_unit_test(test_state_strict),
	    cmocka_unit_test(test_atomic_write_keeps_backup),
	    cmocka_unit_test(test_pidfile_and_log_wait),
	    cmocka_unit_test(test_log_count_lines),
	    cmocka_unit_test(test_log_read_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
