/*
 * test_service_reads.c - the service's reads never wait for a change's
 * isolation guard (issue 29; docs/ibpartd.md, "Concurrency"): a change
 * is held inside its guard (ibp_service_set_guard_hook: the hook blocks
 * until the test releases it) while another thread reads what ibpartd's
 * GETs read - the list and one P_Key (GET /resources/pkeys), the status
 * (/ibpart/v1/status), the revision and its state, the view key, the
 * page at `/`, the file's problem (/metrics).  Each read must return
 * while the change is still held, and show the plan before the change
 * (revision 1); released, the change commits as revision 2.  Nothing is
 * timed: the reads either return while the hook holds the change or
 * cannot return until it is released - the deadline only keeps a
 * failing run from hanging, and is never reached by a passing one.
 *
 * And neither the reads nor the next change wait for a change's commit
 * (the group commit, service_commit.c): another connection of the test
 * holds SQLite's write lock (BEGIN IMMEDIATE), so the first change's
 * transaction waits on it (up to the service's 5 s busy timeout); while
 * it waits, the reads return and a second change, to another P_Key,
 * reaches its guard.  Before the group commit the writers' lock was
 * held through the transaction: neither could happen before the busy
 * timeout failed the first change.  Released, both commit, as
 * revisions 2 and 3.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "ibpart/sys/service.h"
#include "service/service_lib.h"
#include "service_fixture.h"

static const char operator_text[] =
    "Default=0x7fff, ipoib : ALL=limited ;\n"
    "storage=0x0010, ipoib : 0x0002c90000000201=full ;\n";

/* The hook's and the reader's rendezvous. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool in_guard, released, reads_done;
static int calls;

static void hold(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	if (calls++ == 0) { /* the first change only */
		in_guard = true;
		pthread_cond_broadcast(&cv);
		while (!released)
			pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
}

/* Wait for *flag; false at the deadline (a failure, never a pass). */
static bool wait_for(bool *flag, int seconds)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += seconds;
	pthread_mutex_lock(&mu);
	while (!*flag && pthread_cond_timedwait(&cv, &mu, &until) != ETIMEDOUT)
		;
	bool ok = *flag;
	pthread_mutex_unlock(&mu);
	return ok;
}

static void set_flag(bool *flag)
{
	pthread_mutex_lock(&mu);
	*flag = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

struct writer {
	ibp_service *s;
	int rc;
	uint64_t rev;
};

static void *write_body(struct writer *w, const char *body)
{
	struct ibp_service_error e = {0};
	w->rc = ibp_service_change(w->s, IBP_SERVICE_ADD_GUIDS, body,
				   strlen(body), &w->rev, &e);
	ibp_service_error_clear(&e);
	return NULL;
}

static void *write_one(void *arg)
{
	return write_body(
	    arg, "{\"pkey\":\"0x20\",\"guids\":[\"0x0002c90000000301\"]}");
}

static void *write_other(void *arg)
{
	return write_body(
	    arg, "{\"pkey\":\"0x30\",\"guids\":[\"0x0002c90000000501\"]}");
}

/* What the reads saw, checked by the main thread. */
struct reader {
	ibp_service *s;
	char *list, *one, *status, *html;
	int list_rc, one_rc, status_rc, html_rc, state_rc;
	uint64_t rev;
	ibp_service_state st;
};

static void *read_all(void *arg)
{
	struct reader *r = arg;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	r->list_rc = ibp_service_list(r->s, true, false, &r->list, &e);
	ibp_service_error_clear(&e);
	r->one_rc = ibp_service_get(r->s, "0x10", true, false, &r->one, &e);
	ibp_service_error_clear(&e);
	ibp_error err;
	r->status_rc = ibp_service_status_json(r->s, &r->status, &err);
	r->rev = ibp_service_revision(r->s);
	char reason[200];
	r->state_rc = ibp_service_revision_state(r->s, r->rev, &r->st, reason,
						 sizeof(reason), &err);
	(void)ibp_service_view_key(r->s);
	(void)ibp_service_fabric_revision(r->s);
	char problem[256];
	(void)ibp_service_file_problem(r->s, problem, sizeof(problem));
	size_t len = 0;
	r->html_rc = ibp_service_web_html(r->s, &r->html, &len, &err);
	set_flag(&reads_done);
	return NULL;
}

static void test_reads_during_guard(void **state)
{
	(void)state;
	svc_fixture_setup("test_service_reads", operator_text);
	ibp_service *s = open_svc(true);
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	static const char first[] =
	    "{\"pkey\":\"0x20\",\"guids\":[\"0x0002c90000000401\"]}";
	uint64_t rev = 0;
	int rc = ibp_service_change(s, IBP_SERVICE_ADD_GUIDS, first,
				    strlen(first), &rev, &e);
	if (rc)
		fprintf(stderr, "%s\n", e.err.message);
	assert_int_equal(rc, IBP_OK);
	assert_int_equal(rev, 1);

	ibp_service_set_guard_hook(s, hold, NULL);
	struct writer w = {s, -1, 0};
	pthread_t wt, rt;
	assert_int_equal(pthread_create(&wt, NULL, write_one, &w), 0);
	assert_true(wait_for(&in_guard, 60));

	struct reader r = {.s = s};
	assert_int_equal(pthread_create(&rt, NULL, read_all, &r), 0);
	bool returned = wait_for(&reads_done, 30);
	set_flag(&released); /* a failing run: let both threads finish */
	pthread_join(rt, NULL);
	pthread_join(wt, NULL);
	assert_true(returned); /* the reads came back while it was held */

	/* the reads saw revision 1: 0x20 with its first member only */
	assert_int_equal(r.list_rc, IBP_OK);
	assert_non_null(strstr(r.list, "\"0x20\""));
	assert_non_null(strstr(r.list, "0002c90000000401"));
	assert_null(strstr(r.list, "0002c90000000301"));
	assert_int_equal(r.one_rc, IBP_OK);
	assert_non_null(strstr(r.one, "\"managed_by\":\"operator\""));
	assert_int_equal(r.status_rc, IBP_OK);
	assert_int_equal(r.rev, 1);
	assert_int_equal(r.state_rc, IBP_OK);
	assert_int_equal(r.st, IBP_SERVICE_PENDING);
	assert_int_equal(r.html_rc, IBP_OK);

	/* released: the change went through as revision 2 */
	assert_int_equal(w.rc, IBP_OK);
	assert_int_equal(w.rev, 2);
	char *list = NULL;
	assert_int_equal(ibp_service_list(s, true, false, &list, &e), IBP_OK);
	assert_non_null(strstr(list, "0002c90000000301"));
	free(list);
	free(r.list);
	free(r.one);
	free(r.status);
	free(r.html);
	ibp_service_close(s);
	svc_fixture_teardown();
}

/* Wait until n changes in all were judged under the writers' lock (the
 * guard's counts are read under it: a count seen means the change left
 * it, queued); false at the deadline (a failure, never a pass). */
static bool wait_judged(ibp_service *s, uint64_t n, int seconds)
{
	struct timespec until, nap = {0, 1000000};
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += seconds;
	for (;;) {
		uint64_t fast = 0, whole = 0;
		ibp_service_guard_counts(s, &fast, &whole);
		if (fast + whole >= n)
			return true;
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > until.tv_sec || (now.tv_sec == until.tv_sec &&
						  now.tv_nsec >= until.tv_nsec))
			return false;
		nanosleep(&nap, NULL);
	}
}

/* The guard hook of the second test: counts the guards entered. */
static bool first_judged, second_judged;
static void count(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&mu);
	bool *flag = calls++ == 0 ? &first_judged : &second_judged;
	*flag = true;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void test_no_wait_for_commit(void **state)
{
	(void)state;
	svc_fixture_setup("test_service_reads", operator_text);
	ibp_service *s = open_svc(true);
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	static const char first[] =
	    "{\"pkey\":\"0x20\",\"guids\":[\"0x0002c90000000401\"]}";
	uint64_t rev = 0;
	assert_int_equal(ibp_service_change(s, IBP_SERVICE_ADD_GUIDS, first,
					    strlen(first), &rev, &e),
			 IBP_OK);
	assert_int_equal(rev, 1);
	/* the test's own connection holds the database's write lock */
	sqlite3 *db2 = NULL;
	assert_int_equal(sqlite3_open(db, &db2), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db2, "BEGIN IMMEDIATE", NULL, NULL, NULL),
			 SQLITE_OK);
	pthread_mutex_lock(&mu);
	calls = 0;
	reads_done = false;
	pthread_mutex_unlock(&mu);
	ibp_service_set_guard_hook(s, count, NULL);
	struct writer w1 = {s, -1, 0}, w2 = {s, -1, 0};
	pthread_t t1, t2, rt;
	uint64_t fast = 0, whole = 0;
	ibp_service_guard_counts(s, &fast, &whole);
	assert_int_equal(pthread_create(&t1, NULL, write_one, &w1), 0);
	assert_true(wait_for(&first_judged, 60));
	/* and queued: out of the writers' lock (a change is judged before
	 * it, tried on the kept answer, then applied under it) */
	assert_true(wait_judged(s, fast + whole + 1, 60));
	/* the first change is judged; its commit waits for the lock (5 s at
	 * most): the second change and the reads must get through first */
	assert_int_equal(pthread_create(&t2, NULL, write_other, &w2), 0);
	struct reader r = {.s = s};
	assert_int_equal(pthread_create(&rt, NULL, read_all, &r), 0);
	bool judged =
	    wait_for(&second_judged, 4) && wait_judged(s, fast + whole + 2, 4);
	bool read = wait_for(&reads_done, 1);
	sqlite3_exec(db2, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(db2);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	pthread_join(rt, NULL);
	assert_true(judged); /* while the first change's commit waited */
	assert_true(read);
	assert_int_equal(r.rev, 1); /* the reads saw what was durable */
	assert_int_equal(w1.rc, IBP_OK);
	assert_int_equal(w1.rev, 2);
	assert_int_equal(w2.rc, IBP_OK);
	assert_int_equal(w2.rev, 3);
	assert_int_equal(ibp_service_revision(s), 3);
	free(r.list);
	free(r.one);
	free(r.status);
	free(r.html);
	ibp_service_close(s);
	svc_fixture_teardown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_reads_during_guard),
	    cmocka_unit_test(test_no_wait_for_commit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
