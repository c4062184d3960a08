/*
 * pkey_table_lib.h - one port's P_KeyTable (IBA vol. 1, 14.2.5.7).
 * Private to the library (not installed, not exported): no installed
 * function hands a table out, so a program outside sees P_KeyTables only
 * through ibp_tables (tables.h) and its JSON (tables_json.h).
 *
 * A table has a capacity (NodeInfo PartitionCap for a CA port and a
 * switch's port 0, SwitchInfo PartitionEnforcementCap for a switch's
 * external ports) and is read and written by the SM in blocks of 32
 * entries.  Entries are addressed by index, and an index once handed to an
 * application (the P_Key index of a QP) must stay valid, so insert and
 * remove never move other entries.  A hash of the entries makes find and
 * the IBA match check O(1) in the size of the table.
 *
 * Threads: no global state.  The const functions only read the table
 * (find and match probe the hash, never rebuild it), so a table nobody is
 * changing may be read from several threads at once.  t must not be NULL
 * unless a function says so.
 */
#ifndef IBPART_PKEY_PKEY_TABLE_LIB_H
#define IBPART_PKEY_PKEY_TABLE_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/pkey.h" /* IBP_PKEY_BLOCK_SIZE */

#define IBP_PKEY_TABLE_MAX 65535u /* PartitionCap is 16 bits */

typedef struct ibp_pkey_table ibp_pkey_table;

/* A table of `capacity` entries (1..65535), all 0x0000, that the caller
 * frees with ibp_pkey_table_free().  NULL on ENOMEM or a capacity of 0 or
 * over 65535.  Copy makes an independent deep copy (NULL on ENOMEM); free
 * accepts NULL. */
ibp_pkey_table *ibp_pkey_table_new(unsigned capacity);
ibp_pkey_table *ibp_pkey_table_copy(const ibp_pkey_table *t);
void ibp_pkey_table_free(ibp_pkey_table *t);

/* The number of entries, fixed at creation. */
unsigned ibp_pkey_table_capacity(const ibp_pkey_table *t);
/* One past the last non-zero entry (0 for an empty table). */
unsigned ibp_pkey_table_used(const ibp_pkey_table *t);
/* Number of non-zero entries. */
unsigned ibp_pkey_table_count(const ibp_pkey_table *t);
/* Number of 32-entry blocks the capacity spans. */
unsigned ibp_pkey_table_num_blocks(const ibp_pkey_table *t);

/* Entry at idx, 0x0000 when empty or idx >= capacity. */
uint16_t ibp_pkey_table_get(const ibp_pkey_table *t, unsigned idx);
/* Overwrite entry idx with any 16-bit value (0x0000 clears it; an invalid
 * 0x8000 or a duplicate is stored as given, as an SM may).  IBP_ERANGE
 * past capacity; IBP_ENOMEM when a new key needs the hash to grow and it
 * cannot (the table is then left as it was; replacing an entry never
 * needs memory). */
int ibp_pkey_table_set(ibp_pkey_table *t, unsigned idx, uint16_t pkey,
		       ibp_error *err);
/* Every entry to 0x0000; the capacity stays.  Cannot fail. */
void ibp_pkey_table_clear(ibp_pkey_table *t);

/* Index of the lowest entry equal to pkey (all 16 bits), or -1 (always
 * for 0x0000). */
int ibp_pkey_table_find(const ibp_pkey_table *t, uint16_t pkey);
/* Index of an entry with pkey's base (the full key preferred, else the
 * limited one), or -1; -1 for a base of 0. */
int ibp_pkey_table_find_base(const ibp_pkey_table *t, uint16_t pkey);
/* Index of an entry that matches a packet's P_Key by the IBA rule
 * (10.9.3), or -1: what an HCA's receive check does. O(1). */
int ibp_pkey_table_match(const ibp_pkey_table *t, uint16_t packet_pkey);

/* Put pkey in the first free entry (or leave it where it already is) and
 * return its index in *idx (may be NULL).  "Already" means equal in all
 * 16 bits: the limited key beside a full one takes a second entry.
 * IBP_EFULL when no entry is free, IBP_EINVAL for an invalid key (base
 * 0), IBP_ENOMEM; the table is unchanged on error. */
int ibp_pkey_table_insert(ibp_pkey_table *t, uint16_t pkey, unsigned *idx,
			  ibp_error *err);
/* Clear the lowest entry equal to pkey (a duplicate elsewhere stays);
 * other entries keep their index.  IBP_ENOENT when absent. */
int ibp_pkey_table_remove(ibp_pkey_table *t, uint16_t pkey, ibp_error *err);

/* Block n as 32 host-order entries into the caller's out (entries past
 * capacity read 0).  IBP_ERANGE for a block past num_blocks. */
int ibp_pkey_table_get_block(const ibp_pkey_table *t, unsigned block,
			     uint16_t out[IBP_PKEY_BLOCK_SIZE], ibp_error *err);
/* Overwrite block n entry by entry, as ibp_pkey_table_set().  IBP_ERANGE
 * for a block past num_blocks, or a non-zero entry past capacity (checked
 * first: the table is then unchanged); IBP_ENOMEM (the block may then be
 * partly written). */
int ibp_pkey_table_set_block(ibp_pkey_table *t, unsigned block,
			     const uint16_t in[IBP_PKEY_BLOCK_SIZE],
			     ibp_error *err);

/* Same capacity and the same value in every entry. */
bool ibp_pkey_table_equal(const ibp_pkey_table *a, const ibp_pkey_table *b);

/* The blocks an SM must send to turn `have` into `want`: writes their
 * numbers in ascending order into blocks[] (at most max) and returns how
 * many differ (which may exceed max).  Blocks are compared over want's
 * capacity; entries of `have` past that capacity are ignored, and
 * entries `have` lacks read 0.  blocks may be NULL when max is 0.
 * Cannot fail. */
unsigned ibp_pkey_table_diff_blocks(const ibp_pkey_table *have,
				    const ibp_pkey_table *want,
				    unsigned *blocks, unsigned max);

#endif
