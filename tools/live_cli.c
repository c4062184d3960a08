/*
 * live_cli.c - the part of `ibpart verify` and `ibpart apply` they share
 * (see live_cli.h): options, opening the session, and printing a
 * verification.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/sys/live_connect.h"
#include "ibpart/policy.h"
#include "ibpart/verify.h"
#include "live_cli.h"
#include "front/print.h"
#include "ibpart/sys/live.h"

void lc_init(struct lc *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	ibp_live_options_init(&c->lo, IBP_LIVE_OPTIONS_VERSION);
	/* OpenSM's part_enforce default (both): set where a switch's
	 * SwitchInfo says it implements the bits (ibsim's do not: the SM
	 * then leaves them, as OpenSM does there). */
	c->lo.enforce = IBP_ENFORCE_BOTH;
	c->enforce = INT_MIN; /* --enforce not given */
	c->in.mode = "opensm";
	c->format = "text";
	c->fail_on = IBP_AUDIT_HIGH; /* as `ibpart audit` */
	c->mkey_env_rc = lc_mkey_env(&c->lo);
}

int lc_take_mkey_file(const char *cmd, void *dest, const char *path)
{
	ibp_error err;
	if (ibp_mkey_file_read(path, dest, &err) == IBP_OK)
		return 0;
	char who[64];
	snprintf(who, sizeof(who), "ibpart %s", cmd);
	cli_print_message(who, err.message);
	return -1;
}

int lc_mkey_env(struct ibp_live_options *lo)
{
	/* IBPART_MKEY: the M_Key without putting it where ps shows it
	 * (--mkey and --mkey-file override it) */
	const char *env = getenv("IBPART_MKEY");
	if (!env || !*env || ibp_mkey_parse(env, &lo->mkey) == IBP_OK)
		return 0;
	return -1;
}

int lc_mkey_env_refused(const char *cmd)
{
	fprintf(stderr,
		"ibpart %s: IBPART_MKEY is not an M_Key (a number "
		"0..18446744073709551615, decimal or 0x hex)\n",
		cmd);
	return CLI_EXIT_USAGE;
}

/* ibp_live_connect's topology_loaded: its findings, before the port's
 * progress. */
static void print_topology_findings(void *ctx, const ibp_diags *d)
{
	(void)ctx;
	cli_print_diags(d);
}

int lc_open(struct lc *c)
{
	if (c->mkey_env_rc)
		return lc_mkey_env_refused(c->cmd);
	c->lo.progress = c->quiet ? NULL : cli_progress;
	struct ibp_live_connect_options o;
	ibp_live_connect_options_init(&o, IBP_LIVE_CONNECT_OPTIONS_VERSION);
	o.live = &c->lo;
	o.topology_path = c->in.topo;
	o.max_input_size = cli_common.max_input_size;
	o.sm_port = c->in.sm_port;
	o.topology_loaded = print_topology_findings;
	ibp_live_connection conn;
	ibp_live_connect_step step;
	ibp_error err;
	int rc = ibp_live_connect(&o, &conn, NULL, &step, &err);
	c->l = conn.live;
	c->topo_fabric = conn.topology;
	if (rc && step == IBP_LIVE_CONNECT_TOPOLOGY)
		return cli_exit_status(rc, NULL);
	if (rc)
		cli_print_error(&err);
	return !rc				 ? CLI_EXIT_OK
	       : step == IBP_LIVE_CONNECT_FABRIC ? CLI_EXIT_SYSTEM
						 : CLI_EXIT_USAGE;
}

int lc_opensm_conf(struct lc *c)
{
	struct cli_op op;
	c->osm.version = IBP_OSM_CONF_VERSION;
	if (c->osm_conf_path) {
		if (cli_op_begin(&op))
			return CLI_EXIT_SYSTEM;
		int rc = ibp_osm_conf_load_diags(c->osm_conf_path, &c->osm,
						 op.diags, &op.err);
		if ((rc = cli_op_end(&op, rc, CLI_OP_SERIOUS | CLI_OP_ERROR)))
			return rc;
		c->have_osm = true;
		c->allow_both = c->allow_both || c->osm.allow_both_pkeys;
	}
	if (c->enforce != INT_MIN) /* "unchanged": -1 */
		c->lo.enforce = c->enforce == LC_UNCHANGED ? -1 : c->enforce;
	else if (c->have_osm)
		c->lo.enforce = (int)ibp_osm_conf_enforce(&c->osm);
	return CLI_EXIT_OK;
}

void lc_close(struct lc *c)
{
	ibp_live_close(c->l);
	ibp_fabric_free(c->topo_fabric);
	c->l = NULL;
	c->topo_fabric = NULL;
}

int lc_verify(struct lc *c, const ibp_tables *previous, bool matrix, bool audit)
{
	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo, IBP_VERIFY_OPTIONS_VERSION);
	vo.conf_path = c->in.conf;
	vo.mode = c->in.mode;
	vo.allow_both_pkeys = c->allow_both;
	vo.compact_pkey_indexes = c->have_osm && !c->osm.keep_pkey_indexes;
	vo.previous = previous;
	vo.matrix = matrix;
	vo.audit = audit;
	vo.max_input_size = cli_common.max_input_size;
	vo.alias_guids_path = c->in.alias_guids;
	vo.vf_guids = (ibp_vf_guids)c->in.vf_guids;
	struct cli_op op;
	ibp_verify_result *r = NULL;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	int rc = ibp_verify(c->l, &vo, &r, op.diags, &op.err);
	if ((rc = cli_op_end(&op, rc, CLI_OP_SERIOUS | CLI_OP_ERROR)))
		return rc;
	if (!strcmp(c->format, "json"))
		cli_put_json(ibp_verify_result_json(r), stdout);
	else
		ibp_verify_result_print(r, stdout);
	fflush(stdout);
	bool drifted = ibp_verify_result_differences(r, NULL) > 0;
	const ibp_findings *f = audit ? ibp_verify_result_findings(r) : NULL;
	bool alarm = f && ibp_findings_max_severity(f) >= c->fail_on;
	ibp_verify_result_free(r);
	return drifted || alarm ? CLI_EXIT_FOUND : CLI_EXIT_OK;
}
