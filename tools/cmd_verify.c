/*
 * cmd_verify.c - `ibpart verify`: read every programmed port's P_KeyTable
 * from the live fabric over SMPs, compare with the tables the plan implies,
 * and report drift port by port (missing, extra, wrong membership, wrong
 * index, unreachable); optionally the reach matrix and the audit of what
 * the fabric really holds.  Exit 1 on drift.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "ibpart/analysis.h"
#include "ibpart/live.h"
#include "live_cli.h"

static const char usage[] =
    "usage: ibpart verify -c CONF [-t TOPO] [--mode opensm|strict]\n"
    "                     [--sm-port PORT] [--previous STATE] [--matrix]\n"
    "                     [--audit] [--format text|json] [-C CA] [-P PORT]\n"
    "                     [--mkey KEY] [--timeout MS] [--retries N] [-q]\n"
    "\n"
    "Read the P_KeyTable of every port the plan programs from the live\n"
    "fabric (directed-route SubnGet(P_KeyTable), discovering the fabric\n"
    "first) and compare it with the table the plan implies.  Each\n"
    "difference is one line (or one JSON object):\n"
    "  missing      a P_Key the plan wants is not in the port's table\n"
    "  extra        the port holds a P_Key the plan does not give it\n"
    "  membership   the right partition with the wrong full/limited bit\n"
    "  index        the right P_Key at another index than planned\n"
    "  unreachable  the port could not be read\n"
    "A port GUID the plan names that the fabric does not have is listed\n"
    "as absent (JSON: \"absent\") but is not drift: OpenSM skips it too,\n"
    "and without a topology an unplugged port and a GUID that never\n"
    "existed look the same.  With -t, a topology port that cannot be\n"
    "read is drift (unreachable).\n"
    "\n" LC_COMMON_USAGE
    "      --previous STATE  the tables the ports held before the plan was\n"
    "                       applied (a state file of `ibpart apply`):\n"
    "                       OpenSM keeps surviving P_Keys at their index,\n"
    "                       so this predicts indices after a change\n"
    "      --matrix         also the connectivity matrix of the tables\n"
    "                       the fabric holds\n"
    "      --audit          also the security audit of those tables\n"
    "\n"
    "Exit: 0 no drift, 1 drift, 2 bad input, 3 the fabric failed.\n";

static int load_previous(struct lc *c, const char *path, ibp_tables **out)
{
	ibp_error err;
	ibp_error_clear(&err);
	if (ibp_state_load(c->f, path, true, out, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

static json_t *capture_json(int (*fn)(void *, FILE *), void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem)
		return NULL;
	int rc = fn(arg, mem);
	fclose(mem);
	json_t *j = NULL;
	if (rc == 0)
		j = json_loadb(buf, len, 0, NULL);
	free(buf);
	return j;
}

struct mat_arg {
	ibp_matrix *m;
	const char *mode;
};

static int matrix_json(void *arg, FILE *out)
{
	struct mat_arg *a = arg;
	ibp_matrix_report_options ro = {.mode = a->mode};
	return ibp_matrix_report(a->m, IBP_MATRIX_JSON, &ro, out, NULL);
}

static int findings_json(void *arg, FILE *out)
{
	char *s = ibp_findings_to_json(arg);
	if (!s)
		return -1;
	fputs(s, out);
	free(s);
	return 0;
}

/* GUIDs the plan names that the fabric does not have (unplugged, link
 * down, or a GUID that never existed).  Listed, not counted as drift: the
 * ports present hold what the plan implies for them, and OpenSM skips
 * such GUIDs the same way.  A port of a given topology that cannot be
 * read is drift ("unreachable", from ibp_drift_compute). */
static size_t absent_ports(const struct lc *c, const ibp_conf *conf,
			   json_t *arr, bool print)
{
	size_t n = 0;
	uint64_t seen[256];
	size_t nseen = 0;
	for (size_t i = 0; i < ibp_conf_partition_count(conf); i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(conf, i);
		for (size_t k = 0; k < ibp_conf_partition_member_count(p);
		     k++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, k);
			if ((m->kind != IBP_MEMBER_GUID &&
			     m->kind != IBP_MEMBER_NAME) ||
			    !m->guid)
				continue;
			size_t nn;
			unsigned pp;
			if (!ibp_fabric_find_port_guid(c->f, m->guid, &nn, &pp))
				continue;
			bool dup = false;
			for (size_t s = 0; s < nseen; s++)
				dup = dup || seen[s] == m->guid;
			if (dup)
				continue;
			if (nseen < sizeof(seen) / sizeof(*seen))
				seen[nseen++] = m->guid;
			n++;
			/* A CA's node GUID where a port GUID belongs: say
			 * which port GUID was probably meant. */
			char hint[160] = "";
			if (!ibp_fabric_find_node_guid(c->f, m->guid, &nn)) {
				char pg[24];
				snprintf(
				    hint, sizeof(hint),
				    "; it is the node GUID of %s, whose "
				    "port 1 is %s (OpenSM matches port "
				    "GUIDs)",
				    ibp_fabric_node_desc(c->f, nn),
				    lc_guid(ibp_fabric_port_guid(c->f, nn, 1),
					    pg));
			}
			char g[24], name[96] = "";
			if (m->kind == IBP_MEMBER_NAME)
				snprintf(name, sizeof(name), " (%s)", m->text);
			if (print)
				printf("note: %s%s named by the plan (%s:%u) "
				       "is not a port of the fabric; OpenSM "
				       "skips it too%s\n",
				       lc_guid(m->guid, g), name,
				       ibp_conf_file(conf), m->pos.line, hint);
			if (arr) {
				json_t *o =
				    json_pack("{s:s, s:s, s:i}", "port_guid",
					      lc_guid(m->guid, g), "conf_file",
					      ibp_conf_file(conf), "conf_line",
					      (int)m->pos.line);
				if (hint[0])
					json_object_set_new(
					    o, "hint", json_string(hint + 2));
				json_array_append_new(arr, o);
			}
		}
	}
	return n;
}

int live_verify_run(struct lc *c, const ibp_tables *previous, bool matrix,
		    bool audit, bool *drifted)
{
	ibp_tables *have = NULL, *want = NULL;
	ibp_drift *d = NULL;
	ibp_matrix *m = NULL;
	ibp_findings *fnd = NULL;
	ibp_conf *conf = NULL;
	ibp_error err;
	ibp_error_clear(&err);
	bool json = !strcmp(c->format, "json");
	*drifted = false;
	int rc = lc_read(c, &have);
	if (rc)
		goto out;
	/* A plan with errors, or one OpenSM would reject (and fall back to
	 * ALL=full), is not verified against: "no drift" would bless a
	 * fabric with no isolation.  Indices: from --previous when given;
	 * otherwise a P_Key a port holds is expected where it is (OpenSM
	 * keeps surviving P_Keys in place), and an index difference is only
	 * a note - where OpenSM puts a P_Key it held before is in its
	 * memory, not in the fabric. */
	rc = lc_plan(c, previous ? previous : have, true, &want, &conf);
	if (rc)
		goto out;
	if (ibp_drift_compute(want, have, &d, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	size_t sm_n = 0;
	unsigned sm_p = 0;
	ibp_fabric_find_port_guid(c->f, c->sm_guid, &sm_n, &sm_p);
	if (matrix || audit) {
		ibp_matrix_options mo = {0};
		if (ibp_matrix_build(have, &mo, &m, &err)) {
			cli_print_error(&err);
			rc = CLI_EXIT_SYSTEM;
			goto out;
		}
	}
	if (audit) {
		fnd = ibp_findings_new();
		ibp_audit_input ai = {
		    .tables = have,
		    .sm_node = sm_n,
		    .sm_port = sm_p,
		    .matrix = m,
		};
		if (!fnd || ibp_audit_run(&ai, fnd, &err)) {
			cli_print_error(&err);
			rc = CLI_EXIT_SYSTEM;
			goto out;
		}
		ibp_findings_sort(fnd);
	}
	enum lc_drift_sel sel = previous ? LC_DRIFT_ALL : LC_DRIFT_NO_INDEX;
	size_t nports = 0, nnotes = 0;
	size_t ndiff = lc_drift_count(d, sel, &nports);
	if (!previous)
		nnotes = lc_drift_count(d, LC_DRIFT_INDEX_ONLY, NULL);
	*drifted = ndiff > 0;
	char g[24];
	if (json) {
		json_t *root =
		    json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i}", "mode",
			      c->mode, "sm_port_guid", lc_guid(c->sm_guid, g),
			      "ports_checked", (int)ibp_drift_ports_checked(d),
			      "ports_drifted", (int)nports, "differences",
			      (int)ndiff, "smps", (int)lc_smps(c), "elapsed_ms",
			      (int)ibp_live_elapsed_ms(c->l));
		json_object_set_new(root, "drift", lc_drift_json(c, d, sel));
		json_object_set_new(
		    root, "index_notes",
		    previous ? json_array()
			     : lc_drift_json(c, d, LC_DRIFT_INDEX_ONLY));
		json_t *abs = json_array();
		absent_ports(c, conf, abs, false);
		json_object_set_new(root, "absent", abs);
		if (matrix) {
			struct mat_arg a = {m, c->mode};
			json_t *mj = capture_json(matrix_json, &a);
			json_object_set_new(root, "matrix",
					    mj ? mj : json_null());
		}
		if (audit) {
			json_t *aj = capture_json(findings_json, fnd);
			json_object_set_new(root, "audit",
					    aj ? aj : json_null());
		}
		json_dumpf(root, stdout, JSON_INDENT(1));
		fputc('\n', stdout);
		json_decref(root);
	} else {
		lc_print_drift_text(c, d, sel, "DRIFT", stdout);
		if (nnotes) {
			lc_print_drift_text(c, d, LC_DRIFT_INDEX_ONLY,
					    "note:", stdout);
			printf("note: %zu P_Key(s) at another index than "
			       "predicted: OpenSM puts a P_Key back where it "
			       "was before, which only --previous STATE "
			       "(apply's, or tables --state) tells; not "
			       "counted as drift\n",
			       nnotes);
		}
		absent_ports(c, conf, NULL, true);
		if (ndiff)
			printf("verify: %zu ports checked, %zu drifted, %zu "
			       "difference%s (%lu SMPs, %ld ms)\n",
			       ibp_drift_ports_checked(d), nports, ndiff,
			       ndiff == 1 ? "" : "s", lc_smps(c),
			       ibp_live_elapsed_ms(c->l));
		else
			printf("verify: %zu ports checked, no drift (%lu "
			       "SMPs, %ld ms)\n",
			       ibp_drift_ports_checked(d), lc_smps(c),
			       ibp_live_elapsed_ms(c->l));
		if (matrix) {
			printf("\nWhat the fabric holds, as a connectivity "
			       "matrix:\n");
			ibp_matrix_report_options ro = {.mode = c->mode};
			ibp_matrix_report(m, IBP_MATRIX_TEXT, &ro, stdout,
					  NULL);
		}
		if (audit) {
			printf("\nAudit of what the fabric holds:\n");
			ibp_findings_print(fnd, stdout);
		}
	}
	fflush(stdout);
	rc = *drifted ? CLI_EXIT_FOUND : CLI_EXIT_OK;
out:
	ibp_conf_free(conf);
	ibp_findings_free(fnd);
	ibp_matrix_free(m);
	ibp_drift_free(d);
	ibp_tables_free(want);
	ibp_tables_free(have);
	return rc;
}

static int run(int argc, char **argv)
{
	struct lc c;
	lc_init(&c, "verify");
	bool matrix = false, audit = false;
	const char *previous_path = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = lc_parse_opt(&c, argc, argv, &i);
		if (r < 0)
			return CLI_EXIT_USAGE;
		if (r > 0)
			continue;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		} else if (!strcmp(a, "--matrix"))
			matrix = true;
		else if (!strcmp(a, "--audit"))
			audit = true;
		else if (!strcmp(a, "--previous") && i + 1 < argc)
			previous_path = argv[++i];
		else if (a[0] != '-' && !c.conf)
			c.conf = a; /* like check/tables: CONF positional */
		else
			return cli_usage_error("verify",
					       "unknown argument '%s'", a);
	}
	if (!c.conf)
		return cli_usage_error("verify", "-c CONF is required");
	int rc = lc_open(&c);
	ibp_tables *previous = NULL;
	if (!rc && previous_path)
		rc = load_previous(&c, previous_path, &previous);
	bool drifted = false;
	if (!rc)
		rc = live_verify_run(&c, previous, matrix, audit, &drifted);
	ibp_tables_free(previous);
	lc_close(&c);
	return rc;
}

const struct cli_cmd cli_cmd_verify = {
    .name = "verify",
    .summary = "compare the live fabric's P_Key tables with a plan",
    .usage = usage,
    .run = run,
};
