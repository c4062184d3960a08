/*
 * sys/tables.h - P_KeyTables in `smpquery pkeys`' layout, `ibpart tables`'
 * default output.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/tables.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/tables.h.
 */
#ifndef IBPART_SYS_TABLES_H
#define IBPART_SYS_TABLES_H

#include <stdio.h>

#include "ibpart/tables.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Every table in the layout of `smpquery pkeys` (a "# DESC port N
 * (GUID) TYPE" header, eight entries a line with their index, the
 * capacity line), a blank line between ports: `ibpart tables`' default
 * output.  Only reads ts; write errors on out are not reported. */
void ibp_tables_print_smpquery(const ibp_tables *ts, FILE *out);

IBP_END_DECLS
#endif
