/*
 * Module wire (src/wire/): the bytes on the wire and what carries them.
 * This header owns the SMP format: mad.c (encode, bounds-checked decode)
 * and mad_print.c (attributes as smpquery prints them, through libibmad's
 * dumpers); sa.h and perfmgt.h the SA and PerfMgt MADs (sa.c,
 * perfmgt.c), all coded by one field-table codec (private
 * mad_layout.h).  The transports
 * are transport.h (the interface, transport.c) and transport_umad.h
 * (libibumad, transport_umad.c); the simulator's is sim's.  Unstable API
 * (include/ibpart/sys/).  Depends on util, topo (node types), libibmad
 * (mad_print.c) and libibumad (transport_umad.c).
 *
 * mad.h - the SMP wire format: the 256-byte MAD with the subnet management
 * header (LID-routed class 0x01 and directed-route class 0x81) and the
 * attributes the partition code reads and writes (NodeDescription,
 * NodeInfo, SwitchInfo, PortInfo, P_KeyTable, Notice with traps 257/259).
 *
 * Everything on the wire is big-endian (network byte order); the structs
 * here hold host-order values.  Every encoder and decoder takes the length
 * of the buffer it works on and never touches a byte past it: a buffer
 * shorter than the thing it must hold gives IBP_ESHORT, a malformed one
 * (an SMP of another management class, a hop count over 63, ...)
 * IBP_EINVAL.  Layouts follow InfiniBand Architecture Specification vol. 1
 * (release 1.3): MAD header 13.4.2, MAD status 13.4.7, SMP formats 14.2.1
 * (LID-routed and directed-route SMP; 14.2.1.1/14.2.1.2 in the numbering
 * libibmad cites), DR SMP processing 14.2.2, attributes 14.2.5.  The
 * layouts are cross-checked field by field against libibmad's tables
 * and rdma-core's struct umad_smp in tests/unit/test_mad.c.
 *
 * Ownership and threads: nothing here allocates; every function works on
 * the caller's structs and buffers only, the names are static strings,
 * and there is no state, so all of it may be called from any thread.
 */
#ifndef IBPART_MAD_H
#define IBPART_MAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/topo.h" /* enum ibp_node_type */
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#ifndef IBP_MAD_SIZE
#define IBP_MAD_SIZE 256u /* every SMP is one 256-byte MAD */
#endif
#define IBP_MAD_HDR_SIZE      24u /* common MAD header (13.4.2) */
#define IBP_SMP_DATA_OFFSET   64u /* SMP data, both SMP formats */
#define IBP_SMP_DATA_SIZE     64u
#define IBP_SMP_PATH_OFFSET   128u /* DR: InitialPath[64], then ReturnPath */
#define IBP_SMP_RPATH_OFFSET  192u
#define IBP_SMP_PATH_SIZE     64u
#define IBP_SMP_MAX_HOPS      63u     /* path[0] is unused (14.2.2) */
#define IBP_LID_PERMISSIVE    0xffffu /* DrSLID/DrDLID of a pure DR SMP */
#define IBP_MAD_BASE_VERSION  1u
#define IBP_SMP_CLASS_VERSION 1u

/* Management classes (13.4.4). */
enum ibp_mgmt_class {
	IBP_MGMT_CLASS_SUBN_LID = 0x01, /* LID-routed SMP */
	IBP_MGMT_CLASS_SUBN_DR = 0x81,	/* directed-route SMP */
};

/* Methods (13.4.5); the response bit is 0x80. */
enum ibp_mad_method {
	IBP_METHOD_GET = 0x01,
	IBP_METHOD_SET = 0x02,
	IBP_METHOD_SEND = 0x03,
	IBP_METHOD_TRAP = 0x05,
	IBP_METHOD_REPORT = 0x06,
	IBP_METHOD_TRAP_REPRESS = 0x07,
	IBP_METHOD_GET_RESP = 0x81,
	IBP_METHOD_REPORT_RESP = 0x86,
};
#define IBP_METHOD_RESPONSE_BIT 0x80u

/* MAD Status field (13.4.7).  In a DR SMP the top bit of the
 * 16-bit status word is the D (direction) bit and the status proper is
 * the low 15 bits (14.2.1). */
enum ibp_mad_status {
	IBP_MAD_STATUS_OK = 0x0000,
	IBP_MAD_STATUS_BUSY = 0x0001,
	IBP_MAD_STATUS_REDIRECT = 0x0002,
	/* bits 2-4: the invalid-field code */
	IBP_MAD_STATUS_BAD_VERSION = 0x0004, /* base/class version */
	IBP_MAD_STATUS_UNSUP_METHOD = 0x0008,
	IBP_MAD_STATUS_UNSUP_METHOD_ATTR = 0x000c, /* method/attribute */
	IBP_MAD_STATUS_INVALID_FIELD = 0x001c, /* attribute value/modifier */
};
#define IBP_MAD_STATUS_FIELD_MASK 0x001cu /* the invalid-field code */
#define IBP_SMP_DIRECTION_BIT	  0x8000u /* D bit, DR SMP status word */
#define IBP_SMP_STATUS_MASK	  0x7fffu

/* Subnet management attribute IDs (14.2.5). */
enum ibp_smp_attr {
	IBP_ATTR_CLASS_PORT_INFO = 0x0001,
	IBP_ATTR_NOTICE = 0x0002,
	IBP_ATTR_NODE_DESC = 0x0010,
	IBP_ATTR_NODE_INFO = 0x0011,
	IBP_ATTR_SWITCH_INFO = 0x0012,
	IBP_ATTR_GUID_INFO = 0x0014,
	IBP_ATTR_PORT_INFO = 0x0015,
	IBP_ATTR_PKEY_TABLE = 0x0016,
	IBP_ATTR_SL_VL_TABLE = 0x0017,
	IBP_ATTR_VL_ARB_TABLE = 0x0018,
	IBP_ATTR_LINEAR_FT = 0x0019,
	IBP_ATTR_RANDOM_FT = 0x001a,
	IBP_ATTR_MCAST_FT = 0x001b,
	IBP_ATTR_SM_INFO = 0x0020,
	IBP_ATTR_VENDOR_DIAG = 0x0030,
	IBP_ATTR_LED_INFO = 0x0031,
};

/* ---------------------------------------------------------------- SMP */

/*
 * One SMP, either format.  The fields that exist only in a DR SMP
 * (direction, hop_ptr, hop_cnt, dr_slid, dr_dlid, the paths) are ignored
 * when encoding a LID-routed one and decoded as 0 from one.
 */
struct ibp_smp {
	uint8_t base_version;  /* 1 */
	uint8_t mgmt_class;    /* IBP_MGMT_CLASS_SUBN_LID or _DR */
	uint8_t class_version; /* 1 */
	uint8_t method;	       /* with the response bit, e.g. 0x81 */
	uint16_t status;       /* LID: 16 bits; DR: the low 15 bits */
	bool direction;	       /* DR: the D bit (1 = returning) */
	uint8_t hop_ptr;       /* DR */
	uint8_t hop_cnt;       /* DR, 0..63 */
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	uint64_t mkey;
	uint16_t dr_slid; /* DR */
	uint16_t dr_dlid; /* DR */
	uint8_t data[IBP_SMP_DATA_SIZE];
	uint8_t initial_path[IBP_SMP_PATH_SIZE]; /* DR, [1..hop_cnt] */
	uint8_t return_path[IBP_SMP_PATH_SIZE];	 /* DR */
};

/* Write smp as 256 wire bytes to buf (len >= IBP_MAD_SIZE, else
 * IBP_ESHORT).  Reserved bytes are written 0.  IBP_EINVAL for a class
 * other than 0x01/0x81, or for a DR SMP a hop count over 63 or a status
 * using bit 15 (that bit is the D bit there). */
int ibp_smp_encode(const struct ibp_smp *smp, uint8_t *buf, size_t len,
		   ibp_error *err);
/* Read an SMP from buf.  IBP_ESHORT when len < IBP_MAD_SIZE, IBP_EINVAL
 * when the class is not an SMP class or a DR hop count exceeds 63.  The
 * versions are not checked (an SMA answers a wrong one with status
 * IBP_MAD_STATUS_BAD_VERSION; see ibp_smp_check). */
int ibp_smp_decode(struct ibp_smp *smp, const uint8_t *buf, size_t len,
		   ibp_error *err);

/* Whether smp is a directed-route SMP (class 0x81). */
static inline bool ibp_smp_is_dr(const struct ibp_smp *smp)
{
	return smp->mgmt_class == IBP_MGMT_CLASS_SUBN_DR;
}

/* Peek at a raw MAD without decoding it all: 0 / IBP_ESHORT. */
int ibp_mad_peek(const uint8_t *buf, size_t len, uint8_t *mgmt_class,
		 uint8_t *method, uint64_t *tid, uint16_t *attr_id);

/* Initialise a LID-routed request (Get/Set/...): versions 1, status 0,
 * data zero.  The destination LID is not part of the MAD (it is the
 * transport's business: the LRH / umad address).  Fill smp->data with the
 * attribute afterwards (e.g. ibp_port_info_encode(&pi, smp->data, sizeof
 * smp->data, err)). */
void ibp_smp_init_lid(struct ibp_smp *smp, uint8_t method, uint16_t attr_id,
		      uint32_t attr_mod, uint64_t tid, uint64_t mkey);
/* Initialise a directed-route request along path[0..hop_cnt-1] (the port
 * to leave by at each hop; path[0] is the first hop's port and lands in
 * InitialPath[1]).  hop_cnt 0 addresses the local node.  DrSLID and DrDLID
 * are set permissive (0xffff: the path is purely directed); hop pointer 0,
 * D bit 0.  IBP_EINVAL when hop_cnt > 63 or path is NULL with hop_cnt>0. */
int ibp_smp_init_dr(struct ibp_smp *smp, uint8_t method, uint16_t attr_id,
		    uint32_t attr_mod, const uint8_t *path, unsigned hop_cnt,
		    uint64_t tid, uint64_t mkey, ibp_error *err);
/* A DR path as infiniband-diags write it ("-D 0,1,3,17"): comma-separated
 * port numbers, the first being 0 (the local port, InitialPath[0], unused);
 * a leading "0," may be omitted only when the whole path is "0".  Fills
 * path[0..*hop_cnt-1] with the hops after that, ready for ibp_smp_init_dr.
 * IBP_EINVAL for anything else (a non-number, a port > 255, a first
 * element other than 0, more than 63 hops). */
int ibp_dr_path_parse(const char *text, uint8_t path[IBP_SMP_MAX_HOPS],
		      unsigned *hop_cnt, ibp_error *err);
/* The reverse: "0,1,3,17" into buf (always NUL-terminated when len > 0);
 * returns what snprintf would (the length it needed). */
int ibp_dr_path_format(const uint8_t *path, unsigned hop_cnt, char *buf,
		       size_t len);
/* Turn a request into the response an SMA/SM sends: resp becomes a copy
 * of req (same TID, attribute, modifier, M_Key, paths, hop count and
 * pointer, data) with method GetResp (TrapRepress for a Trap), the given
 * status and, for DR, the D bit set (14.2.2).  resp may equal req.
 * IBP_EINVAL when req is itself a response. */
int ibp_smp_make_response(struct ibp_smp *resp, const struct ibp_smp *req,
			  uint16_t status, ibp_error *err);
/* The MAD status an SMA should answer this request with as far as the
 * header is concerned (bad version, unsupported method), or
 * IBP_MAD_STATUS_OK. Attribute support is the SMA's own business. */
uint16_t ibp_smp_check(const struct ibp_smp *smp);

/* Names for printing: "Get", "GetResp", ...; "NodeInfo", "PortInfo", ...;
 * "invalid attribute value/modifier", ...  Unknown values give "unknown"
 * (never NULL). */
const char *ibp_method_name(uint8_t method);
const char *ibp_attr_name(uint16_t attr_id);
const char *ibp_mad_status_name(uint16_t status);
const char *ibp_mgmt_class_name(uint8_t mgmt_class);

/* -------------------------------------------------- NodeDescription */

#define IBP_NODE_DESC_SIZE                                                     \
	64u /* 14.2.5.2: 64 bytes of UTF-8, not                                \
	       necessarily NUL-terminated */

/* Copy up to 64 bytes of desc, zero-padded.  IBP_ERANGE when desc is
 * longer than 64 bytes (nothing written), IBP_ESHORT when len < 64. */
int ibp_node_desc_encode(const char *desc, uint8_t *buf, size_t len,
			 ibp_error *err);
/* out receives the text, always NUL-terminated (up to 64 bytes + NUL). */
int ibp_node_desc_decode(char out[IBP_NODE_DESC_SIZE + 1], const uint8_t *buf,
			 size_t len, ibp_error *err);

/* --------------------------------------------------------- NodeInfo */

#define IBP_NODE_INFO_SIZE 40u /* 14.2.5.3 */

/* NodeType values: enum ibp_node_type of topo.h (IBP_NODE_CA 1,
 * IBP_NODE_SWITCH 2, IBP_NODE_ROUTER 3), shared with the fabric model. */
struct ibp_node_info {
	uint8_t base_version;
	uint8_t class_version;
	uint8_t node_type; /* enum ibp_node_type (topo.h) */
	uint8_t num_ports;
	uint64_t sys_image_guid;
	uint64_t node_guid;
	uint64_t port_guid;
	uint16_t partition_cap;
	uint16_t device_id;
	uint32_t revision;
	uint8_t local_port_num;
	uint32_t vendor_id; /* 24 bits */
};

/* NodeInfo to/from its 40 wire bytes (buf usually an SMP's data).
 * Encode zeroes the reserved bits and masks each field to its width
 * (vendor_id to 24 bits); decode zeroes *ni first.  IBP_ESHORT when len <
 * IBP_NODE_INFO_SIZE (nothing written; *ni untouched), IBP_EINVAL for a
 * NULL pointer. */
int ibp_node_info_encode(const struct ibp_node_info *ni, uint8_t *buf,
			 size_t len, ibp_error *err);
int ibp_node_info_decode(struct ibp_node_info *ni, const uint8_t *buf,
			 size_t len, ibp_error *err);

/* ------------------------------------------------------- SwitchInfo */

#define IBP_SWITCH_INFO_SIZE 20u /* 14.2.5.4 (with MulticastFDBTop) */

struct ibp_switch_info {
	uint16_t linear_fdb_cap;
	uint16_t random_fdb_cap;
	uint16_t mcast_fdb_cap;
	uint16_t linear_fdb_top;
	uint8_t default_port;
	uint8_t default_mcast_primary_port;
	uint8_t default_mcast_not_primary_port;
	uint8_t life_time_value; /* 5 bits */
	bool port_state_change;	 /* 1 bit */
	uint8_t optimized_sl2vl; /* 2 bits */
	uint16_t lids_per_port;
	uint16_t partition_enforcement_cap;
	bool inbound_enforcement_cap;
	bool outbound_enforcement_cap;
	bool filter_raw_inbound_cap;
	bool filter_raw_outbound_cap;
	bool enhanced_port0;
	uint16_t mcast_fdb_top;
};

/* SwitchInfo to/from its 20 wire bytes, as the NodeInfo coders:
 * IBP_ESHORT when len < IBP_SWITCH_INFO_SIZE, IBP_EINVAL for NULL. */
int ibp_switch_info_encode(const struct ibp_switch_info *si, uint8_t *buf,
			   size_t len, ibp_error *err);
int ibp_switch_info_decode(struct ibp_switch_info *si, const uint8_t *buf,
			   size_t len, ibp_error *err);

/* --------------------------------------------------------- PortInfo */

#define IBP_PORT_INFO_SIZE 64u /* 14.2.5.6; attribute modifier = port */

enum ibp_port_state { /* PortInfo LinkState */
		      IBP_PORT_STATE_NOP = 0,
		      IBP_PORT_STATE_DOWN = 1,
		      IBP_PORT_STATE_INIT = 2,
		      IBP_PORT_STATE_ARMED = 3,
		      IBP_PORT_STATE_ACTIVE = 4,
};

enum ibp_port_phys_state { /* PortInfo PortPhysicalState */
			   IBP_PHYS_STATE_NOP = 0,
			   IBP_PHYS_STATE_SLEEP = 1,
			   IBP_PHYS_STATE_POLLING = 2,
			   IBP_PHYS_STATE_DISABLED = 3,
			   IBP_PHYS_STATE_TRAINING = 4,
			   IBP_PHYS_STATE_LINKUP = 5,
			   IBP_PHYS_STATE_ERROR_RECOVERY = 6,
			   IBP_PHYS_STATE_PHY_TEST = 7,
};

/* PortInfo CapabilityMask bits (14.2.5.6). */
#define IBP_CAP_IS_SM			     (1u << 1)
#define IBP_CAP_IS_NOTICE_SUPPORTED	     (1u << 2)
#define IBP_CAP_IS_TRAP_SUPPORTED	     (1u << 3)
#define IBP_CAP_IS_AUTO_MIGRATION_SUPPORTED  (1u << 5)
#define IBP_CAP_IS_SL_MAPPING_SUPPORTED	     (1u << 6)
#define IBP_CAP_IS_MKEY_NVRAM		     (1u << 7)
#define IBP_CAP_IS_PKEY_NVRAM		     (1u << 8)
#define IBP_CAP_IS_LED_INFO_SUPPORTED	     (1u << 9)
#define IBP_CAP_IS_SM_DISABLED		     (1u << 10)
#define IBP_CAP_IS_SYS_IMAGE_GUID_SUPPORTED  (1u << 11)
#define IBP_CAP_IS_PKEY_SW_EXT_PORT_TRAP_SUP (1u << 12)
#define IBP_CAP_IS_EXT_SPEEDS_SUPPORTED	     (1u << 14)
#define IBP_CAP_IS_CAP_MASK2_SUPPORTED	     (1u << 15)
#define IBP_CAP_IS_CM_SUPPORTED		     (1u << 16)
#define IBP_CAP_IS_DEVICE_MGMT_SUPPORTED     (1u << 19)
#define IBP_CAP_IS_VENDOR_CLASS_SUPPORTED    (1u << 20)
#define IBP_CAP_IS_DR_NOTICE_SUPPORTED	     (1u << 21)
#define IBP_CAP_IS_CAP_MASK_NOTICE_SUPPORTED (1u << 22)
#define IBP_CAP_IS_CLIENT_REREG_SUPPORTED    (1u << 25)

struct ibp_port_info {
	uint64_t mkey;
	uint64_t gid_prefix;
	uint16_t lid;
	uint16_t master_sm_lid;
	uint32_t capability_mask;
	uint16_t diag_code;
	uint16_t mkey_lease_period;
	uint8_t local_port_num;
	uint8_t link_width_enabled;
	uint8_t link_width_supported;
	uint8_t link_width_active;
	uint8_t link_speed_supported;	 /* 4 bits */
	uint8_t link_state;		 /* 4 bits, enum ibp_port_state */
	uint8_t port_phys_state;	 /* 4 bits, enum ibp_port_phys_state */
	uint8_t link_down_default_state; /* 4 bits */
	uint8_t mkey_protect_bits;	 /* 2 bits */
	uint8_t lmc;			 /* 3 bits */
	uint8_t link_speed_active;	 /* 4 bits */
	uint8_t link_speed_enabled;	 /* 4 bits */
	uint8_t neighbor_mtu;		 /* 4 bits */
	uint8_t master_sm_sl;		 /* 4 bits */
	uint8_t vl_cap;			 /* 4 bits */
	uint8_t init_type;		 /* 4 bits */
	uint8_t vl_high_limit;
	uint8_t vl_arb_high_cap;
	uint8_t vl_arb_low_cap;
	uint8_t init_type_reply; /* 4 bits */
	uint8_t mtu_cap;	 /* 4 bits */
	uint8_t vl_stall_count;	 /* 3 bits */
	uint8_t hoq_life;	 /* 5 bits */
	uint8_t operational_vls; /* 4 bits */
	bool partition_enforcement_inbound;
	bool partition_enforcement_outbound;
	bool filter_raw_inbound;
	bool filter_raw_outbound;
	uint16_t mkey_violations;
	uint16_t pkey_violations;
	uint16_t qkey_violations;
	uint8_t guid_cap;
	bool client_reregister;
	uint8_t mcast_pkey_trap_suppression; /* 2 bits */
	uint8_t subnet_timeout;		     /* 5 bits */
	uint8_t resp_time_value;	     /* 5 bits */
	uint8_t local_phy_errors;	     /* 4 bits */
	uint8_t overrun_errors;		     /* 4 bits */
	uint16_t max_credit_hint;
	uint32_t link_round_trip_latency; /* 24 bits */
	uint16_t capability_mask2;
	uint8_t link_speed_ext_active;	  /* 4 bits */
	uint8_t link_speed_ext_supported; /* 4 bits */
	uint8_t link_speed_ext_enabled;	  /* 5 bits */
};

/* Fields wider on the host than on the wire are masked to their width. */
int ibp_port_info_encode(const struct ibp_port_info *pi, uint8_t *buf,
			 size_t len, ibp_error *err);
int ibp_port_info_decode(struct ibp_port_info *pi, const uint8_t *buf,
			 size_t len, ibp_error *err);
/* Turn pi, the PortInfo a switch external port holds (as last read),
 * into the PortInfo of a SubnSet that changes only its partition
 * enforcement, as OpenSM's partition manager writes it: PortState,
 * PortPhysicalState and LinkDownDefaultState 0, "no state change"
 * (14.2.5.6: the Active and LinkUp a port reports are no values a Set may
 * carry), PartitionEnforcementInbound/Outbound as given (10.9.4), every
 * other field as held (FilterRawInbound/Outbound included: OpenSM leaves
 * them).  Cannot fail. */
void ibp_port_info_set_enforcement(struct ibp_port_info *pi, bool inbound,
				   bool outbound);

/* --------------------------------------------------------- GUIDInfo */

#define IBP_GUID_INFO_BLOCK 8u	/* 14.2.5.5: 8 GUIDs per block */
#define IBP_GUID_INFO_BYTES 64u /* attribute modifier = block number */

/* One GUIDInfo block, 8 host-order GUIDs <-> 64 wire bytes (entry 0 of
 * block 0 is the port GUID, the rest alias GUIDs, 0 when unused; a port
 * holds PortInfo GUIDCap entries). */
int ibp_guid_info_encode(const uint64_t guids[IBP_GUID_INFO_BLOCK],
			 uint8_t *buf, size_t len, ibp_error *err);
int ibp_guid_info_decode(uint64_t guids[IBP_GUID_INFO_BLOCK],
			 const uint8_t *buf, size_t len, ibp_error *err);

/* ------------------------------------------------------- P_KeyTable */

#define IBP_PKEY_BLOCK_ENTRIES 32u /* 14.2.5.7: 32 P_Keys per block */
#define IBP_PKEY_BLOCK_BYTES   64u

/* One block, 32 host-order entries <-> 64 wire bytes. */
int ibp_pkey_block_encode(const uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  uint8_t *buf, size_t len, ibp_error *err);
int ibp_pkey_block_decode(uint16_t pkeys[IBP_PKEY_BLOCK_ENTRIES],
			  const uint8_t *buf, size_t len, ibp_error *err);

/* P_KeyTable attribute modifier (14.2.5.7): block number in bits 0-15;
 * on a switch the port number in bits 16-23 (0 for a CA or router).
 * This is what smpquery/libibmad put there (block | port << 16). */
static inline uint32_t ibp_pkey_attr_mod(unsigned block, unsigned port)
{
	return (uint32_t)(block & 0xffffu) | ((uint32_t)(port & 0xffu) << 16);
}
static inline unsigned ibp_pkey_attr_mod_block(uint32_t attr_mod)
{
	return attr_mod & 0xffffu;
}
static inline unsigned ibp_pkey_attr_mod_port(uint32_t attr_mod)
{
	return (attr_mod >> 16) & 0xffu;
}

/* ----------------------------------------------------------- Notice */

/* Notice (14.2.5.1): 80 bytes as an attribute, of which an SMP carries the
 * first 64 (IssuerGID does not fit in SMP data and is decoded / encoded
 * only when len >= 80). */
#define IBP_NOTICE_SMP_SIZE	  64u
#define IBP_NOTICE_SIZE		  80u
#define IBP_NOTICE_DETAILS_OFFSET 10u
#define IBP_NOTICE_DETAILS_SIZE	  54u

enum ibp_notice_type {
	IBP_NOTICE_TYPE_FATAL = 0,
	IBP_NOTICE_TYPE_URGENT = 1,
	IBP_NOTICE_TYPE_SECURITY = 2,
	IBP_NOTICE_TYPE_SM = 3,
	IBP_NOTICE_TYPE_INFO = 4,
};

/* ProducerType of a generic notice: the issuer's node type (CA 1, switch
 * 2, router 3) or 4 for a class manager. */
#define IBP_NOTICE_PRODUCER_CLASS_MGR 4u

#define IBP_TRAP_BAD_PKEY	 257u /* an end port dropped a bad P_Key */
#define IBP_TRAP_BAD_QKEY	 258u
#define IBP_TRAP_SWITCH_BAD_PKEY 259u /* switch external port filter */

struct ibp_notice {
	bool is_generic;
	uint8_t type;		/* 7 bits, enum ibp_notice_type */
	uint32_t producer_type; /* 24 bits (VendorID when not generic) */
	uint16_t trap_num;	/* TrapNumber (DeviceID when not generic) */
	uint16_t issuer_lid;
	bool toggle;
	uint16_t count; /* 15 bits */
	uint8_t data_details[IBP_NOTICE_DETAILS_SIZE];
	uint8_t issuer_gid[16]; /* only with len >= IBP_NOTICE_SIZE */
};

/* Needs len >= 64; IssuerGID goes/comes along when len >= 80. */
int ibp_notice_encode(const struct ibp_notice *n, uint8_t *buf, size_t len,
		      ibp_error *err);
int ibp_notice_decode(struct ibp_notice *n, const uint8_t *buf, size_t len,
		      ibp_error *err);

/* Trap 257 (Bad P_Key) and 258 (Bad Q_Key) DataDetails (14.2.5.1): */
struct ibp_trap_257 {
	uint16_t lid1; /* the sender of the offending packet */
	uint16_t lid2; /* the receiver (the port that dropped it) */
	uint32_t key;  /* 257: the packet's P_Key (low 16 bits) */
	uint8_t sl;    /* 4 bits */
	uint32_t qp1;  /* 24 bits */
	uint32_t qp2;  /* 24 bits */
	uint8_t gid1[16];
	uint8_t gid2[16];
};

/* Trap 259 (switch external port P_Key violation) DataDetails.  DataValid
 * says which of the following fields hold data; bit 0 is its least
 * significant bit.  (The field layout is checked against OpenSM's and
 * Wireshark's; these bit positions only against our reading of 14.2.5.1.) */
#define IBP_TRAP259_VALID_LID1 (1u << 0)
#define IBP_TRAP259_VALID_LID2 (1u << 1)
#define IBP_TRAP259_VALID_PKEY (1u << 2)
#define IBP_TRAP259_VALID_SL   (1u << 3)
#define IBP_TRAP259_VALID_QP1  (1u << 4)
#define IBP_TRAP259_VALID_QP2  (1u << 5)
#define IBP_TRAP259_VALID_GID1 (1u << 6)
#define IBP_TRAP259_VALID_GID2 (1u << 7)

struct ibp_trap_259 {
	uint16_t data_valid; /* IBP_TRAP259_VALID_* */
	uint16_t lid1;
	uint16_t lid2;
	uint16_t pkey;
	uint8_t sl;   /* 4 bits */
	uint32_t qp1; /* 24 bits */
	uint32_t qp2; /* 24 bits */
	uint8_t gid1[16];
	uint8_t gid2[16];
	uint16_t sw_lid; /* SWLIDADDR: the switch */
	uint8_t port;	 /* PortNo: the port that filtered */
};

/* Fill n as a generic trap: is_generic 1, the given type, producer and
 * trap number, issuer LID, toggle/count 0, details zeroed. */
void ibp_notice_init_trap(struct ibp_notice *n, uint8_t type,
			  uint32_t producer_type, uint16_t trap_num,
			  uint16_t issuer_lid);
/* Trap details <-> a notice's DataDetails (the notice's TrapNumber is
 * not checked here; callers dispatch on it). */
void ibp_trap_257_to_details(const struct ibp_trap_257 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE]);
void ibp_trap_257_from_details(struct ibp_trap_257 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE]);
void ibp_trap_259_to_details(const struct ibp_trap_259 *t,
			     uint8_t details[IBP_NOTICE_DETAILS_SIZE]);
void ibp_trap_259_from_details(struct ibp_trap_259 *t,
			       const uint8_t details[IBP_NOTICE_DETAILS_SIZE]);

/* ------------------------------------------------ smpquery-style text */

/* The body smpquery prints for nodeinfo / portinfo / switchinfo (the
 * "Name:.....value" lines, produced by libibmad's own dumpers from the
 * encoded attribute, so the text is exactly infiniband-diags'), without
 * smpquery's "# Port info: Lid 3 port 1" header line, which depends on
 * how the port was addressed.  PortInfo's M_Key is shown only with
 * show_keys (smpquery --show_keys), else "<not displayed>" as smpquery
 * does.  Returns the length written (buf is always NUL-terminated) or a
 * negative ibp_status; IBP_ERANGE when len is too small for the whole
 * text (what fits is still written). */
int ibp_node_info_dump(const struct ibp_node_info *ni, char *buf, size_t len,
		       ibp_error *err);
int ibp_port_info_dump(const struct ibp_port_info *pi, bool show_keys,
		       char *buf, size_t len, ibp_error *err);
int ibp_switch_info_dump(const struct ibp_switch_info *si, char *buf,
			 size_t len, ibp_error *err);
/* smpquery nodedesc's line: "Node Description:", 32 - strlen(desc) dots
 * (at least one), the text, a newline. */
int ibp_node_desc_dump(const char *desc, char *buf, size_t len, ibp_error *err);

IBP_END_DECLS
#endif
