/*
 * service_model.c - the API's partitions in memory: a sorted array of
 * partitions, each with its members sorted by port GUID, so a change is
 * made on a copy (svc_plan_clone), checked, committed and only then
 * swapped in - a refused or failed change leaves the plan untouched.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_internal.h"

void svc_plan_free(struct svc_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->p[i].m);
	free(p->p);
	*p = (struct svc_plan){0};
}

int svc_plan_clone(const struct svc_plan *src, struct svc_plan *dst)
{
	*dst = (struct svc_plan){0};
	if (!src->n)
		return IBP_OK;
	dst->p = calloc(src->n, sizeof(*dst->p));
	if (!dst->p)
		return IBP_ENOMEM;
	dst->cap = src->n;
	for (size_t i = 0; i < src->n; i++) {
		dst->p[i] = src->p[i];
		dst->p[i].m = NULL;
		dst->p[i].cap = src->p[i].n;
		if (src->p[i].n) {
			dst->p[i].m =
			    malloc(src->p[i].n * sizeof(*src->p[i].m));
			if (!dst->p[i].m) {
				dst->n = i;
				svc_plan_free(dst);
				return IBP_ENOMEM;
			}
			memcpy(dst->p[i].m, src->p[i].m,
			       src->p[i].n * sizeof(*src->p[i].m));
		}
		dst->n = i + 1;
	}
	return IBP_OK;
}

/* The index of pkey, or where it would go. */
static size_t part_pos(const struct svc_plan *p, uint16_t pkey)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->p[mid].pkey < pkey)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct svc_part *svc_plan_find(struct svc_plan *p, uint16_t pkey)
{
	size_t i = part_pos(p, pkey);
	return i < p->n && p->p[i].pkey == pkey ? &p->p[i] : NULL;
}

struct svc_part *svc_plan_add(struct svc_plan *p, uint16_t pkey)
{
	size_t i = part_pos(p, pkey);
	if (i < p->n && p->p[i].pkey == pkey)
		return &p->p[i];
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct svc_part *n = realloc(p->p, cap * sizeof(*n));
		if (!n)
			return NULL;
		p->p = n;
		p->cap = cap;
	}
	memmove(&p->p[i + 1], &p->p[i], (p->n - i) * sizeof(*p->p));
	p->n++;
	p->p[i] = (struct svc_part){.pkey = pkey, .ipoib = true};
	return &p->p[i];
}

void svc_plan_remove(struct svc_plan *p, uint16_t pkey)
{
	size_t i = part_pos(p, pkey);
	if (i >= p->n || p->p[i].pkey != pkey)
		return;
	free(p->p[i].m);
	memmove(&p->p[i], &p->p[i + 1], (p->n - i - 1) * sizeof(*p->p));
	p->n--;
}

static size_t member_pos(const struct svc_part *p, uint64_t guid)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->m[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int svc_part_set_member(struct svc_part *p, uint64_t guid, bool full,
			bool index0)
{
	size_t i = member_pos(p, guid);
	if (i < p->n && p->m[i].guid == guid) {
		if (p->m[i].full == full && p->m[i].index0 == index0)
			return 0;
		p->m[i].full = full;
		p->m[i].index0 = index0;
		return 1;
	}
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 8;
		struct svc_member *n = realloc(p->m, cap * sizeof(*n));
		if (!n)
			return -1;
		p->m = n;
		p->cap = cap;
	}
	memmove(&p->m[i + 1], &p->m[i], (p->n - i) * sizeof(*p->m));
	p->n++;
	p->m[i] = (struct svc_member){guid, full, index0};
	return 1;
}

int svc_part_remove_member(struct svc_part *p, uint64_t guid)
{
	size_t i = member_pos(p, guid);
	if (i >= p->n || p->m[i].guid != guid)
		return 0;
	memmove(&p->m[i], &p->m[i + 1], (p->n - i - 1) * sizeof(*p->m));
	p->n--;
	return 1;
}

static bool members_equal(const struct svc_part *a, const struct svc_part *b)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->m[i].guid != b->m[i].guid ||
		    a->m[i].full != b->m[i].full ||
		    a->m[i].index0 != b->m[i].index0)
			return false;
	return true;
}

bool svc_part_equal(const struct svc_part *a, const struct svc_part *b)
{
	if (!a || !b)
		return a == b;
	return a->pkey == b->pkey && !strcmp(a->name, b->name) &&
	       a->ipoib == b->ipoib && a->index0 == b->index0 &&
	       a->created_empty == b->created_empty &&
	       a->has_qos == b->has_qos && a->mtu_limit == b->mtu_limit &&
	       a->rate_limit == b->rate_limit && a->sl == b->sl &&
	       a->n == b->n && members_equal(a, b);
}

struct svc_snap *svc_snap_new(void)
{
	struct svc_snap *n = calloc(1, sizeof(*n));
	if (n)
		atomic_init(&n->refs, 1);
	return n;
}

void svc_snap_put(struct svc_snap *snap)
{
	if (snap && atomic_fetch_sub(&snap->refs, 1) == 1) {
		svc_plan_free(&snap->plan);
		free(snap);
	}
}

void svc_plan_publish(ibp_service *s, struct svc_snap *snap,
		      struct svc_plan *np)
{
	snap->plan = *np;
	*np = (struct svc_plan){0};
	svc_plan_publish_snap(s, snap);
}

void svc_plan_publish_snap(ibp_service *s, struct svc_snap *snap)
{
	if (s->snap)
		svc_snap_put(s->snap);
	else /* the plan the database loaded, not yet published */
		svc_plan_free(&s->plan);
	s->snap = snap;
	s->plan = snap->plan;
}

int svc_plan_published(ibp_service *s)
{
	if (s->snap)
		return IBP_OK;
	if (!(s->snap = svc_snap_new()))
		return IBP_ENOMEM;
	s->snap->plan = s->plan; /* the same arrays: s->plan does not move */
	return IBP_OK;
}

struct svc_snap *svc_snap_get(ibp_service *s)
{
	atomic_fetch_add(&s->snap->refs, 1);
	return s->snap;
}
