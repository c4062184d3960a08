/*
 * tables_lib.h - the library's own half of ibpart/tables.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/tables.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_PKEY_TABLES_LIB_H
#define IBPART_PKEY_TABLES_LIB_H

#include "ibpart/tables.h"
#include "pkey/pkey_table_lib.h"

/* An empty set over fabric f, to be freed with ibp_tables_free(); NULL
 * when out of memory.  f is borrowed, not copied: it must outlive the set
 * (free reads it too) and keep its nodes and ports.  Free releases every
 * table the set holds (NULL is allowed).  ibp_tables_fabric() returns
 * that borrowed f. */

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

/* The i-th table in (node, port) order, i < ibp_tables_count()
 * (O(log nodes) per look-up; NULL past the end). */
const ibp_pkey_table *ibp_tables_at(const ibp_tables *ts, size_t i,
				    size_t *node, unsigned *port);

/* A deep copy, the tables and the enforcement state below, over the same
 * borrowed fabric; the caller frees it with ibp_tables_free().  NULL when
 * out of memory. */
ibp_tables *ibp_tables_copy(const ibp_tables *ts);

/* Parse "both", "in", "out" or "off" into *out; IBP_EINVAL (and *out
 * untouched) for anything else, NULL included.  Pure: no state, safe from
 * any thread. */
int ibp_part_enforce_parse(const char *s, ibp_part_enforce *out);

/* The mode of two PortInfo bits (ibpart/tables.h has the bits of a
 * mode).  Pure, cannot fail. */
ibp_part_enforce ibp_part_enforce_from_bits(bool inbound, bool outbound);

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

/* An empty set over fabric f, to be freed with ibp_tables_free(); NULL
 * when out of memory.  f is borrowed, not copied: it must outlive the set
 * (free reads it too) and keep its nodes and ports.  ibp_tables_fabric()
 * returns that borrowed f. */
ibp_tables *ibp_tables_new(const ibp_fabric *f);

#endif
