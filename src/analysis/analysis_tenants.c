/*
 * analysis_tenants.c - the map from end ports to tenants that the audit's
 * cross-tenant rules use when the operator gives one (--tenants FILE);
 * without it a tenant is a partition.
 *
 * File format (docs/audit.md): one tenant per line,
 *     NAME: PORT PORT …
 * '#' starts a comment, a line may continue on the next one by ending in
 * '\'; a PORT is anything ibp_fabric_resolve_port() takes (port GUID,
 * node GUID, node description, file id, NAME/PORT for a dual-port CA,
 * LID) and is quoted "…" when it holds blanks.  A tenant may appear on
 * several lines; a port in two tenants is an error.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/file_read.h"
#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"
#include "util/diag_lib.h"
#include "topo/topo_lib.h"
#include "util/error_lib.h"

struct ibp_tenant_map {
	const ibp_fabric *f;
	size_t nnodes;
	int **by_node; /* [node][port] tenant index, -1 unmapped */
	size_t n, cap;
	char **names;
};

ibp_tenant_map *ibp_tenant_map_new(const ibp_fabric *f)
{
	ibp_tenant_map *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->f = f;
	t->nnodes = ibp_fabric_node_count(f);
	t->by_node = calloc(t->nnodes ? t->nnodes : 1, sizeof(*t->by_node));
	if (!t->by_node) {
		free(t);
		return NULL;
	}
	return t;
}

void ibp_tenant_map_free(ibp_tenant_map *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nnodes; i++)
		free(t->by_node[i]);
	free(t->by_node);
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t);
}

static int tenant_index(ibp_tenant_map *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->names[i], name))
			return (int)i;
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 8;
		char **v = realloc(t->names, nc * sizeof(*v));
		if (!v)
			return IBP_ENOMEM;
		t->names = v;
		t->cap = nc;
	}
	t->names[t->n] = strdup(name);
	if (!t->names[t->n])
		return IBP_ENOMEM;
	return (int)t->n++;
}

int ibp_tenant_map_set(ibp_tenant_map *t, size_t node, unsigned port,
		       const char *name, ibp_error *err)
{
	if (node >= t->nnodes || port > ibp_fabric_node_nports(t->f, node))
		return ibp_error_set(err, IBP_ERANGE, "no port %u on node %zu",
				     port, node);
	int ti = tenant_index(t, name);
	if (ti < 0)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!t->by_node[node]) {
		unsigned np = ibp_fabric_node_nports(t->f, node);
		t->by_node[node] = malloc((np + 1) * sizeof(int));
		if (!t->by_node[node])
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		for (unsigned p = 0; p <= np; p++)
			t->by_node[node][p] = -1;
	}
	int old = t->by_node[node][port];
	if (old >= 0 && old != ti)
		return ibp_error_set(
		    err, IBP_EINVAL,
		    "port 0x%016llx of %s is already in tenant %s",
		    (unsigned long long)ibp_fabric_port_guid(t->f, node, port),
		    ibp_fabric_node_desc(t->f, node), t->names[old]);
	t->by_node[node][port] = ti;
	return 0;
}

int ibp_tenant_map_get(const ibp_tenant_map *t, size_t node, unsigned port)
{
	if (!t || node >= t->nnodes || !t->by_node[node] ||
	    port > ibp_fabric_node_nports(t->f, node))
		return -1;
	return t->by_node[node][port];
}

size_t ibp_tenant_map_count(const ibp_tenant_map *t)
{
	return t ? t->n : 0;
}

const char *ibp_tenant_map_name(const ibp_tenant_map *t, size_t tenant)
{
	return t && tenant < t->n ? t->names[tenant] : "";
}

/* One problem: the first goes to err, every one to diags. */
static int problem(ibp_diags *d, ibp_error *err, int *first, const char *file,
		   unsigned line, unsigned col, const char *code,
		   const char *msg, const char *arg)
{
	if (d)
		ibp_diags_add(d, IBP_SEV_ERROR, code, file, line, col, "%s%s",
			      msg, arg);
	if (!*first) {
		ibp_error_set_at(err, IBP_EPARSE, file, line, col, "%s%s", msg,
				 arg);
		*first = 1;
	}
	return IBP_EPARSE;
}

int ibp_tenant_map_load_buffer(const ibp_fabric *f, const char *name,
			       const char *text, size_t len,
			       ibp_tenant_map **out, ibp_diags *diags,
			       ibp_error *err)
{
	*out = NULL;
	ibp_tenant_map *t = ibp_tenant_map_new(f);
	if (!t)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (diags)
		ibp_diags_set_source(diags, name, text, len);
	int rc = 0, first = 0;
	unsigned line = 1;
	size_t i = 0;
	char tenant[512] = "";
	bool cont = false; /* the previous line ended in '\' */
	char tok[512];
	while (i < len) {
		size_t ls = i;
		while (i < len && text[i] != '\n')
			i++;
		size_t le = i; /* [ls, le) is the line */
		if (i < len)
			i++;
		size_t p = ls;
		bool have_tenant = cont;
		cont = false;
		while (p < le) {
			while (p < le && (text[p] == ' ' || text[p] == '\t' ||
					  text[p] == '\r'))
				p++;
			if (p >= le || text[p] == '#')
				break;
			unsigned col = (unsigned)(p - ls + 1);
			if (text[p] == '\\' &&
			    (p + 1 == le ||
			     (p + 2 == le && text[p + 1] == '\r'))) {
				cont = true;
				break;
			}
			size_t n = 0;
			bool quoted = text[p] == '"';
			if (quoted) {
				p++;
				while (p < le && text[p] != '"' &&
				       n < sizeof(tok) - 1)
					tok[n++] = text[p++];
				if (p >= le) {
					rc = problem(diags, err, &first, name,
						     line, col,
						     "unterminated-quote",
						     "unterminated quote", "");
					break;
				}
				p++;
			} else {
				while (p < le && text[p] != ' ' &&
				       text[p] != '\t' && text[p] != '\r' &&
				       text[p] != '#' && n < sizeof(tok) - 1)
					tok[n++] = text[p++];
			}
			tok[n] = 0;
			if (!have_tenant) {
				if (!quoted && n > 1 && tok[n - 1] == ':') {
					tok[n - 1] = 0;
				} else {
					/* NAME then ':' as its own token */
					while (p < le && (text[p] == ' ' ||
							  text[p] == '\t'))
						p++;
					if (p >= le || text[p] != ':') {
						rc = problem(
						    diags, err, &first, name,
						    line, col, "missing-colon",
						    "expected 'TENANT: PORT "
						    "…', no ':' after ",
						    tok);
						break;
					}
					p++;
				}
				if (!tok[0]) {
					rc = problem(diags, err, &first, name,
						     line, col, "empty-tenant",
						     "empty tenant name", "");
					break;
				}
				snprintf(tenant, sizeof(tenant), "%s", tok);
				have_tenant = true;
				continue;
			}
			size_t node;
			unsigned port;
			ibp_error e;
			int r =
			    ibp_fabric_resolve_port(f, tok, &node, &port, &e);
			if (r == IBP_ENOENT) {
				rc = problem(
				    diags, err, &first, name, line, col,
				    "unknown-port",
				    "no such port in the topology: ", tok);
				continue;
			}
			if (r) { /* a dual-port CA without "/port" */
				rc =
				    problem(diags, err, &first, name, line, col,
					    "ambiguous-port", e.message, "");
				continue;
			}
			if (ibp_tenant_map_set(t, node, port, tenant, &e)) {
				rc = problem(diags, err, &first, name, line,
					     col, "port-in-two-tenants",
					     e.message, "");
				continue;
			}
		}
		if (cont && !have_tenant)
			cont = false;
		line++;
	}
	if (rc) {
		ibp_tenant_map_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int ibp_tenant_map_load(const ibp_fabric *f, const char *path,
			ibp_tenant_map **out, ibp_diags *diags, ibp_error *err)
{
	return ibp_tenant_map_load_limit(f, path, 0, out, diags, err);
}

int ibp_tenant_map_load_limit(const ibp_fabric *f, const char *path,
			      size_t max_input_size, ibp_tenant_map **out,
			      ibp_diags *diags, ibp_error *err)
{
	char *buf;
	size_t len;
	int rrc = ibp_file_read_all(
	    path, max_input_size ? max_input_size : IBP_SMALL_INPUT_MAX_DEFAULT,
	    &buf, &len, err);
	if (rrc)
		return rrc;
	int rc = ibp_tenant_map_load_buffer(f, path, buf, len, out, diags, err);
	free(buf);
	return rc;
}
