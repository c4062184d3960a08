/*
 * live_verify.c - ibp_verify(): read the fabric, plan, compare, and
 * (when asked) the matrix and the audit of what the fabric holds; the
 * result and its JSON (see include/ibpart/verify.h).
 *
 * The plan is always made fail-closed: "no drift" against a plan OpenSM
 * would reject (and replace with ALL=full) would bless a fabric with no
 * isolation.  Without the ports' previous tables, the tables read are
 * the plan's "previous": a P_Key a port holds is expected where it is
 * (OpenSM keeps surviving P_Keys in place), and an index difference is
 * a note, since where OpenSM puts a P_Key it held before lives in its
 * memory, not in the fabric.  A leaf port whose PortInfo partition
 * enforcement bits are not the session's part_enforce is drift too, on
 * switches that implement them (live_enforce.c).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "ibpart/verify.h"
#include "live/verify_lib.h"
#include "live/live_enforce.h"
#include "live/live_json.h"
#include "util/json_text.h"
#include "topo/alias_map_lib.h"
#include "analysis/analysis_lib.h"
#include "live/live_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"
#include "report/report_lib.h"
#include "ibpart/sys/alias_map.h"

struct ibp_verify_result {
	const ibp_fabric *f;
	ibp_tables *have, *want;
	ibp_drift *drift;
	ibp_matrix *matrix;
	ibp_findings *findings;
	ibp_diags *discovery; /* the discovery's findings (nodes left out) */
	ibp_drift_sel sel;
	struct ibp_absent_member *absent;
	size_t nabsent;
	ibp_conf *conf; /* owns the strings absent[] points to */
	char mode[16];
	bool asked_matrix; /* the matrix is also built for the audit */
	uint64_t sm_guid;
	unsigned long smps;
	long elapsed_ms;
	size_t enforce_checked; /* leaf ports whose enforcement was checked */
	ibp_policy_unplaced *unplaced; /* what the plan cannot place */
};

IBP_OPTIONS_LAYOUT(verify_options_layout, "verify options",
		   IBP_VERIFY_OPTIONS_VERSION,
		   offsetof(struct ibp_verify_options, vf_guids),
		   sizeof(struct ibp_verify_options));

/* The library's defaults, a whole current struct. */
static void verify_options_defaults(struct ibp_verify_options *o)
{
	*o = (struct ibp_verify_options){0};
	o->version = IBP_VERIFY_OPTIONS_VERSION;
	o->mode = "opensm";
}

void ibp_verify_options_init(struct ibp_verify_options *o, unsigned version)
{
	struct ibp_verify_options d;
	verify_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &verify_options_layout);
}

void ibp_verify_result_free(ibp_verify_result *r)
{
	if (!r)
		return;
	free(r->absent);
	ibp_conf_free(r->conf);
	ibp_findings_free(r->findings);
	ibp_diags_free(r->discovery);
	ibp_matrix_free(r->matrix);
	ibp_drift_free(r->drift);
	ibp_tables_free(r->want);
	ibp_tables_free(r->have);
	ibp_policy_unplaced_free(r->unplaced);
	free(r);
}

static bool seen_guid(const ibp_verify_result *r, uint64_t g)
{
	for (size_t i = 0; i < r->nabsent; i++)
		if (r->absent[i].guid == g)
			return true;
	return false;
}

/* One absent GUID's kind and hint: a CA's node GUID where a port GUID
 * belongs says which port GUID was probably meant; an alias which VF of
 * which port it is. */
static void classify_absent(const ibp_verify_result *r, const ibp_alias_map *am,
			    struct ibp_absent_member *a)
{
	struct ibp_guid_class gc;
	a->kind = ibp_guid_classify(r->f, am, a->guid, &gc);
	if (a->kind == IBP_GUID_NODE)
		snprintf(
		    a->hint, sizeof(a->hint),
		    "it is the node GUID of %s, whose port 1 is "
		    "0x%016llx (OpenSM matches port GUIDs)",
		    ibp_fabric_node_desc(r->f, gc.node),
		    (unsigned long long)ibp_fabric_port_guid(r->f, gc.node, 1));
	else if (a->kind == IBP_GUID_ALIAS) {
		a->port_guid = gc.port_guid;
		a->vf = gc.index;
		snprintf(a->hint, sizeof(a->hint),
			 "an alias GUID: VF %u of %s port %u (0x%016llx); "
			 "OpenSM adds port GUIDs only",
			 gc.index, ibp_fabric_node_desc(r->f, gc.node), gc.port,
			 (unsigned long long)gc.port_guid);
	}
}

/* GUIDs the plan names that are no port of the fabric (unplugged, link
 * down, a GUID that never existed, a node GUID, a VF's alias), each
 * once. */
static int find_absent(ibp_verify_result *r, const ibp_alias_map *am,
		       ibp_error *err)
{
	const ibp_conf *conf = r->conf;
	for (size_t i = 0; i < ibp_conf_partition_count(conf); i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(conf, i);
		for (size_t k = 0; k < ibp_conf_partition_member_count(p);
		     k++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, k);
			size_t nn;
			unsigned pp;
			if ((m->kind != IBP_MEMBER_GUID &&
			     m->kind != IBP_MEMBER_NAME) ||
			    !m->guid ||
			    !ibp_fabric_find_port_guid(r->f, m->guid, &nn,
						       &pp) ||
			    seen_guid(r, m->guid))
				continue;
			struct ibp_absent_member *na =
			    realloc(r->absent, (r->nabsent + 1) * sizeof(*na));
			if (!na)
				return ibp_error_set(err, IBP_ENOMEM,
						     "out of memory");
			r->absent = na;
			struct ibp_absent_member *a = &na[r->nabsent++];
			*a = (struct ibp_absent_member){
			    .guid = m->guid,
			    .text = m->text,
			    .by_name = m->kind == IBP_MEMBER_NAME,
			    .conf_file = ibp_conf_file(conf),
			    .conf_line = m->pos.line,
			};
			classify_absent(r, am, a);
		}
	}
	return IBP_OK;
}

/* find_absent with the options' alias map, read for the call. */
static int find_absent_aliases(ibp_verify_result *r,
			       const struct ibp_verify_options *o,
			       ibp_error *err)
{
	ibp_alias_map *am = NULL;
	int rc = o->alias_guids_path
		     ? ibp_alias_map_load(o->alias_guids_path,
					  o->max_input_size, &am, NULL, err)
		     : IBP_OK;
	if (!rc)
		rc = find_absent(r, am, err);
	ibp_alias_map_free(am);
	return rc;
}

static int plan(ibp_live *l, const struct ibp_verify_options *o,
		ibp_verify_result *r, ibp_diags *diags, ibp_error *err)
{
	int enf = ibp_live_enforce(l);
	r->unplaced = ibp_policy_unplaced_new();
	if (!r->unplaced)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	struct ibp_live_plan_options po = {
	    .conf_path = o->conf_path,
	    .mode = r->mode,
	    .sm_port_guid = r->sm_guid,
	    .allow_both_pkeys = o->allow_both_pkeys,
	    .previous = o->previous ? o->previous : r->have,
	    .compact_pkey_indexes = o->compact_pkey_indexes,
	    .fail_closed = true,
	    .max_input_size = o->max_input_size,
	    .alias_guids_path = o->alias_guids_path,
	    .vf_guids = o->vf_guids,
	    .part_enforce = enf < 0 ? IBP_ENFORCE_BOTH : (ibp_part_enforce)enf,
	    .unplaced = r->unplaced,
	};
	int rc = ibp_live_plan(&po, r->f, &r->want, &r->conf, diags, err);
	/* the plan is the caller's input: any failure but memory is bad
	 * input, never the fabric's fault */
	if (rc && rc != IBP_ENOMEM && rc != IBP_EPARSE)
		rc = IBP_EINVAL;
	if (err && rc)
		err->status = rc;
	return rc;
}

static int analyse(const struct ibp_verify_options *o, ibp_verify_result *r,
		   ibp_error *err)
{
	if (!o->matrix && !o->audit)
		return IBP_OK;
	ibp_matrix_options mo;
	ibp_matrix_options_init(&mo, IBP_MATRIX_OPTIONS_VERSION);
	int rc = ibp_matrix_build(r->have, &mo, &r->matrix, err);
	if (rc || !o->audit)
		return rc;
	size_t sm_n = SIZE_MAX; /* not in the fabric: no SM port, so the
				   SA's rule finds nothing (not node 0's
				   port 0 taken for the SM's) */
	unsigned sm_p = 0;
	if (ibp_fabric_find_port_guid(r->f, r->sm_guid, &sm_n, &sm_p) != IBP_OK)
		sm_n = SIZE_MAX;
	r->findings = ibp_findings_new();
	if (!r->findings)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_audit_input ai = {
	    .tables = r->have,
	    .sm_node = sm_n,
	    .sm_port = sm_p,
	    .matrix = r->matrix,
	};
	rc = ibp_audit_run(&ai, r->findings, err);
	if (rc == IBP_OK)
		ibp_findings_sort(r->findings);
	return rc;
}

/* The leaf ports whose PortInfo partition enforcement is not the
 * session's part_enforce: drift too (live_enforce.c). */
static int enforcement_drift(ibp_live *l, ibp_verify_result *r, ibp_error *err)
{
	struct live_enforce_port *ep;
	size_t n;
	int rc =
	    live_enforce_check(l, r->have, NULL, r->unplaced, &ep, &n, err);
	r->enforce_checked = n;
	if (!rc && live_drift_add_enforcement(r->drift, ep, n))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	free(ep);
	return rc;
}

int ibp_verify(ibp_live *l, const struct ibp_verify_options *o,
	       ibp_verify_result **out, ibp_diags *diags, ibp_error *err)
{
	*out = NULL;
	struct ibp_verify_options own;
	verify_options_defaults(&own);
	if (ibp_options_take(&own, o, &verify_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	if (!o->conf_path)
		return ibp_error_set(err, IBP_EINVAL, "no plan (conf_path)");
	ibp_verify_result *r = calloc(1, sizeof(*r));
	if (!r)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	snprintf(r->mode, sizeof(r->mode), "%s", o->mode ? o->mode : "opensm");
	r->f = ibp_live_fabric(l);
	r->sm_guid = ibp_live_sm_port_guid(l);
	r->sel = o->previous ? IBP_DRIFT_SEL_ALL : IBP_DRIFT_SEL_NO_INDEX;
	r->asked_matrix = o->matrix;
	int rc = ibp_live_read_tables(l, &r->have, err);
	if (rc == IBP_EINVAL || rc == IBP_EPARSE) {
		rc = IBP_EIO; /* the fabric's, not the input's */
		if (err)
			err->status = rc;
	}
	/* the nodes discovery left out: told with the plan's findings and
	 * kept for the JSON */
	if (!rc && !(r->discovery = ibp_diags_new()))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc)
		rc = ibp_live_discovery_findings(l, r->discovery, err);
	if (!rc)
		rc = ibp_live_discovery_findings(l, diags, err);
	if (!rc)
		rc = plan(l, o, r, diags, err);
	if (!rc && ibp_live_cancelled(l))
		rc = ibp_error_set(err, IBP_ECANCELED, "cancelled");
	if (!rc)
		rc = ibp_drift_compute(r->want, r->have, &r->drift, err);
	if (!rc)
		rc = enforcement_drift(l, r, err);
	if (!rc)
		rc = analyse(o, r, err);
	if (!rc)
		rc = find_absent_aliases(r, o, err);
	if (rc) {
		ibp_verify_result_free(r);
		return rc;
	}
	struct ibp_live_counts c;
	ibp_live_counts_get(l, &c);
	r->smps = c.smps;
	r->elapsed_ms = ibp_live_elapsed_ms(l);
	*out = r;
	return IBP_OK;
}

const ibp_drift *ibp_verify_result_drift(const ibp_verify_result *r)
{
	return r->drift;
}

const ibp_tables *ibp_verify_result_have(const ibp_verify_result *r)
{
	return r->have;
}

const ibp_tables *ibp_verify_result_want(const ibp_verify_result *r)
{
	return r->want;
}

const ibp_fabric *ibp_verify_result_fabric(const ibp_verify_result *r)
{
	return r->f;
}

ibp_drift_sel ibp_verify_result_selection(const ibp_verify_result *r)
{
	return r->sel;
}

size_t ibp_verify_result_differences(const ibp_verify_result *r, size_t *ports)
{
	return ibp_drift_count_sel(r->drift, r->sel, ports);
}

size_t ibp_verify_result_index_notes(const ibp_verify_result *r)
{
	if (r->sel == IBP_DRIFT_SEL_ALL)
		return 0;
	return ibp_drift_count_sel(r->drift, IBP_DRIFT_SEL_INDEX_ONLY, NULL);
}

size_t ibp_verify_result_enforcement_checked(const ibp_verify_result *r)
{
	return r->enforce_checked;
}

size_t ibp_verify_result_absent_count(const ibp_verify_result *r)
{
	return r->nabsent;
}

const struct ibp_absent_member *
ibp_verify_result_absent_at(const ibp_verify_result *r, size_t i)
{
	return i < r->nabsent ? &r->absent[i] : NULL;
}

const ibp_matrix *ibp_verify_result_matrix(const ibp_verify_result *r)
{
	return r->asked_matrix ? r->matrix : NULL;
}

const ibp_findings *ibp_verify_result_findings(const ibp_verify_result *r)
{
	return r->findings;
}

uint64_t ibp_verify_result_sm_port_guid(const ibp_verify_result *r)
{
	return r->sm_guid;
}

const char *ibp_verify_result_mode(const ibp_verify_result *r)
{
	return r->mode;
}

unsigned long ibp_verify_result_smps(const ibp_verify_result *r)
{
	return r->smps;
}

long ibp_verify_result_elapsed_ms(const ibp_verify_result *r)
{
	return r->elapsed_ms;
}

static int matrix_json(const void *arg, FILE *out)
{
	const ibp_verify_result *r = arg;
	ibp_matrix_report_options ro = {
	    .version = IBP_MATRIX_REPORT_OPTIONS_VERSION, .mode = r->mode};
	return ibp_matrix_report(r->matrix, IBP_MATRIX_JSON, &ro, out, NULL);
}

static int findings_json(const void *arg, FILE *out)
{
	char *s = ibp_findings_to_json(arg);
	if (!s)
		return -1;
	fputs(s, out);
	free(s);
	return 0;
}

static json_t *absent_json(const ibp_verify_result *r)
{
	json_t *abs = json_array();
	for (size_t i = 0; abs && i < r->nabsent; i++) {
		const struct ibp_absent_member *a = &r->absent[i];
		char g[24];
		json_t *o =
		    json_pack("{s:s}", "port_guid", live_json_guid(a->guid, g));
		if (!o)
			continue;
		/* the file name and the hint (a NodeDescription) may be
		 * anything: kept, as UTF-8 plus the exact bytes */
		json_text_set(o, "conf_file", a->conf_file);
		json_object_set_new(o, "conf_line", json_integer(a->conf_line));
		json_object_set_new(o, "kind",
				    json_string(ibp_guid_kind_str(a->kind)));
		if (a->hint[0])
			json_text_set(o, "hint", a->hint);
		json_array_append_new(abs, o);
	}
	return abs;
}

char *ibp_verify_result_json(const ibp_verify_result *r)
{
	char g[24];
	size_t nports = 0;
	size_t ndiff = ibp_verify_result_differences(r, &nports);
	json_t *root =
	    json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i}", "mode", r->mode,
		      "sm_port_guid", live_json_guid(r->sm_guid, g),
		      "ports_checked", (int)ibp_drift_ports_checked(r->drift),
		      "ports_drifted", (int)nports, "differences", (int)ndiff,
		      "smps", (int)r->smps, "elapsed_ms", (int)r->elapsed_ms);
	if (!root)
		return NULL;
	json_object_set_new(root, "enforcement_checked",
			    json_integer((json_int_t)r->enforce_checked));
	json_object_set_new(root, "drift",
			    live_json_drift(r->f, r->drift, r->sel));
	json_object_set_new(
	    root, "index_notes",
	    r->sel == IBP_DRIFT_SEL_ALL
		? json_array()
		: live_json_drift(r->f, r->drift, IBP_DRIFT_SEL_INDEX_ONLY));
	json_object_set_new(root, "absent", absent_json(r));
	/* diag.h's JSON of the discovery's findings */
	char *dj = ibp_diags_to_json(r->discovery);
	json_t *dv = dj ? json_loads(dj, 0, NULL) : NULL;
	free(dj);
	json_object_set_new(root, "discovery", dv ? dv : json_null());
	if (r->asked_matrix) {
		json_t *mj = live_json_capture(matrix_json, r);
		json_object_set_new(root, "matrix", mj ? mj : json_null());
	}
	if (r->findings) {
		json_t *aj = live_json_capture(findings_json, r->findings);
		json_object_set_new(root, "audit", aj ? aj : json_null());
	}
	char *s = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	return s;
}
