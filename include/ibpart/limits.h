/*
 * limits.h - how much input ibpart reads before it says no.
 *
 * Every reader of a file reads it whole into memory, and every input
 * can be endless (/dev/zero, a pipe that never closes) or huge by
 * accident or by intent.  So every reader has a limit: an input larger
 * than it is refused with IBP_ERANGE ("larger than the input limit")
 * after reading at most limit + 1 bytes, and nothing is parsed.
 * Plans and topologies may be large (a 48k-port fabric is ~10 MB, a
 * million-member plan ~50 MB); state files, tenant maps, node-name-maps,
 * opensm.conf and tables JSON are smaller still.  Options structs that
 * carry a max_input_size take 0 for these defaults (a limit as a person
 * writes it, "64M", is read by sys/limits.h).
 */
#ifndef IBPART_LIMITS_H
#define IBPART_LIMITS_H

#include <stddef.h>

/* Plans (partitions.conf) and topologies: 1 GiB. */
#define IBP_INPUT_MAX_DEFAULT ((size_t)1 << 30)
/* State files, tables JSON, tenant maps, node-name-maps, opensm.conf:
 * 64 MiB. */
#define IBP_SMALL_INPUT_MAX_DEFAULT ((size_t)64 << 20)

#endif
