/*
 * analysis_input.c - the inputs of the matrix and the audit (see
 * include/ibpart/analysis_input.h): the fabric, the SM port, and the
 * P_Key tables, either read with the tables JSON reader (tables_json.c,
 * the one reader of that schema) or computed from a partitions.conf by
 * the partition manager (policy.h, modes opensm and strict).  What the
 * policy could not place is kept as its own record; the switch ports it
 * leaves unenforced are marked in the tables' enforcement bits, where a
 * tables file's "enforcement" goes too.
 */
#include <stddef.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/analysis_input.h"
#include "analysis/analysis_input_lib.h"
#include "ibpart/pkey.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "analysis/analysis_lib.h"
#include "topo/alias_map_lib.h"
#include "conf/conf_lib.h"
#include "util/diag_lib.h"
#include "policy/policy_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/sys/alias_map.h"
#include "util/error_lib.h"

struct ibp_analysis_input {
	ibp_fabric *owned; /* loaded here, or NULL (borrowed) */
	const ibp_fabric *fabric;
	ibp_conf *conf; /* NULL with tables from a file */
	ibp_tables *tables;
	ibp_policy_unplaced *unplaced; /* NULL with tables from a file */
	size_t sm_node;
	unsigned sm_port;
	ibp_sm_port_source sm_assumed; /* how the SM port was chosen */
	char *mode;
	bool have_enforce;
	char *names[0x8000];	/* partition names by base */
	ibp_alias_map *aliases; /* the fabric's alias GUIDs, or NULL */
	bool vports; /* NVIDIA OpenSM's virtualization (vport-unmodelled) */
};

IBP_OPTIONS_LAYOUT(analysis_input_options_layout, "analysis input options",
		   IBP_ANALYSIS_INPUT_OPTIONS_VERSION,
		   offsetof(ibp_analysis_input_options, vf_guids),
		   sizeof(ibp_analysis_input_options));

/* The library's defaults, a whole current struct. */
static void analysis_input_options_defaults(ibp_analysis_input_options *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = IBP_POLICY_OPENSM;
	o->version = IBP_ANALYSIS_INPUT_OPTIONS_VERSION;
}

void ibp_analysis_input_options_init(ibp_analysis_input_options *o,
				     unsigned version)
{
	ibp_analysis_input_options d;
	analysis_input_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &analysis_input_options_layout);
}

static int oom(ibp_error *err)
{
	return ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

/* The topology, its findings sorted into diags; the failure is its first
 * error finding. */
static int load_fabric(const ibp_analysis_input_options *o,
		       ibp_analysis_input *in, ibp_diags *diags, ibp_error *err)
{
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	fo.node_name_map = o->node_name_map;
	fo.max_input_size = o->max_input_size;
	if (o->linear_fdb_cap)
		fo.linear_fdb_cap = o->linear_fdb_cap;
	if (o->multicast_fdb_cap)
		fo.multicast_fdb_cap = o->multicast_fdb_cap;
	fo.lmc = o->lmc;
	fo.progress = o->progress;
	ibp_diags *d = diags ? diags : ibp_diags_new();
	if (!d)
		return oom(err);
	int rc = ibp_fabric_load(o->topology_path, &fo, &in->owned, d);
	ibp_diags_sort(d); /* in file order, as the plan's are */
	if (rc)
		ibp_diags_error_of(d, rc, err, o->topology_path,
				   "the topology does not load");
	if (d != diags)
		ibp_diags_free(d);
	in->fabric = in->owned;
	return rc;
}

/* The SM port, and a loaded fabric's LIDs as OpenSM assigns them from
 * it. */
static int sm_port(const ibp_analysis_input_options *o, ibp_analysis_input *in,
		   ibp_error *err)
{
	int rc;
	/* LIDs as specs; IBP_ENOMEM would leave ports without one */
	if (in->owned && (rc = ibp_fabric_assign_lids(in->owned, 0, err)))
		return rc;
	if (o->sm_port) {
		rc = ibp_fabric_resolve_port(in->fabric, o->sm_port,
					     &in->sm_node, &in->sm_port, err);
		if (rc)
			return rc;
	} else if (ibp_fabric_default_sm_port(in->fabric, &in->sm_node,
					      &in->sm_port) == IBP_OK) {
		uint64_t g =
		    ibp_fabric_port_guid(in->fabric, in->sm_node, in->sm_port);
		in->sm_assumed = g == ibp_fabric_initiator_port_guid(in->fabric)
				     ? IBP_SM_PORT_FROM_INITIATOR
				     : IBP_SM_PORT_FIRST_CA;
	} else {
		return ibp_error_set_at(
		    err, IBP_ENOENT, o->topology_path ? o->topology_path : "",
		    0, 0,
		    "the topology has no CA port for the "
		    "SM");
	}
	if (in->owned)
		return ibp_fabric_assign_lids(
		    in->owned,
		    ibp_fabric_port_guid(in->fabric, in->sm_node, in->sm_port),
		    err);
	return 0;
}

static void scan_enforcement(ibp_analysis_input *in)
{
	for (size_t i = 0;
	     !in->have_enforce && i < ibp_tables_count(in->tables); i++) {
		size_t n;
		unsigned p;
		ibp_tables_at(in->tables, i, &n, &p);
		in->have_enforce =
		    ibp_tables_get_enforcement(in->tables, n, p, NULL, NULL);
	}
}

/* `ibpart tables --format json`, as the ports hold it: every entry must
 * be a port of this topology, its capacity the file's. */
static int tables_from_json(const ibp_analysis_input_options *o,
			    ibp_analysis_input *in, ibp_error *err)
{
	ibp_tables_json_options jo;
	ibp_tables_json_options_init(&jo);
	jo.unknown_ports_fail = true;
	jo.capacity_from_file = true;
	jo.max_input_size = o->max_input_size;
	uint64_t sm = 0;
	int rc = ibp_tables_json_read_path(in->fabric, o->tables_path, &jo,
					   &in->tables, &in->mode, &sm, err);
	if (rc)
		return rc;
	size_t node;
	unsigned port;
	if (sm && !ibp_fabric_find_port_guid(in->fabric, sm, &node, &port)) {
		in->sm_node = node;
		in->sm_port = port;
		in->sm_assumed = IBP_SM_PORT_GIVEN; /* the file says */
	}
	if (!in->mode &&
	    !(in->mode = strdup(o->mode_given ? ibp_policy_mode_str(o->mode)
					      : "tables")))
		return oom(err);
	scan_enforcement(in);
	return 0;
}

/* The switch ports OpenSM leaves unenforced (part-enforce-off). */
static int mark_unenforced(ibp_analysis_input *in)
{
	const ibp_policy_unplaced *u = in->unplaced;
	for (size_t i = 0; i < ibp_policy_unplaced_unenforced_count(u); i++) {
		const ibp_policy_unenforced *x =
		    ibp_policy_unplaced_unenforced(u, i);
		int rc = ibp_tables_set_enforcement(
		    in->tables, x->switch_node, x->switch_port, false, false);
		if (rc)
			return rc;
		in->have_enforce = true;
	}
	return 0;
}

static int names_from_conf(ibp_analysis_input *in, ibp_error *err)
{
	const ibp_conf *c = in->conf;
	for (size_t g = 0; g < ibp_conf_group_count(c); g++) {
		const ibp_conf_group *gr = ibp_conf_group_at(c, g);
		uint16_t b = ibp_pkey_base(ibp_conf_group_pkey(gr));
		const char *name = ibp_conf_group_name(gr);
		if (b && name && *name && !in->names[b] &&
		    !(in->names[b] = strdup(name)))
			return oom(err);
	}
	return 0;
}

/* The tables the SM programs for the plan: the partition manager's
 * answer. */
static int tables_from_plan(const ibp_analysis_input_options *o,
			    ibp_analysis_input *in, ibp_diags *diags,
			    ibp_error *err)
{
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	co.fabric = in->fabric;
	co.max_input_size = o->max_input_size;
	/* kept for the audit's shared-physical-port as well */
	int rc =
	    o->alias_guids_path
		? ibp_alias_map_load(o->alias_guids_path, o->max_input_size,
				     &in->aliases, NULL, err)
		: IBP_OK;
	if (rc)
		return rc;
	co.aliases = in->aliases;
	co.vf_guids = o->vf_guids;
	co.vports = in->vports = o->vports;
	const char *name = o->plan_path ? o->plan_path : "<plan>";
	rc =
	    o->plan_text
		? ibp_conf_parse_buffer(name, o->plan_text, o->plan_len, &co,
					&in->conf, diags, err)
		: ibp_conf_parse_file(o->plan_path, &co, &in->conf, diags, err);
	if (rc)
		return rc;
	bool strict = o->mode == IBP_POLICY_STRICT;
	if (!(in->mode = strdup(ibp_policy_mode_str(o->mode))))
		return oom(err);
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(in->conf);
	if (strict && v->rejected &&
	    ibp_conf_get_dialect(in->conf) != IBP_CONF_DIALECT_SEED)
		return ibp_error_set_at(
		    err, IBP_EPARSE, name, v->pos.line, v->pos.col,
		    "does not parse (%s); strict mode refuses it (OpenSM "
		    "would fall back to ALL=full: see --mode opensm)",
		    v->reason ? v->reason : "rejected");
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	po.mode = o->mode;
	po.sm_port_guid =
	    ibp_fabric_port_guid(in->fabric, in->sm_node, in->sm_port);
	po.progress = o->progress;
	po.unplaced = in->unplaced = ibp_policy_unplaced_new();
	if (!po.unplaced)
		return oom(err);
	rc = ibp_policy_compute(in->conf, in->fabric, &po, &in->tables, NULL,
				err);
	if (!rc && (rc = mark_unenforced(in)))
		return rc == IBP_ENOMEM ? oom(err) : rc;
	return rc ? rc : names_from_conf(in, err);
}

int ibp_analysis_input_load(const ibp_analysis_input_options *o,
			    ibp_analysis_input **out, ibp_diags *diags,
			    ibp_error *err)
{
	*out = NULL;
	ibp_analysis_input_options own;
	analysis_input_options_defaults(&own);
	if (ibp_options_take(&own, o, &analysis_input_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	if (!o->topology_path == !o->fabric)
		return ibp_error_set(err, IBP_EINVAL,
				     "give a topology or a fabric");
	if (!(o->plan_path || o->plan_text) == !o->tables_path)
		return ibp_error_set(err, IBP_EINVAL,
				     "give either a plan or a tables file");
	ibp_analysis_input *in = calloc(1, sizeof(*in));
	if (!in)
		return oom(err);
	in->fabric = o->fabric;
	int rc = o->topology_path ? load_fabric(o, in, diags, err) : 0;
	if (!rc)
		rc = sm_port(o, in, err);
	if (!rc)
		rc = o->tables_path ? tables_from_json(o, in, err)
				    : tables_from_plan(o, in, diags, err);
	if (rc) {
		ibp_analysis_input_free(in);
		return rc;
	}
	*out = in;
	return 0;
}

void ibp_analysis_input_free(ibp_analysis_input *in)
{
	if (!in)
		return;
	ibp_tables_free(in->tables);
	ibp_policy_unplaced_free(in->unplaced);
	ibp_conf_free(in->conf);
	ibp_alias_map_free(in->aliases);
	ibp_fabric_free(in->owned);
	for (size_t i = 0; i < 0x8000; i++)
		free(in->names[i]);
	free(in->mode);
	free(in);
}

const ibp_alias_map *ibp_analysis_input_aliases(const ibp_analysis_input *in)
{
	return in ? in->aliases : NULL;
}

const ibp_fabric *ibp_analysis_input_fabric(const ibp_analysis_input *in)
{
	return in->fabric;
}

const ibp_conf *ibp_analysis_input_conf(const ibp_analysis_input *in)
{
	return in->conf;
}

const ibp_tables *ibp_analysis_input_tables(const ibp_analysis_input *in)
{
	return in->tables;
}

ibp_sm_port_source
ibp_analysis_input_sm_port_source(const ibp_analysis_input *in)
{
	return in->sm_assumed;
}

void ibp_analysis_input_sm_port(const ibp_analysis_input *in, size_t *node,
				unsigned *port)
{
	if (node)
		*node = in->sm_node;
	if (port)
		*port = in->sm_port;
}

const char *ibp_analysis_input_mode(const ibp_analysis_input *in)
{
	return in->mode;
}

const char *ibp_analysis_input_partition_name(const ibp_analysis_input *in,
					      uint16_t base)
{
	return base < 0x8000 ? in->names[base] : NULL;
}

const char *const *
ibp_analysis_input_partition_names(const ibp_analysis_input *in)
{
	return (const char *const *)in->names;
}

bool ibp_analysis_input_has_enforcement(const ibp_analysis_input *in)
{
	return in->have_enforce;
}

bool ibp_analysis_input_enforcement(void *ctx, size_t sw_node, unsigned sw_port,
				    bool *inbound, bool *outbound)
{
	const ibp_analysis_input *in = ctx;
	return ibp_tables_get_enforcement(in->tables, sw_node, sw_port, inbound,
					  outbound);
}

const ibp_policy_unplaced *
ibp_analysis_input_unplaced(const ibp_analysis_input *in)
{
	return in->unplaced;
}

void ibp_analysis_input_audit_input(const ibp_analysis_input *in,
				    ibp_audit_input *ai)
{
	*ai = (ibp_audit_input){
	    .tables = in->tables,
	    .sm_node = in->sm_node,
	    .sm_port = in->sm_port,
	    .partition_names = ibp_analysis_input_partition_names(in),
	    .enforcement =
		in->have_enforce ? ibp_analysis_input_enforcement : NULL,
	    .enforcement_ctx = (void *)in,
	};
}

/* The ports a misreading is about: the GUIDs its message names that are
 * ports of the fabric. */
static size_t guids_in(const ibp_fabric *fab, const char *s, uint64_t *out,
		       size_t max)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, "0x")) && n < max; p += 2) {
		char *end;
		unsigned long long g = strtoull(p, &end, 16);
		size_t node;
		unsigned port;
		if (end - p > 6 &&
		    !ibp_fabric_find_port_guid(fab, g, &node, &port))
			out[n++] = g;
	}
	return n;
}

/* plan-misread for one misreading: its ports, and the partition whose
 * header is the last one at or before its line. */
static int misread(const ibp_analysis_input *in, const ibp_conf_misreading *x,
		   ibp_findings *out)
{
	char why[768];
	snprintf(why, sizeof(why), "%s:%u:%u: %s [%s]", ibp_conf_file(in->conf),
		 x->pos.line, x->pos.col, x->message, x->code);
	uint64_t g[16];
	size_t ng = guids_in(in->fabric, x->message, g, 16);
	uint16_t pk[1];
	size_t np = 0;
	for (size_t k = 0; k < ibp_conf_partition_count(in->conf); k++) {
		const ibp_conf_partition *p =
		    ibp_conf_partition_at(in->conf, k);
		if (ibp_conf_partition_pos(p).line <= x->pos.line) {
			pk[0] = ibp_conf_partition_pkey(p);
			np = pk[0] ? 1 : 0;
		}
	}
	return ibp_audit_plan_misread(out, g, ng, pk, np, why);
}

/* The end ports of a rejected plan whose index 0 is empty although
 * they hold 0xffff: OpenSM kept an indx0 read before the error. */
static int fallback_indx0(const ibp_analysis_input *in,
			  const ibp_conf_verdict *v, ibp_findings *out)
{
	size_t cnt = ibp_tables_count(in->tables), k = 0;
	uint64_t *g = malloc((cnt + 1) * sizeof(*g));
	if (!g)
		return IBP_ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(in->tables, i, &n, &p);
		if (!ibp_fabric_is_end_port(in->fabric, n, p) ||
		    ibp_pkey_table_get(t, 0))
			continue;
		unsigned used = ibp_pkey_table_used(t);
		for (unsigned j = 1; j < used; j++)
			if (ibp_pkey_table_get(t, j) == IBP_PKEY_DEFAULT_FULL) {
				g[k++] = ibp_fabric_port_guid(in->fabric, n, p);
				break;
			}
	}
	int rc = 0;
	if (k) {
		char why[512];
		snprintf(why, sizeof(why), "%s:%u: %s", ibp_conf_file(in->conf),
			 v->pos.line, v->reason ? v->reason : "parse error");
		rc = ibp_audit_fallback_indx0(out, g, k, why);
	}
	free(g);
	return rc;
}

/* Two overflowing ports alike: the same capacity, want and dropped
 * P_Keys; cmp_dropped orders by that, then by port GUID. */
static int cmp_drop_set(const ibp_policy_dropped *x,
			const ibp_policy_dropped *y)
{
	if (x->capacity != y->capacity)
		return x->capacity < y->capacity ? -1 : 1;
	if (x->wanted != y->wanted)
		return x->wanted < y->wanted ? -1 : 1;
	if (x->ndropped != y->ndropped)
		return x->ndropped < y->ndropped ? -1 : 1;
	return memcmp(x->dropped, y->dropped,
		      x->ndropped * sizeof(*x->dropped));
}

static int cmp_dropped(const void *a, const void *b)
{
	const ibp_policy_dropped *x = *(const ibp_policy_dropped *const *)a;
	const ibp_policy_dropped *y = *(const ibp_policy_dropped *const *)b;
	int c = cmp_drop_set(x, y);
	if (c)
		return c;
	return x->port_guid < y->port_guid ? -1 : x->port_guid > y->port_guid;
}

/* capacity-overflow: one finding per set of ports that drop the same
 * P_Keys from tables of the same size (2,000 tenant nodes overflowing
 * alike are one finding, with their 2,000 ports). */
static int capacity_findings(const ibp_policy_unplaced *u, ibp_findings *out)
{
	size_t n = ibp_policy_unplaced_port_count(u);
	if (!n)
		return 0;
	const ibp_policy_dropped **v = malloc(n * sizeof(*v));
	uint64_t *g = malloc(n * sizeof(*g));
	int rc = !v || !g ? IBP_ENOMEM : 0;
	for (size_t i = 0; !rc && i < n; i++)
		v[i] = ibp_policy_unplaced_port(u, i);
	if (!rc)
		qsort(v, n, sizeof(*v), cmp_dropped);
	for (size_t i = 0, j; !rc && i < n; i = j) {
		size_t k = 0;
		for (j = i; j < n && !cmp_drop_set(v[j], v[i]); j++)
			g[k++] = v[j]->port_guid;
		rc = ibp_audit_capacity_overflow_ports(
		    out, g, k, v[i]->capacity, v[i]->wanted, v[i]->dropped,
		    v[i]->ndropped);
	}
	free(v);
	free(g);
	return rc ? IBP_ENOMEM : 0;
}

int ibp_analysis_input_plan_findings(const ibp_analysis_input *in,
				     const ibp_tenant_map *tenants,
				     ibp_findings *out)
{
	if (in->conf) {
		const ibp_conf_verdict *v = ibp_conf_opensm_verdict(in->conf);
		if (v->rejected) {
			char why[512];
			snprintf(why, sizeof(why), "%s:%u: %s",
				 ibp_conf_file(in->conf), v->pos.line,
				 v->reason ? v->reason : "parse error");
			if (ibp_audit_plan_rejected(
				out, in->fabric, why,
				ibp_conf_get_dialect(in->conf) ==
				    IBP_CONF_DIALECT_SEED))
				return IBP_ENOMEM;
		}
		for (size_t i = 0; i < v->nmisreadings; i++)
			if (misread(in, &v->misreadings[i], out))
				return IBP_ENOMEM;
		if (v->indeterminate) {
			char why[512];
			snprintf(why, sizeof(why),
				 "%s:%u:%u: an mgid item "
				 "ends the statement",
				 ibp_conf_file(in->conf),
				 v->indeterminate_pos.line,
				 v->indeterminate_pos.col);
			if (ibp_audit_plan_indeterminate(out, in->fabric, why))
				return IBP_ENOMEM;
		}
		if (v->rejected && in->tables && fallback_indx0(in, v, out))
			return IBP_ENOMEM;
	}
	if (in->sm_assumed != IBP_SM_PORT_GIVEN) {
		uint64_t g =
		    ibp_fabric_port_guid(in->fabric, in->sm_node, in->sm_port);
		if (ibp_findings_add(
			out, "sm-port-assumed", IBP_AUDIT_INFO, &g, 1, NULL, 0,
			"give --sm-port with the port OpenSM runs on",
			"the SM port is assumed to be 0x%016llx (%s), %s: the "
			"SM's port is the full member of the default "
			"partition, so a wrong guess gives another port 0xffff",
			(unsigned long long)g,
			ibp_fabric_node_desc(in->fabric, in->sm_node),
			in->sm_assumed == IBP_SM_PORT_FROM_INITIATOR
			    ? "the port the topology says ran the discovery"
			    : "the first CA port of the topology"))
			return IBP_ENOMEM;
	}
	if (ibp_audit_subnet_limits(out, in->fabric, in->conf))
		return IBP_ENOMEM;
	if (in->conf && ibp_audit_shared_physical_port(
			    out, in->fabric, in->conf, in->aliases, tenants))
		return IBP_ENOMEM;
	if (in->conf && ibp_audit_skipped_guids(out, in->fabric, in->conf,
						in->aliases, in->vports))
		return IBP_ENOMEM;
	return capacity_findings(in->unplaced, out);
}
