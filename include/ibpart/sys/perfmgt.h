/*
 * perfmgt.h - the Performance Management wire format (module wire,
 * src/wire/perfmgt.c): the GMP of management class 0x04 that a
 * Performance Manager sends to a port's PMA on QP1 (IBA vol. 1, 16.1),
 * and the three attributes the monitor reads: ClassPortInfo (0x0001,
 * 13.4.8.1 with PerfMgt's CapabilityMask bits of 16.1.2), PortCounters
 * (0x0012, 16.1.3.5) and PortCountersExtended (0x001D, 16.1.4.11).
 *
 * A PerfMgt MAD is the common MAD header (13.4.2, 24 bytes), 40 reserved
 * bytes, then 192 bytes of attribute data at offset 64 (16.1.1).  It is
 * a GMP: unlike an SMP it travels on QP1 with the Q_Key 0x80010000 and a
 * P_Key that the receiving port checks (10.9.3), so the requester must
 * share a partition with every port it reads, in practice by being a
 * full member of the default partition 0x7fff (0xffff in its table).
 *
 * Which counters a PMA has:
 *  - PortCounters always; PortXmitConstraintErrors and
 *    PortRcvConstraintErrors are 8 bits there and stop at 255 (16.1.3.5:
 *    "counters ... stop at all ones").
 *  - PortCountersExtended answers when ClassPortInfo CapabilityMask has
 *    IsExtendedWidthSupported (bit 9) or IsExtendedWidthSupportedNoIETF
 *    (bit 10); its constraint error counters (64 bits, with the other
 *    error counters after the data ones) are valid only when
 *    CapabilityMask2 has IsAdditionalPortCountersExtendedSupported (bit
 *    1).  These bit positions are those libibmad (IB_PM_EXT_WIDTH_
 *    SUPPORTED, IB_PM_IS_ADDL_PORT_CTRS_EXT_SUP in rdma-core's
 *    infiniband/iba/ib_types.h) and perfquery test; the field offsets
 *    are checked against libibmad's field table in
 *    tests/unit/test_perfmgt.c.
 *
 * The attribute modifier of PortCounters/PortCountersExtended is 0; the
 * port is named by PortSelect in the data (a switch answers for any of
 * its ports at its port 0's LID; a CA for the port addressed).  A Set
 * with CounterSelect bits clears the selected counters (16.1.3.5).
 *
 * Like mad.h: host-order structs, every coder takes the buffer length
 * and never reads or writes past it (IBP_ESHORT), nothing allocates, no
 * state: safe from any thread.
 */
#ifndef IBPART_PERFMGT_H
#define IBPART_PERFMGT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_MGMT_CLASS_PERF    0x04u /* 13.4.4 */
#define IBP_PERF_CLASS_VERSION 1u
#define IBP_PERF_DATA_OFFSET   64u /* 16.1.1: after 40 reserved bytes */
#define IBP_PERF_DATA_SIZE     192u
#define IBP_QP1_QKEY	       0x80010000u /* the well-known GSI Q_Key */
#define IBP_PKEY_DEFAULT_FULL  0xffffu	   /* 0x7fff, full member */

/* PerfMgt attribute IDs (16.1.2). */
enum ibp_perf_attr {
	IBP_PERF_ATTR_CLASS_PORT_INFO = 0x0001,
	IBP_PERF_ATTR_PORT_COUNTERS = 0x0012,
	IBP_PERF_ATTR_PORT_COUNTERS_EXT = 0x001d,
};

/* ClassPortInfo CapabilityMask / CapabilityMask2 bits of a PMA (16.1.2;
 * as libibmad and perfquery name them). */
#define IBP_PM_ALL_PORT_SELECT	       (1u << 8)
#define IBP_PM_EXT_WIDTH_SUPPORTED     (1u << 9)
#define IBP_PM_EXT_WIDTH_NOIETF_SUP    (1u << 10)
#define IBP_PM_CAP2_ADDL_PORT_CTRS_EXT (1u << 1) /* in CapabilityMask2 */

/* PortCounters CounterSelect bits (16.1.3.5): which counters a Set
 * clears. */
#define IBP_PC_SELECT_XMIT_CONSTRAINT (1u << 7)
#define IBP_PC_SELECT_RCV_CONSTRAINT  (1u << 8)
/* PortCountersExtended CounterSelect2 bits (16.1.4.11), read as bit 0
 * for SymbolErrorCounter, then one per error counter in layout order
 * (as CounterSelect's): not checked against a peer (ibsim has no such
 * counters), so only the simulator's PMA uses them; the monitor clears
 * through PortCounters' CounterSelect, which ibsim confirms. */
#define IBP_PCE_SELECT2_XMIT_CONSTRAINT (1u << 7)
#define IBP_PCE_SELECT2_RCV_CONSTRAINT	(1u << 8)

/* The header of a PerfMgt GMP (13.4.2); the data is separate. */
struct ibp_perf_mad {
	uint8_t base_version;  /* 1 */
	uint8_t mgmt_class;    /* IBP_MGMT_CLASS_PERF */
	uint8_t class_version; /* 1 */
	uint8_t method;	       /* with the response bit, e.g. 0x81 */
	uint16_t status;
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
};

/* A request: versions 1, class 0x04, status 0, the 256 bytes of buf
 * zeroed and the header written; the data (IBP_PERF_DATA_OFFSET) is
 * then the caller's.  IBP_ESHORT when len < 256. */
int ibp_perf_mad_init(uint8_t *buf, size_t len, uint8_t method,
		      uint16_t attr_id, uint32_t attr_mod, uint64_t tid,
		      ibp_error *err);
/* The header of buf into *h (any class; check h->mgmt_class).
 * IBP_ESHORT when len < 24. */
int ibp_perf_mad_decode(struct ibp_perf_mad *h, const uint8_t *buf, size_t len,
			ibp_error *err);
/* Write h as the header of buf, the rest untouched.  IBP_ESHORT when
 * len < 24. */
int ibp_perf_mad_encode(const struct ibp_perf_mad *h, uint8_t *buf, size_t len,
			ibp_error *err);

/* ClassPortInfo (13.4.8.1), 72 bytes. */
#define IBP_CLASS_PORT_INFO_SIZE 72u
struct ibp_class_port_info {
	uint8_t base_version;
	uint8_t class_version;
	uint16_t capability_mask;
	uint32_t capability_mask2; /* 27 bits */
	uint8_t resp_time_value;   /* 5 bits */
	uint8_t redirect_gid[16];
	uint8_t redirect_tc;
	uint8_t redirect_sl;  /* 4 bits */
	uint32_t redirect_fl; /* 20 bits */
	uint16_t redirect_lid;
	uint16_t redirect_pkey;
	uint32_t redirect_qp; /* 24 bits */
	uint32_t redirect_qkey;
	uint8_t trap_gid[16];
	uint8_t trap_tc;
	uint8_t trap_sl;  /* 4 bits */
	uint32_t trap_fl; /* 20 bits */
	uint16_t trap_lid;
	uint16_t trap_pkey;
	uint8_t trap_hl;
	uint32_t trap_qp; /* 24 bits */
	uint32_t trap_qkey;
};
/* ClassPortInfo to its 72 wire bytes (buf: a GMP's data), reserved
 * bits 0, fields masked to their width; IBP_ESHORT when len < 72. */
int ibp_class_port_info_encode(const struct ibp_class_port_info *c,
			       uint8_t *buf, size_t len, ibp_error *err);
/* ... and back (*c zeroed first); IBP_ESHORT when len < 72. */
int ibp_class_port_info_decode(struct ibp_class_port_info *c,
			       const uint8_t *buf, size_t len, ibp_error *err);
/* PortCountersExtended answers (CapabilityMask bit 9 or 10). */
bool ibp_class_port_info_has_ext(const struct ibp_class_port_info *c);
/* ... with the 64-bit error counters, the constraint errors among them
 * (CapabilityMask2 bit 1). */
bool ibp_class_port_info_has_ext_errors(const struct ibp_class_port_info *c);

/* PortCounters (16.1.3.5): the first 44 of its 192 bytes (the rest is
 * reserved).  Widths as on the wire. */
#define IBP_PORT_COUNTERS_SIZE 44u
struct ibp_port_counters {
	uint8_t port_select;
	uint16_t counter_select;
	uint16_t symbol_error_counter;
	uint8_t link_error_recovery_counter;
	uint8_t link_downed_counter;
	uint16_t port_rcv_errors;
	uint16_t port_rcv_remote_physical_errors;
	uint16_t port_rcv_switch_relay_errors;
	uint16_t port_xmit_discards;
	uint8_t port_xmit_constraint_errors; /* saturates at 255 */
	uint8_t port_rcv_constraint_errors;  /* saturates at 255 */
	uint8_t counter_select2;
	uint8_t local_link_integrity_errors;	 /* 4 bits */
	uint8_t excessive_buffer_overrun_errors; /* 4 bits */
	uint16_t vl15_dropped;
	uint32_t port_xmit_data;
	uint32_t port_rcv_data;
	uint32_t port_xmit_pkts;
	uint32_t port_rcv_pkts;
	uint32_t port_xmit_wait;
};
/* PortCounters to its first 44 wire bytes (the rest of the 192 is
 * reserved and left to the caller); IBP_ESHORT when len < 44. */
int ibp_port_counters_encode(const struct ibp_port_counters *pc, uint8_t *buf,
			     size_t len, ibp_error *err);
/* ... and back (*pc zeroed first); IBP_ESHORT when len < 44. */
int ibp_port_counters_decode(struct ibp_port_counters *pc, const uint8_t *buf,
			     size_t len, ibp_error *err);

/* PortCountersExtended (16.1.4.11): 184 of its 192 bytes. */
#define IBP_PORT_COUNTERS_EXT_SIZE 184u
struct ibp_port_counters_ext {
	uint8_t port_select;
	uint16_t counter_select;
	uint32_t counter_select2;
	uint64_t port_xmit_data;
	uint64_t port_rcv_data;
	uint64_t port_xmit_pkts;
	uint64_t port_rcv_pkts;
	uint64_t port_unicast_xmit_pkts;
	uint64_t port_unicast_rcv_pkts;
	uint64_t port_multicast_xmit_pkts;
	uint64_t port_multicast_rcv_pkts;
	/* valid with CapabilityMask2 bit 1 only: */
	uint64_t symbol_error_counter;
	uint64_t link_error_recovery_counter;
	uint64_t link_downed_counter;
	uint64_t port_rcv_errors;
	uint64_t port_rcv_remote_physical_errors;
	uint64_t port_rcv_switch_relay_errors;
	uint64_t port_xmit_discards;
	uint64_t port_xmit_constraint_errors;
	uint64_t port_rcv_constraint_errors;
	uint64_t local_link_integrity_errors;
	uint64_t excessive_buffer_overrun_errors;
	uint64_t vl15_dropped;
	uint64_t port_xmit_wait;
	uint64_t qp1_dropped;
};
/* PortCountersExtended to its first 184 wire bytes; IBP_ESHORT when
 * len < 184. */
int ibp_port_counters_ext_encode(const struct ibp_port_counters_ext *pc,
				 uint8_t *buf, size_t len, ibp_error *err);
/* ... and back (*pc zeroed first); IBP_ESHORT when len < 184. */
int ibp_port_counters_ext_decode(struct ibp_port_counters_ext *pc,
				 const uint8_t *buf, size_t len,
				 ibp_error *err);

IBP_END_DECLS
#endif
