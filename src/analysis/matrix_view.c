/*
 * matrix_view.c - an analysis input's matrix as a report, the web view's
 * findings included (ibpart/matrix_view.h).
 */
#include <string.h>

#include "ibpart/matrix_view.h"
#include "analysis/analysis_lib.h"
#include "analysis/analysis_input_lib.h"

void ibp_matrix_view_options_init(ibp_matrix_view_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_MATRIX_VIEW_OPTIONS_VERSION;
}

int ibp_analysis_input_matrix_report(const ibp_analysis_input *in,
				     const ibp_matrix *m, ibp_matrix_format fmt,
				     const ibp_matrix_view_options *o,
				     FILE *out, ibp_error *err)
{
	ibp_matrix_view_options defaults;
	if (!o) {
		ibp_matrix_view_options_init(&defaults);
		o = &defaults;
	}
	if (o->version != IBP_MATRIX_VIEW_OPTIONS_VERSION)
		return ibp_error_set(err, IBP_EINVAL,
				     "unknown matrix view options version");
	ibp_matrix_report_options ro = {
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
		ibp_web_extras_init(&web);
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
