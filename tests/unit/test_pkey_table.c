/*
 * test_pkey_table.c - a port's P_KeyTable: capacity, blocks of 32,
 * index-stable insert/remove, O(1) find/match kept in step with the
 * entries (checked against a linear scan after random operations), and
 * the block diff an SM sends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"

static void test_new_capacity(void **state)
{
	(void)state;
	assert_null(ibp_pkey_table_new(0));
	assert_null(ibp_pkey_table_new(65536));
	ibp_pkey_table *t = ibp_pkey_table_new(64);
	assert_int_equal(ibp_pkey_table_capacity(t), 64);
	assert_int_equal(ibp_pkey_table_num_blocks(t), 2);
	assert_int_equal(ibp_pkey_table_used(t), 0);
	ibp_pkey_table_free(t);
	t = ibp_pkey_table_new(8); /* a switch port 0 */
	assert_int_equal(ibp_pkey_table_num_blocks(t), 1);
	ibp_pkey_table_free(t);
	t = ibp_pkey_table_new(33);
	assert_int_equal(ibp_pkey_table_num_blocks(t), 2);
	ibp_pkey_table_free(t);
}

static void test_insert_remove_index_stable(void **state)
{
	(void)state;
	ibp_pkey_table *t = ibp_pkey_table_new(4);
	unsigned idx;
	ibp_error err;
	assert_int_equal(ibp_pkey_table_insert(t, 0xffff, &idx, &err), 0);
	assert_int_equal(idx, 0);
	assert_int_equal(ibp_pkey_table_insert(t, 0x8001, &idx, &err), 0);
	assert_int_equal(idx, 1);
	assert_int_equal(ibp_pkey_table_insert(t, 0x8002, &idx, &err), 0);
	assert_int_equal(idx, 2);
	/* already present: stays where it is */
	assert_int_equal(ibp_pkey_table_insert(t, 0x8001, &idx, &err), 0);
	assert_int_equal(idx, 1);
	/* remove the middle one: the others keep their index */
	assert_int_equal(ibp_pkey_table_remove(t, 0x8001, &err), 0);
	assert_int_equal(ibp_pkey_table_get(t, 0), 0xffff);
	assert_int_equal(ibp_pkey_table_get(t, 1), 0);
	assert_int_equal(ibp_pkey_table_get(t, 2), 0x8002);
	assert_int_equal(ibp_pkey_table_used(t), 3);
	/* the hole is reused first */
	assert_int_equal(ibp_pkey_table_insert(t, 0x0003, &idx, &err), 0);
	assert_int_equal(idx, 1);
	assert_int_equal(ibp_pkey_table_insert(t, 0x8004, &idx, &err), 0);
	assert_int_equal(idx, 3);
	assert_int_equal(ibp_pkey_table_insert(t, 0x8005, &idx, &err),
			 IBP_EFULL);
	assert_int_equal(ibp_pkey_table_remove(t, 0x8009, &err), IBP_ENOENT);
	assert_int_equal(ibp_pkey_table_insert(t, 0x8000, &idx, &err),
			 IBP_EINVAL);
	assert_int_equal(ibp_pkey_table_count(t), 4);
	ibp_pkey_table_free(t);
}

static void test_match(void **state)
{
	(void)state;
	ibp_pkey_table *t = ibp_pkey_table_new(64);
	ibp_pkey_table_set(t, 0, 0x7fff, NULL); /* limited default */
	ibp_pkey_table_set(t, 1, 0x8001, NULL);
	ibp_pkey_table_set(t, 40, 0x0002, NULL); /* limited, block 1 */
	/* a full packet key matches a limited entry */
	assert_int_equal(ibp_pkey_table_match(t, 0xffff), 0);
	/* a limited packet key does not match a limited entry */
	assert_int_equal(ibp_pkey_table_match(t, 0x7fff), -1);
	assert_int_equal(ibp_pkey_table_match(t, 0x0001), 1);
	assert_int_equal(ibp_pkey_table_match(t, 0x8001), 1);
	assert_int_equal(ibp_pkey_table_match(t, 0x8002), 40);
	assert_int_equal(ibp_pkey_table_match(t, 0x0002), -1);
	assert_int_equal(ibp_pkey_table_match(t, 0x8003), -1);
	assert_int_equal(ibp_pkey_table_match(t, 0x8000), -1);
	assert_int_equal(ibp_pkey_table_match(t, 0x0000), -1);
	assert_int_equal(ibp_pkey_table_find_base(t, 0x0001), 1);
	assert_int_equal(ibp_pkey_table_find(t, 0x0001), -1);
	/* both memberships of one base: full preferred by find_base */
	ibp_pkey_table_set(t, 5, 0x0001, NULL);
	assert_int_equal(ibp_pkey_table_find_base(t, 0x0001), 1);
	ibp_pkey_table_set(t, 1, 0, NULL);
	assert_int_equal(ibp_pkey_table_find_base(t, 0x0001), 5);
	ibp_pkey_table_free(t);
}

/* Reference: a linear scan. */
static int scan_find(const ibp_pkey_table *t, uint16_t k)
{
	for (unsigned i = 0; i < ibp_pkey_table_capacity(t); i++)
		if (k && ibp_pkey_table_get(t, i) == k)
			return (int)i;
	return -1;
}

static void test_hash_agrees_with_scan(void **state)
{
	(void)state;
	srand(12345);
	ibp_pkey_table *t = ibp_pkey_table_new(128);
	for (int round = 0; round < 20000; round++) {
		unsigned idx = (unsigned)rand() % 128;
		/* few distinct keys so duplicates and deletes collide */
		uint16_t k =
		    (uint16_t)(rand() % 3
				   ? (rand() % 40) | (rand() % 2 ? 0x8000 : 0)
				   : 0);
		assert_int_equal(ibp_pkey_table_set(t, idx, k, NULL), 0);
		uint16_t probe =
		    (uint16_t)((rand() % 40) | (rand() % 2 ? 0x8000 : 0));
		assert_int_equal(ibp_pkey_table_find(t, probe),
				 scan_find(t, probe));
	}
	unsigned n = 0;
	for (unsigned i = 0; i < 128; i++)
		n += ibp_pkey_table_get(t, i) != 0;
	assert_int_equal(ibp_pkey_table_count(t), n);
	ibp_pkey_table *c = ibp_pkey_table_copy(t);
	assert_true(ibp_pkey_table_equal(t, c));
	ibp_pkey_table_set(c, 3, 0x1234, NULL);
	ibp_pkey_table_set(c, 3, 0x4321, NULL);
	assert_int_equal(ibp_pkey_table_find(c, 0x4321), 3);
	assert_int_equal(ibp_pkey_table_find(c, 0x1234), -1);
	ibp_pkey_table_clear(c);
	assert_int_equal(ibp_pkey_table_count(c), 0);
	assert_int_equal(ibp_pkey_table_find(c, 0x4321), -1);
	ibp_pkey_table_free(c);
	ibp_pkey_table_free(t);
}

static void test_blocks_and_diff(void **state)
{
	(void)state;
	ibp_pkey_table *have = ibp_pkey_table_new(128);
	ibp_pkey_table *want = ibp_pkey_table_new(128);
	unsigned blocks[8];
	assert_int_equal(ibp_pkey_table_diff_blocks(have, want, blocks, 8), 0);
	ibp_pkey_table_set(want, 0, 0xffff, NULL);
	ibp_pkey_table_set(want, 70, 0x8003, NULL);  /* block 2 */
	ibp_pkey_table_set(want, 127, 0x8004, NULL); /* block 3 */
	assert_int_equal(ibp_pkey_table_diff_blocks(have, want, blocks, 8), 3);
	assert_int_equal(blocks[0], 0);
	assert_int_equal(blocks[1], 2);
	assert_int_equal(blocks[2], 3);
	/* max smaller than the count: count still reported */
	assert_int_equal(ibp_pkey_table_diff_blocks(have, want, blocks, 1), 3);
	uint16_t b[IBP_PKEY_BLOCK_SIZE];
	assert_int_equal(ibp_pkey_table_get_block(want, 2, b, NULL), 0);
	assert_int_equal(b[70 - 64], 0x8003);
	assert_int_equal(ibp_pkey_table_set_block(have, 2, b, NULL), 0);
	assert_int_equal(ibp_pkey_table_find(have, 0x8003), 70);
	assert_int_equal(ibp_pkey_table_get_block(want, 4, b, NULL),
			 IBP_ERANGE);
	assert_int_equal(ibp_pkey_table_diff_blocks(have, want, blocks, 8), 2);
	ibp_pkey_table_free(have);
	ibp_pkey_table_free(want);

	/* a block past the capacity must be zero there */
	ibp_pkey_table *sw0 = ibp_pkey_table_new(8);
	uint16_t in[IBP_PKEY_BLOCK_SIZE] = {0xffff};
	assert_int_equal(ibp_pkey_table_set_block(sw0, 0, in, NULL), 0);
	in[8] = 0x8001;
	ibp_error err;
	assert_int_equal(ibp_pkey_table_set_block(sw0, 0, in, &err),
			 IBP_ERANGE);
	assert_int_equal(ibp_pkey_table_set(sw0, 8, 1, &err), IBP_ERANGE);
	ibp_pkey_table_free(sw0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_new_capacity),
	    cmocka_unit_test(test_insert_remove_index_stable),
	    cmocka_unit_test(test_match),
	    cmocka_unit_test(test_hash_agrees_with_scan),
	    cmocka_unit_test(test_blocks_and_diff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
