/*
 * Module pkey (src/pkey/): P_Keys and their tables.  Owns the 16-bit
 * P_Key and the IBA match rule (pkey.h, pkey.c), one port's P_KeyTable
 * (pkey_table.h, pkey_table.c), one table per port of a fabric (this
 * header, tables.c) and that set as JSON (tables_json.h, tables_json.c).
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
 * its const functions never write to it (ibp_tables_at walks a Fenwick
 * tree kept up to date by put), so a set nobody is changing may be read
 * from several threads at once.  The fabric must not change meanwhile.
 */
#ifndef IBPART_TABLES_H
#define IBPART_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/pkey_table.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_tables ibp_tables;

/* An empty set over fabric f, to be freed with ibp_tables_free(); NULL
 * when out of memory.  f is borrowed, not copied: it must outlive the set
 * (free reads it too) and keep its nodes and ports.  Free releases every
 * table the set holds (NULL is allowed).  ibp_tables_fabric() returns
 * that borrowed f. */
ibp_tables *ibp_tables_new(const ibp_fabric *f);
void ibp_tables_free(ibp_tables *ts);
const ibp_fabric *ibp_tables_fabric(const ibp_tables *ts);

/* The table of (node, port), or NULL when the set has none for it;
 * owned by the set.  Reading never changes the set: a const set may be
 * read from several threads at once. */
const ibp_pkey_table *ibp_tables_get(const ibp_tables *ts, size_t node,
				     unsigned port);
/* The same table, to change in place (owned by the set; valid until it
 * is replaced by put or the set is freed). */
ibp_pkey_table *ibp_tables_get_mut(ibp_tables *ts, size_t node, unsigned port);
/* Store tbl for (node, port), taking ownership on success (a previous
 * table is freed, so pointers to it die; tbl NULL just removes it).  tbl
 * must not be the table already stored there.  IBP_ERANGE for a port the
 * fabric does not have, IBP_ENOMEM; on error the caller still owns tbl. */
int ibp_tables_put(ibp_tables *ts, size_t node, unsigned port,
		   ibp_pkey_table *tbl, ibp_error *err);
/* Get the table, creating an empty one of the port's capacity (1 when
 * the fabric says 0) when there is none; owned by the set.  NULL for a
 * port the fabric does not have, or when out of memory. */
ibp_pkey_table *ibp_tables_get_or_create(ibp_tables *ts, size_t node,
					 unsigned port);

/* Number of ports with a table, and the i-th in (node, port) order
 * (O(log nodes) per look-up; NULL past the end). */
size_t ibp_tables_count(const ibp_tables *ts);
const ibp_pkey_table *ibp_tables_at(const ibp_tables *ts, size_t i,
				    size_t *node, unsigned *port);

/* A deep copy, the tables and the enforcement state below, over the same
 * borrowed fabric; the caller frees it with ibp_tables_free().  NULL when
 * out of memory. */
ibp_tables *ibp_tables_copy(const ibp_tables *ts);

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

/* Parse "both", "in", "out" or "off" into *out; IBP_EINVAL (and *out
 * untouched) for anything else, NULL included.  Pure: no state, safe from
 * any thread. */
int ibp_part_enforce_parse(const char *s, ibp_part_enforce *out);
/* Those names in the enum's order, as an option's words (args.h: the
 * IBP_ARG_INDEX of a word is its ibp_part_enforce). */
#define IBP_PART_ENFORCE_WORDS "both|in|out|off"
/* The name ibp_part_enforce_parse() reads back ("both", "in", "out",
 * "off"); a static string, never NULL ("both" for a value out of range). */
const char *ibp_part_enforce_str(ibp_part_enforce e);
/* The PortInfo bits of a mode (either pointer may be NULL), and the mode
 * of two bits.  Pure, cannot fail. */
void ibp_part_enforce_bits(ibp_part_enforce e, bool *inbound, bool *outbound);
ibp_part_enforce ibp_part_enforce_from_bits(bool inbound, bool outbound);

/* Every table in the layout of `smpquery pkeys` (a "# DESC port N
 * (GUID) TYPE" header, eight entries a line with their index, the
 * capacity line), a blank line between ports: `ibpart tables`' default
 * output.  Only reads ts; write errors on out are not reported. */
void ibp_tables_print_smpquery(const ibp_tables *ts, FILE *out);

/* Switch partition enforcement of a switch external port, when known
 * (read from the port, or to be written to it): PortInfo
 * PartitionEnforcementInbound/Outbound, IBA vol. 1 14.2.5.6 and 10.9.4.
 * Kept per port beside the table (a port may have one without the
 * other).  IBP_ERANGE for a port the fabric does not have, IBP_ENOMEM
 * (there is no ibp_error: the code is the whole report). */
int ibp_tables_set_enforcement(ibp_tables *ts, size_t node, unsigned port,
			       bool inbound, bool outbound);
/* true, with the bits (either pointer may be NULL), when the set knows
 * them for (node, port); false, the bits untouched, otherwise. */
bool ibp_tables_get_enforcement(const ibp_tables *ts, size_t node,
				unsigned port, bool *inbound, bool *outbound);

IBP_END_DECLS
#endif
