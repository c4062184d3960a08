/*
 * sim_session_plan.c - the desired P_Key tables of a sim session: the
 * plan read by conf (either dialect, names resolved through the fabric)
 * and handed to the partition manager (policy.h) in the asked mode.  A
 * plan in the seed's block dialect means the plan it describes (the
 * partition manager sets OpenSM's verdict on its syntax aside; `ibpart
 * check` reports it).  Every finding goes to the caller's list.
 */
#include <stdlib.h>

#include "ibpart/conf.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "sim/sim_session_priv.h"
#include "conf/conf_lib.h"

int simss_plan_tables(const ibp_fabric *f, const char *conf_path,
		      const char *alias_path, size_t max_input_size,
		      const char *mode, uint64_t smg, ibp_part_enforce enforce,
		      ibp_tables **out, ibp_diags *diags, ibp_error *err)
{
	*out = NULL;
	ibp_policy_run po;
	ibp_policy_run_init(&po);
	if (ibp_policy_mode_parse(mode, &po.mode) != IBP_OK)
		return ibp_error_set(err, IBP_EINVAL, "unknown mode '%s'",
				     mode);
	po.sm_port_guid = smg;
	po.part_enforce = enforce;
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	co.fabric = f;
	co.alias_guids_path = alias_path; /* VFs: guid-alias-ignored */
	co.max_input_size = max_input_size;
	ibp_conf *c = NULL;
	int rc = ibp_conf_parse_file(conf_path, &co, &c, diags, err);
	if (rc == IBP_EIO) {
		/* A plan that cannot be read is bad input, not the fabric. */
		rc = IBP_ENOENT;
		if (err)
			err->status = rc;
	}
	if (rc == IBP_OK)
		rc = ibp_policy_compute(c, f, &po, out, diags, err);
	ibp_conf_free(c);
	if (rc != IBP_OK) {
		ibp_tables_free(*out);
		*out = NULL;
	}
	return rc;
}
