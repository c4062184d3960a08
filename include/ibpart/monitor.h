/*
 * Module monitor (src/monitor/): watching partition enforcement.  Files:
 * monitor_sweep.c (one sweep over a live session: the reads, pipelined),
 * monitor_state.c (the counters made monotonic across saturation and
 * resets; ClassPortInfo answers; the log position), monitor_traps.c
 * (Bad P_Key traps: OpenSM's log lines, counting), monitor_inform.c
 * (the SA subscription to them: InformInfo, Reports), monitor_tenants.c
 * (attribution of each counter to the
 * tenants of the node its port faces), monitor_prom.c (Prometheus text
 * exposition), monitor_report.c (text and JSON), monitor_series.c (the
 * monitor's JSON read back as series), monitor_posture.c (the audit by
 * severity and the drift by kind beside the counters), monitor_run.c
 * (one sweep as `ibpart monitor` runs and writes it; its session on the
 * simulated fabric), monitor_history.c (a service's last sweeps as
 * series).  Depends on util, topo, pkey, conf, policy, wire (mad.h,
 * perfmgt.h, sa.h, transport.h), sm, sim (a session's transport), live,
 * analysis (the audit), report (ibp_web_series), jansson.
 *
 * monitor.h - one sweep reads, over the session's transport (libibumad
 * or the built-in simulator):
 *  - PerfMgt (IBA vol. 1, 16.1) PortCounters PortXmitConstraintErrors and
 *    PortRcvConstraintErrors (8 bits, stop at 255), or their 64-bit forms
 *    in PortCountersExtended where the node's PMA says it has them
 *    (ClassPortInfo CapabilityMask2 bit 1, perfmgt.h), on every CA port
 *    and on every switch port facing a CA port (a "leaf port");
 *  - PortInfo (14.2.5.6) P_KeyViolations, M_KeyViolations and
 *    Q_KeyViolations (16 bits, stop at 0xffff) of the same ports, over
 *    LID-routed SMPs;
 * the reads of one kind all in one pipelined batch (the session's
 * max_wire_smps in flight, as the SM reads tables).
 *
 * Counters for Prometheus: a hardware counter stops at its maximum and
 * may be cleared by others (OpenSM's PerfMgr, perfquery -R).  The caller
 * keeps an ibp_monitor_state across sweeps; each counter's total there
 * grows by what the counter grew since the previous sweep, or by its
 * whole value when it went down (cleared by someone: what it counted
 * before the clear and after the previous sweep is lost), and never
 * goes down.  A counter found at its maximum is reported saturated:
 * increments past it are lost until someone clears it - which the
 * monitor does only when asked (options.reset: after reading, a Set of
 * PortCounters clears the constraint error counters it read).  The
 * PortInfo violation counters are never cleared by the monitor.
 *
 * Attribution (the plan's partitions are the tenants; the default
 * partition 0x7fff is management, not a tenant): each port faces a node
 * - a leaf port the CA behind its link, a CA port its own node - and
 * carries the tenants whose partition that CA port is a member of
 * (full or limited) in the plan.  Directions:
 *  - leaf port PortRcvConstraintErrors: packets FROM the tenant's node
 *    refused at the switch's ingress (direction "from");
 *  - leaf port PortXmitConstraintErrors: packets TOWARD the tenant's
 *    node refused at egress (direction "toward");
 *  - a CA port's own constraint errors: Xmit "from", Rcv "toward";
 *  - a CA port's P_KeyViolations: packets toward it its HCA refused
 *    (the tenant P_Key violation total counts CA ports only).
 * A node in several partitions counts toward each of them: sums across
 * tenants over-count.
 *
 * GMPs are P_Key checked (10.9.3): the monitoring port must be a full
 * member of the default partition (0xffff in its P_KeyTable) to read
 * CA ports that are limited members of it.  The sweep reads the local
 * port's P_KeyTable and says when it is not (a CA port it cannot read
 * is then reported unreadable, not zero).  Where the plan gives a PMA's
 * port no key of the default partition at all (strict mode), no GMP
 * could reach it: none is sent, and that port is read with SMPs only
 * (pma_skipped).
 *
 * Bad P_Key traps (IBA 14.2.5.1, traps 257 and 259; 10.9.3): from
 * OpenSM's log (opensm_log_path, read from where the previous sweep of
 * the same state stopped; from its start again when the file was
 * rotated - another inode - or truncated; lines longer than
 * IBP_MONITOR_LOG_LINE_MAX skipped) and from the caller's SM (traps).
 * Each is counted on the port that raised it and, where it names them,
 * for the tenants of its sender (LID1, "from") and destination (LID2,
 * "toward") CA ports.
 *
 * Subscribing (options version 3, subscribe): the first sweep of a
 * state sends the master SM's SA (class 0x03, on QP1) two SubnAdmSet
 * (InformInfo) (IBA 13.4.8.3, 15.2.5.12): traps 257 and 259, generic,
 * any issuer (LIDRangeBegin 0xffff), Subscribe 1, the Reports to the
 * monitoring port's QP1, with sa_key as SM_Key (OpenSM 3.3.23 gives
 * security traps only to a request carrying its sa_key).  The SA then
 * forwards each such trap as a SubnAdmReport(Notice) (13.4.8.2), which
 * is answered with SubnAdmReportResp and counted at the next sweep
 * with its whole DataDetails; while subscribed, opensm_log_path is read
 * past, not counted (the same traps).  A refusal (the status of the
 * SA's answer) or no answer is a warning in the sweep's diags
 * ("trap-subscription-refused"), not tried again by that state: the
 * log counts instead.  ibp_monitor_state_free ends the subscription
 * (Subscribe 0).  Only over libibumad: the simulated fabric has no SA.
 *
 * Threads: a state and a sweep result are used by one thread at a time;
 * the result is plain data once made.
 */
#ifndef IBPART_MONITOR_H
#define IBPART_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/analysis.h"
#include "ibpart/report.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/live.h"
#include "ibpart/opensm_conf.h"
#include "ibpart/verify.h"
#include "ibpart/export.h"

struct ibp_sm_trap; /* sys/sm.h: traps the caller's own SM received */

IBP_BEGIN_DECLS

#define IBP_MONITOR_OPTIONS_VERSION 4
struct ibp_monitor_options {
	unsigned version;      /* IBP_MONITOR_OPTIONS_VERSION (set by _init) */
	const char *conf_path; /* the plan: its partitions are the tenants
				  (required) */
	const char *mode; /* the plan's mode, "opensm" (NULL) or "strict" */
	bool allow_both_pkeys; /* OpenSM's -W, for reading the plan */
	bool reset;	       /* clear the constraint error counters read
				  (PortCounters Set) after reading them */
	size_t max_input_size; /* of the plan (0: limits.h) */
	unsigned window;       /* MADs in flight at once (0: 16) */
	int timeout_ms;	       /* per MAD (0: 200) */
	int retries;	       /* re-sends of an unanswered MAD (-1: 2) */
	/* version 2: Bad P_Key traps (257, 259) to count this sweep */
	const char *opensm_log_path;	 /* OpenSM's log: its "Bad P_Key" lines
					    since the previous sweep (NULL: none) */
	const struct ibp_sm_trap *traps; /* more, received by the caller's SM
					    (the simulator's), ntraps of them */
	size_t ntraps;
	/* version 3: the posture `ibpart monitor` computes with its
	 * sweep (sys/monitor.h; the sweep itself ignores them) */
	bool audit; /* the audit of the plan on the session's fabric */
	bool drift; /* the fabric's P_KeyTables against the plan (verify) */
	const ibp_osm_conf *osm; /* opensm.conf: the audit's posture rules,
				    verify's keep_pkey_indexes; NULL: none */
	/* version 4: subscribe through the SA (InformInfo, traps 257 and
	 * 259) at the first sweep of the state, and count the SM's Reports
	 * (see "Subscribing" below) */
	bool subscribe;
	uint64_t sa_key; /* the SA MADs' SM_Key: OpenSM's sa_key (init: 1,
			    its default) */
};
/* Set version, retries -1 and sa_key 1; everything else 0/NULL/false
 * (the defaults above).  Cannot fail. */
void ibp_monitor_options_init(struct ibp_monitor_options *o, unsigned version);

/* The counters a sweep reads on each port. */
typedef enum ibp_monitor_counter {
	IBP_MON_XMIT_CONSTRAINT = 0, /* PortXmitConstraintErrors */
	IBP_MON_RCV_CONSTRAINT,	     /* PortRcvConstraintErrors */
	IBP_MON_PKEY_VIOLATIONS,     /* PortInfo P_KeyViolations */
	IBP_MON_MKEY_VIOLATIONS,     /* PortInfo M_KeyViolations */
	IBP_MON_QKEY_VIOLATIONS,     /* PortInfo Q_KeyViolations */
	IBP_MON_NCOUNTERS
} ibp_monitor_counter;

/* What the caller keeps between sweeps: the last value read of every
 * counter of every port (by node GUID and port number) and its total. */
typedef struct ibp_monitor_state ibp_monitor_state;
/* The longest OpenSM log line read (longer ones are skipped). */
#define IBP_MONITOR_LOG_LINE_MAX 4096
/* A new, empty state; NULL when out of memory. */
ibp_monitor_state *ibp_monitor_state_new(void);
/* Free it; NULL is allowed.  A state holding a subscription (options
 * subscribe) ends it first, through the session's transport it was
 * made on: free the state before closing that session. */
void ibp_monitor_state_free(ibp_monitor_state *st);
/* Wait ms milliseconds between two sweeps of st on session l,
 * answering the SA's Reports as they come (the SA resends one not
 * answered within its timeout) and keeping their traps for the next
 * sweep; without a subscription, only a sleep.  IBP_OK after ms;
 * IBP_ECANCELED as soon as the session's cancel callback asks (checked
 * every 100 ms); IBP_EIO when the port failed. */
int ibp_monitor_wait(ibp_live *l, ibp_monitor_state *st, unsigned ms,
		     ibp_error *err);

typedef struct ibp_monitor_sweep ibp_monitor_sweep;

/* One sweep over an open session: discover (once, ibp_live_discover),
 * read the plan o->conf_path against the session's fabric (its findings
 * to diags, may be NULL), read every counter above (pipelined), update
 * st, and clear with o->reset.  The SM's port (for the plan's SELF) is
 * the session's (ibp_live_find_sm).  IBP_OK also when some ports did not answer
 * (ibp_monitor_sweep_prometheus: ibpart_monitor_ports_unread);
 * IBP_EPARSE when the plan cannot be read, IBP_EINVAL for bad options
 * or a plan with errors or one OpenSM would reject (fail closed, as
 * verify),
 * the fabric's or system's status (IBP_EIO, IBP_ETIMEDOUT on the local
 * port, IBP_ENOMEM) otherwise.  *out is the caller's
 * (ibp_monitor_sweep_free). */
int ibp_monitor_sweep_run(ibp_live *l, const struct ibp_monitor_options *o,
			  ibp_monitor_state *st, ibp_monitor_sweep **out,
			  ibp_diags *diags, ibp_error *err);
/* Free a result; NULL is allowed. */
void ibp_monitor_sweep_free(ibp_monitor_sweep *s);

/* The result in Prometheus' text exposition format (0.0.4): HELP and
 * TYPE lines, the metric names of docs/monitoring.md, label values
 * escaped, no timestamps on samples (node_exporter's textfile
 * collector refuses them).  A malloc'd string, NULL when out of
 * memory. */
char *ibp_monitor_sweep_prometheus(const ibp_monitor_sweep *s);

IBP_END_DECLS
#endif
