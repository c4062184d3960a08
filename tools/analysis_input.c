/*
 * analysis_input.c - the inputs of `ibpart matrix` and `ibpart audit` (see
 * analysis_input.h): the fabric, the SM port, and the P_Key tables, either
 * read from `ibpart tables --format json` output (--tables FILE: tables
 * predicted, simulated or read live) or computed from a partitions.conf.
 *
 * Computing tables from a plan is the policy module's job; until it is in
 * the tree this file derives each end port's membership from the conf
 * module's OpenSM 3.3.23 reading (ibp_conf_group_port_membership), which
 * is all the matrix and audit look at: which bases, full or limited.
 *   opensm: OpenSM's result, including its fail-open to ALL=full when it
 *           rejects the file, and the implicit default partition (every
 *           end port limited, the SM port full);
 *   strict: the seed's model: 0x7fff holds only the SM port (full) and the
 *           ports the plan names in the default partition.
 * Entries go in index order default first, then groups in file order; a
 * port whose table is too small keeps what fits (reported by the audit).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "analysis_input.h"
#include "cli.h"
#include "ibpart/pkey.h"

int ai_parse_opt(const char *cmd, int argc, char **argv, int *i,
		 struct ai_opts *o)
{
	const char *a = argv[*i];
	const char **slot = NULL;
	if (!strcmp(a, "-t") || !strcmp(a, "--topology"))
		slot = &o->topo;
	else if (!strcmp(a, "--node-name-map"))
		slot = &o->node_name_map;
	else if (!strcmp(a, "--sm-port"))
		slot = &o->sm_port;
	else if (!strcmp(a, "--mode"))
		slot = &o->mode;
	else if (!strcmp(a, "--tables"))
		slot = &o->tables_json;
	else
		return 0;
	if (*i + 1 >= argc) {
		cli_usage_error(cmd, "%s needs a value", a);
		return -1;
	}
	*slot = argv[++*i];
	if (slot == &o->mode && strcmp(o->mode, "opensm") &&
	    strcmp(o->mode, "strict")) {
		cli_usage_error(cmd, "--mode is opensm or strict, not '%s'",
				o->mode);
		return -1;
	}
	return 1;
}

static bool port_of_interest(const ibp_fabric *f, size_t n, unsigned p)
{
	if (!ibp_fabric_is_end_port(f, n, p))
		return false;
	if (ibp_fabric_node_type(f, n) == IBP_NODE_SWITCH)
		return true;
	size_t pn;
	unsigned pp;
	return ibp_fabric_port_peer(f, n, p, &pn, &pp);
}

/* Membership in the default partition under strict mode: the SM port
 * full, then the plan's own Default lines, last one naming the port wins
 * (no implicit "every port limited"). */
static ibp_membership strict_default(const ibp_conf_group *g, uint64_t guid,
				     ibp_node_type type, uint64_t sm_guid)
{
	ibp_membership m = guid == sm_guid ? IBP_MEMB_FULL : IBP_MEMB_NONE;
	if (!g)
		return m;
	for (size_t i = 0; i < ibp_conf_group_partition_count(g); i++) {
		const ibp_conf_partition *p = ibp_conf_group_partition(g, i);
		for (size_t j = 0; j < ibp_conf_partition_member_count(p);
		     j++) {
			const ibp_conf_member *x =
			    ibp_conf_partition_member(p, j);
			bool hit = false;
			switch (x->kind) {
			case IBP_MEMBER_GUID:
			case IBP_MEMBER_NAME:
				hit = x->guid == guid;
				break;
			case IBP_MEMBER_ALL:
				hit = true;
				break;
			case IBP_MEMBER_ALL_CAS:
				hit = type == IBP_NODE_CA;
				break;
			case IBP_MEMBER_ALL_SWITCHES:
				hit = type == IBP_NODE_SWITCH;
				break;
			case IBP_MEMBER_ALL_ROUTERS:
				hit = type == IBP_NODE_ROUTER;
				break;
			case IBP_MEMBER_SELF:
				hit = guid == sm_guid;
				break;
			case IBP_MEMBER_NONE:
				break;
			}
			if (hit)
				m = x->membership;
		}
	}
	return m;
}

static int note_overflow(struct ai_input *in, uint64_t guid, unsigned cap,
			 const uint16_t *keys, unsigned nkeys)
{
	struct ai_overflow *v =
	    realloc(in->overflow, (in->noverflow + 1) * sizeof(*v));
	if (!v)
		return CLI_EXIT_SYSTEM;
	in->overflow = v;
	struct ai_overflow *o = &v[in->noverflow++];
	o->guid = guid;
	o->capacity = cap;
	o->wanted = nkeys;
	o->ndropped = 0;
	for (unsigned i = cap; i < nkeys && o->ndropped < 16; i++)
		o->dropped[o->ndropped++] = keys[i];
	return 0;
}

static int tables_from_conf(struct ai_input *in, bool strict)
{
	const ibp_fabric *f = in->fabric;
	const ibp_conf *c = in->conf;
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(c);
	uint64_t sm_guid = ibp_fabric_port_guid(f, in->sm_node, in->sm_port);
	const ibp_conf_group *dg = ibp_conf_group_find(c, 0x7fff);
	size_t ng = ibp_conf_group_count(c);
	uint16_t *keys = malloc((ng + 2) * sizeof(*keys));
	if (!keys)
		return CLI_EXIT_SYSTEM;
	in->tables = ibp_tables_new(f);
	if (!in->tables) {
		free(keys);
		return CLI_EXIT_SYSTEM;
	}
	for (size_t n = 0; n < ibp_fabric_node_count(f); n++) {
		ibp_node_type type = ibp_fabric_node_type(f, n);
		for (unsigned p = 0; p <= ibp_fabric_node_nports(f, n); p++) {
			if (!port_of_interest(f, n, p))
				continue;
			uint64_t guid = ibp_fabric_port_guid(f, n, p);
			unsigned nk = 0;
			if (v->rejected && !strict) {
				keys[nk++] = 0xffff; /* OpenSM fails open */
			} else {
				ibp_membership m =
				    strict ? strict_default(dg, guid, type,
							    sm_guid)
				    : dg   ? ibp_conf_group_port_membership(
						 dg, guid, type, sm_guid, NULL)
				    : guid == sm_guid ? IBP_MEMB_FULL
						      : IBP_MEMB_LIMITED;
				if (m != IBP_MEMB_NONE)
					keys[nk++] = ibp_pkey_make(
					    0x7fff, m != IBP_MEMB_LIMITED);
				for (size_t g = 0; g < ng; g++) {
					const ibp_conf_group *gr =
					    ibp_conf_group_at(c, g);
					uint16_t pk = ibp_conf_group_pkey(gr);
					if (ibp_pkey_base(pk) == 0x7fff ||
					    !ibp_pkey_is_valid(pk))
						continue;
					m = ibp_conf_group_port_membership(
					    gr, guid, type, sm_guid, NULL);
					if (m == IBP_MEMB_NONE)
						continue;
					if (m == IBP_MEMB_BOTH) {
						keys[nk++] =
						    ibp_pkey_make(pk, false);
						m = IBP_MEMB_FULL;
					}
					keys[nk++] = ibp_pkey_make(
					    pk, m != IBP_MEMB_LIMITED);
				}
			}
			unsigned cap = ibp_fabric_port_capacity(f, n, p);
			ibp_pkey_table *t =
			    ibp_tables_get_or_create(in->tables, n, p);
			if (!t) {
				free(keys);
				return CLI_EXIT_SYSTEM;
			}
			for (unsigned i = 0; i < nk && i < cap; i++)
				ibp_pkey_table_set(t, i, keys[i], NULL);
			if (nk > cap &&
			    note_overflow(in, guid, cap, keys, nk)) {
				free(keys);
				return CLI_EXIT_SYSTEM;
			}
		}
	}
	free(keys);
	for (size_t g = 0; g < ng; g++) {
		const ibp_conf_group *gr = ibp_conf_group_at(c, g);
		uint16_t b = ibp_pkey_base(ibp_conf_group_pkey(gr));
		const char *name = ibp_conf_group_name(gr);
		if (b && name && *name && !in->names[b])
			in->names[b] = strdup(name);
	}
	return 0;
}

static int bad_tables(const char *path, const char *what)
{
	fprintf(stderr, "ibpart: %s: %s\n", path, what);
	return CLI_EXIT_USAGE;
}

static bool parse_hex64(const char *s, uint64_t *out)
{
	unsigned long long v;
	if (!s || !cli_parse_uint(s, 0, UINT64_MAX, &v))
		return false;
	*out = v;
	return true;
}

/* `ibpart tables --format json`: {"mode", "sm_port_guid", "ports": [...]} */
static int tables_from_json(struct ai_input *in, const char *path)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root) {
		fprintf(stderr, "ibpart: %s:%d:%d: error: %s\n", path, je.line,
			je.column, je.text);
		return CLI_EXIT_USAGE;
	}
	int rc = 0;
	json_t *ports = json_object_get(root, "ports");
	if (!json_is_array(ports)) {
		rc = bad_tables(path, "no \"ports\" array (is this "
				      "`ibpart tables --format json` output?)");
		goto out;
	}
	const char *mode = json_string_value(json_object_get(root, "mode"));
	if (mode)
		in->mode = strdup(mode);
	in->tables = ibp_tables_new(in->fabric);
	if (!in->tables) {
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	size_t i;
	json_t *p;
	json_array_foreach(ports, i, p)
	{
		uint64_t ng = 0, pg = 0;
		json_int_t pn = json_integer_value(json_object_get(p, "port"));
		parse_hex64(json_string_value(json_object_get(p, "node_guid")),
			    &ng);
		parse_hex64(json_string_value(json_object_get(p, "port_guid")),
			    &pg);
		size_t node;
		unsigned port;
		if (ng && !ibp_fabric_find_node_guid(in->fabric, ng, &node) &&
		    pn >= 0 &&
		    (unsigned)pn <= ibp_fabric_node_nports(in->fabric, node)) {
			port = (unsigned)pn;
		} else if (!pg || ibp_fabric_find_port_guid(in->fabric, pg,
							    &node, &port)) {
			char m[160];
			snprintf(m, sizeof(m),
				 "ports[%zu]: no such port in the topology "
				 "(node_guid 0x%016" PRIx64 ", port %lld)",
				 i, ng, (long long)pn);
			rc = bad_tables(path, m);
			goto out;
		}
		json_t *keys = json_object_get(p, "pkeys");
		json_int_t cap =
		    json_integer_value(json_object_get(p, "capacity"));
		size_t nk = json_array_size(keys);
		if (cap <= 0)
			cap = ibp_fabric_port_capacity(in->fabric, node, port);
		if ((size_t)cap < nk)
			cap = (json_int_t)nk;
		if (cap > IBP_PKEY_TABLE_MAX) {
			rc = bad_tables(path, "a capacity above 65535");
			goto out;
		}
		ibp_pkey_table *t = ibp_pkey_table_new(cap ? (unsigned)cap : 1);
		if (!t) {
			rc = CLI_EXIT_SYSTEM;
			goto out;
		}
		for (size_t k = 0; k < nk; k++) {
			uint16_t key;
			const char *s =
			    json_string_value(json_array_get(keys, k));
			if (!s || ibp_pkey_parse(s, &key, NULL)) {
				ibp_pkey_table_free(t);
				char m[96];
				snprintf(m, sizeof(m),
					 "ports[%zu].pkeys[%zu] is not a P_Key",
					 i, k);
				rc = bad_tables(path, m);
				goto out;
			}
			ibp_pkey_table_set(t, (unsigned)k, key, NULL);
		}
		if (ibp_tables_put(in->tables, node, port, t, NULL)) {
			ibp_pkey_table_free(t);
			rc = CLI_EXIT_SYSTEM;
			goto out;
		}
	}
	uint64_t sm = 0;
	if (parse_hex64(
		json_string_value(json_object_get(root, "sm_port_guid")),
		&sm) &&
	    sm) {
		size_t node;
		unsigned port;
		if (!ibp_fabric_find_port_guid(in->fabric, sm, &node, &port)) {
			in->sm_node = node;
			in->sm_port = port;
		}
	}
out:
	json_decref(root);
	return rc;
}

int ai_load(const char *cmd, const struct ai_opts *o, struct ai_input *in)
{
	memset(in, 0, sizeof(*in));
	if (!o->topo)
		return cli_usage_error(cmd, "-t TOPO is required");
	if (!o->conf == !o->tables_json)
		return cli_usage_error(cmd,
				       "give either CONF or --tables FILE");
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo);
	fo.node_name_map = o->node_name_map;
	int rc = cli_load_fabric(o->topo, &fo, &in->fabric);
	if (rc)
		return rc;
	ibp_error err;
	ibp_fabric_assign_lids(in->fabric, 0, NULL); /* LIDs as specs */
	if (o->sm_port) {
		if (ibp_fabric_resolve_port(in->fabric, o->sm_port,
					    &in->sm_node, &in->sm_port, &err)) {
			cli_print_error(&err);
			return CLI_EXIT_USAGE;
		}
	} else if (ibp_fabric_default_sm_port(in->fabric, &in->sm_node,
					      &in->sm_port)) {
		fprintf(stderr,
			"ibpart %s: the topology has no CA port for "
			"the SM\n",
			cmd);
		return CLI_EXIT_USAGE;
	}
	uint64_t smg =
	    ibp_fabric_port_guid(in->fabric, in->sm_node, in->sm_port);
	ibp_fabric_assign_lids(in->fabric, smg, NULL);
	in->mode = strdup(o->mode ? o->mode : "opensm");
	if (o->tables_json) {
		free((char *)in->mode);
		in->mode = NULL;
		rc = tables_from_json(in, o->tables_json);
		if (!in->mode)
			in->mode = strdup(o->mode ? o->mode : "tables");
		return rc;
	}
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	co.fabric = in->fabric;
	rc = ibp_conf_parse_file(o->conf, &co, &in->conf, d, &err);
	ibp_diags_print(d, stderr);
	ibp_diags_free(d);
	if (rc) {
		cli_print_error(&err);
		return rc == IBP_EIO || rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM
							 : CLI_EXIT_USAGE;
	}
	bool strict = !strcmp(in->mode, "strict");
	if (strict && ibp_conf_opensm_verdict(in->conf)->rejected) {
		fprintf(stderr,
			"ibpart %s: %s does not parse (%s); strict mode "
			"refuses it (OpenSM would fall back to ALL=full: see "
			"--mode opensm)\n",
			cmd, o->conf,
			ibp_conf_opensm_verdict(in->conf)->reason
			    ? ibp_conf_opensm_verdict(in->conf)->reason
			    : "rejected");
		return CLI_EXIT_USAGE;
	}
	return tables_from_conf(in, strict);
}

void ai_free(struct ai_input *in)
{
	ibp_tables_free(in->tables);
	ibp_conf_free(in->conf);
	ibp_fabric_free(in->fabric);
	for (size_t i = 0; i < 0x8000; i++)
		free(in->names[i]);
	free(in->overflow);
	free((char *)in->mode);
}

int ai_open(const char *path, struct ai_out *o)
{
	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->fp = stdout;
		return 0;
	}
	o->path = path;
	if (asprintf(&o->tmp, "%s.tmpXXXXXX", path) < 0)
		return CLI_EXIT_SYSTEM;
	int fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->fp = fdopen(fd, "w"))) {
		fprintf(stderr, "ibpart: cannot create %s: %s\n", o->tmp,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		free(o->tmp);
		o->tmp = NULL;
		return CLI_EXIT_SYSTEM;
	}
	return 0;
}

int ai_close(struct ai_out *o, bool ok)
{
	if (!o->tmp) {
		if (fflush(stdout))
			return CLI_EXIT_SYSTEM;
		return 0;
	}
	int rc = 0;
	if (fflush(o->fp) || fsync(fileno(o->fp)))
		ok = false, rc = CLI_EXIT_SYSTEM;
	/* a file others can read, like any report (mkstemp makes 0600) */
	if (ok)
		fchmod(fileno(o->fp), 0644);
	if (fclose(o->fp))
		ok = false, rc = CLI_EXIT_SYSTEM;
	if (ok && rename(o->tmp, o->path)) {
		fprintf(stderr, "ibpart: cannot rename into %s: %s\n", o->path,
			strerror(errno));
		ok = false;
		rc = CLI_EXIT_SYSTEM;
	}
	if (!ok)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return rc;
}
