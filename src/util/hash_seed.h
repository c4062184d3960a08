/*
 * hash_seed.h - private: the hashing of keys a file controls (GUIDs and
 * node ids of a topology, partition names of a plan).  The hash tables
 * probe linearly or chain, so keys that share their low hash bits make
 * every insert walk all the others: with a fixed, invertible mix a
 * crafted 8 MB topology of 100,000 GUIDs took 12.5 s instead of 0.24 s
 * (and a 77 MB one some twenty minutes).  Each table therefore mixes
 * its keys with a seed of its own, drawn at random when it is made, so
 * which keys collide cannot be known in advance.  Not installed.
 */
#ifndef IBPART_UTIL_HASH_SEED_H
#define IBPART_UTIL_HASH_SEED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A fresh random 64-bit seed (getrandom; without it the time and an
 * address); a fixed one in a fuzzing build
 * (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION), whose runs must repeat.
 * Cannot fail. */
uint64_t hash_seed(void);

/* MurmurHash3's 64-bit finalizer: every input bit moves every output
 * bit.  Seeded by XOR before it (hash_mix(key ^ seed)). */
static inline uint64_t hash_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* The n bytes at s, hashed with a seed: eight bytes at a time (the keys
 * are node ids and descriptions of 18 bytes and more, "S-e41d2d04...",
 * that share long prefixes), each word multiplied in, then mixed.  The
 * one string hash of the topology's tables: the reader's symbols and
 * the fabric's look-ups by id and by description. */
static inline uint64_t hash_bytes(const char *s, size_t n, uint64_t seed)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n ^ seed;
	for (; n >= 8; s += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	uint64_t w = 0;
	memcpy(&w, s, n);
	return hash_mix(h ^ w);
}

#endif
