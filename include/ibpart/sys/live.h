/*
 * sys/live.h - a live session over a transport the caller made
 * (sys/transport.h): the simulator's, or another.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/live.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/live.h.
 */
#ifndef IBPART_SYS_LIVE_H
#define IBPART_SYS_LIVE_H

#include <stdio.h>

#include "ibpart/live.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* A session over a transport the caller made (transport_sim's built-in
 * fabric, or another): borrowed, it must outlive the session, which
 * never closes it.  local_port_guid is the port the SMPs leave from
 * (the SM's port when ibpart is the SM); o->ca only names it in
 * progress lines. */
int ibp_live_open_transport(const struct ibp_live_options *o, ibp_transport *t,
			    uint64_t local_port_guid, ibp_live **out,
			    ibp_error *err);

IBP_END_DECLS
#endif
