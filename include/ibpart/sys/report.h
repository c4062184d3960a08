/*
 * sys/report.h - the web view's optional sections: audit findings,
 * drift rows, counter series and a status line, as ibpartd's page and
 * `ibpart matrix --format html` fill them (docs/matrix.md).
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/report.h, exported for ibpart's own front ends (the rows come
 * from sys/verify.h, the series from sys/monitor.h), and free to change
 * in any release.  A program outside ibpart writes the matrix, HTML
 * included, with ibpart/report.h (ibp_matrix_report, web NULL).
 *
 * Threads: plain data the caller owns; the report only reads it.
 */
#ifndef IBPART_SYS_REPORT_H
#define IBPART_SYS_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "ibpart/analysis.h"
#include "ibpart/report.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* What the web view (the HTML report, the page ibpartd serves at `/`)
 * shows beyond the plan when its caller has it (docs/matrix.md). */

/* One port whose P_KeyTable differs from the plan (from verify). */
typedef struct ibp_web_drift {
	uint64_t port_guid;
	const char *node_desc; /* NULL: none */
	unsigned port;
	const char *kind;   /* e.g. "missing", "extra", "moved" */
	const char *detail; /* one line, or NULL */
} ibp_web_drift;

/* One counter of one tenant over time: values[i] at times[i] (Unix
 * seconds; times NULL: samples in order, no clock), e.g. the monotonic
 * totals of ibpart_tenant_constraint_errors_total a monitor collects.
 * Drawn as an inline SVG sparkline labelled with its last value and
 * its increase over the series. */
typedef struct ibp_web_series {
	const char *tenant;  /* the partition's name */
	const char *counter; /* e.g. "constraint errors from", or NULL */
	const double *values;
	const int64_t *times; /* NULL allowed */
	size_t n;
} ibp_web_series;

#define IBP_WEB_EXTRAS_VERSION 1
typedef struct ibp_web_extras {
	unsigned version; /* IBP_WEB_EXTRAS_VERSION (set by _init) */
	/* audit findings; capacity-overflow ones also mark the ports and
	 * partitions where the table overflows.  NULL: no section */
	const ibp_findings *findings;
	const ibp_web_drift *drift; /* NULL or ndrift == 0: no section */
	size_t ndrift;
	const ibp_web_series *series; /* NULL or nseries == 0: none */
	size_t nseries;
	const char *status; /* one line under the title (e.g. "last sweep
			       12:00:03"), or NULL */
} ibp_web_extras;

/* Every field empty, version set. */
void ibp_web_extras_init(ibp_web_extras *x, unsigned version);

IBP_END_DECLS
#endif
