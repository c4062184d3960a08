/*
 * mad.c - the SMP wire format (see include/ibpart/mad.h): encode and
 * bounds-checked decode of the SMP header and of the subnet management
 * attributes the partition code needs, in network byte order.
 *
 * Table-driven.  Every layout (both SMP formats, each attribute, the trap
 * 257/258 and 259 DataDetails) is a table of rows {IBA name, byte
 * offset, bit offset, bit width, count, host member}, transcribed from
 * IBA vol. 1 (release 1.3): the common MAD header 13.4.2, the SMP
 * formats of 14.2.1 (LID-routed and directed-route; 14.2.1.1/14.2.1.2 in
 * the numbering libibmad cites), the attributes 14.2.5.x named at each
 * table.  Reserved bits are rows too, so each table covers its layout bit
 * for bit (tests/unit/test_mad_layout.c checks that, and that every row
 * fits its member).  One generic big-endian bit-field get/put
 * (bits_get/bits_put) moves every field; ibp_layout_encode/_decode walk a
 * table, and the public encoders and decoders are those walks plus the
 * checks that are not layout (SMP class, hop count, D bit, description
 * length).  The bit numbering is IBA's; see src/wire/mad_layout.h.
 *
 * Why our own tables and not libibmad's mad_get_field/mad_set_field,
 * although libibmad is linked (mad_print.c uses its dumpers):
 *  - tests/unit/test_mad.c checks every field of ours against libibmad's
 *    field set; encoding with libibmad would make that check compare
 *    libibmad with itself and leave the layout unchecked;
 *  - its accessors take no buffer length, and mad.h promises never to
 *    touch a byte past len (libibmad also wants non-const buffers and
 *    separate calls for fields over 32 bits and for byte arrays);
 *  - it covers the header, NodeInfo, PortInfo, SwitchInfo and the Notice
 *    header, but has no rows for the trap 257/259 DataDetails nor for the
 *    P_KeyTable entries, so half the layouts would still be hand-written.
 * Walking a table costs a few nanoseconds per field, nothing against a
 * MAD round trip.
 */
#include <stdio.h>
#include <string.h>

#include "ibpart/mad.h"
#include "wire/mad_layout.h"

/* ------------------------------------------- the generic bit codec */

/* The field's bits, MSB first: the buffer is known to hold them. */
static uint64_t bits_get(const uint8_t *buf, size_t bit_off, unsigned width)
{
	const uint8_t *p = buf + bit_off / 8;
	unsigned bit = (unsigned)(bit_off % 8);
	uint64_t v = 0;
	while (width > 0) { /* one byte (or the part of it in the field) */
		unsigned avail = 8 - bit;
		unsigned take = avail < width ? avail : width;
		unsigned shift = avail - take;
		v = (v << take) |
		    ((unsigned)(*p >> shift) & ((1u << take) - 1));
		width -= take;
		bit = 0;
		p++;
	}
	return v;
}

/* The low width bits of v into the field (the higher ones are never
 * read: masking), every other bit kept. */
static void bits_put(uint8_t *buf, size_t bit_off, unsigned width, uint64_t v)
{
	uint8_t *p = buf + bit_off / 8;
	unsigned bit = (unsigned)(bit_off % 8);
	while (width > 0) {
		unsigned avail = 8 - bit;
		unsigned take = avail < width ? avail : width;
		unsigned shift = avail - take;
		unsigned keep = ~(((1u << take) - 1) << shift);
		unsigned chunk =
		    (unsigned)(v >> (width - take)) & ((1u << take) - 1);
		*p = (uint8_t)((*p & keep) | (chunk << shift));
		width -= take;
		bit = 0;
		p++;
	}
}

static int bits_check(const void *buf, size_t len, size_t bit_off,
		      unsigned width)
{
	if (!buf || width == 0 || width > IBP_BITS_MAX)
		return IBP_EINVAL;
	if (bit_off / 8 >= len)
		return IBP_ESHORT;
	/* whole bytes from the field's first one; 9 always hold 64 bits */
	size_t room = len - bit_off / 8;
	if (room < 9 && room * 8 - bit_off % 8 < width)
		return IBP_ESHORT;
	return IBP_OK;
}

int ibp_bits_get(const uint8_t *buf, size_t len, size_t bit_off, unsigned width,
		 uint64_t *out)
{
	int rc = bits_check(buf, len, bit_off, width);
	if (rc == IBP_OK && !out)
		rc = IBP_EINVAL;
	if (rc == IBP_OK)
		*out = bits_get(buf, bit_off, width);
	return rc;
}

int ibp_bits_put(uint8_t *buf, size_t len, size_t bit_off, unsigned width,
		 uint64_t v)
{
	int rc = bits_check(buf, len, bit_off, width);
	if (rc == IBP_OK)
		bits_put(buf, bit_off, width, v);
	return rc;
}

/* ------------------------------------------------- table walking */

static uint64_t host_get(const uint8_t *p, const struct ibp_field *f)
{
	if (f->host_bool) {
		bool b;
		memcpy(&b, p, sizeof(b));
		return b;
	}
	switch (f->host_size) {
	case 1:
		return *p;
	case 2: {
		uint16_t x;
		memcpy(&x, p, sizeof(x));
		return x;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, p, sizeof(x));
		return x;
	}
	default: {
		uint64_t x;
		memcpy(&x, p, sizeof(x));
		return x;
	}
	}
}

static void host_put(uint8_t *p, const struct ibp_field *f, uint64_t v)
{
	if (f->host_bool) {
		bool b = v != 0;
		memcpy(p, &b, sizeof(b));
		return;
	}
	switch (f->host_size) {
	case 1:
		*p = (uint8_t)v;
		break;
	case 2: {
		uint16_t x = (uint16_t)v;
		memcpy(p, &x, sizeof(x));
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;
		memcpy(p, &x, sizeof(x));
		break;
	}
	default:
		memcpy(p, &v, sizeof(v));
	}
}

/* Byte arrays (SMP data, paths, GIDs, DataDetails) as one memcpy. */
static bool is_byte_array(const struct ibp_field *f)
{
	return f->width == 8 && f->bit == 0 && f->host_size == 1 &&
	       !f->host_bool;
}

uint64_t ibp_field_get(const struct ibp_field *f, const uint8_t *buf,
		       unsigned i)
{
	return bits_get(buf, ibp_field_bit_off(f) + (size_t)i * f->width,
			f->width);
}

static int layout_args(const struct ibp_layout *l, const void *obj,
		       const void *buf, size_t len, ibp_error *err)
{
	if (!l || !obj || !buf)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	if (len < l->min_size)
		return ibp_error_set(err, IBP_ESHORT,
				     "%s: buffer of %zu bytes, need %zu",
				     l->name, len, l->min_size);
	return IBP_OK;
}

int ibp_layout_encode(const struct ibp_layout *l, const void *obj, uint8_t *buf,
		      size_t len, ibp_error *err)
{
	int rc = layout_args(l, obj, buf, len, err);
	if (rc != IBP_OK)
		return rc;
	size_t zero = l->min_size; /* reserved bits and absent fields: 0 */
	for (size_t k = 0; k < l->nfields; k++) {
		size_t end = ibp_field_byte_end(&l->fields[k]);
		if (end <= len && end > zero)
			zero = end;
	}
	memset(buf, 0, zero);
	for (size_t k = 0; k < l->nfields; k++) {
		const struct ibp_field *f = &l->fields[k];
		if (f->host_size == 0 || ibp_field_byte_end(f) > len)
			continue;
		const uint8_t *h = (const uint8_t *)obj + f->host_off;
		if (is_byte_array(f)) {
			memcpy(buf + f->byte, h, f->count);
			continue;
		}
		size_t off = ibp_field_bit_off(f);
		for (unsigned i = 0; i < f->count; i++)
			bits_put(buf, off + (size_t)i * f->width, f->width,
				 host_get(h + (size_t)i * f->host_size, f));
	}
	return IBP_OK;
}

int ibp_layout_decode(const struct ibp_layout *l, void *obj, const uint8_t *buf,
		      size_t len, ibp_error *err)
{
	int rc = layout_args(l, obj, buf, len, err);
	if (rc != IBP_OK)
		return rc;
	memset(obj, 0, l->host_size);
	for (size_t k = 0; k < l->nfields; k++) {
		const struct ibp_field *f = &l->fields[k];
		if (f->host_size == 0 || ibp_field_byte_end(f) > len)
			continue;
		uint8_t *h = (uint8_t *)obj + f->host_off;
		if (is_byte_array(f)) {
			memcpy(h, buf + f->byte, f->count);
			continue;
		}
		for (unsigned i = 0; i < f->count; i++)
			host_put(h + (size_t)i * f->host_size, f,
				 ibp_field_get(f, buf, i));
	}
	return IBP_OK;
}

/* ------------------------------------------------------- the tables */

/*
 * Row builders.  The widths are checked at compile time against the
 * member: a field wider than its member, a bit offset over 7, or a bool
 * member for a field wider than one bit does not build.
 */
#define BUILD_CHECK(c) (0 * sizeof(char[(c) ? 1 : -1]))
#define MEMBER(T, m)   (((T *)0)->m)
#define IS_BOOL(T, m)  _Generic(MEMBER(T, m), bool : 1, default : 0)

/* A scalar member. */
#define FLD(T, m, nm, by, bi, w)                                               \
	{                                                                      \
		.name = nm, .byte = by, .bit = bi, .width = w, .count = 1,     \
		.host_off = offsetof(T, m),                                    \
		.host_size =                                                   \
		    sizeof(MEMBER(T, m)) +                                     \
		    BUILD_CHECK((w) >= 1 && (w) <= 8 * sizeof(MEMBER(T, m)) && \
				(bi) < 8 && (!IS_BOOL(T, m) || (w) == 1)),     \
		.host_bool = IS_BOOL(T, m),                                    \
	}
/* An array member, byte aligned, one element per w bits. */
#define ARR(T, m, nm, by, w)                                                   \
	{                                                                      \
		.name = nm, .byte = by, .bit = 0, .width = w,                  \
		.count = sizeof(MEMBER(T, m)) / sizeof(MEMBER(T, m)[0]),       \
		.host_off = offsetof(T, m),                                    \
		.host_size = sizeof(MEMBER(T, m)[0]) +                         \
			     BUILD_CHECK((w) <= 8 * sizeof(MEMBER(T, m)[0])),  \
	}
/* Reserved bits: w of them, or n whole bytes. */
#define RSV(by, bi, w)                                                         \
	{                                                                      \
		.name = "Reserved", .byte = by, .bit = bi, .width = w,         \
		.count = 1 + BUILD_CHECK((w) >= 1 && (w) <= 64 && (bi) < 8),   \
	}
#define RSV_BYTES(by, n)                                                       \
	{                                                                      \
		.name = "Reserved", .byte = by, .bit = 0, .width = 8,          \
		.count = n,                                                    \
	}
#define LAYOUT(nm, sp, rows, sz, min, host)                                    \
	{                                                                      \
		.name = nm, .spec = sp, .fields = rows,                        \
		.nfields = sizeof(rows) / sizeof((rows)[0]), .size = sz,       \
		.min_size = min, .host_size = host,                            \
	}

/*
 * SMPs.  The common MAD header (13.4.2) is bytes 0-23: BaseVersion,
 * MgmtClass, ClassVersion, R + Method (R is the MSB of the byte; we keep
 * the byte whole, hence the response bit 0x80 in our method values),
 * Status, ClassSpecific, TransactionID, AttributeID, Reserved,
 * AttributeModifier.  In a DR SMP (14.2.1.2) Status is split into the
 * D bit and a 15-bit status, and ClassSpecific is HopPointer, HopCount.
 * The rows in enum smp_row are also read alone (ibp_mad_peek, the checks
 * of ibp_smp_decode); their designators pin them to the index (a wrong
 * one overrides a row, which -Woverride-init reports, or leaves a hole
 * that the table checks of test_mad_layout.c report).
 */
enum smp_row {
	ROW_MGMT_CLASS = 1, /* both tables */
	ROW_METHOD = 3,
	LID_ROW_TID = 6, /* LID-routed table */
	LID_ROW_ATTR_ID = 7,
	DR_ROW_HOP_CNT = 7, /* DR table */
};

#define S struct ibp_smp
/* LID-routed SMP, 14.2.1.1. */
static const struct ibp_field smp_lid_rows[] = {
    FLD(S, base_version, "BaseVersion", 0, 0, 8),
    [ROW_MGMT_CLASS] = FLD(S, mgmt_class, "MgmtClass", 1, 0, 8),
    FLD(S, class_version, "ClassVersion", 2, 0, 8),
    [ROW_METHOD] = FLD(S, method, "R+Method", 3, 0, 8),
    FLD(S, status, "Status", 4, 0, 16),
    RSV(6, 0, 16), /* ClassSpecific: unused in a LID-routed SMP */
    [LID_ROW_TID] = FLD(S, tid, "TransactionID", 8, 0, 64),
    [LID_ROW_ATTR_ID] = FLD(S, attr_id, "AttributeID", 16, 0, 16),
    RSV(18, 0, 16),
    FLD(S, attr_mod, "AttributeModifier", 20, 0, 32),
    FLD(S, mkey, "M_Key", 24, 0, 64),
    RSV_BYTES(32, 32),
    ARR(S, data, "SMPData", 64, 8),
    RSV_BYTES(128, 128),
};

/* Directed-route SMP, 14.2.1.2. */
static const struct ibp_field smp_dr_rows[] = {
    FLD(S, base_version, "BaseVersion", 0, 0, 8),
    [ROW_MGMT_CLASS] = FLD(S, mgmt_class, "MgmtClass", 1, 0, 8),
    FLD(S, class_version, "ClassVersion", 2, 0, 8),
    [ROW_METHOD] = FLD(S, method, "R+Method", 3, 0, 8),
    FLD(S, direction, "D", 4, 0, 1),
    FLD(S, status, "Status", 4, 1, 15),
    FLD(S, hop_ptr, "HopPointer", 6, 0, 8),
    [DR_ROW_HOP_CNT] = FLD(S, hop_cnt, "HopCount", 7, 0, 8),
    FLD(S, tid, "TransactionID", 8, 0, 64),
    FLD(S, attr_id, "AttributeID", 16, 0, 16),
    RSV(18, 0, 16),
    FLD(S, attr_mod, "AttributeModifier", 20, 0, 32),
    FLD(S, mkey, "M_Key", 24, 0, 64),
    FLD(S, dr_slid, "DrSLID", 32, 0, 16),
    FLD(S, dr_dlid, "DrDLID", 34, 0, 16),
    RSV_BYTES(36, 28),
    ARR(S, data, "SMPData", 64, 8),
    ARR(S, initial_path, "InitialPath", 128, 8),
    ARR(S, return_path, "ReturnPath", 192, 8),
};
#undef S

const struct ibp_layout ibp_layout_smp_lid =
    LAYOUT("SMP (LID-routed)", "IBA vol. 1 13.4.2, 14.2.1.1", smp_lid_rows,
	   IBP_MAD_SIZE, IBP_MAD_SIZE, sizeof(struct ibp_smp));
const struct ibp_layout ibp_layout_smp_dr =
    LAYOUT("SMP (directed route)", "IBA vol. 1 13.4.2, 14.2.1.2", smp_dr_rows,
	   IBP_MAD_SIZE, IBP_MAD_SIZE, sizeof(struct ibp_smp));

/* NodeDescription, 14.2.5.2: 64 bytes of text; the host object is the
 * decoder's char[65], whose last byte stays the NUL. */
static const struct ibp_field node_desc_rows[] = {
    {.name = "NodeString",
     .width = 8,
     .count = IBP_NODE_DESC_SIZE,
     .host_size = 1},
};
const struct ibp_layout ibp_layout_node_desc =
    LAYOUT("NodeDescription", "IBA vol. 1 14.2.5.2", node_desc_rows,
	   IBP_NODE_DESC_SIZE, IBP_NODE_DESC_SIZE, IBP_NODE_DESC_SIZE + 1);

#define S struct ibp_node_info
/* NodeInfo, 14.2.5.3. */
static const struct ibp_field node_info_rows[] = {
    FLD(S, base_version, "BaseVersion", 0, 0, 8),
    FLD(S, class_version, "ClassVersion", 1, 0, 8),
    FLD(S, node_type, "NodeType", 2, 0, 8),
    FLD(S, num_ports, "NumPorts", 3, 0, 8),
    FLD(S, sys_image_guid, "SystemImageGUID", 4, 0, 64),
    FLD(S, node_guid, "NodeGUID", 12, 0, 64),
    FLD(S, port_guid, "PortGUID", 20, 0, 64),
    FLD(S, partition_cap, "PartitionCap", 28, 0, 16),
    FLD(S, device_id, "DeviceID", 30, 0, 16),
    FLD(S, revision, "Revision", 32, 0, 32),
    FLD(S, local_port_num, "LocalPortNum", 36, 0, 8),
    FLD(S, vendor_id, "VendorID", 37, 0, 24),
};
#undef S
const struct ibp_layout ibp_layout_node_info = LAYOUT(
    "NodeInfo", "IBA vol. 1 14.2.5.3", node_info_rows, IBP_NODE_INFO_SIZE,
    IBP_NODE_INFO_SIZE, sizeof(struct ibp_node_info));

#define S struct ibp_switch_info
/* SwitchInfo, 14.2.5.4, through MulticastFDBTop (the rest of the 64
 * SMP data bytes is reserved and not ours to write). */
static const struct ibp_field switch_info_rows[] = {
    FLD(S, linear_fdb_cap, "LinearFDBCap", 0, 0, 16),
    FLD(S, random_fdb_cap, "RandomFDBCap", 2, 0, 16),
    FLD(S, mcast_fdb_cap, "MulticastFDBCap", 4, 0, 16),
    FLD(S, linear_fdb_top, "LinearFDBTop", 6, 0, 16),
    FLD(S, default_port, "DefaultPort", 8, 0, 8),
    FLD(S, default_mcast_primary_port, "DefaultMulticastPrimaryPort", 9, 0, 8),
    FLD(S, default_mcast_not_primary_port, "DefaultMulticastNotPrimaryPort", 10,
	0, 8),
    FLD(S, life_time_value, "LifeTimeValue", 11, 0, 5),
    FLD(S, port_state_change, "PortStateChange", 11, 5, 1),
    FLD(S, optimized_sl2vl, "OptimizedSLtoVLMappingProgramming", 11, 6, 2),
    FLD(S, lids_per_port, "LIDsPerPort", 12, 0, 16),
    FLD(S, partition_enforcement_cap, "PartitionEnforcementCap", 14, 0, 16),
    FLD(S, inbound_enforcement_cap, "InboundEnforcementCap", 16, 0, 1),
    FLD(S, outbound_enforcement_cap, "OutboundEnforcementCap", 16, 1, 1),
    FLD(S, filter_raw_inbound_cap, "FilterRawInboundCap", 16, 2, 1),
    FLD(S, filter_raw_outbound_cap, "FilterRawOutboundCap", 16, 3, 1),
    FLD(S, enhanced_port0, "EnhancedPort0", 16, 4, 1),
    RSV(16, 5, 11),
    FLD(S, mcast_fdb_top, "MulticastFDBTop", 18, 0, 16),
};
#undef S
const struct ibp_layout ibp_layout_switch_info = LAYOUT(
    "SwitchInfo", "IBA vol. 1 14.2.5.4", switch_info_rows, IBP_SWITCH_INFO_SIZE,
    IBP_SWITCH_INFO_SIZE, sizeof(struct ibp_switch_info));

#define S struct ibp_port_info
/* PortInfo, 14.2.5.6 (the attribute modifier is the port). */
static const struct ibp_field port_info_rows[] = {
    FLD(S, mkey, "M_Key", 0, 0, 64),
    FLD(S, gid_prefix, "GidPrefix", 8, 0, 64),
    FLD(S, lid, "LID", 16, 0, 16),
    FLD(S, master_sm_lid, "MasterSMLID", 18, 0, 16),
    FLD(S, capability_mask, "CapabilityMask", 20, 0, 32),
    FLD(S, diag_code, "DiagCode", 24, 0, 16),
    FLD(S, mkey_lease_period, "M_KeyLeasePeriod", 26, 0, 16),
    FLD(S, local_port_num, "LocalPortNum", 28, 0, 8),
    FLD(S, link_width_enabled, "LinkWidthEnabled", 29, 0, 8),
    FLD(S, link_width_supported, "LinkWidthSupported", 30, 0, 8),
    FLD(S, link_width_active, "LinkWidthActive", 31, 0, 8),
    FLD(S, link_speed_supported, "LinkSpeedSupported", 32, 0, 4),
    FLD(S, link_state, "PortState", 32, 4, 4),
    FLD(S, port_phys_state, "PortPhysicalState", 33, 0, 4),
    FLD(S, link_down_default_state, "LinkDownDefaultState", 33, 4, 4),
    FLD(S, mkey_protect_bits, "M_KeyProtectBits", 34, 0, 2),
    RSV(34, 2, 3),
    FLD(S, lmc, "LMC", 34, 5, 3),
    FLD(S, link_speed_active, "LinkSpeedActive", 35, 0, 4),
    FLD(S, link_speed_enabled, "LinkSpeedEnabled", 35, 4, 4),
    FLD(S, neighbor_mtu, "NeighborMTU", 36, 0, 4),
    FLD(S, master_sm_sl, "MasterSMSL", 36, 4, 4),
    FLD(S, vl_cap, "VLCap", 37, 0, 4),
    FLD(S, init_type, "InitType", 37, 4, 4),
    FLD(S, vl_high_limit, "VLHighLimit", 38, 0, 8),
    FLD(S, vl_arb_high_cap, "VLArbitrationHighCap", 39, 0, 8),
    FLD(S, vl_arb_low_cap, "VLArbitrationLowCap", 40, 0, 8),
    FLD(S, init_type_reply, "InitTypeReply", 41, 0, 4),
    FLD(S, mtu_cap, "MTUCap", 41, 4, 4),
    FLD(S, vl_stall_count, "VLStallCount", 42, 0, 3),
    FLD(S, hoq_life, "HOQLife", 42, 3, 5),
    FLD(S, operational_vls, "OperationalVLs", 43, 0, 4),
    FLD(S, partition_enforcement_inbound, "PartitionEnforcementInbound", 43, 4,
	1),
    FLD(S, partition_enforcement_outbound, "PartitionEnforcementOutbound", 43,
	5, 1),
    FLD(S, filter_raw_inbound, "FilterRawInbound", 43, 6, 1),
    FLD(S, filter_raw_outbound, "FilterRawOutbound", 43, 7, 1),
    FLD(S, mkey_violations, "M_KeyViolations", 44, 0, 16),
    FLD(S, pkey_violations, "P_KeyViolations", 46, 0, 16),
    FLD(S, qkey_violations, "Q_KeyViolations", 48, 0, 16),
    FLD(S, guid_cap, "GUIDCap", 50, 0, 8),
    FLD(S, client_reregister, "ClientReregister", 51, 0, 1),
    FLD(S, mcast_pkey_trap_suppression, "MulticastPKeyTrapSuppressionEnabled",
	51, 1, 2),
    FLD(S, subnet_timeout, "SubnetTimeOut", 51, 3, 5),
    RSV(52, 0, 3),
    FLD(S, resp_time_value, "RespTimeValue", 52, 3, 5),
    FLD(S, local_phy_errors, "LocalPhyErrors", 53, 0, 4),
    FLD(S, overrun_errors, "OverrunErrors", 53, 4, 4),
    FLD(S, max_credit_hint, "MaxCreditHint", 54, 0, 16),
    RSV(56, 0, 8),
    FLD(S, link_round_trip_latency, "LinkRoundTripLatency", 57, 0, 24),
    FLD(S, capability_mask2, "CapabilityMask2", 60, 0, 16),
    FLD(S, link_speed_ext_active, "LinkSpeedExtActive", 62, 0, 4),
    FLD(S, link_speed_ext_supported, "LinkSpeedExtSupported", 62, 4, 4),
    RSV(63, 0, 3),
    FLD(S, link_speed_ext_enabled, "LinkSpeedExtEnabled", 63, 3, 5),
};
#undef S
const struct ibp_layout ibp_layout_port_info = LAYOUT(
    "PortInfo", "IBA vol. 1 14.2.5.6", port_info_rows, IBP_PORT_INFO_SIZE,
    IBP_PORT_INFO_SIZE, sizeof(struct ibp_port_info));

/* P_KeyTable, 14.2.5.7: one block of 32 16-bit P_Keys, entry 0 first;
 * the host object is the uint16_t[32]. */
static const struct ibp_field pkey_block_rows[] = {
    {.name = "P_KeyTableBlock",
     .width = 16,
     .count = IBP_PKEY_BLOCK_ENTRIES,
     .host_size = sizeof(uint16_t)},
};
const struct ibp_layout ibp_layout_pkey_block =
    LAYOUT("P_KeyTable block", "IBA vol. 1 14.2.5.7", pkey_block_rows,
	   IBP_PKEY_BLOCK_BYTES, IBP_PKEY_BLOCK_BYTES,
	   IBP_PKEY_BLOCK_ENTRIES * sizeof(uint16_t));

#define S struct ibp_notice
/* Notice, 14.2.5.1.  ProducerType and TrapNumber are VendorID and
 * DeviceID when IsGeneric is 0 (same bits).  IssuerGID (bytes 64-79) does
 * not fit in SMP data: it is the optional tail, past min_size. */
static const struct ibp_field notice_rows[] = {
    FLD(S, is_generic, "IsGeneric", 0, 0, 1),
    FLD(S, type, "Type", 0, 1, 7),
    FLD(S, producer_type, "ProducerType", 1, 0, 24),
    FLD(S, trap_num, "TrapNumber", 4, 0, 16),
    FLD(S, issuer_lid, "IssuerLID", 6, 0, 16),
    FLD(S, toggle, "NoticeToggle", 8, 0, 1),
    FLD(S, count, "NoticeCount", 8, 1, 15),
    ARR(S, data_details, "DataDetails", IBP_NOTICE_DETAILS_OFFSET, 8),
    ARR(S, issuer_gid, "IssuerGID", IBP_NOTICE_SMP_SIZE, 8),
};
#undef S
const struct ibp_layout ibp_layout_notice =
    LAYOUT("Notice", "IBA vol. 1 14.2.5.1", notice_rows, IBP_NOTICE_SIZE,
	   IBP_NOTICE_SMP_SIZE, sizeof(struct ibp_notice));

#define S struct ibp_trap_257
/* Notice DataDetails of traps 257 (bad P_Key) and 258 (bad Q_Key),
 * 14.2.5.1; offsets within DataDetails (Notice byte 10 on). */
static const struct ibp_field trap_257_rows[] = {
    RSV(0, 0, 16),
    FLD(S, lid1, "LIDADDR1", 2, 0, 16),
    FLD(S, lid2, "LIDADDR2", 4, 0, 16),
    FLD(S, key, "KEY", 6, 0, 32),
    FLD(S, sl, "SL", 10, 0, 4),
    RSV(10, 4, 4),
    FLD(S, qp1, "QP1", 11, 0, 24),
    RSV(14, 0, 8),
    FLD(S, qp2, "QP2", 15, 0, 24),
    ARR(S, gid1, "GIDADDR1", 18, 8),
    ARR(S, gid2, "GIDADDR2", 34, 8),
    RSV_BYTES(50, 4),
};
#undef S
const struct ibp_layout ibp_layout_trap_257 =
    LAYOUT("trap 257/258 DataDetails", "IBA vol. 1 14.2.5.1", trap_257_rows,
	   IBP_NOTICE_DETAILS_SIZE, IBP_NOTICE_DETAILS_SIZE,
	   sizeof(struct ibp_trap_257));

#define S struct ibp_trap_259
/* Notice DataDetails of trap 259 (switch external port P_Key
 * violation), 14.2.5.1; offsets within DataDetails. */
static const struct ibp_field trap_259_rows[] = {
    FLD(S, data_valid, "DataValid", 0, 0, 16),
    FLD(S, lid1, "LIDADDR1", 2, 0, 16),
    FLD(S, lid2, "LIDADDR2", 4, 0, 16),
    FLD(S, pkey, "PKEY", 6, 0, 16),
    FLD(S, sl, "SL", 8, 0, 4),
    RSV(8, 4, 4),
    FLD(S, qp1, "QP1", 9, 0, 24),
    RSV(12, 0, 8),
    FLD(S, qp2, "QP2", 13, 0, 24),
    ARR(S, gid1, "GIDADDR1", 16, 8),
    ARR(S, gid2, "GIDADDR2", 32, 8),
    FLD(S, sw_lid, "SWLIDADDR", 48, 0, 16),
    FLD(S, port, "PortNo", 50, 0, 8),
    RSV_BYTES(51, 3),
};
#undef S
const struct ibp_layout ibp_layout_trap_259 =
    LAYOUT("trap 259 DataDetails", "IBA vol. 1 14.2.5.1", trap_259_rows,
	   IBP_NOTICE_DETAILS_SIZE, IBP_NOTICE_DETAILS_SIZE,
	   sizeof(struct ibp_trap_259));

const struct ibp_layout *const ibp_mad_layouts[] = {
    &ibp_layout_smp_lid,    &ibp_layout_smp_dr,	     &ibp_layout_node_desc,
    &ibp_layout_node_info,  &ibp_layout_switch_info, &ibp_layout_port_info,
    &ibp_layout_pkey_block, &ibp_layout_notice,	     &ibp_layout_trap_257,
    &ibp_layout_trap_259,
};
const size_t ibp_mad_nlayouts =
    sizeof(ibp_mad_layouts) / sizeof(ibp_mad_layouts[0]);

/* ------------------------------------------------------------ SMP */

static int check_args(const void *obj, const void *buf, size_t len,
		      ibp_error *err)
{
	if (!obj || !buf)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	if (len < IBP_MAD_SIZE)
		return ibp_error_set(err, IBP_ESHORT,
				     "SMP: buffer of %zu bytes, need %u", len,
				     IBP_MAD_SIZE);
	return IBP_OK;
}

static bool smp_class_ok(uint8_t c)
{
	return c == IBP_MGMT_CLASS_SUBN_LID || c == IBP_MGMT_CLASS_SUBN_DR;
}

int ibp_smp_encode(const struct ibp_smp *smp, uint8_t *buf, size_t len,
		   ibp_error *err)
{
	int rc = check_args(smp, buf, len, err);
	if (rc != IBP_OK)
		return rc;
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
	return ibp_layout_encode(dr ? &ibp_layout_smp_dr : &ibp_layout_smp_lid,
				 smp, buf, len, err);
}

int ibp_smp_decode(struct ibp_smp *smp, const uint8_t *buf, size_t len,
		   ibp_error *err)
{
	int rc = check_args(smp, buf, len, err);
	if (rc != IBP_OK)
		return rc;
	uint8_t cls =
	    (uint8_t)ibp_field_get(&smp_lid_rows[ROW_MGMT_CLASS], buf, 0);
	if (!smp_class_ok(cls))
		return ibp_error_set(err, IBP_EINVAL,
				     "management class 0x%02x is not an SMP",
				     cls);
	bool dr = cls == IBP_MGMT_CLASS_SUBN_DR;
	unsigned hops =
	    (unsigned)ibp_field_get(&smp_dr_rows[DR_ROW_HOP_CNT], buf, 0);
	if (dr && hops > IBP_SMP_MAX_HOPS)
		return ibp_error_set(err, IBP_EINVAL,
				     "DR SMP hop count %u > %u", hops,
				     IBP_SMP_MAX_HOPS);
	return ibp_layout_decode(dr ? &ibp_layout_smp_dr : &ibp_layout_smp_lid,
				 smp, buf, len, err);
}

/* The common MAD header's fields, read from the LID-routed table (the
 * same bits in every MAD). */
int ibp_mad_peek(const uint8_t *buf, size_t len, uint8_t *mgmt_class,
		 uint8_t *method, uint64_t *tid, uint16_t *attr_id)
{
	if (!buf || len < IBP_MAD_HDR_SIZE)
		return IBP_ESHORT;
	if (mgmt_class)
		*mgmt_class = (uint8_t)ibp_field_get(
		    &smp_lid_rows[ROW_MGMT_CLASS], buf, 0);
	if (method)
		*method =
		    (uint8_t)ibp_field_get(&smp_lid_rows[ROW_METHOD], buf, 0);
	if (tid)
		*tid = ibp_field_get(&smp_lid_rows[LID_ROW_TID], buf, 0);
	if (attr_id)
		*attr_id = (uint16_t)ibp_field_get(
		    &smp_lid_rows[LID_ROW_ATTR_ID], buf, 0);
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
	if (!desc || !buf)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	if (len < IBP_NODE_DESC_SIZE)
		return ibp_error_set(err, IBP_ESHORT,
				     "NodeDescription: buffer of %zu bytes, "
				     "need %u",
				     len, IBP_NODE_DESC_SIZE);
	size_t n = strnlen(desc, IBP_NODE_DESC_SIZE + 1);
	if (n > IBP_NODE_DESC_SIZE)
		return ibp_error_set(err, IBP_ERANGE,
				     "node description longer than %u bytes",
				     IBP_NODE_DESC_SIZE);
	char text[IBP_NODE_DESC_SIZE + 1] = {0}; /* zero-padded */
	memcpy(text, desc, n);
	return ibp_layout_encode(&ibp_layout_node_desc, text, buf, len, err);
}

int ibp_node_desc_decode(char out[IBP_NODE_DESC_SIZE + 1], const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return ibp_layout_decode(&ibp_layout_node_desc, out, buf, len, err);
}

/* ------------------------------------------- the other attributes */

int ibp_node_info_encode(const struct ibp_node_info *ni, uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return ibp_layout_encode(&ibp_layout_node_info, ni, buf, len, err);
}

int ibp_node_info_decode(struct ibp_node_info *ni, const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return ibp_layout_decode(&ibp_layout_node_info, ni, buf, len, err);
}

int ibp_switch_info_encode(const struct ibp_switch_info *si, uint8_t *buf,
			   size_t len, ibp_error *err)
{
	return ibp_layout_encode(&ibp_layout_switch_info, si, buf, len, err);
}

int ibp_switch_info_decode(struct ibp_switch_info *si, const uint8_t *buf,
			   size_t len, ibp_error *err)
{
	return ibp_layout_decode(&ibp_layout_switch_info, si, buf, len, err);
}

int ibp_port_info_encode(const struct ibp_port_info *pi, uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return ibp_layout_encode(&ibp_layout_port_info, pi, buf, len, err);
}

int ibp_port_info_decode(struct ibp_port_info *pi, const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return ibp_layout_decode(&ibp_layout_port_info, pi, buf, len, err);
}

int ibp_pkey_block_encode(const uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  uint8_t *buf, size_t len, ibp_error *err)
{
	return ibp_layout_encode(&ibp_layout_pkey_block, pkeys, buf, len, err);
}

int ibp_pkey_block_decode(uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  const uint8_t *buf, size_t len, ibp_error *err)
{
	return ibp_layout_decode(&ibp_layout_pkey_block, pkeys, buf, len, err);
}

/* ----------------------------------------------------------- Notice */

/* 64 bytes in an SMP; IssuerGID too when len >= 80 (the table's
 * optional tail). */
int ibp_notice_encode(const struct ibp_notice *n, uint8_t *buf, size_t len,
		      ibp_error *err)
{
	return ibp_layout_encode(&ibp_layout_notice, n, buf, len, err);
}

int ibp_notice_decode(struct ibp_notice *n, const uint8_t *buf, size_t len,
		      ibp_error *err)
{
	return ibp_layout_decode(&ibp_layout_notice, n, buf, len, err);
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

/* The DataDetails arrays are exactly the tables' size: the walks cannot
 * fail but for NULL pointers, which these void functions do not report. */
void ibp_trap_257_to_details(const struct ibp_trap_257 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)ibp_layout_encode(&ibp_layout_trap_257, t, details,
				IBP_NOTICE_DETAILS_SIZE, NULL);
}

void ibp_trap_257_from_details(struct ibp_trap_257 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)ibp_layout_decode(&ibp_layout_trap_257, t, details,
				IBP_NOTICE_DETAILS_SIZE, NULL);
}

void ibp_trap_259_to_details(const struct ibp_trap_259 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)ibp_layout_encode(&ibp_layout_trap_259, t, details,
				IBP_NOTICE_DETAILS_SIZE, NULL);
}

void ibp_trap_259_from_details(struct ibp_trap_259 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)ibp_layout_decode(&ibp_layout_trap_259, t, details,
				IBP_NOTICE_DETAILS_SIZE, NULL);
}
