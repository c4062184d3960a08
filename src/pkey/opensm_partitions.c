/*
 * opensm_partitions.c - the partition objects a running OpenSM holds
 * between sweeps (pkey/opensm_partitions_lib.h): a small array,
 * since a plan holds a few thousand partitions at most and the list is
 * built once a run.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/error.h"
#include "pkey/opensm_partitions_lib.h"
#include "pkey/opensm_partitions_lib.h"

void ibp_osm_partitions_init(ibp_osm_partitions *l)
{
	memset(l, 0, sizeof(*l));
}

void ibp_osm_partitions_clear(ibp_osm_partitions *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].mgroups);
	free(l->v);
	ibp_osm_partitions_init(l);
}

const ibp_osm_partition *ibp_osm_partitions_find(const ibp_osm_partitions *l,
						 uint16_t pkey)
{
	uint16_t base = pkey & 0x7fff;
	for (size_t i = 0; l && i < l->n; i++)
		if (l->v[i].pkey == base)
			return &l->v[i];
	return NULL;
}

int ibp_osm_partitions_add(ibp_osm_partitions *l, uint16_t pkey,
			   const char *name)
{
	uint16_t base = pkey & 0x7fff;
	if (!l || !name || !base)
		return IBP_EINVAL;
	if (ibp_osm_partitions_find(l, base))
		return IBP_OK;
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 16;
		ibp_osm_partition *nv = realloc(l->v, nc * sizeof(*nv));
		if (!nv)
			return IBP_ENOMEM;
		l->v = nv;
		l->cap = nc;
	}
	ibp_osm_partition *p = &l->v[l->n++];
	memset(p, 0, sizeof(*p));
	p->pkey = base;
	size_t len = strnlen(name, IBP_OSM_PARTITION_NAME_MAX);
	memcpy(p->name, name, len);
	p->name[len] = 0;
	return IBP_OK;
}

int ibp_osm_partitions_track(ibp_osm_partitions *l, uint16_t pkey,
			     const uint8_t mgid[16], bool freed)
{
	ibp_osm_partition *p =
	    (ibp_osm_partition *)ibp_osm_partitions_find(l, pkey);
	if (!p || !mgid)
		return IBP_EINVAL;
	ibp_osm_mgroup *nm =
	    realloc(p->mgroups, (p->nmgroups + 1) * sizeof(*nm));
	if (!nm)
		return IBP_ENOMEM;
	p->mgroups = nm;
	memcpy(nm[p->nmgroups].mgid, mgid, 16);
	nm[p->nmgroups].freed = freed;
	p->nmgroups++;
	return IBP_OK;
}

void ibp_osm_partitions_remove(ibp_osm_partitions *l, uint16_t pkey)
{
	const ibp_osm_partition *p = ibp_osm_partitions_find(l, pkey);
	if (!p)
		return;
	size_t i = (size_t)(p - l->v);
	free(l->v[i].mgroups);
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
	l->n--;
}

int ibp_osm_partitions_copy(const ibp_osm_partitions *l,
			    ibp_osm_partitions *out)
{
	ibp_osm_partitions_clear(out);
	for (size_t i = 0; l && i < l->n; i++) {
		int rc =
		    ibp_osm_partitions_add(out, l->v[i].pkey, l->v[i].name);
		for (size_t k = 0; !rc && k < l->v[i].nmgroups; k++)
			rc = ibp_osm_partitions_track(out, l->v[i].pkey,
						      l->v[i].mgroups[k].mgid,
						      l->v[i].mgroups[k].freed);
		if (rc)
			return rc;
	}
	return IBP_OK;
}
