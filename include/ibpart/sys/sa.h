/*
 * sa.h - the Subnet Administration wire format (module wire,
 * src/wire/sa.c): the SA MAD of management class 0x03 (IBA vol. 1,
 * 15.2.1.1) and the InformInfo attribute (13.4.8.3) a client sends the
 * SA in a SubnAdmSet to subscribe to (or unsubscribe from) the traps it
 * forwards as SubnAdmReport(Notice) (13.4.8.2, 15.2.5.12), which the
 * subscriber answers with SubnAdmReportResp; and the GUIDInfoRecord
 * (15.2.5.18) through which hosts register their virtual functions'
 * alias GUIDs with the SM (SubnAdmSet) and anyone reads the GUIDInfo
 * tables the SM keeps (SubnAdmGet/GetTable).
 *
 * An SA MAD is the common MAD header (13.4.2, 24 bytes), the RMPP
 * header (13.6.2.1, 12 bytes), the SA header - SM_Key (64 bits),
 * AttributeOffset, ComponentMask - and 200 bytes of data at offset 56.
 * It is a GMP on QP1 (Q_Key 0x80010000), P_Key checked like PerfMgt's.
 * The field offsets are checked against libibmad's (IB_SA_*_F) and
 * rdma-core's struct umad_sa_packet in tests/unit/test_sa.c; InformInfo,
 * which neither has, against byte images written from 13.4.8.3 there and
 * against the real OpenSM in tests/interop/test_live_subscribe.sh.
 *
 * Like mad.h: host-order structs, every coder takes the buffer length
 * and never reads or writes past it (IBP_ESHORT), nothing allocates, no
 * state: safe from any thread.
 */
#ifndef IBPART_SA_H
#define IBPART_SA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_MGMT_CLASS_SA    0x03u /* 13.4.4 */
#define IBP_SA_CLASS_VERSION 2u
#define IBP_SA_DATA_OFFSET   56u /* 15.2.1.1 */
#define IBP_SA_DATA_SIZE     200u

/* SA methods (15.2.2.1) beyond the common ones. */
enum ibp_sa_method {
	IBP_SA_METHOD_GET = 0x01,
	IBP_SA_METHOD_SET = 0x02,
	IBP_SA_METHOD_GET_RESP = 0x81,
	IBP_SA_METHOD_GET_TABLE = 0x12,
	IBP_SA_METHOD_GET_TABLE_RESP = 0x92,
	IBP_SA_METHOD_REPORT = 0x06,
	IBP_SA_METHOD_REPORT_RESP = 0x86,
};

/* SA attribute IDs (15.2.5). */
enum ibp_sa_attr {
	IBP_SA_ATTR_NOTICE = 0x0002,
	IBP_SA_ATTR_INFORM_INFO = 0x0003,
	IBP_SA_ATTR_GUID_INFO_RECORD = 0x0030,
};

/* The header of an SA MAD (13.4.2, 13.6.2.1, 15.2.1.1); the data is
 * separate. */
struct ibp_sa_mad {
	uint8_t base_version;  /* 1 */
	uint8_t mgmt_class;    /* IBP_MGMT_CLASS_SA */
	uint8_t class_version; /* 2 */
	uint8_t method;	       /* with the response bit */
	uint16_t status;       /* 13.4.7 + 15.2.1.1 (ibp_sa_status_str) */
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	uint8_t rmpp_version;
	uint8_t rmpp_type;
	uint8_t rmpp_resp_time; /* 5 bits */
	uint8_t rmpp_flags;	/* 3 bits */
	uint8_t rmpp_status;
	uint32_t rmpp_data1;
	uint32_t rmpp_data2;
	uint64_t sm_key; /* 15.2.1.1: the SA trusts a request with it */
	uint16_t attr_offset;
	uint64_t comp_mask;
};

/* A request: versions 1 and 2, class 0x03, status 0, the SM_Key, the 256
 * bytes of buf zeroed and the header written; the data
 * (IBP_SA_DATA_OFFSET) is then the caller's.  IBP_ESHORT when len < 256. */
int ibp_sa_mad_init(uint8_t *buf, size_t len, uint8_t method, uint16_t attr_id,
		    uint64_t tid, uint64_t sm_key, ibp_error *err);
/* The header of buf into *h / h into buf's first 56 bytes.  IBP_ESHORT
 * when len < 56. */
int ibp_sa_mad_decode(struct ibp_sa_mad *h, const uint8_t *buf, size_t len,
		      ibp_error *err);
int ibp_sa_mad_encode(const struct ibp_sa_mad *h, uint8_t *buf, size_t len,
		      ibp_error *err);
/* What an SA status says, in the spec's words: "" for 0, else e.g.
 * "ERR_REQ_INVALID" (the class-specific code, bits 8-14, 15.2.1.1) or
 * "invalid field" (the common one, bits 2-4, 13.4.7).  Static text. */
const char *ibp_sa_status_str(uint16_t status);

/* InformInfo (13.4.8.3), 36 bytes.  The generic and the vendor forms
 * share the layout: TrapNumber is DeviceID and ProducerType VendorID
 * when is_generic is 0. */
#define IBP_INFORM_INFO_SIZE 36u
struct ibp_inform_info {
	uint8_t gid[16];	  /* the issuer to match; 0: by LID range */
	uint16_t lid_range_begin; /* 0xffff: every issuer */
	uint16_t lid_range_end;
	uint8_t is_generic;	 /* 1: generic (a trap number), 0: vendor */
	uint8_t subscribe;	 /* 1 subscribe, 0 unsubscribe */
	uint16_t type;		 /* 0xffff: any */
	uint16_t trap_num;	 /* 0xffff: any (DeviceID) */
	uint32_t qpn;		 /* 24 bits: where Reports go */
	uint8_t resp_time_value; /* 5 bits */
	uint32_t producer_type;	 /* 24 bits, 0xffffff: any (VendorID) */
};
/* A generic subscription (subscribe true) or its end to trap trap_num
 * from any issuer (GID 0, LIDRangeBegin 0xffff), any type and producer,
 * Reports to QP1 (a GMP agent's). */
void ibp_inform_info_init_trap(struct ibp_inform_info *ii, uint16_t trap_num,
			       bool subscribe);
/* 36 bytes at buf: IBP_ESHORT when len < 36. */
int ibp_inform_info_encode(const struct ibp_inform_info *ii, uint8_t *buf,
			   size_t len, ibp_error *err);
int ibp_inform_info_decode(struct ibp_inform_info *ii, const uint8_t *buf,
			   size_t len, ibp_error *err);

/* GUIDInfoRecord (15.2.5.18), 72 bytes: the GUIDInfo block block_num
 * (8 GUIDs, 14.2.5.5) of the port at LID lid, as the SA keeps it.  Its
 * AttributeOffset in a table is 9 (8-byte words).  ComponentMask bits:
 * LID 0, BlockNum 1, the two reserved fields 2 and 3, GUID i 4 + i. */
#define IBP_GUID_INFO_RECORD_SIZE 72u
#define IBP_GIR_COMP_LID	  (1ull << 0)
#define IBP_GIR_COMP_BLOCK	  (1ull << 1)
#define IBP_GIR_COMP_GUID(i)	  (1ull << (4 + (i)))
struct ibp_guid_info_record {
	uint16_t lid;
	uint8_t block_num;
	uint64_t guid[8]; /* entry block_num * 8 + i of the port's table */
};
/* 72 bytes at buf: IBP_ESHORT when len < 72. */
int ibp_guid_info_record_encode(const struct ibp_guid_info_record *r,
				uint8_t *buf, size_t len, ibp_error *err);
int ibp_guid_info_record_decode(struct ibp_guid_info_record *r,
				const uint8_t *buf, size_t len, ibp_error *err);

IBP_END_DECLS
#endif
