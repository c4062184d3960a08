/*
 * tables_compute.c - `ibpart tables` as one operation (see
 * include/ibpart/tables_compute.h): topology, SM port and LIDs, plan,
 * state file, policy.
 */
#include <string.h>
#include <unistd.h>

#include "ibpart/tables_compute.h"
#include "ibpart/tables_json.h"

void ibp_tables_compute_options_init(ibp_tables_compute_options *o)
{
	memset(o, 0, sizeof(*o));
	ibp_fabric_options_init(&o->fabric);
	ibp_policy_options_init(&o->policy);
}

void ibp_tables_result_free(ibp_tables_result *r)
{
	if (!r)
		return;
	ibp_tables_free(r->tables);
	ibp_tables_free(r->remembered);
	ibp_conf_free(r->conf);
	ibp_fabric_free(r->fabric);
	memset(r, 0, sizeof(*r));
}

/* The topology, its findings sorted into d; the failure is its first
 * error finding. */
static int load_fabric(const ibp_tables_compute_options *o,
		       ibp_tables_result *r, ibp_diags *d, ibp_error *err)
{
	int rc = ibp_fabric_load(o->topology_path, &o->fabric, &r->fabric, d);
	ibp_diags_sort(d); /* in file order, as the plan's are */
	if (!rc)
		return 0;
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *x = ibp_diags_get(d, i);
		if (x->severity == IBP_SEV_ERROR)
			return ibp_error_set_at(err, rc, x->file, x->line,
						x->col, "%s", x->message);
	}
	return ibp_error_set_at(err, rc, o->topology_path, 0, 0,
				"the topology does not load");
}

/* The SM port and the LIDs OpenSM assigns from it: LIDs need the SM
 * first, so a LID is read against the default SM's numbering. */
static int sm_port(const ibp_tables_compute_options *o, ibp_tables_result *r,
		   ibp_policy_options *po, ibp_error *err)
{
	int rc;
	if (o->sm_port) {
		size_t n;
		unsigned p;
		if ((rc = ibp_fabric_assign_lids(r->fabric, 0, err)) ||
		    (rc = ibp_fabric_resolve_port(r->fabric, o->sm_port, &n, &p,
						  err)))
			return rc;
		po->sm_port_guid = ibp_fabric_port_guid(r->fabric, n, p);
	}
	if ((rc = ibp_policy_sm_port(r->fabric, po, &r->sm_port_guid, err)))
		return rc;
	return ibp_fabric_assign_lids(r->fabric, r->sm_port_guid, err);
}

/* The plan, read as the policy will apply it; its own findings are not
 * reported. */
static int read_plan(const ibp_tables_compute_options *o, ibp_tables_result *r,
		     ibp_error *err)
{
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	co.fabric = r->fabric;
	co.allow_both_pkeys = o->policy.allow_both_pkeys;
	co.max_input_size = o->max_input_size;
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = ibp_conf_parse_file(o->plan_path, &co, &r->conf, d, err);
	ibp_diags_free(d);
	return rc;
}

/* The policy, its findings into d and counted. */
static int place(const ibp_tables_compute_options *o, ibp_tables_result *r,
		 ibp_policy_options *po, ibp_diags *d, ibp_error *err)
{
	ibp_tables *prev = NULL, *rem = NULL;
	int rc = 0;
	ibp_tables_json_options jo;
	ibp_tables_json_options_init(&jo);
	jo.max_input_size = o->max_input_size;
	if (o->state_path && access(o->state_path, F_OK) == 0 &&
	    (rc = ibp_tables_json_read_state(r->fabric, o->state_path, &jo,
					     &prev, &rem, err)))
		return rc;
	po->previous = prev;
	po->remembered = rem;
	size_t before = ibp_diags_count_severity(d, IBP_SEV_WARNING) +
			ibp_diags_count_severity(d, IBP_SEV_ERROR);
	rc = ibp_policy_compute_state(r->conf, r->fabric, po, &r->tables,
				      o->state_path ? &r->remembered : NULL, d,
				      err);
	r->nfound = ibp_diags_count_severity(d, IBP_SEV_WARNING) +
		    ibp_diags_count_severity(d, IBP_SEV_ERROR) - before;
	ibp_tables_free(prev);
	ibp_tables_free(rem);
	return rc;
}

int ibp_tables_compute(const ibp_tables_compute_options *o,
		       ibp_tables_result *out, ibp_diags *diags, ibp_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!o->topology_path || !o->plan_path)
		return ibp_error_set(err, IBP_EINVAL,
				     "a topology and a plan are required");
	ibp_diags *d = diags ? diags : ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_policy_options po = o->policy;
	po.sm_port_guid = 0;
	po.unplaced = NULL;
	int rc = load_fabric(o, out, d, err);
	if (!rc)
		rc = sm_port(o, out, &po, err);
	if (!rc)
		rc = read_plan(o, out, err);
	if (!rc)
		rc = place(o, out, &po, d, err);
	if (d != diags)
		ibp_diags_free(d);
	return rc;
}
