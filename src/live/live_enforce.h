/*
 * live_enforce.h - private to the live module: PortInfo partition
 * enforcement reconciled as OpenSM reconciles it (see live_enforce.c),
 * for apply (the leaf ports to Set) and verify (enforcement drift).
 */
#ifndef IBPART_LIVE_ENFORCE_H
#define IBPART_LIVE_ENFORCE_H

#include <stdbool.h>
#include <stddef.h>

#include "ibpart/live.h"
#include "live/live_lib.h"
#include "policy/policy_lib.h"
#include "ibpart/tables.h"

/* A leaf port (a switch external port facing an end port) whose
 * partition enforcement bits differ from what they should be. */
struct live_enforce_port {
	size_t node; /* keyed by the fabric of `have` */
	unsigned port;
	bool have_in, have_out; /* PartitionEnforcementInbound/Outbound */
	bool want_in, want_out;
	bool differs;
};

/* Every port of `have` whose enforcement bits the SM read (its leaf
 * ports, ibp_sm_read_tables), on a switch that implements at least one
 * bit (SwitchInfo, ibp_sm_switch_enforcement_caps), checked against the
 * bits it should hold: `saved`'s for that port when saved is given (a
 * rollback: a port saved does not list is left), else the session's
 * part_enforce (ibp_live_enforce; -1 checks nothing), except off on a
 * port `unplaced` (may be NULL) lists as unenforced: its copy of the end
 * port's table is truncated, and OpenSM then turns enforcement off there
 * (ERR 0507) rather than drop the traffic of the P_Keys it could not
 * copy.  Besides, unless saved is given, every switch port facing
 * another switch whose bits `have` holds without a table (the SM reads
 * them where the switch implements the bits): wanted off, as OpenSM
 * clears them whatever part_enforce says.  A direction the switch does
 * not implement is not compared
 * (wanted as held).  Every port compared goes to *out (malloc'd, *n of
 * them, the caller frees it), `differs` set on those whose bits are not
 * what they should be.  IBP_ENOMEM. */
int live_enforce_check(ibp_live *l, const ibp_tables *have,
		       const ibp_tables *saved,
		       const ibp_policy_unplaced *unplaced,
		       struct live_enforce_port **out, size_t *n,
		       ibp_error *err);

/* Add an IBP_DRIFT_ENFORCEMENT item to d for each of the n ports (of
 * live_enforce_check) that differs, and keep d's order (node, port, then index;
 * a port's enforcement item last).  IBP_ENOMEM (d unchanged). */
int live_drift_add_enforcement(ibp_drift *d,
			       const struct live_enforce_port *ports, size_t n);

#endif
