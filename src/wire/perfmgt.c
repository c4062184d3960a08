/*
 * perfmgt.c - the PerfMgt GMP wire format (see include/ibpart/sys/perfmgt.h):
 * the common MAD header of a class 0x04 MAD and the ClassPortInfo,
 * PortCounters and PortCountersExtended attributes, each one table of
 * rows transcribed from IBA vol. 1 (13.4.2, 13.4.8.1, 16.1.3.5,
 * 16.1.4.11) and expanded into its coders by IBP_LAYOUT_DEFINE
 * (wire/mad_layout.h), the same machinery as the SMP attributes of
 * mad.c.  Reserved bits are rows too, so a table covers its bytes.
 */
#include <string.h>

#include "ibpart/sys/perfmgt.h"
#include "ibpart/sys/transport.h" /* IBP_MAD_SIZE */
#include "wire/mad_layout.h"

/* 13.4.2: the common MAD header (ClassSpecific 0 in PerfMgt). */
#define PERF_HDR_ROWS(F, A, R, RB) IBP_GMP_HDR_ROWS(F, R)
#define IBP_HOST		   struct ibp_perf_mad
IBP_LAYOUT_DEFINE(perf_hdr, PERF_HDR_ROWS, "PerfMgt MAD header",
		  "IBA vol. 1 13.4.2", 24, 24)
#undef IBP_HOST

/* 13.4.8.1: ClassPortInfo. */
#define CPI_ROWS(F, A, R, RB)                                                  \
	F(base_version, "BaseVersion", 0, 0, 8)                                \
	F(class_version, "ClassVersion", 1, 0, 8)                              \
	F(capability_mask, "CapabilityMask", 2, 0, 16)                         \
	F(capability_mask2, "CapabilityMask2", 4, 0, 27)                       \
	F(resp_time_value, "RespTimeValue", 7, 3, 5)                           \
	A(redirect_gid, "RedirectGID", 8, 8)                                   \
	F(redirect_tc, "RedirectTC", 24, 0, 8)                                 \
	F(redirect_sl, "RedirectSL", 25, 0, 4)                                 \
	F(redirect_fl, "RedirectFL", 25, 4, 20)                                \
	F(redirect_lid, "RedirectLID", 28, 0, 16)                              \
	F(redirect_pkey, "RedirectP_Key", 30, 0, 16)                           \
	R(32, 0, 8)                                                            \
	F(redirect_qp, "RedirectQP", 33, 0, 24)                                \
	F(redirect_qkey, "RedirectQ_Key", 36, 0, 32)                           \
	A(trap_gid, "TrapGID", 40, 8)                                          \
	F(trap_tc, "TrapTC", 56, 0, 8)                                         \
	F(trap_sl, "TrapSL", 57, 0, 4)                                         \
	F(trap_fl, "TrapFL", 57, 4, 20)                                        \
	F(trap_lid, "TrapLID", 60, 0, 16)                                      \
	F(trap_pkey, "TrapP_Key", 62, 0, 16)                                   \
	F(trap_hl, "TrapHL", 64, 0, 8)                                         \
	F(trap_qp, "TrapQP", 65, 0, 24)                                        \
	F(trap_qkey, "TrapQ_Key", 68, 0, 32)
#define IBP_HOST struct ibp_class_port_info
IBP_LAYOUT_DEFINE(cpi, CPI_ROWS, "ClassPortInfo", "IBA vol. 1 13.4.8.1",
		  IBP_CLASS_PORT_INFO_SIZE, IBP_CLASS_PORT_INFO_SIZE)
#undef IBP_HOST

/* 16.1.3.5: PortCounters (bytes 44-191 reserved). */
#define PC_ROWS(F, A, R, RB)                                                   \
	R(0, 0, 8)                                                             \
	F(port_select, "PortSelect", 1, 0, 8)                                  \
	F(counter_select, "CounterSelect", 2, 0, 16)                           \
	F(symbol_error_counter, "SymbolErrorCounter", 4, 0, 16)                \
	F(link_error_recovery_counter, "LinkErrorRecoveryCounter", 6, 0, 8)    \
	F(link_downed_counter, "LinkDownedCounter", 7, 0, 8)                   \
	F(port_rcv_errors, "PortRcvErrors", 8, 0, 16)                          \
	F(port_rcv_remote_physical_errors, "PortRcvRemotePhysicalErrors", 10,  \
	  0, 16)                                                               \
	F(port_rcv_switch_relay_errors, "PortRcvSwitchRelayErrors", 12, 0, 16) \
	F(port_xmit_discards, "PortXmitDiscards", 14, 0, 16)                   \
	F(port_xmit_constraint_errors, "PortXmitConstraintErrors", 16, 0, 8)   \
	F(port_rcv_constraint_errors, "PortRcvConstraintErrors", 17, 0, 8)     \
	F(counter_select2, "CounterSelect2", 18, 0, 8)                         \
	F(local_link_integrity_errors, "LocalLinkIntegrityErrors", 19, 0, 4)   \
	F(excessive_buffer_overrun_errors, "ExcessiveBufferOverrunErrors", 19, \
	  4, 4)                                                                \
	R(20, 0, 16)                                                           \
	F(vl15_dropped, "VL15Dropped", 22, 0, 16)                              \
	F(port_xmit_data, "PortXmitData", 24, 0, 32)                           \
	F(port_rcv_data, "PortRcvData", 28, 0, 32)                             \
	F(port_xmit_pkts, "PortXmitPkts", 32, 0, 32)                           \
	F(port_rcv_pkts, "PortRcvPkts", 36, 0, 32)                             \
	F(port_xmit_wait, "PortXmitWait", 40, 0, 32)
#define IBP_HOST struct ibp_port_counters
IBP_LAYOUT_DEFINE(pc, PC_ROWS, "PortCounters", "IBA vol. 1 16.1.3.5",
		  IBP_PORT_COUNTERS_SIZE, IBP_PORT_COUNTERS_SIZE)
#undef IBP_HOST

/* 16.1.4.11: PortCountersExtended (bytes 184-191 reserved). */
#define PCE_ROWS(F, A, R, RB)                                                  \
	R(0, 0, 8)                                                             \
	F(port_select, "PortSelect", 1, 0, 8)                                  \
	F(counter_select, "CounterSelect", 2, 0, 16)                           \
	F(counter_select2, "CounterSelect2", 4, 0, 32)                         \
	F(port_xmit_data, "PortXmitData", 8, 0, 64)                            \
	F(port_rcv_data, "PortRcvData", 16, 0, 64)                             \
	F(port_xmit_pkts, "PortXmitPkts", 24, 0, 64)                           \
	F(port_rcv_pkts, "PortRcvPkts", 32, 0, 64)                             \
	F(port_unicast_xmit_pkts, "PortUnicastXmitPkts", 40, 0, 64)            \
	F(port_unicast_rcv_pkts, "PortUnicastRcvPkts", 48, 0, 64)              \
	F(port_multicast_xmit_pkts, "PortMulticastXmitPkts", 56, 0, 64)        \
	F(port_multicast_rcv_pkts, "PortMulticastRcvPkts", 64, 0, 64)          \
	F(symbol_error_counter, "SymbolErrorCounter", 72, 0, 64)               \
	F(link_error_recovery_counter, "LinkErrorRecoveryCounter", 80, 0, 64)  \
	F(link_downed_counter, "LinkDownedCounter", 88, 0, 64)                 \
	F(port_rcv_errors, "PortRcvErrors", 96, 0, 64)                         \
	F(port_rcv_remote_physical_errors, "PortRcvRemotePhysicalErrors", 104, \
	  0, 64)                                                               \
	F(port_rcv_switch_relay_errors, "PortRcvSwitchRelayErrors", 112, 0,    \
	  64)                                                                  \
	F(port_xmit_discards, "PortXmitDiscards", 120, 0, 64)                  \
	F(port_xmit_constraint_errors, "PortXmitConstraintErrors", 128, 0, 64) \
	F(port_rcv_constraint_errors, "PortRcvConstraintErrors", 136, 0, 64)   \
	F(local_link_integrity_errors, "LocalLinkIntegrityErrors", 144, 0, 64) \
	F(excessive_buffer_overrun_errors, "ExcessiveBufferOverrunErrors",     \
	  152, 0, 64)                                                          \
	F(vl15_dropped, "VL15Dropped", 160, 0, 64)                             \
	F(port_xmit_wait, "PortXmitWait", 168, 0, 64)                          \
	F(qp1_dropped, "QP1Dropped", 176, 0, 64)
#define IBP_HOST struct ibp_port_counters_ext
IBP_LAYOUT_DEFINE(pce, PCE_ROWS, "PortCountersExtended", "IBA vol. 1 16.1.4.11",
		  IBP_PORT_COUNTERS_EXT_SIZE, IBP_PORT_COUNTERS_EXT_SIZE)
#undef IBP_HOST

const struct ibp_layout *const ibp_perf_layouts[] = {
    &perf_hdr_layout,
    &cpi_layout,
    &pc_layout,
    &pce_layout,
};
const size_t ibp_perf_nlayouts =
    sizeof(ibp_perf_layouts) / sizeof(ibp_perf_layouts[0]);

int ibp_perf_mad_init(uint8_t *buf, size_t len, uint8_t method,
		      uint16_t attr_id, uint32_t attr_mod, uint64_t tid,
		      ibp_error *err)
{
	if (!buf)
		return ibp_error_set(err, IBP_EINVAL, "NULL argument");
	if (len < IBP_MAD_SIZE)
		return ibp_error_set(err, IBP_ESHORT,
				     "PerfMgt MAD: buffer of %zu bytes, need "
				     "%u",
				     len, IBP_MAD_SIZE);
	memset(buf, 0, IBP_MAD_SIZE);
	struct ibp_perf_mad h = {.base_version = 1,
				 .mgmt_class = IBP_MGMT_CLASS_PERF,
				 .class_version = IBP_PERF_CLASS_VERSION,
				 .method = method,
				 .tid = tid,
				 .attr_id = attr_id,
				 .attr_mod = attr_mod};
	return perf_hdr_encode(&h, buf, len, err);
}

int ibp_perf_mad_decode(struct ibp_perf_mad *h, const uint8_t *buf, size_t len,
			ibp_error *err)
{
	return perf_hdr_decode(h, buf, len, err);
}

int ibp_perf_mad_encode(const struct ibp_perf_mad *h, uint8_t *buf, size_t len,
			ibp_error *err)
{
	return perf_hdr_encode(h, buf, len, err);
}

int ibp_class_port_info_encode(const struct ibp_class_port_info *c,
			       uint8_t *buf, size_t len, ibp_error *err)
{
	return cpi_encode(c, buf, len, err);
}

int ibp_class_port_info_decode(struct ibp_class_port_info *c,
			       const uint8_t *buf, size_t len, ibp_error *err)
{
	return cpi_decode(c, buf, len, err);
}

bool ibp_class_port_info_has_ext(const struct ibp_class_port_info *c)
{
	return (c->capability_mask & (IBP_PM_EXT_WIDTH_SUPPORTED |
				      IBP_PM_EXT_WIDTH_NOIETF_SUP)) != 0;
}

bool ibp_class_port_info_has_ext_errors(const struct ibp_class_port_info *c)
{
	return ibp_class_port_info_has_ext(c) &&
	       (c->capability_mask2 & IBP_PM_CAP2_ADDL_PORT_CTRS_EXT) != 0;
}

int ibp_port_counters_encode(const struct ibp_port_counters *pc, uint8_t *buf,
			     size_t len, ibp_error *err)
{
	return pc_encode(pc, buf, len, err);
}

int ibp_port_counters_decode(struct ibp_port_counters *pc, const uint8_t *buf,
			     size_t len, ibp_error *err)
{
	return pc_decode(pc, buf, len, err);
}

int ibp_port_counters_ext_encode(const struct ibp_port_counters_ext *pc,
				 uint8_t *buf, size_t len, ibp_error *err)
{
	return pce_encode(pc, buf, len, err);
}

int ibp_port_counters_ext_decode(struct ibp_port_counters_ext *pc,
				 const uint8_t *buf, size_t len, ibp_error *err)
{
	return pce_decode(pc, buf, len, err);
}
