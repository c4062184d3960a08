/*
 * Module pkey (src/pkey/): P_Keys and their tables.  Owns the 16-bit
 * P_Key and the IBA match rule (pkey.h, pkey.c), one port's P_KeyTable
 * (private pkey_table_lib.h, pkey_table.c), one table per port of a
 * fabric (this header, tables.c), that set as JSON (tables_json.h,
 * tables_json.c), the state file (state_file.h, state_file.c), OpenSM's
 * index memory (private index_memory_lib.h, index_memory.c) and the
 * partition objects it holds between sweeps (private
 * opensm_partitions_lib.h, opensm_partitions.c).
 * Depends on topo (tables are keyed by an ibp_fabric's ports), util and
 * jansson.
 *
 * tables.h - a set of P_KeyTables, one per port of a fabric: the common
 * currency between the partition manager (desired tables), the SM and the
 * simulator (tables the ports hold) and the analysis (who can reach whom).
 *
 * Keys are (node index, port number) of one ibp_fabric; the set owns its
 * tables.  Iteration is in (node, port) order.
 *
 * Threads: no global state.  A set is changed by one thread at a time;
 * its const functions never write to it (lookups walk a Fenwick
 * tree kept up to date by each change), so a set nobody is changing may be read
 * from several threads at once.  The fabric must not change meanwhile.
 */
#ifndef IBPART_TABLES_H
#define IBPART_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_tables ibp_tables;

/* Free a set the library handed over (ibp_tables_compute's, verify's),
 * every table it holds with it; NULL is allowed. */
void ibp_tables_free(ibp_tables *ts);

/* Reading a set: the fabric whose ports key it (borrowed by the set, as
 * the set is by the caller), and how many ports hold a table. */
const ibp_fabric *ibp_tables_fabric(const ibp_tables *ts);
size_t ibp_tables_count(const ibp_tables *ts);

/* The i-th port holding a table, in (node, port) order (O(log nodes) per
 * look-up): *node and *port (either may be NULL); false, leaving them
 * alone, when i >= ibp_tables_count(ts). */
bool ibp_tables_port_at(const ibp_tables *ts, size_t i, size_t *node,
			unsigned *port);

/* The P_KeyTable of (node, port): its capacity in entries (PartitionCap,
 * 1..65535), and in *used (may be NULL) one past its last non-zero
 * entry.  0, *used left alone, when the set holds no table for the port
 * (or the fabric has no such port). */
unsigned ibp_tables_port_capacity(const ibp_tables *ts, size_t node,
				  unsigned port, unsigned *used);

/* Entry index of the P_KeyTable of (node, port) as the port holds it
 * (the membership bit included; 0x0000 for an empty entry, an index past
 * the capacity, or a port without a table).  O(1). */
uint16_t ibp_tables_pkey_at(const ibp_tables *ts, size_t node, unsigned port,
			    unsigned index);

/* Partition enforcement of a switch external port (IBA vol. 1 10.9.4),
 * the one encoding for every module: OpenSM's part_enforce option
 * ("both", "in", "out", "off"), the "enforcement" of a port in the tables
 * JSON, and the PortInfo PartitionEnforcementInbound/Outbound bits. */
typedef enum ibp_part_enforce {
	IBP_ENFORCE_BOTH = 0, /* inbound and outbound (OpenSM's default) */
	IBP_ENFORCE_IN = 1,
	IBP_ENFORCE_OUT = 2,
	IBP_ENFORCE_OFF = 3
} ibp_part_enforce;

/* Those names in the enum's order, as an option's words (args.h: the
 * IBP_ARG_INDEX of a word is its ibp_part_enforce). */
#define IBP_PART_ENFORCE_WORDS "both|in|out|off"

/* A mode's name ("both", "in", "out", "off"; a static string, never NULL:
 * "both" for a value out of range), and its PortInfo bits (either
 * pointer may be NULL).  Pure, cannot fail. */
const char *ibp_part_enforce_str(ibp_part_enforce e);
void ibp_part_enforce_bits(ibp_part_enforce e, bool *inbound, bool *outbound);

IBP_END_DECLS
#endif
