/*
 * diag.c - the list of located findings (see include/ibpart/diag.h).
 *
 * Findings are kept in an array; the texts of the files they point into
 * are kept beside them (a reader's own buffer, handed over without a
 * copy: diag_source.h), so that printing can quote the line and put a
 * caret under the column, as a compiler does; the printer finds lines
 * going on from the last one it quoted.  Input is hostile: a quoted line is cut
 * to a window around the caret (an 11 MB line with one error once made 6 GB of
 * stderr), every byte a terminal would act on is escaped (escape.h), and the
 * printer can stop after N errors with a count of the rest.  JSON goes through
 * jansson, as valid UTF-8 with the exact bytes beside any lossy string.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/diag.h"
#include "util/diag_lib.h"
#include "ibpart/error.h"
#include "ibpart/sys/escape.h"
#include "util/diag_source.h"
#include "util/error_lib.h"
#include "util/options_version.h"
#include "util/file_read.h"
#include "util/json_text.h"
#include "ibpart/sys/diag.h"

/* Longest message kept, in bytes (then "…"). */
#define IBP_DIAG_MESSAGE_MAX 400

struct source {
	char *file;
	struct ibp_file_text t; /* the text, malloc'd or mapped */
};

/* Where the printer is in a source: findings come mostly in line order,
 * so finding a line goes on from the last one (no index of every line:
 * on a million-line plan that was 8 MB and a pass for nothing). */
struct line_cursor {
	const struct source *s;
	unsigned line; /* 1-based line that starts at off */
	size_t off;
};

/* Findings of one code in one file: how many the list keeps, and how
 * many more it only counted (by severity), past IBP_DIAGS_KEEP_PER_CODE.
 * A file with a finding on each of its millions of lines would otherwise
 * take some 200 bytes a line: 7 GB for a 64 MB node-name-map of "x". */
struct tally {
	char *code, *file;
	size_t kept;
	size_t dropped[3]; /* by ibp_severity */
};

struct ibp_diags {
	ibp_diag *items;
	size_t n, cap;
	struct source *src;
	size_t nsrc;
	struct tally *tally;
	size_t ntally, captally;
	bool last_dropped; /* set_subject is then not about items[n-1] */
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
		free((char *)d->items[i].subject);
	}
	for (size_t i = 0; i < d->nsrc; i++) {
		free(d->src[i].file);
		ibp_file_text_free(&d->src[i].t);
	}
	for (size_t i = 0; i < d->ntally; i++) {
		free(d->tally[i].code);
		free(d->tally[i].file);
	}
	free(d->tally);
	free(d->src);
	free(d->items);
	free(d);
}

/* Double the array *p of *cap elements of size bytes (16 at first):
 * 0, or -1 with *p and *cap untouched. */
static int grow(void **p, size_t *cap, size_t size)
{
	size_t nc = *cap ? *cap * 2 : 16;
	void *q = realloc(*p, nc * size);
	if (!q)
		return -1;
	*p = q;
	*cap = nc;
	return 0;
}

/* The tally of (code, file), made when new; NULL when out of memory. */
static struct tally *tally_of(ibp_diags *d, const char *code, const char *file)
{
	for (size_t i = d->ntally; i-- > 0;)
		if (!strcmp(d->tally[i].code, code) &&
		    !strcmp(d->tally[i].file, file))
			return &d->tally[i];
	if (d->ntally == d->captally &&
	    grow((void **)&d->tally, &d->captally, sizeof(*d->tally)))
		return NULL;
	struct tally *t = &d->tally[d->ntally];
	*t = (struct tally){.code = strdup(code), .file = strdup(file)};
	if (!t->code || !t->file) {
		free(t->code);
		free(t->file);
		return NULL;
	}
	d->ntally++;
	return t;
}

int ibp_diags_add(ibp_diags *d, ibp_severity sev, const char *code,
		  const char *file, unsigned line, unsigned col,
		  const char *fmt, ...)
{
	if (!d)
		return IBP_OK;
	struct tally *t = tally_of(d, code ? code : "", file ? file : "");
	if (!t)
		return IBP_ENOMEM;
	d->last_dropped = t->kept >= IBP_DIAGS_KEEP_PER_CODE;
	if (d->last_dropped) { /* counted, not kept */
		t->dropped[sev <= IBP_SEV_ERROR ? sev : IBP_SEV_ERROR]++;
		return IBP_OK;
	}
	if (d->n == d->cap &&
	    grow((void **)&d->items, &d->cap, sizeof(*d->items)))
		return IBP_ENOMEM;
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int rc = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return IBP_ENOMEM;
	/* A message quoting a token of a hostile file (a 500 KB "GUID")
	 * is cut: a finding is a line, not a copy of the input. */
	if ((size_t)rc > IBP_DIAG_MESSAGE_MAX) {
		size_t cut = IBP_DIAG_MESSAGE_MAX;
		/* back to a character's start: at most 3 bytes (a run of
		 * stray continuation bytes is not one character) */
		for (int k = 0; k < 3 && cut > 0 &&
				((unsigned char)msg[cut] & 0xc0) == 0x80;
		     k++)
			cut--;
		/* room for the mark and its NUL: the text may be only a
		 * byte longer than the cut (found by fuzz_conf) */
		char *m = realloc(msg, cut + sizeof("…"));
		if (!m) {
			free(msg);
			return IBP_ENOMEM;
		}
		msg = m;
		memcpy(msg + cut, "…", sizeof("…"));
	}
	ibp_diag *it = &d->items[d->n];
	it->severity = sev;
	it->code = strdup(code ? code : "");
	it->file = strdup(file ? file : "");
	it->line = line;
	it->col = col;
	it->message = msg;
	it->subject = NULL;
	if (!it->code || !it->file) {
		free((char *)it->code);
		free((char *)it->file);
		free(msg);
		return IBP_ENOMEM;
	}
	d->n++;
	t->kept++;
	return IBP_OK;
}

int ibp_diags_set_subject(ibp_diags *d, const char *subject)
{
	if (!d || !d->n || !subject || d->last_dropped)
		return IBP_OK;
	ibp_diag *it = &d->items[d->n - 1];
	char *s = strdup(subject);
	if (!s)
		return IBP_ENOMEM;
	free((char *)it->subject);
	it->subject = s;
	return IBP_OK;
}

/* Take t (malloc'd or mapped, NUL at len) as the source of file. */
static int add_source(ibp_diags *d, const char *file,
		      const struct ibp_file_text *t)
{
	struct source *p = realloc(d->src, (d->nsrc + 1) * sizeof(*p));
	if (!p)
		return IBP_ENOMEM;
	d->src = p;
	struct source *s = &d->src[d->nsrc];
	s->file = strdup(file);
	if (!s->file)
		return IBP_ENOMEM;
	s->t = *t;
	d->nsrc++;
	return IBP_OK;
}

static bool have_source(const ibp_diags *d, const char *file)
{
	for (size_t i = 0; i < d->nsrc; i++)
		if (!strcmp(d->src[i].file, file))
			return true;
	return false;
}

int ibp_diags_set_source(ibp_diags *d, const char *file, const char *text,
			 size_t len)
{
	if (!d || have_source(d, file))
		return IBP_OK;
	struct ibp_file_text t = {malloc(len + 1), len, 0};
	if (!t.text)
		return IBP_ENOMEM;
	memcpy(t.text, text, len);
	t.text[len] = 0;
	int rc = add_source(d, file, &t);
	if (rc)
		free(t.text);
	return rc;
}

int diags_adopt_source(ibp_diags *d, const char *file,
		       const struct ibp_file_text *t)
{
	if (!d || have_source(d, file))
		return 1;
	return add_source(d, file, t);
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
	for (size_t i = 0; d && sev <= IBP_SEV_ERROR && i < d->ntally; i++)
		n += d->tally[i].dropped[sev];
	return n;
}

size_t ibp_diags_not_kept(const ibp_diags *d)
{
	size_t n = 0;
	for (size_t i = 0; d && i < d->ntally; i++)
		for (int s = 0; s < 3; s++)
			n += d->tally[i].dropped[s];
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

struct seq_diag {
	ibp_diag d;
	size_t seq;
};

static int cmp_seq(const void *a, const void *b)
{
	const struct seq_diag *x = a, *y = b;
	int c = cmp_diag(&x->d, &y->d);
	if (c)
		return c;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void ibp_diags_sort(ibp_diags *d)
{
	/* qsort made stable by the original position: O(n log n) for a
	 * file with a million findings (insertion sort was quadratic) */
	if (!d || d->n < 2)
		return;
	struct seq_diag *t = malloc(d->n * sizeof(*t));
	if (!t)
		return; /* unsorted, not lost */
	for (size_t i = 0; i < d->n; i++)
		t[i] = (struct seq_diag){d->items[i], i};
	qsort(t, d->n, sizeof(*t), cmp_seq);
	for (size_t i = 0; i < d->n; i++)
		d->items[i] = t[i].d;
	free(t);
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

/* The text of line `line` (1-based) of s, without its newline (or its
 * CR LF); NULL past the end.  cur remembers where the last one was. */
static const char *source_line(const struct source *s, unsigned line,
			       struct line_cursor *cur, size_t *len)
{
	if (!line)
		return NULL;
	if (cur->s != s || cur->line > line) {
		cur->s = s;
		cur->line = 1;
		cur->off = 0;
	}
	const char *text = s->t.text, *end = text + s->t.len;
	while (cur->line < line) {
		const char *nl =
		    memchr(text + cur->off, '\n', s->t.len - cur->off);
		if (!nl)
			return NULL;
		cur->off = (size_t)(nl + 1 - text);
		cur->line++;
	}
	const char *p = text + cur->off;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

bool ibp_diags_has_code(const ibp_diags *d, const char *code)
{
	for (size_t i = 0; d && i < ibp_diags_count(d); i++)
		if (!strcmp(ibp_diags_get(d, i)->code, code))
			return true;
	return false;
}

bool ibp_diags_has_error(const ibp_diags *d, const ibp_error *err)
{
	for (size_t i = 0; d && i < ibp_diags_count(d); i++) {
		const ibp_diag *x = ibp_diags_get(d, i);
		if (x->severity == IBP_SEV_ERROR && x->line == err->line &&
		    x->col == err->col && !strcmp(x->file, err->file) &&
		    !strcmp(x->message, err->message))
			return true;
	}
	return false;
}

int ibp_diags_append(ibp_diags *dst, const ibp_diags *src, const char *file)
{
	for (size_t i = 0; src && i < src->nsrc; i++) {
		const struct source *s = &src->src[i];
		if (file && strcmp(s->file, file))
			continue;
		if (ibp_diags_set_source(dst, s->file, s->t.text, s->t.len))
			return IBP_ENOMEM;
	}
	for (size_t i = 0; src && i < src->n; i++) {
		const ibp_diag *it = &src->items[i];
		if (file && strcmp(it->file, file))
			continue;
		if (ibp_diags_add(dst, it->severity, it->code, it->file,
				  it->line, it->col, "%s", it->message) ||
		    ibp_diags_set_subject(dst, it->subject))
			return IBP_ENOMEM;
	}
	for (size_t i = 0; src && i < src->ntally; i++) {
		const struct tally *st = &src->tally[i];
		if (file && strcmp(st->file, file))
			continue;
		struct tally *dt = tally_of(dst, st->code, st->file);
		if (!dt)
			return IBP_ENOMEM;
		for (int k = 0; k < 3; k++)
			dt->dropped[k] += st->dropped[k];
	}
	return IBP_OK;
}

/* The worst severity of what a tally did not keep. */
static ibp_severity tally_worst(const struct tally *t)
{
	return t->dropped[IBP_SEV_ERROR]     ? IBP_SEV_ERROR
	       : t->dropped[IBP_SEV_WARNING] ? IBP_SEV_WARNING
					     : IBP_SEV_NOTE;
}

static size_t tally_dropped(const struct tally *t)
{
	return t->dropped[0] + t->dropped[1] + t->dropped[2];
}

IBP_OPTIONS_LAYOUT(print_layout, "diagnostics print options",
		   IBP_DIAGS_PRINT_OPTIONS_VERSION,
		   sizeof(ibp_diags_print_options));

void ibp_diags_print_options_init(ibp_diags_print_options *o, unsigned version)
{
	ibp_diags_print_options d = {.version = IBP_DIAGS_PRINT_OPTIONS_VERSION,
				     .max_errors = 20,
				     .width = 100};
	ibp_options_init_as(o, version, &d, &print_layout);
}

/* Escaped text of t[0..n) to out; returns nothing.  With caret != NULL
 * also the caret line's indent: a tab for a tab, else one space per
 * output column. */
static void put_escaped(const char *t, size_t n, FILE *out)
{
	ibp_escape_write(out, t, n);
}

static void put_indent(const char *t, size_t n, FILE *out)
{
	char *e = ibp_escape_text(t, n);
	for (const unsigned char *p = (const unsigned char *)e; p && *p; p++)
		if (*p == '\t')
			fputc('\t', out);
		else if ((*p & 0xc0) != 0x80) /* one column per character */
			fputc(' ', out);
	free(e);
}

/* The source line, cut to a window of about `width` bytes around the
 * caret (with "…" where it was cut), and the caret under the column. */
static void quote_line(const ibp_diag *it, const char *text, size_t len,
		       unsigned width, FILE *out)
{
	size_t col = it->col ? it->col - 1 : 0; /* caret byte offset */
	if (col > len)
		col = len;
	/* a column inside a UTF-8 character: the character's first byte
	 * (else the stray lead byte would count as \xNN, four columns) */
	for (int k = 0; k < 3 && col > 0 && col < len &&
			((unsigned char)text[col] & 0xc0) == 0x80;
	     k++)
		col--;
	size_t from = 0, to = len;
	if (width && len > width) {
		size_t half = width / 2;
		from = col > half ? col - half : 0;
		to = from + width < len ? from + width : len;
		if (to - from < width && to == len)
			from = len > width ? len - width : 0;
		/* never cut inside a UTF-8 sequence */
		while (from > 0 && ((unsigned char)text[from] & 0xc0) == 0x80)
			from--;
		while (to < len && ((unsigned char)text[to] & 0xc0) == 0x80)
			to++;
	}
	const char *lead = from ? "…" : "", *tail = to < len ? "…" : "";
	fprintf(out, "%5u | %s", it->line, lead);
	put_escaped(text + from, to - from, out);
	fprintf(out, "%s\n      | %s", tail, from ? " " : "");
	put_indent(text + from, col - from, out);
	fputs("^\n", out);
}

static void print_one(const ibp_diags *d, const ibp_diag *it, unsigned width,
		      struct line_cursor *cur, FILE *out)
{
	if (it->file[0] && it->line) {
		put_escaped(it->file, strlen(it->file), out);
		fprintf(out, ":%u:%u: ", it->line, it->col);
	} else if (it->file[0]) {
		put_escaped(it->file, strlen(it->file), out);
		fputs(": ", out);
	}
	fprintf(out, "%s: ", ibp_severity_str(it->severity));
	put_escaped(it->message, strlen(it->message), out);
	if (it->code[0]) {
		fputs(" [", out);
		put_escaped(it->code, strlen(it->code), out);
		fputc(']', out);
	}
	fputc('\n', out);
	const struct source *s = find_source(d, it->file);
	size_t len;
	const char *text =
	    s && it->line ? source_line(s, it->line, cur, &len) : NULL;
	if (text)
		quote_line(it, text, len, width, out);
}

/* One finding kind while printing: its code, findings seen, shown, and
 * the first distinct subjects. */
#define SUBJECTS_SHOWN 4
struct code_count {
	const char *code;
	ibp_severity worst;
	size_t seen, shown;
	const char *subj[SUBJECTS_SHOWN];
	size_t nsubj;
	bool more_subj;
};

static void note_subject(struct code_count *k, const char *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < k->nsubj; i++)
		if (!strcmp(k->subj[i], s))
			return;
	if (k->nsubj < SUBJECTS_SHOWN)
		k->subj[k->nsubj++] = s;
	else
		k->more_subj = true;
}

static struct code_count *code_slot(struct code_count **t, size_t *n,
				    size_t *cap, const char *code)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*t)[i].code, code))
			return &(*t)[i];
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct code_count *g = realloc(*t, nc * sizeof(*g));
		if (!g)
			return NULL;
		*t = g;
		*cap = nc;
	}
	(*t)[*n] = (struct code_count){.code = code, .worst = IBP_SEV_NOTE};
	return &(*t)[(*n)++];
}

/* The findings of a code counted and not kept, in every file. */
static size_t code_dropped(const ibp_diags *d, const char *code)
{
	size_t n = 0;
	for (size_t i = 0; i < d->ntally; i++)
		if (!strcmp(d->tally[i].code, code))
			n += tally_dropped(&d->tally[i]);
	return n;
}

int ibp_diags_print_ex(const ibp_diags *d, const ibp_diags_print_options *o,
		       FILE *out)
{
	/* as far as the caller's version goes */
	ibp_diags_print_options own;
	ibp_diags_print_options_init(&own, IBP_DIAGS_PRINT_OPTIONS_VERSION);
	if (ibp_options_take(&own, o, &print_layout, NULL))
		return IBP_EINVAL;
	o = &own;
	size_t errors = 0, hidden_err = 0, hidden_other = 0;
	struct code_count *kinds = NULL;
	size_t nkinds = 0, capkinds = 0;
	struct line_cursor cur = {0};
	for (size_t i = 0; d && i < d->n; i++) {
		const ibp_diag *it = &d->items[i];
		if (o->max_errors && errors >= o->max_errors) {
			if (it->severity == IBP_SEV_ERROR)
				hidden_err++;
			else
				hidden_other++;
			continue;
		}
		/* a finding that repeats (one per port, per key) is shown
		 * max_errors times, then summed up in one line */
		struct code_count *k =
		    o->max_errors && it->code[0]
			? code_slot(&kinds, &nkinds, &capkinds, it->code)
			: NULL;
		if (k) {
			k->seen++;
			note_subject(k, it->subject);
			if (it->severity > k->worst)
				k->worst = it->severity;
			if (k->shown >= o->max_errors)
				continue;
			k->shown++;
		}
		errors += it->severity == IBP_SEV_ERROR;
		print_one(d, it, o->width, &cur, out);
	}
	for (size_t i = 0; i < nkinds; i++) {
		const struct code_count *k = &kinds[i];
		if (k->seen <= k->shown)
			continue;
		fprintf(out, "%s: %zu [", ibp_severity_str(k->worst),
			k->seen - k->shown);
		put_escaped(k->code, strlen(k->code), out);
		fprintf(out, "] finding%s more like the %zu above (%zu in all",
			k->seen - k->shown == 1 ? "" : "s", k->shown,
			k->seen + code_dropped(d, k->code));
		for (size_t j = 0; j < k->nsubj; j++) {
			fputs(j ? ", " : "; about ", out);
			put_escaped(k->subj[j], strlen(k->subj[j]), out);
		}
		if (k->more_subj)
			fputs(" and more", out);
		fputs("); --max-errors 0 shows each\n", out);
	}
	free(kinds);
	for (size_t i = 0; d && i < d->ntally; i++) {
		const struct tally *t = &d->tally[i];
		size_t n = tally_dropped(t);
		if (!n)
			continue;
		fprintf(out, "%s: %zu more [", ibp_severity_str(tally_worst(t)),
			n);
		put_escaped(t->code, strlen(t->code), out);
		fprintf(out, "] finding%s", n == 1 ? "" : "s");
		if (t->file[0]) {
			fputs(" of ", out);
			put_escaped(t->file, strlen(t->file), out);
		}
		fprintf(out,
			" counted, not kept (a list keeps the first %u of a "
			"kind in a file)\n",
			IBP_DIAGS_KEEP_PER_CODE);
	}
	if (hidden_err || hidden_other)
		fprintf(out,
			"%zu more finding%s not shown (%zu error%s, %zu "
			"warning%s or note%s) after the first %zu error%s; "
			"--max-errors 0 shows all\n",
			hidden_err + hidden_other,
			hidden_err + hidden_other == 1 ? "" : "s", hidden_err,
			hidden_err == 1 ? "" : "s", hidden_other,
			hidden_other == 1 ? "" : "s",
			hidden_other == 1 ? "" : "s", o->max_errors,
			o->max_errors == 1 ? "" : "s");
	return IBP_OK;
}

void ibp_diags_print(const ibp_diags *d, FILE *out)
{
	ibp_diags_print_options o;
	ibp_diags_print_options_init(&o, IBP_DIAGS_PRINT_OPTIONS_VERSION);
	o.max_errors = 0;		      /* every finding */
	(void)ibp_diags_print_ex(d, &o, out); /* this version: IBP_OK */
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
		json_t *o = json_object();
		if (!o)
			continue;
		json_text_set(o, "file", it->file);
		json_object_set_new(o, "line", json_integer(it->line));
		json_object_set_new(o, "column", json_integer(it->col));
		json_object_set_new(
		    o, "severity", json_string(ibp_severity_str(it->severity)));
		json_text_set(o, "code", it->code);
		json_text_set(o, "message", it->message);
		json_array_append_new(arr, o);
	}
	json_object_set_new(root, "findings", arr);
	json_t *nk = ibp_diags_not_kept(d) ? json_array() : NULL;
	for (size_t i = 0; nk && i < d->ntally; i++) {
		const struct tally *t = &d->tally[i];
		json_t *o = tally_dropped(t) ? json_object() : NULL;
		if (!o)
			continue;
		json_text_set(o, "file", t->file);
		json_text_set(o, "code", t->code);
		json_object_set_new(
		    o, "severity",
		    json_string(ibp_severity_str(tally_worst(t))));
		json_object_set_new(o, "count",
				    json_integer((json_int_t)tally_dropped(t)));
		json_array_append_new(nk, o);
	}
	if (nk)
		json_object_set_new(root, "not_kept", nk);
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

int ibp_diags_error_of(const ibp_diags *d, int rc, ibp_error *err,
		       const char *file, const char *what)
{
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *x = ibp_diags_get(d, i);
		if (x->severity == IBP_SEV_ERROR)
			return ibp_error_set_at(err, rc, x->file, x->line,
						x->col, "%s", x->message);
	}
	return ibp_error_set_at(err, rc, file, 0, 0, "%s", what);
}
