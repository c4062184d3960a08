/*
 * index_memory_lib.h - what a running OpenSM remembers of the P_Key indexes
 * it placed, per port of a fabric (module pkey, src/pkey/index_memory.c).
 *
 * OpenSM 3.3.23 keeps, in each port object it holds, a map from P_Key
 * (the exact 16-bit value, membership bit included) to the index it last
 * placed that P_Key at (osm_pkey.c, "accum_pkeys"), and the highest such
 * index plus one ("last_pkey_idx").  Several P_Keys may be remembered at
 * one index (0x8001 and 0x0001 after a member flips from full to
 * limited); a P_Key that comes back goes to its remembered index; a new
 * one after last_pkey_idx.  The map outlives the entries, so it is
 * neither the table a port holds nor derivable from it: this type keeps
 * it, for the partition manager (policy.h) to replay OpenSM's placement
 * across SIGHUPs and for the state file (state_file.h) to carry it.
 *
 * A port is "known" when OpenSM holds an object for it (it was reached
 * in the last sweep), with zero or more remembered P_Keys.  A port
 * OpenSM does not know (never seen, or dropped when it left the fabric
 * for a sweep) remembers nothing: OpenSM then finds its table as it is.
 *
 * Entries of a port are kept in OpenSM's map order: by the P_Key's
 * network-order (byte-swapped) value, which decides which P_Key OpenSM
 * forgets first when it clears an index.
 *
 * Threads: no global state; one object is changed by one thread at a
 * time, a const one may be read from several.  The fabric is borrowed.
 *
 * Private: no exported function takes or gives one (the stable structs
 * that carry one, ibp_tables_result.memory and
 * ibp_policy_run.memory, hold it as an opaque struct pointer).
 */
#ifndef IBPART_PKEY_INDEX_MEMORY_LIB_H
#define IBPART_PKEY_INDEX_MEMORY_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/topo.h"

typedef struct ibp_index_memory ibp_index_memory;

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
