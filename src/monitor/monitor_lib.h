/*
 * monitor_lib.h - the library's own half of ibpart/monitor.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/monitor.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_MONITOR_MONITOR_LIB_H
#define IBPART_MONITOR_MONITOR_LIB_H

#include "ibpart/monitor.h"
#include "ibpart/sys/monitor.h"

/* One port a sweep read. */
struct ibp_monitor_port {
	uint64_t node_guid;
	uint64_t port_guid; /* a CA port's; a switch's port 0's */
	unsigned port;
	bool is_switch;	  /* a leaf port of a switch */
	const char *desc; /* the node's NodeDescription */
	uint16_t lid;	  /* where the GMPs and SMPs went */
	/* The CA port it faces (a leaf port: the one behind the link; a
	 * CA port: itself) */
	uint64_t facing_port_guid;
	const char *facing_desc;
	/* The tenants of that port: indexes into the sweep's tenants */
	size_t ntenants;
	const size_t *tenants;
	/* No GMP sent: the plan gives the PMA's port (this CA port, the
	 * switch's port 0) no key of the default partition, so none could
	 * reach it (strict mode); constraint errors unknown */
	bool pma_skipped;
	bool pma_read;	/* the PMA answered (constraint errors valid) */
	bool pma_64bit; /* ... from PortCountersExtended */
	bool smp_read;	/* PortInfo answered (violations valid) */
	uint64_t raw[IBP_MON_NCOUNTERS];   /* as read this sweep */
	uint64_t total[IBP_MON_NCOUNTERS]; /* monotonic (the state's) */
	bool saturated[IBP_MON_NCOUNTERS]; /* raw at the counter's max */
	/* Bad P_Key traps naming this CA port (monotonic, the state's):
	 * as the sender of the refused packet (LID1) and as its
	 * destination (LID2); 0 on switch ports */
	uint64_t traps_from, traps_toward;
};

/* One tenant (a partition of the plan) and its sums over its ports. */
struct ibp_monitor_tenant {
	const char *name;
	uint16_t pkey;	 /* base, without the membership bit */
	size_t ports;	 /* CA ports of the tenant in the fabric */
	uint64_t from;	 /* constraint errors of packets from its nodes */
	uint64_t toward; /* ... toward its nodes */
	uint64_t pkey_violations; /* P_KeyViolations of its CA ports */
	uint64_t traps_from;	  /* Bad P_Key traps naming its CA ports as */
	uint64_t traps_toward;	  /* ... the sender / the destination */
};

/* A port that raised Bad P_Key traps (the state's total; port 0 of a
 * switch when OpenSM's log names only the switch: trap 259). */
struct ibp_monitor_trap_port {
	uint64_t node_guid;
	unsigned port;
	uint64_t total;
};

/* The IBA name: "PortXmitConstraintErrors", ..., "Q_KeyViolations". */
const char *ibp_monitor_counter_name(ibp_monitor_counter c);

/* The ports read, in fabric order (owned by the result). */
size_t ibp_monitor_sweep_port_count(const ibp_monitor_sweep *s);
const struct ibp_monitor_port *
ibp_monitor_sweep_port(const ibp_monitor_sweep *s, size_t i);

/* The tenants, in plan order (owned by the result). */
size_t ibp_monitor_sweep_tenant_count(const ibp_monitor_sweep *s);
const struct ibp_monitor_tenant *
ibp_monitor_sweep_tenant(const ibp_monitor_sweep *s, size_t i);

/* Whether the local port holds 0xffff (a full member of the default
 * partition), and its GUID. */
uint64_t ibp_monitor_sweep_local_port_guid(const ibp_monitor_sweep *s);

/* Ports whose PMA (when asked) or PortInfo did not answer. */
size_t ibp_monitor_sweep_unread(const ibp_monitor_sweep *s);

/* Ports read with SMPs only (pma_skipped). */
size_t ibp_monitor_sweep_skipped(const ibp_monitor_sweep *s);

/* GMPs and SMPs the sweep sent, and how long it took (ms). */
unsigned long ibp_monitor_sweep_gmps(const ibp_monitor_sweep *s);
unsigned long ibp_monitor_sweep_smps(const ibp_monitor_sweep *s);

/* When the sweep ended (seconds since the epoch, CLOCK_REALTIME). */
double ibp_monitor_sweep_time(const ibp_monitor_sweep *s);

/* The ports that raised Bad P_Key traps so far (the state's totals). */
size_t ibp_monitor_sweep_trap_port_count(const ibp_monitor_sweep *s);
const struct ibp_monitor_trap_port *
ibp_monitor_sweep_trap_port(const ibp_monitor_sweep *s, size_t i);

/* Bad P_Key traps counted by this sweep, and those among them whose
 * LIDs name no port the sweep knows (counted nowhere else). */
size_t ibp_monitor_sweep_traps(const ibp_monitor_sweep *s);
size_t ibp_monitor_sweep_traps_unplaced(const ibp_monitor_sweep *s);

/* One line of OpenSM 3.3.23's log, len bytes, not NUL-terminated, after
 * its "Mon DD HH:MM:SS usec [thread] 0xNN -> FUNCTION: " prefix:
 *  - osm_trap_rcv.c log_trap_info (OSM_LOG_ERROR):
 *    "Bad P_Key:0x%x on SL:%d from LID1:%u QP1:0x%x to LID2:%u
 *    QP2:0x%x" (trap 257: one per trap, issuer LID2), and
 *    "Received Generic Notice type:%u num:259 (Bad P_Key (switch
 *    external port)) Producer:%u (%s) from LID:%u TID:0x%016llx"
 *    (trap 259: only the issuing switch's LID);
 *  - osm_inform.c log_notice (OSM_LOG_INFO, on by default), written
 *    when the SA reports the trap, after the line above:
 *    "Reporting Security Notice \"Bad P_Key (switch external port)\"
 *    from switch LID %u, GUID 0x%016llx port %d : data_valid 0x%04x,
 *    LID1 %u, LID2 %u, PKey 0x%04x, SL %d, QP1 0x%x, QP2 0x%x, GID1 %s,
 *    GID2 %s" (a 259's whole DataDetails: its LID1, LID2 as DataValid
 *    says, P_Key and the switch port).
 * 1 with *out filled for a trap (257's detail line, 259's num line), 2
 * for the 259 report line (*out the trap with its details: the log
 * reader gives them to the trap its num:259 line counted), 0 when the
 * line is none of them (the "num:257" line of a trap 257 is not: its
 * detail line counts; nor is the report line of a 257, which repeats
 * it), -1 when it is one of them but does not parse (numbers out of
 * range, cut).  Reads at most len bytes; nothing of the line is kept. */
int ibp_opensm_log_trap_parse(const char *line, size_t len,
			      struct ibp_sm_trap *out);

/* Ports cleared by o->reset. */
size_t ibp_monitor_sweep_reset_ports(const ibp_monitor_sweep *s);

/* The result as JSON (docs/json-schemas.md, "monitor"); malloc'd, NULL
 * when out of memory. */
char *ibp_monitor_sweep_json(const ibp_monitor_sweep *s);

/* The result as text: one line per port with a non-zero counter or not
 * read, one per tenant, a summary line. */
void ibp_monitor_sweep_print(const ibp_monitor_sweep *s, FILE *out);

/* A sweep and its posture (NULL: none) as text in format ("prometheus",
 * "json", "text"); malloc'd, NULL when out of memory or for another
 * format.  The JSON adds "audit_findings" and "drift_ports" objects, the
 * text an AUDIT and a DRIFT line. */
char *ibp_monitor_sweep_format(const ibp_monitor_sweep *s,
			       const struct ibp_monitor_posture *p,
			       const char *format);

#endif
