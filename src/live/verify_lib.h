/*
 * verify_lib.h - the library's own half of ibpart/verify.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/verify.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_LIVE_VERIFY_LIB_H
#define IBPART_LIVE_VERIFY_LIB_H

#include "ibpart/verify.h"

/* (Everything a verify result holds is read through ibpart/verify.h.) */

#endif
