/*
 * sys/apply.h - the SM's push report an apply carries (sys/sm.h).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/apply.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/apply.h.
 */
#ifndef IBPART_SYS_APPLY_H
#define IBPART_SYS_APPLY_H

#include "ibpart/apply.h"
#include "ibpart/sys/sm.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* After ibp_apply_run: the SM's report (ports changed, failed); its
 * counts are ibp_apply_counts_get's in the stable API. */
const struct ibp_sm_report *ibp_apply_report(const ibp_apply *a);

IBP_END_DECLS
#endif
