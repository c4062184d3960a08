/*
 * analysis_findings.c - the audit's list of findings: each a stable code,
 * a severity, the ports (port GUIDs) and partitions it is about, a reason
 * and a fix; rendered as text for people and as the JSON that scripts
 * read ({"findings": [...]}, see include/ibpart/analysis.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "ibpart/sys/escape.h"
#include "util/json_text.h"
#include "ibpart/pkey.h"

struct ibp_findings {
	size_t n, cap;
	ibp_finding *v;
};

ibp_findings *ibp_findings_new(void)
{
	return calloc(1, sizeof(ibp_findings));
}

static void finding_free(ibp_finding *x)
{
	free((char *)x->code);
	free(x->ports);
	free(x->partitions);
	free(x->message);
	free(x->fix);
}

void ibp_findings_free(ibp_findings *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		finding_free(&f->v[i]);
	free(f->v);
	free(f);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int cmp_u16(const void *a, const void *b)
{
	uint16_t x = *(const uint16_t *)a, y = *(const uint16_t *)b;
	return (x > y) - (x < y);
}

int ibp_findings_add(ibp_findings *f, const char *code, ibp_audit_severity sev,
		     const uint64_t *ports, size_t nports,
		     const uint16_t *partitions, size_t npartitions,
		     const char *fix, const char *fmt, ...)
{
	if (f->n == f->cap) {
		size_t nc = f->cap ? f->cap * 2 : 16;
		ibp_finding *v = realloc(f->v, nc * sizeof(*v));
		if (!v)
			return IBP_ENOMEM;
		f->v = v;
		f->cap = nc;
	}
	ibp_finding x = {0};
	x.severity = sev;
	x.code = strdup(code);
	x.fix = strdup(fix ? fix : "");
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&x.message, fmt, ap) < 0)
		x.message = NULL;
	va_end(ap);
	x.ports = malloc((nports ? nports : 1) * sizeof(*x.ports));
	x.partitions =
	    malloc((npartitions ? npartitions : 1) * sizeof(*x.partitions));
	if (!x.code || !x.fix || !x.message || !x.ports || !x.partitions) {
		finding_free(&x);
		return IBP_ENOMEM;
	}
	/* sorted, without duplicates: stable output whatever the rule's
	 * walk order */
	for (size_t i = 0; i < nports; i++)
		x.ports[i] = ports[i];
	qsort(x.ports, nports, sizeof(*x.ports), cmp_u64);
	for (size_t i = 0; i < nports; i++)
		if (!x.nports || x.ports[x.nports - 1] != x.ports[i])
			x.ports[x.nports++] = x.ports[i];
	for (size_t i = 0; i < npartitions; i++)
		x.partitions[i] = ibp_pkey_base(partitions[i]);
	qsort(x.partitions, npartitions, sizeof(*x.partitions), cmp_u16);
	for (size_t i = 0; i < npartitions; i++)
		if (!x.npartitions ||
		    x.partitions[x.npartitions - 1] != x.partitions[i])
			x.partitions[x.npartitions++] = x.partitions[i];
	f->v[f->n++] = x;
	return 0;
}

size_t ibp_findings_count(const ibp_findings *f)
{
	return f->n;
}

const ibp_finding *ibp_findings_get(const ibp_findings *f, size_t i)
{
	return i < f->n ? &f->v[i] : NULL;
}

long ibp_findings_find(const ibp_findings *f, const char *code)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].code, code))
			return (long)i;
	return -1;
}

size_t ibp_findings_count_severity(const ibp_findings *f, ibp_audit_severity s)
{
	size_t n = 0;
	for (size_t i = 0; i < f->n; i++)
		n += f->v[i].severity == s;
	return n;
}

int ibp_findings_max_severity(const ibp_findings *f)
{
	int m = -1;
	for (size_t i = 0; i < f->n; i++)
		if ((int)f->v[i].severity > m)
			m = (int)f->v[i].severity;
	return m;
}

int ibp_findings_append(ibp_findings *f, const ibp_findings *src)
{
	for (size_t i = 0; src && i < src->n; i++) {
		const ibp_finding *x = &src->v[i];
		int rc = ibp_findings_add(
		    f, x->code, x->severity, x->ports, x->nports, x->partitions,
		    x->npartitions, x->fix, "%s", x->message);
		if (rc)
			return rc;
	}
	return 0;
}

bool ibp_finding_equal(const ibp_finding *a, const ibp_finding *b)
{
	return a->severity == b->severity && !strcmp(a->code, b->code) &&
	       a->nports == b->nports && a->npartitions == b->npartitions &&
	       (!a->nports ||
		!memcmp(a->ports, b->ports, a->nports * sizeof(*a->ports))) &&
	       (!a->npartitions ||
		!memcmp(a->partitions, b->partitions,
			a->npartitions * sizeof(*a->partitions))) &&
	       !strcmp(a->message, b->message);
}

void ibp_findings_sort(ibp_findings *f)
{
	/* insertion sort: stable, and the lists are short */
	for (size_t i = 1; i < f->n; i++) {
		ibp_finding x = f->v[i];
		size_t j = i;
		while (j > 0 && (f->v[j - 1].severity < x.severity ||
				 (f->v[j - 1].severity == x.severity &&
				  strcmp(f->v[j - 1].code, x.code) > 0))) {
			f->v[j] = f->v[j - 1];
			j--;
		}
		f->v[j] = x;
	}
}

static const char *const sev_names[] = {"info", "medium", "high", "critical"};

const char *ibp_audit_severity_str(ibp_audit_severity s)
{
	return (unsigned)s < 4 ? sev_names[s] : "?";
}

int ibp_audit_severity_parse(const char *s, ibp_audit_severity *out)
{
	for (unsigned i = 0; i < 4; i++)
		if (s && !strcasecmp(s, sev_names[i])) {
			*out = (ibp_audit_severity)i;
			return 0;
		}
	return IBP_EINVAL;
}

char *ibp_findings_to_json(const ibp_findings *f)
{
	json_t *root = json_object();
	json_t *arr = json_array();
	if (!root || !arr || json_object_set_new(root, "findings", arr)) {
		json_decref(root);
		return NULL;
	}
	for (size_t i = 0; i < f->n; i++) {
		const ibp_finding *x = &f->v[i];
		json_t *o = json_object();
		json_t *ports = json_array();
		json_t *parts = json_array();
		char buf[24];
		for (size_t j = 0; j < x->nports; j++) {
			snprintf(buf, sizeof(buf), "0x%016" PRIx64,
				 x->ports[j]);
			json_array_append_new(ports, json_string(buf));
		}
		for (size_t j = 0; j < x->npartitions; j++) {
			snprintf(buf, sizeof(buf), "0x%04x",
				 (unsigned)x->partitions[j]);
			json_array_append_new(parts, json_string(buf));
		}
		json_object_set_new(o, "code", json_string(x->code));
		json_object_set_new(
		    o, "severity",
		    json_string(ibp_audit_severity_str(x->severity)));
		json_object_set_new(o, "ports", ports);
		json_object_set_new(o, "partitions", parts);
		json_text_set(o, "message", x->message);
		json_text_set(o, "fix", x->fix);
		json_array_append_new(arr, o);
	}
	char *s = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	return s;
}
