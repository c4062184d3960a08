/*
 * apply_lib.h - the library's own half of ibpart/apply.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/apply.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_LIVE_APPLY_LIB_H
#define IBPART_LIVE_APPLY_LIB_H

#include "ibpart/apply.h"

/* The tables planned (keyed by ibp_live_fabric()); the ports to change;
 * the plan ports that could not be read (ibp_apply_run refuses while
 * there are any). */
bool ibp_apply_is_rollback(const ibp_apply *a);

#endif
