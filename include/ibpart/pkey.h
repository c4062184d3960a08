/*
 * pkey.h - the 16-bit partition key (IBA vol. 1, 10.9.1).
 *
 * Bit 15 is the membership type (1 = full, 0 = limited); bits 0-14 are the
 * partition's base.  0x0000 and 0x8000 are invalid and match nothing
 * (10.9.1.1).  Two keys match when their bases are equal and at least one
 * is a full member (10.9.3): limited-limited never matches.  0xffff/0x7fff
 * is the default (management) partition.
 *
 * Threads: everything here is pure (no state), safe from any thread.
 */
#ifndef IBPART_PKEY_H
#define IBPART_PKEY_H

#include <stdbool.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_PKEY_FULL_BIT     0x8000u
#define IBP_PKEY_BASE_MASK    0x7fffu
#define IBP_PKEY_DEFAULT_BASE 0x7fffu /* default partition */
#define IBP_PKEY_DEFAULT_FULL 0xffffu
#define IBP_PKEY_INVALID      0x0000u /* also: an empty P_KeyTable entry */
/* Entries per P_KeyTable block, the unit a SubnGet/SubnSet(P_KeyTable)
 * carries (IBA vol. 1 14.2.5.7). */
#define IBP_PKEY_BLOCK_SIZE 32u

/* The base: bits 0-14. */
static inline uint16_t ibp_pkey_base(uint16_t k)
{
	return (uint16_t)(k & IBP_PKEY_BASE_MASK);
}

/* Whether bit 15, full membership, is set. */
static inline bool ibp_pkey_is_full(uint16_t k)
{
	return (k & IBP_PKEY_FULL_BIT) != 0;
}

/* Valid = its base is not 0 (0x0000 and 0x8000 are the invalid keys). */
static inline bool ibp_pkey_is_valid(uint16_t k)
{
	return ibp_pkey_base(k) != 0;
}

/* The IBA match rule (10.9.3): same base, both valid, at least one full. */
static inline bool ibp_pkey_match(uint16_t a, uint16_t b)
{
	return ibp_pkey_is_valid(a) && ibp_pkey_base(a) == ibp_pkey_base(b) &&
	       ((a | b) & IBP_PKEY_FULL_BIT) != 0;
}

/* The key of base (bits past 14 dropped) with the full-member bit. */
static inline uint16_t ibp_pkey_make(uint16_t base, bool full)
{
	return (uint16_t)((base & IBP_PKEY_BASE_MASK) |
			  (full ? IBP_PKEY_FULL_BIT : 0));
}

/* Parse "0x8001", "32769" or "0X7FFF" (whole string, 0..0xffff; an
 * octal "0100" is read as octal, as strtoul does) into *out.  Any value
 * in range is accepted, the invalid keys included.  IBP_EINVAL for NULL,
 * empty, anything but a digit first (a blank, a tab, a sign) or trailing
 * text, IBP_ERANGE above 0xffff; *out is
 * untouched on error. */
int ibp_pkey_parse(const char *s, uint16_t *out, ibp_error *err);

/* Print as "0x%04x" into the caller's buf (7 bytes).  Returns buf.
 * Cannot fail. */
char *ibp_pkey_format(uint16_t k, char buf[7]);

IBP_END_DECLS
#endif
