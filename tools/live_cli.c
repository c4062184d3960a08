/*
 * live_cli.c - the part of `ibpart verify` and `ibpart apply` they share
 * (see live_cli.h): options, opening the session, and printing a
 * verification.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpart/policy.h"
#include "ibpart/verify.h"
#include "live_cli.h"

void lc_init(struct lc *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	ibp_live_options_init(&c->lo);
	/* OpenSM's part_enforce default (both): set where a switch's
	 * SwitchInfo says it implements the bits (ibsim's do not: the SM
	 * then leaves them, as OpenSM does there). */
	c->lo.enforce = IBP_ENFORCE_BOTH;
	c->mode = "opensm";
	c->format = "text";
}

const char *lc_guid(uint64_t g, char buf[24])
{
	snprintf(buf, 24, "0x%016llx", (unsigned long long)g);
	return buf;
}

int lc_parse_opt(struct lc *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	unsigned long long v;
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
		c->quiet = true;
		return 1;
	}
	if (!strcmp(a, "-W") || !strcmp(a, "--allow-both-pkeys")) {
		c->allow_both = true;
		return 1;
	}
	static const char *const with_value[] = {
	    "-c",	  "--conf",    "-t",	    "--topo",
	    "--topology", "--mode",    "--sm-port", "-C",
	    "--Ca",	  "-P",	       "--Port",    "--mkey",
	    "--timeout",  "--retries", "--format",  "--max-wire-smps",
	};
	bool known = false;
	for (size_t k = 0; k < sizeof(with_value) / sizeof(*with_value); k++)
		if (!strcmp(a, with_value[k]))
			known = true;
	if (!known)
		return 0;
	if (*i + 1 >= argc) {
		cli_usage_error(c->cmd, "%s needs a value", a);
		return -1;
	}
	const char *val = argv[++*i];
	if (!strcmp(a, "-c") || !strcmp(a, "--conf"))
		c->conf = val;
	else if (!strcmp(a, "-t") || !strcmp(a, "--topo") ||
		 !strcmp(a, "--topology"))
		c->topo = val;
	else if (!strcmp(a, "--mode")) {
		if (strcmp(val, "opensm") && strcmp(val, "strict")) {
			cli_usage_error(c->cmd,
					"--mode is opensm or strict, not '%s'",
					val);
			return -1;
		}
		c->mode = val;
	} else if (!strcmp(a, "--sm-port"))
		c->sm_port = val;
	else if (!strcmp(a, "-C") || !strcmp(a, "--Ca"))
		c->lo.ca = val;
	else if (!strcmp(a, "-P") || !strcmp(a, "--Port")) {
		if (!cli_parse_uint(val, 0, 254, &v)) {
			cli_usage_error(c->cmd, "bad port '%s'", val);
			return -1;
		}
		c->lo.port = (int)v;
	} else if (!strcmp(a, "--mkey")) {
		if (!cli_parse_uint(val, 0, UINT64_MAX, &v)) {
			cli_usage_error(c->cmd, "bad M_Key '%s'", val);
			return -1;
		}
		c->lo.mkey = v;
	} else if (!strcmp(a, "--timeout")) {
		if (!cli_parse_uint(val, 1, 600000, &v)) {
			cli_usage_error(c->cmd, "bad timeout '%s'", val);
			return -1;
		}
		c->lo.timeout_ms = (int)v;
	} else if (!strcmp(a, "--retries")) {
		if (!cli_parse_uint(val, 0, 100, &v)) {
			cli_usage_error(c->cmd, "bad retries '%s'", val);
			return -1;
		}
		c->lo.retries = (int)v;
	} else if (!strcmp(a, "--max-wire-smps")) {
		if (!cli_parse_uint(val, 1, 64, &v)) {
			cli_usage_error(c->cmd, "bad --max-wire-smps '%s'",
					val);
			return -1;
		}
		c->lo.max_wire_smps = (unsigned)v;
	} else if (!strcmp(a, "--format")) {
		if (strcmp(val, "text") && strcmp(val, "json")) {
			cli_usage_error(
			    c->cmd, "--format is text or json, not '%s'", val);
			return -1;
		}
		c->format = val;
	}
	return 1;
}

int lc_open(struct lc *c)
{
	ibp_error err;
	ibp_error_clear(&err);
	if (c->topo) {
		int rc = cli_load_fabric(c->topo, NULL, &c->topo_fabric);
		if (rc)
			return rc;
	}
	c->lo.progress = c->quiet ? NULL : cli_progress;
	if (ibp_live_open(&c->lo, &c->l, &err) ||
	    ibp_live_discover(c->l, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	ibp_live_set_topology(c->l, c->topo_fabric);
	if (ibp_live_find_sm(c->l, c->sm_port, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

void lc_close(struct lc *c)
{
	ibp_live_close(c->l);
	ibp_fabric_free(c->topo_fabric);
	c->l = NULL;
	c->topo_fabric = NULL;
}

int lc_fail(const ibp_error *err, int status)
{
	cli_print_error(err);
	return status == IBP_EPARSE || status == IBP_EINVAL ? CLI_EXIT_USAGE
							    : CLI_EXIT_SYSTEM;
}

void lc_print_diags(ibp_diags *d)
{
	ibp_diags_sort(d);
	if (ibp_diags_count_severity(d, IBP_SEV_ERROR) ||
	    ibp_diags_count_severity(d, IBP_SEV_WARNING))
		cli_print_diags(d);
}

int lc_verify(struct lc *c, const ibp_tables *previous, bool matrix, bool audit)
{
	struct ibp_verify_options vo;
	ibp_verify_options_init(&vo);
	vo.conf_path = c->conf;
	vo.mode = c->mode;
	vo.allow_both_pkeys = c->allow_both;
	vo.previous = previous;
	vo.matrix = matrix;
	vo.audit = audit;
	ibp_error err;
	ibp_error_clear(&err);
	ibp_diags *d = ibp_diags_new();
	ibp_verify_result *r = NULL;
	int rc = ibp_verify(c->l, &vo, &r, d, &err);
	lc_print_diags(d);
	ibp_diags_free(d);
	if (rc)
		return lc_fail(&err, rc);
	if (!strcmp(c->format, "json")) {
		char *s = ibp_verify_result_json(r);
		if (s)
			printf("%s\n", s);
		free(s);
	} else {
		ibp_verify_result_print(r, stdout);
	}
	fflush(stdout);
	bool drifted = ibp_verify_result_differences(r, NULL) > 0;
	ibp_verify_result_free(r);
	return drifted ? CLI_EXIT_FOUND : CLI_EXIT_OK;
}
