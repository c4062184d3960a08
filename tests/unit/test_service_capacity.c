/*
 * test_service_capacity.c - the guard's table-overflow judgment
 * (service_capacity.c) with OpenSM's index memory as the service keeps
 * it (service_memory.c, ibp_service_note_opensm, the database's
 * opensm_memory table).  The port is leaf-2's port 0 of
 * tests/interop/data/live-2sw.topo (GUID 0x0002c90000002000): a
 * switch's port 0 holds 8 P_Keys (ibsim's switch PartitionCap), 0x7fff
 * at index 0.  A sequence of adds and removes, each "loaded by OpenSM"
 * (the file written, the memory recorded), then:
 *   - an add that does not fit by count (9 P_Keys in 8 entries) is
 *     refused naming the port, the capacity and the P_Key;
 *   - an add that fits by count (8 in 8) but which OpenSM's index memory
 *     makes overflow is refused: 0x8002, removed after a flip from full
 *     to limited, is still remembered at index 2 where 0x8008 now sits
 *     (docs/opensm-behaviour.md rules 20-22), so OpenSM would write
 *     0x8002 over 0x8008;
 *   - an add that fits (0x8009 into the hole at index 1) is accepted;
 *   - a loss the plan already has (the operator's own overflow) never
 *     blocks a change; a new one on the same port does;
 *   - the memory survives a reopen of the database; a database of
 *     schema version 1 is migrated.
 * The tables and the lost P_Keys are worked out by hand from those rules
 * (the sequence is the one rule 22 ran on the real OpenSM).
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
#include <sqlite3.h>

#include "ibpart/sys/service.h"
#include "service/service_lib.h"
#include "service_fixture.h"

#define SW "0002c90000002000" /* leaf-2, port 0 */

static int setup(void **state)
{
	(void)state;
	svc_fixture_setup(
	    "test_svc_cap",
	    "Default=0x7fff, ipoib : 0x0002c90000000101=full ;\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return svc_fixture_teardown();
}

/* What the applier does once OpenSM took the file: write it, record the
 * memory (the model alone: no fabric here; OpenSM pid 4242). */
static void loaded(ibp_service *s)
{
	ibp_error err;
	uint64_t rev = 0;
	assert_int_equal(ibp_service_write_partitions(s, &rev, &err), IBP_OK);
	int rc =
	    ibp_service_note_opensm(s, rev, NULL, 0, NULL, 4242, NULL, &err);
	if (rc)
		fprintf(stderr, "note: %s\n", err.message);
	assert_int_equal(rc, IBP_OK);
}

static int try_change(ibp_service *s, ibp_service_op op, uint16_t pkey,
		      const char *membership, struct ibp_service_error *e)
{
	char body[160], m[40] = "";
	if (membership)
		snprintf(m, sizeof(m), "\"membership\":\"%s\",", membership);
	snprintf(body, sizeof(body),
		 "{\"pkey\":\"0x%x\",%s\"guids\":[\"" SW "\"]}", pkey, m);
	ibp_service_error_init(e);
	return ibp_service_change(s, op, body, strlen(body), NULL, e);
}

static void accepted(ibp_service *s, ibp_service_op op, uint16_t pkey,
		     const char *membership)
{
	struct ibp_service_error e;
	int rc = try_change(s, op, pkey, membership, &e);
	if (rc)
		fprintf(stderr, "0x%x: %s %s\n", pkey, e.err.message,
			e.findings ? e.findings : "");
	assert_int_equal(rc, IBP_OK);
	ibp_service_error_clear(&e);
	loaded(s);
}

/* Refused as a conflict whose one finding is capacity-overflow on the
 * switch port with capacity 8, naming exactly the P_Key lost (lost as
 * the message writes it, base as the finding's partitions list it). */
static void overflows(ibp_service *s, uint16_t pkey, const char *lost,
		      const char *base, const char *why)
{
	struct ibp_service_error e;
	uint64_t rev = ibp_service_revision(s);
	assert_int_not_equal(
	    try_change(s, IBP_SERVICE_ADD_GUIDS, pkey, "full", &e), IBP_OK);
	if (ibp_service_error_http(&e) != 409 || !e.findings)
		fprintf(stderr, "0x%x: %d %s\n", pkey,
			ibp_service_error_http(&e), e.err.message);
	assert_int_equal(ibp_service_error_http(&e), 409);
	assert_int_equal(ibp_service_revision(s), rev);
	assert_non_null(e.findings);
	char want[256], parts[64];
	snprintf(want, sizeof(want), "\"ports\":[\"0x0002c90000002000\"]");
	snprintf(parts, sizeof(parts), "\"partitions\":[\"%s\"]", base);
	if (!strstr(e.findings, want) || !strstr(e.findings, lost) ||
	    !strstr(e.findings, why))
		fprintf(stderr, "findings: %s\n", e.findings);
	assert_non_null(strstr(e.findings, "\"capacity-overflow\""));
	assert_non_null(strstr(e.findings, want));
	assert_non_null(strstr(e.findings, lost));
	assert_non_null(strstr(e.findings, parts));
	assert_non_null(strstr(e.findings, "has 8 entries"));
	assert_non_null(strstr(e.findings, why));
	/* one finding: nothing else the change introduces */
	assert_null(strstr(strstr(e.findings, "\"code\"") + 1, "\"code\""));
	ibp_service_error_clear(&e);
}

static void test_index_memory_overflow(void **state)
{
	(void)state;
	ibp_service *s = open_svc(true);
	loaded(s); /* OpenSM took the operator's file: 0x7fff at 0 */
	for (uint16_t k = 1; k <= 7; k++) /* 0x7fff 0x8001 .. 0x8007 */
		accepted(s, IBP_SERVICE_ADD_GUIDS, k, "full");
	/* the ninth P_Key: 9 in 8 entries, by count alone */
	overflows(s, 8, "0x8008 would not fit", "0x0008",
		  "the table cannot hold them all");
	/* the flip: 0x0002 at index 2, 0x8002 still remembered there */
	accepted(s, IBP_SERVICE_ADD_GUIDS, 2, "limited");
	accepted(s, IBP_SERVICE_REMOVE_GUIDS, 2, NULL);
	/* 0x8008 reuses the hole at 2 (no index after last_pkey_idx 8):
	 * OpenSM forgets 0x0002 there, not 0x8002 */
	accepted(s, IBP_SERVICE_ADD_GUIDS, 8, "full");
	accepted(s, IBP_SERVICE_REMOVE_GUIDS, 1, NULL);
	/* 0x7fff 0x0000 0x8008 0x8003 .. 0x8007: seven P_Keys, a hole at 1.
	 * 0x8002 back makes eight - it fits by count - but returns to its
	 * remembered index 2, over 0x8008 */
	overflows(s, 2, "0x8008 would not fit", "0x0008",
		  "OpenSM remembers the index");
	ibp_service_close(s);

	/* the memory is in the database: the same refusal after a reopen */
	s = open_svc(true);
	overflows(s, 2, "0x8008 would not fit", "0x0008",
		  "OpenSM remembers the index");
	/* 0x8009, never placed on the port: into the hole at 1 */
	accepted(s, IBP_SERVICE_ADD_GUIDS, 9, "full");
	/* now full: 0x800a does not fit by count */
	overflows(s, 10, "0x800a would not fit", "0x000a",
		  "the table cannot hold them all");
	ibp_service_close(s);
}

/* Without the index memory (a database that never recorded one: an
 * OpenSM whose memory the service does not know yet is taken to
 * remember what the ports hold), the same plan accepts 0x8002 back:
 * the refusal above is the memory's, not the count's. */
static void test_without_memory_fits(void **state)
{
	(void)state;
	ibp_service *s = open_svc(true);
	struct ibp_service_error e;
	for (uint16_t k = 3; k <= 8; k++)
		assert_int_equal(
		    try_change(s, IBP_SERVICE_ADD_GUIDS, k, "full", &e),
		    IBP_OK);
	int rc = try_change(s, IBP_SERVICE_ADD_GUIDS, 2, "full", &e);
	if (rc)
		fprintf(stderr, "%s\n", e.findings ? e.findings : "");
	assert_int_equal(rc, IBP_OK);
	ibp_service_error_clear(&e);
	ibp_service_close(s);
}

/* A loss the plan already has never blocks: the operator's own lines
 * give the switch port 0x7fff and 0x0001-0x0008, nine P_Keys in eight
 * entries (0x8008 is dropped, OpenSM's ERR 0512).  A change elsewhere is
 * accepted; one more P_Key on that port is refused for itself alone. */
static void test_existing_loss(void **state)
{
	(void)state;
	FILE *f = fopen(conf, "a");
	assert_non_null(f);
	for (unsigned k = 1; k <= 8; k++)
		fprintf(f, "op%u=0x%04x : 0x" SW "=full ;\n", k, k);
	fclose(f);
	ibp_service *s = open_svc(true);
	loaded(s);
	struct ibp_service_error e;
	const char *other =
	    "{\"pkey\":\"0x30\",\"guids\":[\"0002c90000000301\"]}";
	ibp_service_error_init(&e);
	int rc = ibp_service_change(s, IBP_SERVICE_ADD_GUIDS, other,
				    strlen(other), NULL, &e);
	if (rc)
		fprintf(stderr, "%s\n",
			e.findings ? e.findings : e.err.message);
	assert_int_equal(rc, IBP_OK);
	ibp_service_error_clear(&e);
	loaded(s);
	overflows(s, 0x31, "0x8031 would not fit", "0x0031",
		  "the table cannot hold them all");
	ibp_service_close(s);
}

/* A database made by the first schema (no opensm_memory, no
 * fabric_caps) opens: the tables are added, its plan kept. */
static void test_migrate_v1(void **state)
{
	(void)state;
	sqlite3 *h = NULL;
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	assert_int_equal(
	    sqlite3_exec(
		h,
		"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
		"CREATE TABLE partitions(pkey INTEGER PRIMARY KEY,"
		" name TEXT NOT NULL, ipoib INTEGER, index0 INTEGER,"
		" created_empty INTEGER, has_qos INTEGER, mtu_limit INTEGER,"
		" rate_limit REAL, sl INTEGER);"
		"CREATE TABLE members(pkey INTEGER, guid INTEGER,"
		" full INTEGER, index0 INTEGER, PRIMARY KEY(pkey, guid))"
		" WITHOUT ROWID;"
		"CREATE TABLE revisions(rev INTEGER PRIMARY KEY,"
		" time INTEGER, op TEXT, pkey INTEGER, state TEXT, reason "
		"TEXT);"
		"CREATE TABLE tokens(id TEXT PRIMARY KEY, hash TEXT,"
		" user TEXT, issued_at INTEGER);"
		"INSERT INTO meta VALUES('schema', 'ibpartd-1');"
		"INSERT INTO partitions VALUES(3, 'api_pkey_0x3', 0, 0, 0, 0,"
		" 0, 0, 0);"
		"INSERT INTO members VALUES(3, 783951790612480, 1, 0);"
		"INSERT INTO revisions VALUES(1, 0, 'add_guids', 3, 'pending',"
		" NULL);",
		NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(h);
	ibp_service *s = open_svc(true);
	assert_int_equal(ibp_service_revision(s), 1);
	loaded(s);
	ibp_service_close(s);
	assert_int_equal(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_stmt *st = NULL;
	assert_int_equal(
	    sqlite3_prepare_v2(h,
			       "SELECT (SELECT value FROM meta WHERE "
			       "key='schema_version'), (SELECT rev FROM "
			       "opensm_memory), (SELECT count(*) FROM members)",
			       -1, &st, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	/* through version 2 to 3 (issue 28's tokens and authors) and 4
	 * (issue 26: what each revision's fabric showed) */
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "4");
	assert_int_equal(sqlite3_column_int(st, 1), 1);
	assert_int_equal(sqlite3_column_int(st, 2), 1);
	sqlite3_finalize(st);
	sqlite3_close(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_index_memory_overflow, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_without_memory_fits, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_existing_loss, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
