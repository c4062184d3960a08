/*
 * report_matrix.c - the reachability matrix as text, Markdown, CSV and
 * JSON (the HTML report is report_html.c).
 *
 * Text and Markdown print the seed's layout (rows and columns named by
 * node description, "description/port" for a node with several end
 * ports, ✓ / ✗, — on the diagonal) while the fabric is small,
 * and a summary by class and partition when it is not.  CSV and JSON
 * always hold every end port pair; JSON is docs/json-schemas.md's, streamed
 * row by row so a large fabric does not need the whole document in
 * memory.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "report/report_lib.h"
#include "ibpart/sys/escape.h"
#include "util/escape_lib.h"
#include "util/json_text.h"
#include "ibpart/pkey.h"
#include "util/progress_lib.h"
#include "util/options_version.h"

#define YES		   "\xe2\x9c\x93" /* ✓ */
#define NO		   "\xe2\x9c\x97" /* ✗ */
#define DIAG		   "\xe2\x80\x94" /* — */
#define DEFAULT_GRID_LIMIT 32
#define CLASS_GRID_LIMIT   24
#define CLASS_LIST_LIMIT   100
#define KEYS_SHOWN	   12
#define PARTS_SHOWN	   40

int ibp_matrix_format_parse(const char *s, ibp_matrix_format *out)
{
	static const char *const names[] = {"text", "md", "csv", "json",
					    "html"};
	for (unsigned i = 0; i < 5; i++)
		if (s && !strcmp(s, names[i])) {
			*out = (ibp_matrix_format)i;
			return 0;
		}
	return IBP_EINVAL;
}

/* Display width of a UTF-8 string (code points; our names are text). */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

static const char *cell(const ibp_matrix *m, size_t i, size_t j)
{
	if (i == j)
		return DIAG;
	return ibp_matrix_can_talk(m, i, j) ? YES : NO;
}

static size_t grid_limit(const ibp_matrix_report_options *o)
{
	return o && o->grid_limit ? o->grid_limit : DEFAULT_GRID_LIMIT;
}

/* A partition's name for a report: the plan's (its first 24 bytes, cut
 * at a character), escaped by the text rule - it comes from a file and
 * must not reach a terminal raw - or its P_Key.  buf holds the 24 bytes
 * escaped (at most 4 bytes each). */
#define PNAME_MAX 24
static const char *pname(const ibp_matrix_report_options *o, uint16_t k,
			 char buf[4 * PNAME_MAX + 1])
{
	uint16_t b = ibp_pkey_base(k);
	const char *n = o && o->partition_names ? o->partition_names[b] : NULL;
	if (!n || !*n) {
		snprintf(buf, 4 * PNAME_MAX + 1, "0x%04x", b);
		return buf;
	}
	size_t len = strnlen(n, PNAME_MAX + 1);
	if (len > PNAME_MAX) /* back to the start of a character */
		for (len = PNAME_MAX;
		     len > 0 && ((unsigned char)n[len] & 0xc0) == 0x80; len--)
			;
	char *e = ibp_escape_text(n, len);
	snprintf(buf, 4 * PNAME_MAX + 1, "%s", e ? e : "?");
	free(e);
	return buf;
}

/* s as a Markdown table cell (escape.h). */
static void md_cell(FILE *out, const char *s)
{
	ibp_escape_markdown_write(out, s, strlen(s));
}

static void headline(const ibp_matrix *m, const char *pfx, FILE *out)
{
	size_t n = ibp_matrix_endpoint_count(m);
	uint64_t all = n ? (uint64_t)n * (n - 1) / 2 : 0;
	fprintf(out,
		"%sReachability (data plane, IBA 10.9.3): %zu end ports, %zu "
		"classes, %zu partitions; %" PRIu64 " of %" PRIu64
		" pairs can talk.\n",
		pfx, n, ibp_matrix_class_count(m),
		ibp_matrix_partition_count(m), ibp_matrix_pair_count(m), all);
}

static void text_grid(const ibp_matrix *m, FILE *out)
{
	size_t n = ibp_matrix_endpoint_count(m);
	size_t w0 = 0;
	for (size_t i = 0; i < n; i++) {
		size_t w = width(ibp_matrix_endpoint_label(m, i));
		if (w > w0)
			w0 = w;
	}
	pad(out, w0 + 2);
	for (size_t j = 0; j < n; j++)
		fprintf(out, "%s%s", j ? "  " : "",
			ibp_matrix_endpoint_label(m, j));
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		const char *d = ibp_matrix_endpoint_label(m, i);
		fputs(d, out);
		pad(out, w0 + 2 - width(d));
		for (size_t j = 0; j < n; j++) {
			size_t cw = width(ibp_matrix_endpoint_label(m, j));
			if (j)
				fputs("  ", out);
			fputs(cell(m, i, j), out);
			if (j + 1 < n)
				pad(out, cw > 1 ? cw - 1 : 0);
		}
		fputc('\n', out);
	}
}

static void md_grid(const ibp_matrix *m, FILE *out)
{
	size_t n = ibp_matrix_endpoint_count(m);
	fputs("| |", out);
	for (size_t j = 0; j < n; j++) {
		fputc(' ', out);
		md_cell(out, ibp_matrix_endpoint_label(m, j));
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (size_t j = 0; j < n; j++)
		fputs(":---:|", out);
	fputc('\n', out);
	for (size_t i = 0; i < n; i++) {
		fputs("| ", out);
		md_cell(out, ibp_matrix_endpoint_label(m, i));
		fputs(" |", out);
		for (size_t j = 0; j < n; j++)
			fprintf(out, " %s |", cell(m, i, j));
		fputc('\n', out);
	}
}

static void class_keys(const ibp_matrix *m, size_t c, bool md,
		       const ibp_matrix_report_options *o, FILE *out)
{
	size_t nk;
	const uint16_t *k = ibp_matrix_class_keys(m, c, &nk);
	char pb[4 * PNAME_MAX + 1];
	if (!nk)
		fputs("(no partition)", out);
	for (size_t j = 0; j < nk && j < KEYS_SHOWN; j++) {
		fprintf(out, "%s0x%04x ", j ? ", " : "", k[j]);
		if (md)
			md_cell(out, pname(o, k[j], pb));
		else
			fputs(pname(o, k[j], pb), out);
		fprintf(out, "(%s)",
			ibp_pkey_is_full(k[j]) ? "full" : "limited");
	}
	if (nk > KEYS_SHOWN)
		fprintf(out, " … (%zu in all)", nk);
}

/* Per partition (the tenants, when a tenant is a partition): how many
 * end ports are full and limited members. */
static void partition_summary(const ibp_matrix *m, bool md,
			      const ibp_matrix_report_options *o, FILE *out)
{
	size_t *full = calloc(0x8000, sizeof(*full));
	size_t *lim = calloc(0x8000, sizeof(*lim));
	if (!full || !lim) {
		free(full);
		free(lim);
		return;
	}
	for (size_t c = 0; c < ibp_matrix_class_count(m); c++) {
		size_t nk;
		const uint16_t *k = ibp_matrix_class_keys(m, c, &nk);
		for (size_t j = 0; j < nk; j++)
			(ibp_pkey_is_full(k[j]) ? full
						: lim)[ibp_pkey_base(k[j])] +=
			    ibp_matrix_class_size(m, c);
	}
	fprintf(out,
		"\nPartitions (end ports that are full / limited "
		"members; the first %d shown):\n",
		PARTS_SHOWN);
	if (md)
		fputs("\n| partition | P_Key | full | limited |\n"
		      "|---|---|---:|---:|\n",
		      out);
	size_t shown = 0, total = 0;
	char pb[4 * PNAME_MAX + 1];
	for (unsigned b = 1; b < 0x8000; b++) {
		if (!full[b] && !lim[b])
			continue;
		total++;
		if (shown >= PARTS_SHOWN)
			continue;
		shown++;
		if (md) {
			fputs("| ", out);
			md_cell(out, pname(o, (uint16_t)b, pb));
			fprintf(out, " | 0x%04x | %zu | %zu |\n", b, full[b],
				lim[b]);
		} else
			fprintf(out, "  0x%04x %-24s %6zu full %6zu limited\n",
				b, pname(o, (uint16_t)b, pb), full[b], lim[b]);
	}
	if (total > shown)
		fprintf(out, "%s… %zu more partitions\n", md ? "\n" : "  ",
			total - shown);
	free(full);
	free(lim);
}

/* Text or Markdown summary by class and partition. */
static void summary(const ibp_matrix *m, bool md,
		    const ibp_matrix_report_options *o, FILE *out)
{
	size_t k = ibp_matrix_class_count(m);
	size_t n = ibp_matrix_endpoint_count(m);
	headline(m, md ? "**" : "", out);
	if (md)
		fputs("**\n", out);
	fprintf(out,
		"%sClasses (end ports with the same membership; the first "
		"%d shown):\n",
		md ? "\n" : "\n", CLASS_LIST_LIMIT);
	if (md)
		fputs("\n| class | ports | e.g. | P_Keys | reaches ports | "
		      "reaches classes |\n|---|---:|---|---|---:|---|\n",
		      out);
	for (size_t c = 0; c < k && c < CLASS_LIST_LIMIT; c++) {
		const size_t *mem = ibp_matrix_class_members(m, c);
		size_t reach = ibp_matrix_reach_count(m, mem[0]);
		if (md) {
			fprintf(out, "| C%zu | %zu | ", c,
				ibp_matrix_class_size(m, c));
			md_cell(out, ibp_matrix_endpoint_label(m, mem[0]));
			fputs(" | ", out);
		} else
			fprintf(out,
				"  C%-5zu %6zu port(s), e.g. %s\n        "
				"P_Keys: ",
				c, ibp_matrix_class_size(m, c),
				ibp_matrix_endpoint_label(m, mem[0]));
		class_keys(m, c, md, o, out);
		if (md)
			fprintf(out, " | %zu | ", reach);
		else
			fprintf(out,
				"\n        reaches %zu of %zu other "
				"ports; classes: ",
				reach, n ? n - 1 : 0);
		size_t shown = 0, total = 0;
		for (size_t d = 0; d < k; d++)
			if (ibp_matrix_class_can_talk(m, c, d) &&
			    (d != c || ibp_matrix_class_size(m, c) > 1)) {
				if (shown < 12)
					fprintf(out, "%sC%zu", shown ? " " : "",
						d);
				shown++;
				total++;
			}
		if (!total)
			fputs("none", out);
		else if (total > 12)
			fprintf(out, " … (%zu classes)", total);
		fputs(md ? " |\n" : "\n", out);
	}
	if (k > CLASS_LIST_LIMIT)
		fprintf(out, "%s… %zu more classes\n", md ? "\n" : "  ",
			k - CLASS_LIST_LIMIT);
	partition_summary(m, md, o, out);
	if (k <= CLASS_GRID_LIMIT) {
		fprintf(
		    out,
		    "\nClass matrix (%s: a member of the row class can talk "
		    "to a different member of the column class):\n\n",
		    YES);
		if (md) {
			fputs("| |", out);
			for (size_t d = 0; d < k; d++)
				fprintf(out, " C%zu |", d);
			fputs("\n|---|", out);
			for (size_t d = 0; d < k; d++)
				fputs(":---:|", out);
			fputc('\n', out);
		} else {
			fputs("       ", out);
			for (size_t d = 0; d < k; d++)
				fprintf(out, " C%-4zu", d);
			fputc('\n', out);
		}
		for (size_t c = 0; c < k; c++) {
			if (md)
				fprintf(out, "| C%zu |", c);
			else
				fprintf(out, "  C%-4zu", c);
			for (size_t d = 0; d < k; d++) {
				const char *s =
				    c == d && ibp_matrix_class_size(m, c) < 2
					? DIAG
				    : ibp_matrix_class_can_talk(m, c, d) ? YES
									 : NO;
				fprintf(out, md ? " %s |" : " %s    ", s);
			}
			fputc('\n', out);
		}
	}
}

static void csv(const ibp_matrix *m, const ibp_progress *pg, FILE *out)
{
	size_t n = ibp_matrix_endpoint_count(m);
	fputs("port_guid,node_desc", out);
	for (size_t j = 0; j < n; j++)
		fprintf(out, ",0x%016" PRIx64, ibp_matrix_endpoint_guid(m, j));
	fputs("\r\n", out);
	for (size_t i = 0; i < n; i++) {
		const char *l = ibp_matrix_endpoint_label(m, i);
		fprintf(out, "0x%016" PRIx64 ",",
			ibp_matrix_endpoint_guid(m, i));
		/* RFC 4180, formulas defused (escape.h) */
		ibp_escape_csv_write(out, l, strlen(l));
		for (size_t j = 0; j < n; j++)
			fputs(i == j			     ? ","
			      : ibp_matrix_can_talk(m, i, j) ? ",1"
							     : ",0",
			      out);
		fputs("\r\n", out);
		ibp_progress_tick(pg, "writing the matrix", i + 1, n, 256);
	}
}

static int json_str(FILE *out, const char *s)
{
	json_t *j = json_text(s); /* U+FFFD where not UTF-8 */
	if (!j)
		return IBP_ENOMEM;
	int rc = json_dumpf(j, out, JSON_ENCODE_ANY);
	json_decref(j);
	return rc ? IBP_EIO : 0;
}

int ibp_matrix_form_parse(const char *s, ibp_matrix_form *out)
{
	static const char *const names[] = {"auto", "ports", "classes"};
	for (int i = 0; s && i < 3; i++)
		if (!strcmp(s, names[i])) {
			*out = (ibp_matrix_form)i;
			return 0;
		}
	return IBP_EINVAL;
}

const char *ibp_matrix_form_str(ibp_matrix_form f)
{
	return f == IBP_MATRIX_FORM_PORTS     ? "ports"
	       : f == IBP_MATRIX_FORM_CLASSES ? "classes"
					      : "auto";
}

ibp_matrix_form ibp_matrix_form_of(const ibp_matrix *m, ibp_matrix_form f)
{
	if (f == IBP_MATRIX_FORM_PORTS || f == IBP_MATRIX_FORM_CLASSES)
		return f;
	return ibp_matrix_endpoint_count(m) <= IBP_MATRIX_PORT_FORM_MAX
		   ? IBP_MATRIX_FORM_PORTS
		   : IBP_MATRIX_FORM_CLASSES;
}

/* Row a of the class matrix as hex: digit k holds classes 4k..4k+3,
 * the most significant bit the first of them (so "8" alone is class 0,
 * "1" class 3); written as "0" digits where nothing talks. */
static void class_row_hex(const ibp_matrix *m, size_t a, FILE *out)
{
	size_t nc = ibp_matrix_class_count(m);
	for (size_t b = 0; b < nc; b += 4) {
		unsigned d = 0;
		for (size_t k = 0; k < 4; k++)
			if (b + k < nc &&
			    ibp_matrix_class_can_talk(m, a, b + k))
				d |= 8u >> k;
		fputc("0123456789abcdef"[d], out);
	}
}

/* The class form: every end port with its class, every class with its
 * members and P_Keys, and the class x class matrix as hex rows. */
static int json_classes(const ibp_matrix *m, const ibp_progress *pg, FILE *out)
{
	size_t n = ibp_matrix_endpoint_count(m);
	size_t nc = ibp_matrix_class_count(m);
	fprintf(out, ",\n \"form\": \"classes\",\n \"endpoints\": [");
	for (size_t i = 0; i < n; i++) {
		fprintf(out,
			"%s\n  {\"port_guid\": \"0x%016" PRIx64 "\", "
			"\"node_desc\": ",
			i ? "," : "", ibp_matrix_endpoint_guid(m, i));
		if (json_str(out, ibp_matrix_endpoint_desc(m, i)))
			return IBP_ENOMEM;
		fprintf(out, ", \"class\": %zu}", ibp_matrix_class_of(m, i));
	}
	fputs("],\n \"classes\": [", out);
	for (size_t c = 0; c < nc; c++) {
		size_t nk, sz = ibp_matrix_class_size(m, c);
		const uint16_t *k = ibp_matrix_class_keys(m, c, &nk);
		fprintf(out,
			"%s\n  {\"class\": %zu, \"size\": %zu, \"pkeys\": [",
			c ? "," : "", c, sz);
		for (size_t j = 0; j < nk; j++)
			fprintf(out, "%s\"0x%04x\"", j ? ", " : "", k[j]);
		fputs("], \"ports\": [", out);
		const size_t *mem = ibp_matrix_class_members(m, c);
		for (size_t j = 0; j < sz; j++)
			fprintf(out, "%s%zu", j ? "," : "", mem[j]);
		fputs("]}", out);
	}
	fputs("],\n \"can_talk\": [", out);
	for (size_t a = 0; a < nc; a++) {
		fputs(a ? ",\n  \"" : "\n  \"", out);
		class_row_hex(m, a, out);
		fputc('"', out);
		ibp_progress_tick(pg, "writing the matrix", a + 1, nc, 256);
	}
	fputs("]}\n", out);
	return 0;
}

/* CSV, class form: one row per class - its id, size, P_Keys, member
 * port GUIDs (space-separated) - then one 0/1 cell per class. */
static void csv_classes(const ibp_matrix *m, const ibp_progress *pg, FILE *out)
{
	size_t nc = ibp_matrix_class_count(m);
	fputs("class,size,pkeys,port_guids", out);
	for (size_t b = 0; b < nc; b++)
		fprintf(out, ",%zu", b);
	fputs("\r\n", out);
	for (size_t a = 0; a < nc; a++) {
		size_t nk, sz = ibp_matrix_class_size(m, a);
		const uint16_t *k = ibp_matrix_class_keys(m, a, &nk);
		fprintf(out, "%zu,%zu,", a, sz);
		for (size_t j = 0; j < nk; j++)
			fprintf(out, "%s0x%04x", j ? " " : "", k[j]);
		fputc(',', out);
		const size_t *mem = ibp_matrix_class_members(m, a);
		for (size_t j = 0; j < sz; j++)
			fprintf(out, "%s0x%016" PRIx64, j ? " " : "",
				ibp_matrix_endpoint_guid(m, mem[j]));
		for (size_t b = 0; b < nc; b++)
			fputs(ibp_matrix_class_can_talk(m, a, b) ? ",1" : ",0",
			      out);
		fputs("\r\n", out);
		ibp_progress_tick(pg, "writing the matrix", a + 1, nc, 256);
	}
}

static int json_out(const ibp_matrix *m, const ibp_matrix_report_options *o,
		    FILE *out)
{
	size_t n = ibp_matrix_endpoint_count(m);
	fputs("{\"mode\": ", out);
	if (json_str(out, o && o->mode ? o->mode : "tables"))
		return IBP_ENOMEM;
	if (ibp_matrix_form_of(m, o ? o->form : IBP_MATRIX_FORM_AUTO) ==
	    IBP_MATRIX_FORM_CLASSES)
		return json_classes(m, o ? o->progress : NULL, out);
	fputs(",\n \"form\": \"ports\",\n \"endpoints\": [", out);
	for (size_t i = 0; i < n; i++) {
		fprintf(out,
			"%s\n  {\"port_guid\": \"0x%016" PRIx64 "\", "
			"\"node_desc\": ",
			i ? "," : "", ibp_matrix_endpoint_guid(m, i));
		if (json_str(out, ibp_matrix_endpoint_desc(m, i)))
			return IBP_ENOMEM;
		fputc('}', out);
	}
	fputs("],\n \"can_talk\": [", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n  [" : "\n  [", out);
		for (size_t j = 0; j < n; j++)
			fputs(i == j ? (j ? ", null" : "null")
			      : ibp_matrix_can_talk(m, i, j)
				  ? (j ? ", true" : "true")
				  : (j ? ", false" : "false"),
			      out);
		fputc(']', out);
		ibp_progress_tick(o ? o->progress : NULL, "writing the matrix",
				  i + 1, n, 256);
	}
	fputs("]}\n", out);
	return 0;
}

IBP_OPTIONS_LAYOUT(matrix_report_options_layout, "matrix report options",
		   IBP_MATRIX_REPORT_OPTIONS_VERSION,
		   sizeof(ibp_matrix_report_options));

/* The library's defaults, a whole current struct. */
static void matrix_report_options_defaults(ibp_matrix_report_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_MATRIX_REPORT_OPTIONS_VERSION;
}

void ibp_matrix_report_options_init(ibp_matrix_report_options *o,
				    unsigned version)
{
	ibp_matrix_report_options d;
	matrix_report_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &matrix_report_options_layout);
}

int ibp_matrix_report(const ibp_matrix *m, ibp_matrix_format fmt,
		      const ibp_matrix_report_options *o, FILE *out,
		      ibp_error *err)
{
	ibp_matrix_report_options own; /* NULL o: the defaults */
	matrix_report_options_defaults(&own);
	if (ibp_options_take(&own, o, &matrix_report_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	size_t n = ibp_matrix_endpoint_count(m);
	int rc = 0;
	switch (fmt) {
	case IBP_MATRIX_TEXT:
		if (n <= grid_limit(o)) {
			headline(m, "", out);
			fputc('\n', out);
			text_grid(m, out);
		} else
			summary(m, false, o, out);
		break;
	case IBP_MATRIX_MD:
		if (n <= grid_limit(o)) {
			headline(m, "", out);
			fputc('\n', out);
			md_grid(m, out);
		} else
			summary(m, true, o, out);
		break;
	case IBP_MATRIX_CSV:
		if (ibp_matrix_form_of(m, o ? o->form : IBP_MATRIX_FORM_AUTO) ==
		    IBP_MATRIX_FORM_CLASSES)
			csv_classes(m, o ? o->progress : NULL, out);
		else
			csv(m, o ? o->progress : NULL, out);
		break;
	case IBP_MATRIX_JSON:
		rc = json_out(m, o, out);
		break;
	case IBP_MATRIX_HTML:
		return ibp_matrix_report_html(m, o, out, err);
	}
	if (rc)
		return ibp_error_set(err, rc, "cannot write the matrix");
	if (ferror(out))
		return ibp_error_set(err, IBP_EIO, "write error");
	return 0;
}
