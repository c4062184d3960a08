/*
 * analysis_audit.c - the security audit: the ways P_Key isolation is
 * commonly broken, checked over the tables a fabric holds (or will hold)
 * and OpenSM's own options.  Every rule appends findings with a stable
 * code; docs/audit.md lists each code's meaning, severity and fix.
 *
 * Membership is the effective one (per base: full wins over limited) of
 * each end port's table, taken from the reachability matrix's classes;
 * reachability questions (can this port reach the SA?) are answered by
 * the matrix.  A "tenant" is a partition (other than the default one)
 * unless a tenant map says which tenant each port belongs to.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/pkey.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "analysis/audit_priv.h"

#define NAME_LIST_MAX 4 /* names quoted in a message */
#define member	      audit_member

/* What the rules read of the end ports' memberships: the matrix's
 * classes in one run, or the incremental state's (audit_priv.h). */
static const uint16_t *ep_keys(const struct audit *a, size_t ep, size_t *nk)
{
	if (a->tr)
		return audit_trial_keys(a->tr, ep, nk);
	if (a->st)
		return audit_state_keys(a->st, ep, nk);
	return ibp_matrix_class_keys(a->m, ibp_matrix_class_of(a->m, ep), nk);
}

static size_t ep_class(const struct audit *a, size_t ep)
{
	if (a->tr)
		return audit_trial_class(a->tr, ep);
	return a->st ? audit_state_class(a->st, ep)
		     : ibp_matrix_class_of(a->m, ep);
}

/* The members of base b, by end port. */
static const struct member *part_members(const struct audit *a, uint16_t b,
					 size_t *n)
{
	if (a->tr)
		return audit_trial_members(a->tr, b, n);
	if (a->st)
		return audit_state_members(a->st, b, n);
	*n = a->poff[b + 1] - a->poff[b];
	return a->pm + a->poff[b];
}

static bool class_talk(const struct audit *a, size_t ca, size_t cb)
{
	if (!a->st)
		return ibp_matrix_class_can_talk(a->m, ca, cb);
	size_t na, nb;
	const uint16_t *ka = a->tr ? audit_trial_class_keys(a->tr, ca, &na)
				   : audit_state_class_keys(a->st, ca, &na);
	const uint16_t *kb = a->tr ? audit_trial_class_keys(a->tr, cb, &nb)
				   : audit_state_class_keys(a->st, cb, &nb);
	return analysis_keys_match(ka, na, kb, nb);
}

static size_t class_size(const struct audit *a, size_t c)
{
	if (a->tr)
		return audit_trial_class_size(a->tr, c);
	return a->st ? audit_state_class_size(a->st, c)
		     : ibp_matrix_class_size(a->m, c);
}

static const char *pname(const struct audit *a, uint16_t base, char buf[32])
{
	base = ibp_pkey_base(base);
	const char *n = a->tr			 ? audit_trial_name(a->tr, base)
			: a->in->partition_names ? a->in->partition_names[base]
						 : NULL;
	if (n && *n)
		snprintf(buf, 32, "%.16s (0x%04x)", n, base);
	else
		snprintf(buf, 32, "0x%04x", base);
	return buf;
}

static const char *epname(const struct audit *a, size_t ep)
{
	return ibp_matrix_endpoint_label(a->m, ep);
}

static bool is_default(uint16_t base)
{
	return ibp_pkey_base(base) == IBP_PKEY_DEFAULT_BASE;
}

static int build_partitions(struct audit *a)
{
	const ibp_matrix *m = a->m;
	size_t n = ibp_matrix_endpoint_count(m);
	a->poff = calloc(0x8001 + 1, sizeof(*a->poff));
	size_t total = 0;
	if (!a->poff)
		return IBP_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t nk;
		const uint16_t *k =
		    ibp_matrix_class_keys(m, ibp_matrix_class_of(m, i), &nk);
		for (size_t j = 0; j < nk; j++)
			a->poff[ibp_pkey_base(k[j]) + 1]++;
		total += nk;
	}
	for (size_t b = 0; b < 0x8000; b++)
		a->poff[b + 1] += a->poff[b];
	a->pm = malloc((total + 1) * sizeof(*a->pm));
	size_t *fill = malloc(0x8000 * sizeof(*fill));
	if (!a->pm || !fill) {
		free(fill);
		return IBP_ENOMEM;
	}
	memcpy(fill, a->poff, 0x8000 * sizeof(*fill));
	for (size_t i = 0; i < n; i++) {
		size_t nk;
		const uint16_t *k =
		    ibp_matrix_class_keys(m, ibp_matrix_class_of(m, i), &nk);
		for (size_t j = 0; j < nk; j++)
			a->pm[fill[ibp_pkey_base(k[j])]++] =
			    (struct member){i, ibp_pkey_is_full(k[j])};
	}
	free(fill);
	return 0;
}

/* The tenant of end port ep: a tenant map index, or -1. */
static int tenant_of(const struct audit *a, size_t ep)
{
	size_t node;
	unsigned port;
	if (!a->in->tenants || !ibp_matrix_endpoint(a->m, ep, &node, &port))
		return -1;
	return ibp_tenant_map_get(a->in->tenants, node, port);
}

/* A tenant port: mapped to a tenant, or (no map) a member of some
 * partition other than the default one.  The SM's port never is. */
static bool is_tenant_port(const struct audit *a, size_t ep)
{
	if ((long)ep == a->sm_ep)
		return false;
	if (a->in->tenants)
		return tenant_of(a, ep) >= 0;
	size_t nk;
	const uint16_t *k = ep_keys(a, ep, &nk);
	for (size_t j = 0; j < nk; j++)
		if (!is_default(k[j]))
			return true;
	return false;
}

/* "a, b, c and 4 more" from a list of end ports. */
static void name_list(const struct audit *a, const size_t *eps, size_t n,
		      char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < n && i < NAME_LIST_MAX; i++)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      i ? ", " : "", epname(a, eps[i]));
	if (n > NAME_LIST_MAX && o < len)
		snprintf(buf + o, len - o, " and %zu more", n - NAME_LIST_MAX);
}

static int add_eps(struct audit *a, const char *code, ibp_audit_severity sev,
		   const size_t *eps, size_t n, const uint16_t *parts,
		   size_t np, const char *fix, const char *msg)
{
	for (size_t i = 0; i < n; i++)
		a->guids[i] = ibp_matrix_endpoint_guid(a->m, eps[i]);
	return ibp_findings_add(a->out, code, sev, a->guids, n, parts, np, fix,
				"%s", msg);
}

/* default-full-member / default-limited-member */
int audit_rule_default(struct audit *a)
{
	size_t n = ibp_matrix_endpoint_count(a->m);
	size_t *full = malloc((n + 1) * sizeof(*full));
	size_t *lim = malloc((n + 1) * sizeof(*lim));
	size_t nf = 0, nl = 0;
	int rc = IBP_ENOMEM;
	if (!full || !lim)
		goto out;
	size_t nd;
	const struct member *dm = part_members(a, IBP_PKEY_DEFAULT_BASE, &nd);
	for (size_t b = 0; b < nd; b++) {
		const struct member *x = &dm[b];
		if (!is_tenant_port(a, x->ep))
			continue;
		if (x->full)
			full[nf++] = x->ep;
		else
			lim[nl++] = x->ep;
	}
	uint16_t d = IBP_PKEY_DEFAULT_BASE;
	char names[512], msg[2048];
	rc = 0;
	if (nf) {
		name_list(a, full, nf, names, sizeof(names));
		snprintf(msg, sizeof(msg),
			 "%zu tenant port(s) (%s) are full members of the "
			 "default partition 0x7fff, so they can reach every "
			 "other member of it, other tenants included, and "
			 "the SA as full members.",
			 nf, names);
		rc = add_eps(
		    a, "default-full-member", IBP_AUDIT_CRITICAL, full, nf, &d,
		    1,
		    "Make tenant ports limited members of the default "
		    "partition (OpenSM: list them '=limited' or use "
		    "'ALL=limited' in Default) and keep full membership for "
		    "the SM and management hosts only.",
		    msg);
	}
	if (!rc && nl) {
		name_list(a, lim, nl, names, sizeof(names));
		snprintf(msg, sizeof(msg),
			 "%zu tenant port(s) (%s) are limited members of the "
			 "default partition 0x7fff (OpenSM's norm): they reach "
			 "its full members (SM, management) but not each "
			 "other, which keeps tenants isolated.",
			 nl, names);
		rc = add_eps(a, "default-limited-member", IBP_AUDIT_INFO, lim,
			     nl, &d, 1,
			     "Nothing to do; make sure only the SM and "
			     "management hosts are full members of 0x7fff.",
			     msg);
	}
out:
	free(full);
	free(lim);
	return rc;
}

/* no-sa-path: end ports that share no matching P_Key with the SA's port */
int audit_rule_sa(struct audit *a)
{
	if (a->sm_ep < 0)
		return 0;
	size_t n = ibp_matrix_endpoint_count(a->m);
	size_t *eps = malloc((n + 1) * sizeof(*eps));
	size_t k = 0;
	if (!eps)
		return IBP_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t node;
		unsigned port;
		ibp_matrix_endpoint(a->m, i, &node, &port);
		if ((long)i == a->sm_ep ||
		    ibp_fabric_node_type(a->f, node) == IBP_NODE_SWITCH)
			continue;
		size_t ns, ni;
		const uint16_t *ks = ep_keys(a, (size_t)a->sm_ep, &ns);
		const uint16_t *ki = ep_keys(a, i, &ni);
		if (a->st ? !analysis_keys_match(ks, ns, ki, ni)
			  : !ibp_matrix_can_talk(a->m, (size_t)a->sm_ep, i))
			eps[k++] = i;
	}
	int rc = 0;
	if (k) {
		char names[512], msg[2048];
		name_list(a, eps, k, names, sizeof(names));
		snprintf(msg, sizeof(msg),
			 "%zu end port(s) (%s) share no matching P_Key with "
			 "the SM/SA port %s, so their GMPs to the SA are "
			 "dropped: no PathRecord queries, no multicast or "
			 "IPoIB join, no rdma_cm connection set-up.",
			 k, names, epname(a, (size_t)a->sm_ep));
		uint16_t d = IBP_PKEY_DEFAULT_BASE;
		rc = add_eps(a, "no-sa-path", IBP_AUDIT_MEDIUM, eps, k, &d, 1,
			     "Make these ports limited members of the default "
			     "partition 0x7fff (the SM port stays full), or "
			     "give the SM port a membership in their "
			     "partitions.",
			     msg);
	}
	free(eps);
	return rc;
}

int audit_rule_partition(struct audit *a, uint16_t base)
{
	char pb[32], msg[2048];
	size_t eps[2], n;
	const struct member *pm = part_members(a, base, &n);
	if (!n)
		return 0;
	size_t full = 0;
	for (size_t i = 0; i < n; i++)
		full += pm[i].full;
	int rc = 0;
	if (n == 1) {
		eps[0] = pm[0].ep;
		snprintf(msg, sizeof(msg),
			 "Partition %s has a single member, %s: it "
			 "carries no traffic and only takes a "
			 "P_KeyTable entry.",
			 pname(a, base, pb), epname(a, eps[0]));
		rc = add_eps(a, "partition-single-member", IBP_AUDIT_INFO, eps,
			     1, &base, 1,
			     "Add the ports that should share it, or "
			     "remove the partition.",
			     msg);
	} else if (!full) {
		size_t *v = malloc(n * sizeof(*v));
		if (!v)
			return IBP_ENOMEM;
		for (size_t i = 0; i < n; i++)
			v[i] = pm[i].ep;
		char names[512];
		name_list(a, v, n, names, sizeof(names));
		snprintf(msg, sizeof(msg),
			 "Partition %s has %zu members (%s) and no full "
			 "member; limited-limited never matches, so no "
			 "two of them can talk.",
			 pname(a, base, pb), n, names);
		rc = add_eps(a, "partition-no-full-member", IBP_AUDIT_MEDIUM, v,
			     n, &base, 1,
			     "Make the ports that serve the partition "
			     "full members (or check whether a typo "
			     "turned them limited).",
			     msg);
		free(v);
	}
	return rc;
}

/* partition-no-full-member, partition-single-member */
static int rule_partitions(struct audit *a)
{
	for (size_t b = 1; b < 0x8000; b++) {
		int rc = audit_rule_partition(a, (uint16_t)b);
		if (rc)
			return rc;
	}
	return 0;
}

/* cross-tenant-reach (tenant map only): a partition in which ports of two
 * different tenants match. */
static int rule_cross_tenant(struct audit *a)
{
	if (!a->in->tenants)
		return 0;
	size_t nt = ibp_tenant_map_count(a->in->tenants);
	if (nt < 2)
		return 0;
	char *inf = malloc(nt), *inm = malloc(nt);
	size_t n = ibp_matrix_endpoint_count(a->m);
	size_t *v = malloc((n + 1) * sizeof(*v));
	int rc = IBP_ENOMEM;
	if (!inf || !inm || !v)
		goto out;
	rc = 0;
	for (size_t b = 1; b < 0x8000 && !rc; b++) {
		size_t s = a->poff[b], e = a->poff[b + 1];
		if (e - s < 2)
			continue;
		memset(inf, 0, nt);
		memset(inm, 0, nt);
		size_t cf = 0, cm = 0;
		int lastf = -1, lastm = -1;
		for (size_t i = s; i < e; i++) {
			int t = tenant_of(a, a->pm[i].ep);
			if (t < 0)
				continue;
			if (!inm[t]) {
				inm[t] = 1;
				cm++;
				lastm = t;
			}
			if (a->pm[i].full && !inf[t]) {
				inf[t] = 1;
				cf++;
				lastf = t;
			}
		}
		size_t k = 0;
		char tl[256] = "";
		size_t tlo = 0;
		for (size_t i = s; i < e; i++) {
			int t = tenant_of(a, a->pm[i].ep);
			if (t < 0)
				continue;
			bool other_member = cm >= 2 || (cm == 1 && lastm != t);
			bool other_full = cf >= 2 || (cf == 1 && lastf != t);
			if ((a->pm[i].full && other_member) || other_full)
				v[k++] = a->pm[i].ep;
		}
		if (!k)
			continue;
		for (size_t t = 0; t < nt; t++)
			if (inm[t] && tlo < sizeof(tl))
				tlo += (size_t)snprintf(
				    tl + tlo, sizeof(tl) - tlo, "%s%s",
				    tlo ? ", " : "",
				    ibp_tenant_map_name(a->in->tenants, t));
		char pb[32], names[512], msg[2048];
		uint16_t base = (uint16_t)b;
		name_list(a, v, k, names, sizeof(names));
		snprintf(msg, sizeof(msg),
			 "Partition %s joins tenants %s with a full member "
			 "on at least one side, so %zu port(s) (%s) can "
			 "reach another tenant directly.",
			 pname(a, base, pb), tl, k, names);
		rc = add_eps(a, "cross-tenant-reach", IBP_AUDIT_CRITICAL, v, k,
			     &base, 1,
			     "Give each tenant its own partition; a port "
			     "shared between tenants must be a limited member "
			     "of each (the storage pattern), never full.",
			     msg);
	}
out:
	free(inf);
	free(inm);
	free(v);
	return rc;
}

/* tenant-bridge, shared-limited-member: a port p that reaches, through
 * two different partitions (other than the default one), two ports x and
 * y that cannot talk to each other (and, with a tenant map, belong to
 * different tenants).  p then joins groups that are otherwise isolated:
 * with full membership on both sides it can initiate to both (a bridge);
 * limited on both sides (the storage pattern), isolation holds on the
 * wire but p is a trust point.
 * Reached ports are kept per partition as (class, tenant) pairs, at most
 * REACH_MAX of them, so the pair test stays small. */
#define reach audit_reach

/* Can the elements (class a, tenant ta) and (class b, tenant tb) be two
 * different ports that cannot talk, of different tenants if mapped? */
static bool isolated_pair(const struct audit *a, size_t ca, int ta, size_t cb,
			  int tb)
{
	if (a->in->tenants && (ta < 0 || tb < 0 || ta == tb))
		return false;
	if (ca == cb && class_size(a, ca) < 2)
		return false; /* one port */
	return !class_talk(a, ca, cb);
}

int audit_rule_shared_ep(struct audit *a, size_t ep, struct audit_reach *r,
			 uint16_t *parts)
{
	int rc = 0;
	size_t nk;
	const uint16_t *k = ep_keys(a, ep, &nk);
	size_t nr = 0;
	for (size_t j = 0; j < nk && nr < PART_MAX; j++) {
		uint16_t b = ibp_pkey_base(k[j]);
		if (is_default(b))
			continue;
		struct reach *x = &r[nr];
		x->base = b;
		x->full = ibp_pkey_is_full(k[j]);
		x->n = 0;
		size_t nm;
		const struct member *pm = part_members(a, b, &nm);
		for (size_t i = 0; i < nm && x->n < REACH_MAX; i++) {
			const struct member *q = &pm[i];
			if (q->ep == ep || (!x->full && !q->full))
				continue;
			size_t c = ep_class(a, q->ep);
			int t = tenant_of(a, q->ep);
			bool dup = false;
			for (size_t e = 0; e < x->n && !dup; e++)
				dup = x->cls[e] == c && x->ten[e] == t;
			if (!dup) {
				x->cls[x->n] = c;
				x->ten[x->n] = t;
				x->n++;
			}
		}
		if (x->n)
			nr++;
	}
	if (nr < 2)
		return 0;
	/* which partitions take part in an isolated pair: judged
	 * on reach, as the matrix does.  Full on either side is a
	 * bridge (a limited membership reaching the full members
	 * of a second group reaches what a full one would: the
	 * client of a service partition is not flagged because its
	 * peers reach the service too, so no pair is isolated);
	 * limited-limited is the storage pattern. */
	bool in_pair[PART_MAX] = {false}, in_bridge[PART_MAX] = {false};
	bool full_pair = false, mixed = false;
	for (size_t i = 0; i < nr; i++)
		for (size_t j = i + 1; j < nr; j++) {
			bool bridge = r[i].full || r[j].full;
			bool *seen = bridge ? in_bridge : in_pair;
			if (seen[i] && seen[j])
				continue;
			bool hit = false;
			for (size_t e = 0; e < r[i].n && !hit; e++)
				for (size_t f = 0; f < r[j].n && !hit; f++)
					hit = isolated_pair(
					    a, r[i].cls[e], r[i].ten[e],
					    r[j].cls[f], r[j].ten[f]);
			if (!hit)
				continue;
			seen[i] = seen[j] = true;
			if (bridge) {
				full_pair = true;
				mixed |= r[i].full != r[j].full;
			}
		}
	size_t np = 0;
	char list[256] = "", pb[32], msg[2048];
	size_t lo = 0;
	for (size_t i = 0; i < nr; i++) {
		if (!(full_pair ? in_bridge[i] : in_pair[i]))
			continue;
		parts[np++] = r[i].base;
		if (lo < sizeof(list))
			lo += (size_t)snprintf(list + lo, sizeof(list) - lo,
					       "%s%s", np > 1 ? ", " : "",
					       pname(a, r[i].base, pb));
	}
	if (np < 2)
		return 0;
	const char *who = a->in->tenants ? " of different tenants" : "";
	if (full_pair && mixed) {
		snprintf(msg, sizeof(msg),
			 "%s reaches, through %zu partitions%s (%s), "
			 "ports that cannot reach each other, as a "
			 "full member of some and a limited member of "
			 "others: its reach is a full bridge's, so it "
			 "bridges groups that are otherwise isolated.",
			 epname(a, ep), np, who, list);
	} else if (full_pair) {
		snprintf(msg, sizeof(msg),
			 "%s is a full member of %zu partitions%s "
			 "(%s) whose other members cannot reach each "
			 "other: it can initiate traffic to each side, "
			 "so it bridges groups that are otherwise "
			 "isolated.",
			 epname(a, ep), np, who, list);
	}
	if (full_pair) {
		rc = add_eps(a, "tenant-bridge", IBP_AUDIT_HIGH, &ep, 1, parts,
			     np,
			     "Make this port a limited member of every "
			     "tenant partition it serves (the storage "
			     "pattern), or give it one port per tenant; "
			     "keep full membership for one tenant only.",
			     msg);
	} else {
		snprintf(msg, sizeof(msg),
			 "%s is a limited member of %zu partitions%s "
			 "(%s) whose other members cannot reach each "
			 "other: isolation between them holds "
			 "on the wire "
			 "(limited-limited never matches), but this "
			 "node is a trust point between them.",
			 epname(a, ep), np, who, list);
		rc = add_eps(a, "shared-limited-member", IBP_AUDIT_MEDIUM, &ep,
			     1, parts, np,
			     "Harden the shared node (it must not "
			     "relay between tenants: no IP forwarding, "
			     "per-tenant exports) and protect it with "
			     "an M_Key like the rest.",
			     msg);
	}
	return rc;
}

static int rule_shared(struct audit *a)
{
	size_t n = ibp_matrix_endpoint_count(a->m);
	struct reach *r = malloc(PART_MAX * sizeof(*r));
	uint16_t *parts = malloc(PART_MAX * sizeof(*parts));
	if (!r || !parts) {
		free(r);
		free(parts);
		return IBP_ENOMEM;
	}
	int rc = 0;
	for (size_t ep = 0; ep < n && !rc; ep++)
		rc = audit_rule_shared_ep(a, ep, r, parts);
	free(r);
	free(parts);
	return rc;
}

/* The end ports behind a switch's external ports: (end port, switch,
 * switch port) for every CA/router port linked to a switch. */
int audit_rule_enforcement(struct audit *a)
{
	const ibp_osm_conf *o = a->in->osm;
	size_t n = ibp_matrix_endpoint_count(a->m);
	size_t *off = malloc((n + 1) * sizeof(*off));
	size_t *part = malloc((n + 1) * sizeof(*part));
	size_t noff = 0, npart = 0;
	if (!off || !part) {
		free(off);
		free(part);
		return IBP_ENOMEM;
	}
	bool conf_in = false, conf_out = false;
	if (o && !o->no_partition_enforcement)
		ibp_part_enforce_bits(o->part_enforce, &conf_in, &conf_out);
	bool from_state = false;
	for (size_t i = 0; i < n; i++) {
		size_t node, sw;
		unsigned port, swp;
		ibp_matrix_endpoint(a->m, i, &node, &port);
		if (ibp_fabric_node_type(a->f, node) == IBP_NODE_SWITCH ||
		    !ibp_fabric_port_peer(a->f, node, port, &sw, &swp) ||
		    ibp_fabric_node_type(a->f, sw) != IBP_NODE_SWITCH)
			continue;
		bool in = true, outb = true;
		/* the callback's answer, else the bits the tables carry
		 * (read from the switch with them) */
		if (a->in->enforcement
			? a->in->enforcement(a->in->enforcement_ctx, sw, swp,
					     &in, &outb)
			: ibp_tables_get_enforcement(a->in->tables, sw, swp,
						     &in, &outb)) {
			from_state = true;
		} else if (o) {
			in = conf_in;
			outb = conf_out;
		} else
			continue; /* not known */
		if (!in && !outb)
			off[noff++] = i;
		else if (!in || !outb)
			part[npart++] = i;
	}
	int rc = 0;
	char names[512], msg[2048];
	if (noff) {
		name_list(a, off, noff, names, sizeof(names));
		snprintf(msg, sizeof(msg),
			 "Partition enforcement is off on the leaf switch "
			 "ports of %zu end port(s) (%s)%s: a host that puts "
			 "a forged P_Key in its packets (a rewritten table, "
			 "a raw QP) is stopped only at the receiving HCA, "
			 "and the switch counts and reports nothing.",
			 noff, names,
			 from_state ? " (PortInfo of the switch ports)"
			 : o && o->no_partition_enforcement
			     ? " (opensm.conf no_partition_enforcement TRUE)"
			     : " (opensm.conf part_enforce off)");
		rc = add_eps(a, "part-enforce-off", IBP_AUDIT_HIGH, off, noff,
			     NULL, 0,
			     "Set 'part_enforce both' (and "
			     "'no_partition_enforcement FALSE') in opensm.conf "
			     "so the SM turns on PartitionEnforcementInbound/"
			     "Outbound on every leaf port.",
			     msg);
	}
	if (!rc && npart) {
		name_list(a, part, npart, names, sizeof(names));
		snprintf(msg, sizeof(msg),
			 "Partition enforcement is on in one direction only "
			 "on the leaf switch ports of %zu end port(s) (%s): "
			 "forged P_Keys are filtered on one way only.",
			 npart, names);
		rc = add_eps(a, "part-enforce-partial", IBP_AUDIT_MEDIUM, part,
			     npart, NULL, 0,
			     "Set 'part_enforce both' in opensm.conf.", msg);
	}
	free(off);
	free(part);
	return rc;
}

/* mkey-not-set, mkey-readable (opensm.conf given) */
static int rule_mkey(struct audit *a)
{
	const ibp_osm_conf *o = a->in->osm;
	if (!o)
		return 0;
	size_t n = ibp_matrix_endpoint_count(a->m);
	for (size_t i = 0; i < n; i++)
		a->guids[i] = ibp_matrix_endpoint_guid(a->m, i);
	if (!o->m_key)
		return ibp_findings_add(
		    a->out, "mkey-not-set", IBP_AUDIT_HIGH, a->guids, n, NULL,
		    0,
		    "Set a secret non-zero 'm_key' and "
		    "'m_key_protection_level 2' in opensm.conf (and a "
		    "lease period), so only the SM can write PortInfo and "
		    "P_KeyTables.",
		    "The M_Key is %s in opensm.conf, so any host that can "
		    "send SMPs (QP0, not P_Key checked) can rewrite the "
		    "P_KeyTable of any of the %zu end ports; P_Keys do not "
		    "stop SMPs.",
		    o->have_m_key ? "0 (not set)" : "absent (0)", n);
	if (o->m_key_protect_bits == 0)
		return ibp_findings_add(
		    a->out, "mkey-readable", IBP_AUDIT_MEDIUM, a->guids, n,
		    NULL, 0,
		    "Set 'm_key_protection_level 2' (Get and Set need the "
		    "M_Key) in opensm.conf.",
		    "The M_Key is set but m_key_protection_level is 0: any "
		    "host can read it back with SubnGet(PortInfo) and then "
		    "use it to rewrite P_KeyTables.");
	return 0;
}

/* smkey-default, sakey-default; where the file has NVIDIA OpenSM's
 * options: sm-guids-open, mkey-per-port-off, sa-trust-basic
 * (opensm.conf given).  Subnet-wide: no ports.  One row per rule, each
 * message taking one string. */
static int rule_keys(struct audit *a)
{
	const ibp_osm_conf *o = a->in->osm;
	if (!o)
		return 0;
	static const char dflt[] = "OpenSM's well-known default (0x1) or 0";
	static const char absent[] = "absent, so OpenSM's well-known default "
				     "(0x1)";
	bool nv = o->have_nvidia;
	/* the message: "WHAT is ARG: WHY" */
	const struct {
		bool hit;
		const char *code;
		ibp_audit_severity sev;
		const char *fix, *what, *arg, *why;
	} rule[] = {
	    {o->sm_key <= 1, "smkey-default", IBP_AUDIT_MEDIUM,
	     "Set a secret 'sm_key' in opensm.conf, the same on every SM of "
	     "the subnet.",
	     "The SM_Key", o->have_sm_key ? dflt : absent,
	     "SMInfo exchanges (IBA 14.4) are authenticated by nothing, so a "
	     "rogue SM can learn the master's state and negotiate mastership "
	     "with it."},
	    {o->sa_key <= 1, "sakey-default", IBP_AUDIT_INFO,
	     "Set a secret 'sa_key' in opensm.conf.", "The SA_Key",
	     o->have_sa_key ? dflt : absent,
	     "any host can make the SA requests that need it (15.2.1.1)."},
	    {nv && !o->allowed_sm_guids[0], "sm-guids-open", IBP_AUDIT_MEDIUM,
	     "List the port GUIDs of your SMs in 'allowed_sm_guids'.",
	     "allowed_sm_guids", o->have_allowed_sm_guids ? "empty" : "absent",
	     "any port may run an SM that this one hands mastership to, and "
	     "that SM programs every P_KeyTable."},
	    {nv && o->m_key && !o->m_key_per_port, "mkey-per-port-off",
	     IBP_AUDIT_MEDIUM,
	     "Set 'm_key_per_port TRUE' (each port's M_Key derived from m_key "
	     "and its GUID).",
	     "m_key_per_port", o->have_m_key_per_port ? "FALSE" : "absent",
	     "one M_Key protects every port, so whoever learns it on one host "
	     "can rewrite every P_KeyTable."},
	    {nv && !o->sa_enhanced_trust_model, "sa-trust-basic",
	     IBP_AUDIT_INFO, "Set 'sa_enhanced_trust_model TRUE'.",
	     "sa_enhanced_trust_model",
	     o->have_sa_enhanced_trust_model ? "FALSE" : "absent",
	     "the SA answers any port's queries about the whole subnet "
	     "without the enhanced checks."},
	};
	int rc = 0;
	for (size_t i = 0; !rc && i < sizeof(rule) / sizeof(rule[0]); i++)
		if (rule[i].hit)
			rc = ibp_findings_add(a->out, rule[i].code, rule[i].sev,
					      NULL, 0, NULL, 0, rule[i].fix,
					      "%s is %s: %s", rule[i].what,
					      rule[i].arg, rule[i].why);
	return rc;
}

int ibp_audit_run(const ibp_audit_input *in, ibp_findings *out, ibp_error *err)
{
	if (!in || !in->tables || !out)
		return ibp_error_set(err, IBP_EINVAL, "nothing to audit");
	struct audit a = {.in = in, .out = out};
	ibp_matrix *own = NULL;
	int rc;
	a.m = in->matrix;
	if (!a.m) {
		rc = ibp_matrix_build(in->tables, NULL, &own, err);
		if (rc)
			return rc;
		a.m = own;
	}
	a.f = ibp_tables_fabric(in->tables);
	a.sm_ep = ibp_matrix_find(a.m, in->sm_node, in->sm_port);
	size_t n = ibp_matrix_endpoint_count(a.m);
	a.guids = malloc((n + 1) * sizeof(*a.guids));
	rc = a.guids ? build_partitions(&a) : IBP_ENOMEM;
	if (!rc)
		rc = audit_rule_default(&a);
	if (!rc)
		rc = audit_rule_sa(&a);
	if (!rc)
		rc = rule_cross_tenant(&a);
	if (!rc)
		rc = rule_shared(&a);
	if (!rc)
		rc = rule_partitions(&a);
	if (!rc)
		rc = audit_rule_enforcement(&a);
	if (!rc)
		rc = rule_mkey(&a);
	if (!rc)
		rc = rule_keys(&a);
	free(a.guids);
	free(a.poff);
	free(a.pm);
	ibp_matrix_free(own);
	if (rc)
		return ibp_error_set(err, rc, "out of memory in the audit");
	return 0;
}

/* The GUIDs of every end port of f (malloc'd, *cnt of them); NULL when
 * out of memory. */
static uint64_t *end_port_guids(const ibp_fabric *f, size_t *cnt)
{
	size_t k = 0, nn = ibp_fabric_node_count(f);
	for (size_t n = 0; n < nn; n++)
		for (unsigned p = 0; p <= ibp_fabric_node_nports(f, n); p++)
			if (ibp_fabric_is_end_port(f, n, p))
				k++;
	uint64_t *g = malloc((k + 1) * sizeof(*g));
	if (!g)
		return NULL;
	k = 0;
	for (size_t n = 0; n < nn; n++)
		for (unsigned p = 0; p <= ibp_fabric_node_nports(f, n); p++)
			if (ibp_fabric_is_end_port(f, n, p))
				g[k++] = ibp_fabric_port_guid(f, n, p);
	*cnt = k;
	return g;
}

int ibp_audit_plan_rejected(ibp_findings *out, const ibp_fabric *f,
			    const char *why, bool seed_dialect)
{
	size_t cnt;
	uint64_t *g = end_port_guids(f, &cnt);
	if (!g)
		return IBP_ENOMEM;
	uint16_t d = IBP_PKEY_DEFAULT_BASE;
	int rc;
	if (seed_dialect)
		rc = ibp_findings_add(
		    out, "plan-rejected", IBP_AUDIT_HIGH, g, cnt, &d, 1,
		    "Give OpenSM the output of `ibpart convert -t TOPO` "
		    "(OpenSM syntax, the same plan), never this file.",
		    "This plan is in the seed's 'PartitionConfig { ... }' "
		    "dialect (%s): the other findings are about the plan as "
		    "written, but OpenSM 3.3.23 rejects such a file whole "
		    "and falls back to 'Default=0x7fff : ALL=full', every "
		    "port a full member of 0xffff, no isolation at all.",
		    why && *why ? why : "not OpenSM syntax");
	else
		rc = ibp_findings_add(
		    out, "plan-rejected", IBP_AUDIT_CRITICAL, g, cnt, &d, 1,
		    "Fix the error (ibpart check shows where) before OpenSM "
		    "reads "
		    "the file, and watch OpenSM's log for 'PARSE ERROR'.",
		    "OpenSM 3.3.23 rejects this partitions.conf whole (%s) and "
		    "falls "
		    "back to 'Default=0x7fff : ALL=full', making every port a "
		    "full "
		    "member of 0xffff: no isolation at all.",
		    why && *why ? why : "a parse error");
	free(g);
	return rc;
}

int ibp_audit_fallback_indx0(ibp_findings *out, const uint64_t *ports,
			     size_t nports, const char *why)
{
	uint16_t d = IBP_PKEY_DEFAULT_BASE;
	return ibp_findings_add(
	    out, "fallback-indx0", IBP_AUDIT_HIGH, ports, nports, &d, 1,
	    "Fix the file's error; until then expect IPoIB (ib0, on index 0) "
	    "to have no partition on these ports.",
	    "OpenSM 3.3.23 rejects the file (%s) and programs its fallback, "
	    "but keeps the indx0 P_Key it read before the error: on %zu "
	    "port(s) 0xffff goes to index 1 and index 0 stays empty, so the "
	    "IPoIB parent interface, which uses index 0, has no partition "
	    "(an OpenSM bug).",
	    why && *why ? why : "a parse error", nports);
}

int ibp_audit_plan_indeterminate(ibp_findings *out, const ibp_fabric *f,
				 const char *why)
{
	size_t cnt;
	uint64_t *g = end_port_guids(f, &cnt);
	if (!g)
		return IBP_ENOMEM;
	int rc = ibp_findings_add(
	    out, "plan-indeterminate", IBP_AUDIT_HIGH, g, cnt, NULL, 0,
	    "Move the mgid items of the statement before its members, so "
	    "no mgid item ends a statement.",
	    "OpenSM 3.3.23 reads this file into memory it never initialised "
	    "(%s): whether it accepts the file, and the tables it programs, "
	    "depend on the line's length and the process; the other "
	    "findings are about one possible outcome.",
	    why && *why ? why : "an mgid item ends a statement");
	free(g);
	return rc;
}

int ibp_audit_plan_misread(ibp_findings *out, const uint64_t *ports,
			   size_t nports, const uint16_t *partitions,
			   size_t npartitions, const char *why)
{
	return ibp_findings_add(
	    out, "plan-misread", IBP_AUDIT_HIGH, ports, nports, partitions,
	    npartitions,
	    "Rewrite the line so that OpenSM reads what it says (ibpart "
	    "check points at it); the usual cause is a missing comma.",
	    "OpenSM reads this plan differently from what it says: %s.",
	    why && *why ? why : "a membership is not what it looks like");
}

int ibp_audit_capacity_overflow_ports(ibp_findings *out, const uint64_t *ports,
				      size_t nports, unsigned capacity,
				      unsigned wanted, const uint16_t *dropped,
				      size_t ndropped)
{
	if (nports == 1)
		return ibp_audit_capacity_overflow(out, ports[0], capacity,
						   wanted, dropped, ndropped);
	char names[160];
	size_t o = 0;
	names[0] = 0;
	for (size_t i = 0; i < nports && i < 4; i++)
		o += (size_t)snprintf(
		    names + o, o < sizeof(names) ? sizeof(names) - o : 0,
		    "%s0x%016" PRIx64, i ? ", " : "", ports[i]);
	if (nports > 4 && o < sizeof(names))
		snprintf(names + o, sizeof(names) - o, " and %zu more",
			 nports - 4);
	return ibp_findings_add(
	    out, "capacity-overflow", IBP_AUDIT_HIGH, ports, nports, dropped,
	    ndropped,
	    "Reduce the partitions these ports are in, or use HCAs with a "
	    "larger PartitionCap.",
	    "%zu ports (%s) should each hold %u P_Keys but their P_KeyTables "
	    "have %u entries (PartitionCap); the same %zu partition(s) do not "
	    "fit and the ports are silently not members of them.",
	    nports, names, wanted, capacity, ndropped);
}

int ibp_audit_capacity_overflow(ibp_findings *out, uint64_t port_guid,
				unsigned capacity, unsigned wanted,
				const uint16_t *dropped, size_t ndropped)
{
	return ibp_findings_add(
	    out, "capacity-overflow", IBP_AUDIT_HIGH, &port_guid, 1, dropped,
	    ndropped,
	    "Reduce the partitions this port is in, or use an HCA with a "
	    "larger PartitionCap.",
	    "Port 0x%016" PRIx64 " should hold %u P_Keys but its P_KeyTable "
	    "has %u entries (PartitionCap); %zu partition(s) do not fit and "
	    "the port is silently not a member of them.",
	    port_guid, wanted, capacity, ndropped);
}
