/*
 * progress.h - how long work tells its caller how far it is: a callback
 * the caller gives in an options struct (topology load, tables, matrix,
 * its reports), called at the start of each phase, now and then while it
 * runs and at its end.  The library never prints on its own: the caller
 * decides whether and how to show it (the CLI: on a terminal, or with
 * --progress, for work over about a second), with its own callback or
 * the ready-made line printer of sys/progress.h, which writes to the
 * FILE * the caller gives.  Part of the util module (src/util/progress.c).
 *
 * Threads: the callback is called from the thread doing the work; a
 * printer is used by one thread at a time.
 */
#ifndef IBPART_PROGRESS_H
#define IBPART_PROGRESS_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* `what` names the phase ("reading topology", "computing tables",
 * "building the matrix", "writing the matrix"), a static string; done of
 * total units (total 0: unknown).  done == total ends the phase. */
typedef void (*ibp_progress_fn)(void *ctx, const char *what, uint64_t done,
				uint64_t total);

typedef struct ibp_progress {
	ibp_progress_fn fn; /* NULL: no progress */
	void *ctx;
} ibp_progress;

IBP_END_DECLS
#endif
