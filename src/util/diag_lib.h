/*
 * diag_lib.h - the library's own half of ibpart/diag.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/diag.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_UTIL_DIAG_LIB_H
#define IBPART_UTIL_DIAG_LIB_H

#include "ibpart/diag.h"

/* Append a finding: code and file (NULL means "") are copied, the message
 * is formatted; the list owns the copies.  Past IBP_DIAGS_KEEP_PER_CODE
 * findings of its code and file it is only counted (nothing formatted).
 * d NULL does nothing and returns 0.  Returns 0, or IBP_ENOMEM (the list
 * is then unchanged). */
int ibp_diags_add(ibp_diags *d, ibp_severity sev, const char *code,
		  const char *file, unsigned line, unsigned col,
		  const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* Say what the finding added last is about (a port's name, copied): a
 * finding that repeats for many subjects is summed up with the first
 * of them when printing.  d NULL or empty does nothing.  Returns 0, or
 * IBP_ENOMEM (the finding then has none). */
int ibp_diags_set_subject(ibp_diags *d, const char *subject);

/* Remember the text of a file so that printing can quote its lines: file
 * and text[0..len) are copied (text need not be terminated).  A file
 * already remembered keeps its first text; d NULL does nothing.  file
 * must not be NULL.  Returns 0, or IBP_ENOMEM. */
int ibp_diags_set_source(ibp_diags *d, const char *file, const char *text,
			 size_t len);

/* How many findings were counted and not kept (IBP_DIAGS_KEEP_PER_CODE):
 * ibp_diags_count_severity includes them, ibp_diags_count does not.  The
 * printers close with one line per code saying how many, the JSON has
 * them in "not_kept".  0 for a NULL list. */
size_t ibp_diags_not_kept(const ibp_diags *d);

/* A load that failed with rc reports its first error finding of d as
 * err (located as the finding is), else what (located at file).
 * Returns rc. */
int ibp_diags_error_of(const ibp_diags *d, int rc, ibp_error *err,
		       const char *file, const char *what);

#endif
