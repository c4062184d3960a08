/*
 * index_memory_lib.h - the library's own half of ibpart/index_memory.h: what
 * other modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/index_memory.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_PKEY_INDEX_MEMORY_LIB_H
#define IBPART_PKEY_INDEX_MEMORY_LIB_H

#include "ibpart/index_memory.h"

/* An empty memory over fabric f (borrowed: it must outlive the memory),
 * every port unknown; NULL when out of memory.  Free releases it (NULL
 * allowed). */
ibp_index_memory *ibp_index_memory_new(const ibp_fabric *f);
void ibp_index_memory_free(ibp_index_memory *m);

/* The fabric the memory is keyed by. */
const ibp_fabric *ibp_index_memory_fabric(const ibp_index_memory *m);

/* A deep copy over the same fabric; NULL when out of memory. */
ibp_index_memory *ibp_index_memory_copy(const ibp_index_memory *m);

/* Make (node, port) known, remembering nothing yet (a port already known
 * is left as it is).  IBP_ERANGE for a port the fabric does not have,
 * IBP_ENOMEM. */
int ibp_index_memory_add_port(ibp_index_memory *m, size_t node, unsigned port);

/* Forget (node, port) entirely: OpenSM dropped its object.  Nothing
 * happens for a port not known or not in the fabric. */
void ibp_index_memory_forget_port(ibp_index_memory *m, size_t node,
				  unsigned port);

/* Whether OpenSM knows (node, port). */
bool ibp_index_memory_has_port(const ibp_index_memory *m, size_t node,
			       unsigned port);

/* Remember pkey at index (0..65534) for (node, port), making the port
 * known; a P_Key remembered before moves to the new index.  The port's
 * last_pkey_idx grows to index + 1 when it is lower (OpenSM's
 * osm_pkey_tbl_set_accum_pkeys).  IBP_ERANGE for a port the fabric does
 * not have or an index out of range, IBP_EINVAL for P_Key 0 or 0x8000,
 * IBP_ENOMEM. */
int ibp_index_memory_set(ibp_index_memory *m, size_t node, unsigned port,
			 uint16_t pkey, unsigned index);

/* The index remembered for pkey (exact value) into *index: true; false
 * (*index untouched) when the port remembers none for it. */
bool ibp_index_memory_get(const ibp_index_memory *m, size_t node, unsigned port,
			  uint16_t pkey, unsigned *index);

/* How many P_Keys the port remembers (0 for a port not known), and the
 * i-th in OpenSM's map order: true with *pkey and *index (either may be
 * NULL), false past the end. */
size_t ibp_index_memory_size(const ibp_index_memory *m, size_t node,
			     unsigned port);
bool ibp_index_memory_entry(const ibp_index_memory *m, size_t node,
			    unsigned port, size_t i, uint16_t *pkey,
			    unsigned *index);

/* OpenSM's last_pkey_idx of the port: one past the highest index it
 * placed a P_Key at and has not cleared since (0: none; a new P_Key then
 * goes to index 1).  It is not always the highest remembered index plus
 * one: a P_Key moved to a lower index leaves it where it was.  The
 * setter makes the port known; IBP_ERANGE as ibp_index_memory_set. */
unsigned ibp_index_memory_last(const ibp_index_memory *m, size_t node,
			       unsigned port);
int ibp_index_memory_set_last(ibp_index_memory *m, size_t node, unsigned port,
			      unsigned last);

/* Number of known ports.  Cannot fail. */
size_t ibp_index_memory_port_count(const ibp_index_memory *m);

#endif
