/*
 * diag.c - the list of located findings (see include/ibpart/diag.h).
 *
 * Findings are kept in an array; the texts of the files they point into
 * are kept beside them so that printing can quote the line and put a
 * caret under the column, as a compiler does.  JSON goes through jansson.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"

struct source {
	char *file;
	char *text;
	size_t len;
};

struct ibp_diags {
	ibp_diag *items;
	size_t n, cap;
	struct source *src;
	size_t nsrc;
};

ibp_diags *ibp_diags_new(void)
{
	return calloc(1, sizeof(ibp_diags));
}

void ibp_diags_free(ibp_diags *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free((char *)d->items[i].code);
		free((char *)d->items[i].file);
		free((char *)d->items[i].message);
	}
	for (size_t i = 0; i < d->nsrc; i++) {
		free(d->src[i].file);
		free(d->src[i].text);
	}
	free(d->src);
	free(d->items);
	free(d);
}

int ibp_diags_add(ibp_diags *d, ibp_severity sev, const char *code,
		  const char *file, unsigned line, unsigned col,
		  const char *fmt, ...)
{
	if (!d)
		return IBP_OK;
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		ibp_diag *p = realloc(d->items, cap * sizeof(*p));
		if (!p)
			return IBP_ENOMEM;
		d->items = p;
		d->cap = cap;
	}
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return IBP_ENOMEM;
	ibp_diag *it = &d->items[d->n];
	it->severity = sev;
	it->code = strdup(code ? code : "");
	it->file = strdup(file ? file : "");
	it->line = line;
	it->col = col;
	it->message = msg;
	if (!it->code || !it->file) {
		free((char *)it->code);
		free((char *)it->file);
		free(msg);
		return IBP_ENOMEM;
	}
	d->n++;
	return IBP_OK;
}

int ibp_diags_set_source(ibp_diags *d, const char *file, const char *text,
			 size_t len)
{
	if (!d)
		return IBP_OK;
	for (size_t i = 0; i < d->nsrc; i++)
		if (!strcmp(d->src[i].file, file))
			return IBP_OK;
	struct source *p = realloc(d->src, (d->nsrc + 1) * sizeof(*p));
	if (!p)
		return IBP_ENOMEM;
	d->src = p;
	struct source *s = &d->src[d->nsrc];
	s->file = strdup(file);
	s->text = malloc(len + 1);
	if (!s->file || !s->text) {
		free(s->file);
		free(s->text);
		return IBP_ENOMEM;
	}
	memcpy(s->text, text, len);
	s->text[len] = 0;
	s->len = len;
	d->nsrc++;
	return IBP_OK;
}

size_t ibp_diags_count(const ibp_diags *d)
{
	return d ? d->n : 0;
}

size_t ibp_diags_count_severity(const ibp_diags *d, ibp_severity sev)
{
	size_t n = 0;
	for (size_t i = 0; d && i < d->n; i++)
		n += d->items[i].severity == sev;
	return n;
}

const ibp_diag *ibp_diags_get(const ibp_diags *d, size_t i)
{
	return d && i < d->n ? &d->items[i] : NULL;
}

static int cmp_diag(const void *a, const void *b)
{
	const ibp_diag *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return 0;
}

void ibp_diags_sort(ibp_diags *d)
{
	/* insertion sort: stable, and lists are short */
	for (size_t i = 1; d && i < d->n; i++) {
		ibp_diag t = d->items[i];
		size_t j = i;
		while (j > 0 && cmp_diag(&d->items[j - 1], &t) > 0) {
			d->items[j] = d->items[j - 1];
			j--;
		}
		d->items[j] = t;
	}
}

const char *ibp_severity_str(ibp_severity sev)
{
	switch (sev) {
	case IBP_SEV_ERROR:
		return "error";
	case IBP_SEV_WARNING:
		return "warning";
	default:
		return "note";
	}
}

static const struct source *find_source(const ibp_diags *d, const char *file)
{
	for (size_t i = 0; i < d->nsrc; i++)
		if (!strcmp(d->src[i].file, file))
			return &d->src[i];
	return NULL;
}

/* The text of line `line` (1-based) of s, without its newline. */
static const char *source_line(const struct source *s, unsigned line,
			       size_t *len)
{
	const char *p = s->text, *end = s->text + s->len;
	for (unsigned l = 1; l < line && p < end; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p > end)
		return NULL;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

int ibp_diags_append(ibp_diags *dst, const ibp_diags *src, const char *file)
{
	for (size_t i = 0; src && i < src->nsrc; i++) {
		const struct source *s = &src->src[i];
		if (file && strcmp(s->file, file))
			continue;
		if (ibp_diags_set_source(dst, s->file, s->text, s->len))
			return IBP_ENOMEM;
	}
	for (size_t i = 0; src && i < src->n; i++) {
		const ibp_diag *it = &src->items[i];
		if (file && strcmp(it->file, file))
			continue;
		if (ibp_diags_add(dst, it->severity, it->code, it->file,
				  it->line, it->col, "%s", it->message))
			return IBP_ENOMEM;
	}
	return IBP_OK;
}

void ibp_diags_print(const ibp_diags *d, FILE *out)
{
	for (size_t i = 0; d && i < d->n; i++) {
		const ibp_diag *it = &d->items[i];
		if (it->file[0] && it->line)
			fprintf(out, "%s:%u:%u: ", it->file, it->line, it->col);
		else if (it->file[0])
			fprintf(out, "%s: ", it->file);
		fprintf(out, "%s: %s", ibp_severity_str(it->severity),
			it->message);
		if (it->code[0])
			fprintf(out, " [%s]", it->code);
		fputc('\n', out);
		const struct source *s = find_source(d, it->file);
		size_t len;
		const char *text =
		    s && it->line ? source_line(s, it->line, &len) : NULL;
		if (!text)
			continue;
		fprintf(out, "%5u | %.*s\n      | ", it->line, (int)len, text);
		/* keep tabs so the caret lines up under the column */
		for (unsigned c = 1; c < it->col && c <= len; c++)
			fputc(text[c - 1] == '\t' ? '\t' : ' ', out);
		fputs("^\n", out);
	}
}

char *ibp_diags_to_json(const ibp_diags *d)
{
	json_t *root = json_object(), *arr = json_array();
	if (!root || !arr) {
		json_decref(root);
		json_decref(arr);
		return NULL;
	}
	for (size_t i = 0; d && i < d->n; i++) {
		const ibp_diag *it = &d->items[i];
		json_array_append_new(
		    arr, json_pack("{s:s, s:i, s:i, s:s, s:s, s:s}", "file",
				   it->file, "line", (int)it->line, "column",
				   (int)it->col, "severity",
				   ibp_severity_str(it->severity), "code",
				   it->code, "message", it->message));
	}
	json_object_set_new(root, "findings", arr);
	json_object_set_new(root, "errors",
			    json_integer((json_int_t)ibp_diags_count_severity(
				d, IBP_SEV_ERROR)));
	json_object_set_new(root, "warnings",
			    json_integer((json_int_t)ibp_diags_count_severity(
				d, IBP_SEV_WARNING)));
	char *s = json_dumps(root, JSON_INDENT(2));
	json_decref(root);
	return s;
}
