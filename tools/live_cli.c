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
		ibp_diags_print(d, stderr);
}

static void print_item(const ibp_fabric *f, const struct ibp_drift_item *it,
		       const char *prefix, FILE *out)
{
	char g[24], w[8], h[8];
	snprintf(w, sizeof(w), "0x%04x", it->want_pkey);
	snprintf(h, sizeof(h), "0x%04x", it->have_pkey);
	uint64_t pg = ibp_fabric_port_guid(f, it->node, it->port);
	fprintf(out, "%s %s port %-3u %-20s %-11s ", prefix,
		lc_guid(pg ? pg : ibp_fabric_node_guid(f, it->node), g),
		it->port, ibp_fabric_node_desc(f, it->node),
		ibp_drift_kind_str(it->kind));
	switch (it->kind) {
	case IBP_DRIFT_MISSING:
		fprintf(out, "%s wanted at index %d, not in the table\n", w,
			it->want_index);
		break;
	case IBP_DRIFT_EXTRA:
		fprintf(out, "%s held at index %d, not in the plan\n", h,
			it->have_index);
		break;
	case IBP_DRIFT_MEMBERSHIP:
		fprintf(out, "index %d holds %s (%s), the plan wants %s (%s)\n",
			it->have_index, h,
			(it->have_pkey & 0x8000) ? "full" : "limited", w,
			(it->want_pkey & 0x8000) ? "full" : "limited");
		break;
	case IBP_DRIFT_INDEX:
		fprintf(out, "%s at index %d, the plan puts it at %d\n", h,
			it->have_index, it->want_index);
		break;
	case IBP_DRIFT_UNREACHABLE:
		fprintf(out, "the port's table could not be read (not "
			     "discovered or not answering)\n");
		break;
	}
}

static void print_drift(const ibp_verify_result *r, ibp_drift_sel sel,
			const char *prefix)
{
	const ibp_drift *d = ibp_verify_result_drift(r);
	for (size_t i = 0; i < ibp_drift_count(d); i++)
		if (ibp_drift_item_selected(ibp_drift_at(d, i), sel))
			print_item(ibp_verify_result_fabric(r),
				   ibp_drift_at(d, i), prefix, stdout);
}

static void print_absent(const ibp_verify_result *r)
{
	for (size_t i = 0; i < ibp_verify_result_absent_count(r); i++) {
		const struct ibp_absent_member *a =
		    ibp_verify_result_absent_at(r, i);
		char g[24];
		printf("note: %s%s%s%s named by the plan (%s:%u) is not a port "
		       "of the fabric; OpenSM skips it too%s%s\n",
		       lc_guid(a->guid, g), a->by_name ? " (" : "",
		       a->by_name ? a->text : "", a->by_name ? ")" : "",
		       a->conf_file, a->conf_line, a->hint[0] ? "; " : "",
		       a->hint);
	}
}

static void print_text(const ibp_verify_result *r)
{
	size_t nports = 0, ndiff = ibp_verify_result_differences(r, &nports);
	size_t nnotes = ibp_verify_result_index_notes(r);
	size_t checked = ibp_drift_ports_checked(ibp_verify_result_drift(r));
	print_drift(r, ibp_verify_result_selection(r), "DRIFT");
	if (nnotes) {
		print_drift(r, IBP_DRIFT_SEL_INDEX_ONLY, "note:");
		printf("note: %zu P_Key(s) at another index than predicted: "
		       "OpenSM puts a P_Key back where it was before, which "
		       "only --previous STATE (apply's, or tables --state) "
		       "tells; not counted as drift\n",
		       nnotes);
	}
	print_absent(r);
	if (ndiff)
		printf("verify: %zu ports checked, %zu drifted, %zu "
		       "difference%s (%lu SMPs, %ld ms)\n",
		       checked, nports, ndiff, ndiff == 1 ? "" : "s",
		       ibp_verify_result_smps(r),
		       ibp_verify_result_elapsed_ms(r));
	else
		printf("verify: %zu ports checked, no drift (%lu SMPs, %ld "
		       "ms)\n",
		       checked, ibp_verify_result_smps(r),
		       ibp_verify_result_elapsed_ms(r));
	if (ibp_verify_result_matrix(r)) {
		printf("\nWhat the fabric holds, as a connectivity matrix:\n");
		ibp_matrix_report_options ro = {.mode =
						    ibp_verify_result_mode(r)};
		ibp_matrix_report(ibp_verify_result_matrix(r), IBP_MATRIX_TEXT,
				  &ro, stdout, NULL);
	}
	if (ibp_verify_result_findings(r)) {
		printf("\nAudit of what the fabric holds:\n");
		ibp_findings_print(ibp_verify_result_findings(r), stdout);
	}
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
		print_text(r);
	}
	fflush(stdout);
	bool drifted = ibp_verify_result_differences(r, NULL) > 0;
	ibp_verify_result_free(r);
	return drifted ? CLI_EXIT_FOUND : CLI_EXIT_OK;
}
