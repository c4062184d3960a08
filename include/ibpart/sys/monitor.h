/*
 * sys/monitor.h - the monitor over a simulated fabric (sys/sim_session.h).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/monitor.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/monitor.h.
 */
#ifndef IBPART_SYS_MONITOR_H
#define IBPART_SYS_MONITOR_H

#include <stdio.h>

#include "ibpart/monitor.h"
#include "ibpart/sys/sim_session.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* A session over the simulated fabric of ss, from its SM's port: a
 * transport_sim there (*t, the caller's to close after the session),
 * the session opened with lo (ibp_live_open_transport), discovered, the
 * SM's port decided.  The fabric's or the system's status. */
int ibp_monitor_open_sim(ibp_sim_session *ss, const struct ibp_live_options *lo,
			 ibp_transport **t, ibp_live **l, ibp_error *err);

IBP_END_DECLS
#endif
