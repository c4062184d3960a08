/*
 * sys/tables_compute.h - the state after a computation written as
 * `ibpart tables --state` keeps it between runs (state_file.h's file:
 * the tables ports hold, OpenSM's index memory, its options).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/tables_compute.h, exported for ibpart's own front ends (the
 * state file's format is theirs, docs/live.md), and free to change in
 * any release.  A program outside ibpart reads the result's tables
 * through ibpart/tables_compute.h.
 */
#ifndef IBPART_SYS_TABLES_COMPUTE_H
#define IBPART_SYS_TABLES_COMPUTE_H

#include "ibpart/error.h"
#include "ibpart/tables_compute.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Write r->state to path atomically (state_file.h, version 2).
 * IBP_EINVAL without a state (no state_path was given) or for r's
 * version 0 or newer than the library's; IBP_ENOMEM,
 * IBP_EIO (the target untouched). */
int ibp_tables_result_write_state(const ibp_tables_result *r, const char *path,
				  ibp_error *err);

IBP_END_DECLS
#endif
