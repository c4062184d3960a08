/*
 * error_lib.h - the library's own half of ibpart/error.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does (an error located in an input file is made by the
 * library's readers; a caller reads it through ibp_error's fields and
 * ibp_error_format).  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/error.h when a front end or a third party
 * needs it (docs/ARCHITECTURE.md, "Two tiers of API").
 */
#ifndef IBPART_UTIL_ERROR_LIB_H
#define IBPART_UTIL_ERROR_LIB_H

#include "ibpart/error.h"

/* ibp_error_set (ibpart/error.h) with a position in a file: file (NULL
 * means "") is copied, truncated to 255 bytes; line and col 1-based, 0
 * when unknown.  Returns st.  Cannot fail. */
int ibp_error_set_at(ibp_error *err, ibp_status st, const char *file,
		     unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

#endif
