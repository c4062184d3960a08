/*
 * template.c - the page template's renderer (template_lib.h): walks the
 * template once, copies its text and at each slot writes the caller's
 * data, showing or skipping blocks by the caller's table.
 *
 * The same walk checks: a tag that is not well formed, a name the table
 * does not have or has as the other kind, a block closed out of order or
 * never, and (when checking) a table entry the template never uses are
 * errors at their place in the template - so a renamed slot fails the
 * unit test (test_report_template) instead of vanishing from the page,
 * and a render writes nothing unless the whole template agrees.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/template_lib.h"
#include "util/error_lib.h"

#define DEPTH_MAX 16 /* blocks open at once */

struct walk {
	const char *file, *t;
	const ibp_template_slot *s;
	size_t ns;
	const void *ctx;
	FILE *out;	     /* NULL: check only */
	unsigned char *used; /* [ns] when checking, else NULL */
	ibp_error *err;
};

/* An error at `at` in the template, as file:line:col. */
__attribute__((format(printf, 3, 4))) static int
fail_at(const struct walk *w, const char *at, const char *fmt, ...)
{
	unsigned line = 1, col = 1;
	for (const char *c = w->t; c < at; c++, col++)
		if (*c == '\n') {
			line++;
			col = 0;
		}
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ibp_error_set_at(w->err, IBP_EPARSE, w->file, line, col, "%s",
				msg);
}

/* Text as the page has it: a backslash-newline joins two lines. */
static void put_text(FILE *out, const char *s, size_t n)
{
	while (n) {
		const char *bs = memchr(s, '\\', n);
		size_t k = bs ? (size_t)(bs - s) : n;
		fwrite(s, 1, k, out);
		s += k;
		n -= k;
		if (n >= 2 && s[1] == '\n') {
			s += 2;
			n -= 2;
		} else if (n) {
			fputc('\\', out);
			s++;
			n--;
		}
	}
}

static const ibp_template_slot *find(const struct walk *w, const char *name,
				     size_t len)
{
	for (size_t i = 0; i < w->ns; i++)
		if (strlen(w->s[i].name) == len &&
		    !memcmp(w->s[i].name, name, len))
			return &w->s[i];
	return NULL;
}

static bool good_name(const char *name, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9') || name[i] == '_'))
			return false;
	return true;
}

/* One slot written (nothing for a hidden one or when checking). */
static void put_slot(const struct walk *w, const ibp_template_slot *s)
{
	if (s->kind == IBP_SLOT_NUMBER)
		fprintf(w->out, "%" PRIu64, s->value);
	else
		s->write(w->ctx);
}

static int walk(struct walk *w)
{
	struct {
		const char *at, *name;
		size_t len;
		bool hides;
	} open[DEPTH_MAX];
	int depth = 0, hidden = 0; /* hidden: open blocks that hide */
	const char *c = w->t;
	for (;;) {
		const char *tag = strstr(c, "{{");
		size_t n = tag ? (size_t)(tag - c) : strlen(c);
		if (w->out && !hidden)
			put_text(w->out, c, n);
		if (!tag)
			break;
		const char *end = strstr(tag + 2, "}}");
		if (!end)
			return fail_at(w, tag, "\"{{\" without \"}}\"");
		c = end + 2;
		char sigil = tag[2];
		if (sigil == '!')
			continue;
		bool block = sigil == '#' || sigil == '^';
		const char *name = tag + 2 + (block || sigil == '/');
		size_t len = (size_t)(end - name);
		if (!good_name(name, len))
			return fail_at(w, tag, "\"%.*s\" is not a slot name",
				       (int)len, name);
		if (sigil == '/') {
			if (!depth || open[depth - 1].len != len ||
			    memcmp(open[depth - 1].name, name, len))
				return fail_at(w, tag,
					       "{{/%.*s}} closes no open block",
					       (int)len, name);
			hidden -= open[--depth].hides;
			continue;
		}
		const ibp_template_slot *s = find(w, name, len);
		if (!s)
			return fail_at(w, tag, "unknown slot \"%.*s\"",
				       (int)len, name);
		if (block != (s->kind == IBP_SLOT_BLOCK))
			return fail_at(w, tag,
				       block ? "\"%s\" is a slot, not a block"
					     : "\"%s\" is a block, not a slot",
				       s->name);
		if (w->used)
			w->used[s - w->s] = 1;
		if (!block) {
			if (w->out && !hidden)
				put_slot(w, s);
			continue;
		}
		if (depth == DEPTH_MAX)
			return fail_at(w, tag, "blocks nested deeper than %d",
				       DEPTH_MAX);
		bool hides = (s->value != 0) != (sigil == '#');
		open[depth].at = tag;
		open[depth].name = name;
		open[depth].len = len;
		open[depth++].hides = hides;
		hidden += hides;
	}
	if (depth)
		return fail_at(w, open[depth - 1].at,
			       "{{%c%.*s}} is never closed",
			       open[depth - 1].at[2], (int)open[depth - 1].len,
			       open[depth - 1].name);
	return 0;
}

int ibp_template_check(const char *file, const char *t,
		       const ibp_template_slot *s, size_t ns, ibp_error *err)
{
	for (size_t i = 0; i < ns; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(s[i].name, s[j].name))
				return ibp_error_set_at(
				    err, IBP_EPARSE, file, 0, 0,
				    "slot \"%s\" is in the table twice",
				    s[i].name);
	unsigned char *used = calloc(ns + 1, 1);
	if (!used)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	struct walk w = {file, t, s, ns, NULL, NULL, used, err};
	int rc = walk(&w);
	for (size_t i = 0; !rc && i < ns; i++)
		if (!used[i])
			rc = ibp_error_set_at(err, IBP_EPARSE, file, 0, 0,
					      "slot \"%s\" has no place in the "
					      "template",
					      s[i].name);
	free(used);
	return rc;
}

int ibp_template_render(const char *file, const char *t,
			const ibp_template_slot *s, size_t ns, const void *ctx,
			FILE *out, ibp_error *err)
{
	int rc = ibp_template_check(file, t, s, ns, err);
	if (rc)
		return rc;
	struct walk w = {file, t, s, ns, ctx, out, NULL, err};
	return walk(&w);
}
