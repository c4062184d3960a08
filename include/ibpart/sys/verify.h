/*
 * sys/verify.h - a verify as the CLI prints it.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/verify.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries), and free to change in
 * any release.  A program outside ibpart uses ibpart/verify.h.
 */
#ifndef IBPART_SYS_VERIFY_H
#define IBPART_SYS_VERIFY_H

#include <stdio.h>

#include "ibpart/verify.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* The result as `ibpart verify` prints it: a DRIFT line per difference,
 * index notes, absent GUIDs, the summary line, then the matrix and the
 * audit when asked for. */
void ibp_verify_result_print(const ibp_verify_result *r, FILE *out);

IBP_END_DECLS
#endif
