/*
 * sys/live_connect.h - a live session made ready in one call: the topology
 * the plan is read against (optional), the local port opened, the fabric
 * discovered, the SM's port decided.  What `ibpart verify`, `apply` and
 * ibpartd's applier each did step by step before an operation (verify.h,
 * apply.h).
 *
 * Thread safety: no global state; one connection is used by one thread
 * at a time, as its ibp_live (live.h).  Nothing is written to stdout or
 * stderr: the topology's findings go to the caller's ibp_diags, progress
 * to the options' callback, the failure to its ibp_error.
 *
 * Unstable API (include/ibpart/sys/): the CLI's way into a session,
 * exported for ibpart's own front ends, and free to change in any
 * release.  A program outside ibpart opens, discovers and finds the SM
 * with ibpart/live.h (ibp_live_open, ibp_live_discover,
 * ibp_live_find_sm), as examples/api/apply_verify.c does.
 */
#ifndef IBPART_SYS_LIVE_CONNECT_H
#define IBPART_SYS_LIVE_CONNECT_H

#include <stddef.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/export.h"
#include "ibpart/live.h"
#include "ibpart/topo.h"

IBP_BEGIN_DECLS

#define IBP_LIVE_CONNECT_OPTIONS_VERSION 1
/* What to connect.  Initialise with ibp_live_connect_options_init(). */
struct ibp_live_connect_options {
	unsigned version; /* IBP_LIVE_CONNECT_OPTIONS_VERSION */
	/* The port, M_Key, SMPs, callbacks (its own version,
	 * ibp_live_options_init; NULL: the defaults).  A pointer, not the
	 * struct: a newer live struct would move the fields after it. */
	const struct ibp_live_options *live;
	/* an ibnetdiscover topology for names and LIDs (the live fabric is
	 * matched to it by GUID); NULL: the discovered fabric */
	const char *topology_path;
	size_t max_input_size; /* of the topology; 0: limits.h's default */
	/* the SM's port (GUID, name or LID); NULL: the master SM's port
	 * when an SM runs, else the local port (ibp_live_find_sm) */
	const char *sm_port;
	/* Called once the topology has loaded (or failed to), before the
	 * port is opened, with its findings sorted (NULL: not called), so
	 * a front end can show them before the discovery's progress.  Runs
	 * on the caller's thread; d is valid only during the call. */
	void (*topology_loaded)(void *ctx, const ibp_diags *d);
	void *topology_ctx;
};
/* Fill o with the defaults (live NULL: ibp_live_options_init()'s; no
 * topology, no SM port); a version out of range: only the version field,
 * which ibp_live_connect() then refuses.  o must not be NULL. */
void ibp_live_connect_options_init(struct ibp_live_connect_options *o,
				   unsigned version);

/* Which step failed. */
typedef enum ibp_live_connect_step {
	IBP_LIVE_CONNECT_TOPOLOGY = 0, /* the topology does not load */
	IBP_LIVE_CONNECT_FABRIC,       /* the port, or the discovery */
	IBP_LIVE_CONNECT_SM_PORT       /* the SM's port is not found */
} ibp_live_connect_step;

/* A connected session: live over the port, and the topology it reads
 * plans against (NULL without one), which the connection owns. */
typedef struct ibp_live_connection {
	ibp_live *live;
	ibp_fabric *topology;
} ibp_live_connection;

/* Load o->topology_path (its findings, sorted, appended to topo_diags,
 * may be NULL, and handed to o->topology_loaded), open the port
 * (ibp_live_open), discover, read plans against the topology, decide the SM's
 * port.  On success *out holds the connection; close it with
 * ibp_live_disconnect().  On failure *out is empty, *step (may be NULL) says
 * which step failed and err why: the topology's status (err its first error
 * finding), those of ibp_live_open() and ibp_live_discover(), those of
 * ibp_live_find_sm(); IBP_EINVAL (step TOPOLOGY, nothing loaded or opened)
 * for a version of o or o->live that is 0 or newer than the library's,
 * err naming the struct; IBP_ENOMEM. */
int ibp_live_connect(const struct ibp_live_connect_options *o,
		     ibp_live_connection *out, ibp_diags *topo_diags,
		     ibp_live_connect_step *step, ibp_error *err);
/* Close the session and free the topology; c zeroed.  NULL is fine. */
void ibp_live_disconnect(ibp_live_connection *c);

IBP_END_DECLS
#endif
