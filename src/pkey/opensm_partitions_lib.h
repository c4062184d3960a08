/*
 * opensm_partitions_lib.h - the partition objects a running OpenSM holds
 * from one sweep to the next (module pkey, src/pkey/opensm_partitions.c).
 *
 * OpenSM 3.3.23 keeps its partitions in a table keyed by P_Key
 * (osm_prtn.c).  Each sweep empties their member lists but keeps the
 * objects, creates the default partition, reads partitions.conf, and only
 * then deletes the partitions left without a member.  So while the file
 * is read, the partitions of the previous plan are still there: a
 * statement without a P_Key finds one of them by name, a P_Key defined
 * again keeps the name of its first definition in OpenSM's life, and a
 * generated P_Key skips them.  This type is that table as it stands after
 * a sweep (the partitions that had a member), carried by the state file
 * (state_file.h) into the reading of the next plan (conf.h,
 * ibp_conf_options.opensm_partitions).
 *
 * Each object also lists the multicast groups it tracks (created or
 * found for its mgid= items).  OpenSM frees a group when it deletes a
 * partition that tracks it, though another partition may track the same
 * group: that one then points at freed memory, and OpenSM dies when it
 * deletes it in turn (opensm_prtn_sweep.h).  A reference says whether the
 * group it points at was freed.
 *
 * Threads: no global state; a list is changed by one thread at a time.
 *
 * Private: no exported function takes or gives one (the stable options
 * that carry one, ibp_conf_options.opensm_partitions and
 * ibp_policy_run.partitions_out, hold it as an opaque struct
 * pointer).
 */
#ifndef IBPART_PKEY_OPENSM_PARTITIONS_LIB_H
#define IBPART_PKEY_OPENSM_PARTITIONS_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* OpenSM keeps 31 characters of a partition's name (osm_prtn_t). */
#define IBP_OSM_PARTITION_NAME_MAX 31

/* A multicast group a partition object tracks: its MGID (scope set as
 * OpenSM created it) and whether OpenSM has freed it since. */
typedef struct ibp_osm_mgroup {
	uint8_t mgid[16];
	bool freed;
} ibp_osm_mgroup;

/* One partition object: its P_Key (without the membership bit), the
 * name it was created with, the multicast groups it tracks. */
typedef struct ibp_osm_partition {
	uint16_t pkey;
	char name[IBP_OSM_PARTITION_NAME_MAX + 1];
	ibp_osm_mgroup *mgroups;
	size_t nmgroups;
} ibp_osm_partition;

/* The partition objects, in the order they were added. */
typedef struct ibp_osm_partitions {
	ibp_osm_partition *v;
	size_t n, cap;
} ibp_osm_partitions;

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
