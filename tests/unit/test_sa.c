/*
 * test_sa.c - the SA wire format (src/wire/sa.c): the SA MAD header
 * against libibmad's field table (IB_SA_*_F: the SM_Key, which libibmad
 * calls MKEY, AttributeOffset, ComponentMask, the RMPP header) and
 * rdma-core's struct umad_sa_packet; InformInfo, which neither has,
 * against byte images written by hand from IBA vol. 1 13.4.8.3; the
 * GUIDInfoRecord (15.2.5.18) against libibmad's IB_SA_GIR_*_F.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <string.h>

#include <infiniband/mad.h>
#include <infiniband/umad_sa.h>

#include "ibpart/sys/sa.h"
#include "ibpart/sys/transport.h"

static void test_header_against_libibmad(void **state)
{
	(void)state;
	uint8_t b[IBP_MAD_SIZE];
	assert_int_equal(ibp_sa_mad_init(b, sizeof(b), IBP_SA_METHOD_SET,
					 IBP_SA_ATTR_INFORM_INFO,
					 0x1122334455667788ull,
					 0x0102030405060708ull, NULL),
			 IBP_OK);
	struct ibp_sa_mad h;
	assert_int_equal(ibp_sa_mad_decode(&h, b, sizeof(b), NULL), IBP_OK);
	h.rmpp_version = 1;
	h.rmpp_type = 2;
	h.rmpp_resp_time = 0x1b;
	h.rmpp_flags = 5;
	h.rmpp_status = 0x77;
	h.rmpp_data1 = 0xa1a2a3a4;
	h.rmpp_data2 = 0xb1b2b3b4;
	h.attr_offset = 0x1234;
	h.comp_mask = 0xc1c2c3c4c5c6c7c8ull;
	assert_int_equal(ibp_sa_mad_encode(&h, b, sizeof(b), NULL), IBP_OK);
	assert_int_equal(mad_get_field(b, 0, IB_MAD_METHOD_F), 0x02);
	assert_int_equal(mad_get_field(b, 0, IB_MAD_MGMTCLASS_F), 0x03);
	assert_int_equal(mad_get_field(b, 0, IB_MAD_CLASSVER_F), 2);
	assert_int_equal(mad_get_field(b, 0, IB_MAD_ATTRID_F), 0x0003);
	assert_true(mad_get_field64(b, 0, IB_MAD_TRID_F) ==
		    0x1122334455667788ull);
	assert_true(mad_get_field64(b, 0, IB_SA_MKEY_F) ==
		    0x0102030405060708ull);
	assert_int_equal(mad_get_field(b, 0, IB_SA_ATTROFFS_F), 0x1234);
	assert_true(mad_get_field64(b, 0, IB_SA_COMPMASK_F) ==
		    0xc1c2c3c4c5c6c7c8ull);
	assert_int_equal(mad_get_field(b, 0, IB_SA_RMPP_VERS_F), 1);
	assert_int_equal(mad_get_field(b, 0, IB_SA_RMPP_TYPE_F), 2);
	assert_int_equal(mad_get_field(b, 0, IB_SA_RMPP_RESP_F), 0x1b);
	assert_int_equal(mad_get_field(b, 0, IB_SA_RMPP_FLAGS_F), 5);
	assert_int_equal(mad_get_field(b, 0, IB_SA_RMPP_STATUS_F), 0x77);
	assert_true(mad_get_field(b, 0, IB_SA_RMPP_D1_F) == 0xa1a2a3a4u);
	assert_true(mad_get_field(b, 0, IB_SA_RMPP_D2_F) == 0xb1b2b3b4u);
	/* rdma-core's layout of the same header */
	assert_int_equal(offsetof(struct umad_sa_packet, sm_key), 36);
	assert_int_equal(offsetof(struct umad_sa_packet, attr_offset), 44);
	assert_int_equal(offsetof(struct umad_sa_packet, comp_mask), 48);
	assert_int_equal(offsetof(struct umad_sa_packet, data),
			 IBP_SA_DATA_OFFSET);
	assert_int_equal(IB_SA_DATA_OFFS, IBP_SA_DATA_OFFSET);
	assert_int_equal(ibp_sa_mad_decode(&h, b, 55, NULL), IBP_ESHORT);
}

static void test_guid_info_record_against_libibmad(void **state)
{
	(void)state;
	struct ibp_guid_info_record r = {.lid = 0x1234, .block_num = 0x0f};
	for (int i = 0; i < 8; i++)
		r.guid[i] = 0x0002c90300000000ull + (uint64_t)i * 0x0101;
	uint8_t b[IBP_SA_DATA_SIZE];
	memset(b, 0xee, sizeof(b));
	assert_int_equal(ibp_guid_info_record_encode(&r, b, sizeof(b), NULL),
			 IBP_OK);
	assert_int_equal(IB_SA_GIR_RECSZ, IBP_GUID_INFO_RECORD_SIZE);
	assert_int_equal(mad_get_field(b, 0, IB_SA_GIR_LID_F), 0x1234);
	assert_int_equal(mad_get_field(b, 0, IB_SA_GIR_BLOCKNUM_F), 0x0f);
	static const enum MAD_FIELDS g[8] = {
	    IB_SA_GIR_GUID0_F, IB_SA_GIR_GUID1_F, IB_SA_GIR_GUID2_F,
	    IB_SA_GIR_GUID3_F, IB_SA_GIR_GUID4_F, IB_SA_GIR_GUID5_F,
	    IB_SA_GIR_GUID6_F, IB_SA_GIR_GUID7_F};
	for (int i = 0; i < 8; i++)
		assert_true(mad_get_field64(b, 0, g[i]) == r.guid[i]);
	for (int i = 3; i < 8; i++) /* the reserved bytes written 0 */
		assert_int_equal(b[i], 0);
	struct ibp_guid_info_record back;
	assert_int_equal(ibp_guid_info_record_decode(&back, b, sizeof(b), NULL),
			 IBP_OK);
	assert_int_equal(back.lid, r.lid);
	assert_int_equal(back.block_num, r.block_num);
	assert_memory_equal(back.guid, r.guid, sizeof(r.guid));
	assert_int_equal(ibp_guid_info_record_decode(&back, b, 71, NULL),
			 IBP_ESHORT);
}

/* 13.4.8.3: GID (16 bytes), LIDRangeBegin, LIDRangeEnd, reserved 16,
 * IsGeneric, Subscribe, Type, TrapNumber, QPN (24) + reserved 3 +
 * RespTimeValue (5), reserved 8, ProducerType (24). */
static void test_inform_info_bytes(void **state)
{
	(void)state;
	struct ibp_inform_info ii;
	ibp_inform_info_init_trap(&ii, 257, true);
	uint8_t b[IBP_INFORM_INFO_SIZE];
	memset(b, 0xee, sizeof(b));
	assert_int_equal(ibp_inform_info_encode(&ii, b, sizeof(b), NULL),
			 IBP_OK);
	static const uint8_t want[IBP_INFORM_INFO_SIZE] = {
	    0,	  0,	0,    0,    0,	  0,	0,    0,    0,
	    0,	  0,	0,    0,    0,	  0,	0,    0xff, 0xff,
	    0,	  0,	0,    0,    0x01, 0x01, 0xff, 0xff, 0x01,
	    0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0xff, 0xff, 0xff};
	assert_memory_equal(b, want, sizeof(want));
	/* the end of the subscription differs only in Subscribe */
	ibp_inform_info_init_trap(&ii, 259, false);
	assert_int_equal(ibp_inform_info_encode(&ii, b, sizeof(b), NULL),
			 IBP_OK);
	assert_int_equal(b[23], 0);
	assert_true(b[26] == 0x01 && b[27] == 0x03);
	/* QPN and RespTimeValue share bytes 28-31 */
	static const uint8_t img[IBP_INFORM_INFO_SIZE] = {
	    [0] = 0xfe,	 [15] = 0x01, [16] = 0x00, [17] = 0x07, [18] = 0x00,
	    [19] = 0x09, [22] = 0x00, [23] = 0x01, [24] = 0x00, [25] = 0x02,
	    [26] = 0x12, [27] = 0x34, [28] = 0xab, [29] = 0xcd, [30] = 0xef,
	    [31] = 0xff, [33] = 0x00, [34] = 0x16, [35] = 0x35};
	assert_int_equal(ibp_inform_info_decode(&ii, img, sizeof(img), NULL),
			 IBP_OK);
	assert_true(ii.gid[0] == 0xfe && ii.gid[15] == 0x01);
	assert_true(ii.lid_range_begin == 7 && ii.lid_range_end == 9);
	assert_true(ii.is_generic == 0 && ii.subscribe == 1 && ii.type == 2);
	assert_true(ii.trap_num == 0x1234 && ii.qpn == 0xabcdef);
	assert_true(ii.resp_time_value == 0x1f && ii.producer_type == 0x001635);
	assert_int_equal(ibp_inform_info_decode(&ii, img, 35, NULL),
			 IBP_ESHORT);
}

static void test_status(void **state)
{
	(void)state;
	assert_string_equal(ibp_sa_status_str(0), "");
	assert_string_equal(ibp_sa_status_str(0x0200), "ERR_REQ_INVALID");
	assert_string_equal(ibp_sa_status_str(0x0100), "ERR_NO_RESOURCES");
	assert_string_equal(ibp_sa_status_str(0x000c),
			    "method/attribute combination not supported");
	assert_string_equal(ibp_sa_status_str(0x7f00), "a reserved SA code");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_header_against_libibmad),
	    cmocka_unit_test(test_inform_info_bytes),
	    cmocka_unit_test(test_guid_info_record_against_libibmad),
	    cmocka_unit_test(test_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
