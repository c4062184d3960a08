/*
 * alias_map.c - alias GUIDs and what a GUID is to the fabric (see
 * include/ibpart/alias_map.h): the map (an array in the order given,
 * found through the model's seeded 64-bit hash table), its text format
 * read and written, and the one classification every command and the
 * service use to say what OpenSM will do with a GUID a plan names.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/alias_map.h"
#include "topo/alias_map_lib.h"
#include "ibpart/limits.h"
#include "topo/topo_priv.h"
#include "util/file_read.h"
#include "util/diag_lib.h"
#include "topo/topo_lib.h"
#include "ibpart/sys/alias_map.h"
#include "util/error_lib.h"

struct ibp_alias_map {
	struct topo_map64 index; /* alias GUID -> v[] */
	struct topo_map64 slots; /* slot_key(port, index) -> v[] */
	struct ibp_alias *v;
	size_t n, cap;
};

ibp_alias_map *ibp_alias_map_new(void)
{
	return calloc(1, sizeof(ibp_alias_map));
}

void ibp_alias_map_free(ibp_alias_map *m)
{
	if (!m)
		return;
	topo_map64_free(&m->index);
	topo_map64_free(&m->slots);
	free(m->v);
	free(m);
}

size_t ibp_alias_map_count(const ibp_alias_map *m)
{
	return m ? m->n : 0;
}

const struct ibp_alias *ibp_alias_map_at(const ibp_alias_map *m, size_t i)
{
	return m && i < m->n ? &m->v[i] : NULL;
}

const struct ibp_alias *ibp_alias_map_find(const ibp_alias_map *m,
					   uint64_t alias)
{
	if (!m || !m->n)
		return NULL;
	uint32_t i = topo_map64_get(&m->index, alias);
	return i == TOPO_NONE ? NULL : &m->v[i];
}

/* A GUIDInfo slot's key: the port GUID rotated by 8 bits, the index in
 * the low byte.  Two slots share a key only when their ports differ in
 * their top 8 bits alone; a lookup checks, and scans then. */
static uint64_t slot_key(uint64_t port_guid, unsigned index)
{
	return (port_guid << 8 | port_guid >> 56) ^ index;
}

const struct ibp_alias *ibp_alias_map_slot(const ibp_alias_map *m,
					   uint64_t port_guid, unsigned index)
{
	if (!m || !m->n)
		return NULL;
	uint32_t i = topo_map64_get(&m->slots, slot_key(port_guid, index));
	if (i == TOPO_NONE)
		return NULL;
	if (m->v[i].port_guid == port_guid && m->v[i].index == index)
		return &m->v[i];
	for (size_t k = 0; k < m->n; k++) /* another slot's key */
		if (m->v[k].port_guid == port_guid && m->v[k].index == index)
			return &m->v[k];
	return NULL;
}

int ibp_alias_map_add(ibp_alias_map *m, const struct ibp_alias *a)
{
	if (!m || !a || !a->alias || !a->port_guid ||
	    a->alias == a->port_guid || a->index < 1 || a->index > 255)
		return IBP_EINVAL;
	if (ibp_alias_map_find(m, a->alias))
		return IBP_ERANGE;
	if (ibp_alias_map_slot(m, a->port_guid, a->index))
		return IBP_EBUSY;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 16;
		struct ibp_alias *v = realloc(m->v, cap * sizeof(*v));
		if (!v)
			return IBP_ENOMEM;
		m->v = v;
		m->cap = cap;
	}
	uint32_t old;
	int rc = topo_map64_put(&m->index, a->alias, (uint32_t)m->n, &old);
	if (rc >= 0) /* a key another slot holds stays that slot's */
		rc = topo_map64_put(&m->slots, slot_key(a->port_guid, a->index),
				    (uint32_t)m->n, &old);
	if (rc < 0)
		return rc;
	m->v[m->n++] = *a;
	return IBP_OK;
}

/* One field of a line: a 0x GUID or a decimal index; *p moves past it. */
static bool read_field(const char **p, const char *le, bool guid, uint64_t *v)
{
	const char *s = *p;
	char buf[24];
	size_t n = 0;
	while (s < le && !isspace((unsigned char)*s) && *s != '#' &&
	       n < sizeof(buf) - 1)
		buf[n++] = *s++;
	buf[n] = 0;
	/* a NUL inside the field would end strtoull's reading early and
	 * hide what follows it */
	if (!n || memchr(buf, 0, n) ||
	    (s < le && !isspace((unsigned char)*s) && *s != '#'))
		return false;
	if (guid && (n < 3 || buf[0] != '0' || (buf[1] | 0x20) != 'x'))
		return false;
	if (!guid && !isdigit((unsigned char)buf[0]))
		return false;
	char *e;
	errno = 0;
	*v = strtoull(buf, &e, guid ? 16 : 10);
	*p = s;
	return !errno && *e == 0;
}

static const char *skip_blank(const char *p, const char *le)
{
	while (p < le && isspace((unsigned char)*p))
		p++;
	return p;
}

/* One line that is not blank nor a comment; 0 or the finding made. */
static int read_line(ibp_alias_map *m, const char *name, unsigned lineno,
		     const char *ls, const char *le, ibp_diags *diags,
		     ibp_error *err)
{
	static const char *const what[] = {"an alias GUID (0x...)",
					   "its physical port's GUID (0x...)",
					   "its GUIDInfo index (1..255)"};
	uint64_t f[3];
	const char *p = ls;
	for (int i = 0; i < 3; i++) {
		p = skip_blank(p, le);
		const char *at = p;
		if (p == le || *p == '#' || !read_field(&p, le, i < 2, &f[i]) ||
		    (i < 2 && !f[i]) || (i == 2 && (f[i] < 1 || f[i] > 255))) {
			unsigned col = (unsigned)(at - ls) + 1;
			ibp_diags_add(diags, IBP_SEV_ERROR, "alias-map-syntax",
				      name, lineno, col, "expected %s",
				      what[i]);
			return ibp_error_set_at(err, IBP_EPARSE, name, lineno,
						col, "expected %s", what[i]);
		}
	}
	p = skip_blank(p, le);
	if (p < le && *p != '#') {
		unsigned col = (unsigned)(p - ls) + 1;
		ibp_diags_add(diags, IBP_SEV_ERROR, "alias-map-syntax", name,
			      lineno, col,
			      "text after the GUIDInfo index (a line is "
			      "ALIAS-GUID PORT-GUID INDEX)");
		return ibp_error_set_at(err, IBP_EPARSE, name, lineno, col,
					"text after the GUIDInfo index");
	}
	struct ibp_alias a = {f[0], f[1], (unsigned)f[2]};
	int rc = ibp_alias_map_add(m, &a);
	if (rc == IBP_ENOMEM)
		return ibp_error_set(err, rc, "out of memory");
	if (rc == IBP_EBUSY) {
		const struct ibp_alias *h =
		    ibp_alias_map_slot(m, a.port_guid, a.index);
		ibp_diags_add(diags, IBP_SEV_ERROR, "alias-map-duplicate", name,
			      lineno, 1,
			      "GUIDInfo index %u of port 0x%016" PRIx64
			      " already holds alias 0x%016" PRIx64
			      " (an index holds one GUID)",
			      a.index, a.port_guid, h ? h->alias : 0);
		return ibp_error_set_at(
		    err, IBP_EPARSE, name, lineno, 1,
		    "GUIDInfo index %u of port 0x%016" PRIx64
		    " already holds alias 0x%016" PRIx64
		    " (an index holds one GUID)",
		    a.index, a.port_guid, h ? h->alias : 0);
	}
	if (rc) {
		const char *why = rc == IBP_ERANGE
				      ? "is given twice"
				      : "is its own physical port's GUID";
		ibp_diags_add(diags, IBP_SEV_ERROR, "alias-map-duplicate", name,
			      lineno, 1, "alias GUID 0x%016" PRIx64 " %s",
			      a.alias, why);
		return ibp_error_set_at(err, IBP_EPARSE, name, lineno, 1,
					"alias GUID 0x%016" PRIx64 " %s",
					a.alias, why);
	}
	return IBP_OK;
}

int ibp_alias_map_load_buffer(const char *name, const char *text, size_t len,
			      ibp_alias_map **out, ibp_diags *diags,
			      ibp_error *err)
{
	*out = NULL;
	ibp_alias_map *m = ibp_alias_map_new();
	if (!m)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_diags_set_source(diags, name, text, len);
	unsigned lineno = 0;
	int rc = IBP_OK;
	const char *end = text + len;
	for (const char *ls = text; ls < end && !rc;) {
		const char *le = memchr(ls, '\n', (size_t)(end - ls));
		if (!le)
			le = end;
		const char *next = le < end ? le + 1 : end;
		lineno++;
		const char *p = skip_blank(ls, le);
		if (p < le && *p != '#')
			rc = read_line(m, name, lineno, ls, le, diags, err);
		ls = next;
	}
	if (rc) {
		ibp_alias_map_free(m);
		return rc;
	}
	*out = m;
	return IBP_OK;
}

int ibp_alias_map_load(const char *path, size_t max, ibp_alias_map **out,
		       ibp_diags *diags, ibp_error *err)
{
	char *text;
	size_t len;
	*out = NULL;
	int rc = ibp_file_read_all(
	    path, max ? max : IBP_SMALL_INPUT_MAX_DEFAULT, &text, &len, err);
	if (rc) {
		ibp_diags_add(diags, IBP_SEV_ERROR,
			      rc == IBP_ERANGE ? "too-large" : "io", path, 0, 0,
			      "alias map: %s",
			      err ? err->message : "unreadable");
		return rc;
	}
	rc = ibp_alias_map_load_buffer(path, text, len, out, diags, err);
	free(text);
	return rc;
}

int ibp_alias_map_write(const ibp_alias_map *m, const ibp_fabric *f, FILE *out)
{
	fprintf(out, "# ibpart alias GUIDs (docs/virtual-functions.md): "
		     "ALIAS-GUID PORT-GUID GUIDINFO-INDEX\n");
	for (size_t i = 0; i < ibp_alias_map_count(m); i++) {
		const struct ibp_alias *a = &m->v[i];
		size_t n;
		unsigned p;
		fprintf(out, "0x%016" PRIx64 " 0x%016" PRIx64 " %u", a->alias,
			a->port_guid, a->index);
		if (f && !ibp_fabric_find_port_guid(f, a->port_guid, &n, &p))
			fprintf(out, "\t# %s port %u",
				ibp_fabric_node_desc(f, n), p);
		fputc('\n', out);
	}
	return fflush(out) || ferror(out) ? IBP_EIO : IBP_OK;
}

const char *ibp_guid_kind_str(ibp_guid_kind k)
{
	switch (k) {
	case IBP_GUID_PORT:
		return "port";
	case IBP_GUID_ALIAS:
		return "alias";
	case IBP_GUID_NODE:
		return "node-guid";
	case IBP_GUID_UNKNOWN:
		break;
	}
	return "unknown";
}

ibp_guid_kind ibp_guid_classify(const ibp_fabric *f, const ibp_alias_map *m,
				uint64_t guid, struct ibp_guid_class *c)
{
	struct ibp_guid_class x = {.kind = IBP_GUID_UNKNOWN};
	size_t n;
	unsigned p;
	const struct ibp_alias *a;
	if (f && guid && !ibp_fabric_find_port_guid(f, guid, &n, &p)) {
		x = (struct ibp_guid_class){IBP_GUID_PORT, n, p, guid, 0};
	} else if (f && (a = ibp_alias_map_find(m, guid)) &&
		   !ibp_fabric_find_port_guid(f, a->port_guid, &n, &p)) {
		x = (struct ibp_guid_class){IBP_GUID_ALIAS, n, p, a->port_guid,
					    a->index};
	} else if (f && guid && !ibp_fabric_find_node_guid(f, guid, &n)) {
		x.kind = IBP_GUID_NODE;
		x.node = n;
	}
	if (c)
		*c = x;
	return x.kind;
}

void ibp_guid_list_describe(const ibp_fabric *f, const ibp_alias_map *m,
			    const uint64_t *g, size_t n, size_t shown,
			    char *buf, size_t size)
{
	size_t len = 0;
	if (size)
		buf[0] = 0;
	for (size_t i = 0; i < n && i < shown && len < size; i++) {
		struct ibp_guid_class c;
		if (ibp_guid_classify(f, m, g[i], &c) == IBP_GUID_ALIAS)
			len += (size_t)snprintf(
			    buf + len, size - len,
			    "%s0x%016" PRIx64 " (VF %u of %s port %u)",
			    i ? ", " : "", g[i], c.index,
			    ibp_fabric_node_desc(f, c.node), c.port);
		else
			len += (size_t)snprintf(buf + len, size - len,
						"%s0x%016" PRIx64,
						i ? ", " : "", g[i]);
	}
	if (n > shown && len < size)
		snprintf(buf + len, size - len, ", ...");
}
