/*
 * login_limit.c - failed logins counted per client address and per
 * user name in one-minute windows (--login-failures): past the limit
 * either one is answered 429 until its window ends, without a crypt(3)
 * and the same whether the user exists or not.  Two fixed tables
 * (addresses, names) of a few thousand slots, indexed by a keyed hash
 * (a random key from getrandom, so a client cannot choose names that
 * collide): the memory is bounded whatever the clients send, and a
 * slot taken by another key only forgets an old count.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "ibpartd.h"

#define SLOTS  4096
#define WINDOW 60 /* seconds */

struct slot {
	uint64_t key;
	time_t start;
	unsigned failures;
};

struct login_limit {
	pthread_mutex_t lock;
	unsigned max;
	uint64_t seed;
	struct slot addr[SLOTS], user[SLOTS];
};

struct login_limit *login_limit_new(unsigned max)
{
	struct login_limit *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	pthread_mutex_init(&l->lock, NULL);
	l->max = max;
	if (getrandom(&l->seed, sizeof(l->seed), 0) != sizeof(l->seed))
		l->seed = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull;
	return l;
}

void login_limit_free(struct login_limit *l)
{
	if (l)
		pthread_mutex_destroy(&l->lock);
	free(l);
}

/* FNV-1a from a random basis, mixed at the end (never 0: 0 is empty) */
static uint64_t key_of(const struct login_limit *l, const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull ^ l->seed;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h | 1;
}

static struct slot *find(struct slot *t, uint64_t key, time_t now)
{
	struct slot *s = &t[key % SLOTS];
	if (s->key != key || now - s->start >= WINDOW) {
		s->key = key;
		s->start = now;
		s->failures = 0;
	}
	return s;
}

bool login_limited(struct login_limit *l, const char *addr, const char *user)
{
	if (!l || !l->max)
		return false;
	time_t now = time(NULL);
	pthread_mutex_lock(&l->lock);
	bool over =
	    find(l->addr, key_of(l, addr), now)->failures >= l->max ||
	    (user && find(l->user, key_of(l, user), now)->failures >= l->max);
	pthread_mutex_unlock(&l->lock);
	return over;
}

void login_failed(struct login_limit *l, const char *addr, const char *user)
{
	if (!l)
		return;
	time_t now = time(NULL);
	pthread_mutex_lock(&l->lock);
	find(l->addr, key_of(l, addr), now)->failures++;
	if (user)
		find(l->user, key_of(l, user), now)->failures++;
	pthread_mutex_unlock(&l->lock);
}
