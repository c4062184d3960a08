/*
 * test_service.c - the partition service's store (service.h): UFM's
 * requests as ib-kubernetes, NICo and NCM send them (docs/ufm-api.md)
 * change the plan, each as one revision that survives a reopen; the
 * responses have UFM's shapes; bad input is refused naming the field
 * with nothing changed; an operator's P_Key is refused as a conflict;
 * the rendered partitions.conf keeps the operator's text byte for byte,
 * is read by the conf parser (OpenSM's reading) as meant, index0 members
 * in a second statement with indx0; the isolation guard refuses a
 * tenant bridge the change would make.  Expected values are written by
 * hand from the spec and UFM's documented shapes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>
#include <sqlite3.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "ibpart/sys/service.h"
#include "service/service_lib.h"
#include "service_fixture.h"

static const char operator_text[] =
    "# the operator's own partitions: keep this comment\n"
    "Default=0x7fff, ipoib : 0x0002c90000000101=full ;\n"
    "\n"
    "storage=0x0010, ipoib :\n"
    "    0x0002c90000000201=full ; # node-a, trailing comment\n";

static int setup(void **state)
{
	(void)state;
	svc_fixture_setup("test_service", operator_text);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return svc_fixture_teardown();
}

static uint64_t change(ibp_service *s, ibp_service_op op, const char *body)
{
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t rev = 0;
	int rc = ibp_service_change(s, op, body, strlen(body), &rev, &e);
	if (rc)
		fprintf(stderr, "change %s: %s\n", body, e.err.message);
	assert_int_equal(rc, IBP_OK);
	ibp_service_error_clear(&e);
	return rev;
}

/* A refused change: its HTTP status and field; the revision unchanged. */
static void refused(ibp_service *s, ibp_service_op op, const char *body,
		    int http, const char *field)
{
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	uint64_t before = ibp_service_revision(s);
	assert_int_not_equal(
	    ibp_service_change(s, op, body, strlen(body), NULL, &e), IBP_OK);
	if (ibp_service_error_http(&e) != http || strcmp(e.field, field))
		fprintf(stderr, "%s: %d %s: %s\n", body,
			ibp_service_error_http(&e), e.field, e.err.message);
	assert_int_equal(ibp_service_error_http(&e), http);
	assert_string_equal(e.field, field);
	assert_int_equal(ibp_service_revision(s), before);
	char *j = ibp_service_error_json(&e);
	assert_non_null(strstr(j, "\"error\""));
	free(j);
	ibp_service_error_clear(&e);
}

static char *get(ibp_service *s, const char *pkey, bool g, bool q)
{
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	char *j = NULL;
	assert_int_equal(ibp_service_get(s, pkey, g, q, &j, &e), IBP_OK);
	return j;
}

static char *file_text(void)
{
	FILE *f = fopen(conf, "r");
	assert_non_null(f);
	static char buf[65536];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* ib-kubernetes' exact add (ufm.go AddGuidsToPKey), then a get and the
 * list in UFM's shape. */
static void test_ibk_add_get_list(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	uint64_t r = change(s, IBP_SERVICE_ADD_GUIDS,
			    "{\"pkey\": \"0x000A\", \"index0\": true, "
			    "\"ip_over_ib\": true, \"membership\": \"full\", "
			    "\"guids\": [\"020000000000003e\","
			    "\"02000FF000FF0009\"]}");
	assert_int_equal(r, 1);
	char *j = get(s, "0xa", true, true);
	assert_string_equal(
	    j, "{\"partition\":\"api_pkey_0xa\",\"ip_over_ib\":true,"
	       "\"managed_by\":\"ibpartd\",\"guids\":[{\"guid\":"
	       "\"020000000000003e\",\"membership\":\"full\",\"index0\":"
	       "true},{\"guid\":\"02000ff000ff0009\",\"membership\":"
	       "\"full\",\"index0\":true}],\"qos_conf\":{\"mtu_limit\":2,"
	       "\"rate_limit\":10,\"service_level\":0}}");
	free(j);
	j = get(s, "10", false, false); /* decimal 10 is 0xa */
	assert_string_equal(j, "{\"partition\":\"api_pkey_0xa\",\"ip_over_ib\":"
			       "true,\"managed_by\":\"ibpartd\"}");
	free(j);
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	assert_int_equal(ibp_service_list(s, false, false, &j, &e), IBP_OK);
	assert_string_equal(
	    j, "{\"0xa\":{\"partition\":\"api_pkey_0xa\",\"ip_over_ib\":true,"
	       "\"managed_by\":\"ibpartd\"},\"0x10\":{\"partition\":"
	       "\"storage\",\"ip_over_ib\":true,\"managed_by\":\"operator\"},"
	       "\"0x7fff\":{\"partition\":\"Default\",\"ip_over_ib\":true,"
	       "\"managed_by\":\"operator\"}}");
	free(j);
	/* the same add again changes nothing: no new revision */
	r = change(s, IBP_SERVICE_ADD_GUIDS,
		   "{\"pkey\":\"0xa\",\"index0\":true,\"guids\":"
		   "[\"020000000000003e\"]}");
	assert_int_equal(r, 1);
	/* unknown P_Key: 404 */
	assert_int_not_equal(ibp_service_get(s, "0x5", true, false, &j, &e),
			     IBP_OK);
	assert_int_equal(ibp_service_error_http(&e), 404);
	ibp_service_close(s);
}

/* 0x20: a full and a limited member, then an index0 one. */
static void members_0x20(ibp_service *s)
{
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x20\",\"guids\":[\"0x0002c90000000301\","
	       "\"00:02:c9:00:00:00:04:01\"],\"memberships\":[\"full\","
	       "\"limited\"],\"index0\":false}");
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x20\",\"guids\":[\"0002c90000000601\"],"
	       "\"index0\":true}");
}

/* The file: operator's text byte for byte, then the marker, then the
 * API's statements as OpenSM reads them. */
static void test_render(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	members_0x20(s);
	change(s, IBP_SERVICE_CREATE,
	       "{\"pkey\":\"0x12\",\"ip_over_ib\":true,\"mtu_limit\":4,"
	       "\"service_level\":3,\"rate_limit\":200.0,"
	       "\"partition_name\":\"user_partition\"}");
	ibp_error err;
	uint64_t rev = 0;
	assert_int_equal(ibp_service_write_partitions(s, &rev, &err), IBP_OK);
	assert_int_equal(rev, ibp_service_revision(s));
	const char *t = file_text();
	assert_memory_equal(t, operator_text, strlen(operator_text));
	const char *gen = strstr(t, "# ---- ibpartd: generated section");
	assert_non_null(gen);
	assert_non_null(strstr(gen, "api_pkey_0x20=0x0020, ipoib :\n"
				    "\t0x0002c90000000301=full, "
				    "0x0002c90000000401=limited ;\n"));
	assert_non_null(strstr(gen, "api_pkey_0x20=0x0020, ipoib, indx0 :\n"
				    "\t0x0002c90000000601=full ;\n"));
	/* no members yet: a comment, OpenSM drops such a partition */
	assert_non_null(
	    strstr(gen, "# user_partition=0x0012 has no members yet\n"));
	/* OpenSM's reading: accepted, no errors, per-port index0 */
	ibp_conf *c = NULL;
	assert_int_equal(ibp_conf_parse_file(conf, NULL, &c, NULL, &err),
			 IBP_OK);
	assert_int_equal(ibp_conf_error_count(c), 0);
	assert_false(ibp_conf_opensm_verdict(c)->rejected);
	const ibp_conf_group *g = ibp_conf_group_find(c, 0x20);
	assert_non_null(g);
	bool i0 = true;
	assert_int_equal(ibp_conf_group_port_membership(
			     g, 0x0002c90000000401ull, IBP_NODE_CA, 0, &i0),
			 IBP_MEMB_LIMITED);
	assert_false(i0);
	assert_int_equal(ibp_conf_group_port_membership(
			     g, 0x0002c90000000601ull, IBP_NODE_CA, 0, &i0),
			 IBP_MEMB_FULL);
	assert_true(i0);
	ibp_conf_free(c);
	/* QoS in OpenSM's codes once members come: mtu_limit 4 KiB is MTU
	 * code 5, 200 Gb/s is rate code 17 (IBA table 205) */
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x12\",\"guids\":[\"0002c90000000201\"],"
	       "\"membership\":\"limited\"}");
	assert_int_equal(ibp_service_write_partitions(s, NULL, &err), IBP_OK);
	assert_non_null(strstr(file_text(), "user_partition=0x0012, ipoib, "
					    "mtu=5, rate=17, sl=3 :\n"));
	char *j = get(s, "0x12", false, true);
	assert_non_null(strstr(j, "\"qos_conf\":{\"mtu_limit\":4,"
				  "\"rate_limit\":200,\"service_level\":3}"));
	free(j);
	/* writing again keeps the operator's text once, not twice */
	assert_int_equal(ibp_service_write_partitions(s, NULL, &err), IBP_OK);
	t = file_text();
	assert_memory_equal(t, operator_text, strlen(operator_text));
	assert_ptr_equal(strstr(t, "# ---- ibpartd"),
			 strrchr(t, '#') ? strstr(t, "# ---- ibpartd") : NULL);
	assert_null(strstr(strstr(t, "# ---- ibpartd") + 1, "# ---- ibpartd"));
	ibp_service_close(s);
}

/* Until the clock is past the racy window of a file's times (100 ms of
 * coarse timestamps, service_render.c): the service trusts the file's
 * stat only then.  Waits for the clock, decides nothing. */
static void past_racy_window(void)
{
	struct timespec t = {0, 150000000};
	while (nanosleep(&t, &t))
		;
}

/* GET /resources/pkeys is written as it goes (service_json_list.c):
 * for every combination of guids_data and qos_conf it is the object of
 * each P_Key as the single GET answers it (jansson's tree, whose shapes
 * the tests above write by hand), in P_Key order, the API's and the
 * operator's merged - members full, limited and index0, QoS with a
 * fraction, IPoIB off, the operator's Default with a member. */
static void test_list_stream(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	members_0x20(s);
	change(s, IBP_SERVICE_CREATE,
	       "{\"pkey\":\"0x12\",\"ip_over_ib\":false,\"mtu_limit\":4,"
	       "\"service_level\":3,\"rate_limit\":2.5,"
	       "\"partition_name\":\"user.partition-1\"}");
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x7ffe\",\"guids\":[\"0002c90000000701\"]}");
	for (int flags = 0; flags < 4; flags++) {
		bool g = flags & 1, q = flags & 2;
		struct ibp_service_error e;
		ibp_service_error_init(&e);
		char *list = NULL;
		assert_int_equal(ibp_service_list(s, g, q, &list, &e), IBP_OK);
		json_error_t je;
		json_t *o = json_loads(list, 0, &je);
		assert_non_null(o);
		assert_int_equal(json_object_size(o), 5);
		/* the text each single GET gives, joined in the list's order */
		char *want = NULL;
		size_t wl = 0;
		FILE *w = open_memstream(&want, &wl);
		assert_non_null(w);
		const char *key;
		json_t *v;
		bool first = true;
		json_object_foreach(o, key, v)
		{
			char *one = get(s, key, g, q);
			fprintf(w, "%s\"%s\":%s", first ? "{" : ",", key, one);
			first = false;
			free(one);
		}
		fputc('}', w);
		fclose(w);
		assert_string_equal(list, want);
		free(want);
		free(list);
		json_decref(o);
	}
	/* P_Key order: 0x10 and 0x7fff are the operator's */
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	char *list = NULL;
	assert_int_equal(ibp_service_list(s, true, false, &list, &e), IBP_OK);
	const char *k12 = strstr(list, "\"0x12\":"),
		   *k10 = strstr(list, "\"0x10\":"),
		   *k20 = strstr(list, "\"0x20\":"),
		   *k7ffe = strstr(list, "\"0x7ffe\":"),
		   *k7fff = strstr(list, "\"0x7fff\":");
	assert_true(k10 && k12 && k20 && k7ffe && k7fff);
	assert_true(k10 < k12 && k12 < k20 && k20 < k7ffe && k7ffe < k7fff);
	assert_non_null(strstr(list, "\"partition\":\"user.partition-1\""));
	free(list);
	ibp_service_close(s);
}

/* The partitions file is read once per change of it (inode, size,
 * mtime, ctime), not once per render: the operator's edits, the
 * service's own writes and a same-size edit with the mtime put back
 * (cp -p) are each read once, and every render in between takes the
 * text kept.  The old service read the file whole on every render. */
static void test_operator_file_read_once(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	ibp_error err;
	assert_int_equal(ibp_service_write_partitions(s, NULL, &err), IBP_OK);
	past_racy_window();
	char *text = NULL, problem[512];
	size_t len = 0;
	assert_int_equal(ibp_service_render(s, &text, &len, NULL, &err),
			 IBP_OK);
	free(text);
	unsigned long reads = ibp_service_partitions_file_reads(s);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(ibp_service_render(s, &text, &len, NULL, &err),
				 IBP_OK);
		assert_non_null(strstr(text, "storage=0x0010"));
		free(text);
		assert_false(
		    ibp_service_file_problem(s, problem, sizeof(problem)));
	}
	assert_int_equal(ibp_service_partitions_file_reads(s), reads);
	/* the operator adds a partition above the marker */
	char *whole = strdup(file_text());
	const char *m = strstr(whole, "# ---- ibpartd");
	assert_non_null(m);
	FILE *f = fopen(conf, "w");
	assert_non_null(f);
	fprintf(f, "%.*sextra=0x0030 : 0x0002c90000000501=full ;\n%s",
		(int)(m - whole), whole, m);
	fclose(f);
	free(whole);
	past_racy_window();
	for (int i = 0; i < 5; i++) {
		assert_int_equal(ibp_service_render(s, &text, &len, NULL, &err),
				 IBP_OK);
		assert_non_null(strstr(text, "extra=0x0030 :"));
		free(text);
	}
	assert_int_equal(ibp_service_partitions_file_reads(s), reads + 1);
	/* the same size, the mtime put back: the ctime tells */
	struct stat st;
	assert_int_equal(stat(conf, &st), 0);
	whole = strdup(file_text());
	char *x = strstr(whole, "extra=0x0030");
	x[sizeof("extra=0x003") - 1] = '1';
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs(whole, f);
	fclose(f);
	free(whole);
	struct timespec times[2] = {st.st_atim, st.st_mtim};
	assert_int_equal(utimensat(AT_FDCWD, conf, times, 0), 0);
	past_racy_window();
	for (int i = 0; i < 5; i++) {
		assert_int_equal(ibp_service_render(s, &text, &len, NULL, &err),
				 IBP_OK);
		assert_non_null(strstr(text, "extra=0x0031 :"));
		free(text);
	}
	assert_int_equal(ibp_service_partitions_file_reads(s), reads + 2);
	ibp_service_close(s);
}

/* Bad input: 400 naming the field, an operator's P_Key 409, nothing
 * changed. */
static void test_bad_input(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	const ibp_service_op A = IBP_SERVICE_ADD_GUIDS;
	refused(s, A, "{\"pkey\":\"0x8000\",\"guids\":[\"0002c90000000201\"]}",
		400, "pkey");
	refused(s, A, "{\"pkey\":\"0x7fff\",\"guids\":[\"0002c90000000201\"]}",
		400, "pkey");
	refused(s, A, "{\"pkey\":\"0x0\",\"guids\":[\"0002c90000000201\"]}",
		400, "pkey");
	refused(s, A, "{\"pkey\":\"zz\",\"guids\":[\"0002c90000000201\"]}", 400,
		"pkey");
	refused(s, A, "{\"guids\":[\"0002c90000000201\"]}", 400, "pkey");
	refused(s, A,
		"{\"pkey\":\"0x5\",\"guids\":[\"0002c90000000201\","
		"\"0002c9000000020\"]}",
		400, "guids[1]");
	refused(s, A, "{\"pkey\":\"0x5\",\"guids\":[\"0002c9000000020g\"]}",
		400, "guids[0]");
	refused(s, A, "{\"pkey\":\"0x5\",\"guids\":[]}", 400, "guids");
	refused(s, A, "{\"pkey\":\"0x5\",", 400, "body");
	refused(s, A, "[1]", 400, "body");
	refused(s, A,
		"{\"pkey\":\"0x5\",\"guids\":[\"0002c90000000201\"],"
		"\"colour\":1}",
		400, "colour");
	refused(s, A,
		"{\"pkey\":\"0x5\",\"guids\":[\"0002c90000000201\"],"
		"\"memberships\":[\"full\",\"full\"]}",
		400, "memberships");
	refused(s, A,
		"{\"pkey\":\"0x5\",\"guids\":[\"0002c90000000201\"],"
		"\"membership\":\"both\"}",
		400, "membership");
	refused(s, A,
		"{\"pkey\":\"0x5\",\"guids\":[\"0002c90000000201\"],"
		"\"index0\":\"maybe\"}",
		400, "index0");
	refused(s, IBP_SERVICE_CREATE, "{\"pkey\":\"0x5\",\"rate_limit\":7}",
		400, "rate_limit");
	refused(s, IBP_SERVICE_CREATE, "{\"pkey\":\"0x5\",\"mtu_limit\":3}",
		400, "mtu_limit");
	/* out of range is refused, never truncated (2^32 + 2 is not 2) */
	refused(s, IBP_SERVICE_CREATE,
		"{\"pkey\":\"0x5\",\"mtu_limit\":4294967298}", 400,
		"mtu_limit");
	refused(s, IBP_SERVICE_CREATE, "{\"pkey\":\"0x5\",\"mtu_limit\":-2}",
		400, "mtu_limit");
	refused(s, IBP_SERVICE_CREATE,
		"{\"pkey\":\"0x5\",\"service_level\":16}", 400,
		"service_level");
	refused(s, IBP_SERVICE_CREATE,
		"{\"pkey\":\"0x5\",\"partition_name\":\"9lives\"}", 400,
		"partition_name");
	refused(s, IBP_SERVICE_CREATE,
		"{\"pkey\":\"0x5\",\"partition_name\":\"storage\"}", 400,
		"partition_name");
	refused(s, IBP_SERVICE_QOS, "{\"pkey\":\"0x5\",\"mtu_limit\":4}", 404,
		"pkey");
	/* the operator's P_Key: a conflict */
	refused(s, A, "{\"pkey\":\"0x10\",\"guids\":[\"0002c90000000301\"]}",
		409, "pkey");
	assert_int_equal(ibp_service_revision(s), 0);
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	assert_int_not_equal(ibp_service_delete_pkey(s, "0x5", NULL, &e),
			     IBP_OK);
	assert_int_equal(ibp_service_error_http(&e), 404);
	ibp_service_error_clear(&e);
	assert_int_not_equal(ibp_service_delete_pkey(s, "0x7fff", NULL, &e),
			     IBP_OK);
	assert_int_equal(ibp_service_error_http(&e), 400);
	ibp_service_close(s);
}

/* A caller struct follows the versioned options pattern: _init writes
 * the version it is given, and a version of 0 or newer than the
 * library's is refused before anything is read or changed. */
static void test_caller_version(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	struct ibp_service_caller c;
	memset(&c, 0xa5, sizeof(c));
	ibp_service_caller_init(&c, IBP_SERVICE_CALLER_VERSION);
	assert_int_equal(c.version, IBP_SERVICE_CALLER_VERSION);
	assert_null(c.user);
	assert_null(c.warn_rules);
	assert_null(c.warnings);
	const char *add = "{\"pkey\":\"0x5\",\"guids\":[\"0002c90000000201\"]}";
	const char *hosts = "{\"pkey\":\"0x5\",\"hosts_names\":\"h1\"}";
	unsigned bad[] = {0, IBP_SERVICE_CALLER_VERSION + 1};
	for (size_t i = 0; i < 2; i++) {
		c.version = bad[i];
		struct ibp_service_error e;
		ibp_service_error_init(&e);
		assert_int_equal(
		    ibp_service_change_as(s, &c, IBP_SERVICE_ADD_GUIDS, add,
					  strlen(add), NULL, &e),
		    IBP_EINVAL);
		assert_string_equal(e.field, "caller");
		assert_int_equal(ibp_service_error_http(&e), 400);
		ibp_service_error_clear(&e);
		assert_int_equal(ibp_service_add_hosts_as(
				     s, &c, hosts, strlen(hosts), NULL, &e),
				 IBP_EINVAL);
		assert_string_equal(e.field, "caller");
		ibp_service_error_clear(&e);
	}
	assert_int_equal(ibp_service_revision(s), 0);
	c.version = IBP_SERVICE_CALLER_VERSION;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	assert_int_equal(ibp_service_change_as(s, &c, IBP_SERVICE_ADD_GUIDS,
					       add, strlen(add), NULL, &e),
			 IBP_OK);
	assert_int_equal(ibp_service_revision(s), 1);
	free(c.warnings);
	ibp_service_error_clear(&e);
	ibp_service_close(s);
}

/* Remove (both calls), UFM's auto-delete, PUT replacing the set, and a
 * reopen finding every revision. */
static void test_remove_and_reopen(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x5\",\"ip_over_ib\":true,\"membership\":\"full\","
	       "\"index0\":true,\"guids\":[\"1070fd0300176625\","
	       "\"1070fd0300176626\"]}");
	/* NICo's remove */
	change(s, IBP_SERVICE_REMOVE_GUIDS,
	       "{\"pkey\":\"0x5\",\"guids\":[\"1070fd0300176625\"]}");
	/* NCM's: the last member; the P_Key goes (UFM's auto-delete) */
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	assert_int_equal(ibp_service_remove_guids_csv(
			     s, "0x5", "1070FD0300176626", NULL, &e),
			 IBP_OK);
	char *j = NULL;
	assert_int_equal(ibp_service_get(s, "0x5", false, false, &j, &e),
			 IBP_ENOENT);
	/* remove from an unknown P_Key: nothing to do, no error (UFM) */
	uint64_t before = ibp_service_revision(s);
	assert_int_equal(change(s, IBP_SERVICE_REMOVE_GUIDS,
				"{\"pkey\":\"0x5\",\"guids\":"
				"[\"1070fd0300176626\"]}"),
			 before);
	/* ... by either call: a retried DELETE .../guids/G succeeds too,
	 * with no new revision (a workflow engine retries what succeeded) */
	uint64_t rev = 0;
	assert_int_equal(ibp_service_remove_guids_csv(
			     s, "0x5", "1070fd0300176626", &rev, &e),
			 IBP_OK);
	assert_int_equal(rev, before);
	/* a P_Key made by /add (NCM's create): kept while it has never had
	 * a member; once it has, the last to leave deletes it */
	change(s, IBP_SERVICE_CREATE,
	       "{\"pkey\":\"0x7\",\"index0\":false,\"ip_over_ib\":true,"
	       "\"mtu_limit\":4,\"service_level\":0,\"rate_limit\":200}");
	free(get(s, "0x7", false, false));
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x7\",\"membership\":\"full\","
	       "\"guids\":[\"1070fd0300176627\"]}");
	assert_int_equal(ibp_service_remove_guids_csv(
			     s, "0x7", "1070fd0300176627", NULL, &e),
			 IBP_OK);
	assert_int_equal(ibp_service_get(s, "0x7", false, false, &j, &e),
			 IBP_ENOENT);
	ibp_service_error_clear(&e);
	/* PUT replaces the set (and creates) */
	change(s, IBP_SERVICE_SET_GUIDS,
	       "{\"guids\":[\"043f720300dd1d3c\",\"043f720300dd1d3d\"],"
	       "\"pkey\":\"0x6\",\"index0\":false,\"ip_over_ib\":true,"
	       "\"membership\":\"full\"}");
	uint64_t last = change(s, IBP_SERVICE_SET_GUIDS,
			       "{\"guids\":[\"043f720300dd1d3d\"],\"pkey\":"
			       "\"0x6\",\"memberships\":[\"limited\"]}");
	ibp_service_close(s);
	s = open_svc(false);
	assert_int_equal(ibp_service_revision(s), last);
	j = get(s, "0x6", true, false);
	assert_string_equal(
	    j, "{\"partition\":\"api_pkey_0x6\",\"ip_over_ib\":true,"
	       "\"managed_by\":\"ibpartd\",\"guids\":[{\"guid\":"
	       "\"043f720300dd1d3d\",\"membership\":\"limited\",\"index0\":"
	       "false}]}");
	free(j);
	/* status: every revision pending; then verified */
	ibp_error err;
	assert_int_equal(ibp_service_status_json(s, &j, &err), IBP_OK);
	assert_non_null(strstr(j, "\"state\":\"pending\""));
	free(j);
	assert_int_equal(
	    ibp_service_mark(s, last, IBP_SERVICE_VERIFIED, NULL, &err),
	    IBP_OK);
	assert_int_equal(ibp_service_fabric_revision(s), last);
	assert_int_equal(ibp_service_status_json(s, &j, &err), IBP_OK);
	assert_null(strstr(j, "\"pending\""));
	free(j);
	assert_int_equal(ibp_service_delete_pkey(s, "0x0006", NULL, &e),
			 IBP_OK);
	ibp_service_close(s);
}

/* The guard on live-2sw.topo: a port made full in a second tenant's
 * partition bridges them (tenant-bridge, high): 409 with the findings;
 * limited is the storage pattern and passes. */
/* Issue 28: each revision records who made it (the thread's actor),
 * queryable by user, kept across a reopen; tokens keep a role, an
 * expiry, a revocation and their last use. */
static void test_audit_and_tokens(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	ibp_service_actor a = {"k8s", "token:0123456789abcdef", "10.0.0.7",
			       "POST /ufmRest/resources/pkeys {}"};
	ibp_service_actor_set(&a);
	uint64_t r1 = change(s, IBP_SERVICE_ADD_GUIDS,
			     "{\"pkey\":\"0x5\",\"guids\":"
			     "[\"1070fd0300176625\"]}");
	ibp_service_actor_set(NULL);
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x6\",\"guids\":[\"1070fd0300176626\"]}");
	ibp_service_token t = {.id = "0123456789abcdef",
			       .hash = "$6$x$y",
			       .user = "k8s",
			       .role = "change",
			       .issued_at = 100,
			       .expires_at = 200};
	ibp_error err;
	assert_int_equal(ibp_service_token_add(s, &t, &err), IBP_OK);
	assert_int_equal(ibp_service_token_touch(s, t.id, 150, &err), IBP_OK);
	assert_int_equal(ibp_service_token_revoke(s, t.id, "other", &err),
			 IBP_ENOENT);
	assert_int_equal(ibp_service_token_revoke(s, t.id, "k8s", &err),
			 IBP_OK);
	ibp_service_close(s);
	s = open_svc(false);
	char *j = NULL;
	assert_int_equal(ibp_service_revisions_json(s, "k8s", 10, &j, &err),
			 IBP_OK);
	char want[256];
	snprintf(want, sizeof(want), "{\"revisions\":[{\"revision\":%llu,",
		 (unsigned long long)r1);
	assert_memory_equal(j, want, strlen(want));
	assert_non_null(strstr(j, "\"user\":\"k8s\",\"via\":\"token:"
				  "0123456789abcdef\",\"client\":\"10.0.0.7\","
				  "\"request\":\"POST /ufmRest/resources/pkeys "
				  "{}\"}]}"));
	free(j);
	assert_int_equal(ibp_service_revisions_json(s, NULL, 10, &j, &err),
			 IBP_OK);
	assert_non_null(strstr(j, "\"user\":null"));
	free(j);
	ibp_service_token u;
	assert_int_equal(ibp_service_token_find(s, t.id, &u, &err), IBP_OK);
	assert_true(u.revoked);
	assert_int_equal(u.last_used, 150);
	assert_int_equal(u.expires_at, 200);
	assert_string_equal(u.role, "change");
	assert_int_equal(ibp_service_tokens_json(s, "k8s", &j, &err), IBP_OK);
	assert_non_null(strstr(j, "\"revoked\":true"));
	assert_non_null(strstr(j, "\"last_used\":150"));
	free(j);
	ibp_service_close(s);
}

/* A database of schema version 2 (before issue 28) opens: its tokens
 * keep working with UFM's ten years and the role admin, its revisions
 * stay, without an author. */
static void test_migrate_v2(void **state)
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
		"CREATE TABLE opensm_memory(id INTEGER PRIMARY KEY"
		" CHECK(id = 1), rev INTEGER NOT NULL, opensm_pid INTEGER,"
		" recorded_at INTEGER, state TEXT NOT NULL);"
		"CREATE TABLE fabric_caps(node_guid INTEGER PRIMARY KEY,"
		" partition_cap INTEGER NOT NULL) WITHOUT ROWID;"
		"INSERT INTO meta VALUES('schema', 'ibpartd-1');"
		"INSERT INTO meta VALUES('schema_version', '2');"
		"INSERT INTO revisions VALUES(1, 5, 'add', 5, 'verified', "
		"NULL);"
		"INSERT INTO tokens VALUES('00112233445566aa', '$6$h', 'ops', "
		"1000);",
		NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(h);
	ibp_service *s = open_svc(false);
	ibp_service_token t;
	ibp_error err;
	assert_int_equal(
	    ibp_service_token_find(s, "00112233445566aa", &t, &err), IBP_OK);
	assert_string_equal(t.user, "ops");
	assert_string_equal(t.role, "admin");
	assert_int_equal(t.expires_at, 1000 + 315360000L);
	assert_false(t.revoked);
	char *j = NULL;
	assert_int_equal(ibp_service_revisions_json(s, NULL, 10, &j, &err),
			 IBP_OK);
	assert_non_null(strstr(j, "\"revision\":1,"));
	assert_non_null(strstr(j, "\"user\":null"));
	free(j);
	assert_int_equal(ibp_service_revision(s), 1);
	ibp_service_close(s);
	/* and once more: the migration does not run twice */
	s = open_svc(false);
	ibp_service_close(s);
}

/* A change the guard refuses as a tenant bridge: 409 with the finding. */
/* Tenants 0x30 (node-b, node-c) and 0x40 (node-d, dual-host's second
 * port), all full members. */
static void two_tenants(ibp_service *s)
{
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x30\",\"guids\":[\"0002c90000000301\","
	       "\"0002c90000000401\"]}");
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x40\",\"guids\":[\"0002c90000000601\","
	       "\"0002c90000000502\"]}");
}

static void refused_bridge(ibp_service *s, const char *body)
{
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	assert_int_not_equal(ibp_service_change(s, IBP_SERVICE_ADD_GUIDS, body,
						strlen(body), NULL, &e),
			     IBP_OK);
	assert_int_equal(ibp_service_error_http(&e), 409);
	assert_non_null(e.findings);
	assert_non_null(strstr(e.findings, "tenant-bridge"));
	ibp_service_error_clear(&e);
}

static void test_guard(void **state)
{
	(void)state;
	ibp_service *s = open_svc(true);
	two_tenants(s);
	const char *bridge = "{\"pkey\":\"0x40\",\"guids\":"
			     "[\"0002c90000000301\"]}";
	refused_bridge(s, bridge);
	/* issue 26: limited in 0x40, 0301 reaches its full members 0601 and
	 * 0502 as a full member would (the matrix's reach): the same bridge */
	refused_bridge(s, "{\"pkey\":\"0x40\",\"membership\":\"limited\","
			  "\"guids\":[\"0002c90000000301\"]}");
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	/* issue 26: 0301 made full in 0x30 and 0x40 while 0x70 joins every
	 * port of both (no isolated pair, no bridge); then taking 0401 out
	 * of 0x70 and deleting 0x70 only reduce reach, but leave 0301
	 * bridging in the remaining plan: never refused, the bridge that
	 * remains said in the answer's warnings */
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x70\",\"guids\":[\"0002c90000000301\","
	       "\"0002c90000000401\",\"0002c90000000601\","
	       "\"0002c90000000502\"]}");
	change(s, IBP_SERVICE_ADD_GUIDS, bridge);
	struct ibp_service_caller plain;
	ibp_service_caller_init(&plain, IBP_SERVICE_CALLER_VERSION);
	plain.user = "k8s";
	const char *rm = "{\"pkey\":\"0x70\",\"guids\":"
			 "[\"0002c90000000401\"]}";
	int rc = ibp_service_change_as(s, &plain, IBP_SERVICE_REMOVE_GUIDS, rm,
				       strlen(rm), NULL, &e);
	if (rc)
		fprintf(stderr, "remove: %s\n", e.err.message);
	assert_int_equal(rc, IBP_OK);
	assert_non_null(plain.warnings);
	assert_non_null(strstr(plain.warnings, "tenant-bridge"));
	free(plain.warnings);
	rc = ibp_service_delete_pkey(s, "0x70", NULL, &e);
	if (rc)
		fprintf(stderr, "delete: %s\n", e.err.message);
	assert_int_equal(rc, IBP_OK);
	ibp_service_close(s);
}

/* Issue 26: what a revision's fabric showed.  A revision naming a GUID
 * the fabric has no port of ends applied-partially with the GUID (and
 * counts as on the fabric: UFM's clients see it done); the QoS and
 * IPoIB fields are listed as not verifiable over SMPs; drift moves the
 * held revision to drifted with the ports and back once gone. */
static void test_fabric_states(void **state)
{
	(void)state;
	ibp_service *s = open_svc(false);
	uint64_t r1 = change(s, IBP_SERVICE_ADD_GUIDS,
			     "{\"pkey\":\"0x5\",\"guids\":"
			     "[\"0002c90000000300\"]}");
	uint64_t r2 =
	    change(s, IBP_SERVICE_QOS, "{\"pkey\":\"0x5\",\"mtu_limit\":4}");
	ibp_error err;
	struct ibp_service_absent a = {0x0002c90000000300ull, "node-guid",
				       "the node GUID of node-b"};
	assert_int_equal(ibp_service_note_absent(s, r2, &a, 1, &err), IBP_OK);
	assert_int_equal(ibp_service_note_absent(s, 99, &a, 1, &err),
			 IBP_ENOENT);
	assert_int_equal(
	    ibp_service_mark(s, r2, IBP_SERVICE_APPLIED_PARTIALLY, NULL, &err),
	    IBP_OK);
	assert_int_equal(ibp_service_fabric_revision(s), r2);
	char *j = NULL;
	assert_int_equal(ibp_service_status_json(s, &j, &err), IBP_OK);
	assert_non_null(strstr(j, "\"state\":\"applied-partially\""));
	assert_non_null(
	    strstr(j, "\"absent\":[{\"guid\":\"0x0002c90000000300\",\"kind\":"
		      "\"node-guid\",\"hint\":\"the node GUID of node-b\"}]"));
	assert_non_null(
	    strstr(j, "\"not_verifiable\":[{\"pkey\":\"0x5\",\"fields\":"
		      "[\"mtu\",\"rate\",\"sl\",\"ipoib\"]}]"));
	free(j);
	ibp_service_state st;
	char why[200];
	assert_int_equal(
	    ibp_service_revision_state(s, r1, &st, why, sizeof(why), &err),
	    IBP_OK);
	assert_int_equal(st, IBP_SERVICE_APPLIED_PARTIALLY);
	/* drift of another revision than the fabric's: nothing */
	bool changed = true;
	assert_int_equal(ibp_service_note_drift(s, r1, 2, "x", &changed, &err),
			 IBP_OK);
	assert_false(changed);
	assert_int_equal(
	    ibp_service_note_drift(s, r2, 2, "2 ports: a, b", &changed, &err),
	    IBP_OK);
	assert_true(changed);
	assert_int_equal(
	    ibp_service_revision_state(s, r2, &st, why, sizeof(why), &err),
	    IBP_OK);
	assert_int_equal(st, IBP_SERVICE_DRIFTED);
	assert_string_equal(why, "2 ports: a, b");
	assert_int_equal(
	    ibp_service_note_drift(s, r2, 2, "2 ports: a, b", &changed, &err),
	    IBP_OK);
	assert_false(changed);
	assert_int_equal(ibp_service_note_drift(s, r2, 0, NULL, &changed, &err),
			 IBP_OK);
	assert_true(changed);
	assert_int_equal(
	    ibp_service_revision_state(s, r2, &st, why, sizeof(why), &err),
	    IBP_OK);
	assert_int_equal(st, IBP_SERVICE_APPLIED_PARTIALLY);
	assert_string_equal(ibp_service_state_str(IBP_SERVICE_DRIFTED),
			    "drifted");
	ibp_service_close(s);
}

/* A copy of the fixture's topology in the test's directory, its path in
 * copy. */
static void copy_topology(const char *name, char *copy, size_t size)
{
	char cmd[1200];
	snprintf(copy, size, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", topo, copy);
	assert_int_equal(system(cmd), 0);
}

/* The service on a copy of the fixture's topology (named name, its
 * path in copy), which the test may change. */
static ibp_service *open_on_copy(const char *name, char *copy, size_t size)
{
	copy_topology(name, copy, size);
	snprintf(topo, sizeof(topo), "%s", copy);
	return open_svc(true);
}

/* Issue 24: the service holds one topology, loaded again when the file
 * changes: /resources/ports gives the new NodeDescription once the file
 * is rewritten, and the same list while it is not. */
static void test_topology_reload(void **state)
{
	(void)state;
	char copy[400], cmd[1200];
	copy_topology("fabric.topo", copy, sizeof(copy));
	struct ibp_service_options o;
	ibp_service_options_init(&o, IBP_SERVICE_OPTIONS_VERSION);
	o.db_path = db;
	o.partitions_path = conf;
	o.topology_path = copy;
	ibp_service *s = NULL;
	ibp_error err;
	assert_int_equal(ibp_service_open(&o, &s, &err), IBP_OK);
	char *a = NULL, *b = NULL, *c = NULL;
	assert_int_equal(ibp_service_ports_json_of(s, "Computer", &a, &err),
			 IBP_OK);
	assert_non_null(strstr(a, "\"node-b\""));
	assert_int_equal(ibp_service_ports_json_of(s, "Computer", &b, &err),
			 IBP_OK);
	assert_string_equal(a, b);
	/* node-b renamed, the file's size changes with it */
	snprintf(cmd, sizeof(cmd),
		 "sed -i 's/# \"node-b\"/# \"node-b-renamed\"/' '%s'", copy);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(ibp_service_ports_json_of(s, "Computer", &c, &err),
			 IBP_OK);
	assert_null(strstr(c, "\"node-b\""));
	assert_non_null(strstr(c, "node-b-renamed"));
	free(a);
	free(b);
	free(c);
	ibp_service_close(s);
}

/* Issue 24: the page, the matrix and audit views, the ports, the
 * guard's audit, its kept answer (service_guard_state.c) and its
 * capacity record all read the one topology held: the first change
 * judged loads it once, and rounds of each, further changes, the
 * background check and the kept answer dropped and built again load
 * nothing more; the file rewritten (its size changes) is loaded once
 * more, whatever reads it next. */
static void views_round(ibp_service *s)
{
	ibp_error err;
	char *out = NULL;
	size_t len = 0;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(
		    ibp_service_web_html_extras(s, NULL, &out, &len, &err),
		    IBP_OK);
		free(out);
		assert_int_equal(ibp_service_matrix_json(s, &out, &err),
				 IBP_OK);
		free(out);
		assert_int_equal(ibp_service_audit_json(s, &out, &err), IBP_OK);
		free(out);
		assert_int_equal(ibp_service_ports_json_of(s, NULL, &out, &err),
				 IBP_OK);
		free(out);
	}
}

static void test_topology_loaded_once(void **state)
{
	(void)state;
	char copy[300], cmd[1200];
	ibp_service *s = open_on_copy("once.topo", copy, sizeof(copy));
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x30\",\"guids\":[\"0002c90000000301\"]}");
	unsigned long loads = ibp_service_topology_loads(s);
	assert_int_equal(loads, 1);
	views_round(s);
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x31\",\"guids\":[\"0002c90000000401\"]}");
	assert_int_equal(ibp_service_topology_loads(s), loads);
	char why[400];
	assert_false(ibp_service_guard_check(s, why, sizeof(why), NULL));
	/* the kept answer dropped (the alias map set: none) and built again
	 * by the next change, which it judges */
	ibp_error err;
	uint64_t fast0 = 0, fast = 0;
	assert_int_equal(ibp_service_set_alias_guids(s, NULL, &err), IBP_OK);
	ibp_service_guard_counts(s, &fast0, NULL);
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x33\",\"guids\":[\"0002c90000000201\"]}");
	ibp_service_guard_counts(s, &fast, NULL);
	assert_int_equal(fast, fast0 + 1);
	assert_int_equal(ibp_service_topology_loads(s), loads);
	/* a comment appended: another size */
	snprintf(cmd, sizeof(cmd), "echo '# touched' >> '%s'", copy);
	assert_int_equal(system(cmd), 0);
	views_round(s);
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x32\",\"guids\":[\"0002c90000000601\"]}");
	assert_int_equal(ibp_service_topology_loads(s), loads + 1);
	ibp_service_close(s);
}

/* The fixture's topology at path replaced (another file renamed over
 * it) by the same with node-e, a CA of port GUID 0x0002c90000000701,
 * on spine-1's port 6. */
static void add_node_e(const char *path)
{
	static const char link[] = "[5]\t\"H-0002c90000000500\"[1]";
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char text[8192];
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = 0;
	char *at = strstr(text, link); /* spine-1's port to dual-host */
	assert_non_null(at);
	at = strchr(at, '\n');
	assert_non_null(at);
	char next[320];
	snprintf(next, sizeof(next), "%s.new", path);
	f = fopen(next, "w");
	assert_non_null(f);
	fwrite(text, 1, (size_t)(at + 1 - text), f);
	fputs("[6]\t\"H-0002c90000000700\"[1]\t\t# \"node-e\"\n", f);
	fputs(at + 1, f);
	fputs("\ncaguid=0x0002c90000000700\n"
	      "Ca\t1 \"H-0002c90000000700\"\t\t# \"node-e\"\n"
	      "[1]\t\"S-0002c90000001000\"[6]\n",
	      f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rename(next, path), 0);
}

/* Issue 24: the guard's kept answer reads the topology held, and is
 * built again when the file changes: a GUID no port has yet joins
 * tenant 0x30 (OpenSM skips it: nothing to refuse); once the file gives
 * it a port (node-e), the change that makes it a member of tenant 0x40
 * too is judged on the new fabric - a tenant bridge, refused - by the
 * kept answer built again (not the whole-plan guard), with the one more
 * load of the file the held topology takes (the views read it first);
 * the background check finds the kept answer as the whole audit of its
 * own fabric, before and after, and no load more. */
static void test_guard_topology_changed(void **state)
{
	(void)state;
	char copy[300], why[400];
	ibp_service *s = open_on_copy("changed.topo", copy, sizeof(copy));
	two_tenants(s);
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x30\",\"guids\":[\"0002c90000000701\"]}");
	assert_int_equal(ibp_service_topology_loads(s), 1);
	uint64_t fast0 = 0, whole0 = 0, fast = 0, whole = 0;
	ibp_service_guard_counts(s, &fast0, &whole0);
	assert_int_equal(whole0, 0); /* the kept answer judged each */
	add_node_e(copy);
	/* the views load the new one first (the old one is then the kept
	 * answer's alone: freed with it, not before); the kept answer is
	 * still the whole audit of its own fabric */
	views_round(s);
	assert_int_equal(ibp_service_topology_loads(s), 2);
	unsigned long drifts = 0;
	assert_false(ibp_service_guard_check(s, why, sizeof(why), &drifts));
	refused_bridge(s, "{\"pkey\":\"0x40\",\"guids\":"
			  "[\"0002c90000000701\"]}");
	ibp_service_guard_counts(s, &fast, &whole);
	assert_int_equal(fast, fast0 + 1);
	assert_int_equal(whole, 0);
	assert_int_equal(ibp_service_topology_loads(s), 2);
	/* judged again on it: 0701 joins 0x40 limited, with no other
	 * member of 0x30 there - and OpenSM would put it in 0x40's table */
	change(s, IBP_SERVICE_REMOVE_GUIDS,
	       "{\"pkey\":\"0x30\",\"guids\":[\"0002c90000000701\"]}");
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x40\",\"guids\":[\"0002c90000000701\"]}");
	assert_false(ibp_service_guard_check(s, why, sizeof(why), &drifts));
	assert_int_equal(drifts, 0);
	assert_int_equal(ibp_service_topology_loads(s), 2);
	ibp_service_close(s);
}

/* The background check's whole audit runs on the topology the service
 * holds, not on the file read again: a file rewritten behind the
 * service's back with its size and times kept (so the service does not
 * see it change) and a node renamed in it does not reach the audit,
 * whose findings still name the node as the service read it. */
static void test_guard_check_held_topology(void **state)
{
	(void)state;
	char copy[300];
	ibp_service *s = open_on_copy("held.topo", copy, sizeof(copy));
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x30\",\"guids\":[\"0002c90000000301\","
	       "\"0002c90000000401\"]}");
	char why[400];
	unsigned long drifts = 0;
	assert_false(ibp_service_guard_check(s, why, sizeof(why), &drifts));
	/* "sm-host" (the SM port the audit assumes, named in its
	 * findings) renamed in place: same size, same times */
	struct stat st;
	assert_int_equal(stat(copy, &st), 0);
	FILE *f = fopen(copy, "r+");
	assert_non_null(f);
	char *text = calloc(1, (size_t)st.st_size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)st.st_size, f),
			 (size_t)st.st_size);
	for (char *p = text; (p = strstr(p, "sm-host"));)
		memcpy(p, "sm-hxst", 7);
	rewind(f);
	assert_int_equal(fwrite(text, 1, (size_t)st.st_size, f),
			 (size_t)st.st_size);
	fclose(f);
	free(text);
	struct timespec times[2] = {st.st_atim, st.st_mtim};
	assert_int_equal(utimensat(AT_FDCWD, copy, times, 0), 0);
	change(s, IBP_SERVICE_ADD_GUIDS,
	       "{\"pkey\":\"0x40\",\"guids\":[\"0002c90000000601\","
	       "\"0002c90000000502\"]}");
	bool drift = ibp_service_guard_check(s, why, sizeof(why), &drifts);
	if (drift)
		fprintf(stderr, "drift: %s\n", why);
	assert_false(drift);
	assert_int_equal(drifts, 0);
	ibp_service_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_ibk_add_get_list, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_render, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_guard_check_held_topology,
					    setup, teardown),
	    cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_caller_version, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_remove_and_reopen, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_guard, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_audit_and_tokens, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_migrate_v2, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_fabric_states, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_list_stream, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_operator_file_read_once, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_topology_loaded_once, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_topology_reload, setup,
					    teardown),
	    cmocka_unit_test_setup_teardown(test_guard_topology_changed, setup,
					    teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
