/*
 * sa.c - the SA wire format (see include/ibpart/sys/sa.h): the header of a
 * class 0x03 MAD and the InformInfo attribute, each one table of rows
 * transcribed from IBA vol. 1 (13.4.2, 13.6.2.1, 15.2.1.1, 13.4.8.3) and
 * expanded into its coders by IBP_LAYOUT_DEFINE (wire/mad_layout.h), as
 * mad.c and perfmgt.c do.  Reserved bits are rows too, so a table covers
 * its bytes.
 */
#include <string.h>

#include "ibpart/sys/sa.h"
#include "ibpart/sys/transport.h" /* IBP_MAD_SIZE */
#include "wire/mad_layout.h"

/* 13.4.2, then the RMPP header (13.6.2.1) and the SA header (15.2.1.1). */
#define SA_HDR_ROWS(F, A, R, RB)                                               \
	IBP_GMP_HDR_ROWS(F, R) /* ClassSpecific 0 in SA */                     \
	F(rmpp_version, "RMPPVersion", 24, 0, 8)                               \
	F(rmpp_type, "RMPPType", 25, 0, 8)                                     \
	F(rmpp_resp_time, "RRespTime", 26, 0, 5)                               \
	F(rmpp_flags, "RMPPFlags", 26, 5, 3)                                   \
	F(rmpp_status, "RMPPStatus", 27, 0, 8)                                 \
	F(rmpp_data1, "Data1", 28, 0, 32)                                      \
	F(rmpp_data2, "Data2", 32, 0, 32)                                      \
	F(sm_key, "SM_Key", 36, 0, 64)                                         \
	F(attr_offset, "AttributeOffset", 44, 0, 16)                           \
	R(46, 0, 16)                                                           \
	F(comp_mask, "ComponentMask", 48, 0, 64)
#define IBP_HOST struct ibp_sa_mad
IBP_LAYOUT_DEFINE(sa_hdr, SA_HDR_ROWS, "SA MAD header", "IBA vol. 1 15.2.1.1",
		  IBP_SA_DATA_OFFSET, IBP_SA_DATA_OFFSET)
#undef IBP_HOST

/* 13.4.8.3: InformInfo (the generic form's names; the vendor form has
 * DeviceID and VendorID in the same bits). */
#define II_ROWS(F, A, R, RB)                                                   \
	A(gid, "GID", 0, 8)                                                    \
	F(lid_range_begin, "LIDRangeBegin", 16, 0, 16)                         \
	F(lid_range_end, "LIDRangeEnd", 18, 0, 16)                             \
	R(20, 0, 16)                                                           \
	F(is_generic, "IsGeneric", 22, 0, 8)                                   \
	F(subscribe, "Subscribe", 23, 0, 8)                                    \
	F(type, "Type", 24, 0, 16)                                             \
	F(trap_num, "TrapNumber", 26, 0, 16)                                   \
	F(qpn, "QPN", 28, 0, 24)                                               \
	R(31, 0, 3)                                                            \
	F(resp_time_value, "RespTimeValue", 31, 3, 5)                          \
	R(32, 0, 8)                                                            \
	F(producer_type, "ProducerType", 33, 0, 24)
#define IBP_HOST struct ibp_inform_info
IBP_LAYOUT_DEFINE(inform_info, II_ROWS, "InformInfo", "IBA vol. 1 13.4.8.3",
		  IBP_INFORM_INFO_SIZE, IBP_INFORM_INFO_SIZE)
#undef IBP_HOST

/* 15.2.5.18: GUIDInfoRecord, the GUIDInfo block (14.2.5.5) at 8. */
#define GIR_ROWS(F, A, R, RB)                                                  \
	F(lid, "LID", 0, 0, 16)                                                \
	F(block_num, "BlockNum", 2, 0, 8)                                      \
	R(3, 0, 8)                                                             \
	R(4, 0, 32)                                                            \
	A(guid, "GUIDInfo", 8, 64)
#define IBP_HOST struct ibp_guid_info_record
IBP_LAYOUT_DEFINE(guid_info_record, GIR_ROWS, "GUIDInfoRecord",
		  "IBA vol. 1 15.2.5.18", IBP_GUID_INFO_RECORD_SIZE,
		  IBP_GUID_INFO_RECORD_SIZE)
#undef IBP_HOST

const struct ibp_layout *const ibp_sa_layouts[] = {
    &sa_hdr_layout,
    &inform_info_layout,
    &guid_info_record_layout,
};
const size_t ibp_sa_nlayouts =
    sizeof(ibp_sa_layouts) / sizeof(ibp_sa_layouts[0]);

int ibp_sa_mad_init(uint8_t *buf, size_t len, uint8_t method, uint16_t attr_id,
		    uint64_t tid, uint64_t sm_key, ibp_error *err)
{
	if (!buf)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	if (len < IBP_MAD_SIZE)
		return ibp_error_set(err, IBP_ESHORT,
				     "SA MAD: buffer of %zu bytes, need %u",
				     len, IBP_MAD_SIZE);
	memset(buf, 0, IBP_MAD_SIZE);
	struct ibp_sa_mad h = {.base_version = 1,
			       .mgmt_class = IBP_MGMT_CLASS_SA,
			       .class_version = IBP_SA_CLASS_VERSION,
			       .method = method,
			       .tid = tid,
			       .attr_id = attr_id,
			       .sm_key = sm_key};
	return sa_hdr_encode(&h, buf, len, err);
}

int ibp_sa_mad_decode(struct ibp_sa_mad *h, const uint8_t *buf, size_t len,
		      ibp_error *err)
{
	return sa_hdr_decode(h, buf, len, err);
}

int ibp_sa_mad_encode(const struct ibp_sa_mad *h, uint8_t *buf, size_t len,
		      ibp_error *err)
{
	return sa_hdr_encode(h, buf, len, err);
}

const char *ibp_sa_status_str(uint16_t status)
{
	/* 15.2.1.1: the SA's codes in bits 8-14 */
	static const char *const sa[] = {
	    "",
	    "ERR_NO_RESOURCES",
	    "ERR_REQ_INVALID",
	    "ERR_NO_RECORDS",
	    "ERR_TOO_MANY_RECORDS",
	    "ERR_REQ_INVALID_GID",
	    "ERR_REQ_INSUFFICIENT_COMPONENTS",
	    "ERR_REQ_DENIED",
	};
	/* 13.4.7: the common codes in bits 2-4 */
	static const char *const common[] = {
	    "",
	    "bad base or class version",
	    "method not supported",
	    "method/attribute combination not supported",
	    "reserved code 4",
	    "reserved code 5",
	    "reserved code 6",
	    "invalid attribute or attribute modifier value",
	};
	unsigned c = (status >> 8) & 0x7f;
	if (c)
		return c < sizeof(sa) / sizeof(sa[0]) ? sa[c]
						      : "a reserved SA code";
	c = (status >> 2) & 7;
	if (c)
		return common[c];
	if (status & 1)
		return "busy";
	if (status & 2)
		return "redirect";
	return "";
}

void ibp_inform_info_init_trap(struct ibp_inform_info *ii, uint16_t trap_num,
			       bool subscribe)
{
	memset(ii, 0, sizeof(*ii));
	ii->lid_range_begin = 0xffff;
	ii->is_generic = 1;
	ii->subscribe = subscribe ? 1 : 0;
	ii->type = 0xffff;
	ii->trap_num = trap_num;
	ii->qpn = 1;
	ii->producer_type = 0xffffff;
}

int ibp_inform_info_encode(const struct ibp_inform_info *ii, uint8_t *buf,
			   size_t len, ibp_error *err)
{
	return inform_info_encode(ii, buf, len, err);
}

int ibp_inform_info_decode(struct ibp_inform_info *ii, const uint8_t *buf,
			   size_t len, ibp_error *err)
{
	return inform_info_decode(ii, buf, len, err);
}

int ibp_guid_info_record_encode(const struct ibp_guid_info_record *r,
				uint8_t *buf, size_t len, ibp_error *err)
{
	return guid_info_record_encode(r, buf, len, err);
}

int ibp_guid_info_record_decode(struct ibp_guid_info_record *r,
				const uint8_t *buf, size_t len, ibp_error *err)
{
	return guid_info_record_decode(r, buf, len, err);
}
