/*
 * service_guard_state.c - the isolation guard at the cost of the change
 * (issue 29): the audit's answer for the current plan is kept (the
 * analysis input of the plan's file, the audit's state over its tables -
 * ibp_audit_state -, the plan's own findings) and a change to one P_Key
 * is judged by updating it for the ports of the GUIDs the P_Key had and
 * has, instead of auditing the whole file twice.
 *
 * The kept answer reads the topology the service holds
 * (service_topology.c), a reference kept for its life, and is built
 * again on the one loaded anew once the topology file changed.
 *
 * The kept answer is used only where it is exact; anything else falls
 * back to the whole-plan guard (service_guard.c), and the state is built
 * again from the file at the next change:
 *
 *  - with an alias map in effect (learned, --alias-guids), the GUIDs of
 *    the change are classified with it as the whole audit does: an alias
 *    adds its P_Key to no table (OpenSM skips it), or to its physical
 *    port's under --vf-guids physical (the port full when any of its
 *    GUIDs is), and shared-physical-port is judged again for the
 *    physical ports the change names, from the memberships of every
 *    port an alias belongs to (kept: ibp_vf_use, analysis_vf.c); a node
 *    GUID in the change is not exact here;
 *  - the kept plan must be the service's (its revision) with the same
 *    operator's lines, read by OpenSM without error or misreading, and
 *    the operator's lines must not define the P_Key's base;
 *  - the P_Key's own statements, read alone, must have no error: OpenSM
 *    reads each statement of a P_Key nobody else defines on its own (a
 *    name already used is refused before the guard);
 *  - every port the change names must be an end port the policy gave a
 *    table that drops nothing before or after (its P_Keys fit its
 *    PartitionCap), so its effective keys are the plan's;
 *  - the OpenSM placement (service_capacity.c) cannot lose a P_Key on
 *    those ports: their P_Keys fit below the last index OpenSM used there
 *    and none returns to an index another of them holds or remembers
 *    (else the placement model runs, on the whole file).
 *
 * The plan's findings besides the rules' (no-lid, sm-port-assumed, the
 * table overflows of ports the change does not name) do not change with
 * a change the conditions admit; multicast-groups is counted again.
 * The GUIDs OpenSM skips (guid-unknown, guid-alias-ignored,
 * vport-unmodelled) are not kept: they refuse nothing, and the views
 * take them from the whole audit.
 * After each change the caller commits, the kept answer is the new
 * plan's; a background thread audits the committed file whole and
 * counts (and logs through the status) any difference.
 */
#include <malloc.h>
#include <stdatomic.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/alias_map.h"
#include "topo/alias_map_lib.h"
#include "ibpart/pkey.h"
#include "pkey/pkey_table_lib.h"
#include "service/service_internal.h"
#include "analysis/analysis_input_lib.h"
#include "analysis/analysis_lib.h"
#include "conf/conf_lib.h"
#include "pkey/index_memory_lib.h"
#include "pkey/state_file_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"

struct svc_guard_base {
	uint64_t rev; /* the writers' revision it holds (wrev) */
	char *optext; /* the operator's lines it was built with */
	size_t oplen;
	/* the topology held when it was built (a reference: in borrows its
	 * fabric); built again once the service holds another */
	struct svc_topology *topo;
	ibp_analysis_input *in;
	ibp_audit_state *st;
	ibp_findings *plan; /* the plan's findings but multicast-groups */
	size_t mc_need, mc_ipoib;
	/* the change judged and not yet committed or dropped */
	struct touched {
		size_t node;
		unsigned port;
		uint16_t *before;
		size_t nbefore;
	} * t;
	size_t nt;
	size_t mc_need_after, mc_ipoib_after;
	bool pending;
	/* the alias map in effect (the input's), and whether the file
	 * OpenSM is given writes an alias on its port (--vf-guids physical) */
	const ibp_alias_map *aliases;
	bool physical;
	/* shared-physical-port's input: the memberships of the GUIDs of
	 * every physical port with an alias in the map, sorted; while a
	 * change is pending, the kept plan's in kept_uses */
	struct ibp_vf_use *uses, *kept_uses;
	size_t nuses, nkept_uses;
	uint64_t *aliased; /* those ports' GUIDs, sorted */
	size_t naliased;
};

/* The findings the kept answer leaves out: the plan's GUIDs OpenSM will
 * not program (analysis_guids.c: guid-unknown, guid-alias-ignored,
 * vport-unmodelled) change with every GUID a change names and refuse
 * nothing (medium, info); GET /ibpart/v1/audit, the page and /metrics
 * take them from the whole audit, and the check below compares the
 * rest. */
static bool unkept(const char *code)
{
	return !strcmp(code, "guid-unknown") ||
	       !strcmp(code, "guid-alias-ignored") ||
	       !strcmp(code, "vport-unmodelled");
}

static void touched_clear(struct svc_guard_base *b)
{
	for (size_t i = 0; i < b->nt; i++)
		free(b->t[i].before);
	free(b->t);
	b->t = NULL;
	b->nt = 0;
	b->pending = false;
}

/* The memberships the pending change replaced are the kept plan's
 * again (keep: the change's are dropped instead, it is committed). */
static void uses_settle(struct svc_guard_base *b, bool keep)
{
	if (!b->kept_uses)
		return;
	if (keep) {
		free(b->kept_uses);
	} else {
		free(b->uses);
		b->uses = b->kept_uses;
		b->nuses = b->nkept_uses;
	}
	b->kept_uses = NULL;
	b->nkept_uses = 0;
}

void svc_guard_base_free(ibp_service *s, struct svc_guard_base *b)
{
	if (!b)
		return;
	touched_clear(b);
	uses_settle(b, false);
	free(b->uses);
	free(b->aliased);
	ibp_audit_state_free(b->st);
	/* the input, and the state above, read the topology's fabric */
	svc_held_input_free(s, b->in, b->topo);
	ibp_findings_free(b->plan);
	free(b->optext);
	free(b);
}

/* Is port GUID g one of b's aliased ports? */
static bool aliased(const struct svc_guard_base *b, uint64_t g)
{
	return b->naliased &&
	       bsearch(&g, b->aliased, b->naliased, sizeof(g), svc_guid_cmp);
}

/* The ports with an alias in the map, and their GUIDs' memberships in
 * the kept plan (shared-physical-port's input). */
static int vf_uses_build(struct svc_guard_base *b)
{
	b->aliases = ibp_analysis_input_aliases(b->in);
	size_t na = ibp_alias_map_count(b->aliases);
	if (!na)
		return IBP_OK;
	b->aliased = malloc(na * sizeof(*b->aliased));
	if (!b->aliased)
		return IBP_ENOMEM;
	for (size_t i = 0; i < na; i++)
		b->aliased[i] = ibp_alias_map_at(b->aliases, i)->port_guid;
	b->naliased = svc_guid_set(b->aliased, na);
	struct ibp_vf_use *u = NULL;
	size_t n = 0, k = 0;
	if (ibp_audit_vf_uses(ibp_analysis_input_fabric(b->in),
			      ibp_analysis_input_conf(b->in), b->aliases, &u,
			      &n))
		return IBP_ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (aliased(b, u[i].port_guid))
			u[k++] = u[i];
	b->uses = u;
	b->nuses = k;
	return IBP_OK;
}

/* shared-physical-port of the ports of u[0..n) (sorted) in ports (NULL:
 * every one) into out. */
static int vf_findings(const struct svc_guard_base *b,
		       const struct ibp_vf_use *u, size_t n,
		       const uint64_t *ports, size_t nports, ibp_findings *out)
{
	const ibp_fabric *f = ibp_analysis_input_fabric(b->in);
	int rc = IBP_OK;
	for (size_t i = 0, j; i < n && !rc; i = j) {
		for (j = i; j < n && u[j].port_guid == u[i].port_guid; j++)
			;
		if (!ports || bsearch(&u[i].port_guid, ports, nports,
				      sizeof(*ports), svc_guid_cmp))
			rc = ibp_audit_shared_physical_port_of(out, f, u + i,
							       j - i);
	}
	return rc;
}

/* The kept answer for the writers' plan now (built from its file). */
static int base_build(ibp_service *s, const char *optext, size_t oplen,
		      struct svc_guard_base **out)
{
	*out = NULL;
	struct svc_guard_base *b = calloc(1, sizeof(*b));
	char *text = NULL;
	size_t len = 0;
	ibp_error err;
	if (!b || svc_render(optext, oplen, svc_wplan(s), &text, &len)) {
		free(b);
		return IBP_ENOMEM;
	}
	b->rev = s->wrev;
	b->optext = malloc(oplen + 1);
	int rc = b->optext
		     ? svc_held_input(s, text, len, &b->in, &b->topo, &err)
		     : IBP_ENOMEM;
	free(text);
	if (!rc) {
		memcpy(b->optext, optext, oplen);
		b->oplen = oplen;
		ibp_audit_input ai;
		ibp_analysis_input_audit_input(b->in, &ai);
		rc = ibp_audit_state_new(&ai, &b->st, &err);
	}
	ibp_findings *all = rc ? NULL : ibp_findings_new();
	b->plan = rc ? NULL : ibp_findings_new();
	if (!rc && (!all || !b->plan ||
		    ibp_analysis_input_plan_findings(b->in, NULL, all)))
		rc = IBP_ENOMEM;
	for (size_t i = 0; !rc && i < ibp_findings_count(all); i++) {
		const ibp_finding *f = ibp_findings_get(all, i);
		/* both judged again at each change */
		if (strcmp(f->code, "multicast-groups") &&
		    strcmp(f->code, "shared-physical-port") && !unkept(f->code))
			rc = ibp_findings_add(b->plan, f->code, f->severity,
					      f->ports, f->nports,
					      f->partitions, f->npartitions,
					      f->fix, "%s", f->message);
	}
	ibp_findings_free(all);
	if (!rc)
		b->mc_need = ibp_audit_multicast_need(
		    ibp_analysis_input_conf(b->in), &b->mc_ipoib);
	if (!rc) {
		b->physical = svc_vf_reading(s) != IBP_VF_GUIDS_ALIAS;
		rc = vf_uses_build(b);
	}
	if (rc) {
		svc_guard_base_free(s, b);
		return rc;
	}
	*out = b;
	return IBP_OK;
}

/* Is b on the topology the service holds, the file unchanged since?
 * Not once the file was changed (or no longer reads): b's fabric is not
 * the fabric's any more.  A stat, no load: the caller may hold the
 * service's lock. */
static bool base_current(ibp_service *s, const struct svc_guard_base *b)
{
	return svc_topology_current(s, b->topo);
}

/* Is the kept plan's file read by OpenSM as written? */
static bool clean_verdict(const struct svc_guard_base *b)
{
	const ibp_conf *c = ibp_analysis_input_conf(b->in);
	const ibp_conf_verdict *v = c ? ibp_conf_opensm_verdict(c) : NULL;
	return v && !v->rejected && !v->nmisreadings && !v->indeterminate &&
	       !ibp_conf_error_count(c);
}

/* P_Key p's statements alone read without error (p NULL: none). */
static bool reads_alone(const ibp_service *s, const struct svc_part *p)
{
	if (!p)
		return true;
	struct svc_plan one = {.n = 1, .cap = 1, .p = (struct svc_part *)p};
	char *text = NULL;
	size_t len = 0;
	ibp_conf *c = NULL;
	ibp_error err;
	bool ok = !svc_render("", 0, &one, &text, &len) &&
		  !svc_parse_conf(s, "partitions.conf", text, len, &c, &err);
	if (ok) {
		const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
		ok = !v->rejected && !v->nmisreadings && !v->indeterminate &&
		     !ibp_conf_error_count(c);
	}
	ibp_conf_free(c);
	free(text);
	return ok;
}

static bool has_base(const uint16_t *k, size_t n, uint16_t base, size_t *at)
{
	for (size_t i = 0; i < n; i++)
		if (ibp_pkey_base(k[i]) == base) {
			*at = i;
			return true;
		}
	return false;
}

/* Can OpenSM's placement (service_capacity.c's model, from the record)
 * lose a P_Key of wanted (the port's keys before and after) on (n, p)?
 * false only when it surely cannot. */
static bool may_lose(const ibp_service *s, uint64_t guid, const uint16_t *want,
		     size_t nwant)
{
	const ibp_fabric *f = NULL;
	const ibp_state_file *st = NULL;
	uint64_t sm;
	ibp_error err;
	size_t n;
	unsigned p;
	if (svc_record_get(s, &f, &sm, &st, &err) ||
	    ibp_fabric_find_port_guid(f, guid, &n, &p))
		return true;
	unsigned cap = ibp_fabric_port_capacity(f, n, p);
	const ibp_tables *held = st ? ibp_state_file_tables(st) : NULL;
	const ibp_index_memory *mem = st ? ibp_state_file_memory(st) : NULL;
	const ibp_pkey_table *t = held ? ibp_tables_get(held, n, p) : NULL;
	unsigned last = held ? 0 : 1; /* a fresh table: 0xffff at 0 */
	for (unsigned i = t ? ibp_pkey_table_used(t) : 0; i > 0; i--)
		if (ibp_pkey_is_valid(ibp_pkey_table_get(t, i - 1))) {
			last = i;
			break;
		}
	bool known = mem && ibp_index_memory_has_port(mem, n, p);
	if (known && ibp_index_memory_last(mem, n, p) > last)
		last = ibp_index_memory_last(mem, n, p);
	/* every one new, after the last index, one more for index 0 */
	if ((size_t)last + nwant + 1 > cap)
		return true;
	for (size_t i = 0; known && i < nwant; i++) {
		unsigned idx;
		for (unsigned full = 0; full < 2; full++) {
			uint16_t k = (uint16_t)((want[i] & 0x7fff) |
						(full ? 0x8000 : 0));
			if (!ibp_index_memory_get(mem, n, p, k, &idx))
				continue;
			/* another wanted key held or remembered there */
			uint16_t h = t && idx < ibp_pkey_table_used(t)
					 ? ibp_pkey_table_get(t, idx)
					 : 0;
			size_t at;
			if (ibp_pkey_is_valid(h) &&
			    ibp_pkey_base(h) != ibp_pkey_base(k) &&
			    has_base(want, nwant, ibp_pkey_base(h), &at))
				return true;
			for (size_t j = 0; j < nwant; j++) {
				unsigned o;
				if (j != i &&
				    (ibp_index_memory_get(mem, n, p, want[j],
							  &o) ||
				     ibp_index_memory_get(
					 mem, n, p, want[j] ^ 0x8000, &o)) &&
				    o == idx)
					return true;
			}
		}
	}
	return false;
}

/* The members' GUIDs of before and after (either NULL), each once. */
static int guids_of(const struct svc_part *before, const struct svc_part *after,
		    uint64_t **out, size_t *n)
{
	size_t nb = before ? before->n : 0, na = after ? after->n : 0;
	uint64_t *g = malloc((nb + na + 1) * sizeof(*g));
	if (!g)
		return IBP_ENOMEM;
	size_t k = 0, i = 0, j = 0;
	while (i < nb || j < na) { /* both sorted by GUID */
		uint64_t x = i < nb ? before->m[i].guid : UINT64_MAX;
		uint64_t y = j < na ? after->m[j].guid : UINT64_MAX;
		g[k++] = x < y ? x : y;
		i += x <= y;
		j += y <= x;
	}
	*out = g;
	*n = k;
	return IBP_OK;
}

static const struct svc_member *member(const struct svc_part *p, uint64_t g)
{
	size_t lo = 0, hi = p ? p->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->m[mid].guid < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	return p && lo < p->n && p->m[lo].guid == g ? &p->m[lo] : NULL;
}

/* A port whose P_KeyTable the change sets: after's membership of it
 * through any of its GUIDs. */
struct table_port {
	uint64_t guid;
	bool member, full;
};

static int by_table_port(const void *a, const void *b)
{
	const struct table_port *x = a, *y = b;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* The port whose P_KeyTable GUID g's membership goes to in the file
 * OpenSM is given: g when a port; an alias's physical port when the
 * file writes it there (physical); 0 when OpenSM skips g (unknown, an
 * alias left as one).  false: not exact here (the fabric has g under
 * another name: a node GUID). */
static bool table_port(const struct svc_guard_base *b, uint64_t g,
		       uint64_t *port)
{
	const ibp_fabric *f = ibp_analysis_input_fabric(b->in);
	size_t n;
	unsigned p;
	struct ibp_guid_class c;
	*port = 0;
	if (!ibp_fabric_find_port_guid(f, g, &n, &p)) {
		*port = g;
		return true;
	}
	switch (ibp_guid_classify(f, b->aliases, g, &c)) {
	case IBP_GUID_UNKNOWN:
		return true;
	case IBP_GUID_ALIAS:
		if (b->physical)
			*port = c.port_guid;
		return true;
	default:
		return false;
	}
}

/* The ports the change sets, each once, with after's membership (full
 * when any of its GUIDs is: conf_vf.c's rule); NULL when not exact. */
static struct table_port *table_ports(const struct svc_guard_base *b,
				      const struct svc_part *before,
				      const struct svc_part *after, size_t *nt)
{
	uint64_t *g = NULL;
	size_t ng = 0, k = 0;
	if (guids_of(before, after, &g, &ng))
		return NULL;
	struct table_port *t = malloc((ng + 1) * sizeof(*t));
	bool ok = t != NULL;
	for (size_t i = 0; ok && i < ng; i++) {
		uint64_t port;
		ok = table_port(b, g[i], &port);
		if (!ok || !port)
			continue;
		const struct svc_member *mb = member(after, g[i]);
		t[k++] = (struct table_port){port, mb != NULL, mb && mb->full};
	}
	free(g);
	if (!ok) {
		free(t);
		return NULL;
	}
	if (k)
		qsort(t, k, sizeof(*t), by_table_port);
	size_t u = 0;
	for (size_t i = 0; i < k; i++) {
		if (u && t[u - 1].guid == t[i].guid) {
			t[u - 1].member |= t[i].member;
			t[u - 1].full |= t[i].full;
		} else {
			t[u++] = t[i];
		}
	}
	*nt = u;
	return t;
}

/* A port's keys k[0..nk) with P_Key pkey set as tp says, into keys
 * (their count), and the keys OpenSM must place there, before's and
 * after's, into want (*nwant). */
static size_t keys_after(const uint16_t *k, size_t nk, uint16_t pkey,
			 const struct table_port *tp, uint16_t *keys,
			 uint16_t *want, size_t *nwant)
{
	size_t na = nk, at;
	memcpy(keys, k, nk * sizeof(*k));
	bool mb = tp->member;
	uint16_t v = mb ? (uint16_t)(pkey | (tp->full ? 0x8000 : 0)) : 0;
	if (has_base(keys, na, pkey, &at)) {
		if (mb)
			keys[at] = v;
		else
			keys[at] = keys[--na];
	} else if (mb) {
		keys[na++] = v;
	}
	memcpy(want, k, nk * sizeof(*k));
	*nwant = nk;
	if (mb && !has_base(want, *nwant, pkey, &at))
		want[(*nwant)++] = v;
	return na;
}

/* Set the touched ports' keys for after; false: not exact here. */
static bool apply(const ibp_service *s, struct svc_guard_base *b, uint16_t pkey,
		  const struct svc_part *before, const struct svc_part *after)
{
	size_t nt = 0;
	struct table_port *tp = table_ports(b, before, after, &nt);
	if (!tp)
		return false;
	b->t = calloc(nt + 1, sizeof(*b->t));
	bool ok = b->t != NULL;
	const ibp_fabric *f = ibp_analysis_input_fabric(b->in);
	const ibp_matrix *m = ibp_audit_state_matrix(b->st);
	uint16_t *keys = malloc(2 * (IBP_PKEY_TABLE_MAX + 2) * sizeof(*keys));
	uint16_t *want = keys + IBP_PKEY_TABLE_MAX + 2;
	ok = ok && keys;
	for (size_t i = 0; ok && i < nt; i++) {
		size_t n;
		unsigned p;
		if (ibp_fabric_find_port_guid(f, tp[i].guid, &n, &p)) {
			ok = false;
			break;
		}
		long ep = ibp_matrix_find(m, n, p);
		if (ep < 0) {
			ok = false;
			break;
		}
		size_t nk;
		const uint16_t *k =
		    ibp_audit_state_keys(b->st, (size_t)ep, &nk);
		unsigned cap = ibp_fabric_port_capacity(f, n, p);
		struct touched *t = &b->t[b->nt];
		t->node = n;
		t->port = p;
		t->before = malloc((nk + 1) * sizeof(*k));
		if (!t->before || nk >= cap || nk + 1 > IBP_PKEY_TABLE_MAX) {
			free(t->before);
			ok = false;
			break;
		}
		memcpy(t->before, k, nk * sizeof(*k));
		t->nbefore = nk;
		b->nt++;
		size_t nw,
		    na = keys_after(k, nk, pkey, &tp[i], keys, want, &nw);
		ok = na <= cap && !may_lose(s, tp[i].guid, want, nw) &&
		     !ibp_audit_state_set_keys(b->st, n, p, keys, na);
	}
	free(keys);
	free(tp);
	return ok;
}

/* shared-physical-port judged again for the physical ports (with an
 * alias) the change names: their findings before into old, after into
 * neu; b->uses becomes after's (the kept plan's in kept_uses). */
static int vf_change(struct svc_guard_base *b, uint16_t pkey,
		     const struct svc_part *before,
		     const struct svc_part *after, ibp_findings *old,
		     ibp_findings *neu)
{
	if (!b->naliased || pkey == IBP_PKEY_DEFAULT_BASE)
		return IBP_OK;
	const ibp_fabric *f = ibp_analysis_input_fabric(b->in);
	uint64_t *g = NULL;
	size_t ng = 0, np = 0;
	if (guids_of(before, after, &g, &ng))
		return IBP_ENOMEM;
	for (size_t i = 0; i < ng; i++) { /* g[0..np): the touched ports */
		struct ibp_guid_class c;
		ibp_guid_kind k = ibp_guid_classify(f, b->aliases, g[i], &c);
		if ((k == IBP_GUID_PORT || k == IBP_GUID_ALIAS) &&
		    aliased(b, c.port_guid))
			g[np++] = c.port_guid;
	}
	np = svc_guid_set(g, np);
	size_t na = after ? after->n : 0;
	struct ibp_vf_use *u =
	    np ? malloc((b->nuses + na + 1) * sizeof(*u)) : NULL;
	int rc = np && !u ? IBP_ENOMEM : IBP_OK;
	size_t n = 0;
	for (size_t i = 0; u && i < b->nuses; i++)
		if (b->uses[i].base != pkey ||
		    !bsearch(&b->uses[i].port_guid, g, np, sizeof(*g),
			     svc_guid_cmp))
			u[n++] = b->uses[i];
	for (size_t i = 0; u && i < na; i++) {
		struct ibp_guid_class c;
		uint64_t m = after->m[i].guid;
		ibp_guid_kind kind = ibp_guid_classify(f, b->aliases, m, &c);
		if ((kind == IBP_GUID_PORT || kind == IBP_GUID_ALIAS) &&
		    bsearch(&c.port_guid, g, np, sizeof(*g), svc_guid_cmp))
			u[n++] = (struct ibp_vf_use){
			    c.port_guid, c.node, c.port, m, pkey, c.index};
	}
	if (u) {
		qsort(u, n, sizeof(*u), ibp_vf_use_cmp);
		rc = vf_findings(b, b->uses, b->nuses, g, np, old);
		if (!rc)
			rc = vf_findings(b, u, n, g, np, neu);
		if (rc) {
			free(u);
		} else {
			b->kept_uses = b->uses;
			b->nkept_uses = b->nuses;
			b->uses = u;
			b->nuses = n;
		}
	}
	free(g);
	return rc;
}

/* Undo the keys apply set (the state back to the kept plan). */
static void undo(struct svc_guard_base *b)
{
	for (size_t i = 0; i < b->nt; i++)
		ibp_audit_state_set_keys(b->st, b->t[i].node, b->t[i].port,
					 b->t[i].before, b->t[i].nbefore);
	ibp_audit_state_update(b->st, NULL, NULL);
	touched_clear(b);
	uses_settle(b, false);
}

/* The multicast groups P_Key p's statement needs (rendered: ipoib and
 * one member or more: one broadcast group). */
static size_t groups(const struct svc_part *p)
{
	return p && p->n && p->ipoib ? 1 : 0;
}

int svc_guard_incremental(ibp_service *s, struct ibp_service_caller *c,
			  bool removes_only, const char *optext, size_t oplen,
			  const ibp_conf *opc, uint16_t pkey,
			  const struct svc_part *before,
			  const struct svc_part *after, bool *judged,
			  struct ibp_service_error *e)
{
	*judged = false;
	if (!s->topology_path || s->allow_both_pkeys || s->guard_whole)
		return IBP_OK;
	struct svc_guard_base *b = s->guard;
	if (b && (b->rev != s->wrev || b->oplen != oplen ||
		  memcmp(b->optext, optext, oplen) || !base_current(s, b))) {
		svc_guard_base_free(s, b);
		b = s->guard = NULL;
	}
	if (!b) {
		if (base_build(s, optext, oplen, &b))
			return IBP_OK; /* the whole-plan guard judges */
		s->guard = b;
		s->guard_gen++; /* trials on another one are stale */
	}
	if (b->pending)
		undo(b);
	for (size_t i = 0; i < ibp_conf_group_count(opc); i++)
		if (ibp_pkey_base(
			ibp_conf_group_pkey(ibp_conf_group_at(opc, i))) == pkey)
			return IBP_OK;
	if (!clean_verdict(b) || !reads_alone(s, after))
		return IBP_OK;
	if (after && ibp_audit_state_set_name(b->st, pkey, after->name))
		return IBP_OK;
	b->pending = true;
	ibp_findings *old = ibp_findings_new(), *neu = ibp_findings_new();
	bool ok = old && neu && apply(s, b, pkey, before, after) &&
		  !ibp_audit_state_update(b->st, old, neu) &&
		  !vf_change(b, pkey, before, after, old, neu);
	/* the multicast-groups finding, counted again */
	b->mc_ipoib_after = b->mc_ipoib - groups(before) + groups(after);
	b->mc_need_after = b->mc_need - groups(before) + groups(after);
	const ibp_fabric *f = ibp_analysis_input_fabric(b->in);
	ok = ok &&
	     !ibp_audit_multicast_groups(old, f, b->mc_need, b->mc_ipoib) &&
	     !ibp_audit_multicast_groups(neu, f, b->mc_need_after,
					 b->mc_ipoib_after);
	int rc = IBP_OK;
	if (!ok) {
		undo(b);
		svc_guard_base_free(s, b); /* built again at the next change */
		s->guard = NULL;
	} else {
		*judged = true;
		if (removes_only) {
			ibp_findings *all = ibp_findings_new();
			rc = all && !svc_guard_base_findings(s, all)
				 ? svc_guard_remaining(all, c, e)
				 : svc_fail(e, IBP_ENOMEM, NULL,
					    "out of memory");
			ibp_findings_free(all);
		} else {
			rc = svc_guard_refuse(old, neu, NULL, c, e);
		}
		if (rc) {
			undo(b);
		}
	}
	ibp_findings_free(old);
	ibp_findings_free(neu);
	if (ok)
		s->guard_fast++;
	return rc;
}

void svc_guard_committed(ibp_service *s, bool committed)
{
	struct svc_guard_base *b = s->guard;
	if (!b || !b->pending)
		return;
	if (!committed) {
		undo(b);
		return;
	}
	touched_clear(b);
	uses_settle(b, true);
	b->rev = s->wrev;
	b->mc_need = b->mc_need_after;
	b->mc_ipoib = b->mc_ipoib_after;
}

int svc_guard_base_findings(const ibp_service *s, ibp_findings *out)
{
	const struct svc_guard_base *b = s->guard;
	if (!b)
		return IBP_ENOENT;
	bool after = b->pending;
	int rc = ibp_findings_append(out, b->plan);
	if (!rc)
		rc = ibp_audit_multicast_groups(
		    out, ibp_analysis_input_fabric(b->in),
		    after ? b->mc_need_after : b->mc_need,
		    after ? b->mc_ipoib_after : b->mc_ipoib);
	if (!rc)
		rc = ibp_audit_state_findings(b->st, out);
	if (!rc)
		rc = vf_findings(b, b->uses, b->nuses, NULL, 0, out);
	if (!rc)
		ibp_findings_sort(out);
	return rc;
}

/* The first finding of a that b lacks (both sorted), or NULL; the
 * unkept ones aside. */
static const ibp_finding *first_missing(const ibp_findings *a,
					const ibp_findings *b)
{
	for (size_t i = 0; i < ibp_findings_count(a); i++) {
		const ibp_finding *x = ibp_findings_get(a, i);
		bool found = unkept(x->code);
		for (size_t j = 0; j < ibp_findings_count(b) && !found; j++)
			found = ibp_finding_equal(x, ibp_findings_get(b, j));
		if (!found)
			return x;
	}
	return NULL;
}

bool ibp_service_guard_check(ibp_service *s, char *why, size_t size,
			     unsigned long *drifts)
{
	why[0] = 0;
	char *optext = NULL, *text = NULL, problem[8];
	size_t oplen = 0, len = 0;
	ibp_findings *kept = ibp_findings_new(), *full = NULL;
	struct svc_topology *topo = NULL;
	ibp_error err;
	/* the kept answer is the writers': their lock (not the other one,
	 * which a change drops while it judges) */
	pthread_mutex_lock(&s->write_lock);
	pthread_mutex_lock(&s->lock);
	uint64_t rev = s->rev; /* the kept answer is for the plan published
				  only when no change waits to be durable */
	bool check = kept && s->guard && s->guard->rev == rev &&
		     !s->guard->pending &&
		     !svc_operator_text(s, &optext, &oplen, problem,
					sizeof(problem), &err) &&
		     s->guard->oplen == oplen &&
		     !memcmp(s->guard->optext, optext, oplen) &&
		     !svc_guard_base_findings(s, kept) &&
		     !svc_render(optext, oplen, &s->plan, &text, &len);
	if (check) { /* the whole audit on the kept answer's fabric: a
			topology changed since is no drift (the kept answer
			is built again on it at the next change) */
		topo = s->guard->topo;
		svc_topology_hold(s, topo);
	}
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->write_lock);
	bool drift = false;
	if (check && !svc_audit_on(s, topo, text, len, &full, &err)) {
		const ibp_finding *a = first_missing(full, kept);
		const ibp_finding *b = a ? NULL : first_missing(kept, full);
		size_t nfull = ibp_findings_count(full);
		for (size_t i = 0; i < ibp_findings_count(full); i++)
			nfull -= unkept(ibp_findings_get(full, i)->code);
		drift = a || b || nfull != ibp_findings_count(kept);
		if (drift)
			snprintf(why, size,
				 "revision %llu: the guard's kept audit %s "
				 "%s%s%.200s",
				 (unsigned long long)rev,
				 a   ? "lacks"
				 : b ? "has an extra"
				     : "differs",
				 a   ? a->code
				 : b ? b->code
				     : "in count",
				 a || b ? ": " : "",
				 a   ? a->message
				 : b ? b->message
				     : "");
	}
	pthread_mutex_lock(&s->write_lock);
	pthread_mutex_lock(&s->lock);
	if (drift) {
		s->guard_drifts++;
		if (s->guard && s->guard->rev == rev && !s->guard->pending) {
			pthread_rwlock_wrlock(&s->guard_rw);
			svc_guard_base_free(s, s->guard);
			s->guard = NULL;
			pthread_rwlock_unlock(&s->guard_rw);
		}
	}
	if (drifts)
		*drifts = s->guard_drifts;
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->write_lock);
	if (topo)
		svc_topology_put(s, topo);
	ibp_findings_free(kept);
	ibp_findings_free(full);
	free(optext);
	free(text);
	/* the whole audit's memory (a hundred MB at 48k ports, in this
	 * thread's malloc arena) given back: else the daemon keeps its
	 * high-water mark as RSS (docs/ibpartd.md, "Memory") */
	if (check)
		malloc_trim(0);
	return drift;
}

/* ---- Trials: a change judged outside the writers' lock ----
 *
 * Each change is tried on the kept answer with only a readers' lock on
 * it (guard_rw), so changes are judged at once: the P_Key's keys on the
 * ports its GUIDs name set in an ibp_audit_trial (analysis_audit_trial.c)
 * that records every end port, partition and class it read and the
 * slots it recomputed.  Under the writers' lock the trial is applied as
 * it is (its findings refuse or accept the change) only when the kept
 * answer is the one it read, the P_Key is as it saw it, the multicast
 * counts are the same, and nothing the audit read changed since: then
 * the serial guard would compute the same findings now.  Otherwise -
 * another change to a port, partition or class it read went first: the
 * two could interact - svc_guard_incremental judges it again, serially.
 * OpenSM's placement (may_lose) reads the record, which only the
 * writers' lock keeps: it is asked at use.  Not tried (judged serially
 * as before): with an alias map (shared-physical-port spans ports), a
 * change that only removes (its warnings list every finding of the
 * plan), and where the kept answer would not judge it exactly. */
struct trial_port {
	size_t node;
	unsigned port;
	uint64_t guid;
	uint16_t *before, *want;
	size_t nbefore, nwant;
};

struct svc_guard_trial {
	uint64_t gen;		       /* the kept answer it read */
	struct svc_plan before, after; /* the P_Key's, 0 or 1 partition */
	ibp_audit_trial *at;
	ibp_findings *old, *neu;
	long mc_delta; /* the multicast groups it adds (or removes) */
	struct trial_port *tp;
	size_t ntp;
};

void svc_guard_trial_free(struct svc_guard_trial *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->ntp; i++) {
		free(t->tp[i].before);
		free(t->tp[i].want);
	}
	free(t->tp);
	svc_plan_free(&t->before);
	svc_plan_free(&t->after);
	ibp_audit_trial_free(t->at);
	ibp_findings_free(t->old);
	ibp_findings_free(t->neu);
	free(t);
}

bool svc_guard_trial_begin(ibp_service *s, struct svc_snap **snap)
{
	*snap = NULL;
	if (!s->topology_path || s->allow_both_pkeys || s->guard_whole ||
	    s->store_url)
		return false;
	/* no more trials at once than processors: a change applied waits
	 * for the trials under way, and a trial preempted on a busy machine
	 * would hold it up */
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned cap = cpus > 2 ? (unsigned)cpus : 2;
	if (atomic_fetch_add(&s->guard_trying, 1) >= cap) {
		atomic_fetch_sub(&s->guard_trying, 1);
		return false;
	}
	pthread_rwlock_rdlock(&s->guard_rw);
	const struct svc_guard_base *b = s->guard;
	bool ok = b && !b->pending && !b->naliased && clean_verdict(b);
	pthread_mutex_lock(&s->commit_lock);
	ok = ok && b->rev == s->wrev && !s->broken;
	if (ok) {
		*snap = s->wsnap;
		atomic_fetch_add(&(*snap)->refs, 1);
	}
	pthread_mutex_unlock(&s->commit_lock);
	if (!ok)
		svc_guard_trial_end(s);
	return ok;
}

void svc_guard_trial_end(ibp_service *s)
{
	pthread_rwlock_unlock(&s->guard_rw);
	atomic_fetch_sub(&s->guard_trying, 1);
}

static int part_copy(const struct svc_part *p, struct svc_plan *out)
{
	struct svc_plan one = {.n = 1, .cap = 1, .p = (struct svc_part *)p};
	return p ? svc_plan_clone(&one, out) : IBP_OK;
}

/* The ports the change sets, tried: their keys after into t->at. */
static bool trial_ports(struct svc_guard_base *b, struct svc_guard_trial *t,
			uint16_t pkey, const struct svc_part *before,
			const struct svc_part *after)
{
	size_t nt = 0;
	struct table_port *tp = table_ports(b, before, after, &nt);
	if (!tp)
		return false;
	t->tp = calloc(nt + 1, sizeof(*t->tp));
	uint16_t *keys = malloc((IBP_PKEY_TABLE_MAX + 2) * sizeof(*keys));
	bool ok = t->tp && keys;
	const ibp_fabric *f = ibp_analysis_input_fabric(b->in);
	const ibp_matrix *m = ibp_audit_state_matrix(b->st);
	for (size_t i = 0; ok && i < nt; i++) {
		size_t n, nk;
		unsigned p;
		long ep = ibp_fabric_find_port_guid(f, tp[i].guid, &n, &p)
			      ? -1
			      : ibp_matrix_find(m, n, p);
		if (ep < 0) {
			ok = false;
			break;
		}
		const uint16_t *k =
		    ibp_audit_trial_keys(t->at, (size_t)ep, &nk);
		unsigned cap = ibp_fabric_port_capacity(f, n, p);
		struct trial_port *x = &t->tp[t->ntp];
		*x = (struct trial_port){
		    .node = n, .port = p, .guid = tp[i].guid};
		x->before = malloc((nk + 1) * sizeof(*k));
		x->want = malloc((nk + 1) * sizeof(*k));
		t->ntp++;
		if (!x->before || !x->want || nk >= cap ||
		    nk + 1 > IBP_PKEY_TABLE_MAX) {
			ok = false;
			break;
		}
		memcpy(x->before, k, nk * sizeof(*k));
		x->nbefore = nk;
		size_t na =
		    keys_after(k, nk, pkey, &tp[i], keys, x->want, &x->nwant);
		ok = na <= cap &&
		     !ibp_audit_trial_set_keys(t->at, n, p, keys, na);
	}
	free(keys);
	free(tp);
	return ok;
}

struct svc_guard_trial *svc_guard_try(ibp_service *s, const char *optext,
				      size_t oplen, const ibp_conf *opc,
				      uint16_t pkey,
				      const struct svc_part *before,
				      const struct svc_part *after)
{
	struct svc_guard_base *b = s->guard; /* read only: guard_rw */
	for (size_t i = 0; i < ibp_conf_group_count(opc); i++)
		if (ibp_pkey_base(
			ibp_conf_group_pkey(ibp_conf_group_at(opc, i))) == pkey)
			return NULL;
	if (b->oplen != oplen || memcmp(b->optext, optext, oplen) ||
	    !reads_alone(s, after))
		return NULL;
	struct svc_guard_trial *t = calloc(1, sizeof(*t));
	bool ok =
	    t && !part_copy(before, &t->before) &&
	    !part_copy(after, &t->after) &&
	    !ibp_audit_trial_new(b->st, &t->at) &&
	    (!after || !ibp_audit_trial_set_name(t->at, pkey, after->name)) &&
	    (t->old = ibp_findings_new()) && (t->neu = ibp_findings_new());
	if (ok) {
		t->gen = s->guard_gen;
		ok = trial_ports(b, t, pkey, before, after) &&
		     !ibp_audit_trial_update(t->at, t->old, t->neu);
	}
	if (ok) { /* the multicast groups: counted at use, over the plan */
		t->mc_delta = (long)groups(after) - (long)groups(before);
	}
	if (!ok) {
		svc_guard_trial_free(t);
		return NULL;
	}
	return t;
}

/* Is t still what the serial guard would judge now?  The operator's
 * lines it was tried with were the kept answer's (svc_guard_try), as
 * the lines now must be: the same reading. */
static bool trial_holds(ibp_service *s, const struct svc_guard_trial *t,
			const char *optext, size_t oplen, uint16_t pkey,
			const struct svc_part *before,
			const struct svc_part *after)
{
	struct svc_guard_base *b = s->guard;
	if (!b || s->guard_gen != t->gen || b->pending || b->rev != s->wrev ||
	    b->oplen != oplen || memcmp(b->optext, optext, oplen) ||
	    !base_current(s, b) ||
	    !svc_part_equal(svc_plan_find((struct svc_plan *)&t->before, pkey),
			    before) ||
	    !svc_part_equal(svc_plan_find((struct svc_plan *)&t->after, pkey),
			    after) ||
	    !ibp_audit_trial_valid(b->st, t->at))
		return false;
	for (size_t i = 0; i < t->ntp; i++)
		if (may_lose(s, t->tp[i].guid, t->tp[i].want, t->tp[i].nwant))
			return false;
	return true;
}

int svc_guard_trial_use(ibp_service *s, struct svc_guard_trial *t,
			struct ibp_service_caller *c, const char *optext,
			size_t oplen, uint16_t pkey,
			const struct svc_part *before,
			const struct svc_part *after, bool *judged,
			struct ibp_service_error *e)
{
	*judged = false;
	if (!t)
		return IBP_OK;
	if (!trial_holds(s, t, optext, oplen, pkey, before, after)) {
		s->guard_rejudged++;
		return IBP_OK;
	}
	*judged = true;
	s->guard_fast++;
	s->guard_tried++;
	/* the multicast-groups finding, counted again (the counts span the
	 * plan: any change of a P_Key with IPoIB moves them) */
	struct svc_guard_base *b = s->guard;
	size_t need = (size_t)((long)b->mc_need + t->mc_delta);
	size_t ipoib = (size_t)((long)b->mc_ipoib + t->mc_delta);
	const ibp_fabric *f = ibp_analysis_input_fabric(b->in);
	ibp_findings *old = ibp_findings_new(), *neu = ibp_findings_new();
	int rc = old && neu && !ibp_findings_append(old, t->old) &&
			 !ibp_findings_append(neu, t->neu) &&
			 !ibp_audit_multicast_groups(old, f, b->mc_need,
						     b->mc_ipoib) &&
			 !ibp_audit_multicast_groups(neu, f, need, ipoib)
		     ? svc_guard_refuse(old, neu, NULL, c, e)
		     : svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	ibp_findings_free(old);
	ibp_findings_free(neu);
	if (rc)
		return rc; /* refused: the kept answer unchanged */
	b->t = calloc(t->ntp + 1, sizeof(*b->t));
	if (!b->t || ibp_audit_trial_apply(b->st, t->at)) {
		svc_guard_base_free(s, b); /* built again at the next change */
		s->guard = NULL;
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	for (size_t i = 0; i < t->ntp; i++) { /* for undo */
		b->t[i] = (struct touched){t->tp[i].node, t->tp[i].port,
					   t->tp[i].before, t->tp[i].nbefore};
		t->tp[i].before = NULL;
	}
	b->nt = t->ntp;
	b->pending = true;
	b->mc_need_after = need;
	b->mc_ipoib_after = ipoib;
	return IBP_OK;
}
