/*
 * sys/apply.h - the SM's push report an apply carries (sys/sm.h), the
 * partition file `ibpart apply --via-opensm` picks from its options and
 * opensm.conf, and the OpenSM process check ibpartd's SM pair shares
 * with ibp_opensm_reload.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/apply.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/apply.h.
 */
#ifndef IBPART_SYS_APPLY_H
#define IBPART_SYS_APPLY_H

#include <stdbool.h>
#include <sys/types.h>

#include "ibpart/apply.h"
#include "ibpart/opensm_conf.h"
#include "ibpart/sys/sm.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* After ibp_apply_run: the SM's report (ports changed, failed); its
 * counts are ibp_apply_counts_get's in the stable API. */
const struct ibp_sm_report *ibp_apply_report(const ibp_apply *a);

/* Which partition file o names (o->opensm_conf): given when not NULL
 * (the caller's --opensm-partitions), else the partition_config_file of
 * osm (OpenSM's opensm.conf as read, from osm_path; NULL: none read),
 * else o's default.  Errors: IBP_EINVAL when osm names none and nothing
 * was given: which file OpenSM reads is not to be guessed before
 * overwriting it. */
int ibp_apply_opensm_partition_file(struct ibp_apply_opensm_options *o,
				    const char *given, const ibp_osm_conf *osm,
				    const char *osm_path, ibp_error *err);

/* Is process pid an OpenSM (alive, its /proc comm "opensm")?  How
 * ibp_opensm_reload checks the process it signals; ibpartd's SM pair
 * (docs/ha.md) tells a dead SM from its pid file the same way. */
bool ibp_opensm_is_process(pid_t pid);

IBP_END_DECLS
#endif
