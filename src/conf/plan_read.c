/*
 * plan_read.c - a plan read against an optional topology in one call
 * (ibpart/plan.h): what `ibpart check` and `convert` (and any other front
 * end that checks a plan) do before they report.
 */
#include <string.h>

#include "topo/topo_load.h"

#include "ibpart/plan.h"
#include "util/options_version.h"
#include "conf/conf_lib.h"

IBP_OPTIONS_LAYOUT(plan_read_options_layout, "plan read options",
		   IBP_PLAN_READ_OPTIONS_VERSION,
		   sizeof(ibp_plan_read_options));
IBP_RESULT_LAYOUT(plan_layout, "ibp_plan", IBP_PLAN_VERSION, sizeof(ibp_plan));

/* The library's defaults, a whole current struct. */
static void plan_read_options_defaults(ibp_plan_read_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_PLAN_READ_OPTIONS_VERSION;
}

void ibp_plan_read_options_init(ibp_plan_read_options *o, unsigned version)
{
	ibp_plan_read_options d;
	plan_read_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &plan_read_options_layout);
}

/* Free what a whole current plan holds, and zero it but for its
 * version. */
static void plan_free(ibp_plan *p)
{
	ibp_conf_free(p->conf);
	ibp_diags_free(p->diags);
	ibp_fabric_free(p->fabric);
	*p = (ibp_plan){.version = p->version};
}

void ibp_plan_clear(ibp_plan *p)
{
	ibp_plan full;
	if (ibp_result_take(&full, sizeof(full), p, &plan_layout, NULL))
		return;
	plan_free(&full);
	ibp_result_give(p, NULL, &plan_layout);
}

/* The topology with the options' node-name-map and input limit. */
static int load_fabric(const ibp_plan_read_options *o, ibp_plan *p,
		       ibp_diags *topo_diags, ibp_error *err)
{
	ibp_fabric_options fo;
	ibp_fabric_options_init(&fo, IBP_FABRIC_OPTIONS_VERSION);
	fo.node_name_map = o->node_name_map;
	fo.max_input_size = o->max_input_size;
	return topo_load_reported(o->topology_path, &fo, &p->fabric, topo_diags,
				  err);
}

int ibp_plan_read(const ibp_plan_read_options *o, ibp_plan *out,
		  ibp_diags *topo_diags, ibp_error *err)
{
	ibp_error_clear(err);
	ibp_plan_read_options own;
	plan_read_options_defaults(&own);
	if (ibp_result_check(out, &plan_layout, err) ||
	    ibp_options_take(&own, o, &plan_read_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	if (!o->plan_path)
		return ibp_error_set(err, IBP_EINVAL, "bad plan read options");
	ibp_conf_options co; /* the caller's, as far as its version goes */
	if (conf_options_take(&co, o->conf, err))
		return IBP_EINVAL;
	/* the library's own whole plan, given as far as out's version goes */
	ibp_plan p = {.version = IBP_PLAN_VERSION};
	int rc = o->topology_path ? load_fabric(o, &p, topo_diags, err) : 0;
	co.fabric = p.fabric;
	if (!co.max_input_size)
		co.max_input_size = o->max_input_size;
	if (!rc && !(p.diags = ibp_diags_new()))
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!rc)
		rc = ibp_conf_parse_file(o->plan_path, &co, &p.conf, p.diags,
					 err);
	if (rc)
		plan_free(&p);
	else
		ibp_diags_sort(p.diags);
	ibp_result_give(out, &p, &plan_layout);
	return rc;
}
