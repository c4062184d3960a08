/*
 * live_cli.c - the part of `ibpart verify` and `ibpart apply` they share
 * (see live_cli.h): options, opening the fabric, reading it, planning,
 * and printing drift.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli.h"
#include "ibpart/sm.h"
#include "live_cli.h"

void lc_init(struct lc *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	ibp_live_options_init(&c->lo);
	c->lo.progress = true;
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
		c->lo.progress = false;
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
	if (ibp_live_open(&c->lo, &c->l, &err) ||
	    ibp_live_discover(c->l, &err)) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	c->smps_discover = lc_smps(c);
	c->f =
	    c->topo_fabric ? c->topo_fabric : ibp_sm_fabric(ibp_live_sm(c->l));
	/* Is an SM running, and where?  Its port is the one OpenSM's plan
	 * makes a full member of the default partition; apply --direct must
	 * not fight it. */
	uint64_t msm = 0;
	bool have_msm =
	    ibp_live_master_sm_port(c->l, &msm, &c->sm_running, NULL) == IBP_OK;
	if (c->sm_port) {
		size_t n;
		unsigned p;
		if (ibp_fabric_resolve_port(c->f, c->sm_port, &n, &p, &err)) {
			cli_print_error(&err);
			return CLI_EXIT_USAGE;
		}
		c->sm_guid = ibp_fabric_port_guid(c->f, n, p);
	} else if (have_msm) {
		c->sm_guid = msm;
		char b[24];
		ibp_live_progress(c->l, "the master SM's port is %s%s",
				  lc_guid(c->sm_guid, b),
				  c->sm_running ? "" : " (no longer IsSM)");
	} else {
		/* no SM: we are the partition manager */
		c->sm_guid = ibp_live_local_port_guid(c->l);
	}
	size_t n;
	unsigned p;
	if (ibp_fabric_find_port_guid(c->f, c->sm_guid, &n, &p)) {
		char b[24];
		fprintf(stderr,
			"ibpart %s: the SM port %s is not in the %s fabric\n",
			c->cmd, lc_guid(c->sm_guid, b),
			c->topo ? "topology's" : "discovered");
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

int lc_read(struct lc *c, ibp_tables **have)
{
	ibp_error err;
	ibp_error_clear(&err);
	*have = NULL;
	ibp_live_progress(c->l, "reading every P_KeyTable ...");
	ibp_tables *raw = NULL;
	unsigned long before = lc_smps(c);
	int rrc = ibp_sm_read_tables(ibp_live_sm(c->l), &raw, &err);
	c->smps_read += lc_smps(c) - before;
	if (rrc) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	ibp_live_progress(c->l, "read %zu ports' tables (%lu SMPs so far)",
			  ibp_tables_count(raw), lc_smps(c));
	if (!c->topo_fabric) {
		*have = raw;
		return CLI_EXIT_OK;
	}
	int rc = ibp_live_remap(raw, c->f, have, &err);
	ibp_tables_free(raw);
	if (rc) {
		cli_print_error(&err);
		return CLI_EXIT_SYSTEM;
	}
	return CLI_EXIT_OK;
}

int lc_plan(struct lc *c, const ibp_tables *previous, bool fail_closed,
	    ibp_tables **want, ibp_conf **conf)
{
	if (!c->conf) {
		cli_usage_error(c->cmd, "-c CONF is required");
		return CLI_EXIT_USAGE;
	}
	struct ibp_live_plan_options po = {
	    .conf_path = c->conf,
	    .mode = c->mode,
	    .sm_port_guid = c->sm_guid,
	    .allow_both_pkeys = c->allow_both,
	    .previous = previous,
	    .fail_closed = fail_closed,
	};
	ibp_error err;
	ibp_error_clear(&err);
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_live_plan(&po, c->f, want, conf, d, &err);
	ibp_diags_sort(d);
	/* Notes about defaults are noise here; show warnings and errors. */
	if (ibp_diags_count_severity(d, IBP_SEV_ERROR) ||
	    ibp_diags_count_severity(d, IBP_SEV_WARNING))
		ibp_diags_print(d, stderr);
	ibp_diags_free(d);
	if (rc) {
		cli_print_error(&err);
		/* the plan file missing is bad input, as in check */
		return rc == IBP_ENOMEM ? CLI_EXIT_SYSTEM : CLI_EXIT_USAGE;
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

void lc_counters(const struct lc *c, unsigned long *smps,
		 unsigned long *timeouts, unsigned long *retries)
{
	*smps = *timeouts = *retries = 0;
	if (c->l)
		ibp_sm_counters(ibp_live_sm(c->l), smps, timeouts, retries);
}

unsigned long lc_smps(const struct lc *c)
{
	unsigned long smps = 0, to, re;
	if (c->l)
		ibp_sm_counters(ibp_live_sm(c->l), &smps, &to, &re);
	return smps;
}

static void pkey_str(uint16_t k, char buf[8])
{
	snprintf(buf, 8, "0x%04x", k);
}

static bool selected(const struct ibp_drift_item *it, enum lc_drift_sel sel)
{
	bool idx = it->kind == IBP_DRIFT_INDEX;
	return sel == LC_DRIFT_ALL || (sel == LC_DRIFT_INDEX_ONLY) == idx;
}

size_t lc_drift_count(const ibp_drift *d, enum lc_drift_sel sel, size_t *ports)
{
	size_t n = 0, np = 0;
	const struct ibp_drift_item *last = NULL;
	for (size_t i = 0; i < ibp_drift_count(d); i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		if (!selected(it, sel))
			continue;
		n++;
		if (!last || last->node != it->node || last->port != it->port)
			np++;
		last = it;
	}
	if (ports)
		*ports = np;
	return n;
}

void lc_print_drift_text(const struct lc *c, const ibp_drift *d,
			 enum lc_drift_sel sel, const char *prefix, FILE *out)
{
	for (size_t i = 0; i < ibp_drift_count(d); i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		if (!selected(it, sel))
			continue;
		char g[24], w[8], h[8];
		pkey_str(it->want_pkey, w);
		pkey_str(it->have_pkey, h);
		fprintf(
		    out, "%s %s port %-3u %-20s %-11s ", prefix,
		    lc_guid(ibp_fabric_port_guid(c->f, it->node, it->port)
				? ibp_fabric_port_guid(c->f, it->node, it->port)
				: ibp_fabric_node_guid(c->f, it->node),
			    g),
		    it->port, ibp_fabric_node_desc(c->f, it->node),
		    ibp_drift_kind_str(it->kind));
		switch (it->kind) {
		case IBP_DRIFT_MISSING:
			fprintf(out,
				"%s wanted at index %d, not in the table\n", w,
				it->want_index);
			break;
		case IBP_DRIFT_EXTRA:
			fprintf(out, "%s held at index %d, not in the plan\n",
				h, it->have_index);
			break;
		case IBP_DRIFT_MEMBERSHIP:
			fprintf(out,
				"index %d holds %s (%s), the plan wants %s "
				"(%s)\n",
				it->have_index, h,
				(it->have_pkey & 0x8000) ? "full" : "limited",
				w,
				(it->want_pkey & 0x8000) ? "full" : "limited");
			break;
		case IBP_DRIFT_INDEX:
			fprintf(out, "%s at index %d, the plan puts it at %d\n",
				h, it->have_index, it->want_index);
			break;
		case IBP_DRIFT_UNREACHABLE:
			fprintf(out, "the port's table could not be read (not "
				     "discovered or not answering)\n");
			break;
		}
	}
}

json_t *lc_drift_json(const struct lc *c, const ibp_drift *d,
		      enum lc_drift_sel sel)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < ibp_drift_count(d); i++) {
		const struct ibp_drift_item *it = ibp_drift_at(d, i);
		if (!selected(it, sel))
			continue;
		char g1[24], g2[24], w[8], h[8];
		pkey_str(it->want_pkey, w);
		pkey_str(it->have_pkey, h);
		json_t *o = json_pack(
		    "{s:s, s:s, s:i, s:s, s:s, s:s}", "node_guid",
		    lc_guid(ibp_fabric_node_guid(c->f, it->node), g1),
		    "port_guid",
		    lc_guid(ibp_fabric_port_guid(c->f, it->node, it->port), g2),
		    "port", (int)it->port, "node_type",
		    ibp_node_type_str(ibp_fabric_node_type(c->f, it->node)),
		    "node_desc", ibp_fabric_node_desc(c->f, it->node), "kind",
		    ibp_drift_kind_str(it->kind));
		if (it->want_index >= 0) {
			json_object_set_new(o, "want", json_string(w));
			json_object_set_new(o, "want_index",
					    json_integer(it->want_index));
		}
		if (it->have_index >= 0) {
			json_object_set_new(o, "have", json_string(h));
			json_object_set_new(o, "have_index",
					    json_integer(it->have_index));
		}
		json_array_append_new(arr, o);
	}
	return arr;
}
