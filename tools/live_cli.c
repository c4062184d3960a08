/*
 * live_cli.c - the part of `ibpart verify` and `ibpart apply` they share
 * (see live_cli.h): options, opening the session, and printing a
 * verification.
 */
#include <stddef.h>
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
	c->in.takes = CLI_IN_TOPO | CLI_IN_CONF | CLI_IN_MODE | CLI_IN_SM_PORT;
	c->in.mode = "opensm";
	c->format = "text";
	lc_mkey_env(&c->lo);
}

const char *lc_guid(uint64_t g, char buf[24])
{
	snprintf(buf, 24, "0x%016llx", (unsigned long long)g);
	return buf;
}

/* The numeric options of the session: name, alias, range, where. */
struct num_opt {
	const char *name, *alias, *what;
	unsigned long long min, max;
	int kind; /* 0 int, 1 uint64, 2 unsigned */
	size_t off;
};
#define NUM(n, a, w, lo, hi, k, f)                                             \
	{                                                                      \
		n, a, w, lo, hi, k, offsetof(struct ibp_live_options, f)       \
	}
static const struct num_opt num_opts[] = {
    NUM("-P", "--Port", "port", 0, 254, 0, port),
    NUM("--mkey", NULL, "M_Key", 0, UINT64_MAX, 1, mkey),
    NUM("--timeout", NULL, "timeout", 1, 600000, 0, timeout_ms),
    NUM("--retries", NULL, "retries", 0, 100, 0, retries),
    NUM("--max-wire-smps", NULL, "--max-wire-smps", 1, 64, 2, max_wire_smps),
};

static int num_opt(const char *cmd, struct ibp_live_options *lo,
		   const struct num_opt *o, const char *val)
{
	unsigned long long v;
	if (!cli_parse_uint(val, o->min, o->max, &v)) {
		cli_usage_error(cmd, "bad %s '%s'", o->what, val);
		return -1;
	}
	char *dst = (char *)lo + o->off;
	if (o->kind == 1)
		*(uint64_t *)(void *)dst = v;
	else if (o->kind == 2)
		*(unsigned *)(void *)dst = (unsigned)v;
	else
		*(int *)(void *)dst = (int)v;
	return 1;
}

static const struct num_opt *find_num(const char *name)
{
	for (size_t k = 0; k < sizeof(num_opts) / sizeof(*num_opts); k++)
		if (!strcmp(name, num_opts[k].name) ||
		    (num_opts[k].alias && !strcmp(name, num_opts[k].alias)))
			return &num_opts[k];
	return NULL;
}

int lc_enforce_opt(struct lc *c, const char *val)
{
	ibp_part_enforce e;
	if (!strcmp(val, "unchanged"))
		c->lo.enforce = -1;
	else if (ibp_part_enforce_parse(val, &e))
		return cli_usage_error(c->cmd, "bad --enforce '%s'", val);
	else
		c->lo.enforce = (int)e;
	return 0;
}

int lc_port_opt(const char *cmd, struct ibp_live_options *lo, const char *name,
		const char *val)
{
	if (!strcmp(name, "--mkey-file"))
		return cli_mkey_file(cmd, val, &lo->mkey) ? -1 : 1;
	const struct num_opt *num = find_num(name);
	return num ? num_opt(cmd, lo, num, val) : 0;
}

void lc_mkey_env(struct ibp_live_options *lo)
{
	/* IBPART_MKEY: the M_Key without putting it where ps shows it
	 * (--mkey and --mkey-file override it) */
	const char *env = getenv("IBPART_MKEY");
	unsigned long long v;
	if (env && *env && cli_parse_uint(env, 0, UINT64_MAX, &v))
		lo->mkey = v;
}

int lc_parse_opt(struct lc *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
		c->quiet = true;
		return 1;
	}
	if (!strcmp(a, "-W") || !strcmp(a, "--allow-both-pkeys")) {
		c->allow_both = true;
		return 1;
	}
	int r = cli_input_opt(c->cmd, &c->in, argc, argv, i);
	if (r)
		return r;
	bool ca = !strcmp(a, "-C") || !strcmp(a, "--Ca");
	bool fmt = !strcmp(a, "--format");
	bool port = find_num(a) || !strcmp(a, "--mkey-file");
	if (!ca && !fmt && !port)
		return 0;
	if (*i + 1 >= argc) {
		cli_usage_error(c->cmd, "%s needs a value", a);
		return -1;
	}
	const char *val = argv[++*i];
	if (port)
		return lc_port_opt(c->cmd, &c->lo, a, val);
	if (ca) {
		c->lo.ca = val;
	} else if (strcmp(val, "text") && strcmp(val, "json")) {
		cli_usage_error(c->cmd, "--format is text or json, not '%s'",
				val);
		return -1;
	} else {
		c->format = val;
	}
	return 1;
}

int lc_open(struct lc *c)
{
	ibp_error err;
	ibp_error_clear(&err);
	if (c->in.topo) {
		int rc = cli_load_fabric(c->in.topo, NULL, &c->topo_fabric);
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
	if (ibp_live_find_sm(c->l, c->in.sm_port, &err)) {
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
	vo.conf_path = c->in.conf;
	vo.mode = c->in.mode;
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
