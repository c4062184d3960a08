/*
 * report_lib.h - the library's own half of ibpart/report.h: the matrix
 * reports the CLI (through sys/matrix_view.h), verify and the service write.
 * Not installed, not exported (docs/ARCHITECTURE.md, "Two tiers of API").
 */
#ifndef IBPART_REPORT_REPORT_LIB_H
#define IBPART_REPORT_REPORT_LIB_H

#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/report.h"

/* Parse "text", "md", "csv", "json", "html"; IBP_EINVAL otherwise. */
int ibp_matrix_format_parse(const char *s, ibp_matrix_format *out);

/* Parse "auto", "ports", "classes"; IBP_EINVAL otherwise (NULL too).
 * ibp_matrix_form_of gives the form a report of m takes (AUTO
 * resolved): PORTS or CLASSES; its name by ibp_matrix_form_str ("ports",
 * "classes", "auto": static strings). */
int ibp_matrix_form_parse(const char *s, ibp_matrix_form *out);
ibp_matrix_form ibp_matrix_form_of(const ibp_matrix *m, ibp_matrix_form f);
const char *ibp_matrix_form_str(ibp_matrix_form f);

/* The HTML report on its own, the web view (docs/matrix.md): one
 * self-contained page (inline style and script, no fetch), its tables
 * plain HTML readable without JavaScript (the script only filters and
 * opens sections); every name entity-escaped.  Its fixed HTML is
 * web/report.html, filled with the data.  Tenants with their
 * members, the matrix grouped by tenant, the classes with their ports,
 * every port's P_KeyTable, and o->web's sections. */
int ibp_matrix_report_html(const ibp_matrix *m,
			   const ibp_matrix_report_options *o, FILE *out,
			   ibp_error *err);

/* Whether the page's template (src/report/web/report.html) and the slots
 * report_html.c fills agree (ibp_template_check): 0, or IBP_EPARSE with
 * err at the first slot one has and the other has not.  For the unit
 * test; a report checks it anyway before writing. */
int ibp_report_html_check(ibp_error *err);

#endif
