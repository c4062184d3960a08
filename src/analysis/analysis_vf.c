/*
 * analysis_vf.c - the isolation question for virtual functions
 * (ibp_audit_shared_physical_port, analysis.h): the audit's high finding
 * "shared-physical-port".
 *
 * In the ConnectX-3 (mlx4) model a VF's GUID is an alias GUID in its
 * physical port's GUIDInfo table (IBA vol. 1 14.2.5.5) and the VF has no
 * P_KeyTable of its own: the host administrator maps selected indexes of
 * the physical port's table into each VF (pkey_idx).  So when two GUIDs
 * of one physical port - two of its VFs, or a VF and the port itself -
 * are members of different partitions, that one table must hold both
 * tenants' P_Keys, and nothing the SM programs keeps them apart: only
 * the hypervisor's mapping does.  (OpenSM 3.3.23 programs no alias at
 * all - conf_guids.c says so - but the plan asks for the sharing, and an
 * SM that programs VFs, or a plan naming the physical port for them, puts
 * both tenants' keys in one table.)  The default partition is everyone's and
 * does not count.  One finding per physical port, naming the port and
 * the partitions its GUIDs are members of.
 *
 * With a tenant map (--tenants) a partition is judged by tenant as
 * tenant-bridge judges it (analysis_audit.c, isolated_pair): the
 * partitions of a shared port count only when their other members -
 * ports and VFs of other physical ports, each of its physical port's
 * tenant; ALL, ALL_CAS, ALL_SWITCHES and ALL_ROUTERS every tenant -
 * include two ports of different tenants, one through each.  Two
 * partitions of one tenant on one physical port are no finding; a
 * partition whose other members are unmapped is not judged.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_lib.h"
#include "conf/conf_lib.h"
#include "ibpart/pkey.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"

int ibp_vf_use_cmp(const void *a, const void *b)
{
	const struct ibp_vf_use *x = a, *y = b;
	if (x->port_guid != y->port_guid)
		return x->port_guid < y->port_guid ? -1 : 1;
	if (x->base != y->base)
		return x->base < y->base ? -1 : 1;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

/* The memberships of every GUID member that is a physical port of an
 * alias of the map, or an alias of a port of the fabric; *n of them. */
static struct ibp_vf_use *uses_of(const ibp_fabric *f, const ibp_conf *plan,
				  const ibp_alias_map *aliases, size_t *n)
{
	size_t cap = 0, k = 0;
	struct ibp_vf_use *u = NULL;
	for (size_t i = 0; i < ibp_conf_partition_count(plan); i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(plan, i);
		uint16_t base = ibp_pkey_base(ibp_conf_partition_pkey(p));
		if (base == ibp_pkey_base(IBP_CONF_DEFAULT_PKEY) || base == 0)
			continue;
		for (size_t j = 0; j < ibp_conf_partition_member_count(p);
		     j++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, j);
			struct ibp_guid_class c;
			if ((m->kind != IBP_MEMBER_GUID &&
			     m->kind != IBP_MEMBER_NAME) ||
			    !m->guid)
				continue;
			/* --vf-guids physical wrote an alias on its port:
			 * the alias is the member that shares the table */
			uint64_t g = m->alias ? m->alias : m->guid;
			ibp_guid_kind kind =
			    ibp_guid_classify(f, aliases, g, &c);
			if (kind != IBP_GUID_PORT && kind != IBP_GUID_ALIAS)
				continue;
			if (k == cap) {
				cap = cap ? 2 * cap : 64;
				struct ibp_vf_use *v =
				    realloc(u, cap * sizeof(*v));
				if (!v) {
					free(u);
					*n = SIZE_MAX;
					return NULL;
				}
				u = v;
			}
			u[k++] = (struct ibp_vf_use){
			    c.port_guid, c.node, c.port, g, base, c.index};
		}
	}
	*n = k;
	return u;
}

/* What the finding is judged against: the plan, the aliases, and the
 * tenant map (NULL: a tenant is a partition). */
struct vf_ctx {
	const ibp_fabric *f;
	const ibp_conf *plan;
	const ibp_alias_map *aliases;
	const ibp_tenant_map *tenants;
	size_t ntenants;
};

/* The tenants of partition base's members that are not GUIDs of the
 * physical port pg, as bits in bits (ntenants of them, cleared here). */
static void partition_tenants(const struct vf_ctx *x, uint16_t base,
			      uint64_t pg, unsigned char *bits)
{
	memset(bits, 0, (x->ntenants + 7) / 8);
	for (size_t i = 0; i < ibp_conf_partition_count(x->plan); i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(x->plan, i);
		if (ibp_pkey_base(ibp_conf_partition_pkey(p)) != base)
			continue;
		for (size_t j = 0; j < ibp_conf_partition_member_count(p);
		     j++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, j);
			struct ibp_guid_class c;
			int t;
			switch (m->kind) {
			case IBP_MEMBER_ALL:
			case IBP_MEMBER_ALL_CAS:
			case IBP_MEMBER_ALL_SWITCHES:
			case IBP_MEMBER_ALL_ROUTERS:
				memset(bits, 0xff, (x->ntenants + 7) / 8);
				return;
			case IBP_MEMBER_GUID:
			case IBP_MEMBER_NAME:
				if (!m->guid)
					break;
				ibp_guid_kind k = ibp_guid_classify(
				    x->f, x->aliases, m->guid, &c);
				if ((k != IBP_GUID_PORT &&
				     k != IBP_GUID_ALIAS) ||
				    c.port_guid == pg)
					break;
				t = ibp_tenant_map_get(x->tenants, c.node,
						       c.port);
				if (t >= 0 && (size_t)t < x->ntenants)
					bits[t / 8] |=
					    (unsigned char)(1u << (t % 8));
				break;
			default:
				break;
			}
		}
	}
}

/* Two tenant sets hold ports of different tenants, one in each. */
static bool tenants_differ(const unsigned char *a, const unsigned char *b,
			   size_t ntenants)
{
	size_t na = 0, nb = 0, ta = 0, tb = 0;
	for (size_t t = 0; t < ntenants; t++) {
		if (a[t / 8] & (1u << (t % 8))) {
			na++;
			ta = t;
		}
		if (b[t / 8] & (1u << (t % 8))) {
			nb++;
			tb = t;
		}
	}
	return na && nb && !(na == 1 && nb == 1 && ta == tb);
}

/* Of the distinct partitions v[0..n) of physical port pg, keep (in
 * place) those that take part in a pair of different tenants; the new
 * count, or SIZE_MAX when out of memory. */
static size_t keep_tenant_pairs(const struct vf_ctx *x, uint64_t pg,
				uint16_t *v, size_t n)
{
	size_t nb = (x->ntenants + 7) / 8 + 1;
	unsigned char *bits = malloc(n * nb);
	bool *in = calloc(n, sizeof(*in));
	if (!bits || !in) {
		free(bits);
		free(in);
		return SIZE_MAX;
	}
	for (size_t a = 0; a < n; a++)
		partition_tenants(x, v[a], pg, bits + a * nb);
	for (size_t a = 0; a < n; a++)
		for (size_t b = a + 1; b < n; b++)
			if (tenants_differ(bits + a * nb, bits + b * nb,
					   x->ntenants))
				in[a] = in[b] = true;
	size_t k = 0;
	for (size_t a = 0; a < n; a++)
		if (in[a])
			v[k++] = v[a];
	free(bits);
	free(in);
	return k;
}

/* The run [i, j) of one physical port: shared when two different GUIDs
 * of it are members of two different partitions, which (every GUID
 * having one) is when it has two GUIDs - so one an alias at least - and
 * two partitions (with a tenant map: two partitions that reach ports of
 * different tenants). */
static int port_finding(ibp_findings *out, const struct vf_ctx *x,
			const struct ibp_vf_use *u, size_t i, size_t j)
{
	const ibp_fabric *f = x->f;
	uint16_t *all = malloc((j - i) * sizeof(*all));
	if (!all)
		return IBP_ENOMEM;
	size_t nparts = 0, nguids = 0;
	bool self = false; /* the port's own GUID is one of them */
	for (size_t k = i; k < j; k++) {
		self |= u[k].index == 0;
		if (k == i || u[k].base != u[k - 1].base)
			all[nparts++] = u[k].base;
		bool seen = false;
		for (size_t q = i; q < k && !seen; q++)
			seen = u[q].guid == u[k].guid;
		nguids += !seen;
	}
	if (nguids >= 2 && nparts >= 2 && x->tenants)
		nparts = keep_tenant_pairs(x, u[i].port_guid, all, nparts);
	if (nparts == SIZE_MAX) {
		free(all);
		return IBP_ENOMEM;
	}
	uint16_t parts[16];
	size_t np = nparts < 16 ? nparts : 16;
	memcpy(parts, all, np * sizeof(*parts));
	free(all);
	if (nguids < 2 || nparts < 2)
		return IBP_OK;
	char list[16 * 8] = "";
	size_t off = 0;
	for (size_t k = 0; k < np && off < sizeof(list); k++)
		off += (size_t)snprintf(list + off, sizeof(list) - off,
					"%s0x%04x", k ? ", " : "", parts[k]);
	return ibp_findings_add(
	    out, "shared-physical-port", IBP_AUDIT_HIGH, &u[i].port_guid, 1,
	    parts, np,
	    "Give each tenant's VFs a physical port of their own; where "
	    "tenants must share one, the host's VF P_Key mapping (pkey_idx) "
	    "must hand each VF its own tenant's indexes only "
	    "(docs/virtual-functions.md).",
	    "%zu GUIDs of physical port 0x%016" PRIx64
	    " (%s port %u: its virtual functions' alias GUIDs%s) are "
	    "members of %zu "
	    "partitions%s (%s): a VF uses its physical port's P_KeyTable, "
	    "which must then hold every one of them, and only the host's "
	    "mapping keeps the tenants apart",
	    nguids, u[i].port_guid, ibp_fabric_node_desc(f, u[i].node),
	    u[i].port, self ? " and the port itself" : "", nparts,
	    x->tenants ? " of different tenants" : "", list);
}

int ibp_audit_vf_uses(const ibp_fabric *f, const ibp_conf *plan,
		      const ibp_alias_map *aliases, struct ibp_vf_use **out,
		      size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!ibp_alias_map_count(aliases) ||
	    ibp_conf_opensm_verdict(plan)->rejected)
		return IBP_OK;
	size_t k;
	struct ibp_vf_use *u = uses_of(f, plan, aliases, &k);
	if (k == SIZE_MAX)
		return IBP_ENOMEM;
	if (k)
		qsort(u, k, sizeof(*u), ibp_vf_use_cmp);
	*out = u;
	*n = k;
	return IBP_OK;
}

int ibp_audit_shared_physical_port(ibp_findings *out, const ibp_fabric *f,
				   const ibp_conf *plan,
				   const ibp_alias_map *aliases,
				   const ibp_tenant_map *tenants)
{
	if (!out || !f || !plan)
		return out && f ? IBP_OK : IBP_EINVAL;
	size_t n;
	struct ibp_vf_use *u;
	if (ibp_audit_vf_uses(f, plan, aliases, &u, &n))
		return IBP_ENOMEM;
	struct vf_ctx x = {f, plan, aliases, tenants,
			   tenants ? ibp_tenant_map_count(tenants) : 0};
	int rc = IBP_OK;
	for (size_t i = 0, j; i < n && !rc; i = j) {
		for (j = i; j < n && u[j].port_guid == u[i].port_guid; j++)
			;
		rc = port_finding(out, &x, u, i, j);
	}
	free(u);
	return rc;
}

int ibp_audit_shared_physical_port_of(ibp_findings *out, const ibp_fabric *f,
				      const struct ibp_vf_use *u, size_t n)
{
	struct vf_ctx x = {f, NULL, NULL, NULL, 0};
	return n ? port_finding(out, &x, u, 0, n) : IBP_OK;
}
