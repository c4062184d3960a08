/*
 * mad_layout.h - the one generic big-endian bit-field codec of mad.c,
 * the row type of its field tables and the macro that turns a table into
 * a layout's encoder and decoder.  Internal to the library;
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

#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ibpart/error.h"

#define IBP_BITS_MAX 64u /* widest field the codec reads or writes */

/*
 * The generic codec, checked.  bit_off counts from the MSB of buf[0];
 * width is 1..64.  IBP_EINVAL for a NULL buffer or a width outside 1..64,
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
 * The same codec unchecked, inline: the buffer (len bytes) is known to
 * hold the field.  The tables' encoders and decoders call it with
 * constant offsets and widths, so each call folds to the one path below
 * that applies, as tight as hand-written shifts:
 *  - whole bytes (byte aligned, width a multiple of 8): big-endian bytes;
 *  - inside one byte: a masked read-modify-write of that byte;
 *  - else the 8 bytes around the field as one big-endian word, shifted
 *    (the window starts at the field's first byte, or 8 bytes before
 *    len when that is nearer, so it never reaches past the buffer);
 *  - else (a buffer under 8 bytes, or over 57 bits off a byte boundary)
 *    a byte at a time.
 * len only chooses among these.
 */
static inline uint64_t ibp_be64_load_(const uint8_t *p)
{
	uint64_t x;
	memcpy(&x, p, sizeof(x));
	return be64toh(x);
}
static inline void ibp_be64_store_(uint8_t *p, uint64_t v)
{
	uint64_t x = htobe64(v);
	memcpy(p, &x, sizeof(x));
}
static inline bool ibp_bits_window_(size_t len, size_t bit_off, unsigned width,
				    size_t *at, unsigned *rel)
{
	if (len < 8)
		return false;
	size_t first = bit_off / 8;
	*at = first < len - 8 ? first : len - 8;
	*rel = (unsigned)(bit_off - 8 * *at);
	return *rel + width <= 64;
}

static inline uint64_t ibp_bits_get_(const uint8_t *buf, size_t len,
				     size_t bit_off, unsigned width)
{
	const uint8_t *p = buf + bit_off / 8;
	unsigned bit = (unsigned)(bit_off % 8);
	uint64_t v = 0;
	size_t at;
	unsigned rel;
	if (bit == 0 && width % 8 == 0) {
		for (unsigned i = 0; i < width / 8; i++)
			v = (v << 8) | p[i];
		return v;
	}
	if (bit + width <= 8)
		return (uint64_t)(p[0] >> (8 - bit - width)) &
		       ibp_bits_mask(width);
	if (ibp_bits_window_(len, bit_off, width, &at, &rel))
		return (ibp_be64_load_(buf + at) << rel) >> (64 - width);
	while (width > 0) { /* a byte, or the part of it in the field */
		unsigned take = 8 - bit < width ? 8 - bit : width;
		unsigned shift = 8 - bit - take;
		v = (v << take) |
		    ((unsigned)(*p >> shift) & ((1u << take) - 1));
		width -= take;
		bit = 0;
		p++;
	}
	return v;
}

/* The low width bits of v (the higher ones are never read: masking)
 * into the field, every other bit kept. */
static inline void ibp_bits_put_(uint8_t *buf, size_t len, size_t bit_off,
				 unsigned width, uint64_t v)
{
	uint8_t *p = buf + bit_off / 8;
	unsigned bit = (unsigned)(bit_off % 8);
	size_t at;
	unsigned rel;
	if (bit == 0 && width % 8 == 0) {
		for (unsigned i = width / 8; i-- > 0; v >>= 8)
			p[i] = (uint8_t)v;
		return;
	}
	if (bit + width <= 8) {
		unsigned shift = 8 - bit - width;
		unsigned m = (unsigned)ibp_bits_mask(width) << shift;
		p[0] = (uint8_t)((p[0] & ~m) | (((unsigned)v << shift) & m));
		return;
	}
	if (ibp_bits_window_(len, bit_off, width, &at, &rel)) {
		unsigned shift = 64 - rel - width;
		uint64_t m = ibp_bits_mask(width) << shift;
		uint64_t x = ibp_be64_load_(buf + at);
		ibp_be64_store_(buf + at, (x & ~m) | ((v << shift) & m));
		return;
	}
	while (width > 0) {
		unsigned take = 8 - bit < width ? 8 - bit : width;
		unsigned shift = 8 - bit - take;
		unsigned keep = ~(((1u << take) - 1) << shift);
		unsigned chunk =
		    (unsigned)(v >> (width - take)) & ((1u << take) - 1);
		*p = (uint8_t)((*p & keep) | (chunk << shift));
		width -= take;
		bit = 0;
		p++;
	}
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

typedef int (*ibp_layout_enc_fn)(const void *obj, uint8_t *buf, size_t len,
				 ibp_error *err);
typedef int (*ibp_layout_dec_fn)(void *obj, const uint8_t *buf, size_t len,
				 ibp_error *err);

/* An attribute (or header): its rows in wire order, reserved ones
 * included, tiling bits [0, 8*size); and its coders, generated from the
 * same table (IBP_LAYOUT_DEFINE below). */
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
	/* Encode: IBP_ESHORT when len < min_size (nothing written), else
	 * zero the bytes up to the end of the last field that fits and put
	 * every member field that fits (masked to its width).  Decode:
	 * IBP_ESHORT when len < min_size (obj untouched), else zero obj
	 * (host_size bytes) and get every member field that fits.
	 * IBP_EINVAL for NULL pointers.  err may be NULL. */
	ibp_layout_enc_fn encode;
	ibp_layout_dec_fn decode;
};

/* Element i of one field from a buffer of len bytes already known to
 * hold it (a run-time read by row, for the few fields read alone). */
static inline uint64_t ibp_field_get(const struct ibp_field *f,
				     const uint8_t *buf, size_t len, unsigned i)
{
	return ibp_bits_get_(
	    buf, len, ibp_field_bit_off(f) + (size_t)i * f->width, f->width);
}

/*
 * Tables.  A table is a macro of rows, each one of
 *   F(member, "Name", byte, bit, width)  a scalar member
 *   A(member, "Name", byte, width)       an array member, byte aligned,
 *                                        one element per width bits
 *   R(byte, bit, width)                  reserved bits (width <= 64)
 *   RB(byte, n)                          n reserved bytes
 * in wire order, e.g.
 *   #define NODE_INFO_ROWS(F, A, R, RB) F(base_version, "BaseVersion",
 *                                         0, 0, 8) ...
 * and
 *   #define IBP_HOST struct ibp_node_info
 *   IBP_LAYOUT_DEFINE(node_info, NODE_INFO_ROWS, "NodeInfo", "IBA ...",
 *                     40, 40)
 *   #undef IBP_HOST
 * defines node_info_rows[], static node_info_encode/_decode (with the
 * ibp_layout_enc_fn/_dec_fn signatures) and const struct ibp_layout
 * node_info_layout.  The rows are checked at compile time: a field
 * wider than its member, a bit offset over 7, a bool member wider than
 * one bit do not build.  The coders expand the same rows into one
 * ibp_bits_put_/ibp_bits_get_ call each, with constant arguments.
 */
#define IBP_BUILD_CHECK_(c) (0 * sizeof(char[(c) ? 1 : -1]))
#define IBP_MEMBER_(m)	    (((IBP_HOST *)0)->m)
#define IBP_IS_BOOL_(m)	    _Generic(IBP_MEMBER_(m), bool : 1, default : 0)

#define IBP_ROW_F_(m, nm, by, bi, w)                                           \
	{.name = nm,                                                           \
	 .byte = by,                                                           \
	 .bit = bi,                                                            \
	 .width = w,                                                           \
	 .count = 1,                                                           \
	 .host_off = offsetof(IBP_HOST, m),                                    \
	 .host_size =                                                          \
	     sizeof(IBP_MEMBER_(m)) +                                          \
	     IBP_BUILD_CHECK_((w) >= 1 && (w) <= 8 * sizeof(IBP_MEMBER_(m)) && \
			      (bi) < 8 && (!IBP_IS_BOOL_(m) || (w) == 1)),     \
	 .host_bool = IBP_IS_BOOL_(m)},
#define IBP_ROW_A_(m, nm, by, w)                                               \
	{.name = nm,                                                           \
	 .byte = by,                                                           \
	 .width = w,                                                           \
	 .count = sizeof(IBP_MEMBER_(m)) / sizeof(IBP_MEMBER_(m)[0]),          \
	 .host_off = offsetof(IBP_HOST, m),                                    \
	 .host_size = sizeof(IBP_MEMBER_(m)[0]) +                              \
		      IBP_BUILD_CHECK_((w) >= 1 &&                             \
				       (w) <= 8 * sizeof(IBP_MEMBER_(m)[0]))},
#define IBP_ROW_R_(by, bi, w)                                                  \
	{.name = "Reserved",                                                   \
	 .byte = by,                                                           \
	 .bit = bi,                                                            \
	 .width = w,                                                           \
	 .count = 1 + IBP_BUILD_CHECK_((w) >= 1 && (w) <= 64 && (bi) < 8)},
#define IBP_ROW_RB_(by, n)                                                     \
	{.name = "Reserved", .byte = by, .width = 8, .count = n},

/* In the coders: the row's end in bytes, and the buffer length that
 * holds it for sure (the constant min_size for a row inside it, so the
 * call folds; len for an optional row, which is then tested). */
#define IBP_END_(by, bi, w, n) ((((size_t)(by)) * 8 + (bi) + (w) * (n) + 7) / 8)
#define IBP_HOLD_(end)	       ((end) <= ibp_min_ ? ibp_min_ : ibp_len_)
#define IBP_FITS_(end)	       ((end) <= ibp_min_ || (end) <= ibp_len_)

#define IBP_ZERO_F_(m, nm, by, bi, w) IBP_ZERO_(IBP_END_(by, bi, w, 1))
#define IBP_ZERO_A_(m, nm, by, w)                                              \
	IBP_ZERO_(IBP_END_(                                                    \
	    by, 0, w, sizeof(IBP_MEMBER_(m)) / sizeof(IBP_MEMBER_(m)[0])))
#define IBP_ZERO_R_(by, bi, w) IBP_ZERO_(IBP_END_(by, bi, w, 1))
#define IBP_ZERO_RB_(by, n)    IBP_ZERO_(IBP_END_(by, 0, 8, n))
#define IBP_ZERO_(end)                                                         \
	if ((end) <= ibp_len_ && (end) > ibp_zero_)                            \
		ibp_zero_ = (end);

#define IBP_ENC_F_(m, nm, by, bi, w)                                           \
	if (IBP_FITS_(IBP_END_(by, bi, w, 1)))                                 \
		ibp_bits_put_(ibp_buf_, IBP_HOLD_(IBP_END_(by, bi, w, 1)),     \
			      (size_t)(by)*8 + (bi), w,                        \
			      (uint64_t)ibp_obj_->m);
#define IBP_DEC_F_(m, nm, by, bi, w)                                           \
	if (IBP_FITS_(IBP_END_(by, bi, w, 1)))                                 \
		ibp_obj_->m =                                                  \
		    ibp_bits_get_(ibp_buf_, IBP_HOLD_(IBP_END_(by, bi, w, 1)), \
				  (size_t)(by)*8 + (bi), w);
/* Arrays of bytes are one memcpy; others an element at a time. */
#define IBP_N_(m) (sizeof(IBP_MEMBER_(m)) / sizeof(IBP_MEMBER_(m)[0]))
#define IBP_ENC_A_(m, nm, by, w)                                               \
	if (IBP_FITS_(IBP_END_(by, 0, w, IBP_N_(m)))) {                        \
		if ((w) == 8 && sizeof(IBP_MEMBER_(m)[0]) == 1)                \
			memcpy(ibp_buf_ + (by), ibp_obj_->m, IBP_N_(m));       \
		else                                                           \
			for (size_t i_ = 0; i_ < IBP_N_(m); i_++)              \
				ibp_bits_put_(                                 \
				    ibp_buf_,                                  \
				    IBP_HOLD_(IBP_END_(by, 0, w, IBP_N_(m))),  \
				    (size_t)(by)*8 + i_ * (w), w,              \
				    (uint64_t)ibp_obj_->m[i_]);                \
	}
#define IBP_DEC_A_(m, nm, by, w)                                               \
	if (IBP_FITS_(IBP_END_(by, 0, w, IBP_N_(m)))) {                        \
		if ((w) == 8 && sizeof(IBP_MEMBER_(m)[0]) == 1)                \
			memcpy(ibp_obj_->m, ibp_buf_ + (by), IBP_N_(m));       \
		else                                                           \
			for (size_t i_ = 0; i_ < IBP_N_(m); i_++)              \
				ibp_obj_->m[i_] = ibp_bits_get_(               \
				    ibp_buf_,                                  \
				    IBP_HOLD_(IBP_END_(by, 0, w, IBP_N_(m))),  \
				    (size_t)(by)*8 + i_ * (w), w);             \
	}
#define IBP_NONE_R_(by, bi, w)
#define IBP_NONE_RB_(by, n)
#define IBP_NONE_F_(m, nm, by, bi, w)
#define IBP_NONE_A_(m, nm, by, w)

int ibp_layout_bad_args_(const char *name, const void *obj, const void *buf,
			 size_t len, size_t min_size, ibp_error *err);

#define IBP_LAYOUT_DEFINE(id, ROWS, nm, sp, sz, min)                           \
	static const struct ibp_field id##_rows[] = {                          \
	    ROWS(IBP_ROW_F_, IBP_ROW_A_, IBP_ROW_R_, IBP_ROW_RB_)};            \
	static int id##_encode(const void *obj, uint8_t *ibp_buf_,             \
			       size_t ibp_len_, ibp_error *err)                \
	{                                                                      \
		const size_t ibp_min_ = (min);                                 \
		if (!obj || !ibp_buf_ || ibp_len_ < ibp_min_)                  \
			return ibp_layout_bad_args_(nm, obj, ibp_buf_,         \
						    ibp_len_, ibp_min_, err);  \
		const IBP_HOST *ibp_obj_ = obj;                                \
		size_t ibp_zero_ = ibp_min_;                                   \
		if (ibp_min_ < (sz)) {                                         \
			ROWS(IBP_ZERO_F_, IBP_ZERO_A_, IBP_ZERO_R_,            \
			     IBP_ZERO_RB_)                                     \
		}                                                              \
		memset(ibp_buf_, 0, ibp_zero_);                                \
		ROWS(IBP_ENC_F_, IBP_ENC_A_, IBP_NONE_R_, IBP_NONE_RB_)        \
		return IBP_OK;                                                 \
	}                                                                      \
	static int id##_decode(void *obj, const uint8_t *ibp_buf_,             \
			       size_t ibp_len_, ibp_error *err)                \
	{                                                                      \
		const size_t ibp_min_ = (min);                                 \
		if (!obj || !ibp_buf_ || ibp_len_ < ibp_min_)                  \
			return ibp_layout_bad_args_(nm, obj, ibp_buf_,         \
						    ibp_len_, ibp_min_, err);  \
		IBP_HOST *ibp_obj_ = obj;                                      \
		memset(ibp_obj_, 0, sizeof(*ibp_obj_));                        \
		ROWS(IBP_DEC_F_, IBP_DEC_A_, IBP_NONE_R_, IBP_NONE_RB_)        \
		return IBP_OK;                                                 \
	}                                                                      \
	static const struct ibp_layout id##_layout = {                         \
	    .name = nm,                                                        \
	    .spec = sp,                                                        \
	    .fields = id##_rows,                                               \
	    .nfields = sizeof(id##_rows) / sizeof(id##_rows[0]),               \
	    .size = (sz),                                                      \
	    .min_size = (min),                                                 \
	    .host_size = sizeof(IBP_HOST),                                     \
	    .encode = id##_encode,                                             \
	    .decode = id##_decode,                                             \
	};

/* The tables of mad.c (host objects in parentheses). */
extern const struct ibp_layout *const ibp_layout_smp_lid;     /* ibp_smp */
extern const struct ibp_layout *const ibp_layout_smp_dr;      /* ibp_smp */
extern const struct ibp_layout *const ibp_layout_mad_hdr;     /* 13.4.2 */
extern const struct ibp_layout *const ibp_layout_node_desc;   /* char[65] */
extern const struct ibp_layout *const ibp_layout_node_info;   /* node_info */
extern const struct ibp_layout *const ibp_layout_switch_info; /* switch_info */
extern const struct ibp_layout *const ibp_layout_port_info;   /* port_info */
extern const struct ibp_layout *const ibp_layout_pkey_block;  /* uint16[32] */
extern const struct ibp_layout *const ibp_layout_guid_info;   /* uint64[8] */
extern const struct ibp_layout *const ibp_layout_notice;      /* ibp_notice */
extern const struct ibp_layout *const ibp_layout_trap_257;    /* trap_257 */
extern const struct ibp_layout *const ibp_layout_trap_259;    /* trap_259 */
/* All of them, for the tests. */
extern const struct ibp_layout *const ibp_mad_layouts[];
extern const size_t ibp_mad_nlayouts;
/* The common MAD header of a GMP (IBA vol. 1 13.4.2), 24 bytes, as rows
 * of a host struct with members base_version, mgmt_class,
 * class_version, method (R and Method as one byte), status, tid,
 * attr_id and attr_mod; ClassSpecific is reserved (perfmgt.c, sa.c). */
#define IBP_GMP_HDR_ROWS(F, R)                                                 \
	F(base_version, "BaseVersion", 0, 0, 8)                                \
	F(mgmt_class, "MgmtClass", 1, 0, 8)                                    \
	F(class_version, "ClassVersion", 2, 0, 8)                              \
	F(method, "R+Method", 3, 0, 8)                                         \
	F(status, "Status", 4, 0, 16)                                          \
	R(6, 0, 16)                                                            \
	F(tid, "TransactionID", 8, 0, 64)                                      \
	F(attr_id, "AttributeID", 16, 0, 16)                                   \
	R(18, 0, 16)                                                           \
	F(attr_mod, "AttributeModifier", 20, 0, 32)
/* perfmgt.c's: the PerfMgt header, ClassPortInfo, PortCounters,
 * PortCountersExtended. */
extern const struct ibp_layout *const ibp_perf_layouts[];
extern const size_t ibp_perf_nlayouts;
/* sa.c's: the SA MAD header, InformInfo. */
extern const struct ibp_layout *const ibp_sa_layouts[];
extern const size_t ibp_sa_nlayouts;

#endif
