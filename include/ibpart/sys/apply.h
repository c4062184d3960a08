/*
 * sys/apply.h - an apply as the CLI prints it, and the SM's push report it
 * carries (sys/sm.h).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/apply.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/apply.h.
 */
#ifndef IBPART_SYS_APPLY_H
#define IBPART_SYS_APPLY_H

#include <stdio.h>

#include "ibpart/apply.h"
#include "ibpart/sys/sm.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* After ibp_apply_run: the SM's report (ports changed, failed); its
 * counts are ibp_apply_counts_get's in the stable API. */
const struct ibp_sm_report *ibp_apply_report(const ibp_apply *a);

/* The dry-run plan as `ibpart apply --dry-run` prints it: one
 * SubnSet(P_KeyTable) line per block with its AttributeModifier and
 * entries, then a summary.  Right after ibp_apply_plan. */
void ibp_apply_print_plan(const ibp_apply *a, FILE *out);

/* The push report as `ibpart apply` prints it (after ibp_apply_run):
 * the SM's report, the ports not reached when incomplete, a summary. */
void ibp_apply_print(const ibp_apply *a, FILE *out);

/* The plan ports that cannot be read, one
 * line each (descriptions escaped), then their count and that nothing
 * was changed; nothing at all when every port was read.  Right after
 * ibp_apply_plan.  Returns their count. */
size_t ibp_apply_print_unreadable(const ibp_apply *a, FILE *out);

IBP_END_DECLS
#endif
