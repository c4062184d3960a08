/*
 * conf_vf.c - `--vf-guids physical` (conf.h, ibp_conf_options.vf_guids):
 * a plan's alias GUIDs read as their physical ports' GUIDs.
 *
 * OpenSM 3.3.23 adds partition members by port GUID only (osm_prtn.c,
 * osm_prtn_add_port) and skips a VF's alias GUID.  For mlx4-style hosts
 * (a VF's GUID is an alias in its physical port's GUIDInfo, IBA vol. 1
 * 14.2.5.5, and a VF uses entries of the physical port's P_KeyTable that
 * the host maps into it: pkey_idx) the partition must then be written on
 * the physical port.  Each alias member of the plan becomes a member
 * naming its physical port (ibp_conf_member.alias keeps the alias, for
 * shared-physical-port and the writer's comment), before the groups are
 * indexed, so the policy, the writer and every analysis see the file
 * OpenSM will be given.
 *
 * ibpartd gives OpenSM its operator's lines as they are and renders its
 * generated section so (src/service/service_vf.c): its reading,
 * PHYSICAL_GENERATED, takes the members below the marker line
 * (partitions_marker.h) only, and an alias above it stays an alias that
 * OpenSM skips (guid-alias-ignored), as in the file.
 *
 * A port named limited and full in one P_Key through its GUIDs (its VF
 * full, itself limited, or two VFs): written as they are, the file's
 * order would decide what the port holds - OpenSM 3.3.23 keeps one
 * membership a port per partition without allow_both_pkeys, the later
 * line removing the port from the other list (osm_prtn_add_port), and
 * measured with allow_both_pkeys too a full line then a limited one
 * leave the limited key only (tests/interop/test_parity_vf_physical.sh).
 * Here the full membership wins whatever the order: every mention of
 * the port in that P_Key is made full - with allow_both_pkeys `both`,
 * so that the table holds the limited and the full key and the host can
 * map each to its own function - and the warning "vf-physical-full" says
 * so.  (The host that maps the table's entries into its VFs holds every
 * entry anyway: nothing is handed to anyone the hypervisor could not
 * already use.)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "conf/conf_internal.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"

#define FIRST_SHOWN 3 /* aliases named in the note */

struct mention {
	uint64_t guid; /* the physical port's */
	ibp_conf_member *m;
};

static int by_guid(const void *a, const void *b)
{
	const struct mention *x = a, *y = b;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->m < y->m ? -1 : x->m > y->m;
}

static bool full(ibp_membership m)
{
	return m == IBP_MEMB_FULL || m == IBP_MEMB_BOTH;
}

/* The run v[0..n) of one port's mentions in g: made full when one is
 * full and another limited, and one of them is an alias. */
static void merge_run(ibp_conf *c, const struct ibp_conf_group *g,
		      struct mention *v, size_t n)
{
	const ibp_conf_member *alias_full = NULL, *limited = NULL;
	for (size_t i = 0; i < n; i++) {
		if (v[i].m->alias && full(v[i].m->membership) && !alias_full)
			alias_full = v[i].m;
		if (!full(v[i].m->membership) && !limited)
			limited = v[i].m;
	}
	bool any_alias = false;
	for (size_t i = 0; i < n; i++)
		any_alias |= v[i].m->alias != 0;
	if (!limited || !any_alias)
		return;
	const ibp_conf_member *f = alias_full;
	for (size_t i = 0; i < n && !f; i++)
		if (full(v[i].m->membership))
			f = v[i].m;
	if (!f)
		return;
	bool both = c->opts.allow_both_pkeys;
	for (size_t i = 0; i < n; i++)
		if (both || !full(v[i].m->membership))
			v[i].m->membership =
			    both ? IBP_MEMB_BOTH : IBP_MEMB_FULL;
	const ibp_fabric *fab = c->opts.fabric;
	size_t node;
	unsigned port;
	const char *desc = "?";
	if (!ibp_fabric_find_port_guid(fab, v[0].guid, &node, &port))
		desc = ibp_fabric_node_desc(fab, node);
	conf_diag(c, IBP_SEV_WARNING, "vf-physical-full", limited->pos, false,
		  "%s is limited in 0x%04x but %s (line %u) is full, and "
		  "both are physical port 0x%016" PRIx64
		  " (%s) with --vf-guids physical: OpenSM keeps the later "
		  "line's membership, so the port is written %s (%s)",
		  limited->text, g->pkey, f->text, f->pos.line, v[0].guid, desc,
		  both ? "both" : "full",
		  both ? "its table holds the limited and the full key, for "
			 "the host to map each to its own function"
		       : "the port itself holds the full key; with "
			 "allow_both_pkeys it would hold both");
}

/* Merge the memberships of each port of g named through an alias. */
static int merge_group(ibp_conf *c, const struct ibp_conf_group *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->nparts; i++)
		n += g->parts[i]->nmembers;
	struct mention *v = n ? malloc(n * sizeof(*v)) : NULL;
	if (n && !v)
		return IBP_ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < g->nparts; i++) {
		const struct ibp_conf_partition *p = g->parts[i];
		for (size_t j = 0; j < p->nmembers; j++) {
			ibp_conf_member *m = &c->members[p->first + j];
			if ((m->kind == IBP_MEMBER_GUID ||
			     m->kind == IBP_MEMBER_NAME) &&
			    m->guid)
				v[k++] = (struct mention){m->guid, m};
		}
	}
	if (k)
		qsort(v, k, sizeof(*v), by_guid);
	for (size_t i = 0, j; i < k; i = j) {
		for (j = i; j < k && v[j].guid == v[i].guid; j++)
			;
		if (j - i > 1)
			merge_run(c, g, v + i, j - i);
	}
	free(v);
	return IBP_OK;
}

/* The note saying how many aliases were written on their ports. */
static void note(ibp_conf *c, size_t n, const size_t *first, size_t nfirst,
		 bool more)
{
	char list[512] = "";
	size_t len = 0;
	for (size_t i = 0; i < nfirst && len < sizeof(list); i++) {
		const ibp_conf_member *m = &c->members[first[i]];
		struct ibp_guid_class gc;
		ibp_guid_classify(c->opts.fabric, c->opts.aliases, m->alias,
				  &gc);
		len += (size_t)snprintf(
		    list + len, sizeof(list) - len,
		    "%s0x%016" PRIx64 " (VF %u of %s port %u)", i ? ", " : "",
		    m->alias, gc.index,
		    ibp_fabric_node_desc(c->opts.fabric, gc.node), gc.port);
	}
	conf_diag(c, IBP_SEV_NOTE, "guid-alias-physical",
		  c->members[first[0]].pos, false,
		  "%zu alias GUID member(s) of the plan are written on their "
		  "physical ports (--vf-guids physical): %s%s; OpenSM programs "
		  "the physical port's P_KeyTable, and the host's VF mapping "
		  "(pkey_idx) decides which VF uses which entry",
		  n, list, more ? ", ..." : "");
}

int conf_vf_physical(ibp_conf *c)
{
	if (c->opts.vf_guids == IBP_VF_GUIDS_ALIAS || !c->opts.fabric ||
	    !ibp_alias_map_count(c->opts.aliases))
		return IBP_OK;
	size_t n = 0, nfirst = 0, first[FIRST_SHOWN];
	bool more = false; /* distinct aliases past the first shown */
	for (size_t i = 0; i < c->nmembers; i++) {
		ibp_conf_member *m = &c->members[i];
		struct ibp_guid_class gc;
		if ((m->kind != IBP_MEMBER_GUID &&
		     m->kind != IBP_MEMBER_NAME) ||
		    !m->guid || m->pos.line <= c->vf_after_line ||
		    ibp_guid_classify(c->opts.fabric, c->opts.aliases, m->guid,
				      &gc) != IBP_GUID_ALIAS)
			continue;
		m->alias = m->guid;
		m->guid = gc.port_guid;
		/* the note names distinct aliases (one may be in several
		 * P_Keys) */
		bool named = false;
		for (size_t k = 0; k < nfirst && !named; k++)
			named = c->members[first[k]].alias == m->alias;
		if (!named && nfirst < FIRST_SHOWN)
			first[nfirst++] = i;
		else if (!named)
			more = true;
		n++;
	}
	if (!n)
		return IBP_OK;
	note(c, n, first, nfirst, more);
	int rc = IBP_OK;
	for (size_t i = 0; i < c->ngroups && !rc; i++)
		rc = merge_group(c, c->groups[i]);
	return rc;
}
