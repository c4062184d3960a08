/*
 * progress.c - the progress callback (include/ibpart/progress.h): the
 * one place the library calls it, so that a NULL callback costs a test;
 * and the ready-made line printer a caller may hand it.
 */
#include <stdbool.h>
#include <stddef.h>

#include "ibpart/progress.h"
#include "util/progress_lib.h"
#include "ibpart/sys/progress.h"

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

static long ms_since(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - start->tv_sec) * 1000 +
	       (now.tv_nsec - start->tv_nsec) / 1000000;
}

static void print_line(void *ctx, const char *what, uint64_t done,
		       uint64_t total)
{
	ibp_progress_printer *p = ctx;
	long ms = ms_since(&p->start);
	if (ms < p->delay_ms)
		return;
	bool news = what != p->last_what || done == total;
	if (!news && ms - p->last_ms < 500)
		return;
	p->last_ms = ms;
	p->last_what = what;
	if (total)
		fprintf(p->out, "%s[%5.1f s] %s: %llu/%llu (%.0f%%)\n",
			p->prefix, ms / 1000.0, what, (unsigned long long)done,
			(unsigned long long)total,
			100.0 * (double)done / (double)total);
	else
		fprintf(p->out, "%s[%5.1f s] %s: %llu\n", p->prefix,
			ms / 1000.0, what, (unsigned long long)done);
}

void ibp_progress_printer_init(ibp_progress_printer *p, FILE *out,
			       const char *prefix, long delay_ms)
{
	*p = (ibp_progress_printer){.hook = {print_line, p},
				    .out = out,
				    .prefix = prefix ? prefix : "",
				    .delay_ms = delay_ms,
				    .last_ms = -1000};
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}
