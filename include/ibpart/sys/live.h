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

/* The session's SM (sys/sm.h): what verify, apply and the monitor
 * drive, and what ibpartd's collector keeps a discovery from. */
struct ibp_sm *ibp_live_sm(ibp_live *l);
struct ibp_sm_discovery;
/* Instead of ibp_live_discover: the session takes a discovery kept from
 * an earlier session on the same port (ibp_sm_discovery_take on its
 * ibp_live_sm(), sm.h; d consumed) and sends no SMP for it.  Whoever
 * keeps it must know nothing changed since (the SM's sweep counters);
 * reads along its routes that fail say it did. */
void ibp_live_discover_reuse(ibp_live *l, struct ibp_sm_discovery *d);
/* The fabric's alias GUIDs as ibpartd learns them at start and at each
 * sweep, after ibp_live_discover and ibp_live_find_sm: every port's
 * GUIDInfo read over SMPs and, when a master SM runs, its SA's
 * GUIDInfoRecords (ibp_sm_read_alias_guids_sa, sm.h), then the alias
 * map `file` (may be NULL: `--alias-guids FILE`) merged in: an alias the
 * fabric places on another port or index than the file keeps the
 * fabric's place (what the ports and the SM hold now wins over what was
 * written down), and counts as a conflict.  The map is written to
 * out_path (atomic; alias_map.h's format) only when its text differs
 * from the file there: *changed (may be NULL) says so.  *count (may be
 * NULL): the aliases in it.  summary (may be NULL): one line saying
 * where they came from.  Errors as for discovery (the SA not answering
 * is none: the SMPs' alone), the file's reader's (IBP_EPARSE, IBP_EIO),
 * IBP_EIO when out_path cannot be written; out_path is then untouched. */
int ibp_live_learn_alias_guids(ibp_live *l, const char *file,
			       const char *out_path, bool *changed,
			       size_t *count, char *summary,
			       size_t summary_size, ibp_error *err);

/* The pid in an OpenSM pid file (or any pid file): what ibpartd's
 * applier signals.  IBP_EINVAL when it does not hold a positive number,
 * IBP_EIO when it cannot be read. */
int ibp_read_pidfile(const char *path, pid_t *out, ibp_error *err);

IBP_END_DECLS
#endif
