/*
 * opensm_partitions_lib.h - the library's own half of
 * ibpart/opensm_partitions.h: what other modules of libibpart and its unit
 * tests call, but no program outside the library does.  Not installed, not
 * exported (libibpart.map): a function moves to ibpart/opensm_partitions.h when
 * a front end or a third party needs it, and is added to the map then
 * (docs/ARCHITECTURE.md, "Two tiers of API").
 */
#ifndef IBPART_PKEY_OPENSM_PARTITIONS_LIB_H
#define IBPART_PKEY_OPENSM_PARTITIONS_LIB_H

#include "ibpart/opensm_partitions.h"

/* An empty list (no allocation).  Cannot fail. */
void ibp_osm_partitions_init(ibp_osm_partitions *l);

/* Release what the list holds and leave it empty (NULL allowed). */
void ibp_osm_partitions_clear(ibp_osm_partitions *l);

/* Add a partition: pkey's base (the membership bit dropped) under name,
 * cut to IBP_OSM_PARTITION_NAME_MAX bytes.  A P_Key already listed keeps
 * its first name.  IBP_EINVAL for P_Key 0 or a NULL argument, IBP_ENOMEM. */
int ibp_osm_partitions_add(ibp_osm_partitions *l, uint16_t pkey,
			   const char *name);

/* The partition of pkey (which must be listed) tracks one more group.
 * IBP_EINVAL when pkey is not listed, IBP_ENOMEM. */
int ibp_osm_partitions_track(ibp_osm_partitions *l, uint16_t pkey,
			     const uint8_t mgid[16], bool freed);

/* Remove the partition of pkey (nothing when it is not listed). */
void ibp_osm_partitions_remove(ibp_osm_partitions *l, uint16_t pkey);

/* *out (emptied first) gets a copy of l.  IBP_ENOMEM. */
int ibp_osm_partitions_copy(const ibp_osm_partitions *l,
			    ibp_osm_partitions *out);

/* The partition of P_Key pkey's base, or NULL. */
const ibp_osm_partition *ibp_osm_partitions_find(const ibp_osm_partitions *l,
						 uint16_t pkey);

#endif
