/*
 * cred_cache.c - the crypt(3) verifications that succeeded, kept so
 * that a client sending the same credentials on every request (each
 * UFM client does: HTTP Basic has no session) costs one SHA-512 crypt
 * per credential and lifetime, not one per request (issue 29: crypt was
 * 8-10% of the daemon's CPU per change at 48k ports).
 *
 * What is kept is an HMAC-SHA256, under a key drawn at start that never
 * leaves the process, of the stored hash and the secret checked against
 * it: never the secret, and nothing an attacker who reads the memory can
 * test passwords against faster than against the hash itself.  Only a
 * check that passed is kept, and only when the caller says the whole
 * login passed (a real user, a token found), so a wrong password, an
 * unknown user and a user without a password still cost a full crypt
 * and take the same time as before.  The stored hash is part of what is
 * keyed: a new users file or a token hash that changed never matches an
 * old entry.  An entry lives CRED_CACHE_TTL seconds; the cache holds
 * CRED_CACHE_SLOTS entries, a slot chosen by the HMAC (a newer entry
 * replaces the one in its slot), so its size is fixed whatever the
 * clients send.  Entries are compared in constant time (gnutls_memcmp).
 * Everything else a request is checked for (the user still there, its
 * role and ranges, a token's expiry and revocation, the failed-login
 * limit) runs on every request as before; docs/ibpartd.md, "Security".
 */
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibpartd.h"

#define CRED_CACHE_SLOTS 256
#define CRED_CACHE_TTL	 300 /* seconds */
#define MAC_LEN		 32  /* SHA-256 */

struct cred_cache {
	pthread_mutex_t lock;
	unsigned char key[MAC_LEN];
	struct slot {
		unsigned char mac[MAC_LEN];
		time_t until; /* CLOCK_MONOTONIC s; 0: empty */
	} slot[CRED_CACHE_SLOTS];
	atomic_ulong hits, crypts;
};

struct cred_cache *cred_cache_new(void)
{
	struct cred_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	if (gnutls_rnd(GNUTLS_RND_KEY, c->key, sizeof(c->key))) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	return c;
}

void cred_cache_free(struct cred_cache *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	gnutls_memset(c, 0, sizeof(*c));
	free(c);
}

/* HMAC(key, len(hash) hash secret) into mac; false on failure. */
static bool mac_of(const struct cred_cache *c, const char *hash,
		   const char *secret, unsigned char *mac)
{
	size_t hl = strlen(hash), sl = strlen(secret);
	unsigned char *m = malloc(4 + hl + sl);
	if (!m)
		return false;
	m[0] = (unsigned char)(hl >> 24);
	m[1] = (unsigned char)(hl >> 16);
	m[2] = (unsigned char)(hl >> 8);
	m[3] = (unsigned char)hl;
	memcpy(m + 4, hash, hl);
	memcpy(m + 4 + hl, secret, sl);
	bool ok = !gnutls_hmac_fast(GNUTLS_MAC_SHA256, c->key, sizeof(c->key),
				    m, 4 + hl + sl, mac);
	gnutls_memset(m, 0, 4 + hl + sl);
	free(m);
	return ok;
}

static time_t now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec;
}

static size_t slot_of(const unsigned char *mac)
{
	return ((size_t)mac[0] << 8 | mac[1]) % CRED_CACHE_SLOTS;
}

bool cred_cache_has(struct cred_cache *c, const char *hash, const char *secret)
{
	unsigned char mac[MAC_LEN];
	if (!c || !mac_of(c, hash, secret, mac))
		return false;
	pthread_mutex_lock(&c->lock);
	const struct slot *s = &c->slot[slot_of(mac)];
	bool hit = s->until && s->until > now_s() &&
		   !gnutls_memcmp(s->mac, mac, sizeof(mac));
	pthread_mutex_unlock(&c->lock);
	gnutls_memset(mac, 0, sizeof(mac));
	if (hit)
		atomic_fetch_add(&c->hits, 1);
	return hit;
}

void cred_cache_put(struct cred_cache *c, const char *hash, const char *secret)
{
	unsigned char mac[MAC_LEN];
	if (!c || !mac_of(c, hash, secret, mac))
		return;
	pthread_mutex_lock(&c->lock);
	struct slot *s = &c->slot[slot_of(mac)];
	memcpy(s->mac, mac, sizeof(mac));
	s->until = now_s() + CRED_CACHE_TTL;
	pthread_mutex_unlock(&c->lock);
	gnutls_memset(mac, 0, sizeof(mac));
}

void cred_cache_crypt_ran(struct cred_cache *c)
{
	if (c)
		atomic_fetch_add(&c->crypts, 1);
}

void cred_cache_metrics(struct cred_cache *c, FILE *f)
{
	fprintf(f,
		"# HELP ibpartd_auth_crypts_total Passwords and tokens "
		"checked with crypt(3).\n"
		"# TYPE ibpartd_auth_crypts_total counter\n"
		"ibpartd_auth_crypts_total %lu\n"
		"# HELP ibpartd_auth_cache_hits_total Credentials found "
		"verified in the last %d s (no crypt(3)).\n"
		"# TYPE ibpartd_auth_cache_hits_total counter\n"
		"ibpartd_auth_cache_hits_total %lu\n",
		c ? atomic_load(&c->crypts) : 0UL, CRED_CACHE_TTL,
		c ? atomic_load(&c->hits) : 0UL);
}
