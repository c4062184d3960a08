/*
 * sim_policy.c - the desired P_Key tables for `ibpart sim` / `ibpart
 * demo`: the plan read by conf (either dialect, names resolved through the
 * fabric) and handed to the partition manager (policy.h) in the asked
 * mode.  A plan in the seed's block dialect means the plan it describes
 * (the partition manager sets OpenSM's verdict on its syntax aside;
 * `ibpart check` reports it).  Findings go to stderr: all of them, or
 * (quiet) only when there is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/conf.h"
#include "ibpart/policy.h"
#include "sim_session.h"

int sim_policy_tables(const ibp_fabric *f, const char *conf_path,
		      const char *mode, uint64_t smg, ibp_part_enforce enforce,
		      bool quiet, ibp_tables **out)
{
	*out = NULL;
	ibp_policy_options po;
	ibp_policy_options_init(&po);
	if (ibp_policy_mode_parse(mode, &po.mode) != IBP_OK) {
		fprintf(stderr, "ibpart: unknown mode '%s'\n", mode);
		return CLI_EXIT_USAGE;
	}
	po.sm_port_guid = smg;
	po.part_enforce = enforce;
	ibp_conf_options co;
	ibp_conf_options_init(&co);
	co.fabric = f;
	ibp_conf *c = NULL;
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_conf_parse_file(conf_path, &co, &c, d, &err);
	if (rc == IBP_OK)
		rc = ibp_policy_compute(c, f, &po, out, d, &err);
	size_t errors = ibp_diags_count_severity(d, IBP_SEV_ERROR);
	if (!quiet || errors || rc != IBP_OK)
		ibp_diags_print(d, stderr);
	ibp_diags_free(d);
	ibp_conf_free(c);
	if (rc != IBP_OK) {
		if (err.message[0])
			cli_print_error(&err);
		ibp_tables_free(*out);
		*out = NULL;
		return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}
