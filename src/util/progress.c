/*
 * progress.c - the progress callback (include/ibpart/progress.h): the
 * one place the library calls it, so that a NULL callback costs a test.
 */
#include <stddef.h>

#include "ibpart/progress.h"

void ibp_progress_report(const ibp_progress *p, const char *what, uint64_t done,
			 uint64_t total)
{
	if (p && p->fn)
		p->fn(p->ctx, what, done, total);
}

void ibp_progress_tick(const ibp_progress *p, const char *what, uint64_t done,
		       uint64_t total, uint64_t every)
{
	if (!p || !p->fn)
		return;
	if (done == 0 || done == total || (every && done % every == 0))
		p->fn(p->ctx, what, done, total);
}
