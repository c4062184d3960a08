/*
 * mad.c - the SMP wire format (see include/ibpart/sys/mad.h): encode and
 * bounds-checked decode of the SMP header and of the subnet management
 * attributes the partition code needs, in network byte order.
 *
 * Table-driven.  Every layout (the common MAD header, both SMP formats,
 * each attribute, the trap 257/258 and 259 DataDetails) is one table of
 * rows {IBA name, byte offset, bit offset, bit width, member}, an array
 * row having a count too, transcribed from IBA vol. 1 (release 1.3): the
 * common MAD header 13.4.2, the SMP formats of 14.2.1 (LID-routed and
 * directed-route; 14.2.1.1/14.2.1.2 in the numbering libibmad cites), the
 * attributes 14.2.5.x named at each table.  Reserved bits are rows too,
 * so each table covers its layout bit for bit (tests/unit/
 * test_mad_layout.c checks that, and that every row fits its member).
 *
 * A table is a macro of rows (an "X-macro"); IBP_LAYOUT_DEFINE of
 * src/wire/mad_layout.h expands it twice: into the row array (the
 * table as data: names, offsets, widths, for the checks and the tests)
 * and into that layout's encoder and decoder, one call per row of the
 * one generic big-endian bit-field get/put (ibp_bits_get_/_put_).  Those
 * calls have constant offsets and widths and fold to the shifts the
 * hand-written coders had: a first version that walked the row array at
 * run time cost 10x per SMP and halved the simulated SM's SMPs/s
 * (bench_sim); this one is within noise of the hand-written code.  The
 * public encoders and decoders are the generated ones plus the checks
 * that are not layout (SMP class, hop count, D bit, description length).
 * The bit numbering is IBA's; see mad_layout.h.
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
 */
#include <stdio.h>
#include <string.h>

#include "ibpart/sys/mad.h"
#include "wire/mad_layout.h"

/* ------------------------------------------- the generic bit codec */

/* The inline codec of mad_layout.h, with the bounds checked. */
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
		*out = ibp_bits_get_(buf, len, bit_off, width);
	return rc;
}

int ibp_bits_put(uint8_t *buf, size_t len, size_t bit_off, unsigned width,
		 uint64_t v)
{
	int rc = bits_check(buf, len, bit_off, width);
	if (rc == IBP_OK)
		ibp_bits_put_(buf, len, bit_off, width, v);
	return rc;
}

/* What every generated coder says about NULL pointers and short
 * buffers. */
int ibp_layout_bad_args_(const char *name, const void *obj, const void *buf,
			 size_t len, size_t min_size, ibp_error *err)
{
	if (!obj || !buf)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	return ibp_error_set(err, IBP_ESHORT,
			     "%s: buffer of %zu bytes, need %zu", name, len,
			     min_size);
}

/* ------------------------------------------------------- the tables */

/*
 * The common MAD header, 13.4.2: BaseVersion, MgmtClass, ClassVersion,
 * R + Method (R is the MSB of the byte; we keep the byte whole, hence the
 * response bit 0x80 in our method values), Status, ClassSpecific,
 * TransactionID, AttributeID, Reserved, AttributeModifier.  Read alone
 * by ibp_mad_peek and first by ibp_smp_decode, to choose the SMP table.
 */
struct mad_hdr {
	uint8_t base_version, mgmt_class, class_version, method;
	uint16_t status, class_specific;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
};
#define MAD_HDR_ROWS(F, A, R, RB)                                              \
	F(base_version, "BaseVersion", 0, 0, 8)                                \
	F(mgmt_class, "MgmtClass", 1, 0, 8)                                    \
	F(class_version, "ClassVersion", 2, 0, 8)                              \
	F(method, "R+Method", 3, 0, 8)                                         \
	F(status, "Status", 4, 0, 16)                                          \
	F(class_specific, "ClassSpecific", 6, 0, 16)                           \
	F(tid, "TransactionID", 8, 0, 64)                                      \
	F(attr_id, "AttributeID", 16, 0, 16)                                   \
	R(18, 0, 16)                                                           \
	F(attr_mod, "AttributeModifier", 20, 0, 32)
#define IBP_HOST struct mad_hdr
IBP_LAYOUT_DEFINE(mad_hdr, MAD_HDR_ROWS, "MAD header", "IBA vol. 1 13.4.2",
		  IBP_MAD_HDR_SIZE, IBP_MAD_HDR_SIZE)
#undef IBP_HOST

/* LID-routed SMP, 14.2.1.1: the MAD header, M_Key, 64 bytes of data. */
#define SMP_LID_ROWS(F, A, R, RB)                                              \
	F(base_version, "BaseVersion", 0, 0, 8)                                \
	F(mgmt_class, "MgmtClass", 1, 0, 8)                                    \
	F(class_version, "ClassVersion", 2, 0, 8)                              \
	F(method, "R+Method", 3, 0, 8)                                         \
	F(status, "Status", 4, 0, 16)                                          \
	R(6, 0, 16) /* ClassSpecific: unused in a LID-routed SMP */            \
	F(tid, "TransactionID", 8, 0, 64)                                      \
	F(attr_id, "AttributeID", 16, 0, 16)                                   \
	R(18, 0, 16)                                                           \
	F(attr_mod, "AttributeModifier", 20, 0, 32)                            \
	F(mkey, "M_Key", 24, 0, 64)                                            \
	RB(32, 32)                                                             \
	A(data, "SMPData", 64, 8)                                              \
	RB(128, 128)
#define IBP_HOST struct ibp_smp
IBP_LAYOUT_DEFINE(smp_lid, SMP_LID_ROWS, "SMP (LID-routed)",
		  "IBA vol. 1 13.4.2, 14.2.1.1", IBP_MAD_SIZE, IBP_MAD_SIZE)
#undef IBP_HOST

/* Directed-route SMP, 14.2.1.2: Status is the D bit and 15 bits of
 * status, ClassSpecific is HopPointer and HopCount; then DrSLID, DrDLID
 * and the two paths. */
#define SMP_DR_ROWS(F, A, R, RB)                                               \
	F(base_version, "BaseVersion", 0, 0, 8)                                \
	F(mgmt_class, "MgmtClass", 1, 0, 8)                                    \
	F(class_version, "ClassVersion", 2, 0, 8)                              \
	F(method, "R+Method", 3, 0, 8)                                         \
	F(direction, "D", 4, 0, 1)                                             \
	F(status, "Status", 4, 1, 15)                                          \
	F(hop_ptr, "HopPointer", 6, 0, 8)                                      \
	F(hop_cnt, "HopCount", 7, 0, 8)                                        \
	F(tid, "TransactionID", 8, 0, 64)                                      \
	F(attr_id, "AttributeID", 16, 0, 16)                                   \
	R(18, 0, 16)                                                           \
	F(attr_mod, "AttributeModifier", 20, 0, 32)                            \
	F(mkey, "M_Key", 24, 0, 64)                                            \
	F(dr_slid, "DrSLID", 32, 0, 16)                                        \
	F(dr_dlid, "DrDLID", 34, 0, 16)                                        \
	RB(36, 28)                                                             \
	A(data, "SMPData", 64, 8)                                              \
	A(initial_path, "InitialPath", 128, 8)                                 \
	A(return_path, "ReturnPath", 192, 8)
#define IBP_HOST struct ibp_smp
IBP_LAYOUT_DEFINE(smp_dr, SMP_DR_ROWS, "SMP (directed route)",
		  "IBA vol. 1 13.4.2, 14.2.1.2", IBP_MAD_SIZE, IBP_MAD_SIZE)
#undef IBP_HOST

/* NodeDescription, 14.2.5.2: 64 bytes of text, not NUL-terminated. */
struct node_desc_host {
	char text[IBP_NODE_DESC_SIZE];
};
#define NODE_DESC_ROWS(F, A, R, RB) A(text, "NodeString", 0, 8)
#define IBP_HOST		    struct node_desc_host
IBP_LAYOUT_DEFINE(node_desc, NODE_DESC_ROWS, "NodeDescription",
		  "IBA vol. 1 14.2.5.2", IBP_NODE_DESC_SIZE, IBP_NODE_DESC_SIZE)
#undef IBP_HOST

/* NodeInfo, 14.2.5.3. */
#define NODE_INFO_ROWS(F, A, R, RB)                                            \
	F(base_version, "BaseVersion", 0, 0, 8)                                \
	F(class_version, "ClassVersion", 1, 0, 8)                              \
	F(node_type, "NodeType", 2, 0, 8)                                      \
	F(num_ports, "NumPorts", 3, 0, 8)                                      \
	F(sys_image_guid, "SystemImageGUID", 4, 0, 64)                         \
	F(node_guid, "NodeGUID", 12, 0, 64)                                    \
	F(port_guid, "PortGUID", 20, 0, 64)                                    \
	F(partition_cap, "PartitionCap", 28, 0, 16)                            \
	F(device_id, "DeviceID", 30, 0, 16)                                    \
	F(revision, "Revision", 32, 0, 32)                                     \
	F(local_port_num, "LocalPortNum", 36, 0, 8)                            \
	F(vendor_id, "VendorID", 37, 0, 24)
#define IBP_HOST struct ibp_node_info
IBP_LAYOUT_DEFINE(node_info, NODE_INFO_ROWS, "NodeInfo", "IBA vol. 1 14.2.5.3",
		  IBP_NODE_INFO_SIZE, IBP_NODE_INFO_SIZE)
#undef IBP_HOST

/* SwitchInfo, 14.2.5.4, through MulticastFDBTop (the rest of the 64
 * SMP data bytes is reserved and not ours to write). */
#define SWITCH_INFO_ROWS(F, A, R, RB)                                          \
	F(linear_fdb_cap, "LinearFDBCap", 0, 0, 16)                            \
	F(random_fdb_cap, "RandomFDBCap", 2, 0, 16)                            \
	F(mcast_fdb_cap, "MulticastFDBCap", 4, 0, 16)                          \
	F(linear_fdb_top, "LinearFDBTop", 6, 0, 16)                            \
	F(default_port, "DefaultPort", 8, 0, 8)                                \
	F(default_mcast_primary_port, "DefaultMulticastPrimaryPort", 9, 0, 8)  \
	F(default_mcast_not_primary_port, "DefaultMulticastNotPrimaryPort",    \
	  10, 0, 8)                                                            \
	F(life_time_value, "LifeTimeValue", 11, 0, 5)                          \
	F(port_state_change, "PortStateChange", 11, 5, 1)                      \
	F(optimized_sl2vl, "OptimizedSLtoVLMappingProgramming", 11, 6, 2)      \
	F(lids_per_port, "LIDsPerPort", 12, 0, 16)                             \
	F(partition_enforcement_cap, "PartitionEnforcementCap", 14, 0, 16)     \
	F(inbound_enforcement_cap, "InboundEnforcementCap", 16, 0, 1)          \
	F(outbound_enforcement_cap, "OutboundEnforcementCap", 16, 1, 1)        \
	F(filter_raw_inbound_cap, "FilterRawInboundCap", 16, 2, 1)             \
	F(filter_raw_outbound_cap, "FilterRawOutboundCap", 16, 3, 1)           \
	F(enhanced_port0, "EnhancedPort0", 16, 4, 1)                           \
	R(16, 5, 11)                                                           \
	F(mcast_fdb_top, "MulticastFDBTop", 18, 0, 16)
#define IBP_HOST struct ibp_switch_info
IBP_LAYOUT_DEFINE(switch_info, SWITCH_INFO_ROWS, "SwitchInfo",
		  "IBA vol. 1 14.2.5.4", IBP_SWITCH_INFO_SIZE,
		  IBP_SWITCH_INFO_SIZE)
#undef IBP_HOST

/* PortInfo, 14.2.5.6 (the attribute modifier is the port). */
#define PORT_INFO_ROWS(F, A, R, RB)                                            \
	F(mkey, "M_Key", 0, 0, 64)                                             \
	F(gid_prefix, "GidPrefix", 8, 0, 64)                                   \
	F(lid, "LID", 16, 0, 16)                                               \
	F(master_sm_lid, "MasterSMLID", 18, 0, 16)                             \
	F(capability_mask, "CapabilityMask", 20, 0, 32)                        \
	F(diag_code, "DiagCode", 24, 0, 16)                                    \
	F(mkey_lease_period, "M_KeyLeasePeriod", 26, 0, 16)                    \
	F(local_port_num, "LocalPortNum", 28, 0, 8)                            \
	F(link_width_enabled, "LinkWidthEnabled", 29, 0, 8)                    \
	F(link_width_supported, "LinkWidthSupported", 30, 0, 8)                \
	F(link_width_active, "LinkWidthActive", 31, 0, 8)                      \
	F(link_speed_supported, "LinkSpeedSupported", 32, 0, 4)                \
	F(link_state, "PortState", 32, 4, 4)                                   \
	F(port_phys_state, "PortPhysicalState", 33, 0, 4)                      \
	F(link_down_default_state, "LinkDownDefaultState", 33, 4, 4)           \
	F(mkey_protect_bits, "M_KeyProtectBits", 34, 0, 2)                     \
	R(34, 2, 3)                                                            \
	F(lmc, "LMC", 34, 5, 3)                                                \
	F(link_speed_active, "LinkSpeedActive", 35, 0, 4)                      \
	F(link_speed_enabled, "LinkSpeedEnabled", 35, 4, 4)                    \
	F(neighbor_mtu, "NeighborMTU", 36, 0, 4)                               \
	F(master_sm_sl, "MasterSMSL", 36, 4, 4)                                \
	F(vl_cap, "VLCap", 37, 0, 4)                                           \
	F(init_type, "InitType", 37, 4, 4)                                     \
	F(vl_high_limit, "VLHighLimit", 38, 0, 8)                              \
	F(vl_arb_high_cap, "VLArbitrationHighCap", 39, 0, 8)                   \
	F(vl_arb_low_cap, "VLArbitrationLowCap", 40, 0, 8)                     \
	F(init_type_reply, "InitTypeReply", 41, 0, 4)                          \
	F(mtu_cap, "MTUCap", 41, 4, 4)                                         \
	F(vl_stall_count, "VLStallCount", 42, 0, 3)                            \
	F(hoq_life, "HOQLife", 42, 3, 5)                                       \
	F(operational_vls, "OperationalVLs", 43, 0, 4)                         \
	F(partition_enforcement_inbound, "PartitionEnforcementInbound", 43, 4, \
	  1)                                                                   \
	F(partition_enforcement_outbound, "PartitionEnforcementOutbound", 43,  \
	  5, 1)                                                                \
	F(filter_raw_inbound, "FilterRawInbound", 43, 6, 1)                    \
	F(filter_raw_outbound, "FilterRawOutbound", 43, 7, 1)                  \
	F(mkey_violations, "M_KeyViolations", 44, 0, 16)                       \
	F(pkey_violations, "P_KeyViolations", 46, 0, 16)                       \
	F(qkey_violations, "Q_KeyViolations", 48, 0, 16)                       \
	F(guid_cap, "GUIDCap", 50, 0, 8)                                       \
	F(client_reregister, "ClientReregister", 51, 0, 1)                     \
	F(mcast_pkey_trap_suppression, "MulticastPKeyTrapSuppressionEnabled",  \
	  51, 1, 2)                                                            \
	F(subnet_timeout, "SubnetTimeOut", 51, 3, 5)                           \
	R(52, 0, 3)                                                            \
	F(resp_time_value, "RespTimeValue", 52, 3, 5)                          \
	F(local_phy_errors, "LocalPhyErrors", 53, 0, 4)                        \
	F(overrun_errors, "OverrunErrors", 53, 4, 4)                           \
	F(max_credit_hint, "MaxCreditHint", 54, 0, 16)                         \
	R(56, 0, 8)                                                            \
	F(link_round_trip_latency, "LinkRoundTripLatency", 57, 0, 24)          \
	F(capability_mask2, "CapabilityMask2", 60, 0, 16)                      \
	F(link_speed_ext_active, "LinkSpeedExtActive", 62, 0, 4)               \
	F(link_speed_ext_supported, "LinkSpeedExtSupported", 62, 4, 4)         \
	R(63, 0, 3)                                                            \
	F(link_speed_ext_enabled, "LinkSpeedExtEnabled", 63, 3, 5)
#define IBP_HOST struct ibp_port_info
IBP_LAYOUT_DEFINE(port_info, PORT_INFO_ROWS, "PortInfo", "IBA vol. 1 14.2.5.6",
		  IBP_PORT_INFO_SIZE, IBP_PORT_INFO_SIZE)
#undef IBP_HOST

/* P_KeyTable, 14.2.5.7: one block of 32 16-bit P_Keys, entry 0 first. */
struct pkey_block_host {
	uint16_t pkey[IBP_PKEY_BLOCK_ENTRIES];
};
#define PKEY_BLOCK_ROWS(F, A, R, RB) A(pkey, "P_KeyTableBlock", 0, 16)
#define IBP_HOST		     struct pkey_block_host
IBP_LAYOUT_DEFINE(pkey_block, PKEY_BLOCK_ROWS, "P_KeyTable block",
		  "IBA vol. 1 14.2.5.7", IBP_PKEY_BLOCK_BYTES,
		  IBP_PKEY_BLOCK_BYTES)
#undef IBP_HOST

/* GUIDInfo, 14.2.5.5: one block of 8 64-bit GUIDs, entry 0 first (the
 * attribute modifier is the block number; entry 0 of block 0 is the port
 * GUID, the others alias GUIDs, 0 when unused). */
struct guid_info_host {
	uint64_t guid[IBP_GUID_INFO_BLOCK];
};
#define GUID_INFO_ROWS(F, A, R, RB) A(guid, "GUIDBlock", 0, 64)
#define IBP_HOST		    struct guid_info_host
IBP_LAYOUT_DEFINE(guid_info, GUID_INFO_ROWS, "GUIDInfo block",
		  "IBA vol. 1 14.2.5.5", IBP_GUID_INFO_BYTES,
		  IBP_GUID_INFO_BYTES)
#undef IBP_HOST

/* Notice, 14.2.5.1.  ProducerType and TrapNumber are VendorID and
 * DeviceID when IsGeneric is 0 (same bits).  IssuerGID (bytes 64-79) does
 * not fit in SMP data: it is the optional tail, past min_size. */
#define NOTICE_ROWS(F, A, R, RB)                                               \
	F(is_generic, "IsGeneric", 0, 0, 1)                                    \
	F(type, "Type", 0, 1, 7)                                               \
	F(producer_type, "ProducerType", 1, 0, 24)                             \
	F(trap_num, "TrapNumber", 4, 0, 16)                                    \
	F(issuer_lid, "IssuerLID", 6, 0, 16)                                   \
	F(toggle, "NoticeToggle", 8, 0, 1)                                     \
	F(count, "NoticeCount", 8, 1, 15)                                      \
	A(data_details, "DataDetails", IBP_NOTICE_DETAILS_OFFSET, 8)           \
	A(issuer_gid, "IssuerGID", IBP_NOTICE_SMP_SIZE, 8)
#define IBP_HOST struct ibp_notice
IBP_LAYOUT_DEFINE(notice, NOTICE_ROWS, "Notice", "IBA vol. 1 14.2.5.1",
		  IBP_NOTICE_SIZE, IBP_NOTICE_SMP_SIZE)
#undef IBP_HOST

/* Notice DataDetails of traps 257 (bad P_Key) and 258 (bad Q_Key),
 * 14.2.5.1; offsets within DataDetails (Notice byte 10 on). */
#define TRAP_257_ROWS(F, A, R, RB)                                             \
	R(0, 0, 16)                                                            \
	F(lid1, "LIDADDR1", 2, 0, 16)                                          \
	F(lid2, "LIDADDR2", 4, 0, 16)                                          \
	F(key, "KEY", 6, 0, 32)                                                \
	F(sl, "SL", 10, 0, 4)                                                  \
	R(10, 4, 4)                                                            \
	F(qp1, "QP1", 11, 0, 24)                                               \
	R(14, 0, 8)                                                            \
	F(qp2, "QP2", 15, 0, 24)                                               \
	A(gid1, "GIDADDR1", 18, 8)                                             \
	A(gid2, "GIDADDR2", 34, 8)                                             \
	RB(50, 4)
#define IBP_HOST struct ibp_trap_257
IBP_LAYOUT_DEFINE(trap_257, TRAP_257_ROWS, "trap 257/258 DataDetails",
		  "IBA vol. 1 14.2.5.1", IBP_NOTICE_DETAILS_SIZE,
		  IBP_NOTICE_DETAILS_SIZE)
#undef IBP_HOST

/* Notice DataDetails of trap 259 (switch external port P_Key
 * violation), 14.2.5.1; offsets within DataDetails. */
#define TRAP_259_ROWS(F, A, R, RB)                                             \
	F(data_valid, "DataValid", 0, 0, 16)                                   \
	F(lid1, "LIDADDR1", 2, 0, 16)                                          \
	F(lid2, "LIDADDR2", 4, 0, 16)                                          \
	F(pkey, "PKEY", 6, 0, 16)                                              \
	F(sl, "SL", 8, 0, 4)                                                   \
	R(8, 4, 4)                                                             \
	F(qp1, "QP1", 9, 0, 24)                                                \
	R(12, 0, 8)                                                            \
	F(qp2, "QP2", 13, 0, 24)                                               \
	A(gid1, "GIDADDR1", 16, 8)                                             \
	A(gid2, "GIDADDR2", 32, 8)                                             \
	F(sw_lid, "SWLIDADDR", 48, 0, 16)                                      \
	F(port, "PortNo", 50, 0, 8)                                            \
	RB(51, 3)
#define IBP_HOST struct ibp_trap_259
IBP_LAYOUT_DEFINE(trap_259, TRAP_259_ROWS, "trap 259 DataDetails",
		  "IBA vol. 1 14.2.5.1", IBP_NOTICE_DETAILS_SIZE,
		  IBP_NOTICE_DETAILS_SIZE)
#undef IBP_HOST

const struct ibp_layout *const ibp_layout_mad_hdr = &mad_hdr_layout;
const struct ibp_layout *const ibp_layout_smp_lid = &smp_lid_layout;
const struct ibp_layout *const ibp_layout_smp_dr = &smp_dr_layout;
const struct ibp_layout *const ibp_layout_node_desc = &node_desc_layout;
const struct ibp_layout *const ibp_layout_node_info = &node_info_layout;
const struct ibp_layout *const ibp_layout_switch_info = &switch_info_layout;
const struct ibp_layout *const ibp_layout_port_info = &port_info_layout;
const struct ibp_layout *const ibp_layout_pkey_block = &pkey_block_layout;
const struct ibp_layout *const ibp_layout_guid_info = &guid_info_layout;
const struct ibp_layout *const ibp_layout_notice = &notice_layout;
const struct ibp_layout *const ibp_layout_trap_257 = &trap_257_layout;
const struct ibp_layout *const ibp_layout_trap_259 = &trap_259_layout;
const struct ibp_layout *const ibp_mad_layouts[] = {
    &mad_hdr_layout,   &smp_lid_layout,	   &smp_dr_layout,
    &node_desc_layout, &node_info_layout,  &switch_info_layout,
    &port_info_layout, &pkey_block_layout, &notice_layout,
    &trap_257_layout,  &trap_259_layout,   &guid_info_layout,
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
	return dr ? smp_dr_encode(smp, buf, len, err)
		  : smp_lid_encode(smp, buf, len, err);
}

int ibp_smp_decode(struct ibp_smp *smp, const uint8_t *buf, size_t len,
		   ibp_error *err)
{
	int rc = check_args(smp, buf, len, err);
	if (rc != IBP_OK)
		return rc;
	struct mad_hdr h;
	(void)mad_hdr_decode(&h, buf, len, NULL);
	if (!smp_class_ok(h.mgmt_class))
		return ibp_error_set(err, IBP_EINVAL,
				     "management class 0x%02x is not an SMP",
				     h.mgmt_class);
	if (h.mgmt_class == IBP_MGMT_CLASS_SUBN_LID)
		return smp_lid_decode(smp, buf, len, err);
	/* decoded aside: a bad hop count leaves *smp alone */
	struct ibp_smp dr;
	(void)smp_dr_decode(&dr, buf, len, NULL);
	if (dr.hop_cnt > IBP_SMP_MAX_HOPS)
		return ibp_error_set(err, IBP_EINVAL,
				     "DR SMP hop count %u > %u", dr.hop_cnt,
				     IBP_SMP_MAX_HOPS);
	*smp = dr;
	return IBP_OK;
}

int ibp_mad_peek(const uint8_t *buf, size_t len, uint8_t *mgmt_class,
		 uint8_t *method, uint64_t *tid, uint16_t *attr_id)
{
	struct mad_hdr h;
	if (mad_hdr_decode(&h, buf, len, NULL) != IBP_OK)
		return IBP_ESHORT;
	if (mgmt_class)
		*mgmt_class = h.mgmt_class;
	if (method)
		*method = h.method;
	if (tid)
		*tid = h.tid;
	if (attr_id)
		*attr_id = h.attr_id;
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
	if (!desc || !buf || len < IBP_NODE_DESC_SIZE)
		return ibp_layout_bad_args_("NodeDescription", desc, buf, len,
					    IBP_NODE_DESC_SIZE, err);
	size_t n = strnlen(desc, IBP_NODE_DESC_SIZE + 1);
	if (n > IBP_NODE_DESC_SIZE)
		return ibp_error_set(err, IBP_ERANGE,
				     "node description longer than %u bytes",
				     IBP_NODE_DESC_SIZE);
	struct node_desc_host h = {{0}}; /* zero-padded */
	memcpy(h.text, desc, n);
	return node_desc_encode(&h, buf, len, err);
}

int ibp_node_desc_decode(char out[IBP_NODE_DESC_SIZE + 1], const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	struct node_desc_host h;
	int rc = node_desc_decode(out ? &h : NULL, buf, len, err);
	if (rc != IBP_OK)
		return rc;
	memcpy(out, h.text, IBP_NODE_DESC_SIZE);
	out[IBP_NODE_DESC_SIZE] = '\0';
	return IBP_OK;
}

/* ------------------------------------------- the other attributes */

int ibp_node_info_encode(const struct ibp_node_info *ni, uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return node_info_encode(ni, buf, len, err);
}

int ibp_node_info_decode(struct ibp_node_info *ni, const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return node_info_decode(ni, buf, len, err);
}

int ibp_switch_info_encode(const struct ibp_switch_info *si, uint8_t *buf,
			   size_t len, ibp_error *err)
{
	return switch_info_encode(si, buf, len, err);
}

int ibp_switch_info_decode(struct ibp_switch_info *si, const uint8_t *buf,
			   size_t len, ibp_error *err)
{
	return switch_info_decode(si, buf, len, err);
}

int ibp_port_info_encode(const struct ibp_port_info *pi, uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return port_info_encode(pi, buf, len, err);
}

int ibp_port_info_decode(struct ibp_port_info *pi, const uint8_t *buf,
			 size_t len, ibp_error *err)
{
	return port_info_decode(pi, buf, len, err);
}

void ibp_port_info_set_enforcement(struct ibp_port_info *pi, bool inbound,
				   bool outbound)
{
	pi->link_state = IBP_PORT_STATE_NOP;
	pi->port_phys_state = IBP_PHYS_STATE_NOP;
	pi->link_down_default_state = 0; /* no state change */
	pi->partition_enforcement_inbound = inbound;
	pi->partition_enforcement_outbound = outbound;
}

/* A layout whose host object is one array (a P_KeyTable or GUIDInfo
 * block): coded through its host struct, which holds just that array. */
union array_host {
	struct pkey_block_host pkey;
	struct guid_info_host guid;
};

static int array_encode(const struct ibp_layout *l, const void *arr,
			uint8_t *buf, size_t len, ibp_error *err)
{
	union array_host h;
	if (arr)
		memcpy(&h, arr, l->host_size);
	return l->encode(arr ? &h : NULL, buf, len, err);
}

static int array_decode(const struct ibp_layout *l, void *arr,
			const uint8_t *buf, size_t len, ibp_error *err)
{
	union array_host h;
	int rc = l->decode(arr ? &h : NULL, buf, len, err);
	if (rc == IBP_OK)
		memcpy(arr, &h, l->host_size);
	return rc;
}

int ibp_pkey_block_encode(const uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  uint8_t *buf, size_t len, ibp_error *err)
{
	return array_encode(&pkey_block_layout, pkeys, buf, len, err);
}

int ibp_pkey_block_decode(uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  const uint8_t *buf, size_t len, ibp_error *err)
{
	return array_decode(&pkey_block_layout, pkeys, buf, len, err);
}

int ibp_guid_info_encode(const uint64_t guids[IBP_GUID_INFO_BLOCK],
			 uint8_t *buf, size_t len, ibp_error *err)
{
	return array_encode(&guid_info_layout, guids, buf, len, err);
}

int ibp_guid_info_decode(uint64_t guids[IBP_GUID_INFO_BLOCK],
			 const uint8_t *buf, size_t len, ibp_error *err)
{
	return array_decode(&guid_info_layout, guids, buf, len, err);
}

/* ----------------------------------------------------------- Notice */

/* 64 bytes in an SMP; IssuerGID too when len >= 80 (the table's
 * optional tail). */
int ibp_notice_encode(const struct ibp_notice *n, uint8_t *buf, size_t len,
		      ibp_error *err)
{
	return notice_encode(n, buf, len, err);
}

int ibp_notice_decode(struct ibp_notice *n, const uint8_t *buf, size_t len,
		      ibp_error *err)
{
	return notice_decode(n, buf, len, err);
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

/* The DataDetails arrays are exactly the tables' size: the coders cannot
 * fail but for NULL pointers, which these void functions do not report. */
void ibp_trap_257_to_details(const struct ibp_trap_257 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)trap_257_encode(t, details, IBP_NOTICE_DETAILS_SIZE, NULL);
}

void ibp_trap_257_from_details(struct ibp_trap_257 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)trap_257_decode(t, details, IBP_NOTICE_DETAILS_SIZE, NULL);
}

void ibp_trap_259_to_details(const struct ibp_trap_259 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)trap_259_encode(t, details, IBP_NOTICE_DETAILS_SIZE, NULL);
}

void ibp_trap_259_from_details(struct ibp_trap_259 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE])
{
	(void)trap_259_decode(t, details, IBP_NOTICE_DETAILS_SIZE, NULL);
}
