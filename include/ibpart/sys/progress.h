/*
 * sys/progress.h - a ready-made progress callback that prints lines of
 * text, as the CLI shows its long work (on a terminal, or with
 * --progress).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/progress.h, exported for ibpart's own front ends, and free to
 * change in any release.  A program outside ibpart passes its own
 * callback (ibpart/progress.h's ibp_progress).
 *
 * Threads: a printer is used by one thread at a time.
 */
#ifndef IBPART_SYS_PROGRESS_H
#define IBPART_SYS_PROGRESS_H

#include <stdio.h>
#include <time.h>
#include "ibpart/progress.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Progress as lines of text: "PREFIX[  1.2 s] what: done/total (P%)"
 * (total 0: "what: done"), seconds counted from
 * ibp_progress_printer_init(); at most one line per half second unless
 * the phase changes or ends, and none before delay_ms.  Pass &p->hook
 * in options; the other fields are the printer's own. */
typedef struct ibp_progress_printer {
	ibp_progress hook;
	FILE *out;	    /* borrowed: must outlive the printer's use */
	const char *prefix; /* borrowed, e.g. "ibpart: " */
	long delay_ms;
	struct timespec start;
	long last_ms;
	const char *last_what;
} ibp_progress_printer;
/* Start a printer to out (which it borrows, as prefix) now.  p must not
 * be NULL.  Cannot fail. */
void ibp_progress_printer_init(ibp_progress_printer *p, FILE *out,
			       const char *prefix, long delay_ms);

IBP_END_DECLS
#endif
