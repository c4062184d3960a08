/*
 * service_hosts.c - UFM's host-name P_Key calls, as the Slurm
 * integration (ufm_slurm_utils.py) makes them (docs/ufm-api.md 2.11):
 * POST /resources/pkeys/hosts {"hosts_names", "pkey", "ip_over_ib",
 * "index0"} and DELETE /resources/pkeys/{pkey}/hosts/{hosts}.  The hosts
 * are a Slurm host list ("node[01-04],gpu7"), each name the first word
 * of a CA's NodeDescription in the service's topology (Linux HCAs
 * describe themselves as "HOSTNAME mlx5_0"); a host stands for every
 * port of every CA it names.  The change itself is UFM's add or remove
 * of those port GUIDs (service.c), so it is checked, guarded and
 * recorded as any other.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "service/service_internal.h"
#include "service/service_lib.h"

#define HOSTS_MAX 65536 /* names one host list may expand to */

struct names {
	size_t n;
	char **v;
};

static void names_free(struct names *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->v[i]);
	free(h->v);
	*h = (struct names){0};
}

static int names_add(struct names *h, const char *s, size_t len,
		     struct ibp_service_error *e)
{
	if (h->n >= HOSTS_MAX)
		return svc_fail(e, IBP_EINVAL, "hosts_names",
				"hosts_names: more than %d hosts", HOSTS_MAX);
	char **v = realloc(h->v, (h->n + 1) * sizeof(*v));
	char *c = v ? strndup(s, len) : NULL;
	if (!c) {
		if (v)
			h->v = v;
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	h->v = v;
	h->v[h->n++] = c;
	return IBP_OK;
}

static int bad_list(struct ibp_service_error *e, const char *item)
{
	return svc_fail(e, IBP_EINVAL, "hosts_names",
			"hosts_names: '%.80s' is not a Slurm host list "
			"(name, name[01-04,07], comma-separated)",
			item);
}

/* Expand one item (no top-level comma): its first [ranges] into each
 * name, the rest recursively. */
static int expand(const char *item, struct names *out,
		  struct ibp_service_error *e)
{
	const char *open = strchr(item, '[');
	if (!open)
		return *item ? names_add(out, item, strlen(item), e)
			     : bad_list(e, item);
	const char *close = strchr(open, ']');
	if (!close || close == open + 1)
		return bad_list(e, item);
	size_t plen = (size_t)(open - item);
	char *ranges = strndup(open + 1, (size_t)(close - open - 1));
	if (!ranges)
		return svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	int rc = IBP_OK;
	char *save = NULL;
	for (char *r = strtok_r(ranges, ",", &save); !rc && r;
	     r = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(r, '-'), *end;
		size_t width = dash ? (size_t)(dash - r) : strlen(r);
		unsigned long lo = strtoul(r, &end, 10), hi = lo;
		if (end != r + width || !width || width > 9)
			rc = bad_list(e, item);
		else if (dash && ((hi = strtoul(dash + 1, &end, 10)) < lo ||
				  *end || !dash[1] || hi - lo >= HOSTS_MAX))
			rc = bad_list(e, item);
		for (unsigned long k = lo; !rc && k <= hi; k++) {
			char *name = NULL;
			if (asprintf(&name, "%.*s%0*lu%s", (int)plen, item,
				     (int)width, k, close + 1) < 0)
				rc = svc_fail(e, IBP_ENOMEM, NULL,
					      "out of memory");
			else
				rc = expand(name, out, e);
			free(name);
		}
	}
	free(ranges);
	return rc;
}

/* A Slurm host list into names. */
static int hostlist(const char *list, struct names *out,
		    struct ibp_service_error *e)
{
	int rc = IBP_OK;
	int depth = 0;
	const char *start = list;
	for (const char *c = list;; c++) {
		if (*c == '[')
			depth++;
		else if (*c == ']')
			depth--;
		if ((*c == ',' && !depth) || !*c) {
			char *item = strndup(start, (size_t)(c - start));
			rc = !item ? svc_fail(e, IBP_ENOMEM, NULL,
					      "out of memory")
				   : expand(item, out, e);
			free(item);
			if (rc || !*c)
				break;
			start = c + 1;
		}
	}
	if (!rc && !out->n)
		rc = svc_fail(e, IBP_EINVAL, "hosts_names",
			      "hosts_names: no host");
	return rc;
}

/* The CAs of a fabric by NodeDescription (strcmp order), so that each
 * host of a list of tens of thousands is found by a binary search, not a
 * walk of every node: a host names the CAs whose description is it, or
 * starts with it and a blank. */
struct ca {
	const char *desc;
	size_t node;
};

static int by_desc(const void *a, const void *b)
{
	const struct ca *x = a, *y = b;
	int c = strcmp(x->desc, y->desc);
	return c ? c : (x->node > y->node) - (x->node < y->node);
}

static int by_node(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* f's CAs into *v (malloc'd, sorted), their count into *n. */
static int index_cas(const ibp_fabric *f, struct ca **v, size_t *n)
{
	size_t nn = ibp_fabric_node_count(f);
	*n = 0;
	if (!(*v = malloc((nn + 1) * sizeof(**v))))
		return IBP_ENOMEM;
	for (size_t i = 0; i < nn; i++)
		if (ibp_fabric_node_type(f, i) == IBP_NODE_CA &&
		    ibp_fabric_node_desc(f, i))
			(*v)[(*n)++] =
			    (struct ca){ibp_fabric_node_desc(f, i), i};
	qsort(*v, *n, sizeof(**v), by_desc);
	return IBP_OK;
}

/* The nodes of the CAs on host into out[] (room for n), in node order:
 * the descriptions that start with host are one run of the index. */
static size_t cas_of_host(const struct ca *v, size_t n, const char *host,
			  size_t *out)
{
	size_t len = strlen(host), lo = 0, hi = n, k = 0;
	while (lo < hi) { /* the first description >= host */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].desc, host) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && !strncmp(v[lo].desc, host, len); lo++) {
		char end = v[lo].desc[len];
		if (end == 0 || end == ' ' || end == '\t')
			out[k++] = v[lo].node;
	}
	qsort(out, k, sizeof(*out), by_node);
	return k;
}

/* The port GUIDs of the hosts in list, comma-separated (*csv malloc'd,
 * as the DELETE .../guids/{csv} path takes them); the hosts no CA of the
 * topology is on appended to *unknown (a JSON array made here), as long
 * as one host is known: a Slurm job list with a host the fabric lacks
 * still gives the others their partition, as UFM's host resolution
 * must. */
static int hosts_guids(ibp_service *s, const char *list, char **csv,
		       json_t **unknown, struct ibp_service_error *e)
{
	*csv = NULL;
	*unknown = json_array();
	if (!s->topology_path)
		return svc_fail(e, IBP_EINVAL, "hosts_names",
				"hosts_names: host names need the fabric: "
				"ibpartd was started without --topology");
	struct names h = {0};
	struct svc_topology *t = NULL;
	int rc = hostlist(list, &h, e);
	ibp_error te;
	if (!rc && (rc = svc_topology_get(s, &t, &te)))
		svc_fail(e, IBP_EIO, NULL, "%s", te.message);
	const ibp_fabric *f = t ? svc_topology_fabric(t) : NULL;
	size_t len = 0, nguids = 0;
	struct ca *ix = NULL;
	size_t nix = 0, *cas = NULL;
	FILE *out = rc ? NULL : open_memstream(csv, &len);
	if (!rc && (!out || index_cas(f, &ix, &nix) ||
		    !(cas = malloc((nix + 1) * sizeof(*cas)))))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; !rc && i < h.n; i++) {
		bool found = false;
		size_t k = cas_of_host(ix, nix, h.v[i], cas);
		for (size_t c = 0; c < k; c++) {
			size_t n = cas[c];
			for (unsigned p = 1; p <= ibp_fabric_node_nports(f, n);
			     p++) {
				uint64_t g = ibp_fabric_port_guid(f, n, p);
				if (g)
					fprintf(out, "%s%016" PRIx64,
						nguids++ ? "," : "", g);
				found = found || g;
			}
		}
		if (!found &&
		    json_array_append_new(*unknown, json_string(h.v[i])))
			rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	if (!rc && !nguids)
		rc = svc_fail(e, IBP_EINVAL, "hosts_names",
			      "hosts_names: %.80s%s: no CA of the topology "
			      "is on %s (the first word of its "
			      "NodeDescription)",
			      h.n ? h.v[0] : "", h.n > 1 ? ", ..." : "",
			      h.n > 1 ? "any of these hosts" : "this host");
	if (out && fclose(out) && !rc)
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	if (rc) {
		free(*csv);
		*csv = NULL;
		json_decref(*unknown);
		*unknown = NULL;
	}
	free(cas);
	free(ix);
	if (t)
		svc_topology_put(s, t);
	names_free(&h);
	return rc;
}

/* The hosts left out, as a warning of the caller's (c may be NULL). */
static int warn_unknown(struct ibp_service_caller *c, json_t *unknown)
{
	size_t n = json_array_size(unknown);
	if (!n) {
		json_decref(unknown);
		return IBP_OK;
	}
	json_t *w = json_pack(
	    "[{s:s, s:s, s:o, s:s+}]", "code", "unknown-host", "severity",
	    "medium", "hosts", unknown, "message",
	    n == 1 ? "a host of the list is not in the fabric (no CA's "
		     "NodeDescription starts with it)"
		   : "hosts of the list are not in the fabric (no CA's "
		     "NodeDescription starts with them)",
	    ": left out, the others changed");
	return w ? svc_caller_warn(c, w) : IBP_ENOMEM;
}

int ibp_service_add_hosts(ibp_service *s, const char *body, size_t len,
			  uint64_t *rev, struct ibp_service_error *e)
{
	return ibp_service_add_hosts_as(s, NULL, body, len, rev, e);
}

int ibp_service_add_hosts_as(ibp_service *s, struct ibp_service_caller *c,
			     const char *body, size_t len, uint64_t *rev,
			     struct ibp_service_error *e)
{
	if (svc_caller_check(c, e))
		return IBP_EINVAL;
	json_error_t je;
	json_t *o =
	    json_loadb(body ? body : "", len, JSON_REJECT_DUPLICATES, &je);
	if (!json_is_object(o)) {
		json_decref(o);
		return svc_fail(e, IBP_EINVAL, "body",
				"malformed JSON: %s (line %d column %d)",
				o ? "not an object" : je.text, je.line,
				je.column);
	}
	static const char *const known[] = {"hosts_names", "pkey", "ip_over_ib",
					    "index0", "membership"};
	const char *key;
	json_t *v;
	int rc = IBP_OK;
	json_object_foreach(o, key, v)
	{
		bool ok = false;
		for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
			ok = ok || !strcmp(key, known[i]);
		if (!ok && !rc)
			rc = svc_fail(e, IBP_EINVAL, key,
				      "%.60s: unknown field", key);
	}
	const char *list = json_string_value(json_object_get(o, "hosts_names"));
	if (!rc && !list)
		rc = svc_fail(e, IBP_EINVAL, "hosts_names",
			      "hosts_names: a Slurm host list string is "
			      "needed");
	char *csv = NULL;
	json_t *unknown = NULL;
	if (!rc)
		rc = hosts_guids(s, list, &csv, &unknown, e);
	char *add = NULL;
	if (!rc) {
		/* UFM's add of those GUIDs: the rest of the body as sent */
		json_t *g = json_array();
		char *save = NULL;
		for (char *t = strtok_r(csv, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			json_array_append_new(g, json_string(t));
		json_object_del(o, "hosts_names");
		json_object_set_new(o, "guids", g);
		add = json_dumps(o, JSON_COMPACT);
		if (!add)
			rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	}
	/* the hosts left out first: the revision's warnings hold them */
	if (!rc && warn_unknown(c, unknown))
		rc = svc_fail(e, IBP_ENOMEM, NULL, "out of memory");
	else if (rc)
		json_decref(unknown);
	if (!rc)
		rc = ibp_service_change_as(s, c, IBP_SERVICE_ADD_GUIDS, add,
					   strlen(add), rev, e);
	free(add);
	free(csv);
	json_decref(o);
	return rc;
}

int ibp_service_remove_hosts(ibp_service *s, const char *pkey,
			     const char *hosts, uint64_t *rev,
			     struct ibp_service_error *e)
{
	char *csv = NULL;
	json_t *unknown = NULL;
	int rc = hosts_guids(s, hosts, &csv, &unknown, e);
	if (!rc)
		rc = ibp_service_remove_guids_csv(s, pkey, csv, rev, e);
	json_decref(unknown); /* nothing to remove from them */
	free(csv);
	return rc;
}
