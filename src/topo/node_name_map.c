/*
 * node_name_map.c - rdma-core's node-name-map (see
 * src/topo/node_name_map.h): GUID -> readable node name, used by
 * the topology reader to rename nodes the way ibnetdiscover
 * --node-name-map does.  Names are kept in one array, found through the
 * model's 64-bit hash table.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/file_read.h"
#include "topo/node_name_map.h"
#include "topo/topo_priv.h"
#include "util/diag_lib.h"

struct ibp_node_name_map {
	struct topo_map64 index; /* GUID -> names[] */
	char **names;
	size_t n, cap;
};

void ibp_node_name_map_free(ibp_node_name_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->names[i]);
	free(m->names);
	topo_map64_free(&m->index);
	free(m);
}

size_t ibp_node_name_map_count(const ibp_node_name_map *m)
{
	return m ? m->index.n : 0;
}

const char *ibp_node_name_map_lookup(const ibp_node_name_map *m, uint64_t guid)
{
	if (!m)
		return NULL;
	uint32_t i = topo_map64_get(&m->index, guid);
	return i == TOPO_NONE ? NULL : m->names[i];
}

static int add_name(ibp_node_name_map *m, uint64_t guid, const char *s,
		    size_t len, bool *replaced)
{
	char *name = strndup(s, len);
	if (!name)
		return IBP_ENOMEM;
	uint32_t old;
	*replaced = false;
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		char **p = realloc(m->names, cap * sizeof(*p));
		if (!p) {
			free(name);
			return IBP_ENOMEM;
		}
		m->names = p;
		m->cap = cap;
	}
	int rc = topo_map64_put(&m->index, guid, (uint32_t)m->n, &old);
	if (rc < 0) {
		free(name);
		return rc;
	}
	if (rc > 0) { /* the last name wins */
		free(m->names[old]);
		m->names[old] = name;
		*replaced = true;
		return IBP_OK;
	}
	m->names[m->n++] = name;
	return IBP_OK;
}

int ibp_node_name_map_load_buffer(const char *file, const char *text,
				  size_t len, ibp_node_name_map **out,
				  ibp_diags *diags)
{
	*out = NULL;
	ibp_node_name_map *m = calloc(1, sizeof(*m));
	if (!m)
		return IBP_ENOMEM;
	ibp_diags_set_source(diags, file, text, len);
	unsigned errors = 0, lineno = 0;
	const char *end = text + len;
	for (const char *ls = text; ls < end;) {
		const char *le = memchr(ls, '\n', (size_t)(end - ls));
		if (!le)
			le = end;
		const char *next = le < end ? le + 1 : end;
		lineno++;
		/* rdma-core's reader sees a line as a C string: a NUL ends
		 * it there; say so rather than cut a name silently */
		const char *nul = memchr(ls, 0, (size_t)(le - ls));
		if (nul) {
			ibp_diags_add(diags, IBP_SEV_WARNING, "nul-byte", file,
				      lineno, (unsigned)(nul - ls) + 1,
				      "NUL byte: rdma-core reads the line only "
				      "up to it, and so does ibpart");
			le = nul;
		}
		if (le > ls && le[-1] == '\r')
			le--;
		const char *p = ls;
		while (p < le && isspace((unsigned char)*p))
			p++;
		if (p == le || *p == '#') {
			ls = next;
			continue;
		}
		/* the GUID */
		const char *g = p;
		uint64_t guid = 0;
		bool ok = p < le && isxdigit((unsigned char)*p);
		if (ok) {
			char buf[32];
			size_t n = 0;
			while (p < le && !isspace((unsigned char)*p) &&
			       n < sizeof(buf) - 1)
				buf[n++] = *p++;
			buf[n] = 0;
			char *e;
			errno = 0;
			guid = strtoull(buf, &e, 0);
			ok = !errno && *e == 0 && buf[0] != '-';
		}
		if (!ok || p == le || !isspace((unsigned char)*p)) {
			ibp_diags_add(diags, IBP_SEV_ERROR, "bad-guid", file,
				      lineno, (unsigned)(g - ls) + 1,
				      "expected a node GUID and a name");
			errors++;
			ls = next;
			continue;
		}
		while (p < le && isspace((unsigned char)*p))
			p++;
		const char *ns = p, *ne;
		if (p < le && *p == '"') {
			ns = ++p;
			ne = memchr(p, '"', (size_t)(le - p));
			if (!ne) {
				ibp_diags_add(diags, IBP_SEV_ERROR,
					      "unterminated-string", file,
					      lineno, (unsigned)(ns - ls),
					      "missing closing '\"'");
				errors++;
				ls = next;
				continue;
			}
		} else {
			ne = p < le ? memchr(p, '#', (size_t)(le - p)) : NULL;
			if (!ne)
				ne = le;
			while (ne > ns && isspace((unsigned char)ne[-1]))
				ne--;
		}
		if (ne == ns) {
			ibp_diags_add(diags, IBP_SEV_ERROR, "missing-name",
				      file, lineno, (unsigned)(ns - ls) + 1,
				      "no name for GUID 0x%016" PRIx64, guid);
			errors++;
			ls = next;
			continue;
		}
		/* After a quoted name, rdma-core ignores the rest of the
		 * line; say so rather than cut silently ("a\"b" x reads as
		 * `a\`: there is no escape syntax). */
		if (ns > ls && ns[-1] == '"') {
			const char *t = ne + 1;
			while (t < le && isspace((unsigned char)*t))
				t++;
			if (t < le && *t != '#')
				ibp_diags_add(
				    diags, IBP_SEV_WARNING, "ignored-text",
				    file, lineno, (unsigned)(t - ls) + 1,
				    "text after the quoted name is ignored, as "
				    "rdma-core ignores it (the name is '%.*s'; "
				    "a backslash does not escape a quote)",
				    (int)(ne - ns), ns);
		}
		bool replaced;
		if (add_name(m, guid, ns, (size_t)(ne - ns), &replaced)) {
			ibp_node_name_map_free(m);
			return IBP_ENOMEM;
		}
		if (replaced)
			ibp_diags_add(diags, IBP_SEV_WARNING, "duplicate-guid",
				      file, lineno, (unsigned)(g - ls) + 1,
				      "GUID 0x%016" PRIx64
				      " is mapped again; the last name wins",
				      guid);
		ls = next;
	}
	if (errors) {
		ibp_node_name_map_free(m);
		return IBP_EPARSE;
	}
	*out = m;
	return IBP_OK;
}

int ibp_node_name_map_load(const char *path, ibp_node_name_map **out,
			   ibp_diags *diags)
{
	return ibp_node_name_map_load_limit(path, 0, out, diags);
}

int ibp_node_name_map_load_limit(const char *path, size_t max_input_size,
				 ibp_node_name_map **out, ibp_diags *diags)
{
	char *text;
	size_t len;
	*out = NULL;
	ibp_error e;
	int rc = ibp_file_read_all(
	    path, max_input_size ? max_input_size : IBP_SMALL_INPUT_MAX_DEFAULT,
	    &text, &len, &e);
	if (rc == IBP_ERANGE) {
		ibp_diags_add(diags, IBP_SEV_ERROR, "too-large", path, 0, 0,
			      "node-name-map %s", e.message);
		return IBP_ERANGE;
	}
	if (rc) {
		ibp_diags_add(diags, IBP_SEV_ERROR, "io", path, 0, 0,
			      "cannot read node-name-map: %s", strerror(errno));
		return IBP_EIO;
	}
	rc = ibp_node_name_map_load_buffer(path, text, len, out, diags);
	free(text);
	return rc;
}
