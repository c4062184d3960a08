/*
 * sys/verify.h - a verify's drift as the rows of ibpartd's web view.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/verify.h, exported for ibpart's own front ends (ibpartd's page),
 * and free to change in any release.  A program outside ibpart reads the
 * drift through ibpart/verify.h and ibpart/live.h (ibp_drift_at,
 * ibp_drift_item_detail).
 */
#ifndef IBPART_SYS_VERIFY_H
#define IBPART_SYS_VERIFY_H

#include <stddef.h>

#include "ibpart/sys/report.h"
#include "ibpart/verify.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* The result's drift - the differences verify's summary counts (index
 * notes left out without the previous tables) - as the web view's rows
 * (sys/report.h's ibp_web_drift, for ibp_web_extras): *n of them in *out
 * (NULL and 0 when the fabric holds the plan), in (node, port) order,
 * each with the port's GUID (a switch's node GUID), its node's
 * description and the line verify prints after the kind, both copied.
 * The caller frees them with ibp_web_drift_free.  Errors: IBP_ENOMEM
 * (nothing allocated). */
int ibp_verify_result_web_drift(const ibp_verify_result *r, ibp_web_drift **out,
				size_t *n, ibp_error *err);
/* Free n rows ibp_verify_result_web_drift made (d NULL allowed). */
void ibp_web_drift_free(ibp_web_drift *d, size_t n);

IBP_END_DECLS
#endif
