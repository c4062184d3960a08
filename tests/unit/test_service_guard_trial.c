/*
 * test_service_guard_trial.c - changes judged at once (issue 29;
 * docs/ibpartd.md, "Concurrency"): a change is tried on the guard's kept
 * answer outside the writers' lock (service_guard_state.c, "Trials") and
 * applied as tried only when nothing it read changed meanwhile, else
 * judged again under the lock.  On tests/interop/data/live-2sw.topo:
 *
 *  - two changes to different P_Keys on different ports are inside the
 *    guard at the same time (the guard hook waits, with a deadline, until
 *    both are in: before the trials the second could not get in until
 *    the first had left) and both are applied as tried;
 *  - two changes to different P_Keys that each pass alone but together
 *    make a port full member of both tenants' P_Keys (tenant-bridge),
 *    tried at the same time, are serialised: exactly one is refused
 *    (409, tenant-bridge), as the whole-plan guard refuses the second of
 *    them in either order;
 *  - random changes from four threads at once, each to a P_Key of its
 *    own (ports and an unknown GUID
 *    added full or limited, removed, P_Keys deleted; callers refused or
 *    only warned of tenant-bridge), every fourth round with the
 *    topology file replaced meanwhile by a copy of itself (loaded again,
 *    the kept answer built again on it while changes are tried on the
 *    one before; under ASan a fabric freed too early is caught): after
 *    each round the kept answer equals the whole audit of the plan
 *    (ibp_service_guard_check), and the changes accepted, replayed in
 *    their revisions' order on a service judging each with the whole
 *    plan, are accepted there with the same warnings and leave the same
 *    plan.
 *
 * The hook only ever waits for an event (with a deadline a passing run
 * never reaches, except in the random test, where the wait only makes
 * the changes overlap and decides no outcome).
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

#include <cmocka.h>
#include <jansson.h>

#include "ibpart/sys/service.h"
#include "service/service_lib.h"
#include "guard_side.h"

static const char operator_text[] =
    "Default=0x7fff, ipoib : 0x0002c90000000101=full, ALL=limited ;\n";

/* from copied to to (written aside, renamed over it: another inode). */
static void copy_file(const char *from, const char *to)
{
	static char text[8192];
	char tmp[320];
	FILE *f = fopen(from, "r");
	assert_non_null(f);
	size_t n = fread(text, 1, sizeof(text), f);
	fclose(f);
	snprintf(tmp, sizeof(tmp), "%s.new", to);
	f = fopen(tmp, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rename(tmp, to), 0);
}

static void side_open(struct side *x, const char *name, bool whole)
{
	const char *data = getenv("IBP_TESTDATA");
	char topo[512];
	snprintf(topo, sizeof(topo), "%s/../interop/data/live-2sw.topo",
		 data ? data : "tests/data");
	guard_side_dir(x, name, operator_text);
	copy_file(topo, x->topo);
	struct ibp_service_options o;
	ibp_service_options_init(&o, IBP_SERVICE_OPTIONS_VERSION);
	o.db_path = x->db;
	o.partitions_path = x->conf;
	o.topology_path = x->topo;
	ibp_error err;
	assert_int_equal(ibp_service_open(&o, &x->s, &err), IBP_OK);
	ibp_service_set_guard_whole(x->s, whole);
}

/* A change, answered: its HTTP status, revision, findings, warnings. */
struct answer {
	int http;
	uint64_t rev;
	char findings[2048], warnings[2048];
};

static struct answer change(ibp_service *s, bool warned, ibp_service_op op,
			    const char *body)
{
	static const char *const warn[] = {"tenant-bridge", NULL};
	struct ibp_service_caller c;
	ibp_service_caller_init(&c, IBP_SERVICE_CALLER_VERSION);
	c.user = warned ? "k8s" : "plain";
	c.warn_rules = warned ? warn : NULL;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	struct answer a = {0};
	int rc =
	    ibp_service_change_as(s, &c, op, body, strlen(body), &a.rev, &e);
	a.http = rc ? ibp_service_error_http(&e) : 200;
	snprintf(a.findings, sizeof(a.findings), "%s",
		 e.findings ? e.findings : "");
	snprintf(a.warnings, sizeof(a.warnings), "%s",
		 c.warnings ? c.warnings : "");
	free(c.warnings);
	ibp_service_error_clear(&e);
	return a;
}

static void add(ibp_service *s, const char *body)
{
	struct answer a = change(s, false, IBP_SERVICE_ADD_GUIDS, body);
	if (a.http != 200)
		fail_msg("%s: %d %s", body, a.http, a.findings);
}

/* ---- the hook: a meeting point inside the guard ---- */

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int inside, most, meet = 2, meet_ms = 30000;

/* Wait (meet_ms at most) until meet changes are inside at once. */
static void hook(void *arg)
{
	(void)arg;
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += meet_ms / 1000;
	until.tv_nsec += (long)(meet_ms % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&mu);
	if (++inside > most)
		most = inside;
	pthread_cond_broadcast(&cv);
	while (most < meet &&
	       pthread_cond_timedwait(&cv, &mu, &until) != ETIMEDOUT)
		;
	inside--;
	pthread_mutex_unlock(&mu);
}

static void hook_reset(int n, int ms)
{
	pthread_mutex_lock(&mu);
	inside = most = 0;
	meet = n;
	meet_ms = ms;
	pthread_mutex_unlock(&mu);
}

struct writer {
	ibp_service *s;
	const char *body;
	struct answer a;
};

static void *write_body(void *arg)
{
	struct writer *w = arg;
	w->a = change(w->s, false, IBP_SERVICE_ADD_GUIDS, w->body);
	return NULL;
}

static void two_at_once(ibp_service *s, struct writer *w1, struct writer *w2)
{
	hook_reset(2, 30000);
	ibp_service_set_guard_hook(s, hook, NULL);
	pthread_t t1, t2;
	assert_int_equal(pthread_create(&t1, NULL, write_body, w1), 0);
	assert_int_equal(pthread_create(&t2, NULL, write_body, w2), 0);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	ibp_service_set_guard_hook(s, NULL, NULL);
}

static void test_parallel(void **state)
{
	(void)state;
	struct side x;
	side_open(&x, "test_guard_trial", false);
	/* both ports tenant ports already, each alone in a P_Key: else
	 * each change would move the default partition's finding (which
	 * lists every tenant port), and the two would interact there */
	add(x.s, "{\"pkey\":\"0x30\",\"guids\":[\"0x0002c90000000201\"]}");
	add(x.s, "{\"pkey\":\"0x31\",\"guids\":[\"0x0002c90000000301\"]}");
	uint64_t applied0 = 0, rejudged0 = 0;
	ibp_service_guard_trials(x.s, &applied0, &rejudged0);
	struct writer w1 = {x.s, "{\"pkey\":\"0x21\",\"guids\":["
				 "\"0x0002c90000000201\"]}"};
	struct writer w2 = {x.s, "{\"pkey\":\"0x22\",\"guids\":["
				 "\"0x0002c90000000301\"]}"};
	two_at_once(x.s, &w1, &w2);
	uint64_t applied = 0, rejudged = 0;
	ibp_service_guard_trials(x.s, &applied, &rejudged);
	fprintf(stderr,
		"inside at once: %d; tried and applied %llu, judged "
		"again %llu\n",
		most, (unsigned long long)applied,
		(unsigned long long)rejudged);
	assert_int_equal(most, 2); /* both in the guard at the same time */
	assert_int_equal(w1.a.http, 200);
	assert_int_equal(w2.a.http, 200);
	assert_true(w1.a.rev != w2.a.rev);
	assert_int_equal(applied - applied0, 2);
	assert_int_equal(rejudged - rejudged0, 0);
	char why[512];
	assert_false(ibp_service_guard_check(x.s, why, sizeof(why), NULL));
	guard_side_close(&x);
}

/* 0x0002c90000000201 full in 0x21 and 0x22, alone in each; A adds a
 * second member to 0x21, B one to 0x22: either alone leaves 201 a full
 * member of one partition with others, both make it a bridge. */
static const char bridge_setup[2][80] = {
    "{\"pkey\":\"0x21\",\"guids\":[\"0x0002c90000000201\"]}",
    "{\"pkey\":\"0x22\",\"guids\":[\"0x0002c90000000201\"]}",
};
static const char bridge_a[] =
    "{\"pkey\":\"0x21\",\"guids\":[\"0x0002c90000000301\"]}";
static const char bridge_b[] =
    "{\"pkey\":\"0x22\",\"guids\":[\"0x0002c90000000401\"]}";

static void test_interacting(void **state)
{
	(void)state;
	/* the premise, on the whole-plan guard: each passes alone, the
	 * second of the two is refused, in either order */
	for (int order = 0; order < 2; order++) {
		struct side w;
		side_open(&w, "test_guard_trial_whole", true);
		add(w.s, bridge_setup[0]);
		add(w.s, bridge_setup[1]);
		struct answer a = change(w.s, false, IBP_SERVICE_ADD_GUIDS,
					 order ? bridge_b : bridge_a);
		struct answer b = change(w.s, false, IBP_SERVICE_ADD_GUIDS,
					 order ? bridge_a : bridge_b);
		assert_int_equal(a.http, 200);
		assert_int_equal(b.http, 409);
		assert_non_null(strstr(b.findings, "tenant-bridge"));
		guard_side_close(&w);
	}
	struct side x;
	side_open(&x, "test_guard_trial", false);
	add(x.s, bridge_setup[0]);
	add(x.s, bridge_setup[1]);
	uint64_t applied0 = 0, rejudged0 = 0;
	ibp_service_guard_trials(x.s, &applied0, &rejudged0);
	struct writer w1 = {x.s, bridge_a}, w2 = {x.s, bridge_b};
	two_at_once(x.s, &w1, &w2);
	uint64_t applied = 0, rejudged = 0;
	ibp_service_guard_trials(x.s, &applied, &rejudged);
	fprintf(stderr,
		"inside at once: %d; %d and %d; tried and applied "
		"%llu, judged again %llu\n",
		most, w1.a.http, w2.a.http, (unsigned long long)applied,
		(unsigned long long)rejudged);
	assert_int_equal(most, 2); /* judged at the same time */
	/* serialised where they interact: exactly one refused */
	assert_int_equal((w1.a.http == 409) + (w2.a.http == 409), 1);
	assert_int_equal((w1.a.http == 200) + (w2.a.http == 200), 1);
	const struct answer *no = w1.a.http == 409 ? &w1.a : &w2.a;
	assert_non_null(strstr(no->findings, "tenant-bridge"));
	assert_int_equal(applied - applied0, 1);
	assert_int_equal(rejudged - rejudged0, 1);
	char why[512];
	assert_false(ibp_service_guard_check(x.s, why, sizeof(why), NULL));
	guard_side_close(&x);
}

/* ---- random changes from threads at once ---- */

#define THREADS 4
#define ROUNDS	60

static const char *const guids[] = {
    "0002c90000000201", "0002c90000000301", "0002c90000000401",
    "0002c90000000501", "0002c90000000601", "0002c9030000dead",
};
#define NGUIDS (sizeof(guids) / sizeof(guids[0]))

static uint64_t rnd = 0x9e3779b97f4a7c15ull;
static unsigned next(unsigned n)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return (unsigned)(rnd % n);
}

/* Was the calling thread's change judged (not a change that changes
 * nothing)? */
static _Thread_local bool judged;
static void random_hook(void *arg)
{
	judged = true;
	hook(arg);
}

struct job {
	ibp_service *s;
	unsigned kind; /* 0 remove, 1 delete, else add */
	bool warned, judged;
	char body[256], pkey[8];
	struct answer a;
};

static void *run_job(void *arg)
{
	struct job *j = arg;
	judged = false;
	if (j->kind == 1) {
		struct ibp_service_error e;
		ibp_service_error_init(&e);
		int rc = ibp_service_delete_pkey(j->s, j->pkey, &j->a.rev, &e);
		j->a.http = rc ? ibp_service_error_http(&e) : 200;
		ibp_service_error_clear(&e);
	} else {
		j->a = change(j->s, j->warned,
			      j->kind ? IBP_SERVICE_ADD_GUIDS
				      : IBP_SERVICE_REMOVE_GUIDS,
			      j->body);
	}
	j->judged = judged;
	return NULL;
}

/* The topology file replaced by a copy of itself (issue 24): the
 * service loads it again and the kept answer is built again on it,
 * while changes are tried on the one before. */
static void *replace_topology(void *arg)
{
	const char *path = arg;
	char copy[320];
	snprintf(copy, sizeof(copy), "%s.copy", path);
	copy_file(path, copy);
	copy_file(copy, path);
	return NULL;
}

static int by_rev(const void *a, const void *b)
{
	const struct job *x = *(struct job *const *)a,
			 *y = *(struct job *const *)b;
	return (x->a.rev > y->a.rev) - (x->a.rev < y->a.rev);
}

static char *list_of(ibp_service *s)
{
	char *json = NULL;
	struct ibp_service_error e;
	ibp_service_error_init(&e);
	assert_int_equal(ibp_service_list(s, true, false, &json, &e), IBP_OK);
	return json;
}

static void test_random_concurrent(void **state)
{
	(void)state;
	struct side inc, whole;
	side_open(&inc, "test_guard_trial_inc", false);
	side_open(&whole, "test_guard_trial_whole", true);
	ibp_service_set_guard_hook(inc.s, random_hook, NULL);
	size_t accepted = 0, refused = 0, warned = 0;
	for (unsigned round = 1; round <= ROUNDS; round++) {
		struct job jobs[THREADS];
		pthread_t t[THREADS];
		hook_reset(2, 20); /* overlap them: decides no outcome */
		/* each a P_Key of its own: a change that changes nothing is
		 * one when it is judged (then the hook does not see it) */
		unsigned pk[6] = {0x20, 0x21, 0x22, 0x23, 0x24, 0x25};
		for (unsigned i = 0; i < 6; i++) {
			unsigned k = i + next(6 - i), x = pk[i];
			pk[i] = pk[k];
			pk[k] = x;
		}
		for (unsigned i = 0; i < THREADS; i++) {
			struct job *j = &jobs[i];
			*j = (struct job){.s = inc.s};
			unsigned op = next(10);
			j->kind = op < 2 ? 0 : op == 2 ? 1 : 2;
			j->warned = next(2);
			unsigned pkey = pk[i];
			snprintf(j->pkey, sizeof(j->pkey), "0x%x", pkey);
			int at = snprintf(j->body, sizeof(j->body),
					  "{\"pkey\":\"0x%x\",\"membership\":"
					  "\"%s\",\"guids\":[",
					  pkey, next(3) ? "full" : "limited");
			for (unsigned k = 0, n = 1 + next(2); k < n; k++)
				at += snprintf(j->body + at,
					       sizeof(j->body) - (size_t)at,
					       "%s\"%s\"", k ? "," : "",
					       guids[next(NGUIDS)]);
			snprintf(j->body + at, sizeof(j->body) - (size_t)at,
				 "]}");
		}
		/* every fourth round, the topology replaced meanwhile (the
		 * same fabric: the same answers) */
		pthread_t rt;
		bool replace = round % 4 == 0;
		for (unsigned i = 0; i < THREADS; i++)
			assert_int_equal(
			    pthread_create(&t[i], NULL, run_job, &jobs[i]), 0);
		if (replace)
			assert_int_equal(pthread_create(&rt, NULL,
							replace_topology,
							inc.topo),
					 0);
		for (unsigned i = 0; i < THREADS; i++)
			pthread_join(t[i], NULL);
		if (replace)
			pthread_join(rt, NULL);
		char why[512];
		if (ibp_service_guard_check(inc.s, why, sizeof(why), NULL))
			fail_msg("round %u: %s", round, why);
		/* the changes made, in their revisions' order, on the
		 * whole-plan guard */
		struct job *done[THREADS];
		size_t n = 0;
		for (unsigned i = 0; i < THREADS; i++) {
			refused += jobs[i].a.http == 409;
			if (jobs[i].a.http == 200 && jobs[i].judged)
				done[n++] = &jobs[i];
		}
		qsort(done, n, sizeof(*done), by_rev);
		for (size_t i = 0; i < n; i++) {
			struct job *j = done[i];
			struct answer b;
			if (j->kind == 1) {
				struct ibp_service_error e;
				ibp_service_error_init(&e);
				int rc = ibp_service_delete_pkey(
				    whole.s, j->pkey, &b.rev, &e);
				b.http = rc ? ibp_service_error_http(&e) : 200;
				b.warnings[0] = 0;
				ibp_service_error_clear(&e);
				j->a.warnings[0] = 0;
			} else {
				b = change(whole.s, j->warned,
					   j->kind ? IBP_SERVICE_ADD_GUIDS
						   : IBP_SERVICE_REMOVE_GUIDS,
					   j->body);
			}
			if (b.http != 200 || b.rev != j->a.rev ||
			    strcmp(b.warnings, j->a.warnings))
				fail_msg("round %u: %s %s: rev %llu [%s], on "
					 "the whole plan %d rev %llu [%s] [%s]",
					 round, j->pkey, j->body,
					 (unsigned long long)j->a.rev,
					 j->a.warnings, b.http,
					 (unsigned long long)b.rev, b.warnings,
					 b.findings);
			accepted++;
			warned += j->a.warnings[0] != 0;
		}
		char *l1 = list_of(inc.s), *l2 = list_of(whole.s);
		if (strcmp(l1, l2))
			fail_msg("round %u: the plans differ:\n%s\n%s", round,
				 l1, l2);
		free(l1);
		free(l2);
	}
	uint64_t applied = 0, rejudged = 0;
	ibp_service_guard_trials(inc.s, &applied, &rejudged);
	unsigned long loads = ibp_service_topology_loads(inc.s);
	fprintf(stderr,
		"%u rounds of %u changes at once: %zu accepted, %zu refused, "
		"%zu with warnings; tried and applied %llu, judged again "
		"%llu; the topology loaded %lu times\n",
		ROUNDS, THREADS, accepted, refused, warned,
		(unsigned long long)applied, (unsigned long long)rejudged,
		loads);
	/* loaded again after replacements, by the changes of the rounds
	 * after them */
	assert_true(loads > 1);
	/* the guard found tenant-bridges: refused, or only warned of */
	assert_true(accepted > 0 && refused + warned > 0);
	assert_true(applied > 0 && rejudged > 0);
	guard_side_close(&inc);
	guard_side_close(&whole);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parallel),
	    cmocka_unit_test(test_interacting),
	    cmocka_unit_test(test_random_concurrent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
