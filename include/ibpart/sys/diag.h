/*
 * sys/diag.h - findings printed as the CLI prints them: how many errors
 * and how much of a quoted line, and whether an operation's failure is
 * already among the findings a front end printed.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/diag.h, exported for ibpart's own front ends, and free to
 * change in any release.  A program outside ibpart prints findings with
 * ibpart/diag.h's ibp_diags_print.
 *
 * Threads: as ibpart/diag.h's const functions (they only read the list).
 */
#ifndef IBPART_SYS_DIAG_H
#define IBPART_SYS_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Is err (an operation's failure) one of d's errors: same file, line,
 * column and message?  A topology that does not load fails with its
 * first error, already among the findings: a front end that printed
 * them need not print it again.  NULL d holds none. */
bool ibp_diags_has_error(const ibp_diags *d, const ibp_error *err);

/* How findings are printed. */
#define IBP_DIAGS_PRINT_OPTIONS_VERSION 1
typedef struct ibp_diags_print_options {
	unsigned version;  /* IBP_DIAGS_PRINT_OPTIONS_VERSION (by _init) */
	size_t max_errors; /* stop after this many errors, then count the
			      findings not shown; and of each code (a
			      finding that repeats per port or per key)
			      show this many, then one line with the
			      count of the rest and the first subjects
			      they name; 0: all (default 20) */
	unsigned width;	   /* bytes of a quoted line shown around the caret,
			      "…" where cut; 0: the whole line (default 100) */
} ibp_diags_print_options;
/* The defaults: 20 errors, a 100-byte window, this version. */
void ibp_diags_print_options_init(ibp_diags_print_options *o, unsigned version);
/* "file:line:col: error: message [code]", then the source line (a
 * window around the column) and a caret under it when the file's text is
 * known.  File names, messages and quoted lines are escaped for a
 * terminal (escape.h: `\xNN`, `\\`): one finding is always its own
 * lines.  Every finding is still in the list (and in the JSON).  o NULL:
 * the defaults.  IBP_EINVAL (nothing printed) when o's version is 0 or
 * newer than the library's; else IBP_OK. */
int ibp_diags_print_ex(const ibp_diags *d, const ibp_diags_print_options *o,
		       FILE *out);

IBP_END_DECLS
#endif
