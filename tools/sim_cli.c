/*
 * sim_cli.c - the sim session's findings, errors and results the way
 * `ibpart sim` and `ibpart demo` print them (see sim_cli.h).
 */
#include <string.h>

#include "cli.h"
#include "sim_cli.h"

/* The topology's findings always; the plan's too unless quiet and the
 * plan went through without an error. */
static void print_findings(const ibp_diags *d, const char *topo, bool quiet,
			   int rc)
{
	if (!quiet || rc != IBP_OK ||
	    ibp_diags_count_severity(d, IBP_SEV_ERROR)) {
		cli_print_diags(d);
		return;
	}
	ibp_diags *t = ibp_diags_new();
	if (t && ibp_diags_append(t, d, topo) == IBP_OK)
		cli_print_diags(t);
	ibp_diags_free(t);
}

int sim_cli_open(struct ibp_sim_session_options *o, bool quiet, FILE *log,
		 ibp_sim_session **out, bool *rejected)
{
	*out = NULL;
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return CLI_EXIT_SYSTEM;
	o->push = false; /* the findings first, then the push's report */
	ibp_error err;
	int rc = ibp_sim_session_open(o, out, d, &err);
	print_findings(d, o->topo_path, quiet, rc);
	if (rejected)
		*rejected = cli_diags_have(d, "opensm-fallback");
	if (rc == IBP_EINVAL && !o->sm_port && !err.file[0])
		/* The options are checked here: the fabric has no CA port
		 * for the SM, said as ibpart always said it. */
		cli_print_message("ibpart", err.message);
	else if (rc != IBP_OK && err.message[0])
		cli_print_failure(d, &err); /* unless a finding said it */
	ibp_diags_free(d);
	if (rc != IBP_OK)
		return cli_exit_status(rc, &err);
	rc = sim_cli_push(*out, o->enforce, log);
	if (rc != CLI_EXIT_OK) {
		ibp_sim_session_free(*out);
		*out = NULL;
	}
	return rc;
}

int sim_cli_push(ibp_sim_session *s, ibp_part_enforce e, FILE *log)
{
	ibp_error err;
	ibp_error_clear(&err);
	int rc = ibp_sim_session_push(s, e, &err);
	if (log)
		ibp_sm_report_print(ibp_sim_session_report(s), log);
	if (rc != IBP_OK) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return CLI_EXIT_OK;
}

int sim_cli_port(const ibp_sim_session *s, const char *spec, size_t *node,
		 unsigned *port)
{
	ibp_error err;
	if (ibp_sim_session_port(s, spec, node, port, &err) == IBP_OK)
		return CLI_EXIT_OK;
	size_t n;
	unsigned p;
	/* A port that resolves but is not an end port: the bare message. */
	if (ibp_fabric_resolve_port(ibp_sim_session_fabric(s), spec, &n, &p,
				    NULL) == IBP_OK)
		cli_print_message("ibpart", err.message);
	else
		cli_print_error(&err);
	return CLI_EXIT_USAGE;
}

int sim_cli_smpquery(ibp_sim_session *s, const char *addr,
		     ibp_smpquery_addr how, unsigned port, FILE *out)
{
	size_t n;
	unsigned p;
	int rc = how == IBP_SMPQUERY_DR ? CLI_EXIT_OK
					: sim_cli_port(s, addr, &n, &p);
	if (rc != CLI_EXIT_OK)
		return rc;
	ibp_error err;
	rc = ibp_sim_session_smpquery_pkeys_ex(s, addr, how, port, out, &err);
	if (rc == IBP_OK)
		return CLI_EXIT_OK;
	cli_print_message("ibpart sim smpquery", err.message);
	return cli_exit_status(rc, &err);
}

int sim_cli_pingpong(ibp_sim_session *s, const char *src, const char *dst,
		     const struct ibp_sim_pingpong_options *po, FILE *out)
{
	size_t n;
	unsigned p;
	int rc = sim_cli_port(s, src, &n, &p);
	if (rc == CLI_EXIT_OK)
		rc = sim_cli_port(s, dst, &n, &p);
	if (rc != CLI_EXIT_OK)
		return rc;
	struct ibp_sim_pingpong_result res;
	ibp_error err;
	rc = ibp_sim_session_pingpong(s, src, dst, po, out, &res, &err);
	if (rc != IBP_OK) {
		cli_print_error(&err);
		return cli_exit_status(rc, &err);
	}
	return res.outcome == IBP_SIM_PINGPONG_COMPLETED ? CLI_EXIT_OK
							 : CLI_EXIT_FOUND;
}

int sim_cli_probe_matrix(ibp_sim_session *s, FILE *out,
			 struct ibp_sim_probe_result *res)
{
	ibp_error err;
	if (ibp_sim_session_probe_matrix(s, out, res, &err) == IBP_OK)
		return CLI_EXIT_OK;
	cli_print_message("ibpart", err.message);
	return CLI_EXIT_SYSTEM;
}

int sim_cli_counters(ibp_sim_session *s, FILE *out)
{
	ibp_error err;
	int rc = ibp_sim_session_counters(s, out, &err);
	if (rc != IBP_OK)
		cli_print_error(&err);
	return cli_exit_status(rc, &err);
}
