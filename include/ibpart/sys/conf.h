/*
 * sys/conf.h - a plan written in OpenSM's syntax into a file whole, as
 * `ibpart convert -o` writes it.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/conf.h, exported for ibpart's own front ends, and free to
 * change in any release.  A program outside ibpart writes to its own
 * stream with ibpart/conf.h's ibp_conf_write_opensm, or installs the
 * file for a running OpenSM with ibpart/apply.h's ibp_opensm_reload
 * (atomic, the old file kept).
 */
#ifndef IBPART_SYS_CONF_H
#define IBPART_SYS_CONF_H

#include "ibpart/conf.h"
#include "ibpart/error.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* ibp_conf_write_opensm (conf.h) into path, atomically (temp file in
 * the same directory, fsync, rename); nothing is created or changed on
 * error. */
int ibp_conf_write_opensm_path(const ibp_conf *c, const ibp_fabric *f,
			       const char *path, ibp_error *err);

IBP_END_DECLS
#endif
