/*
 * live_connect_lib.h - the library's own half of ibpart/live_connect.h: what
 * other modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/live_connect.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_LIVE_LIVE_CONNECT_LIB_H
#define IBPART_LIVE_LIVE_CONNECT_LIB_H

#include "ibpart/live_connect.h"

/* Close the session and free the topology; c zeroed.  NULL is fine. */
void ibp_live_disconnect(ibp_live_connection *c);

#endif
