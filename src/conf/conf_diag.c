/*
 * conf_diag.c - how the partitions.conf readers report: every finding
 * goes to the caller's ibp_diags (located, with a stable code); errors
 * and warnings are counted on the policy; a silent misreading is also
 * listed in OpenSM's verdict; a construct OpenSM rejects records where
 * OpenSM gives up.  Also the --opensm summary text.
 *
 * A pathological file could produce a finding per line; after
 * IBP_DIAGS_KEEP_PER_CODE findings of one code the rest are counted
 * (in the list's totals, not formatted), as ibp_diags does.
 *
 * OpenSM reads a CR of a CR LF file as part of the line (its whitespace
 * is ' ', '\t', '\n' only), so in such a file what looks right breaks:
 * "... ;\r" leaves a statement "\r" without ':', "full\r" is not a word.
 * A finding on a line ending in CR says that the CR is the likely cause,
 * since an editor shows nothing there.
 */
#include <stdlib.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "util/diag_lib.h"

static bool over_cap(ibp_conf *c, const char *code)
{
	for (size_t i = 0; i < c->ndiag_codes; i++)
		if (!strcmp(c->diag_counts[i].code, code))
			return ++c->diag_counts[i].n > IBP_DIAGS_KEEP_PER_CODE;
	if (c->ndiag_codes <
	    sizeof(c->diag_counts) / sizeof(c->diag_counts[0])) {
		c->diag_counts[c->ndiag_codes].code = code;
		c->diag_counts[c->ndiag_codes].n = 1;
		c->ndiag_codes++;
	}
	return false;
}

static const char crlf_hint[] =
    " (this file has Windows CR LF line ends: OpenSM reads the CR as part "
    "of the line; convert with dos2unix)";

void conf_crlf_begin(ibp_conf *c, const char *text, size_t len)
{
	c->crlf.text = text;
	c->crlf.len = len;
	/* a CR followed by LF, or one that ends the text; memchr runs at
	 * memory speed where memmem of a 2-byte needle does not */
	c->crlf.any = false;
	for (const char *p = text, *end = text + len;
	     (p = memchr(p, '\r', (size_t)(end - p))); p++)
		if (p + 1 == end || p[1] == '\n') {
			c->crlf.any = true;
			break;
		}
	c->crlf.off = 0;
	c->crlf.line = 1;
}

void conf_crlf_end(ibp_conf *c)
{
	memset(&c->crlf, 0, sizeof(c->crlf));
}

/* Does file line `line` (1-based) end in CR?  Findings come mostly in
 * line order, so the walk goes on from the last line asked for. */
static bool line_ends_cr(ibp_conf *c, unsigned line)
{
	const char *t = c->crlf.text;
	size_t len = c->crlf.len;
	if (line < c->crlf.line) {
		c->crlf.off = 0;
		c->crlf.line = 1;
	}
	while (c->crlf.line < line) {
		const char *nl =
		    memchr(t + c->crlf.off, '\n', len - c->crlf.off);
		if (!nl)
			return false;
		c->crlf.off = (size_t)(nl - t) + 1;
		c->crlf.line++;
	}
	const char *nl = memchr(t + c->crlf.off, '\n', len - c->crlf.off);
	size_t end = nl ? (size_t)(nl - t) : len;
	return end > c->crlf.off && t[end - 1] == '\r';
}

static bool crlf_caused(ibp_conf *c, ibp_severity sev, ibp_conf_pos pos,
			const char *msg)
{
	if (!c->crlf.any || (sev != IBP_SEV_ERROR && sev != IBP_SEV_WARNING) ||
	    strstr(msg, "carriage return"))
		return false;
	return pos.line ? line_ends_cr(c, pos.line) : true;
}

void conf_diag(ibp_conf *c, ibp_severity sev, const char *code,
	       ibp_conf_pos pos, bool misreading, const char *fmt, ...)
{
	/* the finding that says OpenSM reads uninitialised bytes is also
	 * the verdict's (kept here, whoever emits it, also when quiet) */
	if (!strcmp(code, "mgid-last") && !c->verdict.indeterminate) {
		c->verdict.indeterminate = true;
		c->verdict.indeterminate_pos = pos;
	}
	if (c->quiet)
		return;
	if (sev == IBP_SEV_ERROR)
		c->nerrors++;
	else if (sev == IBP_SEV_WARNING)
		c->nwarnings++;
	if (over_cap(c, code)) {
		/* the list is full of these too: it only counts this one */
		if (c->diags)
			ibp_diags_add(c->diags, sev, code, c->file, pos.line,
				      pos.col, "%s", "");
		return;
	}
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (crlf_caused(c, sev, pos, msg)) {
		char *m2 = NULL;
		if (asprintf(&m2, "%s%s", msg, crlf_hint) >= 0) {
			free(msg);
			msg = m2;
		}
	}
	if (c->diags)
		ibp_diags_add(c->diags, sev, code, c->file, pos.line, pos.col,
			      "%s", msg);
	if (misreading) {
		size_t k = c->verdict.nmisreadings;
		if (k == c->capmis) {
			size_t cap = c->capmis ? c->capmis * 2 : 8;
			ibp_conf_misreading *m =
			    realloc(c->misreadings, cap * sizeof(*m));
			if (!m) {
				free(msg);
				return;
			}
			c->misreadings = m;
			c->capmis = cap;
		}
		ibp_conf_misreading *m = &c->misreadings[k];
		m->code = code;
		m->pos = pos;
		m->message = conf_arena_strdup(&c->arena, msg);
		if (m->message) {
			c->verdict.nmisreadings = k + 1;
			c->verdict.misreadings = c->misreadings;
		}
	}
	free(msg);
}

void conf_reject(ibp_conf *c, ibp_conf_pos pos, unsigned osm_line,
		 const char *reason)
{
	if (c->verdict.rejected)
		return;
	c->verdict.rejected = true;
	c->verdict.reason = reason;
	c->verdict.pos = pos;
	c->verdict.opensm_line = osm_line;
}
