/*
 * index_memory.h - what a running OpenSM remembers of the P_Key indexes
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
 */
#ifndef IBPART_INDEX_MEMORY_H
#define IBPART_INDEX_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_index_memory ibp_index_memory;

IBP_END_DECLS
#endif
