/*
 * analysis_input.c - the inputs of `ibpart matrix` and `ibpart audit` (see
 * analysis_input.h): the fabric, the SM port, and the P_Key tables, either
 * read from `ibpart tables --format json` output (--tables FILE: tables
 * predicted, simulated or read live) or computed from a partitions.conf.
 *
 * Tables from a plan are the partition manager's (policy.h, modes opensm
 * and strict); its findings that the audit reports in its own words
 * (P_Keys a table cannot hold, switch ports OpenSM leaves unenforced) are
 * kept here for cmd_audit.
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
#include "ibpart/policy.h"

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

/* Record the partition enforcement of switch port (sw, swp). */
static int set_enforce(struct ai_input *in, size_t sw, unsigned swp,
		       ibp_osm_enforce e)
{
	const ibp_fabric *f = in->fabric;
	if (!in->enforce)
		in->enforce =
		    calloc(ibp_fabric_node_count(f) + 1, sizeof(*in->enforce));
	if (in->enforce && !in->enforce[sw])
		in->enforce[sw] = calloc(ibp_fabric_node_nports(f, sw) + 1, 1);
	if (!in->enforce || !in->enforce[sw])
		return CLI_EXIT_SYSTEM;
	in->enforce[sw][swp] = (uint8_t)(1 + e);
	in->have_enforce = true;
	return 0;
}

/* What the policy could not place, as the audit reports it in its own
 * words: P_Keys a table could not hold (capacity-overflow), and switch
 * ports facing an end port whose table does not fit them, on which
 * OpenSM turns enforcement off (part-enforce-off). */
static int policy_findings(struct ai_input *in, const ibp_policy_unplaced *u)
{
	for (size_t i = 0; i < ibp_policy_unplaced_unenforced_count(u); i++) {
		const ibp_policy_unenforced *x =
		    ibp_policy_unplaced_unenforced(u, i);
		if (set_enforce(in, x->switch_node, x->switch_port,
				IBP_OSM_ENFORCE_OFF))
			return CLI_EXIT_SYSTEM;
	}
	size_t np = ibp_policy_unplaced_port_count(u);
	if (!np)
		return 0;
	in->overflow = calloc(np, sizeof(*in->overflow));
	if (!in->overflow)
		return CLI_EXIT_SYSTEM;
	for (size_t i = 0; i < np; i++) {
		const ibp_policy_dropped *x = ibp_policy_unplaced_port(u, i);
		struct ai_overflow *o = &in->overflow[in->noverflow++];
		o->guid = x->port_guid;
		o->capacity = x->capacity;
		o->wanted = x->wanted;
		o->dropped = malloc((x->ndropped + 1) * sizeof(*o->dropped));
		if (!o->dropped)
			return CLI_EXIT_SYSTEM;
		o->ndropped = x->ndropped;
		memcpy(o->dropped, x->dropped,
		       o->ndropped * sizeof(o->dropped[0]));
	}
	return 0;
}

/* The tables the SM programs for the plan: the partition manager's
 * (policy.h) answer. */
static int tables_from_conf(struct ai_input *in, bool strict)
{
	ibp_policy_options po;
	ibp_policy_options_init(&po);
	po.mode = strict ? IBP_POLICY_STRICT : IBP_POLICY_OPENSM;
	po.sm_port_guid =
	    ibp_fabric_port_guid(in->fabric, in->sm_node, in->sm_port);
	po.unplaced = ibp_policy_unplaced_new();
	ibp_error err;
	if (!po.unplaced)
		return CLI_EXIT_SYSTEM;
	int rc = ibp_policy_compute(in->conf, in->fabric, &po, &in->tables,
				    NULL, &err);
	if (rc) {
		cli_print_error(&err);
		ibp_policy_unplaced_free(po.unplaced);
		return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
	}
	rc = policy_findings(in, po.unplaced);
	ibp_policy_unplaced_free(po.unplaced);
	if (rc)
		return rc;
	const ibp_conf *c = in->conf;
	for (size_t g = 0; g < ibp_conf_group_count(c); g++) {
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
		const char *enf =
		    json_string_value(json_object_get(p, "enforcement"));
		if (enf &&
		    ibp_fabric_node_type(in->fabric, node) == IBP_NODE_SWITCH &&
		    port > 0) {
			static const char *const modes[] = {"both", "in", "out",
							    "off"};
			int mi = -1;
			for (int q = 0; q < 4; q++)
				if (!strcmp(enf, modes[q]))
					mi = q;
			if (mi < 0) {
				ibp_pkey_table_free(t);
				rc = bad_tables(path, "\"enforcement\" is "
						      "both, in, out or off");
				goto out;
			}
			if (set_enforce(in, node, port, (ibp_osm_enforce)mi)) {
				ibp_pkey_table_free(t);
				rc = CLI_EXIT_SYSTEM;
				goto out;
			}
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
		return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
	}
	bool strict = !strcmp(in->mode, "strict");
	if (strict && ibp_conf_opensm_verdict(in->conf)->rejected &&
	    ibp_conf_get_dialect(in->conf) != IBP_CONF_DIALECT_SEED) {
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

bool ai_enforcement(void *ctx, size_t sw_node, unsigned sw_port, bool *inbound,
		    bool *outbound)
{
	const struct ai_input *in = ctx;
	if (!in->enforce || !in->enforce[sw_node] ||
	    !in->enforce[sw_node][sw_port])
		return false;
	ibp_osm_enforce e =
	    (ibp_osm_enforce)(in->enforce[sw_node][sw_port] - 1);
	*inbound = e == IBP_OSM_ENFORCE_BOTH || e == IBP_OSM_ENFORCE_IN;
	*outbound = e == IBP_OSM_ENFORCE_BOTH || e == IBP_OSM_ENFORCE_OUT;
	return true;
}

void ai_free(struct ai_input *in)
{
	if (in->enforce && in->fabric)
		for (size_t n = 0; n < ibp_fabric_node_count(in->fabric); n++)
			free(in->enforce[n]);
	free(in->enforce);
	ibp_tables_free(in->tables);
	ibp_conf_free(in->conf);
	ibp_fabric_free(in->fabric);
	for (size_t i = 0; i < 0x8000; i++)
		free(in->names[i]);
	for (size_t i = 0; i < in->noverflow; i++)
		free(in->overflow[i].dropped);
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
	ibp_error err;
	if (ibp_atomic_file_open(path, &o->file, &o->fp, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return 0;
}

int ai_close(struct ai_out *o, bool ok)
{
	if (!o->file)
		return fflush(stdout) || ferror(stdout) ? CLI_EXIT_SYSTEM : 0;
	if (!ok) {
		ibp_atomic_file_discard(o->file);
		o->file = NULL;
		return 0;
	}
	ibp_error err;
	int rc = ibp_atomic_file_commit(o->file, false, &err);
	o->file = NULL;
	if (rc) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return 0;
}
