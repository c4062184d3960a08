/*
 * matrix_view.c - an analysis input's matrix as a report, the web view's
 * findings included (ibpart/sys/matrix_view.h).
 */
#include <string.h>

#include "ibpart/sys/matrix_view.h"
#include "analysis/analysis_lib.h"
#include "report/report_lib.h"
#include "analysis/analysis_input_lib.h"
#include "util/options_version.h"
#include "ibpart/sys/report.h"

IBP_OPTIONS_LAYOUT(matrix_view_options_layout, "matrix view options",
		   IBP_MATRIX_VIEW_OPTIONS_VERSION,
		   sizeof(ibp_matrix_view_options));

/* The library's defaults, a whole current struct. */
static void matrix_view_options_defaults(ibp_matrix_view_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_MATRIX_VIEW_OPTIONS_VERSION;
}

void ibp_matrix_view_options_init(ibp_matrix_view_options *o, unsigned version)
{
	ibp_matrix_view_options d;
	matrix_view_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &matrix_view_options_layout);
}

int ibp_analysis_input_matrix_report(const ibp_analysis_input *in,
				     const ibp_matrix *m, ibp_matrix_format fmt,
				     const ibp_matrix_view_options *o,
				     FILE *out, ibp_error *err)
{
	ibp_matrix_view_options own; /* NULL o: the defaults */
	matrix_view_options_defaults(&own);
	if (ibp_options_take(&own, o, &matrix_view_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	ibp_matrix_report_options ro = {
	    .version = IBP_MATRIX_REPORT_OPTIONS_VERSION,
	    .mode = ibp_analysis_input_mode(in),
	    .title = o->title,
	    .grid_limit = o->grid_limit,
	    .partition_names = ibp_analysis_input_partition_names(in),
	    .form = o->form,
	    .progress = o->progress};
	ibp_web_extras web;
	ibp_findings *f = NULL;
	if (fmt == IBP_MATRIX_HTML) {
		int rc = ibp_analysis_input_audit(in, NULL, NULL, &f, err);
		if (rc)
			return rc;
		ibp_web_extras_init(&web, IBP_WEB_EXTRAS_VERSION);
		web.findings = f;
		web.series = o->series;
		web.nseries = o->nseries;
		web.status = o->status;
		ro.web = &web;
	}
	int rc = ibp_matrix_report(m, fmt, &ro, out, err);
	ibp_findings_free(f);
	return rc;
}
