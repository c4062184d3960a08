/*
 * input_args.c - what the shared input options of a front end's command
 * become (front/input_args.h).
 */
#include "front/input_args.h"

int ibp_input_args_conf_path(const struct ibp_input_args *in,
			     const struct ibp_args *a, const char **path,
			     ibp_error *err)
{
	ibp_error_clear(err);
	if (a->npos != (in->conf ? 0u : 1u))
		return ibp_error_set(err, IBP_EINVAL, "expected one CONF file");
	*path = in->conf ? in->conf : a->pos[0];
	return IBP_OK;
}

int ibp_input_args_take_conf(struct ibp_input_args *in,
			     const struct ibp_args *a, ibp_error *err)
{
	ibp_error_clear(err);
	if (a->npos && in->conf)
		return ibp_error_set(err, IBP_EINVAL, "expected one CONF file");
	if (a->npos)
		in->conf = a->pos[0];
	return IBP_OK;
}

void ibp_input_args_analysis(const struct ibp_input_args *in,
			     ibp_analysis_input_options *o)
{
	o->topology_path = in->topo;
	o->node_name_map = in->node_name_map;
	o->alias_guids_path = in->alias_guids;
	o->vf_guids = (ibp_vf_guids)in->vf_guids;
	o->sm_port = in->sm_port;
	o->plan_path = in->conf;
	o->mode_given = in->mode != NULL;
	if (in->mode)
		ibp_policy_mode_parse(in->mode, &o->mode);
}
