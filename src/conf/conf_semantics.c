/*
 * conf_semantics.c - what partitions.conf means once read, as OpenSM
 * 3.3.23 has it (osm_prtn.c): which P_Key each header gets (written,
 * found by name, or generated 1, 2, … skipping those taken so far), how
 * repeated P_Keys merge into one partition, and which membership a port
 * ends up with (the last line that names it wins).  Then the checks that
 * need the whole file: duplicate members, empty partitions, partitions
 * without a full member, one P_Key under two names with different flags,
 * and GUIDs that the topology does not have.
 */
#include <stdlib.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "util/hash_seed.h"
#include "topo/alias_map_lib.h"
#include "conf/conf_lib.h"
#include "topo/topo_lib.h"
#include "pkey/opensm_partitions_lib.h"

#define OSM_NAME_MAX 31 /* osm_prtn_t name[32] */

/* FNV-1a, then mixed with the conf's seed (util/hash_seed.h): a plan
 * of names crafted to share their low FNV bits would make every look-up
 * walk one chain. */
static size_t name_hash(const ibp_conf *c, const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)hash_mix(h ^ c->name_seed);
}

static int new_group(ibp_conf *c, uint16_t pkey, const char *name)
{
	if (c->ngroups == c->capgroups) {
		size_t cap = c->capgroups ? c->capgroups * 2 : 16;
		struct ibp_conf_group **g =
		    realloc(c->groups, cap * sizeof(*g));
		if (!g)
			return IBP_ENOMEM;
		c->groups = g;
		c->capgroups = cap;
	}
	struct ibp_conf_group *g = calloc(1, sizeof(*g));
	if (!g)
		return IBP_ENOMEM;
	g->pkey = pkey;
	g->allow_both = c->opts.allow_both_pkeys;
	char buf[8];
	if (!name || !*name) {
		snprintf(buf, sizeof(buf), "%04x", pkey);
		name = buf;
	}
	g->name =
	    conf_arena_strndup(&c->arena, name, strnlen(name, OSM_NAME_MAX));
	if (!g->name) {
		free(g);
		return IBP_ENOMEM;
	}
	size_t idx = c->ngroups;
	c->groups[c->ngroups++] = g;
	c->group_of_pkey[pkey] = (int16_t)idx;

	/* index by stored name */
	if (c->nnames * 2 >= c->name_tab_size) {
		size_t ns = c->name_tab_size ? c->name_tab_size * 2 : 64;
		struct conf_name_ent **t = calloc(ns, sizeof(*t));
		if (!t)
			return IBP_ENOMEM;
		for (size_t i = 0; i < c->name_tab_size; i++) {
			struct conf_name_ent *e = c->name_tab[i];
			while (e) {
				struct conf_name_ent *n = e->next;
				size_t h = name_hash(c, e->name) & (ns - 1);
				e->next = t[h];
				t[h] = e;
				e = n;
			}
		}
		free(c->name_tab);
		c->name_tab = t;
		c->name_tab_size = ns;
	}
	struct conf_name_ent *e = conf_arena_alloc(&c->arena, sizeof(*e));
	if (!e)
		return IBP_ENOMEM;
	e->name = g->name;
	e->group = idx;
	size_t h = name_hash(c, e->name) & (c->name_tab_size - 1);
	e->next = c->name_tab[h];
	c->name_tab[h] = e;
	c->nnames++;
	return (int)idx;
}

int conf_semantics_init(ibp_conf *c)
{
	memset(c->group_of_pkey, 0xff, sizeof(c->group_of_pkey)); /* -1 */
	c->name_seed = hash_seed();
	c->gen_counter = 0;
	/* OpenSM creates the default partition before reading the file */
	if (new_group(c, IBP_CONF_DEFAULT_PKEY, "Default") < 0)
		return IBP_ENOMEM;
	/* and a running OpenSM still holds the previous plan's partitions
	 * (emptied; deleted after the file is read if still empty) */
	const ibp_osm_partitions *l = c->opts.opensm_partitions;
	for (size_t i = 0; l && i < l->n; i++) {
		uint16_t k = l->v[i].pkey & 0x7fff;
		if (!k || c->group_of_pkey[k] >= 0)
			continue;
		int g = new_group(c, k, l->v[i].name);
		if (g < 0)
			return IBP_ENOMEM;
		c->groups[g]->earlier = true;
	}
	c->opts.opensm_partitions = NULL; /* borrowed for the call only */
	return IBP_OK;
}

void conf_semantics_free(ibp_conf *c)
{
	for (size_t i = 0; i < c->ngroups; i++) {
		free(c->groups[i]->parts);
		free(c->groups[i]->ops);
		free(c->groups[i]->slots);
		free(c->groups[i]);
	}
	free(c->groups);
	free(c->name_tab);
}

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)(v << 8 | v >> 8);
}

/* osm_prtn_find_by_name(): OpenSM walks its table in the order of the
 * P_Key in network byte order and compares 32 bytes of the stored name */
static int find_by_name(ibp_conf *c, const char *name)
{
	if (!c->name_tab_size || strlen(name) > OSM_NAME_MAX)
		return -1;
	int best = -1;
	size_t h = name_hash(c, name) & (c->name_tab_size - 1);
	for (struct conf_name_ent *e = c->name_tab[h]; e; e = e->next) {
		if (strcmp(e->name, name))
			continue;
		if (best < 0 || bswap16(c->groups[e->group]->pkey) <
				    bswap16(c->groups[best]->pkey))
			best = (int)e->group;
	}
	return best;
}

static int add_part_to_group(ibp_conf *c, struct ibp_conf_group *g,
			     struct ibp_conf_partition *p)
{
	(void)c;
	if (g->nparts == g->capparts) {
		size_t cap = g->capparts ? g->capparts * 2 : 4;
		struct ibp_conf_partition **n =
		    realloc(g->parts, cap * sizeof(*n));
		if (!n)
			return IBP_ENOMEM;
		g->parts = n;
		g->capparts = cap;
	}
	g->parts[g->nparts++] = p;
	return 0;
}

int conf_assign_pkey(ibp_conf *c, struct ibp_conf_partition *p,
		     const char *name, bool has_id, uint16_t id)
{
	uint16_t pkey = id & 0x7fff;
	int g = -1;
	(void)has_id;
	if (name && strlen(name) > OSM_NAME_MAX)
		conf_diag(c, IBP_SEV_WARNING, "name-long", p->pos, false,
			  "OpenSM keeps only the first %d characters of a "
			  "partition name and cannot find this partition by "
			  "its name later",
			  OSM_NAME_MAX);
	if (!pkey) {
		if (name && (g = find_by_name(c, name)) >= 0) {
			p->by_name = true;
			if (c->groups[g]->earlier && !c->groups[g]->nparts)
				conf_diag(c, IBP_SEV_WARNING,
					  "opensm-earlier-partition", p->pos,
					  false,
					  "'%s' has no P_Key here: the running "
					  "OpenSM finds partition 0x%04x of an "
					  "earlier plan by this name and adds "
					  "these members to it (a fresh OpenSM "
					  "would not): the plan's meaning "
					  "depends on the plans before it",
					  name, c->groups[g]->pkey);
			goto merge;
		}
		while (c->gen_counter < 0x7ffe) {
			uint16_t k = (uint16_t)++c->gen_counter;
			int held = c->group_of_pkey[k];
			if (held < 0) {
				pkey = k;
				break;
			}
			if (c->groups[held]->earlier &&
			    !c->groups[held]->nparts)
				conf_diag(c, IBP_SEV_WARNING,
					  "opensm-earlier-partition", p->pos,
					  false,
					  "the P_Key OpenSM generates for "
					  "'%s' skips 0x%04x, which it still "
					  "holds from an earlier plan (a fresh "
					  "OpenSM would give that one): the "
					  "plan's meaning depends on the plans "
					  "before it",
					  name && *name ? name : "?", k);
		}
		if (!pkey)
			return -1;
		p->generated = true;
	}
	g = c->group_of_pkey[pkey];
	if (g < 0) {
		g = new_group(c, pkey, name);
		if (g < 0)
			return IBP_ENOMEM;
		c->groups[g]->parts = NULL;
	} else {
		struct ibp_conf_group *grp = c->groups[g];
		const struct ibp_conf_partition *first =
		    grp->nparts ? grp->parts[0] : NULL;
		const char *nm = name && *name ? name : "";
		if (!first && grp->earlier && strcmp(grp->name, nm) &&
		    strncmp(grp->name, nm, OSM_NAME_MAX))
			conf_diag(
			    c, IBP_SEV_WARNING, "opensm-earlier-partition",
			    p->pos, false,
			    "P_Key 0x%04x keeps the name '%s' the running "
			    "OpenSM gave it in an earlier plan, so '%s' "
			    "does not name it (a statement without a "
			    "P_Key finds it only as '%s'): the plan's "
			    "meaning depends on the plans before it",
			    pkey, grp->name, *nm ? nm : "(none)", grp->name);
		if (first && first->generated && !p->by_name &&
		    strcmp(first->name, nm))
			conf_diag(c, IBP_SEV_ERROR, "pkey-collision", p->pos,
				  true,
				  "P_Key 0x%04x was already given by OpenSM to "
				  "'%s' (line %u, written without a P_Key); "
				  "OpenSM merges this partition into it",
				  pkey, grp->name, first->pos.line);
		else if (first && *nm && strcmp(grp->name, nm) &&
			 pkey != IBP_CONF_DEFAULT_PKEY &&
			 strncmp(grp->name, nm, OSM_NAME_MAX))
			conf_diag(c, IBP_SEV_WARNING, "pkey-two-names", p->pos,
				  false,
				  "P_Key 0x%04x is also '%s' (line %u): OpenSM "
				  "merges the two under the first name",
				  pkey, grp->name, first->pos.line);
	}
merge:
	p->pkey = c->groups[g]->pkey;
	p->group = (size_t)g;
	p->osm_name = c->groups[g]->name;
	if (add_part_to_group(c, c->groups[g], p))
		return IBP_ENOMEM;
	return g;
}

/* ---- membership index ---- */
static uint32_t *slot_find(const struct ibp_conf_group *g, uint64_t guid)
{
	if (!g->nslots)
		return NULL;
	size_t mask = g->nslots - 1;
	size_t h = (size_t)(guid * 0x9e3779b97f4a7c15ull) & mask;
	while (g->slots[h] && g->members[g->slots[h] - 1].guid != guid)
		h = (h + 1) & mask;
	return &g->slots[h];
}

static ibp_membership effective(const struct ibp_conf_group *g,
				ibp_membership m)
{
	if (m == IBP_MEMB_BOTH && !g->allow_both)
		return IBP_MEMB_FULL;
	return m;
}

/* The membership index of a group: ALL-like lines in order, and per GUID
 * the last line that names it.  Built once when the file is finished
 * (conf_finish), so that look-ups on a const conf never write to it and
 * a parsed plan can be read from several threads at once. */
static int index_group(const ibp_conf *c, struct ibp_conf_group *g)
{
	size_t nguid = 0, nops = 0;
	g->members = c->members;
	for (size_t i = 0; i < g->nparts; i++) {
		const struct ibp_conf_partition *p = g->parts[i];
		for (size_t j = 0; j < p->nmembers; j++) {
			const ibp_conf_member *m = &p->members[j];
			if (m->kind == IBP_MEMBER_GUID ||
			    m->kind == IBP_MEMBER_NAME)
				nguid += m->guid != 0;
			else if (m->kind != IBP_MEMBER_NONE)
				nops++;
		}
	}
	if (nops) {
		g->ops = calloc(nops, sizeof(*g->ops));
		if (!g->ops)
			return IBP_ENOMEM;
	}
	if (nguid) {
		size_t n = 16;
		while (n < nguid * 2)
			n *= 2;
		g->slots = calloc(n, sizeof(*g->slots));
		if (!g->slots) {
			free(g->ops);
			g->ops = NULL;
			return IBP_ENOMEM;
		}
		g->nslots = n;
	}
	/* the order of a group's lines: a member's index in the plan's
	 * members array (its partitions are in file order, each one's
	 * members contiguous), shared by the GUID slots and the ops */
	for (size_t i = 0; i < g->nparts; i++) {
		const struct ibp_conf_partition *p = g->parts[i];
		for (size_t j = 0; j < p->nmembers; j++) {
			const ibp_conf_member *m = &p->members[j];
			uint32_t s = (uint32_t)(p->first + j);
			if (m->kind == IBP_MEMBER_NONE)
				continue;
			if (m->kind != IBP_MEMBER_GUID &&
			    m->kind != IBP_MEMBER_NAME) {
				struct conf_op *o = &g->ops[g->nops++];
				o->kind = m->kind;
				o->membership = effective(g, m->membership);
				o->indx0 = m->indx0;
				o->seq = s;
				continue;
			}
			if (!m->guid)
				continue;
			*slot_find(g, m->guid) = s + 1; /* the last one wins */
		}
	}
	g->indexed = true;
	return 0;
}

/* Members listed twice in a group, with a scratch table shared by all
 * groups (entries of earlier groups are told apart by gen). */
struct dup_slot {
	uint64_t guid;
	uint32_t seq;  /* == gen: in use for this group */
	uint32_t line; /* where it was listed first */
	uint8_t membership;
};

struct dup_table {
	struct dup_slot *slots;
	size_t n;
	uint32_t gen;
};

static int check_duplicates(ibp_conf *c, struct ibp_conf_group *g,
			    struct dup_table *t)
{
	size_t nguid = 0;
	for (size_t i = 0; i < g->nparts; i++)
		nguid += g->parts[i]->nmembers;
	if (!nguid)
		return 0;
	if (t->n < nguid * 2) {
		size_t n = t->n ? t->n : 64;
		while (n < nguid * 2)
			n *= 2;
		free(t->slots);
		t->slots = calloc(n, sizeof(*t->slots));
		if (!t->slots)
			return IBP_ENOMEM;
		t->n = n;
		t->gen = 0;
	}
	uint32_t gen = ++t->gen;
	size_t mask = t->n - 1;
	for (size_t i = 0; i < g->nparts; i++) {
		const struct ibp_conf_partition *p = g->parts[i];
		for (size_t j = 0; j < p->nmembers; j++) {
			const ibp_conf_member *m = &p->members[j];
			/* an alias written on its physical port names the
			 * port again by design (conf_vf.c) */
			if ((m->kind != IBP_MEMBER_GUID &&
			     m->kind != IBP_MEMBER_NAME) ||
			    !m->guid || m->alias)
				continue;
			size_t h =
			    (size_t)(m->guid * 0x9e3779b97f4a7c15ull) & mask;
			while (t->slots[h].seq == gen &&
			       t->slots[h].guid != m->guid)
				h = (h + 1) & mask;
			struct dup_slot *sl = &t->slots[h];
			ibp_membership now = effective(g, m->membership);
			if (sl->seq == gen) {
				ibp_membership before =
				    (ibp_membership)sl->membership;
				if (before != now)
					conf_diag(
					    c, IBP_SEV_WARNING,
					    "duplicate-member", m->pos, false,
					    "%s is already a member of 0x%04x "
					    "(line %u, %s); the later %s wins",
					    m->text, g->pkey, sl->line,
					    ibp_membership_str(before),
					    ibp_membership_str(now));
				else
					conf_diag(
					    c, IBP_SEV_WARNING,
					    "duplicate-member", m->pos, false,
					    "%s is listed twice in 0x%04x "
					    "(first at line %u)",
					    m->text, g->pkey, sl->line);
			} else {
				sl->seq = gen;
				sl->guid = m->guid;
				sl->line = (uint32_t)m->pos.line;
			}
			sl->membership = (uint8_t)now;
		}
	}
	return 0;
}

ibp_membership ibp_conf_group_port_membership(const ibp_conf_group *g,
					      uint64_t port_guid,
					      ibp_node_type type,
					      uint64_t sm_port_guid,
					      bool *indx0)
{
	if (!g->indexed)
		return IBP_MEMB_NONE; /* conf_finish ran out of memory */
	ibp_membership best = IBP_MEMB_NONE;
	bool bidx = false;
	size_t best_seq = 0; /* file seqs are shifted by 2 */
	if (g->pkey == IBP_CONF_DEFAULT_PKEY) {
		best = port_guid == sm_port_guid ? IBP_MEMB_FULL
						 : IBP_MEMB_LIMITED;
		best_seq = 1;
	}
	const uint32_t *sl = slot_find(g, port_guid);
	if (sl && *sl && (size_t)*sl + 1 > best_seq) {
		const ibp_conf_member *m = &g->members[*sl - 1];
		best_seq = (size_t)*sl + 1; /* (index + 1) + 1 */
		best = effective(g, m->membership);
		bidx = m->indx0;
	}
	for (size_t i = g->nops; i-- > 0;) {
		const struct conf_op *o = &g->ops[i];
		if (o->seq + 2 <= best_seq)
			break;
		bool applies = false;
		switch (o->kind) {
		case IBP_MEMBER_ALL:
			applies = true;
			break;
		case IBP_MEMBER_ALL_CAS:
			applies = type == IBP_NODE_CA;
			break;
		case IBP_MEMBER_ALL_SWITCHES:
			applies = type == IBP_NODE_SWITCH;
			break;
		case IBP_MEMBER_ALL_ROUTERS:
			applies = type == IBP_NODE_ROUTER;
			break;
		case IBP_MEMBER_SELF:
			applies = port_guid == sm_port_guid;
			break;
		default:
			break;
		}
		if (applies) {
			best_seq = o->seq + 2;
			best = o->membership;
			bidx = o->indx0;
			break;
		}
	}
	if (indx0)
		*indx0 = bidx;
	return best;
}

/* ---- whole-file checks ---- */
static bool flags_conflict(const ibp_conf_flags *a, const ibp_conf_flags *b,
			   char *what, size_t n)
{
#define CMP(has, field, label)                                                 \
	if (a->has && b->has && a->field != b->field) {                        \
		snprintf(what, n, "%s", label);                                \
		return true;                                                   \
	}
	CMP(has_rate, rate, "rate")
	CMP(has_mtu, mtu, "mtu")
	CMP(has_sl, sl, "sl")
	CMP(has_qkey, qkey, "Q_Key")
	CMP(has_tclass, tclass, "TClass")
	CMP(has_flow_label, flow_label, "FlowLabel")
#undef CMP
	if (a->scope_mask && b->scope_mask && a->scope_mask != b->scope_mask) {
		snprintf(what, n, "scope");
		return true;
	}
	if (a->ipoib != b->ipoib) {
		snprintf(what, n, "ipoib");
		return true;
	}
	return false;
}

/* A member written as a node GUID: OpenSM matches port GUIDs only, so it
 * skips it like an unknown one (an easy slip: ibstat shows both); say
 * which port GUID was meant. */
static void node_guid_diag(ibp_conf *c, const ibp_conf_member *m, size_t n)
{
	const ibp_fabric *f = c->opts.fabric;
	char ports[160] = "";
	size_t len = 0;
	for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n) && len < 120;
	     p++) {
		uint64_t pg = ibp_fabric_port_guid(f, n, p);
		if (pg)
			len += (size_t)snprintf(
			    ports + len, sizeof(ports) - len,
			    "%s0x%016llx (port %u)", len ? ", " : "",
			    (unsigned long long)pg, p);
	}
	conf_diag(c, IBP_SEV_WARNING, "node-guid", m->pos, false,
		  "%s is the node GUID of '%s', not a port GUID; OpenSM "
		  "matches port GUIDs only and skips it; its port GUID%s %s",
		  m->text, ibp_fabric_node_desc(f, n),
		  strchr(ports, ',') ? "s are" : " is",
		  ports[0] ? ports : "none");
}

static void check_group(ibp_conf *c, struct ibp_conf_group *g)
{
	if (!g->nparts)
		return;
	const struct ibp_conf_partition *first = g->parts[0];
	bool any_member = false, any_full = false, any_in_fabric = false;
	for (size_t i = 0; i < g->nparts; i++) {
		const struct ibp_conf_partition *p = g->parts[i];
		if (p->flags.ipoib)
			g->ipoib = true;
		g->sl = c->opts.qos ? p->flags.sl : 0;
		if (i > 0 && strcmp(p->name, first->name)) {
			char what[16];
			if (flags_conflict(&first->flags, &p->flags, what,
					   sizeof(what)))
				conf_diag(c, IBP_SEV_ERROR, "pkey-conflict",
					  p->pos, true,
					  "P_Key 0x%04x is defined as '%s' "
					  "(line %u) and as '%s' with a "
					  "different %s; OpenSM merges them "
					  "into one partition",
					  g->pkey, first->name, first->pos.line,
					  p->name, what);
		}
		for (size_t j = 0; j < p->nmembers; j++) {
			const ibp_conf_member *m = &p->members[j];
			if (m->kind == IBP_MEMBER_NONE)
				continue;
			any_member = true;
			ibp_membership e = effective(g, m->membership);
			if (e == IBP_MEMB_FULL || e == IBP_MEMB_BOTH)
				any_full = true;
			if (m->kind != IBP_MEMBER_GUID &&
			    m->kind != IBP_MEMBER_NAME) {
				any_in_fabric = true;
				continue;
			}
			if (!c->opts.fabric || !m->guid)
				continue;
			struct ibp_guid_class gc;
			ibp_guid_kind k = ibp_guid_classify(
			    c->opts.fabric, c->opts.aliases, m->guid, &gc);
			if (k == IBP_GUID_PORT) {
				any_in_fabric = true;
			} else if (k == IBP_GUID_NODE) {
				node_guid_diag(c, m, gc.node);
			} else if (k == IBP_GUID_UNKNOWN && !c->opts.vports) {
				/* with vports: vport-unmodelled (conf_guids.c)
				 */
				conf_diag(c, IBP_SEV_WARNING, "unknown-guid",
					  m->pos, false,
					  "port GUID %s is not in the "
					  "topology; OpenSM skips it",
					  m->text);
			}
		}
	}
	if (g->pkey == IBP_CONF_DEFAULT_PKEY)
		return; /* the SM port is always a full member */
	if (!any_member)
		conf_diag(c, IBP_SEV_WARNING, "empty-partition", first->pos,
			  false,
			  "partition '%s' (0x%04x) has no members; OpenSM "
			  "drops it",
			  g->name, g->pkey);
	else if (c->opts.fabric && !any_in_fabric)
		conf_diag(c, IBP_SEV_WARNING, "empty-partition", first->pos,
			  false,
			  "no member of partition '%s' (0x%04x) is in the "
			  "topology; OpenSM drops it",
			  g->name, g->pkey);
	else if (!any_full)
		conf_diag(c, IBP_SEV_WARNING, "no-full-member", first->pos,
			  false,
			  "partition '%s' (0x%04x) has no full member: limited "
			  "members cannot talk to each other, so nobody in it "
			  "can talk",
			  g->name, g->pkey);
}

int conf_finish(ibp_conf *c)
{
	struct dup_table t = {0};
	int rc = 0;
	conf_fix_members(c);
	rc = conf_vf_physical(c);
	for (size_t i = 0; i < c->ngroups && !rc; i++) {
		struct ibp_conf_group *g = c->groups[i];
		check_group(c, g);
		rc = check_duplicates(c, g, &t);
		if (!rc)
			rc = index_group(c, g);
	}
	free(t.slots);
	if (!rc)
		conf_guid_summary(c);
	return rc;
}
