/*
 * opensm_prtn_sweep.c - one sweep of OpenSM's partition objects and the
 * multicast groups they track (src/policy/opensm_prtn_sweep.h).  A
 * group is named by its MGID: OpenSM holds at most one live group per
 * MGID, so a reference that is not freed designates that one.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/error.h"
#include "policy/opensm_prtn_sweep.h"
#include "conf/conf_lib.h"
#include "pkey/opensm_partitions_lib.h"

/* Some partition tracks the live group of this MGID. */
static bool alive(const ibp_osm_partitions *l, const uint8_t mgid[16])
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < l->v[i].nmgroups; k++)
			if (!l->v[i].mgroups[k].freed &&
			    !memcmp(l->v[i].mgroups[k].mgid, mgid, 16))
				return true;
	return false;
}

static bool tracks_live(const ibp_osm_partition *p, const uint8_t mgid[16])
{
	for (size_t k = 0; k < p->nmgroups; k++)
		if (!p->mgroups[k].freed &&
		    !memcmp(p->mgroups[k].mgid, mgid, 16))
			return true;
	return false;
}

/* IPv4/IPv6 MGIDs carry the partition's own P_Key: never shared. */
static bool is_ip(const uint8_t m[16])
{
	return (m[2] == 0x40 || m[2] == 0x60) && m[3] == 0x1b;
}

/* One mgid= item of partition pkey. */
static int mgid_item(ibp_osm_partitions *w, uint16_t pkey,
		     const ibp_conf_mgid *g)
{
	if (is_ip(g->mgid) || alive(w, g->mgid))
		return 0; /* "don't create multiple copies of the group" */
	unsigned mask = g->flags.scope_mask ? g->flags.scope_mask : 1u << 2;
	for (unsigned s = 0; s < 16; s++) {
		if (!(mask >> s & 1))
			continue;
		uint8_t m[16];
		memcpy(m, g->mgid, 16);
		m[1] = (uint8_t)((m[1] & 0xf0) | s);
		const ibp_osm_partition *p = ibp_osm_partitions_find(w, pkey);
		if (!p || tracks_live(p, m))
			continue;
		int rc = ibp_osm_partitions_track(w, pkey, m, false);
		if (rc)
			return rc;
	}
	return 0;
}

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)(v << 8 | v >> 8);
}

static int cmp_order(const void *a, const void *b)
{
	uint16_t x = bswap16(*(const uint16_t *)a);
	uint16_t y = bswap16(*(const uint16_t *)b);
	return x < y ? -1 : x > y;
}

/* Delete partition pkey: free its groups, or die on one already freed. */
static void delete_one(ibp_osm_partitions *w, uint16_t pkey,
		       ibp_osm_crash *crash)
{
	const ibp_osm_partition *p = ibp_osm_partitions_find(w, pkey);
	for (size_t k = 0; p && k < p->nmgroups; k++) {
		if (p->mgroups[k].freed) {
			crash->crash = true;
			crash->pkey = pkey;
			memcpy(crash->name, p->name, sizeof(crash->name));
			memcpy(crash->mgid, p->mgroups[k].mgid, 16);
			return;
		}
		uint8_t m[16];
		memcpy(m, p->mgroups[k].mgid, 16);
		for (size_t i = 0; i < w->n; i++)
			for (size_t j = 0; j < w->v[i].nmgroups; j++)
				if (!memcmp(w->v[i].mgroups[j].mgid, m, 16))
					w->v[i].mgroups[j].freed = true;
	}
	ibp_osm_partitions_remove(w, pkey);
}

int ibp_osm_partitions_sweep(const ibp_osm_partitions *before,
			     const ibp_conf *conf,
			     const ibp_osm_partitions *kept,
			     ibp_osm_partitions *after, ibp_osm_crash *crash)
{
	if (!conf || !kept || !after || !crash)
		return IBP_EINVAL;
	memset(crash, 0, sizeof(*crash));
	int rc = ibp_osm_partitions_copy(before, after);
	/* the default partition, then one object per P_Key of the plan */
	if (!rc)
		rc = ibp_osm_partitions_add(after, 0x7fff, "Default");
	for (size_t i = 0; !rc && i < ibp_conf_group_count(conf); i++) {
		const ibp_conf_group *g = ibp_conf_group_at(conf, i);
		if (ibp_conf_group_pkey(g) & 0x7fff)
			rc = ibp_osm_partitions_add(after,
						    ibp_conf_group_pkey(g),
						    ibp_conf_group_name(g));
	}
	/* the statements' mgid= items, in file order */
	size_t np = ibp_conf_partition_count(conf);
	for (size_t i = 0; !rc && i < np; i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(conf, i);
		uint16_t pkey = ibp_conf_partition_pkey(p);
		for (size_t k = 0;
		     pkey && !rc && k < ibp_conf_partition_mgid_count(p); k++)
			rc = mgid_item(after, pkey,
				       ibp_conf_partition_mgid(p, k));
	}
	if (rc)
		return rc;
	/* the partitions without a member are deleted, in table order */
	uint16_t *order = malloc((after->n ? after->n : 1) * sizeof(*order));
	if (!order)
		return IBP_ENOMEM;
	size_t n = after->n;
	for (size_t i = 0; i < n; i++)
		order[i] = after->v[i].pkey;
	qsort(order, n, sizeof(*order), cmp_order);
	for (size_t i = 0; i < n && !crash->crash; i++)
		if (order[i] != 0x7fff &&
		    !ibp_osm_partitions_find(kept, order[i]))
			delete_one(after, order[i], crash);
	free(order);
	return 0;
}
