/*
 * progress_lib.h - the library's own half of ibpart/progress.h: how the
 * library's long work calls the caller's progress callback.  Not
 * installed, not exported (libibpart.map): programs outside the library
 * give a callback, they do not call one (docs/ARCHITECTURE.md, "Two tiers
 * of API").
 */
#ifndef IBPART_UTIL_PROGRESS_LIB_H
#define IBPART_UTIL_PROGRESS_LIB_H

#include "ibpart/progress.h"

/* Call p's callback (nothing when p or its fn is NULL). */
void ibp_progress_report(const ibp_progress *p, const char *what, uint64_t done,
			 uint64_t total);

/* The same every `every` units only (and at 0 and total): for loops. */
void ibp_progress_tick(const ibp_progress *p, const char *what, uint64_t done,
		       uint64_t total, uint64_t every);

#endif
