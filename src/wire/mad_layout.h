/*
 * mad_layout.h - the field tables behind mad.c and the one generic
 * big-endian bit-field codec that walks them.  Internal to the library;
 * tests/unit/test_mad_layout.c checks the codec and the tables.
 *
 * Bit numbering is IBA's (vol. 1, 13.4.2 and every attribute table of
 * 14.2.5): bits are counted from the most significant bit of byte 0, so
 * bit 0 of a byte is its MSB.  A field of width w at (byte, bit) covers
 * the attribute's bits 8*byte+bit .. 8*byte+bit+w-1 and its value is
 * those bits read as one big-endian number, whatever byte boundaries it
 * crosses.  8*byte+bit is the "bit offset" column of the IBA tables.
 */
#ifndef IBPART_MAD_LAYOUT_H
#define IBPART_MAD_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"

#define IBP_BITS_MAX 64u /* widest field the codec reads or writes */

/*
 * The generic codec.  bit_off counts from the MSB of buf[0]; width is
 * 1..64.  IBP_EINVAL for a NULL buffer or a width outside 1..64,
 * IBP_ESHORT when the field reaches past len bytes; nothing is read or
 * written then.  ibp_bits_put writes v masked to width bits (the bits of
 * v above width are ignored: this is the "masked to their width" that
 * mad.h's encoders document; use ibp_bits_fit to reject instead) and
 * leaves every other bit of buf as it was.
 */
int ibp_bits_get(const uint8_t *buf, size_t len, size_t bit_off, unsigned width,
		 uint64_t *out);
int ibp_bits_put(uint8_t *buf, size_t len, size_t bit_off, unsigned width,
		 uint64_t v);

static inline uint64_t ibp_bits_mask(unsigned width)
{
	return width >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
}
/* Whether v is representable in width bits (width 1..64). */
static inline bool ibp_bits_fit(uint64_t v, unsigned width)
{
	return (v & ~ibp_bits_mask(width)) == 0;
}

/*
 * One row of an attribute's table: a field as the IBA table gives it,
 * and the struct member that holds it on the host.  An array (P_Key
 * entries, a DR path, a GID) is one row with count elements, element i
 * at bit offset 8*byte+bit + i*width and host offset
 * host_off + i*host_size.  Reserved bits are rows too (host_size 0, no
 * member: written 0, ignored when read), so that a table covers its
 * attribute bit for bit and can be checked to.
 */
struct ibp_field {
	const char *name;  /* IBA's name, e.g. "LinkSpeedSupported" */
	uint16_t byte;	   /* byte offset in the attribute */
	uint8_t bit;	   /* first bit in that byte, 0..7, 0 = MSB */
	uint8_t width;	   /* bits per element, 1..64 */
	uint16_t count;	   /* elements, >= 1 */
	uint16_t host_off; /* offsetof the member */
	uint8_t host_size; /* sizeof one element: 1, 2, 4, 8; 0 reserved */
	bool host_bool;	   /* the member is a bool (width 1) */
};

static inline size_t ibp_field_bit_off(const struct ibp_field *f)
{
	return (size_t)f->byte * 8 + f->bit;
}
/* One past the field's last bit, and the bytes needed to hold it. */
static inline size_t ibp_field_bit_end(const struct ibp_field *f)
{
	return ibp_field_bit_off(f) + (size_t)f->width * f->count;
}
static inline size_t ibp_field_byte_end(const struct ibp_field *f)
{
	return (ibp_field_bit_end(f) + 7) / 8;
}

/* An attribute (or header): its rows in wire order, reserved ones
 * included, tiling bits [0, 8*size). */
struct ibp_layout {
	const char *name; /* "PortInfo": error messages, tests */
	const char *spec; /* "IBA vol. 1 14.2.5.6" */
	const struct ibp_field *fields;
	size_t nfields;
	size_t size;	  /* wire bytes */
	size_t min_size;  /* shortest buffer accepted (<= size); a field
			     ending past it is optional: coded only when
			     the buffer holds all of it (Notice IssuerGID) */
	size_t host_size; /* sizeof the host object */
};

/*
 * Walk a table.  Encode: IBP_ESHORT when len < min_size (nothing
 * written), else zero the bytes up to the end of the last field that
 * fits and put every member field that fits (masked to its width).
 * Decode: IBP_ESHORT when len < min_size (obj untouched), else zero obj
 * (host_size bytes) and get every member field that fits.  IBP_EINVAL
 * for NULL arguments.  err may be NULL.
 */
int ibp_layout_encode(const struct ibp_layout *l, const void *obj, uint8_t *buf,
		      size_t len, ibp_error *err);
int ibp_layout_decode(const struct ibp_layout *l, void *obj, const uint8_t *buf,
		      size_t len, ibp_error *err);
/* Element i of one field from a buffer already known to hold it. */
uint64_t ibp_field_get(const struct ibp_field *f, const uint8_t *buf,
		       unsigned i);

/* The tables of mad.c (host objects in parentheses). */
extern const struct ibp_layout ibp_layout_smp_lid;     /* struct ibp_smp */
extern const struct ibp_layout ibp_layout_smp_dr;      /* struct ibp_smp */
extern const struct ibp_layout ibp_layout_node_desc;   /* char[65] */
extern const struct ibp_layout ibp_layout_node_info;   /* ibp_node_info */
extern const struct ibp_layout ibp_layout_switch_info; /* ibp_switch_info */
extern const struct ibp_layout ibp_layout_port_info;   /* ibp_port_info */
extern const struct ibp_layout ibp_layout_pkey_block;  /* uint16_t[32] */
extern const struct ibp_layout ibp_layout_notice;      /* ibp_notice */
extern const struct ibp_layout ibp_layout_trap_257;    /* ibp_trap_257 */
extern const struct ibp_layout ibp_layout_trap_259;    /* ibp_trap_259 */
/* All of them, for the tests. */
extern const struct ibp_layout *const ibp_mad_layouts[];
extern const size_t ibp_mad_nlayouts;

#endif
