/*
 * sys/topo.h - the fabric as the CLI prints it: the no-lid sentence.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/topo.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/topo.h.
 */
#ifndef IBPART_SYS_TOPO_H
#define IBPART_SYS_TOPO_H

#include <stdio.h>

#include "ibpart/topo.h"
#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* The `no-lid` finding as one sentence (no prefix, no newline) in buf,
 * cut to len: how many end ports get no LID, what the subnet has and
 * what the ports need, which limit it is (the unicast space or a
 * switch's LinearFDBCap, the LMC), the first `first` ports by name, and
 * what that means.  Returns false (buf untouched) when every reached
 * port has a LID. */
bool ibp_fabric_lidless_message(const ibp_fabric *f, size_t first, char *buf,
				size_t len);

IBP_END_DECLS
#endif
