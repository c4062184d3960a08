/*
 * service_view.c - the key of what the service's views show (the status,
 * the page at `/`): one number that changes whenever any of their inputs
 * may have, so a caller (ibpartd) can keep a rendered view and serve it
 * again until the key moves, instead of rendering and auditing the whole
 * plan per request.  The inputs: the revision, what the service noted of
 * the revisions since (their states, absent GUIDs, drift, the warnings a
 * change came with: view_gen, bumped where they are recorded), and the
 * files the views read - the partitions file (the operator's lines), the
 * topology and the opensm.conf - by their stat.  A file changed within
 * the 100 ms its times might not show (a second on file systems without
 * sub-second times) gives no key: the view is rendered again, as it is
 * while a shared store is in use (its status of every SM host comes from
 * the store, not from here).
 */
#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>

#include "service/service_internal.h"
#include "util/hash_seed.h"

/* The file's identity mixed into *h; false when it changed too lately
 * to be told by its times. */
static bool mix_file(uint64_t *h, const char *path, const struct timespec *now)
{
	if (!path)
		return true;
	struct stat st;
	if (stat(path, &st)) {
		*h = hash_mix(*h ^ 0x6d697373696e67ULL); /* "missing" */
		return true;
	}
	const struct timespec *t[] = {&st.st_mtim, &st.st_ctim};
	for (int i = 0; i < 2; i++) {
		if (svc_stat_racy(t[i], now))
			return false;
		*h = hash_mix(*h ^ ((uint64_t)t[i]->tv_sec * 1000000000ULL +
				    (uint64_t)t[i]->tv_nsec));
	}
	*h = hash_mix(*h ^ (uint64_t)st.st_dev);
	*h = hash_mix(*h ^ (uint64_t)st.st_ino);
	*h = hash_mix(*h ^ (uint64_t)st.st_size);
	return true;
}

uint64_t ibp_service_view_key(ibp_service *s)
{
	if (s->store_url)
		return 0;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	pthread_mutex_lock(&s->lock);
	uint64_t h = hash_mix(s->rev ^ 0x7669657773ULL);
	h = hash_mix(h ^ s->fabric_rev);
	h = hash_mix(h ^ s->view_gen);
	pthread_mutex_unlock(&s->lock);
	if (!mix_file(&h, s->partitions_path, &now) ||
	    !mix_file(&h, s->topology_path, &now) ||
	    !mix_file(&h, s->opensm_conf_path, &now))
		return 0;
	return h ? h : 1;
}
