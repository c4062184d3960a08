/*
 * monitor_history.c - the last sweeps a service made, kept as numbers
 * with their wall-clock times (a ring of at most cap sweeps: bounded
 * whatever the uptime), and given back as the web view's series
 * (ibp_web_series): each tenant's totals over time, and the ports the
 * fabric had drifted on.  ibpartd's collector keeps one; its page at `/`
 * draws it.  Tenants are matched by name across sweeps, so a plan that
 * gains or loses a partition keeps the others' series whole.
 */
#include <stdlib.h>
#include <string.h>

#include "monitor/monitor_priv.h"
#include "ibpart/sys/monitor.h"
#include "ibpart/sys/report.h"

static const char *const counters[MONITOR_SERIES_COUNTERS] = {
    "from", "toward", "pkey_violations"};

struct hist_tenant {
	char *name;
	double v[MONITOR_SERIES_COUNTERS];
};

struct hist_sweep {
	int64_t time;
	struct hist_tenant *t;
	size_t nt;
	bool drift_known;
	double drifted;
};

struct ibp_monitor_history {
	struct hist_sweep *ring;
	size_t cap, n, first; /* n kept, the oldest at ring[first] */
};

static void sweep_clear(struct hist_sweep *w)
{
	for (size_t i = 0; i < w->nt; i++)
		free(w->t[i].name);
	free(w->t);
	memset(w, 0, sizeof(*w));
}

ibp_monitor_history *ibp_monitor_history_new(size_t cap)
{
	ibp_monitor_history *h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->cap = cap ? cap : 288;
	h->ring = calloc(h->cap, sizeof(*h->ring));
	if (!h->ring) {
		free(h);
		return NULL;
	}
	return h;
}

void ibp_monitor_history_free(ibp_monitor_history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->cap; i++)
		sweep_clear(&h->ring[i]);
	free(h->ring);
	free(h);
}

size_t ibp_monitor_history_count(const ibp_monitor_history *h)
{
	return h->n;
}

/* The k-th sweep kept, oldest first. */
static const struct hist_sweep *at(const ibp_monitor_history *h, size_t k)
{
	return &h->ring[(h->first + k) % h->cap];
}

int ibp_monitor_history_add(ibp_monitor_history *h, const ibp_monitor_sweep *s,
			    const struct ibp_monitor_posture *p)
{
	struct hist_sweep w = {.time = (int64_t)s->time,
			       .drift_known = p && p->drift_known,
			       .drifted = p ? (double)p->drifted : 0};
	w.t = calloc(s->ntenants + 1, sizeof(*w.t));
	if (!w.t)
		return IBP_ENOMEM;
	for (size_t i = 0; i < s->ntenants; i++, w.nt++) {
		const struct ibp_monitor_tenant *t = &s->tenants[i];
		if (!(w.t[i].name = strdup(t->name))) {
			sweep_clear(&w);
			return IBP_ENOMEM;
		}
		w.t[i].v[0] = (double)t->from;
		w.t[i].v[1] = (double)t->toward;
		w.t[i].v[2] = (double)t->pkey_violations;
	}
	size_t slot = (h->first + h->n) % h->cap;
	if (h->n == h->cap) { /* full: the oldest goes */
		slot = h->first;
		h->first = (h->first + 1) % h->cap;
		h->n--;
	}
	sweep_clear(&h->ring[slot]);
	h->ring[slot] = w;
	h->n++;
	return IBP_OK;
}

/* name's entry in w, or NULL. */
static const struct hist_tenant *find(const struct hist_sweep *w,
				      const char *name)
{
	for (size_t i = 0; i < w->nt; i++)
		if (!strcmp(w->t[i].name, name))
			return &w->t[i];
	return NULL;
}

int ibp_monitor_history_series(const ibp_monitor_history *h,
			       ibp_monitor_series **out, ibp_error *err)
{
	*out = NULL;
	const struct hist_sweep *last = h->n ? at(h, h->n - 1) : NULL;
	size_t nt = last ? last->nt : 0;
	ibp_monitor_series *x = calloc(1, sizeof(*x));
	size_t cells = (nt * MONITOR_SERIES_COUNTERS + 1) * h->n + 1;
	if (x) {
		x->s = calloc(nt * MONITOR_SERIES_COUNTERS + 1, sizeof(*x->s));
		x->names = calloc(nt + 1, sizeof(*x->names));
		x->vals = calloc(cells, sizeof(*x->vals));
		x->times = calloc(cells, sizeof(*x->times));
	}
	if (!x || !x->s || !x->names || !x->vals || !x->times) {
		ibp_monitor_series_free(x);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	size_t used = 0; /* cells handed out */
	for (size_t t = 0; t < nt; t++, x->nnames++) {
		if (!(x->names[t] = strdup(last->t[t].name))) {
			ibp_monitor_series_free(x);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		for (size_t c = 0; c < MONITOR_SERIES_COUNTERS; c++) {
			ibp_web_series *sr = &x->s[x->n++];
			*sr = (ibp_web_series){.tenant = x->names[t],
					       .counter = counters[c],
					       .values = x->vals + used,
					       .times = x->times + used};
			for (size_t k = 0; k < h->n; k++) {
				const struct hist_tenant *e =
				    find(at(h, k), x->names[t]);
				if (!e)
					continue;
				x->vals[used] = e->v[c];
				x->times[used++] = at(h, k)->time;
				sr->n++;
			}
		}
	}
	ibp_web_series drift = {.tenant = "(fabric)",
				.counter = "ports drifted",
				.values = x->vals + used,
				.times = x->times + used};
	for (size_t k = 0; k < h->n; k++)
		if (at(h, k)->drift_known) {
			x->vals[used] = at(h, k)->drifted;
			x->times[used++] = at(h, k)->time;
			drift.n++;
		}
	if (drift.n)
		x->s[x->n++] = drift;
	*out = x;
	return IBP_OK;
}
