/*
 * pkey_table.c - one port's P_KeyTable (IBA vol. 1, 14.2.5.7).
 *
 * The entries are a plain array indexed like the hardware table.  Beside
 * it sits a small open-addressing hash from each 16-bit value present to
 * the lowest index holding it and how many entries hold it (an SM may
 * write duplicates), so that find and the receive-side match check cost
 * O(1) whatever the table's size.  The hash grows with the number of
 * entries in use, not with the capacity, so a 64-entry table holding two
 * keys costs a few dozen bytes.  A table is one allocation - the
 * header, the first eight hash slots and the entries - until its hash
 * outgrows the eight; a fabric's worth of tables is then one malloc a
 * port, not three.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"

struct slot {
	uint16_t key;	/* 0 = empty slot (0x0000 is never stored) */
	uint16_t count; /* entries holding key */
	uint32_t idx;	/* lowest index holding key */
};

#define INLINE_SLOTS 8

struct ibp_pkey_table {
	unsigned capacity;
	unsigned nonzero;  /* entries != 0 */
	unsigned hmask;	   /* hash size - 1 (power of two) */
	struct slot *hash; /* inline_hash, or its own block once grown */
	uint16_t *entries; /* inline, after inline_hash */
	struct slot inline_hash[INLINE_SLOTS];
};

/* One block: the header (with the first hash slots) and the entries. */
static ibp_pkey_table *table_alloc(unsigned capacity)
{
	ibp_pkey_table *t =
	    calloc(1, sizeof(*t) + (size_t)capacity * sizeof(uint16_t));
	if (!t)
		return NULL;
	t->capacity = capacity;
	t->entries = (uint16_t *)(t + 1);
	t->hash = t->inline_hash;
	t->hmask = INLINE_SLOTS - 1;
	return t;
}

static void hash_release(ibp_pkey_table *t)
{
	if (t->hash != t->inline_hash)
		free(t->hash);
}

static unsigned hslot(const ibp_pkey_table *t, uint16_t key)
{
	return ((uint32_t)key * 0x9e3779b1u >> 16) & t->hmask;
}

static struct slot *hfind(const ibp_pkey_table *t, uint16_t key)
{
	for (unsigned i = hslot(t, key);; i = (i + 1) & t->hmask) {
		if (t->hash[i].key == key)
			return &t->hash[i];
		if (t->hash[i].key == 0)
			return NULL;
	}
}

static int hrebuild(ibp_pkey_table *t, unsigned size)
{
	struct slot *h = calloc(size, sizeof(*h));
	if (!h)
		return IBP_ENOMEM;
	hash_release(t);
	t->hash = h;
	t->hmask = size - 1;
	for (unsigned i = 0; i < t->capacity; i++) {
		uint16_t k = t->entries[i];
		if (!k)
			continue;
		unsigned j = hslot(t, k);
		while (h[j].key && h[j].key != k)
			j = (j + 1) & t->hmask;
		if (!h[j].key) {
			h[j].key = k;
			h[j].idx = i;
		}
		h[j].count++;
	}
	return IBP_OK;
}

/* Remove the slot at i, shifting back followers (no tombstones). */
static void hdelete(ibp_pkey_table *t, struct slot *s)
{
	unsigned i = (unsigned)(s - t->hash);
	for (;;) {
		t->hash[i].key = 0;
		unsigned j = i;
		for (;;) {
			j = (j + 1) & t->hmask;
			if (!t->hash[j].key)
				return;
			unsigned home = hslot(t, t->hash[j].key);
			/* Can slot j move to the hole at i? */
			if ((j > i && (home <= i || home > j)) ||
			    (j < i && (home <= i && home > j)))
				break;
		}
		t->hash[i] = t->hash[j];
		i = j;
	}
}

ibp_pkey_table *ibp_pkey_table_new(unsigned capacity)
{
	if (capacity == 0 || capacity > IBP_PKEY_TABLE_MAX)
		return NULL;
	return table_alloc(capacity);
}

ibp_pkey_table *ibp_pkey_table_copy(const ibp_pkey_table *src)
{
	ibp_pkey_table *t = table_alloc(src->capacity);
	if (!t)
		return NULL;
	t->nonzero = src->nonzero;
	t->hmask = src->hmask;
	if (src->hash != src->inline_hash) {
		t->hash = malloc((src->hmask + 1) * sizeof(struct slot));
		if (!t->hash) {
			free(t);
			return NULL;
		}
	}
	memcpy(t->entries, src->entries, src->capacity * sizeof(uint16_t));
	memcpy(t->hash, src->hash, (src->hmask + 1) * sizeof(struct slot));
	return t;
}

void ibp_pkey_table_free(ibp_pkey_table *t)
{
	if (!t)
		return;
	hash_release(t);
	free(t);
}

unsigned ibp_pkey_table_capacity(const ibp_pkey_table *t)
{
	return t->capacity;
}

unsigned ibp_pkey_table_used(const ibp_pkey_table *t)
{
	unsigned n = t->capacity;
	while (n > 0 && t->entries[n - 1] == 0)
		n--;
	return n;
}

unsigned ibp_pkey_table_count(const ibp_pkey_table *t)
{
	return t->nonzero;
}

unsigned ibp_pkey_table_num_blocks(const ibp_pkey_table *t)
{
	return (t->capacity + IBP_PKEY_BLOCK_SIZE - 1) / IBP_PKEY_BLOCK_SIZE;
}

uint16_t ibp_pkey_table_get(const ibp_pkey_table *t, unsigned idx)
{
	return idx < t->capacity ? t->entries[idx] : 0;
}

/* Take the value at idx out of the hash. */
static void unindex(ibp_pkey_table *t, unsigned idx)
{
	uint16_t k = t->entries[idx];
	if (!k)
		return;
	struct slot *s = hfind(t, k);
	t->nonzero--;
	if (--s->count == 0) {
		hdelete(t, s);
		return;
	}
	if (s->idx == idx) { /* another entry holds k: find the lowest */
		for (unsigned i = 0; i < t->capacity; i++)
			if (i != idx && t->entries[i] == k) {
				s->idx = i;
				break;
			}
	}
}

static int index_at(ibp_pkey_table *t, unsigned idx, uint16_t k)
{
	if (!k)
		return IBP_OK;
	if ((t->nonzero + 1) * 2 > t->hmask + 1) {
		/* keep the load factor at or under one half */
		t->entries[idx] = 0;
		int rc = hrebuild(t, (t->hmask + 1) * 2);
		if (rc)
			return rc;
	}
	t->entries[idx] = k;
	t->nonzero++;
	struct slot *s = hfind(t, k);
	if (s) {
		s->count++;
		if (idx < s->idx)
			s->idx = idx;
		return IBP_OK;
	}
	unsigned j = hslot(t, k);
	while (t->hash[j].key)
		j = (j + 1) & t->hmask;
	t->hash[j].key = k;
	t->hash[j].count = 1;
	t->hash[j].idx = idx;
	return IBP_OK;
}

int ibp_pkey_table_set(ibp_pkey_table *t, unsigned idx, uint16_t pkey,
		       ibp_error *err)
{
	if (idx >= t->capacity)
		return ibp_error_set(err, IBP_ERANGE,
				     "P_Key index %u is past the table's "
				     "capacity of %u",
				     idx, t->capacity);
	if (t->entries[idx] == pkey)
		return IBP_OK;
	unindex(t, idx);
	t->entries[idx] = 0;
	int rc = index_at(t, idx, pkey);
	if (rc)
		return ibp_error_set(err, rc, "out of memory");
	return IBP_OK;
}

void ibp_pkey_table_clear(ibp_pkey_table *t)
{
	memset(t->entries, 0, t->capacity * sizeof(uint16_t));
	memset(t->hash, 0, (t->hmask + 1) * sizeof(struct slot));
	t->nonzero = 0;
}

int ibp_pkey_table_find(const ibp_pkey_table *t, uint16_t pkey)
{
	if (!pkey)
		return -1;
	const struct slot *s = hfind(t, pkey);
	return s ? (int)s->idx : -1;
}

int ibp_pkey_table_find_base(const ibp_pkey_table *t, uint16_t pkey)
{
	uint16_t base = ibp_pkey_base(pkey);
	if (!base)
		return -1;
	int i = ibp_pkey_table_find(t, base | IBP_PKEY_FULL_BIT);
	return i >= 0 ? i : ibp_pkey_table_find(t, base);
}

int ibp_pkey_table_match(const ibp_pkey_table *t, uint16_t packet_pkey)
{
	/* IBA 10.9.3: a full entry of the same base matches any valid
	 * packet key; a limited entry matches only a full packet key. */
	uint16_t base = ibp_pkey_base(packet_pkey);
	if (!base)
		return -1;
	int i = ibp_pkey_table_find(t, base | IBP_PKEY_FULL_BIT);
	if (i >= 0)
		return i;
	if (ibp_pkey_is_full(packet_pkey))
		return ibp_pkey_table_find(t, base);
	return -1;
}

int ibp_pkey_table_insert(ibp_pkey_table *t, uint16_t pkey, unsigned *idx,
			  ibp_error *err)
{
	if (!ibp_pkey_is_valid(pkey))
		return ibp_error_set(err, IBP_EINVAL,
				     "0x%04x is not a valid P_Key", pkey);
	int at = ibp_pkey_table_find(t, pkey);
	if (at < 0) {
		unsigned i;
		for (i = 0; i < t->capacity && t->entries[i]; i++)
			;
		if (i == t->capacity)
			return ibp_error_set(err, IBP_EFULL,
					     "P_KeyTable full (%u entries): "
					     "no room for 0x%04x",
					     t->capacity, pkey);
		int rc = index_at(t, i, pkey);
		if (rc)
			return ibp_error_set(err, rc, "out of memory");
		at = (int)i;
	}
	if (idx)
		*idx = (unsigned)at;
	return IBP_OK;
}

int ibp_pkey_table_remove(ibp_pkey_table *t, uint16_t pkey, ibp_error *err)
{
	int at = ibp_pkey_table_find(t, pkey);
	if (at < 0)
		return ibp_error_set(err, IBP_ENOENT,
				     "0x%04x is not in the table", pkey);
	unindex(t, (unsigned)at);
	t->entries[at] = 0;
	return IBP_OK;
}

int ibp_pkey_table_get_block(const ibp_pkey_table *t, unsigned block,
			     uint16_t out[IBP_PKEY_BLOCK_SIZE], ibp_error *err)
{
	if (block >= ibp_pkey_table_num_blocks(t))
		return ibp_error_set(err, IBP_ERANGE,
				     "block %u is past the table (%u blocks)",
				     block, ibp_pkey_table_num_blocks(t));
	for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE; i++)
		out[i] = ibp_pkey_table_get(t, block * IBP_PKEY_BLOCK_SIZE + i);
	return IBP_OK;
}

int ibp_pkey_table_set_block(ibp_pkey_table *t, unsigned block,
			     const uint16_t in[IBP_PKEY_BLOCK_SIZE],
			     ibp_error *err)
{
	if (block >= ibp_pkey_table_num_blocks(t))
		return ibp_error_set(err, IBP_ERANGE,
				     "block %u is past the table (%u blocks)",
				     block, ibp_pkey_table_num_blocks(t));
	unsigned base = block * IBP_PKEY_BLOCK_SIZE;
	for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE; i++)
		if (base + i >= t->capacity && in[i])
			return ibp_error_set(err, IBP_ERANGE,
					     "entry %u is past the table's "
					     "capacity of %u",
					     base + i, t->capacity);
	for (unsigned i = 0; i < IBP_PKEY_BLOCK_SIZE && base + i < t->capacity;
	     i++) {
		int rc = ibp_pkey_table_set(t, base + i, in[i], err);
		if (rc)
			return rc;
	}
	return IBP_OK;
}

bool ibp_pkey_table_equal(const ibp_pkey_table *a, const ibp_pkey_table *b)
{
	if (a->capacity != b->capacity || a->nonzero != b->nonzero)
		return false;
	return memcmp(a->entries, b->entries, a->capacity * sizeof(uint16_t)) ==
	       0;
}

unsigned ibp_pkey_table_diff_blocks(const ibp_pkey_table *have,
				    const ibp_pkey_table *want,
				    unsigned *blocks, unsigned max)
{
	unsigned n = 0, nb = ibp_pkey_table_num_blocks(want);
	for (unsigned b = 0; b < nb; b++) {
		unsigned lo = b * IBP_PKEY_BLOCK_SIZE;
		for (unsigned i = lo;
		     i < lo + IBP_PKEY_BLOCK_SIZE && i < want->capacity; i++) {
			if (ibp_pkey_table_get(have, i) != want->entries[i]) {
				if (n < max)
					blocks[n] = b;
				n++;
				break;
			}
		}
	}
	return n;
}
