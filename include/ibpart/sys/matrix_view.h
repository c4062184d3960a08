/*
 * sys/matrix_view.h - the reachability matrix of an analysis input
 * (analysis_input.h) as a report, with what the input knows filled in:
 * its mode, its partitions' names and, for the HTML web view, its audit
 * findings.  What `ibpart matrix` writes and ibpartd's web page shows,
 * assembled once.
 *
 * Thread safety: no global state; the input and the matrix are only
 * read, so several reports of them may be written at once.
 *
 * Unstable API (include/ibpart/sys/): what `ibpart matrix` and ibpartd
 * write, exported for them, and free to change in any release.  A
 * program outside ibpart writes a matrix with ibpart/report.h
 * (ibp_matrix_report).
 */
#ifndef IBPART_SYS_MATRIX_VIEW_H
#define IBPART_SYS_MATRIX_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "ibpart/analysis.h"
#include "ibpart/sys/report.h"
#include "ibpart/analysis_input.h"
#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_MATRIX_VIEW_OPTIONS_VERSION 1
/* The report's own choices.  Initialise with
 * ibp_matrix_view_options_init(). */
typedef struct ibp_matrix_view_options {
	unsigned version;	      /* IBP_MATRIX_VIEW_OPTIONS_VERSION */
	const char *title;	      /* HTML title / headline, or NULL */
	size_t grid_limit;	      /* text grid up to this many ports */
	ibp_matrix_form form;	      /* JSON and CSV */
	const ibp_progress *progress; /* JSON and CSV rows; NULL: none */
	/* HTML only: sparklines (e.g. ibp_monitor_series_get()) and a
	 * status line; NULL: none */
	const ibp_web_series *series;
	size_t nseries;
	const char *status;
} ibp_matrix_view_options;

/* Every field empty (defaults of ibp_matrix_report_options), version
 * set.  o must not be NULL. */
void ibp_matrix_view_options_init(ibp_matrix_view_options *o, unsigned version);

/* Write m (built from in's tables) to out in fmt with in's mode and
 * partition names; for IBP_MATRIX_HTML the web view with in's audit
 * findings (the input's audit, without a tenants map or
 * opensm.conf) and o's series and status.  o NULL: the defaults.
 * Errors: IBP_EINVAL for a wrong options version; those of
 * the audit and of writing the report (IBP_ENOMEM,
 * IBP_EIO writing). */
int ibp_analysis_input_matrix_report(const ibp_analysis_input *in,
				     const ibp_matrix *m, ibp_matrix_format fmt,
				     const ibp_matrix_view_options *o,
				     FILE *out, ibp_error *err);

IBP_END_DECLS
#endif
