/*
 * Module report (src/report/): the reachability matrix and the audit as
 * reports - text, Markdown, CSV, JSON and the HTML web view that `ibpart
 * matrix --format html` writes and ibpartd serves at `/`, its HTML
 * template, CSS and JavaScript real files (src/report/web/) embedded at
 * build time.  Files: report_matrix.c (the formats), report_html.c (the
 * web view's data in the template's slots), template.c (the template
 * renderer), matrix_view.c (an analysis input's report,
 * sys/matrix_view.h); private report_lib.h, template_lib.h.  Depends on
 * analysis, pkey, topo and util; the CLI (tools/), ibpartd (through the
 * service) and verify share it.
 *
 * report.h - the formats (the web view's optional sections are
 * sys/report.h's).
 *
 * Threads: no global state; a report only reads its matrix, so several
 * reports of one matrix may be written at once.
 */
#ifndef IBPART_REPORT_H
#define IBPART_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "ibpart/analysis.h"
#include "ibpart/progress.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef enum ibp_matrix_format {
	IBP_MATRIX_TEXT = 0, /* grid when small, class summary when large */
	IBP_MATRIX_MD,
	IBP_MATRIX_CSV,
	IBP_MATRIX_JSON,
	IBP_MATRIX_HTML
} ibp_matrix_format;

/* The shape of the JSON and CSV matrix (docs/matrix.md): one cell per
 * pair of end ports (ports² cells: 16 GB of JSON at 48,000 ports), or
 * one per pair of classes, with each class's ports (megabytes).  AUTO:
 * ports up to IBP_MATRIX_PORT_FORM_MAX end ports, classes above. */
typedef enum ibp_matrix_form {
	IBP_MATRIX_FORM_AUTO = 0,
	IBP_MATRIX_FORM_PORTS,
	IBP_MATRIX_FORM_CLASSES
} ibp_matrix_form;
#define IBP_MATRIX_PORT_FORM_MAX 2000u

struct ibp_web_extras; /* sys/report.h: the web view's optional sections */

#define IBP_MATRIX_REPORT_OPTIONS_VERSION 1
/* Initialise with ibp_matrix_report_options_init(&o,
 * IBP_MATRIX_REPORT_OPTIONS_VERSION) (export.h: the library reads only
 * the fields o's version has). */
typedef struct ibp_matrix_report_options {
	unsigned version;  /* IBP_MATRIX_REPORT_OPTIONS_VERSION (_init) */
	const char *mode;  /* "opensm", "strict", … for JSON/HTML */
	const char *title; /* HTML title / headline, or NULL */
	size_t grid_limit; /* text grid up to this many ports (0: 32) */
	const char *const *partition_names; /* [0x8000] by base, or NULL */
	ibp_matrix_form form;		    /* JSON and CSV; default AUTO */
	/* "writing the matrix" (rows) for JSON and CSV; NULL: none */
	const ibp_progress *progress;
	/* HTML: the web view's optional sections (sys/report.h: what
	 * ibpartd and `ibpart matrix` add); NULL: none */
	const struct ibp_web_extras *web;
} ibp_matrix_report_options;

/* Set version, everything else 0/NULL (form AUTO).  Cannot fail. */
void ibp_matrix_report_options_init(ibp_matrix_report_options *o,
				    unsigned version);

/* The formats' and the forms' names in their enums' order, as an
 * option's words (args.h: the IBP_ARG_INDEX of a word is its value). */
#define IBP_MATRIX_FORMAT_WORDS "text|md|csv|json|html"
#define IBP_MATRIX_FORM_WORDS	"auto|ports|classes"

/* The matrix m in fmt to out, with o's choices (NULL: the defaults):
 * what `ibpart matrix --format` and `verify --matrix` print.  Only reads
 * m; the caller's out is written, not closed.  IBP_EINVAL for an
 * options version 0 or newer than the library's, IBP_EIO writing,
 * IBP_ENOMEM. */
int ibp_matrix_report(const ibp_matrix *m, ibp_matrix_format fmt,
		      const ibp_matrix_report_options *o, FILE *out,
		      ibp_error *err);

IBP_END_DECLS
#endif
