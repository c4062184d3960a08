/*
 * test_mad_layout.c - the generic big-endian bit-field codec of mad.c
 * (src/wire/mad_layout.h) against a bit-at-a-time reference, for every
 * width 1..64 at every bit phase, across byte boundaries; its masking and
 * bounds; the coders IBP_LAYOUT_DEFINE generates, on a synthetic
 * layout; and the attribute tables themselves: each tiles its layout bit
 * for bit, every row fits its member, and spot rows sit at the bit
 * offsets IBA vol. 1 gives.  (The
 * wire bytes of every attribute are checked against libibmad and
 * smpquery in test_mad.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/error.h"
#include "ibpart/sys/mad.h"
#include "wire/mad_layout.h"

#define NF(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* The reference: one bit at a time, bit 0 = MSB of byte 0. */
static unsigned ref_bit(const uint8_t *buf, size_t b)
{
	return (buf[b / 8] >> (7 - b % 8)) & 1u;
}
static void ref_set_bit(uint8_t *buf, size_t b, unsigned v)
{
	uint8_t m = (uint8_t)(1u << (7 - b % 8));
	buf[b / 8] = (uint8_t)(v ? (buf[b / 8] | m) : (buf[b / 8] & ~m));
}
static uint64_t ref_get(const uint8_t *buf, size_t off, unsigned w)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < w; i++)
		v = (v << 1) | ref_bit(buf, off + i);
	return v;
}
static void ref_put(uint8_t *buf, size_t off, unsigned w, uint64_t v)
{
	for (unsigned i = 0; i < w; i++)
		ref_set_bit(buf, off + i, (unsigned)(v >> (w - 1 - i)) & 1u);
}

/* ------------------------------------------------ fixed vectors */

static void test_bits_vectors(void **state)
{
	(void)state;
	uint8_t b[16];
	uint64_t v;

	/* a byte straddling two: high nibble of the value in the low
	 * nibble of byte 0 */
	memset(b, 0, sizeof(b));
	assert_int_equal(ibp_bits_put(b, 2, 4, 8, 0xab), IBP_OK);
	assert_int_equal(b[0], 0x0a);
	assert_int_equal(b[1], 0xb0);
	assert_int_equal(ibp_bits_get(b, 2, 4, 8, &v), IBP_OK);
	assert_true(v == 0xab);

	/* single bits at both ends of a byte */
	memset(b, 0, sizeof(b));
	assert_int_equal(ibp_bits_put(b, 1, 0, 1, 1), IBP_OK);
	assert_int_equal(b[0], 0x80);
	assert_int_equal(ibp_bits_put(b, 1, 7, 1, 1), IBP_OK);
	assert_int_equal(b[0], 0x81);
	assert_int_equal(ibp_bits_put(b, 1, 0, 1, 0), IBP_OK);
	assert_int_equal(b[0], 0x01);

	/* 64 bits, aligned: plain big-endian */
	memset(b, 0, sizeof(b));
	assert_int_equal(ibp_bits_put(b, 8, 0, 64, 0x0102030405060708ull),
			 IBP_OK);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(b[i], i + 1);

	/* 64 bits from bit 3: nine bytes touched, the neighbours kept */
	memset(b, 0, sizeof(b));
	b[0] = 0xe0; /* bits 0-2, not the field's */
	b[8] = 0x1f; /* bits 67-71 */
	assert_int_equal(ibp_bits_put(b, 9, 3, 64, ~0ull), IBP_OK);
	assert_int_equal(b[0], 0xff);
	for (unsigned i = 1; i < 8; i++)
		assert_int_equal(b[i], 0xff);
	assert_int_equal(b[8], 0xff);
	assert_int_equal(ibp_bits_put(b, 9, 3, 64, 0), IBP_OK);
	assert_int_equal(b[0], 0xe0);
	for (unsigned i = 1; i < 8; i++)
		assert_int_equal(b[i], 0);
	assert_int_equal(b[8], 0x1f);
	assert_int_equal(ibp_bits_put(b, 9, 3, 64, 0x8000000000000001ull),
			 IBP_OK);
	assert_int_equal(b[0], 0xf0);
	assert_int_equal(b[7], 0x00);
	assert_int_equal(b[8], 0x3f);
	assert_int_equal(ibp_bits_get(b, 9, 3, 64, &v), IBP_OK);
	assert_true(v == 0x8000000000000001ull);

	/* 24 bits at byte 1 (NodeInfo VendorID, Notice ProducerType) */
	memset(b, 0, sizeof(b));
	assert_int_equal(ibp_bits_put(b, 4, 8, 24, 0x123456), IBP_OK);
	assert_memory_equal(b, "\x00\x12\x34\x56", 4);

	/* the DR status word: D bit, then 15 bits of status */
	memset(b, 0, sizeof(b));
	assert_int_equal(ibp_bits_put(b, 2, 1, 15, 0x7fff), IBP_OK);
	assert_int_equal(b[0], 0x7f);
	assert_int_equal(b[1], 0xff);
	assert_int_equal(ibp_bits_put(b, 2, 0, 1, 1), IBP_OK);
	assert_int_equal(ibp_bits_put(b, 2, 1, 15, 0x001c), IBP_OK);
	assert_int_equal(b[0], 0x80);
	assert_int_equal(b[1], 0x1c);
	assert_int_equal(ibp_bits_get(b, 2, 0, 16, &v), IBP_OK);
	assert_true(v == 0x801c);

	/* 5 bits ending at a byte's end (HOQLife), 3 before them */
	memset(b, 0, sizeof(b));
	assert_int_equal(ibp_bits_put(b, 1, 0, 3, 5), IBP_OK);
	assert_int_equal(ibp_bits_put(b, 1, 3, 5, 0x13), IBP_OK);
	assert_int_equal(b[0], 0xb3);
}

/* ------------------------------------ every width, every phase */

static void test_bits_vs_reference(void **state)
{
	(void)state;
	enum { LEN = 24 };
	uint8_t ours[LEN], ref[LEN];
	for (unsigned w = 1; w <= 64; w++) {
		/* offsets 0..23 cover every bit phase twice and fields
		 * that start in the first, second and third byte */
		for (size_t off = 0; off < 24; off++) {
			for (unsigned k = 0; k < 8; k++) {
				for (size_t i = 0; i < LEN; i++)
					ours[i] = ref[i] = (uint8_t)rnd();
				uint64_t v = rnd();
				if (k == 0)
					v = 0;
				else if (k == 1)
					v = ~0ull;
				else if (k == 2)
					v = 1;
				else if (k == 3) /* only the top bit */
					v = 1ull << (w - 1);
				/* what the field holds before: get agrees */
				uint64_t got;
				assert_int_equal(
				    ibp_bits_get(ours, LEN, off, w, &got),
				    IBP_OK);
				assert_true(got == ref_get(ref, off, w));
				/* put: same bytes as the reference, so the
				 * bits around the field are unchanged */
				assert_int_equal(
				    ibp_bits_put(ours, LEN, off, w, v), IBP_OK);
				ref_put(ref, off, w, v);
				if (memcmp(ours, ref, LEN) != 0) {
					print_error("put width %u at bit %zu "
						    "value 0x%llx differs\n",
						    w, off,
						    (unsigned long long)v);
					fail();
				}
				/* round trip, masked to the width */
				assert_int_equal(
				    ibp_bits_get(ours, LEN, off, w, &got),
				    IBP_OK);
				assert_true(got == (v & ibp_bits_mask(w)));
			}
		}
	}
}

/* ---------------------------------------- masking and fitting */

static void test_bits_masking(void **state)
{
	(void)state;
	uint8_t b[9];
	uint64_t v;
	for (unsigned w = 1; w < 64; w++) {
		/* a value one bit too wide: the extra bit is dropped and
		 * the neighbours (all ones) stay */
		memset(b, 0xff, sizeof(b));
		assert_int_equal(ibp_bits_put(b, sizeof(b), 3, w, 1ull << w),
				 IBP_OK);
		assert_int_equal(ibp_bits_get(b, sizeof(b), 3, w, &v), IBP_OK);
		assert_true(v == 0);
		assert_int_equal(ref_get(b, 0, 3), 7);
		for (size_t i = 3 + w; i < 8 * sizeof(b); i++)
			assert_int_equal(ref_bit(b, i), 1);
		assert_false(ibp_bits_fit(1ull << w, w));
		assert_true(ibp_bits_fit(ibp_bits_mask(w), w));
		assert_false(ibp_bits_fit(~0ull, w));
	}
	assert_true(ibp_bits_fit(~0ull, 64));
	assert_true(ibp_bits_mask(64) == ~0ull);
	assert_true(ibp_bits_mask(1) == 1);

	/* the encoders mask too (mad.h: "masked to their width") */
	struct ibp_port_info pi;
	memset(&pi, 0, sizeof(pi));
	pi.lmc = 0xff;			  /* 3 bits */
	pi.link_speed_ext_enabled = 0xff; /* 5 bits */
	uint8_t data[IBP_PORT_INFO_SIZE];
	assert_int_equal(ibp_port_info_encode(&pi, data, sizeof(data), NULL),
			 IBP_OK);
	assert_int_equal(data[34], 0x07); /* reserved bits 2-4 stay 0 */
	assert_int_equal(data[63], 0x1f);
	struct ibp_port_info back;
	assert_int_equal(ibp_port_info_decode(&back, data, sizeof(data), NULL),
			 IBP_OK);
	assert_int_equal(back.lmc, 7);
	assert_int_equal(back.link_speed_ext_enabled, 0x1f);
}

/* ---------------------------------------------------- bounds */

static void test_bits_bounds(void **state)
{
	(void)state;
	uint8_t b[8] = {0};
	uint64_t v = 0x5a5a;
	assert_int_equal(ibp_bits_get(b, sizeof(b), 0, 0, &v), IBP_EINVAL);
	assert_int_equal(ibp_bits_get(b, sizeof(b), 0, 65, &v), IBP_EINVAL);
	assert_int_equal(ibp_bits_put(b, sizeof(b), 0, 0, 1), IBP_EINVAL);
	assert_int_equal(ibp_bits_put(b, sizeof(b), 0, 65, 1), IBP_EINVAL);
	assert_int_equal(ibp_bits_get(NULL, 8, 0, 8, &v), IBP_EINVAL);
	assert_int_equal(ibp_bits_put(NULL, 8, 0, 8, 1), IBP_EINVAL);
	assert_int_equal(ibp_bits_get(b, sizeof(b), 0, 8, NULL), IBP_EINVAL);
	assert_true(v == 0x5a5a);
	/* offsets whose byte would overflow size_t arithmetic */
	assert_int_equal(ibp_bits_get(b, sizeof(b), SIZE_MAX, 1, &v),
			 IBP_ESHORT);
	assert_int_equal(ibp_bits_put(b, sizeof(b), SIZE_MAX - 3, 64, 1),
			 IBP_ESHORT);
	assert_int_equal(ibp_bits_get(b, 0, 0, 1, &v), IBP_ESHORT);

	/* on exactly-sized heap buffers (ASan): every field that ends at
	 * the last bit works, one bit further is IBP_ESHORT and writes
	 * nothing */
	for (size_t len = 1; len <= 10; len++) {
		uint8_t *h = malloc(len);
		assert_non_null(h);
		for (unsigned w = 1; w <= 64; w++) {
			if (w > 8 * len)
				break;
			size_t last = 8 * len - w; /* ends at the last bit */
			memset(h, 0x3c, len);
			assert_int_equal(ibp_bits_put(h, len, last, w, ~0ull),
					 IBP_OK);
			assert_int_equal(ibp_bits_get(h, len, last, w, &v),
					 IBP_OK);
			assert_true(v == ibp_bits_mask(w));
			memset(h, 0x3c, len);
			assert_int_equal(
			    ibp_bits_put(h, len, last + 1, w, ~0ull),
			    IBP_ESHORT);
			assert_int_equal(ibp_bits_get(h, len, last + 1, w, &v),
					 IBP_ESHORT);
			for (size_t i = 0; i < len; i++)
				assert_int_equal(h[i], 0x3c);
		}
		free(h);
	}
}

/* --------------------------------------- the generated coders */

struct demo {
	bool flag;	    /* 1 bit at 0.0 */
	uint8_t nib;	    /* 7 bits at 0.1 */
	uint16_t cross;	    /* 13 bits at 1.0, into byte 2 */
	uint64_t wide;	    /* 64 bits at 2.7 (not aligned) */
	uint16_t twelve[5]; /* 5 x 12 bits at 12.0 */
	uint8_t tail[4];    /* optional: bytes 20-23 */
};

/* A made-up layout through the same generator as mad.c's tables: a
 * bool, fields across byte boundaries, a 64-bit field off a byte
 * boundary (the codec's byte-at-a-time path), 12-bit array elements and
 * an optional tail past min_size 20. */
#define DEMO_ROWS(F, A, R, RB)                                                 \
	F(flag, "Flag", 0, 0, 1)                                               \
	F(nib, "Nib", 0, 1, 7)                                                 \
	F(cross, "Cross", 1, 0, 13)                                            \
	R(2, 5, 2)                                                             \
	F(wide, "Wide", 2, 7, 64)                                              \
	R(10, 7, 9)                                                            \
	A(twelve, "Twelve", 12, 12)                                            \
	R(19, 4, 4)                                                            \
	A(tail, "Tail", 20, 8)
#define IBP_HOST struct demo
IBP_LAYOUT_DEFINE(demo, DEMO_ROWS, "demo", "none", 24, 20)
#undef IBP_HOST

static void test_layout_walk(void **state)
{
	(void)state;
	struct demo d, e;
	memset(&d, 0, sizeof(d));
	d.flag = true;
	d.nib = 0xff; /* masked to 0x7f */
	d.cross = 0x1abc;
	d.wide = 0xfedcba9876543210ull;
	for (unsigned i = 0; i < 5; i++)
		d.twelve[i] = (uint16_t)(0x0a1 * (i + 1));
	memcpy(d.tail, "\x11\x22\x33\x44", 4);

	uint8_t w[24], ref[24];
	memset(w, 0xee, sizeof(w));
	assert_int_equal(demo_layout.encode(&d, w, 24, NULL), IBP_OK);
	memset(ref, 0, sizeof(ref));
	ref_put(ref, 0, 1, 1);
	ref_put(ref, 1, 7, 0x7f);
	ref_put(ref, 8, 13, 0x1abc);
	ref_put(ref, 23, 64, d.wide);
	for (unsigned i = 0; i < 5; i++)
		ref_put(ref, 96 + 12 * i, 12, d.twelve[i]);
	memcpy(ref + 20, d.tail, 4);
	assert_memory_equal(w, ref, sizeof(w));

	memset(&e, 0xa5, sizeof(e));
	assert_int_equal(demo_layout.decode(&e, w, 24, NULL), IBP_OK);
	d.nib = 0x7f;
	assert_memory_equal(&d, &e, sizeof(d)); /* padding zeroed too */

	/* the optional tail: left out (and its bytes alone) when the
	 * buffer stops short of it */
	memset(w, 0xee, sizeof(w));
	assert_int_equal(demo_layout.encode(&d, w, 23, NULL), IBP_OK);
	assert_memory_equal(w, ref, 20);
	for (size_t i = 20; i < 24; i++)
		assert_int_equal(w[i], 0xee);
	memcpy(w, ref, sizeof(w));
	assert_int_equal(demo_layout.decode(&e, w, 20, NULL), IBP_OK);
	assert_memory_equal(e.tail, "\0\0\0\0", 4);
	assert_true(e.wide == d.wide);

	/* under min_size: IBP_ESHORT, nothing touched */
	ibp_error err;
	memset(w, 0xee, sizeof(w));
	assert_int_equal(demo_layout.encode(&d, w, 19, &err), IBP_ESHORT);
	assert_int_equal(err.status, IBP_ESHORT);
	for (size_t i = 0; i < 24; i++)
		assert_int_equal(w[i], 0xee);
	memset(&e, 0xa5, sizeof(e));
	struct demo before = e;
	assert_int_equal(demo_layout.decode(&e, ref, 19, NULL), IBP_ESHORT);
	assert_memory_equal(&e, &before, sizeof(e));
	assert_int_equal(demo_layout.decode(NULL, ref, 24, NULL), IBP_EINVAL);
	assert_int_equal(demo_layout.encode(&d, NULL, 24, NULL), IBP_EINVAL);

	/* element access */
	assert_int_equal(ibp_field_get(&demo_rows[6], ref, sizeof(ref), 4),
			 0x0a1 * 5);
	assert_true(ibp_field_get(&demo_rows[4], ref, sizeof(ref), 0) ==
		    d.wide);
}

/* -------------------------------------------------- the tables */

static void check_table(const struct ibp_layout *l, bool demo)
{
	assert_non_null(l->name);
	assert_non_null(l->spec);
	if (!demo && strncmp(l->spec, "IBA vol. 1 ", 11) != 0) {
		print_error("%s: spec \"%s\"\n", l->name, l->spec);
		fail();
	}
	assert_true(l->nfields > 0);
	assert_true(l->min_size > 0 && l->min_size <= l->size);
	size_t at = 0; /* next bit expected */
	for (size_t k = 0; k < l->nfields; k++) {
		const struct ibp_field *f = &l->fields[k];
		if (!f->name || f->width < 1 || f->width > IBP_BITS_MAX ||
		    f->count < 1 || f->bit > 7) {
			print_error("%s row %zu: malformed (width %u count "
				    "%u bit %u)\n",
				    l->name, k, f->width, f->count, f->bit);
			fail();
		}
		if (ibp_field_bit_off(f) != at) {
			print_error("%s.%s: starts at bit %zu, the row before "
				    "ends at %zu (gap or overlap)\n",
				    l->name, f->name, ibp_field_bit_off(f), at);
			fail();
		}
		at = ibp_field_bit_end(f);
		bool reserved = strcmp(f->name, "Reserved") == 0;
		if (reserved != (f->host_size == 0)) {
			print_error("%s.%s: reserved rows and only they have "
				    "no member\n",
				    l->name, f->name);
			fail();
		}
		if (reserved)
			continue;
		assert_true(f->host_size == 1 || f->host_size == 2 ||
			    f->host_size == 4 || f->host_size == 8);
		if (f->width > 8u * f->host_size ||
		    (f->host_bool && (f->width != 1 || f->host_size != 1))) {
			print_error("%s.%s: %u bits do not fit a %u-byte%s "
				    "member\n",
				    l->name, f->name, f->width, f->host_size,
				    f->host_bool ? " bool" : "");
			fail();
		}
		if ((size_t)f->host_off + (size_t)f->count * f->host_size >
		    l->host_size) {
			print_error("%s.%s: member past the host object\n",
				    l->name, f->name);
			fail();
		}
		/* no two rows share host bytes */
		for (size_t j = 0; j < k; j++) {
			const struct ibp_field *g = &l->fields[j];
			if (g->host_size == 0)
				continue;
			size_t a0 = f->host_off,
			       a1 = a0 + (size_t)f->count * f->host_size;
			size_t b0 = g->host_off,
			       b1 = b0 + (size_t)g->count * g->host_size;
			if (a0 < b1 && b0 < a1) {
				print_error("%s: %s and %s share a member\n",
					    l->name, f->name, g->name);
				fail();
			}
		}
	}
	if (at != 8 * l->size) {
		print_error("%s: rows cover %zu bits of %zu\n", l->name, at,
			    8 * l->size);
		fail();
	}
}

static void test_tables_tile(void **state)
{
	(void)state;
	check_table(&demo_layout, true);
	assert_true(ibp_mad_nlayouts >= 12);
	for (size_t i = 0; i < ibp_mad_nlayouts; i++)
		check_table(ibp_mad_layouts[i], false);
	assert_int_equal(ibp_perf_nlayouts, 4);
	for (size_t i = 0; i < ibp_perf_nlayouts; i++)
		check_table(ibp_perf_layouts[i], false);
	assert_int_equal(ibp_sa_nlayouts, 3);
	for (size_t i = 0; i < ibp_sa_nlayouts; i++)
		check_table(ibp_sa_layouts[i], false);
}

static const struct ibp_field *row(const struct ibp_layout *l, const char *name)
{
	for (size_t k = 0; k < l->nfields; k++)
		if (strcmp(l->fields[k].name, name) == 0)
			return &l->fields[k];
	print_error("%s has no row %s\n", l->name, name);
	fail();
	return NULL;
}

/* Rows at the bit offsets of the IBA tables (offset, length in bits). */
static void test_tables_spec_offsets(void **state)
{
	(void)state;
	const struct {
		const struct ibp_layout *l;
		const char *name;
		size_t off;
		unsigned width;
	} spot[] = {
	    {ibp_layout_smp_dr, "D", 32, 1},
	    {ibp_layout_smp_dr, "Status", 33, 15},
	    {ibp_layout_smp_dr, "HopPointer", 48, 8},
	    {ibp_layout_smp_dr, "HopCount", 56, 8},
	    {ibp_layout_smp_dr, "M_Key", 192, 64},
	    {ibp_layout_smp_dr, "DrSLID", 256, 16},
	    {ibp_layout_smp_dr, "DrDLID", 272, 16},
	    {ibp_layout_smp_dr, "InitialPath", 1024, 8},
	    {ibp_layout_smp_dr, "ReturnPath", 1536, 8},
	    {ibp_layout_smp_lid, "Status", 32, 16},
	    {ibp_layout_smp_lid, "TransactionID", 64, 64},
	    {ibp_layout_smp_lid, "AttributeModifier", 160, 32},
	    {ibp_layout_smp_lid, "SMPData", 512, 8},
	    {ibp_layout_node_info, "NodeGUID", 96, 64},
	    {ibp_layout_node_info, "PartitionCap", 224, 16},
	    {ibp_layout_node_info, "VendorID", 296, 24},
	    {ibp_layout_switch_info, "LifeTimeValue", 88, 5},
	    {ibp_layout_switch_info, "PortStateChange", 93, 1},
	    {ibp_layout_switch_info, "PartitionEnforcementCap", 112, 16},
	    {ibp_layout_switch_info, "EnhancedPort0", 132, 1},
	    {ibp_layout_switch_info, "MulticastFDBTop", 144, 16},
	    {ibp_layout_port_info, "LinkSpeedSupported", 256, 4},
	    {ibp_layout_port_info, "PortState", 260, 4},
	    {ibp_layout_port_info, "LMC", 277, 3},
	    {ibp_layout_port_info, "HOQLife", 339, 5},
	    {ibp_layout_port_info, "PartitionEnforcementInbound", 348, 1},
	    {ibp_layout_port_info, "FilterRawOutbound", 351, 1},
	    {ibp_layout_port_info, "P_KeyViolations", 368, 16},
	    {ibp_layout_port_info, "ClientReregister", 408, 1},
	    {ibp_layout_port_info, "SubnetTimeOut", 411, 5},
	    {ibp_layout_port_info, "RespTimeValue", 419, 5},
	    {ibp_layout_port_info, "LinkRoundTripLatency", 456, 24},
	    {ibp_layout_port_info, "LinkSpeedExtEnabled", 507, 5},
	    {ibp_layout_pkey_block, "P_KeyTableBlock", 0, 16},
	    {ibp_layout_guid_info, "GUIDBlock", 0, 64},
	    {ibp_layout_notice, "Type", 1, 7},
	    {ibp_layout_notice, "NoticeCount", 65, 15},
	    {ibp_layout_notice, "DataDetails", 80, 8},
	    {ibp_layout_notice, "IssuerGID", 512, 8},
	    {ibp_layout_trap_257, "SL", 80, 4},
	    {ibp_layout_trap_257, "QP1", 88, 24},
	    {ibp_layout_trap_257, "GIDADDR2", 272, 8},
	    {ibp_layout_trap_259, "QP2", 104, 24},
	    {ibp_layout_trap_259, "SWLIDADDR", 384, 16},
	    {ibp_layout_trap_259, "PortNo", 400, 8},
	};
	for (size_t i = 0; i < NF(spot); i++) {
		const struct ibp_field *f = row(spot[i].l, spot[i].name);
		if (ibp_field_bit_off(f) != spot[i].off ||
		    f->width != spot[i].width) {
			print_error("%s.%s at bit %zu width %u, IBA says %zu "
				    "width %u\n",
				    spot[i].l->name, spot[i].name,
				    ibp_field_bit_off(f), f->width, spot[i].off,
				    spot[i].width);
			fail();
		}
	}
	/* arrays: as many elements as the attribute holds */
	assert_int_equal(row(ibp_layout_pkey_block, "P_KeyTableBlock")->count,
			 IBP_PKEY_BLOCK_ENTRIES);
	assert_int_equal(row(ibp_layout_guid_info, "GUIDBlock")->count,
			 IBP_GUID_INFO_BLOCK);
	assert_int_equal(row(ibp_layout_smp_dr, "InitialPath")->count,
			 IBP_SMP_PATH_SIZE);
	assert_int_equal(row(ibp_layout_notice, "DataDetails")->count,
			 IBP_NOTICE_DETAILS_SIZE);
	/* IssuerGID is the Notice's optional tail */
	assert_int_equal(ibp_layout_notice->min_size, IBP_NOTICE_SMP_SIZE);
	assert_int_equal(ibp_layout_notice->size, IBP_NOTICE_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bits_vectors),
	    cmocka_unit_test(test_bits_vs_reference),
	    cmocka_unit_test(test_bits_masking),
	    cmocka_unit_test(test_bits_bounds),
	    cmocka_unit_test(test_layout_walk),
	    cmocka_unit_test(test_tables_tile),
	    cmocka_unit_test(test_tables_spec_offsets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
