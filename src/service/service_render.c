/*
 * service_render.c - OpenSM's partitions.conf as the service writes it:
 * the operator's lines verbatim (comments, blank lines and all) up to the
 * marker line, then the generated section - per API partition one
 * statement for its members and, when some members ask for index 0, a
 * second statement of the same name and P_Key with OpenSM's indx0 flag
 * (OpenSM 3.3.23 applies indx0 to the members of the statement that
 * carries it, and merges statements of one P_Key: docs/opensm-
 * behaviour.md rules 8 and 13).  A partition without members is written
 * as a comment: OpenSM drops a partition no port of the fabric is in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/service_internal.h"
#include "util/file_read.h"

/* Where the marker line starts in text, or NULL. */
static const char *find_marker(const char *text)
{
	const char *m = text;
	size_t ml = strlen(SVC_MARKER);
	while ((m = strstr(m, SVC_MARKER))) {
		if ((m == text || m[-1] == '\n') &&
		    (m[ml] == '\n' || m[ml] == 0))
			return m;
		m += ml;
	}
	return NULL;
}

int svc_operator_text(const char *path, char **text, size_t *len,
		      ibp_error *err)
{
	ibp_error e;
	int rc = ibp_file_read_all(path, 0, text, len, &e);
	if (rc == IBP_EIO && errno == ENOENT) {
		*text = strdup("");
		*len = 0;
		return *text ? IBP_OK : ibp_error_set(err, IBP_ENOMEM, "oom");
	}
	if (rc) {
		if (err)
			*err = e;
		return rc;
	}
	const char *m = find_marker(*text);
	if (m) {
		*len = (size_t)(m - *text);
		(*text)[*len] = 0;
	}
	return IBP_OK;
}

bool ibp_service_manages_file(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	bool yes =
	    !ibp_file_read_all(path, 0, &text, &len, NULL) && find_marker(text);
	free(text);
	return yes;
}

/* The header of one statement: name, P_Key and flags. */
static void header(FILE *f, const struct svc_part *p, bool indx0)
{
	fprintf(f, "%s=0x%04x", p->name, p->pkey);
	if (p->ipoib)
		fputs(", ipoib", f);
	if (p->has_qos)
		fprintf(f, ", mtu=%u, rate=%u, sl=%u",
			svc_mtu_code(p->mtu_limit),
			svc_rate_code(p->rate_limit), p->sl);
	if (indx0)
		fputs(", indx0", f);
	fputs(" :", f);
}

/* The members with index0 == indx0, four to a line (OpenSM reads lines
 * of at most 4094 bytes; a statement may span lines). */
static void statement(FILE *f, const struct svc_part *p, bool indx0)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n; i++)
		k += p->m[i].index0 == indx0;
	if (!k)
		return;
	header(f, p, indx0);
	size_t j = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->m[i].index0 != indx0)
			continue;
		fprintf(f, "%s0x%016" PRIx64 "=%s",
			!j	? "\n\t"
			: j % 4 ? ", "
				: ",\n\t",
			p->m[i].guid, p->m[i].full ? "full" : "limited");
		j++;
	}
	fputs(" ;\n", f);
}

int svc_render(const char *operator_text, size_t oplen,
	       const struct svc_plan *plan, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	FILE *f = open_memstream(text, len);
	if (!f)
		return IBP_ENOMEM;
	fwrite(operator_text, 1, oplen, f);
	if (oplen && operator_text[oplen - 1] != '\n')
		fputc('\n', f);
	fprintf(f,
		"%s\n# Partitions of UFM's P_Key API, kept in ibpartd's "
		"database; the lines above are the operator's.\n",
		SVC_MARKER);
	for (size_t i = 0; i < plan->n; i++) {
		const struct svc_part *p = &plan->p[i];
		if (!p->n) {
			fprintf(f, "# %s=0x%04x has no members yet\n", p->name,
				p->pkey);
			continue;
		}
		statement(f, p, false);
		statement(f, p, true);
	}
	if (fclose(f)) {
		free(*text);
		*text = NULL;
		return IBP_ENOMEM;
	}
	return IBP_OK;
}

int svc_parse_conf(const ibp_service *s, const char *name, const char *text,
		   size_t len, ibp_conf **out, ibp_error *err)
{
	ibp_conf_options o;
	ibp_conf_options_init(&o);
	o.dialect = IBP_CONF_DIALECT_OPENSM;
	o.allow_both_pkeys = s->allow_both_pkeys;
	return ibp_conf_parse_buffer(name, text, len, &o, out, NULL, err);
}
