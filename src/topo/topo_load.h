/*
 * topo_load.h - a topology loaded for an operation (private to the
 * library): its findings sorted by position into the caller's diags, and
 * a failure as an ibp_error that repeats its first error finding, the
 * way the one-call operations (plan.h, sys/live_connect.h) report it.
 */
#ifndef IBPART_TOPO_LOAD_H
#define IBPART_TOPO_LOAD_H

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/topo.h"

/* ibp_fabric_load(path, fo) into *out; diags may be NULL. */
int topo_load_reported(const char *path, const ibp_fabric_options *fo,
		       ibp_fabric **out, ibp_diags *diags, ibp_error *err);

#endif
