/*
 * opensm_prtn_sweep.h - what one sweep of a running OpenSM 3.3.23 does to
 * its partition objects (module policy, src/policy/opensm_prtn_sweep.c):
 * the plan's statements create or reuse them and their multicast groups,
 * then the partitions left without a member are deleted - and a deletion
 * that reaches a group OpenSM already freed kills OpenSM.
 *
 * osm_prtn.c and osm_prtn_config.c: an mgid= item first looks its MGID
 * up as written and is skipped when such a group exists; otherwise, for
 * each scope (the link-local scope 2 when none is given), the MGID with
 * that scope is found or created and the partition tracks the group.
 * Two partitions can so track one group (`S=0x11da : a, mgid=ff15::1,
 * rate=3 ;` then `S=0x0010 : a, mgid=ff15::1, rate=3 ;`: both track
 * ff12::1).  Deleting a partition frees every group it tracks, whoever
 * else tracks it; deleting the other one later reads the freed group and
 * OpenSM crashes (segfault, 3 of 3 runs on ibsim) before it programs any
 * table: the ports keep what they held.
 *
 * Threads: no global state.
 */
#ifndef IBPART_OPENSM_PRTN_SWEEP_H
#define IBPART_OPENSM_PRTN_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "ibpart/conf.h"
#include "pkey/opensm_partitions_lib.h"

/* Where a sweep kills OpenSM: the partition whose deletion reads a freed
 * group, and that group. */
typedef struct ibp_osm_crash {
	bool crash;
	uint16_t pkey;
	char name[IBP_OSM_PARTITION_NAME_MAX + 1];
	uint8_t mgid[16];
} ibp_osm_crash;

/* One sweep: before, the objects OpenSM holds (NULL: none, a fresh
 * OpenSM); conf, the plan it reads; kept, the partitions that get a
 * member (ibp_policy_run.partitions_out: pkey and name); *after
 * (emptied first) the objects it holds when the sweep is done, with the
 * groups each tracks.  *crash (zeroed first) says whether OpenSM dies on
 * the way; *after is then what it held when it died.  IBP_EINVAL for a
 * NULL conf, kept, after or crash; IBP_ENOMEM. */
int ibp_osm_partitions_sweep(const ibp_osm_partitions *before,
			     const ibp_conf *conf,
			     const ibp_osm_partitions *kept,
			     ibp_osm_partitions *after, ibp_osm_crash *crash);

#endif
