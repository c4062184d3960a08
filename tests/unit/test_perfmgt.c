/*
 * test_perfmgt.c - the PerfMgt GMP wire format (src/wire/perfmgt.c):
 * the header, ClassPortInfo, PortCounters and PortCountersExtended
 * against byte images written by hand from IBA vol. 1 (13.4.2,
 * 13.4.8.1, 16.1.3.5, 16.1.4.11), and every counter against libibmad's
 * field table (mad_decode_field), the table perfquery prints from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <string.h>

#include <infiniband/mad.h>

#include "ibpart/sys/perfmgt.h"
#include "ibpart/sys/transport.h"

/* A Get(PortCounters) to PortSelect 3: header bytes of 13.4.2. */
static void test_header(void **state)
{
	(void)state;
	uint8_t buf[IBP_MAD_SIZE];
	memset(buf, 0xee, sizeof(buf));
	assert_int_equal(ibp_perf_mad_init(buf, sizeof(buf), 0x01, 0x0012, 0,
					   0x0102030405060708ull, NULL),
			 IBP_OK);
	const uint8_t want[24] = {
	    0x01, 0x04, 0x01, 0x01, /* versions, class, Get */
	    0x00, 0x00, 0x00, 0x00, /* Status, ClassSpecific */
	    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, /* TID */
	    0x00, 0x12, 0x00, 0x00, /* PortCounters, rsvd */
	    0x00, 0x00, 0x00, 0x00, /* AttributeModifier */
	};
	assert_memory_equal(buf, want, sizeof(want));
	for (size_t i = 24; i < IBP_MAD_SIZE; i++)
		assert_int_equal(buf[i], 0);
	struct ibp_perf_mad h;
	buf[3] = 0x81;
	buf[4] = 0x00;
	buf[5] = 0x1c;
	assert_int_equal(ibp_perf_mad_decode(&h, buf, sizeof(buf), NULL),
			 IBP_OK);
	assert_int_equal(h.mgmt_class, 0x04);
	assert_int_equal(h.method, 0x81);
	assert_int_equal(h.status, 0x001c);
	assert_int_equal(h.attr_id, 0x0012);
	assert_true(h.tid == 0x0102030405060708ull);
	assert_int_equal(ibp_perf_mad_init(buf, 255, 1, 0x12, 0, 1, NULL),
			 IBP_ESHORT);
}

/* PortCounters, 16.1.3.5: PortSelect byte 1, CounterSelect bytes 2-3,
 * PortXmitConstraintErrors byte 16, PortRcvConstraintErrors byte 17,
 * CounterSelect2 byte 18, LocalLinkIntegrityErrors / ExcessiveBuffer
 * OverrunErrors the two nibbles of byte 19, VL15Dropped bytes 22-23,
 * PortXmitData..PortXmitWait 32 bits each from byte 24. */
static void test_port_counters_bytes(void **state)
{
	(void)state;
	uint8_t d[IBP_PERF_DATA_SIZE] = {0};
	d[1] = 7;
	d[2] = 0x01;
	d[3] = 0x80; /* CounterSelect: bits 7 and 8 */
	d[4] = 0x12;
	d[5] = 0x34; /* SymbolErrorCounter */
	d[6] = 0x05;
	d[7] = 0x06;
	d[14] = 0xab;
	d[15] = 0xcd; /* PortXmitDiscards */
	d[16] = 9;    /* PortXmitConstraintErrors */
	d[17] = 0xff; /* PortRcvConstraintErrors, saturated */
	d[18] = 0x01;
	d[19] = 0x3c;
	d[22] = 0x00;
	d[23] = 0x2a;
	d[24] = 0xde;
	d[25] = 0xad;
	d[26] = 0xbe;
	d[27] = 0xef;
	d[43] = 0x11;
	struct ibp_port_counters pc;
	assert_int_equal(ibp_port_counters_decode(&pc, d, sizeof(d), NULL),
			 IBP_OK);
	assert_int_equal(pc.port_select, 7);
	assert_int_equal(pc.counter_select, IBP_PC_SELECT_XMIT_CONSTRAINT |
						IBP_PC_SELECT_RCV_CONSTRAINT);
	assert_int_equal(pc.symbol_error_counter, 0x1234);
	assert_int_equal(pc.link_error_recovery_counter, 5);
	assert_int_equal(pc.link_downed_counter, 6);
	assert_int_equal(pc.port_xmit_discards, 0xabcd);
	assert_int_equal(pc.port_xmit_constraint_errors, 9);
	assert_int_equal(pc.port_rcv_constraint_errors, 255);
	assert_int_equal(pc.counter_select2, 1);
	assert_int_equal(pc.local_link_integrity_errors, 3);
	assert_int_equal(pc.excessive_buffer_overrun_errors, 0xc);
	assert_int_equal(pc.vl15_dropped, 42);
	assert_int_equal(pc.port_xmit_data, 0xdeadbeefu);
	assert_int_equal(pc.port_xmit_wait, 0x11);
	uint8_t back[IBP_PERF_DATA_SIZE];
	memset(back, 0, sizeof(back));
	assert_int_equal(
	    ibp_port_counters_encode(&pc, back, sizeof(back), NULL), IBP_OK);
	assert_memory_equal(back, d, sizeof(d));
	assert_int_equal(ibp_port_counters_decode(&pc, d, 43, NULL),
			 IBP_ESHORT);
}

/* PortCountersExtended, 16.1.4.11: 64-bit counters from byte 8; the
 * error counters after the eight data/packet ones (byte 72), the
 * constraint errors at bytes 128 and 136. */
static void test_port_counters_ext_bytes(void **state)
{
	(void)state;
	uint8_t d[IBP_PERF_DATA_SIZE] = {0};
	d[1] = 0x11;
	d[8] = 0x01; /* PortXmitData's top byte */
	d[15] = 0x02;
	d[128] = 0x00;
	d[134] = 0x01;
	d[135] = 0x00; /* PortXmitConstraintErrors 256 */
	d[136] = 0x80;
	d[143] = 0x05; /* PortRcvConstraintErrors 2^63 + 5 */
	d[183] = 0x07; /* QP1Dropped */
	struct ibp_port_counters_ext e;
	assert_int_equal(ibp_port_counters_ext_decode(&e, d, sizeof(d), NULL),
			 IBP_OK);
	assert_int_equal(e.port_select, 0x11);
	assert_true(e.port_xmit_data == 0x0100000000000002ull);
	assert_true(e.port_xmit_constraint_errors == 256);
	assert_true(e.port_rcv_constraint_errors == 0x8000000000000005ull);
	assert_true(e.qp1_dropped == 7);
	assert_true(e.port_rcv_data == 0);
}

/* ClassPortInfo, 13.4.8.1: CapabilityMask bytes 2-3, CapabilityMask2
 * the 27 bits from byte 4, RespTimeValue the low 5 bits of byte 7. */
static void test_class_port_info(void **state)
{
	(void)state;
	uint8_t d[IBP_PERF_DATA_SIZE] = {0};
	d[0] = 1;
	d[1] = 1;
	d[2] = 0x02; /* bit 9: IsExtendedWidthSupported */
	d[3] = 0x00;
	d[4] = 0x00;
	d[5] = 0x00;
	d[6] = 0x00;
	d[7] = (uint8_t)((0x2u << 5) | 0x12); /* CapabilityMask2 bit 1 */
	struct ibp_class_port_info c;
	assert_int_equal(ibp_class_port_info_decode(&c, d, sizeof(d), NULL),
			 IBP_OK);
	assert_int_equal(c.capability_mask, 0x0200);
	assert_int_equal(c.capability_mask2, 0x2);
	assert_int_equal(c.resp_time_value, 0x12);
	assert_true(ibp_class_port_info_has_ext(&c));
	assert_true(ibp_class_port_info_has_ext_errors(&c));
	d[7] = 0x12; /* ibsim's: no CapabilityMask2 bits */
	ibp_class_port_info_decode(&c, d, sizeof(d), NULL);
	assert_true(ibp_class_port_info_has_ext(&c));
	assert_false(ibp_class_port_info_has_ext_errors(&c));
	d[2] = 0;
	ibp_class_port_info_decode(&c, d, sizeof(d), NULL);
	assert_false(ibp_class_port_info_has_ext(&c));
}

/* Every counter where libibmad's field table (perfquery's) has it. */
static void test_against_libibmad(void **state)
{
	(void)state;
	struct ibp_port_counters pc = {
	    .port_select = 3,
	    .counter_select = 0xfedc,
	    .symbol_error_counter = 0x1111,
	    .link_error_recovery_counter = 0x22,
	    .link_downed_counter = 0x33,
	    .port_rcv_errors = 0x4444,
	    .port_rcv_remote_physical_errors = 0x5555,
	    .port_rcv_switch_relay_errors = 0x6666,
	    .port_xmit_discards = 0x7777,
	    .port_xmit_constraint_errors = 0x88,
	    .port_rcv_constraint_errors = 0x99,
	    .local_link_integrity_errors = 0xa,
	    .excessive_buffer_overrun_errors = 0xb,
	    .vl15_dropped = 0xcccc,
	    .port_xmit_data = 0xd0d0d0d0,
	    .port_rcv_data = 0xe0e0e0e0,
	    .port_xmit_pkts = 0xf0f0f0f0,
	    .port_rcv_pkts = 0x01010101,
	    .port_xmit_wait = 0x02020202,
	};
	uint8_t d[IBP_PERF_DATA_SIZE] = {0};
	ibp_port_counters_encode(&pc, d, sizeof(d), NULL);
	const struct {
		int f;
		uint32_t v;
	} pcf[] = {
	    {IB_PC_PORT_SELECT_F, 3},	     {IB_PC_COUNTER_SELECT_F, 0xfedc},
	    {IB_PC_ERR_SYM_F, 0x1111},	     {IB_PC_LINK_RECOVERS_F, 0x22},
	    {IB_PC_LINK_DOWNED_F, 0x33},     {IB_PC_ERR_RCV_F, 0x4444},
	    {IB_PC_ERR_PHYSRCV_F, 0x5555},   {IB_PC_ERR_SWITCH_REL_F, 0x6666},
	    {IB_PC_XMT_DISCARDS_F, 0x7777},  {IB_PC_ERR_XMTCONSTR_F, 0x88},
	    {IB_PC_ERR_RCVCONSTR_F, 0x99},   {IB_PC_ERR_LOCALINTEG_F, 0xa},
	    {IB_PC_ERR_EXCESS_OVR_F, 0xb},   {IB_PC_VL15_DROPPED_F, 0xcccc},
	    {IB_PC_XMT_BYTES_F, 0xd0d0d0d0}, {IB_PC_RCV_BYTES_F, 0xe0e0e0e0},
	    {IB_PC_XMT_PKTS_F, 0xf0f0f0f0},  {IB_PC_RCV_PKTS_F, 0x01010101},
	    {IB_PC_XMT_WAIT_F, 0x02020202},
	};
	for (size_t i = 0; i < sizeof(pcf) / sizeof(pcf[0]); i++) {
		uint32_t v = 0;
		mad_decode_field(d, (enum MAD_FIELDS)pcf[i].f, &v);
		assert_int_equal(v, pcf[i].v);
	}

	struct ibp_port_counters_ext e;
	memset(&e, 0, sizeof(e));
	uint64_t *ctr = &e.port_xmit_data;
	/* the 22 counters, each its own value */
	for (unsigned i = 0; i < 22; i++)
		ctr[i] = 0x0101010101010101ull * (i + 1);
	e.port_select = 5;
	uint8_t x[IBP_PERF_DATA_SIZE] = {0};
	ibp_port_counters_ext_encode(&e, x, sizeof(x), NULL);
	const int pcef[22] = {
	    IB_PC_EXT_XMT_BYTES_F,	IB_PC_EXT_RCV_BYTES_F,
	    IB_PC_EXT_XMT_PKTS_F,	IB_PC_EXT_RCV_PKTS_F,
	    IB_PC_EXT_XMT_UPKTS_F,	IB_PC_EXT_RCV_UPKTS_F,
	    IB_PC_EXT_XMT_MPKTS_F,	IB_PC_EXT_RCV_MPKTS_F,
	    IB_PC_EXT_ERR_SYM_F,	IB_PC_EXT_LINK_RECOVERS_F,
	    IB_PC_EXT_LINK_DOWNED_F,	IB_PC_EXT_ERR_RCV_F,
	    IB_PC_EXT_ERR_PHYSRCV_F,	IB_PC_EXT_ERR_SWITCH_REL_F,
	    IB_PC_EXT_XMT_DISCARDS_F,	IB_PC_EXT_ERR_XMTCONSTR_F,
	    IB_PC_EXT_ERR_RCVCONSTR_F,	IB_PC_EXT_ERR_LOCALINTEG_F,
	    IB_PC_EXT_ERR_EXCESS_OVR_F, IB_PC_EXT_VL15_DROPPED_F,
	    IB_PC_EXT_XMT_WAIT_F,	IB_PC_EXT_QP1_DROP_F,
	};
	for (unsigned i = 0; i < 22; i++) {
		uint64_t v = 0;
		mad_decode_field(x, (enum MAD_FIELDS)pcef[i], &v);
		assert_true(v == 0x0101010101010101ull * (i + 1));
	}
	uint32_t ps = 0;
	mad_decode_field(x, IB_PC_EXT_PORT_SELECT_F, &ps);
	assert_int_equal(ps, 5);

	struct ibp_class_port_info c = {.base_version = 1,
					.class_version = 1,
					.capability_mask = 0x0600,
					.capability_mask2 = 0x2,
					.resp_time_value = 0x12};
	uint8_t y[IBP_PERF_DATA_SIZE] = {0};
	ibp_class_port_info_encode(&c, y, sizeof(y), NULL);
	uint32_t v = 0;
	mad_decode_field(y, IB_CPI_CAPMASK_F, &v);
	assert_int_equal(v, 0x0600);
	mad_decode_field(y, IB_CPI_CAPMASK2_F, &v);
	assert_int_equal(v, 0x2);
	mad_decode_field(y, IB_CPI_RESP_TIME_VALUE_F, &v);
	assert_int_equal(v, 0x12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_header),
	    cmocka_unit_test(test_port_counters_bytes),
	    cmocka_unit_test(test_port_counters_ext_bytes),
	    cmocka_unit_test(test_class_port_info),
	    cmocka_unit_test(test_against_libibmad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
