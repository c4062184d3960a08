/*
 * sys/alias_map.h - freeing an alias map, which only the unstable tier
 * hands out (sys/sm.h's ibp_sm_read_alias_guids).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/alias_map.h, and free to change in any release.  A program
 * outside ibpart names the map by its file (alias_guids_path in the
 * options of plan.h, verify.h and apply.h).
 */
#ifndef IBPART_SYS_ALIAS_MAP_H
#define IBPART_SYS_ALIAS_MAP_H

#include "ibpart/alias_map.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Free a map (ibp_sm_read_alias_guids' in sys/sm.h); NULL is fine. */
void ibp_alias_map_free(ibp_alias_map *m);

IBP_END_DECLS
#endif
