/*
 * analysis_guids.c - the plan's GUIDs OpenSM will not program, as audit
 * findings (ibp_audit_skipped_guids, analysis_lib.h): "guid-unknown",
 * "guid-alias-ignored" and "vport-unmodelled".
 *
 * OpenSM 3.3.23 adds a partition member by looking its GUID up among the
 * fabric's base port GUIDs only (osm_prtn.c, osm_prtn_add_port); a GUID
 * it does not find - unknown, a node GUID, a VF's alias GUID - is
 * skipped, and the plan says member where the fabric holds nothing.
 * Reading the plan already says so as warnings (conf_guids.c, what
 * `ibpart check` prints); these are the same classes as findings, so
 * that every report made of the audit - `ibpart audit --format json`,
 * matrix's page, ibpartd's GET /ibpart/v1/audit, its page and /metrics -
 * says which GUIDs the SM skips, whatever reading made them (an alias
 * under --vf-guids physical was written on its port and is a port
 * member; one on ibpartd's operator lines stays an alias, as OpenSM
 * gets it).  Under NVIDIA OpenSM's virtualization (vports) a GUID that
 * is no port and no node GUID may be a VF's virtual port, which that SM
 * programs on a table ibpart does not model: "vport-unmodelled" (info),
 * never "ignored".  One finding per class: the GUIDs (first mention
 * first) as its ports, the P_Keys naming them as its partitions.
 */
#include <stdlib.h>

#include "analysis/analysis_lib.h"
#include "conf/conf_lib.h"
#include "ibpart/pkey.h"
#include "topo/alias_map_lib.h"

#define FIRST_SHOWN 3 /* GUIDs a message names, as check's warnings */

enum cls { UNKNOWN, ALIAS, VPORT, NCLS };

/* One mention of a skipped GUID: the GUID and the mention's rank. */
struct mention {
	uint64_t guid;
	size_t rank;
};

struct skipped {
	struct mention *v;
	size_t n, cap;
	unsigned char parts[0x8000 / 8]; /* P_Key bases naming them */
};

static int by_guid(const void *a, const void *b)
{
	const struct mention *x = a, *y = b;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int by_rank(const void *a, const void *b)
{
	const struct mention *x = a, *y = b;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int add(struct skipped *s, uint64_t guid, size_t rank, uint16_t base)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct mention *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return IBP_ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = (struct mention){guid, rank};
	s->parts[base / 8] |= (unsigned char)(1u << (base % 8));
	return IBP_OK;
}

/* The distinct GUIDs of s in order of first mention into g (s->n of
 * room); their count. */
static size_t distinct(struct skipped *s, uint64_t *g)
{
	if (!s->n)
		return 0;
	qsort(s->v, s->n, sizeof(*s->v), by_guid);
	size_t k = 1;
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i].guid != s->v[k - 1].guid)
			s->v[k++] = s->v[i];
	qsort(s->v, k, sizeof(*s->v), by_rank);
	for (size_t i = 0; i < k; i++)
		g[i] = s->v[i].guid;
	return k;
}

/* Each class's finding: code, severity, the message around the count
 * and the GUIDs named ("N HEAD: GUIDS TAIL"), the fix. */
static const struct rule {
	const char *code;
	ibp_audit_severity sev;
	const char *head, *tail, *fix;
} rules[NCLS] = {
    [UNKNOWN] = {"guid-unknown", IBP_AUDIT_MEDIUM,
		 "GUID(s) of the plan are no port of the fabric",
		 "; OpenSM 3.3.23 adds port GUIDs only (osm_prtn_add_port) and "
		 "skips these, so no table holds their P_Keys",
		 "Name each member by its port GUID (a node GUID is no port "
		 "GUID: `ibpart check` names the port meant); a VF's GUID "
		 "needs the alias map (--alias-guids, written by `ibpart "
		 "discover`) to be told apart; else remove the member."},
    [ALIAS] = {"guid-alias-ignored", IBP_AUDIT_MEDIUM,
	       "alias GUID(s) of the plan",
	       "; OpenSM 3.3.23 adds port GUIDs only (osm_prtn_add_port) and "
	       "skips these, so neither a VF nor its physical port gets their "
	       "P_Keys",
	       "Under upstream OpenSM with mlx4-style hosts write the VFs on "
	       "their physical ports (--vf-guids physical; the host's pkey_idx "
	       "mapping must then keep tenants apart); else expect no P_Key "
	       "for them (docs/virtual-functions.md)."},
    [VPORT] = {"vport-unmodelled", IBP_AUDIT_INFO,
	       "GUID(s) of the plan are no port of the fabric",
	       ". With NVIDIA OpenSM's virtualization (opensm.conf "
	       "virt_enabled 2) that SM may program them as VFs' virtual ports "
	       "(vports), whose P_KeyTables ibpart does not model: nothing is "
	       "predicted or verified for them, and a revision naming them is "
	       "not reported verified.",
	       "Read the vports' P_KeyTables with NVIDIA's tools (UFM's GET "
	       "/resources/vports); ibpart reads the physical ports only."}};

/* The finding of class k: the distinct GUIDs of s and its P_Keys. */
static int finding(ibp_findings *out, enum cls k, struct skipped *s,
		   const ibp_fabric *f, const ibp_alias_map *aliases)
{
	uint64_t *g = malloc(s->n * sizeof(*g));
	uint16_t *pk = malloc(0x8000 * sizeof(*pk));
	if (!g || !pk) {
		free(g);
		free(pk);
		return IBP_ENOMEM;
	}
	size_t n = distinct(s, g), np = 0;
	for (unsigned b = 1; b < 0x8000; b++)
		if (s->parts[b / 8] & (1u << (b % 8)))
			pk[np++] = (uint16_t)b;
	char first[512];
	ibp_guid_list_describe(f, aliases, g, n, FIRST_SHOWN, first,
			       sizeof(first));
	const struct rule *r = &rules[k];
	int rc = ibp_findings_add(out, r->code, r->sev, g, n, pk, np, r->fix,
				  "%zu %s: %s%s", n, r->head, first, r->tail);
	free(g);
	free(pk);
	return rc ? IBP_ENOMEM : IBP_OK;
}

int ibp_audit_skipped_guids(ibp_findings *out, const ibp_fabric *f,
			    const ibp_conf *plan, const ibp_alias_map *aliases,
			    bool vports)
{
	if (!out || !f || !plan)
		return out && f ? IBP_OK : IBP_EINVAL;
	struct skipped *s = calloc(NCLS, sizeof(*s));
	if (!s)
		return IBP_ENOMEM;
	int rc = IBP_OK;
	size_t rank = 0;
	for (size_t i = 0; !rc && i < ibp_conf_partition_count(plan); i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(plan, i);
		uint16_t base = ibp_pkey_base(ibp_conf_partition_pkey(p));
		for (size_t j = 0;
		     !rc && j < ibp_conf_partition_member_count(p); j++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, j);
			if ((m->kind != IBP_MEMBER_GUID &&
			     m->kind != IBP_MEMBER_NAME) ||
			    !m->guid)
				continue;
			/* an alias --vf-guids physical wrote on its port is
			 * that port's member now */
			ibp_guid_kind kind =
			    ibp_guid_classify(f, aliases, m->guid, NULL);
			if (kind == IBP_GUID_PORT)
				continue;
			enum cls k = vports && kind != IBP_GUID_NODE ? VPORT
				     : kind == IBP_GUID_ALIAS	     ? ALIAS
								     : UNKNOWN;
			rc = add(&s[k], m->guid, rank++, base);
		}
	}
	for (int k = 0; !rc && k < NCLS; k++)
		if (s[k].n)
			rc = finding(out, (enum cls)k, &s[k], f, aliases);
	for (int k = 0; k < NCLS; k++)
		free(s[k].v);
	free(s);
	return rc;
}
