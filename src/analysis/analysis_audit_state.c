/*
 * analysis_audit_state.c - the audit kept up to date instead of run
 * again (ibp_audit_state, analysis.h): the findings of ibp_audit_run for
 * a set of tables, held per slot - the default partition's and the SA's
 * findings, each end port's tenant-bridge or shared-limited-member, each
 * partition's own - with what the rules read (each end port's effective
 * keys, the classes of ports with the same keys, each partition's
 * members).  A change of some ports' keys recomputes only the slots it
 * can reach:
 *
 *  - the partitions whose membership changed (a base gained, lost, or
 *    changed the full bit of one of the ports);
 *  - the changed ports, and every port sharing a partition other than
 *    the default one with them before or after (their reach lists hold
 *    the changed ports' classes);
 *    (a class passing between one member and two, which a rule asks
 *    about, is reached through the same partitions: a port reaches a
 *    class only through a partition of that class's keys, which the
 *    port that joined or left the class was in);
 *  - the default partition's findings, over every port, when a changed
 *    port's membership of it or its being a tenant port changed; the
 *    SA's, over every port, when the SM port's keys changed or a changed
 *    port came to match them or stopped matching them.
 *
 * The rules are analysis_audit.c's own (audit_priv.h), so the findings
 * are the same code's.  Without a tenant map and opensm.conf only: the
 * rules those add stay with ibp_audit_run.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/analysis.h"
#include "ibpart/pkey.h"
#include "analysis/audit_priv.h"
#include "analysis/audit_state_priv.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"

static int grow_hash(ibp_audit_state *s)
{
	size_t nc = s->hcap ? s->hcap * 2 : 1024;
	size_t *t = calloc(nc, sizeof(*t));
	if (!t)
		return IBP_ENOMEM;
	for (size_t c = 0; c < s->ncls; c++) {
		size_t h = (size_t)s->cls[c].hash & (nc - 1);
		while (t[h])
			h = (h + 1) & (nc - 1);
		t[h] = c + 1;
	}
	free(s->htab);
	s->htab = t;
	s->hcap = nc;
	return 0;
}

bool audit_state_class_find(const struct ibp_audit_state *s, const uint16_t *k,
			    size_t nk, size_t *out)
{
	if (!s->hcap)
		return false;
	uint64_t hv = analysis_keys_hash(k, nk);
	for (size_t h = (size_t)hv & (s->hcap - 1); s->htab[h];
	     h = (h + 1) & (s->hcap - 1)) {
		const struct cls *c = &s->cls[s->htab[h] - 1];
		if (c->hash == hv && c->nk == nk &&
		    !memcmp(c->keys, k, nk * sizeof(*k))) {
			*out = s->htab[h] - 1;
			return true;
		}
	}
	return false;
}

/* The class of keys k (effective), made when new. */
static int class_of(ibp_audit_state *s, const uint16_t *k, size_t nk,
		    size_t *out)
{
	if ((s->ncls + 1) * 2 > s->hcap && grow_hash(s))
		return IBP_ENOMEM;
	uint64_t hv = analysis_keys_hash(k, nk);
	size_t h = (size_t)hv & (s->hcap - 1);
	for (; s->htab[h]; h = (h + 1) & (s->hcap - 1)) {
		struct cls *c = &s->cls[s->htab[h] - 1];
		if (c->hash == hv && c->nk == nk &&
		    !memcmp(c->keys, k, nk * sizeof(*k))) {
			*out = s->htab[h] - 1;
			return 0;
		}
	}
	if (s->ncls == s->capcls) {
		size_t nc = s->capcls ? s->capcls * 2 : 256;
		struct cls *v = realloc(s->cls, nc * sizeof(*v));
		if (!v)
			return IBP_ENOMEM;
		s->cls = v;
		s->capcls = nc;
	}
	struct cls *c = &s->cls[s->ncls];
	*c = (struct cls){.nk = nk, .hash = hv};
	c->keys = malloc((nk ? nk : 1) * sizeof(*k));
	if (!c->keys)
		return IBP_ENOMEM;
	memcpy(c->keys, k, nk * sizeof(*k));
	s->htab[h] = s->ncls + 1;
	*out = s->ncls++;
	return 0;
}

/* Where ep is, or would go, among p's members (by end port). */
size_t audit_plist_find(const struct plist *p, size_t ep)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->v[mid].ep < ep)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Insert (ep, full) into base b's members, or set its bit. */
int audit_plist_put(struct plist *p, size_t ep, bool full)
{
	size_t lo = audit_plist_find(p, ep);
	if (lo < p->n && p->v[lo].ep == ep) {
		p->v[lo].full = full;
		return 0;
	}
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 4;
		struct audit_member *v = realloc(p->v, nc * sizeof(*v));
		if (!v)
			return IBP_ENOMEM;
		p->v = v;
		p->cap = nc;
	}
	memmove(p->v + lo + 1, p->v + lo, (p->n - lo) * sizeof(*p->v));
	p->v[lo] = (struct audit_member){ep, full};
	p->n++;
	return 0;
}

void audit_plist_del(struct plist *p, size_t ep)
{
	size_t lo = audit_plist_find(p, ep);
	if (lo < p->n && p->v[lo].ep == ep) {
		memmove(p->v + lo, p->v + lo + 1,
			(p->n - lo - 1) * sizeof(*p->v));
		p->n--;
	}
}

/* ---- what the rules read (audit_priv.h) ---- */

const uint16_t *audit_state_keys(const struct ibp_audit_state *s, size_t ep,
				 size_t *nk)
{
	const struct cls *c = &s->cls[s->ep_cls[ep]];
	*nk = c->nk;
	return c->keys;
}

size_t audit_state_class(const struct ibp_audit_state *s, size_t ep)
{
	return s->ep_cls[ep];
}

size_t audit_state_class_size(const struct ibp_audit_state *s, size_t c)
{
	return s->cls[c].count;
}

const uint16_t *audit_state_class_keys(const struct ibp_audit_state *s,
				       size_t c, size_t *nk)
{
	*nk = s->cls[c].nk;
	return s->cls[c].keys;
}

const struct audit_member *audit_state_members(const struct ibp_audit_state *s,
					       uint16_t base, size_t *n)
{
	*n = s->part[base].n;
	return s->part[base].v;
}

/* ---- the slots ---- */

static void audit_init(const ibp_audit_state *s, struct audit *a,
		       ibp_findings *out)
{
	*a = (struct audit){.in = &s->in,
			    .m = s->m,
			    .f = ibp_tables_fabric(s->in.tables),
			    .out = out,
			    .sm_ep = s->sm_ep,
			    .guids = s->guids,
			    .st = s};
}

enum slot_kind { SLOT_DEFAULT, SLOT_SA, SLOT_EP, SLOT_PART };

/* Recompute one slot into *slot (the old one handed to old_out, the new
 * one copied to new_out; either may be NULL). */
static int recompute(ibp_audit_state *s, enum slot_kind k, size_t i,
		     ibp_findings **slot, ibp_findings *old_out,
		     ibp_findings *new_out)
{
	uint64_t *stamp = k == SLOT_DEFAULT ? &s->f_default_ver
			  : k == SLOT_SA    ? &s->f_sa_ver
			  : k == SLOT_EP    ? &s->f_ep_ver[i]
					    : &s->f_part_ver[i];
	ibp_findings *f = ibp_findings_new();
	if (!f)
		return IBP_ENOMEM;
	struct audit a;
	audit_init(s, &a, f);
	int rc = k == SLOT_DEFAULT ? audit_rule_default(&a)
		 : k == SLOT_SA	   ? audit_rule_sa(&a)
		 : k == SLOT_EP
		     ? audit_rule_shared_ep(&a, i, s->reach, s->parts)
		     : audit_rule_partition(&a, (uint16_t)i);
	if (!rc && old_out && *slot)
		rc = ibp_findings_append(old_out, *slot);
	if (!rc && new_out)
		rc = ibp_findings_append(new_out, f);
	if (rc) {
		ibp_findings_free(f);
		return rc;
	}
	ibp_findings_free(*slot);
	*stamp = s->ver;
	*slot = ibp_findings_count(f) ? f : NULL;
	if (!*slot)
		ibp_findings_free(f);
	return 0;
}

void ibp_audit_state_free(ibp_audit_state *s)
{
	if (!s)
		return;
	ibp_matrix_free(s->m);
	for (size_t c = 0; c < s->ncls; c++)
		free(s->cls[c].keys);
	free(s->cls);
	free(s->htab);
	free(s->ep_cls);
	for (size_t b = 0; b < 0x8000; b++) {
		free(s->part[b].v);
		free(s->names[b]);
		ibp_findings_free(s->f_part ? s->f_part[b] : NULL);
	}
	for (size_t i = 0; s->f_ep && i < s->n; i++)
		ibp_findings_free(s->f_ep[i]);
	free(s->f_ep);
	free(s->f_part);
	ibp_findings_free(s->f_default);
	ibp_findings_free(s->f_sa);
	ibp_findings_free(s->f_enforce);
	free(s->dirty);
	free(s->reach);
	free(s->parts);
	free(s->is_dirty);
	free(s->guids);
	free(s->ep_ver);
	free(s->part_ver);
	free(s->f_ep_ver);
	free(s->f_part_ver);
	free(s);
}

/* Each end port's class and the partitions' members, from the tables. */
static int load_keys(ibp_audit_state *s)
{
	uint16_t *buf = malloc(IBP_PKEY_TABLE_MAX * sizeof(*buf));
	if (!buf)
		return IBP_ENOMEM;
	int rc = 0;
	for (size_t ep = 0; !rc && ep < s->n; ep++) {
		size_t node, nk = 0;
		unsigned port;
		ibp_matrix_endpoint(s->m, ep, &node, &port);
		const ibp_pkey_table *t =
		    ibp_tables_get(s->in.tables, node, port);
		unsigned used = t ? ibp_pkey_table_used(t) : 0;
		for (unsigned i = 0; i < used; i++)
			buf[nk++] = ibp_pkey_table_get(t, i);
		nk = analysis_keys_effective(buf, nk);
		size_t c;
		rc = class_of(s, buf, nk, &c);
		if (rc)
			break;
		s->ep_cls[ep] = c;
		s->cls[c].count++;
		for (size_t j = 0; !rc && j < nk; j++)
			rc = audit_plist_put(&s->part[ibp_pkey_base(buf[j])],
					     ep, ibp_pkey_is_full(buf[j]));
	}
	free(buf);
	return rc;
}

int ibp_audit_state_new(const ibp_audit_input *in, ibp_audit_state **out,
			ibp_error *err)
{
	*out = NULL;
	if (!in || !in->tables)
		return ibp_error_set(err, IBP_EINVAL, "nothing to audit");
	if (in->tenants || in->osm)
		return ibp_error_set(err, IBP_EINVAL,
				     "the audit's state is kept without a "
				     "tenant map or opensm.conf");
	ibp_audit_state *s = calloc(1, sizeof(*s));
	if (!s)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	s->in = *in;
	s->in.matrix = NULL;
	s->in.partition_names = (const char *const *)s->names;
	int rc = ibp_matrix_build(in->tables, NULL, &s->m, err);
	if (rc) {
		ibp_audit_state_free(s);
		return rc;
	}
	s->n = ibp_matrix_endpoint_count(s->m);
	s->sm_ep = ibp_matrix_find(s->m, in->sm_node, in->sm_port);
	s->ep_cls = calloc(s->n + 1, sizeof(*s->ep_cls));
	s->f_ep = calloc(s->n + 1, sizeof(*s->f_ep));
	s->f_part = calloc(0x8000, sizeof(*s->f_part));
	s->is_dirty = calloc(s->n + 1, 1);
	s->guids = malloc((s->n + 1) * sizeof(*s->guids));
	s->reach = malloc(PART_MAX * sizeof(*s->reach));
	s->parts = malloc(PART_MAX * sizeof(*s->parts));
	s->ep_ver = calloc(s->n + 1, sizeof(*s->ep_ver));
	s->f_ep_ver = calloc(s->n + 1, sizeof(*s->f_ep_ver));
	s->part_ver = calloc(0x8000, sizeof(*s->part_ver));
	s->f_part_ver = calloc(0x8000, sizeof(*s->f_part_ver));
	rc = !s->ep_cls || !s->f_ep || !s->f_part || !s->is_dirty ||
		     !s->guids || !s->reach || !s->parts || !s->ep_ver ||
		     !s->f_ep_ver || !s->part_ver || !s->f_part_ver
		 ? IBP_ENOMEM
		 : 0;
	for (size_t b = 0; !rc && b < 0x8000; b++)
		if (in->partition_names && in->partition_names[b] &&
		    !(s->names[b] = strdup(in->partition_names[b])))
			rc = IBP_ENOMEM;
	if (!rc)
		rc = load_keys(s);
	if (!rc)
		rc = recompute(s, SLOT_DEFAULT, 0, &s->f_default, NULL, NULL);
	if (!rc)
		rc = recompute(s, SLOT_SA, 0, &s->f_sa, NULL, NULL);
	for (size_t ep = 0; !rc && ep < s->n; ep++)
		rc = recompute(s, SLOT_EP, ep, &s->f_ep[ep], NULL, NULL);
	for (size_t b = 1; !rc && b < 0x8000; b++)
		if (s->part[b].n)
			rc = recompute(s, SLOT_PART, b, &s->f_part[b], NULL,
				       NULL);
	if (!rc && !(s->f_enforce = ibp_findings_new()))
		rc = IBP_ENOMEM;
	if (!rc) {
		struct audit a;
		audit_init(s, &a, s->f_enforce);
		a.in = in; /* the enforcement bits of the tables given */
		rc = audit_rule_enforcement(&a);
	}
	if (rc) {
		ibp_audit_state_free(s);
		return ibp_error_set(err, rc, "out of memory in the audit");
	}
	*out = s;
	return 0;
}

int ibp_audit_state_set_name(ibp_audit_state *s, uint16_t pkey,
			     const char *name)
{
	uint16_t b = ibp_pkey_base(pkey);
	char *c = name ? strdup(name) : NULL;
	if (name && !c)
		return IBP_ENOMEM;
	if (!(c && s->names[b] ? !strcmp(c, s->names[b]) : c == s->names[b]))
		s->part_ver[b] = ++s->ver;
	free(s->names[b]);
	s->names[b] = c;
	return 0;
}

int ibp_audit_state_set_keys(ibp_audit_state *s, size_t node, unsigned port,
			     const uint16_t *keys, size_t nkeys)
{
	long ep;
	uint16_t *k;
	size_t nk, c;
	int rc =
	    analysis_keys_set_on(s->m, node, port, keys, nkeys, &ep, &k, &nk);
	if (rc)
		return rc;
	rc = class_of(s, k, nk, &c);
	size_t old = s->ep_cls[ep];
	if (!rc && c != old && !s->is_dirty[ep]) {
		if (s->ndirty == s->capdirty) {
			size_t nc = s->capdirty ? s->capdirty * 2 : 64;
			struct dirty *v = realloc(s->dirty, nc * sizeof(*v));
			if (!v)
				rc = IBP_ENOMEM;
			else {
				s->dirty = v;
				s->capdirty = nc;
			}
		}
		if (!rc) {
			s->dirty[s->ndirty++] = (struct dirty){(size_t)ep, old};
			s->is_dirty[ep] = 1;
		}
	}
	if (rc || c == old) {
		free(k);
		return rc;
	}
	const struct cls *o = &s->cls[old];
	uint64_t v = ++s->ver;
	/* only the partitions its membership of changed */
	uint16_t *ch = malloc((o->nk + nk + 1) * sizeof(*ch));
	rc = ch ? audit_plists_move(
		      s->part, s->part_ver, v, (size_t)ep, ch,
		      audit_keys_changed(o->keys, o->nk, k, nk, ch), k, nk)
		: IBP_ENOMEM;
	free(ch);
	s->ep_ver[ep] = v;
	s->cls[old].count--;
	s->cls[c].count++;
	s->cls[old].ver = s->cls[c].ver = v;
	s->ep_cls[ep] = c;
	free(k);
	return rc;
}

/* Mark ep and the ports sharing a partition other than the default one
 * with it (keys k) in mark. */
static void mark_reach(const ibp_audit_state *s, size_t ep, const uint16_t *k,
		       size_t nk, uint8_t *mark)
{
	mark[ep] = 1;
	for (size_t j = 0; j < nk; j++) {
		uint16_t b = ibp_pkey_base(k[j]);
		if (b == IBP_PKEY_DEFAULT_BASE)
			continue;
		for (size_t i = 0; i < s->part[b].n; i++)
			mark[s->part[b].v[i].ep] = 1;
	}
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return (x > y) - (x < y);
}

/* What the default partition's rule reads of an end port's keys: its
 * membership of 0x7fff (limited 1, full 2, both 3) and whether it has
 * another P_Key (4: a tenant port, there being no tenant map). */
size_t audit_keys_changed(const uint16_t *a, size_t na, const uint16_t *b,
			  size_t nb, uint16_t *out)
{
	size_t i = 0, j = 0, n = 0;
	while (i < na || j < nb) {
		uint16_t x = i < na ? ibp_pkey_base(a[i]) : 0xffff;
		uint16_t y = j < nb ? ibp_pkey_base(b[j]) : 0xffff;
		if (x != y)
			out[n++] = x < y ? x : y;
		else if (ibp_pkey_is_full(a[i]) != ibp_pkey_is_full(b[j]))
			out[n++] = x;
		i += x <= y;
		j += y <= x;
	}
	return n;
}

/* Set ep's membership of the bases ch[0..n) to keys k's (one per base,
 * sorted), stamping them with version v. */
int audit_plists_move(struct plist *part, uint64_t *part_ver, uint64_t v,
		      size_t ep, const uint16_t *ch, size_t n,
		      const uint16_t *k, size_t nk)
{
	for (size_t i = 0, j = 0; i < n; i++) {
		while (j < nk && ibp_pkey_base(k[j]) < ch[i])
			j++;
		if (part_ver)
			part_ver[ch[i]] = v;
		if (j < nk && ibp_pkey_base(k[j]) == ch[i]) {
			if (audit_plist_put(&part[ch[i]], ep,
					    ibp_pkey_is_full(k[j])))
				return IBP_ENOMEM;
		} else {
			audit_plist_del(&part[ch[i]], ep);
		}
	}
	return 0;
}

unsigned audit_default_sig(const uint16_t *k, size_t nk)
{
	unsigned sig = 0;
	for (size_t j = 0; j < nk; j++)
		sig |= ibp_pkey_base(k[j]) != IBP_PKEY_DEFAULT_BASE ? 4u
		       : ibp_pkey_is_full(k[j])			    ? 2u
								    : 1u;
	return sig;
}

static unsigned default_sig(const struct cls *c)
{
	return audit_default_sig(c->keys, c->nk);
}

/* audit_state_priv.h */
int audit_state_sa_scope(const ibp_audit_state *s, size_t ep)
{
	if (s->sm_ep < 0)
		return -1; /* the rule finds nothing without an SM port */
	if ((long)ep == s->sm_ep)
		return 1;
	size_t node;
	unsigned port;
	ibp_matrix_endpoint(s->m, ep, &node, &port);
	return ibp_fabric_node_type(ibp_tables_fabric(s->in.tables), node) ==
		       IBP_NODE_SWITCH
		   ? -1
		   : 0;
}

/* Does the SA's rule read a change of ep from class o to class c: the
 * SM port itself changed, or ep (not a switch port) came to share, or
 * stopped sharing, a matching P_Key with it? */
static bool sa_reads(const ibp_audit_state *s, size_t ep, const struct cls *o,
		     const struct cls *c)
{
	int scope = audit_state_sa_scope(s, ep);
	if (scope)
		return scope > 0;
	size_t ns;
	const uint16_t *ks = audit_state_keys(s, (size_t)s->sm_ep, &ns);
	return analysis_keys_match(ks, ns, o->keys, o->nk) !=
	       analysis_keys_match(ks, ns, c->keys, c->nk);
}

int ibp_audit_state_update(ibp_audit_state *s, ibp_findings *old_out,
			   ibp_findings *new_out)
{
	if (!s->ndirty)
		return 0;
	s->ver++; /* the slots recomputed */
	uint8_t *mark = calloc(s->n + 1, 1);
	uint16_t *bases = malloc(0x10000 * sizeof(*bases));
	size_t nb = 0;
	bool dflt = false; /* the default partition's rule reads a change */
	bool sa = false;   /* the SA's rule does */
	int rc = mark && bases ? 0 : IBP_ENOMEM;
	for (size_t d = 0; !rc && d < s->ndirty; d++) {
		size_t ep = s->dirty[d].ep;
		const struct cls *o = &s->cls[s->dirty[d].old];
		const struct cls *c = &s->cls[s->ep_cls[ep]];
		dflt = dflt || default_sig(o) != default_sig(c);
		sa = sa || sa_reads(s, ep, o, c);
		/* the partitions of the old keys: the port left them */
		mark_reach(s, ep, o->keys, o->nk, mark);
		mark_reach(s, ep, c->keys, c->nk, mark);
		/* the partitions whose members changed (a partition's
		 * findings read its members only) */
		if (nb + o->nk + c->nk <= 0x10000)
			nb += audit_keys_changed(o->keys, o->nk, c->keys, c->nk,
						 bases + nb);
		s->is_dirty[ep] = 0;
	}
	s->ndirty = 0;
	/* its findings list every tenant port of the fabric: recomputed
	 * only when a port's membership of 0x7fff or its being a tenant
	 * port changed (else they are the same, in old and new alike) */
	if (!rc && dflt)
		rc = recompute(s, SLOT_DEFAULT, 0, &s->f_default, old_out,
			       new_out);
	/* the same for the SA's: its findings list every end port without
	 * a P_Key matching the SM port's, recomputed only when that set
	 * changed */
	if (!rc && sa)
		rc = recompute(s, SLOT_SA, 0, &s->f_sa, old_out, new_out);
	for (size_t ep = 0; !rc && ep < s->n; ep++)
		if (mark[ep])
			rc = recompute(s, SLOT_EP, ep, &s->f_ep[ep], old_out,
				       new_out);
	if (!rc && nb)
		qsort(bases, nb, sizeof(*bases), cmp_u16);
	for (size_t i = 0; !rc && i < nb; i++)
		if ((!i || bases[i] != bases[i - 1]) && bases[i])
			rc = recompute(s, SLOT_PART, bases[i],
				       &s->f_part[bases[i]], old_out, new_out);
	free(mark);
	free(bases);
	return rc;
}

int ibp_audit_state_findings(const ibp_audit_state *s, ibp_findings *out)
{
	int rc = ibp_findings_append(out, s->f_default);
	if (!rc)
		rc = ibp_findings_append(out, s->f_sa);
	for (size_t ep = 0; !rc && ep < s->n; ep++)
		if (s->f_ep[ep])
			rc = ibp_findings_append(out, s->f_ep[ep]);
	for (size_t b = 1; !rc && b < 0x8000; b++)
		if (s->f_part[b])
			rc = ibp_findings_append(out, s->f_part[b]);
	if (!rc)
		rc = ibp_findings_append(out, s->f_enforce);
	return rc;
}

const ibp_matrix *ibp_audit_state_matrix(const ibp_audit_state *s)
{
	return s->m;
}

const uint16_t *ibp_audit_state_keys(const ibp_audit_state *s, size_t ep,
				     size_t *nk)
{
	return audit_state_keys(s, ep, nk);
}
