/*
 * analysis_audit_trial.c - a change tried on the kept audit without
 * changing it (ibp_audit_trial, analysis_lib.h), so that several
 * changes can be judged at once on the same state while it does not
 * change (the caller holds a readers' lock meanwhile).
 *
 * A trial holds only what the change makes different: the changed end
 * ports' classes, the classes new to the state, the class counts moved,
 * the member lists of the partitions touched, names, and the slots its
 * update recomputed (the same slots, by the same rules, as
 * ibp_audit_state_update would recompute).  The rules read the state
 * through the trial (audit_priv.h: `tr`), which records every end
 * port, partition and class count they read.  The state stamps each of
 * those with the version it last changed at (audit_state_priv.h): the
 * trial is still exact on the state later iff nothing it read, and no
 * slot it recomputed, changed since the version it was made at
 * (ibp_audit_trial_valid) - then ibp_audit_trial_apply leaves the state
 * as ibp_audit_state_set_keys and _update would, without recomputing.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/analysis.h"
#include "ibpart/pkey.h"
#include "analysis/audit_priv.h"
#include "analysis/audit_state_priv.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"

#define READ 0x80000000u

enum tslot_kind { TS_DEFAULT, TS_SA, TS_EP, TS_PART };

struct ibp_audit_trial {
	const ibp_audit_state *s;
	uint64_t ver;	    /* the state's version it was made at */
	size_t ncls0;	    /* the state's classes then; above: the trial's */
	uint32_t *ep_mark;  /* [n]: READ, and the change's index + 1 */
	uint8_t *part_read; /* [0x8000] */
	uint8_t *cls_read;  /* [ncls0] */
	bool own_size_read;
	struct tchange {
		size_t ep, cls;
	} * ch;
	size_t nch, capch;
	struct cls *own;
	size_t nown, capown;
	struct cdelta {
		size_t cls;
		long d;
	} * cd;
	size_t ncd, capcd;
	struct tpart {
		uint16_t base;
		struct plist p;
	} * tp;
	size_t ntp, captp;
	uint16_t name_base;
	bool has_name;
	char *name;
	struct tslot {
		enum tslot_kind kind;
		size_t i;
		ibp_findings *f;
	} * sl;
	size_t nsl, capsl;
	uint64_t *guids;
	struct audit_reach *reach;
	uint16_t *parts;
};

static int grow(void **v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return 0;
	size_t nc = *cap ? *cap * 2 : 8;
	void *x = realloc(*v, nc * size);
	if (!x)
		return IBP_ENOMEM;
	*v = x;
	*cap = nc;
	return 0;
}

void ibp_audit_trial_free(ibp_audit_trial *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nown; i++)
		free(t->own[i].keys);
	for (size_t i = 0; i < t->ntp; i++)
		free(t->tp[i].p.v);
	for (size_t i = 0; i < t->nsl; i++)
		ibp_findings_free(t->sl[i].f);
	free(t->own);
	free(t->ch);
	free(t->cd);
	free(t->tp);
	free(t->sl);
	free(t->name);
	free(t->ep_mark);
	free(t->part_read);
	free(t->cls_read);
	free(t->guids);
	free(t->reach);
	free(t->parts);
	free(t);
}

int ibp_audit_trial_new(const ibp_audit_state *s, ibp_audit_trial **out)
{
	*out = NULL;
	if (s->ndirty)
		return IBP_EINVAL; /* an update under way */
	ibp_audit_trial *t = calloc(1, sizeof(*t));
	if (!t)
		return IBP_ENOMEM;
	t->s = s;
	t->ver = s->ver;
	t->ncls0 = s->ncls;
	t->ep_mark = calloc(s->n + 1, sizeof(*t->ep_mark));
	t->part_read = calloc(0x8000, 1);
	t->cls_read = calloc(s->ncls + 1, 1);
	t->guids = malloc((s->n + 1) * sizeof(*t->guids));
	t->reach = malloc(PART_MAX * sizeof(*t->reach));
	t->parts = malloc(PART_MAX * sizeof(*t->parts));
	if (!t->ep_mark || !t->part_read || !t->cls_read || !t->guids ||
	    !t->reach || !t->parts) {
		ibp_audit_trial_free(t);
		return IBP_ENOMEM;
	}
	*out = t;
	return 0;
}

/* ---- what the rules read through the trial (audit_priv.h) ---- */

size_t audit_trial_class(struct ibp_audit_trial *t, size_t ep)
{
	t->ep_mark[ep] |= READ;
	uint32_t k = t->ep_mark[ep] & ~READ;
	return k ? t->ch[k - 1].cls : t->s->ep_cls[ep];
}

const uint16_t *audit_trial_class_keys(const struct ibp_audit_trial *t,
				       size_t c, size_t *nk)
{
	const struct cls *x =
	    c < t->ncls0 ? &t->s->cls[c] : &t->own[c - t->ncls0];
	*nk = x->nk;
	return x->keys;
}

const uint16_t *audit_trial_keys(struct ibp_audit_trial *t, size_t ep,
				 size_t *nk)
{
	return audit_trial_class_keys(t, audit_trial_class(t, ep), nk);
}

size_t audit_trial_class_size(struct ibp_audit_trial *t, size_t c)
{
	if (c >= t->ncls0) {
		t->own_size_read = true;
		return t->own[c - t->ncls0].count;
	}
	t->cls_read[c] = 1;
	long n = (long)t->s->cls[c].count;
	for (size_t i = 0; i < t->ncd; i++)
		if (t->cd[i].cls == c)
			n += t->cd[i].d;
	return (size_t)n;
}

static struct tpart *tpart_find(const struct ibp_audit_trial *t, uint16_t b)
{
	for (size_t i = 0; i < t->ntp; i++)
		if (t->tp[i].base == b)
			return &t->tp[i];
	return NULL;
}

const struct audit_member *audit_trial_members(struct ibp_audit_trial *t,
					       uint16_t base, size_t *n)
{
	t->part_read[base] = 1;
	const struct tpart *p = tpart_find(t, base);
	const struct plist *l = p ? &p->p : &t->s->part[base];
	*n = l->n;
	return l->v;
}

const char *audit_trial_name(struct ibp_audit_trial *t, uint16_t base)
{
	t->part_read[base] = 1;
	if (t->has_name && t->name_base == base)
		return t->name;
	return t->s->names[base];
}

/* ---- the change ---- */

static int count_move(ibp_audit_trial *t, size_t c, long d)
{
	if (c >= t->ncls0) {
		t->own[c - t->ncls0].count += (size_t)d;
		return 0;
	}
	for (size_t i = 0; i < t->ncd; i++)
		if (t->cd[i].cls == c) {
			t->cd[i].d += d;
			return 0;
		}
	if (grow((void **)&t->cd, &t->capcd, t->ncd, sizeof(*t->cd)))
		return IBP_ENOMEM;
	t->cd[t->ncd++] = (struct cdelta){c, d};
	return 0;
}

/* The trial's copy of base b's members (made at first use). */
static struct plist *tpart_get(ibp_audit_trial *t, uint16_t b)
{
	struct tpart *p = tpart_find(t, b);
	if (p)
		return &p->p;
	if (grow((void **)&t->tp, &t->captp, t->ntp, sizeof(*t->tp)))
		return NULL;
	const struct plist *l = &t->s->part[b];
	p = &t->tp[t->ntp];
	*p = (struct tpart){.base = b};
	p->p.v = malloc((l->n + 1) * sizeof(*l->v));
	if (!p->p.v)
		return NULL;
	if (l->n)
		memcpy(p->p.v, l->v, l->n * sizeof(*l->v));
	p->p.n = l->n;
	p->p.cap = l->n + 1;
	t->part_read[b] = 1;
	t->ntp++;
	return &p->p;
}

static int class_of(ibp_audit_trial *t, const uint16_t *k, size_t nk,
		    size_t *out)
{
	if (audit_state_class_find(t->s, k, nk, out))
		return 0;
	for (size_t i = 0; i < t->nown; i++)
		if (t->own[i].nk == nk &&
		    !memcmp(t->own[i].keys, k, nk * sizeof(*k))) {
			*out = t->ncls0 + i;
			return 0;
		}
	if (grow((void **)&t->own, &t->capown, t->nown, sizeof(*t->own)))
		return IBP_ENOMEM;
	struct cls *c = &t->own[t->nown];
	*c = (struct cls){.nk = nk};
	if (!(c->keys = malloc((nk + 1) * sizeof(*k))))
		return IBP_ENOMEM;
	memcpy(c->keys, k, nk * sizeof(*k));
	*out = t->ncls0 + t->nown++;
	return 0;
}

int ibp_audit_trial_set_keys(ibp_audit_trial *t, size_t node, unsigned port,
			     const uint16_t *keys, size_t nkeys)
{
	long ep;
	uint16_t *k;
	size_t nk, c;
	int rc = analysis_keys_set_on(t->s->m, node, port, keys, nkeys, &ep, &k,
				      &nk);
	if (rc)
		return rc;
	rc = class_of(t, k, nk, &c);
	free(k);
	size_t old = rc ? 0 : audit_trial_class(t, (size_t)ep);
	if (rc || c == old)
		return rc;
	uint32_t at = t->ep_mark[ep] & ~READ;
	if (!at) {
		if (grow((void **)&t->ch, &t->capch, t->nch, sizeof(*t->ch)))
			return IBP_ENOMEM;
		t->ch[t->nch++] = (struct tchange){(size_t)ep, c};
		t->ep_mark[ep] = READ | (uint32_t)t->nch;
	} else {
		t->ch[at - 1].cls = c;
	}
	if (count_move(t, old, -1) || count_move(t, c, 1))
		return IBP_ENOMEM;
	size_t no, nn;
	const uint16_t *ko = audit_trial_class_keys(t, old, &no);
	const uint16_t *kn = audit_trial_class_keys(t, c, &nn);
	uint16_t *ch = malloc((no + nn + 1) * sizeof(*ch));
	if (!ch)
		return IBP_ENOMEM;
	size_t nch = audit_keys_changed(ko, no, kn, nn, ch);
	for (size_t i = 0, j = 0; !rc && i < nch; i++) {
		struct plist *p = tpart_get(t, ch[i]);
		while (j < nn && ibp_pkey_base(kn[j]) < ch[i])
			j++;
		if (!p)
			rc = IBP_ENOMEM;
		else if (j < nn && ibp_pkey_base(kn[j]) == ch[i])
			rc = audit_plist_put(p, (size_t)ep,
					     ibp_pkey_is_full(kn[j]));
		else
			audit_plist_del(p, (size_t)ep);
	}
	free(ch);
	return rc;
}

int ibp_audit_trial_set_name(ibp_audit_trial *t, uint16_t pkey,
			     const char *name)
{
	char *c = name ? strdup(name) : NULL;
	if (name && !c)
		return IBP_ENOMEM;
	free(t->name);
	t->name = c;
	t->name_base = ibp_pkey_base(pkey);
	t->has_name = true;
	t->part_read[t->name_base] = 1;
	return 0;
}

/* ---- the update, tried ---- */

static ibp_findings **state_slot(const ibp_audit_state *s, enum tslot_kind k,
				 size_t i, uint64_t **stamp)
{
	ibp_audit_state *w = (ibp_audit_state *)s; /* read, or applied */
	switch (k) {
	case TS_DEFAULT:
		*stamp = &w->f_default_ver;
		return &w->f_default;
	case TS_SA:
		*stamp = &w->f_sa_ver;
		return &w->f_sa;
	case TS_EP:
		*stamp = &w->f_ep_ver[i];
		return &w->f_ep[i];
	default:
		*stamp = &w->f_part_ver[i];
		return &w->f_part[i];
	}
}

static int slot(ibp_audit_trial *t, enum tslot_kind k, size_t i,
		ibp_findings *old_out, ibp_findings *new_out)
{
	if (grow((void **)&t->sl, &t->capsl, t->nsl, sizeof(*t->sl)))
		return IBP_ENOMEM;
	ibp_findings *f = ibp_findings_new();
	if (!f)
		return IBP_ENOMEM;
	const ibp_audit_state *s = t->s;
	struct audit a = {.in = &s->in,
			  .m = s->m,
			  .f = ibp_tables_fabric(s->in.tables),
			  .out = f,
			  .sm_ep = s->sm_ep,
			  .guids = t->guids,
			  .st = s,
			  .tr = t};
	int rc = k == TS_DEFAULT ? audit_rule_default(&a)
		 : k == TS_SA	 ? audit_rule_sa(&a)
		 : k == TS_EP ? audit_rule_shared_ep(&a, i, t->reach, t->parts)
			      : audit_rule_partition(&a, (uint16_t)i);
	uint64_t *stamp;
	ibp_findings *const *old = state_slot(s, k, i, &stamp);
	if (!rc && old_out && *old)
		rc = ibp_findings_append(old_out, *old);
	if (!rc && new_out)
		rc = ibp_findings_append(new_out, f);
	if (rc) {
		ibp_findings_free(f);
		return rc;
	}
	t->sl[t->nsl++] = (struct tslot){k, i, f};
	return 0;
}

static void mark_reach(ibp_audit_trial *t, size_t ep, const uint16_t *k,
		       size_t nk, uint8_t *mark)
{
	mark[ep] = 1;
	for (size_t j = 0; j < nk; j++) {
		uint16_t b = ibp_pkey_base(k[j]);
		if (b == IBP_PKEY_DEFAULT_BASE)
			continue;
		size_t n;
		const struct audit_member *v = audit_trial_members(t, b, &n);
		for (size_t i = 0; i < n; i++)
			mark[v[i].ep] = 1;
	}
}

/* analysis_audit_state.c's sa_reads, through the trial. */
static bool sa_reads(ibp_audit_trial *t, size_t ep, const uint16_t *ko,
		     size_t no, const uint16_t *kc, size_t nc)
{
	int scope = audit_state_sa_scope(t->s, ep);
	if (scope)
		return scope > 0;
	size_t ns;
	const uint16_t *ks = audit_trial_keys(t, (size_t)t->s->sm_ep, &ns);
	return analysis_keys_match(ks, ns, ko, no) !=
	       analysis_keys_match(ks, ns, kc, nc);
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return (x > y) - (x < y);
}

int ibp_audit_trial_update(ibp_audit_trial *t, ibp_findings *old_out,
			   ibp_findings *new_out)
{
	const ibp_audit_state *s = t->s;
	if (!t->nch)
		return 0;
	uint8_t *mark = calloc(s->n + 1, 1);
	uint16_t *bases = malloc(0x10000 * sizeof(*bases));
	size_t nb = 0;
	bool dflt = false, sa = false;
	int rc = mark && bases ? 0 : IBP_ENOMEM;
	for (size_t d = 0; !rc && d < t->nch; d++) {
		size_t ep = t->ch[d].ep, no, nc;
		const uint16_t *ko =
		    audit_trial_class_keys(t, s->ep_cls[ep], &no);
		const uint16_t *kc =
		    audit_trial_class_keys(t, t->ch[d].cls, &nc);
		if (t->ch[d].cls == s->ep_cls[ep])
			continue; /* back to what the state holds */
		dflt = dflt ||
		       audit_default_sig(ko, no) != audit_default_sig(kc, nc);
		sa = sa || sa_reads(t, ep, ko, no, kc, nc);
		mark_reach(t, ep, ko, no, mark);
		mark_reach(t, ep, kc, nc, mark);
		if (nb + no + nc <= 0x10000)
			nb += audit_keys_changed(ko, no, kc, nc, bases + nb);
	}
	if (!rc && dflt)
		rc = slot(t, TS_DEFAULT, 0, old_out, new_out);
	if (!rc && sa)
		rc = slot(t, TS_SA, 0, old_out, new_out);
	for (size_t ep = 0; !rc && ep < s->n; ep++)
		if (mark[ep])
			rc = slot(t, TS_EP, ep, old_out, new_out);
	if (!rc && nb)
		qsort(bases, nb, sizeof(*bases), cmp_u16);
	for (size_t i = 0; !rc && i < nb; i++)
		if ((!i || bases[i] != bases[i - 1]) && bases[i])
			rc = slot(t, TS_PART, bases[i], old_out, new_out);
	free(mark);
	free(bases);
	return rc;
}

bool ibp_audit_trial_valid(const ibp_audit_state *s, const ibp_audit_trial *t)
{
	if (s != t->s || s->ndirty)
		return false;
	if (s->ver == t->ver)
		return true;
	for (size_t ep = 0; ep < s->n; ep++)
		if ((t->ep_mark[ep] & READ) && s->ep_ver[ep] > t->ver)
			return false;
	for (size_t b = 0; b < 0x8000; b++)
		if (t->part_read[b] && s->part_ver[b] > t->ver)
			return false;
	for (size_t c = 0; c < t->ncls0; c++)
		if (t->cls_read[c] && s->cls[c].ver > t->ver)
			return false;
	if (t->own_size_read && s->ncls != t->ncls0)
		return false;
	for (size_t i = 0; i < t->nsl; i++) {
		uint64_t *stamp;
		state_slot(s, t->sl[i].kind, t->sl[i].i, &stamp);
		if (*stamp > t->ver)
			return false;
	}
	return true;
}

int ibp_audit_trial_apply(ibp_audit_state *s, ibp_audit_trial *t)
{
	int rc = 0;
	for (size_t d = 0; !rc && d < t->nch; d++) {
		size_t node, nk;
		unsigned port;
		ibp_matrix_endpoint(s->m, t->ch[d].ep, &node, &port);
		const uint16_t *k =
		    audit_trial_class_keys(t, t->ch[d].cls, &nk);
		rc = ibp_audit_state_set_keys(s, node, port, k, nk);
	}
	if (!rc && t->has_name)
		rc = ibp_audit_state_set_name(s, t->name_base, t->name);
	if (rc)
		return rc;
	/* the update the trial made in its place */
	for (size_t d = 0; d < s->ndirty; d++)
		s->is_dirty[s->dirty[d].ep] = 0;
	s->ndirty = 0;
	s->ver++;
	for (size_t i = 0; i < t->nsl; i++) {
		uint64_t *stamp;
		ibp_findings **f =
		    state_slot(s, t->sl[i].kind, t->sl[i].i, &stamp);
		ibp_findings_free(*f);
		*f = ibp_findings_count(t->sl[i].f) ? t->sl[i].f : NULL;
		if (!*f)
			ibp_findings_free(t->sl[i].f);
		t->sl[i].f = NULL;
		*stamp = s->ver;
	}
	return 0;
}

const uint16_t *ibp_audit_trial_keys(ibp_audit_trial *t, size_t ep, size_t *nk)
{
	return audit_trial_keys(t, ep, nk);
}
