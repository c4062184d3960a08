/*
 * hash_seed.c - random seeds for the hash tables of keys a file controls
 * (util/hash_seed.h: why).
 */
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

#include "util/hash_seed.h"

uint64_t hash_seed(void)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	/* the fuzz targets: the same coverage for the same input, so a
	 * fixed-seed run explores the same inputs every time */
	return 0x9e3779b97f4a7c15ULL;
#endif
	uint64_t s = 0;
	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) == (ssize_t)sizeof(s))
		return s;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return hash_mix((uint64_t)t.tv_nsec ^ (uint64_t)t.tv_sec << 30 ^
			(uint64_t)(uintptr_t)&t);
}
