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
