/*
 * conf_diag.c - how the partitions.conf readers report: every finding
 * goes to the caller's ibp_diags (located, with a stable code); errors
 * and warnings are counted on the policy; a silent misreading is also
 * listed in OpenSM's verdict; a construct OpenSM rejects records where
 * OpenSM gives up.  Also the --opensm summary text.
 *
 * A pathological file could produce a finding per line; after
 * CONF_DIAG_CAP findings of one code the rest are counted, not listed.
 */
#include <stdlib.h>
#include <string.h>

#include "conf_internal.h"

#define CONF_DIAG_CAP 100

static bool over_cap(ibp_conf *c, const char *code)
{
	for (size_t i = 0; i < c->ndiag_codes; i++)
		if (!strcmp(c->diag_counts[i].code, code))
			return ++c->diag_counts[i].n > CONF_DIAG_CAP;
	if (c->ndiag_codes <
	    sizeof(c->diag_counts) / sizeof(c->diag_counts[0])) {
		c->diag_counts[c->ndiag_codes].code = code;
		c->diag_counts[c->ndiag_codes].n = 1;
		c->ndiag_codes++;
	}
	return false;
}

void conf_diag(ibp_conf *c, ibp_severity sev, const char *code,
	       ibp_conf_pos pos, bool misreading, const char *fmt, ...)
{
	if (c->quiet)
		return;
	if (sev == IBP_SEV_ERROR)
		c->nerrors++;
	else if (sev == IBP_SEV_WARNING)
		c->nwarnings++;
	if (over_cap(c, code))
		return;
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
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

void ibp_conf_print_opensm_summary(const ibp_conf *c, FILE *out)
{
	const ibp_conf_verdict *v = &c->verdict;
	if (v->rejected) {
		if (v->pos.line)
			fprintf(
			    out,
			    "%s:%u: OpenSM 3.3.23 would reject this file "
			    "(log: \"PARSE ERROR: line %u: %s\") and fall "
			    "back to \"Default=0x7fff : ALL=full ;\": every "
			    "port a full member of 0xffff, no isolation.\n",
			    c->file, v->pos.line, v->opensm_line, v->reason);
		else
			fprintf(out,
				"%s: OpenSM 3.3.23 would reject this file (%s) "
				"and fall back to \"Default=0x7fff : ALL=full "
				";\": every port a full member of 0xffff, no "
				"isolation.\n",
				c->file, v->reason);
		return;
	}
	size_t ng = c->ngroups;
	fprintf(out,
		"%s: OpenSM 3.3.23 would accept this file: %zu partition "
		"definition(s), %zu P_Key(s) including the default 0x7fff "
		"(every end port a limited member, the SM port full).\n",
		c->file, c->nparts, ng);
	for (size_t i = 0; i < ng; i++) {
		const ibp_conf_group *g = c->groups[i];
		fprintf(out, "  0x%04x %s", g->pkey, g->name);
		if (g->nparts > 1)
			fprintf(out, " (%zu definitions merged)", g->nparts);
		fputc('\n', out);
	}
	if (v->nmisreadings) {
		fprintf(out,
			"It would silently read %zu thing(s) otherwise than "
			"written:\n",
			v->nmisreadings);
		for (size_t i = 0; i < v->nmisreadings; i++)
			fprintf(out, "  %s:%u:%u: %s [%s]\n", c->file,
				v->misreadings[i].pos.line,
				v->misreadings[i].pos.col,
				v->misreadings[i].message,
				v->misreadings[i].code);
	}
}
