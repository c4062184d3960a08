/*
 * sys/opensm_conf.h - opensm.conf read from memory.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/opensm_conf.h, exported for ibpart's own front ends (ibpartd),
 * and free to change in any release.  A program outside ibpart reads the
 * file with ibpart/opensm_conf.h.
 */
#ifndef IBPART_SYS_OPENSM_CONF_H
#define IBPART_SYS_OPENSM_CONF_H

#include <stddef.h>
#include "ibpart/opensm_conf.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* ibp_osm_conf_load_diags (opensm_conf.h, out's version checked the
 * same way) on text already in memory:
 * name is the file name its findings and errors give; text[0..len) need
 * not be terminated.  Empty text gives OpenSM's defaults: what ibpartd
 * holds when it is given no opensm.conf. */
int ibp_osm_conf_read(const char *name, const char *text, size_t len,
		      ibp_osm_conf *out, ibp_diags *diags, ibp_error *err);

IBP_END_DECLS
#endif
