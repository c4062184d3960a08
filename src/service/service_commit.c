/*
 * service_commit.c - group commit (issue 29): the changes the writers
 * accepted, made durable together.  A writer's change is judged on the
 * writers' plan (the plan published plus every change accepted and not
 * yet durable): first tried outside the writers' lock, at once with
 * other changes, on the guard's kept answer (service_guard_state.c,
 * "Trials"), then, under the writers' lock, applied as tried when
 * nothing the trial read changed meanwhile, else judged again there -
 * so the verdicts are those of changes judged one at a time in the
 * order they pass the writers' lock.  The writer gives its change the
 * next revision and queues it, then drops the writers' lock and waits
 * until its revision is durable.  One of the waiters (the first to
 * find no commit running) takes the whole queue and writes it as one
 * SQLite transaction on its own connection - one fsync,
 * synchronous=FULL - holding neither the writers' lock nor the service
 * lock meanwhile, so the next changes are judged while the disk works;
 * then it publishes the plan of the queue's last change and wakes the
 * others.  Each request is answered only after its revision is
 * durable, and in revision order as before: the revisions are given in
 * the order the changes pass the writers' lock.
 *
 * A transaction that fails (the disk full, an I/O error) fails every
 * change it held and every change queued meanwhile (they were judged on
 * top of them): the writers' plan goes back to the plan published, the
 * guard's kept answer is dropped (built again at the next change), and
 * nothing of them is in the database - so a change is either answered
 * 200 and durable, or answered an error and absent.
 *
 * With a shared store (--store) nothing is queued: its transaction
 * holds the store's writers' lock through the change, which commits it
 * at once (service.c), and the writers' plan follows the plan published.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_internal.h"

/* One change accepted and not yet durable. */
struct svc_commit {
	struct svc_commit *next;
	struct svc_snap *snap; /* the writers' plan after it (a reference) */
	uint64_t rev;
	uint16_t pkey;
	const char *op;
	bool has_actor;
	ibp_service_actor actor; /* its strings in text */
	char *text;
	char *warnings; /* the caller's, for the status; NULL: none */
	char user[64];
};

static void entry_free(struct svc_commit *c)
{
	if (!c)
		return;
	svc_snap_put(c->snap);
	free(c->text);
	free(c->warnings);
	free(c);
}

/* The calling thread's actor copied into c (its strings outlive the
 * request only as long as the caller's, and the committer may be
 * another thread). */
static bool entry_actor(struct svc_commit *c)
{
	const ibp_service_actor *a = svc_actor();
	if (!a)
		return true;
	const char *v[4] = {a->user, a->via, a->client, a->request};
	size_t len[4], total = 0;
	for (int i = 0; i < 4; i++)
		total += (len[i] = v[i] ? strlen(v[i]) + 1 : 0);
	if (!(c->text = malloc(total ? total : 1)))
		return false;
	const char **out[4] = {&c->actor.user, &c->actor.via, &c->actor.client,
			       &c->actor.request};
	size_t at = 0;
	for (int i = 0; i < 4; i++) {
		*out[i] = v[i] ? memcpy(c->text + at, v[i], len[i]) : NULL;
		at += len[i];
	}
	c->has_actor = true;
	return true;
}

int svc_commit_open(ibp_service *s, ibp_error *err)
{
	pthread_mutex_init(&s->commit_lock, NULL);
	pthread_cond_init(&s->durable_cond, NULL);
	s->queue_tail = &s->queue;
	s->commit_ready = true;
	s->durable = s->rev;
	s->wsnap = svc_snap_get(s);
	s->wrev = s->rev;
	if (s->store_url)
		return IBP_OK; /* nothing is queued */
	if (sqlite3_open_v2(s->db_path, &s->wdb,
			    SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX,
			    NULL) != SQLITE_OK ||
	    sqlite3_busy_timeout(s->wdb, 5000) != SQLITE_OK ||
	    sqlite3_exec(s->wdb, "PRAGMA synchronous=FULL;", NULL, NULL,
			 NULL) != SQLITE_OK)
		return ibp_error_set(
		    err, IBP_EIO, "%s: the committer's connection: %s",
		    s->db_path,
		    s->wdb ? sqlite3_errmsg(s->wdb) : "cannot open");
	return IBP_OK;
}

void svc_commit_close(ibp_service *s)
{
	if (!s->commit_ready)
		return;
	for (struct svc_commit *c = s->queue, *n; c; c = n) {
		n = c->next;
		entry_free(c);
	}
	svc_snap_put(s->wsnap);
	sqlite3_close(s->wdb);
	pthread_mutex_destroy(&s->commit_lock);
	pthread_cond_destroy(&s->durable_cond);
}

/* Under the writers' lock and the lock: the writers' plan and revision
 * made the plan published. */
static void follow_plan(ibp_service *s)
{
	struct svc_snap *old = s->wsnap;
	s->wsnap = svc_snap_get(s);
	s->wrev = s->rev;
	svc_snap_put(old);
}

/* Under the writers' lock, the lock and commit_lock, after a commit
 * failed: the writers' plan is the plan published again, the guard's
 * kept answer (which holds the changes that failed) dropped. */
static void writers_reset(ibp_service *s)
{
	follow_plan(s);
	svc_guard_base_free(s, s->guard);
	s->guard = NULL;
	s->broken = false;
}

void svc_writers_follow(ibp_service *s)
{
	pthread_mutex_lock(&s->commit_lock); /* committed without the queue */
	follow_plan(s);
	if (s->durable < s->rev)
		s->durable = s->rev;
	pthread_mutex_unlock(&s->commit_lock);
}

uint64_t svc_writers_begin(ibp_service *s)
{
	pthread_mutex_lock(&s->commit_lock);
	if (s->broken) { /* the kept answer dropped: no change tried on it */
		pthread_mutex_unlock(&s->commit_lock);
		pthread_rwlock_wrlock(&s->guard_rw);
		pthread_mutex_lock(&s->commit_lock);
		if (s->broken)
			writers_reset(s);
		pthread_rwlock_unlock(&s->guard_rw);
	}
	uint64_t epoch = s->epoch;
	pthread_mutex_unlock(&s->commit_lock);
	return epoch;
}

int svc_commit_enqueue(ibp_service *s, uint64_t epoch, const char *op,
		       uint16_t pkey, struct svc_plan *np,
		       const struct ibp_service_caller *c, uint64_t *rev,
		       struct ibp_service_error *e)
{
	struct svc_commit *q = calloc(1, sizeof(*q));
	if (!q || !(q->snap = svc_snap_new()) || !entry_actor(q) ||
	    (c && c->warnings && !(q->warnings = strdup(c->warnings)))) {
		entry_free(q);
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	q->snap->plan = *np;
	*np = (struct svc_plan){0};
	q->pkey = pkey;
	q->op = op;
	if (c && c->user)
		snprintf(q->user, sizeof(q->user), "%s", c->user);
	pthread_mutex_lock(&s->commit_lock);
	if (s->epoch != epoch) { /* judged on changes that failed */
		if (s->broken)
			writers_reset(s);
		pthread_mutex_unlock(&s->commit_lock);
		entry_free(q);
		return svc_fail(e, IBP_EIO, NULL,
				"%s; the change was not recorded",
				s->commit_error);
	}
	q->rev = ++s->wrev;
	svc_snap_put(s->wsnap);
	s->wsnap = q->snap;
	atomic_fetch_add(&q->snap->refs, 1);
	*s->queue_tail = q;
	s->queue_tail = &q->next;
	pthread_mutex_unlock(&s->commit_lock);
	if (rev)
		*rev = q->rev;
	return IBP_OK;
}

void svc_keep_warnings(ibp_service *s, uint64_t rev, const char *user,
		       char *json)
{
	if (!json)
		return;
	struct svc_warning *w = &s->warnings[s->warn_next];
	free(w->json);
	w->rev = rev;
	snprintf(w->user, sizeof(w->user), "%s", user ? user : "");
	w->json = json;
	s->warn_next = (s->warn_next + 1) % SVC_WARNINGS_KEPT;
	s->view_gen++;
	if (s->nwarnings < SVC_WARNINGS_KEPT)
		s->nwarnings++;
}

/* Under commit_lock, with no commit running and a queue: commit the
 * queue as one transaction (commit_lock dropped meanwhile), publish its
 * last plan, and wake every waiter. */
static void lead(ibp_service *s)
{
	struct svc_commit *batch = s->queue, *last = NULL;
	s->queue = NULL;
	s->queue_tail = &s->queue;
	s->committing = true;
	pthread_mutex_unlock(&s->commit_lock);
	size_t n = 0;
	for (struct svc_commit *q = batch; q; q = q->next)
		n++;
	struct svc_db_change *ch = calloc(n, sizeof(*ch));
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ch ? IBP_OK : ibp_error_set(&err, IBP_ENOMEM, "out of memory");
	size_t i = 0;
	for (struct svc_commit *q = batch; ch && q; q = q->next, i++) {
		/* a P_Key a later change of the batch writes again is
		 * written once, as the later one left it */
		bool later = false;
		for (struct svc_commit *r = q->next; r && !later; r = r->next)
			later = r->pkey == q->pkey;
		ch[i] = (struct svc_db_change){
		    .plan = later ? NULL : &q->snap->plan,
		    .pkey = q->pkey,
		    .rev = q->rev,
		    .op = q->op,
		    .actor = q->has_actor ? &q->actor : NULL,
		};
		last = q;
	}
	if (!rc)
		rc = svc_db_commit_group(s, s->wdb, ch, n, &err);
	free(ch);
	if (!rc) {
		pthread_mutex_lock(&s->lock);
		for (struct svc_commit *q = batch; q; q = q->next) {
			svc_keep_warnings(s, q->rev, q->user, q->warnings);
			q->warnings = NULL;
		}
		svc_plan_publish_snap(s, last->snap);
		last->snap = NULL;
		s->rev = last->rev;
		pthread_cond_broadcast(&s->changed);
		pthread_mutex_unlock(&s->lock);
	}
	pthread_mutex_lock(&s->commit_lock);
	s->committing = false;
	if (!rc) {
		s->durable = last->rev;
		atomic_fetch_add(&s->commits, 1);
	} else {
		/* every change queued meanwhile was judged on these */
		snprintf(s->commit_error, sizeof(s->commit_error), "%.250s",
			 err.message);
		for (struct svc_commit *q = s->queue, *nx; q; q = nx) {
			nx = q->next;
			entry_free(q);
		}
		s->queue = NULL;
		s->queue_tail = &s->queue;
		s->epoch++;
		s->broken = true;
	}
	pthread_cond_broadcast(&s->durable_cond);
	pthread_mutex_unlock(&s->commit_lock);
	for (struct svc_commit *q = batch, *nx; q; q = nx) {
		nx = q->next;
		entry_free(q);
	}
	pthread_mutex_lock(&s->commit_lock);
}

int svc_commit_wait(ibp_service *s, uint64_t rev, uint64_t epoch,
		    struct ibp_service_error *e)
{
	int rc = IBP_OK;
	pthread_mutex_lock(&s->commit_lock);
	for (;;) {
		if (s->epoch != epoch) {
			rc = svc_fail(e, IBP_EIO, NULL,
				      "%s; the change was not recorded",
				      s->commit_error);
			break;
		}
		if (s->durable >= rev)
			break;
		if (!s->committing && s->queue)
			lead(s);
		else
			pthread_cond_wait(&s->durable_cond, &s->commit_lock);
	}
	pthread_mutex_unlock(&s->commit_lock);
	return rc;
}

void svc_commit_drain(ibp_service *s)
{
	pthread_mutex_lock(&s->commit_lock);
	while (s->queue || s->committing) {
		if (!s->committing)
			lead(s);
		else
			pthread_cond_wait(&s->durable_cond, &s->commit_lock);
	}
	pthread_mutex_unlock(&s->commit_lock);
}

unsigned long ibp_service_commits(ibp_service *s)
{
	return atomic_load(&s->commits);
}
