/*
 * mad.c - the SMP wire format (see include/ibpart/mad.h): encode and
 * bounds-checked decode of the SMP header and of the subnet management
 * attributes the partition code needs, in network byte order.
 *
 * Offsets are those of IBA vol. 1: the common MAD header 13.4.2, the SMP
 * formats of 14.2.1 (LID-routed and directed-route; 14.2.1.1/14.2.1.2 in
 * the numbering libibmad cites), the attributes 14.2.5.x.  Every
 * accessor is given
 * the buffer length and checks it once up front; after that the fixed
 * offsets below are all inside the checked size.
 */
#include <stdio.h>
#include <string.h>

#include "ibpart/mad.h"

/* ---------------------------------------------------- byte helpers */

static inline void put8(uint8_t *p, unsigned off, uint8_t v)
{
	p[off] = v;
}
static inline void put16(uint8_t *p, unsigned off, uint16_t v)
{
	p[off] = (uint8_t)(v >> 8);
	p[off + 1] = (uint8_t)v;
}
static inline void put24(uint8_t *p, unsigned off, uint32_t v)
{
	p[off] = (uint8_t)(v >> 16);
	p[off + 1] = (uint8_t)(v >> 8);
	p[off + 2] = (uint8_t)v;
}
static inline void put32(uint8_t *p, unsigned off, uint32_t v)
{
	put16(p, off, (uint16_t)(v >> 16));
	put16(p, off + 2, (uint16_t)v);
}
static inline void put64(uint8_t *p, unsigned off, uint64_t v)
{
	put32(p, off, (uint32_t)(v >> 32));
	put32(p, off + 4, (uint32_t)v);
}
static inline uint8_t get8(const uint8_t *p, unsigned off)
{
	return p[off];
}
static inline uint16_t get16(const uint8_t *p, unsigned off)
{
	return (uint16_t)((p[off] << 8) | p[off + 1]);
}
static inline uint32_t get24(const uint8_t *p, unsigned off)
{
	return ((uint32_t)p[off] << 16) | ((uint32_t)p[off + 1] << 8) |
	       p[off + 2];
}
static inline uint32_t get32(const uint8_t *p, unsigned off)
{
	return ((uint32_t)get16(p, off) << 16) | get16(p, off + 2);
}
static inline uint64_t get64(const uint8_t *p, unsigned off)
{
	return ((uint64_t)get32(p, off) << 32) | get32(p, off + 4);
}
/* Two 4-bit fields in one byte, the first in the high nibble. */
static inline uint8_t nib(uint8_t hi, uint8_t lo)
{
	return (uint8_t)(((hi & 0xfu) << 4) | (lo & 0xfu));
}

static int need(size_t len, size_t size, const char *what, ibp_error *err)
{
	if (len < size)
		return ibp_error_set(err, IBP_ESHORT,
				     "%s: buffer of %zu bytes, need %zu", what,
				     len, size);
	return IBP_OK;
}

static int check_args(const void *obj, const void *buf, ibp_error *err)
{
	if (!obj || !buf)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	return IBP_OK;
}

#define CHECK(obj, buf, len, size, what)                                       \
	do {                                                                   \
		int rc_ = check_args(obj, buf, err);                           \
		if (rc_ == IBP_OK)                                             \
			rc_ = need(len, size, what, err);                      \
		if (rc_ != IBP_OK)                                             \
			return rc_;                                            \
	} while (0)

/* ------------------------------------------------------------ SMP */

/* Common MAD header, 13.4.2. */
#define OFF_BASE_VER   0
#define OFF_MGMT_CLASS 1
#define OFF_CLASS_VER  2
#define OFF_METHOD     3
#define OFF_STATUS     4
#define OFF_HOP_PTR    6 /* DR; ClassSpecific in a LID-routed SMP */
#define OFF_HOP_CNT    7
#define OFF_TID	       8
#define OFF_ATTR_ID    16
#define OFF_ATTR_MOD   20
#define OFF_MKEY       24 /* SMP header, 14.2.1 */
#define OFF_DR_SLID    32
#define OFF_DR_DLID    34

static bool smp_class_ok(uint8_t c)
{
	return c == IBP_MGMT_CLASS_SUBN_LID || c == IBP_MGMT_CLASS_SUBN_DR;
}

int ibp_smp_encode(const struct ibp_smp *smp, uint8_t *buf, size_t len,
		   ibp_error *err)
{
	CHECK(smp, buf, len, IBP_MAD_SIZE, "SMP");
	if (!smp_class_ok(smp->mgmt_class))
		return ibp_error_set(err, IBP_EINVAL,
				     "management class 0x%02x is not an SMP",
				     smp->mgmt_class);
	bool dr = ibp_smp_is_dr(smp);
	if (dr && smp->hop_cnt > IBP_SMP_MAX_HOPS)
		return ibp_error_set(err, IBP_EINVAL,
				     "DR SMP hop count %u > %u", smp->hop_cnt,
				     IBP_SMP_MAX_HOPS);
	if (dr && (smp->status & ~IBP_SMP_STATUS_MASK))
		return ibp_error_set(err, IBP_EINVAL,
				     "DR SMP status 0x%04x uses the D bit",
				     smp->status);

	memset(buf, 0, IBP_MAD_SIZE);
	put8(buf, OFF_BASE_VER, smp->base_version);
	put8(buf, OFF_MGMT_CLASS, smp->mgmt_class);
	put8(buf, OFF_CLASS_VER, smp->class_version);
	put8(buf, OFF_METHOD, smp->method);
	if (dr) {
		put16(buf, OFF_STATUS,
		      (uint16_t)(smp->status |
				 (smp->direction ? IBP_SMP_DIRECTION_BIT : 0)));
		put8(buf, OFF_HOP_PTR, smp->hop_ptr);
		put8(buf, OFF_HOP_CNT, smp->hop_cnt);
	} else {
		put16(buf, OFF_STATUS, smp->status);
	}
	put64(buf, OFF_TID, smp->tid);
	put16(buf, OFF_ATTR_ID, smp->attr_id);
	put32(buf, OFF_ATTR_MOD, smp->attr_mod);
	put64(buf, OFF_MKEY, smp->mkey);
	memcpy(buf + IBP_SMP_DATA_OFFSET, smp->data, IBP_SMP_DATA_SIZE);
	if (dr) {
		put16(buf, OFF_DR_SLID, smp->dr_slid);
		put16(buf, OFF_DR_DLID, smp->dr_dlid);
		memcpy(buf + IBP_SMP_PATH_OFFSET, smp->initial_path,
		       IBP_SMP_PATH_SIZE);
		memcpy(buf + IBP_SMP_RPATH_OFFSET, smp->return_path,
		       IBP_SMP_PATH_SIZE);
	}
	return IBP_OK;
}

int ibp_smp_decode(struct ibp_smp *smp, const uint8_t *buf, size_t len,
		   ibp_error *err)
{
	CHECK(smp, buf, len, IBP_MAD_SIZE, "SMP");
	uint8_t cls = get8(buf, OFF_MGMT_CLASS);
	if (!smp_class_ok(cls))
		return ibp_error_set(err, IBP_EINVAL,
				     "management class 0x%02x is not an SMP",
				     cls);
	bool dr = cls == IBP_MGMT_CLASS_SUBN_DR;
	if (dr && get8(buf, OFF_HOP_CNT) > IBP_SMP_MAX_HOPS)
		return ibp_error_set(err, IBP_EINVAL,
				     "DR SMP hop count %u > %u",
				     get8(buf, OFF_HOP_CNT), IBP_SMP_MAX_HOPS);

	memset(smp, 0, sizeof(*smp));
	smp->base_version = get8(buf, OFF_BASE_VER);
	smp->mgmt_class = cls;
	smp->class_version = get8(buf, OFF_CLASS_VER);
	smp->method = get8(buf, OFF_METHOD);
	uint16_t st = get16(buf, OFF_STATUS);
	if (dr) {
		smp->status = st & IBP_SMP_STATUS_MASK;
		smp->direction = (st & IBP_SMP_DIRECTION_BIT) != 0;
		smp->hop_ptr = get8(buf, OFF_HOP_PTR);
		smp->hop_cnt = get8(buf, OFF_HOP_CNT);
		smp->dr_slid = get16(buf, OFF_DR_SLID);
		smp->dr_dlid = get16(buf, OFF_DR_DLID);
		memcpy(smp->initial_path, buf + IBP_SMP_PATH_OFFSET,
		       IBP_SMP_PATH_SIZE);
		memcpy(smp->return_path, buf + IBP_SMP_RPATH_OFFSET,
		       IBP_SMP_PATH_SIZE);
	} else {
		smp->status = st;
	}
	smp->tid = get64(buf, OFF_TID);
	smp->attr_id = get16(buf, OFF_ATTR_ID);
	smp->attr_mod = get32(buf, OFF_ATTR_MOD);
	smp->mkey = get64(buf, OFF_MKEY);
	memcpy(smp->data, buf + IBP_SMP_DATA_OFFSET, IBP_SMP_DATA_SIZE);
	return IBP_OK;
}

int ibp_mad_peek(const uint8_t *buf, size_t len, uint8_t *mgmt_class,
		 uint8_t *method, uint64_t *tid, uint16_t *attr_id)
{
	if (!buf || len < IBP_MAD_HDR_SIZE)
		return IBP_ESHORT;
	if (mgmt_class)
		*mgmt_class = get8(buf, OFF_MGMT_CLASS);
	if (method)
		*method = get8(buf, OFF_METHOD);
	if (tid)
		*tid = get64(buf, OFF_TID);
	if (attr_id)
		*attr_id = get16(buf, OFF_ATTR_ID);
	return IBP_OK;
}

void ibp_smp_init_lid(struct ibp_smp *smp, uint8_t method, uint16_t attr_id,
		      uint32_t attr_mod, uint64_t tid, uint64_t mkey)
{
	memset(smp, 0, sizeof(*smp));
	smp->base_version = IBP_MAD_BASE_VERSION;
	smp->mgmt_class = IBP_MGMT_CLASS_SUBN_LID;
	smp->class_version = IBP_SMP_CLASS_VERSION;
	smp->method = method;
	smp->tid = tid;
	smp->attr_id = attr_id;
	smp->attr_mod = attr_mod;
	smp->mkey = mkey;
}

int ibp_smp_init_dr(struct ibp_smp *smp, uint8_t method, uint16_t attr_id,
		    uint32_t attr_mod, const uint8_t *path, unsigned hop_cnt,
		    uint64_t tid, uint64_t mkey, ibp_error *err)
{
	if (!smp)
		return ibp_error_set(err, IBP_EINVAL, "NULL SMP");
	if (hop_cnt > IBP_SMP_MAX_HOPS)
		return ibp_error_set(err, IBP_EINVAL,
				     "DR path of %u hops (at most %u)", hop_cnt,
				     IBP_SMP_MAX_HOPS);
	if (hop_cnt > 0 && !path)
		return ibp_error_set(err, IBP_EINVAL, "DR path is NULL");
	ibp_smp_init_lid(smp, method, attr_id, attr_mod, tid, mkey);
	smp->mgmt_class = IBP_MGMT_CLASS_SUBN_DR;
	smp->hop_cnt = (uint8_t)hop_cnt;
	smp->dr_slid = IBP_LID_PERMISSIVE;
	smp->dr_dlid = IBP_LID_PERMISSIVE;
	for (unsigned i = 0; i < hop_cnt; i++)
		smp->initial_path[i + 1] = path[i];
	return IBP_OK;
}

int ibp_dr_path_parse(const char *text, uint8_t path[IBP_SMP_MAX_HOPS],
		      unsigned *hop_cnt, ibp_error *err)
{
	if (!text || !path || !hop_cnt)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	unsigned n = 0; /* elements read, the leading 0 included */
	const char *p = text;
	for (;;) {
		if (*p < '0' || *p > '9')
			return ibp_error_set(err, IBP_EINVAL,
					     "DR path \"%s\": expected a port "
					     "number at offset %zu",
					     text, (size_t)(p - text));
		unsigned v = 0;
		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (unsigned)(*p - '0');
			if (v > 255)
				return ibp_error_set(err, IBP_EINVAL,
						     "DR path \"%s\": port "
						     "number over 255",
						     text);
			p++;
		}
		if (n == 0 && v != 0)
			return ibp_error_set(err, IBP_EINVAL,
					     "DR path \"%s\" must start at 0 "
					     "(the local port)",
					     text);
		if (n > IBP_SMP_MAX_HOPS)
			return ibp_error_set(err, IBP_EINVAL,
					     "DR path \"%s\": more than %u "
					     "hops",
					     text, IBP_SMP_MAX_HOPS);
		if (n > 0)
			path[n - 1] = (uint8_t)v;
		n++;
		if (*p == '\0')
			break;
		if (*p != ',')
			return ibp_error_set(err, IBP_EINVAL,
					     "DR path \"%s\": unexpected "
					     "'%c'",
					     text, *p);
		p++;
	}
	*hop_cnt = n - 1;
	return IBP_OK;
}

int ibp_dr_path_format(const uint8_t *path, unsigned hop_cnt, char *buf,
		       size_t len)
{
	size_t total = 0;
	for (unsigned i = 0; i <= hop_cnt; i++) {
		char *dst = NULL;
		size_t room = 0;
		if (buf && total < len) { /* else already cut and terminated */
			dst = buf + total;
			room = len - total;
		}
		int n = snprintf(dst, room, i == 0 ? "%u" : ",%u",
				 i == 0 ? 0u : (unsigned)path[i - 1]);
		if (n < 0)
			return n;
		total += (size_t)n;
	}
	return (int)total;
}

int ibp_smp_make_response(struct ibp_smp *resp, const struct ibp_smp *req,
			  uint16_t status, ibp_error *err)
{
	if (!resp || !req)
		return ibp_error_set(err, IBP_EINVAL, "NULL SMP");
	if (req->method & IBP_METHOD_RESPONSE_BIT)
		return ibp_error_set(err, IBP_EINVAL,
				     "cannot answer a response (method 0x%02x)",
				     req->method);
	if (resp != req)
		*resp = *req;
	resp->method = req->method == IBP_METHOD_TRAP ? IBP_METHOD_TRAP_REPRESS
						      : IBP_METHOD_GET_RESP;
	if (ibp_smp_is_dr(resp)) {
		resp->status = status & IBP_SMP_STATUS_MASK;
		resp->direction = true;
	} else {
		resp->status = status;
	}
	return IBP_OK;
}

uint16_t ibp_smp_check(const struct ibp_smp *smp)
{
	if (smp->base_version != IBP_MAD_BASE_VERSION ||
	    smp->class_version != IBP_SMP_CLASS_VERSION)
		return IBP_MAD_STATUS_BAD_VERSION;
	switch (smp->method) {
	case IBP_METHOD_GET:
	case IBP_METHOD_SET:
	case IBP_METHOD_TRAP_REPRESS:
		return IBP_MAD_STATUS_OK;
	default:
		return IBP_MAD_STATUS_UNSUP_METHOD;
	}
}

const char *ibp_method_name(uint8_t method)
{
	switch (method) {
	case IBP_METHOD_GET:
		return "Get";
	case IBP_METHOD_SET:
		return "Set";
	case IBP_METHOD_SEND:
		return "Send";
	case IBP_METHOD_TRAP:
		return "Trap";
	case IBP_METHOD_REPORT:
		return "Report";
	case IBP_METHOD_TRAP_REPRESS:
		return "TrapRepress";
	case IBP_METHOD_GET_RESP:
		return "GetResp";
	case IBP_METHOD_REPORT_RESP:
		return "ReportResp";
	default:
		return "unknown";
	}
}

const char *ibp_attr_name(uint16_t attr_id)
{
	switch (attr_id) {
	case IBP_ATTR_CLASS_PORT_INFO:
		return "ClassPortInfo";
	case IBP_ATTR_NOTICE:
		return "Notice";
	case IBP_ATTR_NODE_DESC:
		return "NodeDescription";
	case IBP_ATTR_NODE_INFO:
		return "NodeInfo";
	case IBP_ATTR_SWITCH_INFO:
		return "SwitchInfo";
	case IBP_ATTR_GUID_INFO:
		return "GUIDInfo";
	case IBP_ATTR_PORT_INFO:
		return "PortInfo";
	case IBP_ATTR_PKEY_TABLE:
		return "P_KeyTable";
	case IBP_ATTR_SL_VL_TABLE:
		return "SLtoVLMappingTable";
	case IBP_ATTR_VL_ARB_TABLE:
		return "VLArbitrationTable";
	case IBP_ATTR_LINEAR_FT:
		return "LinearForwardingTable";
	case IBP_ATTR_RANDOM_FT:
		return "RandomForwardingTable";
	case IBP_ATTR_MCAST_FT:
		return "MulticastForwardingTable";
	case IBP_ATTR_SM_INFO:
		return "SMInfo";
	case IBP_ATTR_VENDOR_DIAG:
		return "VendorDiag";
	case IBP_ATTR_LED_INFO:
		return "LedInfo";
	default:
		return "unknown";
	}
}

const char *ibp_mad_status_name(uint16_t status)
{
	status &= IBP_SMP_STATUS_MASK;
	if (status == IBP_MAD_STATUS_OK)
		return "success";
	if (status & IBP_MAD_STATUS_BUSY)
		return "busy";
	if (status & IBP_MAD_STATUS_REDIRECT)
		return "redirect required";
	switch (status & IBP_MAD_STATUS_FIELD_MASK) {
	case IBP_MAD_STATUS_BAD_VERSION:
		return "bad base or class version";
	case IBP_MAD_STATUS_UNSUP_METHOD:
		return "method not supported";
	case IBP_MAD_STATUS_UNSUP_METHOD_ATTR:
		return "method/attribute combination not supported";
	case IBP_MAD_STATUS_INVALID_FIELD:
		return "invalid attribute value/modifier";
	case 0:
		return "class-specific error";
	default:
		return "reserved invalid-field code";
	}
}

const char *ibp_mgmt_class_name(uint8_t mgmt_class)
{
	switch (mgmt_class) {
	case IBP_MGMT_CLASS_SUBN_LID:
		return "SubnMgt (LID-routed)";
	case IBP_MGMT_CLASS_SUBN_DR:
		return "SubnMgt (directed route)";
	default:
		return "unknown";
	}
}

/* -------------------------------------------------- NodeDescription */

int ibp_node_desc_encode(const char *desc, uint8_t *buf, size_t len,
			 ibp_error *err)
{
	CHECK(desc, buf, len, IBP_NODE_DESC_SIZE, "NodeDescription");
	size_t n = strnlen(desc, IBP_NODE_DESC_SIZE + 1);
	if (n > IBP_NODE_DESC_SIZE)
		return ibp_error_set(err, IBP_ERANGE,
				     "node description longer than %u bytes",
				     IBP_NODE_DESC_SIZE);
	memset(buf, 0, IBP_NODE_DESC_SIZE);
	memcpy(buf, desc, n);
	return IBP_OK;
}

int ibp_node_desc_decode(char out[IBP_NODE_DESC_SIZE + 1], const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	CHECK(out, buf, len, IBP_NODE_DESC_SIZE, "NodeDescription");
	memcpy(out, buf, IBP_NODE_DESC_SIZE);
	out[IBP_NODE_DESC_SIZE] = '\0';
	return IBP_OK;
}

/* --------------------------------------------------------- NodeInfo */

/* 14.2.5.3 */
int ibp_node_info_encode(const struct ibp_node_info *ni, uint8_t *buf,
			 size_t len, ibp_error *err)
{
	CHECK(ni, buf, len, IBP_NODE_INFO_SIZE, "NodeInfo");
	memset(buf, 0, IBP_NODE_INFO_SIZE);
	put8(buf, 0, ni->base_version);
	put8(buf, 1, ni->class_version);
	put8(buf, 2, ni->node_type);
	put8(buf, 3, ni->num_ports);
	put64(buf, 4, ni->sys_image_guid);
	put64(buf, 12, ni->node_guid);
	put64(buf, 20, ni->port_guid);
	put16(buf, 28, ni->partition_cap);
	put16(buf, 30, ni->device_id);
	put32(buf, 32, ni->revision);
	put8(buf, 36, ni->local_port_num);
	put24(buf, 37, ni->vendor_id);
	return IBP_OK;
}

int ibp_node_info_decode(struct ibp_node_info *ni, const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	CHECK(ni, buf, len, IBP_NODE_INFO_SIZE, "NodeInfo");
	memset(ni, 0, sizeof(*ni));
	ni->base_version = get8(buf, 0);
	ni->class_version = get8(buf, 1);
	ni->node_type = get8(buf, 2);
	ni->num_ports = get8(buf, 3);
	ni->sys_image_guid = get64(buf, 4);
	ni->node_guid = get64(buf, 12);
	ni->port_guid = get64(buf, 20);
	ni->partition_cap = get16(buf, 28);
	ni->device_id = get16(buf, 30);
	ni->revision = get32(buf, 32);
	ni->local_port_num = get8(buf, 36);
	ni->vendor_id = get24(buf, 37);
	return IBP_OK;
}

/* ------------------------------------------------------- SwitchInfo */

/* 14.2.5.4 */
int ibp_switch_info_encode(const struct ibp_switch_info *si, uint8_t *buf,
			   size_t len, ibp_error *err)
{
	CHECK(si, buf, len, IBP_SWITCH_INFO_SIZE, "SwitchInfo");
	memset(buf, 0, IBP_SWITCH_INFO_SIZE);
	put16(buf, 0, si->linear_fdb_cap);
	put16(buf, 2, si->random_fdb_cap);
	put16(buf, 4, si->mcast_fdb_cap);
	put16(buf, 6, si->linear_fdb_top);
	put8(buf, 8, si->default_port);
	put8(buf, 9, si->default_mcast_primary_port);
	put8(buf, 10, si->default_mcast_not_primary_port);
	put8(buf, 11,
	     (uint8_t)(((si->life_time_value & 0x1fu) << 3) |
		       (si->port_state_change ? 0x04u : 0) |
		       (si->optimized_sl2vl & 0x3u)));
	put16(buf, 12, si->lids_per_port);
	put16(buf, 14, si->partition_enforcement_cap);
	put8(buf, 16,
	     (uint8_t)((si->inbound_enforcement_cap ? 0x80u : 0) |
		       (si->outbound_enforcement_cap ? 0x40u : 0) |
		       (si->filter_raw_inbound_cap ? 0x20u : 0) |
		       (si->filter_raw_outbound_cap ? 0x10u : 0) |
		       (si->enhanced_port0 ? 0x08u : 0)));
	put16(buf, 18, si->mcast_fdb_top);
	return IBP_OK;
}

int ibp_switch_info_decode(struct ibp_switch_info *si, const uint8_t *buf,
			   size_t len, ibp_error *err)
{
	CHECK(si, buf, len, IBP_SWITCH_INFO_SIZE, "SwitchInfo");
	memset(si, 0, sizeof(*si));
	si->linear_fdb_cap = get16(buf, 0);
	si->random_fdb_cap = get16(buf, 2);
	si->mcast_fdb_cap = get16(buf, 4);
	si->linear_fdb_top = get16(buf, 6);
	si->default_port = get8(buf, 8);
	si->default_mcast_primary_port = get8(buf, 9);
	si->default_mcast_not_primary_port = get8(buf, 10);
	uint8_t b = get8(buf, 11);
	si->life_time_value = b >> 3;
	si->port_state_change = (b & 0x04u) != 0;
	si->optimized_sl2vl = b & 0x3u;
	si->lids_per_port = get16(buf, 12);
	si->partition_enforcement_cap = get16(buf, 14);
	b = get8(buf, 16);
	si->inbound_enforcement_cap = (b & 0x80u) != 0;
	si->outbound_enforcement_cap = (b & 0x40u) != 0;
	si->filter_raw_inbound_cap = (b & 0x20u) != 0;
	si->filter_raw_outbound_cap = (b & 0x10u) != 0;
	si->enhanced_port0 = (b & 0x08u) != 0;
	si->mcast_fdb_top = get16(buf, 18);
	return IBP_OK;
}

/* --------------------------------------------------------- PortInfo */

/* 14.2.5.6 */
int ibp_port_info_encode(const struct ibp_port_info *pi, uint8_t *buf,
			 size_t len, ibp_error *err)
{
	CHECK(pi, buf, len, IBP_PORT_INFO_SIZE, "PortInfo");
	memset(buf, 0, IBP_PORT_INFO_SIZE);
	put64(buf, 0, pi->mkey);
	put64(buf, 8, pi->gid_prefix);
	put16(buf, 16, pi->lid);
	put16(buf, 18, pi->master_sm_lid);
	put32(buf, 20, pi->capability_mask);
	put16(buf, 24, pi->diag_code);
	put16(buf, 26, pi->mkey_lease_period);
	put8(buf, 28, pi->local_port_num);
	put8(buf, 29, pi->link_width_enabled);
	put8(buf, 30, pi->link_width_supported);
	put8(buf, 31, pi->link_width_active);
	put8(buf, 32, nib(pi->link_speed_supported, pi->link_state));
	put8(buf, 33, nib(pi->port_phys_state, pi->link_down_default_state));
	put8(buf, 34,
	     (uint8_t)(((pi->mkey_protect_bits & 0x3u) << 6) |
		       (pi->lmc & 0x7u)));
	put8(buf, 35, nib(pi->link_speed_active, pi->link_speed_enabled));
	put8(buf, 36, nib(pi->neighbor_mtu, pi->master_sm_sl));
	put8(buf, 37, nib(pi->vl_cap, pi->init_type));
	put8(buf, 38, pi->vl_high_limit);
	put8(buf, 39, pi->vl_arb_high_cap);
	put8(buf, 40, pi->vl_arb_low_cap);
	put8(buf, 41, nib(pi->init_type_reply, pi->mtu_cap));
	put8(buf, 42,
	     (uint8_t)(((pi->vl_stall_count & 0x7u) << 5) |
		       (pi->hoq_life & 0x1fu)));
	put8(buf, 43,
	     (uint8_t)(((pi->operational_vls & 0xfu) << 4) |
		       (pi->partition_enforcement_inbound ? 0x08u : 0) |
		       (pi->partition_enforcement_outbound ? 0x04u : 0) |
		       (pi->filter_raw_inbound ? 0x02u : 0) |
		       (pi->filter_raw_outbound ? 0x01u : 0)));
	put16(buf, 44, pi->mkey_violations);
	put16(buf, 46, pi->pkey_violations);
	put16(buf, 48, pi->qkey_violations);
	put8(buf, 50, pi->guid_cap);
	put8(buf, 51,
	     (uint8_t)((pi->client_reregister ? 0x80u : 0) |
		       ((pi->mcast_pkey_trap_suppression & 0x3u) << 5) |
		       (pi->subnet_timeout & 0x1fu)));
	put8(buf, 52, pi->resp_time_value & 0x1fu);
	put8(buf, 53, nib(pi->local_phy_errors, pi->overrun_errors));
	put16(buf, 54, pi->max_credit_hint);
	put24(buf, 57, pi->link_round_trip_latency);
	put16(buf, 60, pi->capability_mask2);
	put8(buf, 62,
	     nib(pi->link_speed_ext_active, pi->link_speed_ext_supported));
	put8(buf, 63, pi->link_speed_ext_enabled & 0x1fu);
	return IBP_OK;
}

int ibp_port_info_decode(struct ibp_port_info *pi, const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	CHECK(pi, buf, len, IBP_PORT_INFO_SIZE, "PortInfo");
	memset(pi, 0, sizeof(*pi));
	pi->mkey = get64(buf, 0);
	pi->gid_prefix = get64(buf, 8);
	pi->lid = get16(buf, 16);
	pi->master_sm_lid = get16(buf, 18);
	pi->capability_mask = get32(buf, 20);
	pi->diag_code = get16(buf, 24);
	pi->mkey_lease_period = get16(buf, 26);
	pi->local_port_num = get8(buf, 28);
	pi->link_width_enabled = get8(buf, 29);
	pi->link_width_supported = get8(buf, 30);
	pi->link_width_active = get8(buf, 31);
	uint8_t b = get8(buf, 32);
	pi->link_speed_supported = b >> 4;
	pi->link_state = b & 0xfu;
	b = get8(buf, 33);
	pi->port_phys_state = b >> 4;
	pi->link_down_default_state = b & 0xfu;
	b = get8(buf, 34);
	pi->mkey_protect_bits = b >> 6;
	pi->lmc = b & 0x7u;
	b = get8(buf, 35);
	pi->link_speed_active = b >> 4;
	pi->link_speed_enabled = b & 0xfu;
	b = get8(buf, 36);
	pi->neighbor_mtu = b >> 4;
	pi->master_sm_sl = b & 0xfu;
	b = get8(buf, 37);
	pi->vl_cap = b >> 4;
	pi->init_type = b & 0xfu;
	pi->vl_high_limit = get8(buf, 38);
	pi->vl_arb_high_cap = get8(buf, 39);
	pi->vl_arb_low_cap = get8(buf, 40);
	b = get8(buf, 41);
	pi->init_type_reply = b >> 4;
	pi->mtu_cap = b & 0xfu;
	b = get8(buf, 42);
	pi->vl_stall_count = b >> 5;
	pi->hoq_life = b & 0x1fu;
	b = get8(buf, 43);
	pi->operational_vls = b >> 4;
	pi->partition_enforcement_inbound = (b & 0x08u) != 0;
	pi->partition_enforcement_outbound = (b & 0x04u) != 0;
	pi->filter_raw_inbound = (b & 0x02u) != 0;
	pi->filter_raw_outbound = (b & 0x01u) != 0;
	pi->mkey_violations = get16(buf, 44);
	pi->pkey_violations = get16(buf, 46);
	pi->qkey_violations = get16(buf, 48);
	pi->guid_cap = get8(buf, 50);
	b = get8(buf, 51);
	pi->client_reregister = (b & 0x80u) != 0;
	pi->mcast_pkey_trap_suppression = (b >> 5) & 0x3u;
	pi->subnet_timeout = b & 0x1fu;
	pi->resp_time_value = get8(buf, 52) & 0x1fu;
	b = get8(buf, 53);
	pi->local_phy_errors = b >> 4;
	pi->overrun_errors = b & 0xfu;
	pi->max_credit_hint = get16(buf, 54);
	pi->link_round_trip_latency = get24(buf, 57);
	pi->capability_mask2 = get16(buf, 60);
	b = get8(buf, 62);
	pi->link_speed_ext_active = b >> 4;
	pi->link_speed_ext_supported = b & 0xfu;
	pi->link_speed_ext_enabled = get8(buf, 63) & 0x1fu;
	return IBP_OK;
}

/* ------------------------------------------------------- P_KeyTable */

/* 14.2.5.7: 32 P_Keys, entry 0 first. */
int ibp_pkey_block_encode(const uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  uint8_t *buf, size_t len, ibp_error *err)
{
	CHECK(pkeys, buf, len, IBP_PKEY_BLOCK_BYTES, "P_KeyTable block");
	for (unsigned i = 0; i < IBP_PKEY_BLOCK_ENTRIES; i++)
		put16(buf, 2 * i, pkeys[i]);
	return IBP_OK;
}

int ibp_pkey_block_decode(uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  const uint8_t *buf, size_t len, ibp_error *err)
{
	CHECK(pkeys, buf, len, IBP_PKEY_BLOCK_BYTES, "P_KeyTable block");
	for (unsigned i = 0; i < IBP_PKEY_BLOCK_ENTRIES; i++)
		pkeys[i] = get16(buf, 2 * i);
	return IBP_OK;
}

/* ----------------------------------------------------------- Notice */

/* 14.2.5.1 */
int ibp_notice_encode(const struct ibp_notice *n, uint8_t *buf, size_t len,
		      ibp_error *err)
{
	CHECK(n, buf, len, IBP_NOTICE_SMP_SIZE, "Notice");
	memset(buf, 0, IBP_NOTICE_SMP_SIZE);
	put8(buf, 0,
	     (uint8_t)((n->is_generic ? 0x80u : 0) | (n->type & 0x7fu)));
	put24(buf, 1, n->producer_type);
	put16(buf, 4, n->trap_num);
	put16(buf, 6, n->issuer_lid);
	put16(buf, 8,
	      (uint16_t)((n->toggle ? 0x8000u : 0) | (n->count & 0x7fffu)));
	memcpy(buf + IBP_NOTICE_DETAILS_OFFSET, n->data_details,
	       IBP_NOTICE_DETAILS_SIZE);
	if (len >= IBP_NOTICE_SIZE)
		memcpy(buf + IBP_NOTICE_SMP_SIZE, n->issuer_gid, 16);
	return IBP_OK;
}

int ibp_notice_decode(struct ibp_notice *n, const uint8_t *buf, size_t len,
		      ibp_error *err)
{
	CHECK(n, buf, len, IBP_NOTICE_SMP_SIZE, "Notice");
	memset(n, 0, sizeof(*n));
	uint8_t b = get8(buf, 0);
	n->is_generic = (b & 0x80u) != 0;
	n->type = b & 0x7fu;
	n->producer_type = get24(buf, 1);
	n->trap_num = get16(buf, 4);
	n->issuer_lid = get16(buf, 6);
	uint16_t w = get16(buf, 8);
	n->toggle = (w & 0x8000u) != 0;
	n->count = w & 0x7fffu;
	memcpy(n->data_details, buf + IBP_NOTICE_DETAILS_OFFSET,
	       IBP_NOTICE_DETAILS_SIZE);
	if (len >= IBP_NOTICE_SIZE)
		memcpy(n->issuer_gid, buf + IBP_NOTICE_SMP_SIZE, 16);
	return IBP_OK;
}

void ibp_notice_init_trap(struct ibp_notice *n, uint8_t type,
			  uint32_t producer_type, uint16_t trap_num,
			  uint16_t issuer_lid)
{
	memset(n, 0, sizeof(*n));
	n->is_generic = true;
	n->type = type & 0x7fu;
	n->producer_type = producer_type & 0xffffffu;
	n->trap_num = trap_num;
	n->issuer_lid = issuer_lid;
}

/*
 * Trap 257/258 DataDetails (14.2.5.1; offsets below are within
 * DataDetails): 0 reserved(16), 2 LIDADDR1, 4 LIDADDR2, 6 Key(32),
 * 10 SL(4) reserved(4) QP1(24), 14 reserved(8) QP2(24), 18 GIDADDR1,
 * 34 GIDADDR2.
 */
void ibp_trap_257_to_details(const struct ibp_trap_257 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	memset(details, 0, IBP_NOTICE_DETAILS_SIZE);
	put16(details, 2, t->lid1);
	put16(details, 4, t->lid2);
	put32(details, 6, t->key);
	put8(details, 10, (uint8_t)((t->sl & 0xfu) << 4));
	put24(details, 11, t->qp1);
	put24(details, 15, t->qp2);
	memcpy(details + 18, t->gid1, 16);
	memcpy(details + 34, t->gid2, 16);
}

void ibp_trap_257_from_details(struct ibp_trap_257 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	memset(t, 0, sizeof(*t));
	t->lid1 = get16(details, 2);
	t->lid2 = get16(details, 4);
	t->key = get32(details, 6);
	t->sl = get8(details, 10) >> 4;
	t->qp1 = get24(details, 11);
	t->qp2 = get24(details, 15);
	memcpy(t->gid1, details + 18, 16);
	memcpy(t->gid2, details + 34, 16);
}

/*
 * Trap 259 DataDetails (14.2.5.1): 0 DataValid(16),
 * 2 LIDADDR1, 4 LIDADDR2, 6 PKey(16), 8 SL(4) reserved(4) QP1(24),
 * 12 reserved(8) QP2(24), 16 GIDADDR1, 32 GIDADDR2, 48 SWLIDADDR,
 * 50 PortNo.
 */
void ibp_trap_259_to_details(const struct ibp_trap_259 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	memset(details, 0, IBP_NOTICE_DETAILS_SIZE);
	put16(details, 0, t->data_valid);
	put16(details, 2, t->lid1);
	put16(details, 4, t->lid2);
	put16(details, 6, t->pkey);
	put8(details, 8, (uint8_t)((t->sl & 0xfu) << 4));
	put24(details, 9, t->qp1);
	put24(details, 13, t->qp2);
	memcpy(details + 16, t->gid1, 16);
	memcpy(details + 32, t->gid2, 16);
	put16(details, 48, t->sw_lid);
	put8(details, 50, t->port);
}

void ibp_trap_259_from_details(struct ibp_trap_259 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	memset(t, 0, sizeof(*t));
	t->data_valid = get16(details, 0);
	t->lid1 = get16(details, 2);
	t->lid2 = get16(details, 4);
	t->pkey = get16(details, 6);
	t->sl = get8(details, 8) >> 4;
	t->qp1 = get24(details, 9);
	t->qp2 = get24(details, 13);
	memcpy(t->gid1, details + 16, 16);
	memcpy(t->gid2, details + 32, 16);
	t->sw_lid = get16(details, 48);
	t->port = get8(details, 50);
}
