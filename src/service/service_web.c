/*
 * service_web.c - the page ibpartd serves at `/`: the web view of
 * `ibpart matrix --format html` (src/report/report_html.c) on the plan
 * the newest revision renders and the service's topology, with its audit
 * findings and a status line (the revisions in the database and on the
 * fabric), and what its caller adds (ibpartd: the drift and violation
 * series its collector kept).  Its findings are the service's one audit
 * (svc_audit_text, the opensm.conf's posture included) of the same
 * text, so the page never disagrees with GET /ibpart/v1/audit.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "service/service_internal.h"
#include "analysis/analysis_input_lib.h"
#include "report/report_lib.h"
#include "ibpart/sys/report.h"

int svc_web_html(const ibp_service *s, const char *text, size_t len,
		 const char *status, const ibp_web_extras *more,
		 const ibp_findings *findings, char **html, size_t *hlen,
		 ibp_error *err)
{
	*html = NULL;
	*hlen = 0;
	if (!s->topology_path)
		return ibp_error_set(err, IBP_ENOENT,
				     "no topology: ibpartd was started "
				     "without --topology");
	ibp_analysis_input *in = NULL;
	struct svc_topology *t = NULL;
	ibp_matrix *m = NULL;
	int rc = svc_held_input(s, text, len, &in, &t, err);
	ibp_matrix_options mo;
	ibp_matrix_options_init(&mo, IBP_MATRIX_OPTIONS_VERSION);
	if (!rc)
		rc = ibp_matrix_build(ibp_analysis_input_tables(in), &mo, &m,
				      err);
	FILE *out = NULL;
	if (!rc && !(out = open_memstream(html, hlen)))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc) {
		ibp_web_extras web;
		ibp_web_extras_init(&web, IBP_WEB_EXTRAS_VERSION);
		if (more) /* the caller's drift and series */
			web = *more;
		web.findings = findings;
		web.status = status;
		ibp_matrix_report_options ro = {
		    .version = IBP_MATRIX_REPORT_OPTIONS_VERSION,
		    .mode = ibp_analysis_input_mode(in),
		    .title = "ibpartd: the partitions OpenSM is given",
		    .partition_names = ibp_analysis_input_partition_names(in),
		    .web = &web};
		rc = ibp_matrix_report_html(m, &ro, out, err);
		if (fclose(out) && !rc)
			rc = ibp_error_set(err, IBP_EIO, "write error");
		if (rc) {
			free(*html);
			*html = NULL;
		}
	}
	ibp_matrix_free(m);
	svc_held_input_free(s, in, t);
	return rc;
}
