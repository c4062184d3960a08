/*
 * sys/conf.h - OpenSM's verdict on a partitions.conf as `ibpart check`
 * prints it.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/conf.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/conf.h.
 */
#ifndef IBPART_SYS_CONF_H
#define IBPART_SYS_CONF_H

#include <stdio.h>

#include "ibpart/conf.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* One-paragraph text of what OpenSM 3.3.23 would do with the file, for
 * `ibpart check --opensm`, to out.  Write errors are not reported. */
void ibp_conf_print_opensm_summary(const ibp_conf *c, FILE *out);

IBP_END_DECLS
#endif
