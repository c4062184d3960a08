/*
 * sys/topo.h - the fabric as the CLI prints it: OpenSM's LIDs, the
 * canonical dump, the no-lid sentence.
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

/* The LIDs OpenSM would assign with the SM on port sm (a port spec as
 * ibp_fabric_resolve_port() reads it; NULL: the default SM port), one
 * line per LID from 1 up: "LID PORTGUID TYPE PORT DESC", what the interop
 * tests compare with a real OpenSM.  Assigns f's LIDs (hence not const).
 * Returns IBP_OK, or the error of resolving sm or assigning LIDs (err
 * set, nothing written). */
int ibp_fabric_print_lids(ibp_fabric *f, const char *sm, FILE *out,
			  ibp_error *err);

/* The fabric in a canonical, id-free form for comparing topologies:
 * per node "node GUID TYPE NPORTS "DESC"", then per linked port
 * "port NODEGUID N PORTGUID -> PEERGUID PEERPORT".  Cannot fail. */
void ibp_fabric_dump(const ibp_fabric *f, FILE *out);

IBP_END_DECLS
#endif
