/*
 * conf_guids.c - what becomes of the GUIDs a plan names, summed up.
 *
 * OpenSM 3.3.23 adds a partition member by looking its GUID up among the
 * fabric's base port GUIDs only (osm_prtn.c, osm_prtn_add_port, through
 * osm_get_port_by_guid); a GUID it does not find - one the fabric lacks,
 * a node GUID, or the alias GUID of a virtual function - is skipped with
 * a log line ("port ... not found") and no P_KeyTable holds its P_Keys.
 * With a fabric, the plan's GUID members are classified once
 * (alias_map.h) and each class OpenSM skips is one warning with the
 * count and the first GUIDs, located at the first one: "guid-unknown"
 * (unknown GUIDs and node GUIDs) and "guid-alias-ignored" (aliases of
 * ports of the fabric, with their port and GUIDInfo index).
 *
 * Under NVIDIA's OpenSM with virtualization enabled (opensm.conf
 * virt_enabled 2: conf.h's vports) a GUID that is no port of the fabric
 * may be a VF's virtual port, which that SM programs and ibpart does not
 * model: the unknown GUIDs and the aliases are then one warning,
 * "vport-unmodelled", saying nothing is predicted for them (node GUIDs
 * are no vports and stay guid-unknown).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "topo/alias_map_lib.h"
#include "topo/topo_lib.h"

#define FIRST_SHOWN 3 /* GUIDs named in a finding */

struct seen {
	uint64_t guid;
	size_t member; /* index in c->members of its first mention */
};

static int by_guid(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->member < y->member ? -1 : x->member > y->member;
}

static int by_member(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	return x->member < y->member ? -1 : x->member > y->member;
}

/* Keep the first mention of each GUID, in plan order; the new count. */
static size_t distinct(struct seen *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), by_guid);
	size_t k = 1;
	for (size_t i = 1; i < n; i++)
		if (v[i].guid != v[k - 1].guid)
			v[k++] = v[i];
	qsort(v, k, sizeof(*v), by_member);
	return k;
}

static void report(ibp_conf *c, ibp_guid_kind kind, struct seen *v, size_t n)
{
	if (!n)
		return;
	uint64_t g[FIRST_SHOWN] = {0};
	for (size_t i = 0; i < n && i < FIRST_SHOWN; i++)
		g[i] = v[i].guid;
	char first[512];
	ibp_guid_list_describe(c->opts.fabric, c->opts.aliases, g,
			       n < FIRST_SHOWN ? n : FIRST_SHOWN, FIRST_SHOWN,
			       first, sizeof(first));
	const char *more = n > FIRST_SHOWN ? ", ..." : "";
	const ibp_conf_member *m = &c->members[v[0].member];
	if (c->opts.vports && kind != IBP_GUID_NODE)
		conf_diag(c, IBP_SEV_WARNING, "vport-unmodelled", m->pos, false,
			  "%zu GUID(s) of the plan are no port of the fabric: "
			  "%s%s; with virtualization enabled (opensm.conf "
			  "virt_enabled 2) NVIDIA's OpenSM may program them as "
			  "VFs' virtual ports (vports), whose P_KeyTables "
			  "ibpart does not model: nothing is predicted for "
			  "them",
			  n, first, more);
	else if (kind == IBP_GUID_ALIAS)
		conf_diag(c, IBP_SEV_WARNING, "guid-alias-ignored", m->pos,
			  false,
			  "%zu alias GUID(s) of the plan: %s%s; OpenSM 3.3.23 "
			  "adds port GUIDs only (osm_prtn_add_port) and skips "
			  "these, so neither a VF nor its port gets their "
			  "P_Keys",
			  n, first, more);
	else
		conf_diag(c, IBP_SEV_WARNING, "guid-unknown", m->pos, false,
			  "%zu GUID(s) of the plan are no port of the "
			  "fabric: %s%s; OpenSM 3.3.23 adds port GUIDs only "
			  "(osm_prtn_add_port) and skips these, so no table "
			  "holds their P_Keys",
			  n, first, more);
}

void conf_guid_summary(ibp_conf *c)
{
	if (!c->opts.fabric || !c->nmembers)
		return;
	/* unk: guid-unknown; ali: guid-alias-ignored, or with vports
	 * every GUID that may be a vport (vport-unmodelled) */
	struct seen *unk = NULL, *ali = NULL;
	size_t nunk = 0, nali = 0;
	for (size_t i = 0; i < c->nmembers; i++) {
		const ibp_conf_member *m = &c->members[i];
		if ((m->kind != IBP_MEMBER_GUID &&
		     m->kind != IBP_MEMBER_NAME) ||
		    !m->guid)
			continue;
		ibp_guid_kind k = ibp_guid_classify(
		    c->opts.fabric, c->opts.aliases, m->guid, NULL);
		if (k == IBP_GUID_PORT)
			continue;
		bool second = k == IBP_GUID_ALIAS ||
			      (c->opts.vports && k == IBP_GUID_UNKNOWN);
		struct seen **v = second ? &ali : &unk;
		size_t *n = second ? &nali : &nunk;
		struct seen *nv = realloc(*v, (*n + 1) * sizeof(**v));
		if (!nv)
			break; /* the summary is lost, the plan is not */
		*v = nv;
		nv[(*n)++] = (struct seen){m->guid, i};
	}
	report(c, c->opts.vports ? IBP_GUID_NODE : IBP_GUID_UNKNOWN, unk,
	       distinct(unk, nunk));
	report(c, IBP_GUID_ALIAS, ali, distinct(ali, nali));
	free(unk);
	free(ali);
}
