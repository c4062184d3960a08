/*
 * cmd_apply.c - `ibpart apply`: make the live fabric hold a plan.
 *
 *  --direct      ibpart is the partition manager: read every table, save
 *                them to a state file, SubnSet(P_KeyTable) only the
 *                blocks that differ (the SM reads each back and retries
 *                lost MADs), report ports changed, SMPs sent, time.  Fails
 *                closed: a plan with errors changes nothing, a port the
 *                plan needs that cannot be read changes nothing, and a push
 *                that stops half-way names the ports changed, the one that
 *                failed and those not reached.  --rollback STATE restores a
 *                saved state the same way.  --dry-run prints the SMP plan.
 *  --via-opensm  OpenSM is the SM: validate, write the canonical
 *                partitions.conf atomically (old file kept as .bak), SIGHUP
 *                OpenSM, wait for its SUBNET UP, then verify.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>

#include "cli.h"
#include "ibpart/live.h"
#include "ibpart/sm.h"
#include "live_cli.h"

static const char usage[] =
    "usage: ibpart apply -c CONF --direct [--dry-run] [--state FILE] "
    "[--force]\n"
    "                    [--enforce both|in|out|off|unchanged] [options]\n"
    "       ibpart apply --rollback STATE [--dry-run] [options]\n"
    "       ibpart apply -c CONF --via-opensm (--opensm-pid PID |\n"
    "                    --opensm-pidfile FILE) [--opensm-conf FILE]\n"
    "                    [--opensm-log FILE] [--wait MS] [--dry-run] "
    "[options]\n"
    "\n"
    "Make the live fabric hold the plan's P_Key tables.\n"
    "\n"
    "--direct: ibpart acts as the partition manager (no SM must be\n"
    "programming partitions at the same time).  It reads every port's\n"
    "P_KeyTable, saves them to the state file (before sending any Set),\n"
    "then sends SubnSet(P_KeyTable) for only the 32-entry blocks that\n"
    "differ, reads each block back, and retries lost MADs.  A plan with\n"
    "errors, or one OpenSM would reject or misread, changes nothing; so\n"
    "does a plan port that cannot be read.  If the push stops half-way,\n"
    "the report names the ports changed, the port that failed and the\n"
    "ports not reached; `--rollback STATE` puts back what was read.\n"
    "A second apply of the same plan sends no SubnSet at all.\n"
    "\n"
    "--via-opensm: OpenSM is the SM.  The plan is validated, written in\n"
    "OpenSM's canonical syntax and read back to prove OpenSM will read it\n"
    "as planned, installed atomically as OpenSM's partition file (the old\n"
    "one kept as FILE.bak), OpenSM is sent SIGHUP, ibpart waits for its\n"
    "log to say SUBNET UP, then verifies the fabric (as `ibpart verify`).\n"
    "\n" LC_COMMON_USAGE "      --direct         push the tables ourselves\n"
    "      --rollback STATE restore the tables saved in STATE (--direct)\n"
    "      --force          --direct even though an SM runs (the local\n"
    "                       port's MasterSMLID answers with IsSM set);\n"
    "                       without it such an apply changes nothing\n"
    "      --dry-run        print the plan (SMPs, or the file for OpenSM);\n"
    "                       send no Set, change no file, signal no one\n"
    "      --state FILE     where --direct saves the tables it read\n"
    "                       (default: ibpart-state-<time>.json here)\n"
    "      --enforce E      PortInfo PartitionEnforcementInbound/\n"
    "                       Outbound on the switch ports facing the\n"
    "                       end ports pushed: both (default, OpenSM's\n"
    "                       part_enforce), in, out, off, or unchanged.\n"
    "                       Only bits a switch implements (SwitchInfo\n"
    "                       In/OutboundEnforcementCap) are written;\n"
    "                       ibsim's implement none.  --rollback puts\n"
    "                       back the bits the state file holds\n"
    "      --via-opensm     hand the plan to a running OpenSM\n"
    "      --opensm-conf F  its partition file (default\n"
    "                       /etc/opensm/partitions.conf)\n"
    "      --opensm-pid PID, --opensm-pidfile F   the OpenSM to signal\n"
    "      --opensm-log F   its log (default /var/log/opensm.log)\n"
    "      --wait MS        how long to wait for SUBNET UP (default 60000)\n"
    "\n"
    "Exit: 0 the fabric holds the plan, 1 drift after --via-opensm, 2 bad\n"
    "input (nothing changed), 3 the fabric or the system failed (see the\n"
    "report for what was changed).\n";

struct apply_opts {
	bool direct, via_opensm, dry_run;
	const char *rollback;
	bool force; /* --direct although an SM runs */
	const char *state;
	const char *osm_conf;
	const char *osm_pidfile;
	const char *osm_log;
	long osm_pid;
	int wait_ms;
};

/* A port the plan changes: its table now and the one planned. */
struct planned {
	size_t node;
	unsigned port;
	unsigned blocks[8];
	unsigned nblocks;
	bool more_blocks;
};

static json_t *port_json(const struct lc *c, uint64_t port_guid, unsigned port,
			 const char *desc, const char *why)
{
	char g[24];
	json_t *o =
	    json_pack("{s:s, s:i, s:s}", "port_guid", lc_guid(port_guid, g),
		      "port", (int)port, "node_desc", desc);
	(void)c;
	if (why && *why)
		json_object_set_new(o, "why", json_string(why));
	return o;
}

static bool in_report(const struct ibp_sm_port *list, size_t n,
		      uint64_t node_guid, unsigned port)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].node_guid == node_guid && list[i].port == port)
			return true;
	return false;
}

static void print_smp_plan(const struct lc *c, const struct planned *pl,
			   size_t npl, const ibp_tables *want)
{
	unsigned long sets = 0;
	for (size_t i = 0; i < npl; i++) {
		char g[24];
		const ibp_pkey_table *t =
		    ibp_tables_get(want, pl[i].node, pl[i].port);
		bool sw =
		    ibp_fabric_node_type(c->f, pl[i].node) == IBP_NODE_SWITCH;
		for (unsigned b = 0; b < pl[i].nblocks; b++) {
			uint16_t keys[IBP_PKEY_BLOCK_SIZE];
			ibp_pkey_table_get_block(t, pl[i].blocks[b], keys,
						 NULL);
			unsigned mod =
			    pl[i].blocks[b] | ((sw ? pl[i].port : 0u) << 16);
			printf("SubnSet(P_KeyTable) %s port %u %s block %u "
			       "(AttributeModifier 0x%08x):",
			       lc_guid(ibp_fabric_port_guid(c->f, pl[i].node,
							    pl[i].port),
				       g),
			       pl[i].port,
			       ibp_fabric_node_desc(c->f, pl[i].node),
			       pl[i].blocks[b], mod);
			unsigned last = 0;
			for (unsigned k = 0; k < IBP_PKEY_BLOCK_SIZE; k++)
				if (keys[k])
					last = k + 1;
			for (unsigned k = 0; k < last; k++)
				printf(" 0x%04x", keys[k]);
			printf("\n");
			sets++;
		}
		if (pl[i].more_blocks)
			printf("  (and more blocks of this port)\n");
	}
	printf("plan: %zu port%s to change, %lu SubnSet(P_KeyTable), each "
	       "followed by a SubnGet read-back; nothing sent (dry run)\n",
	       npl, npl == 1 ? "" : "s", sets);
}

static int do_direct(struct lc *c, const struct apply_opts *ao)
{
	ibp_error err;
	ibp_error_clear(&err);
	ibp_tables *have = NULL, *want = NULL, *sub = NULL;
	struct planned *pl = NULL;
	size_t npl = 0;
	struct ibp_sm_report rep;
	memset(&rep, 0, sizeof(rep));
	bool json = !strcmp(c->format, "json");
	if (c->sm_running && !ao->force && !ao->dry_run) {
		char b[24];
		fprintf(stderr,
			"ibpart apply: an SM is running on port %s (the "
			"local port's MasterSMLID, IsSM set): it would put "
			"its own tables back at its next heavy sweep.  Use "
			"--via-opensm to hand it the plan, or --force to push "
			"anyway; nothing was changed\n",
			lc_guid(c->sm_guid, b));
		return CLI_EXIT_USAGE;
	}
	int rc = lc_read(c, &have);
	if (rc)
		goto out;
	if (ao->rollback) {
		if (ibp_state_load(c->f, ao->rollback, false, &want, &err)) {
			cli_print_error(&err);
			rc = CLI_EXIT_USAGE;
			goto out;
		}
	} else {
		rc = lc_plan(c, have, true, &want, NULL);
		if (rc)
			goto out;
	}
	/* Every port the plan programs must be readable before anything
	 * is changed; then the ports whose tables differ. */
	size_t nw = ibp_tables_count(want), unreadable = 0;
	pl = calloc(nw ? nw : 1, sizeof(*pl));
	sub = ibp_tables_new(c->f);
	if (!pl || !sub) {
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	for (size_t i = 0; i < nw; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *w = ibp_tables_at(want, i, &n, &p);
		const ibp_pkey_table *h = ibp_tables_get(have, n, p);
		char g[24];
		if (!h) {
			fprintf(stderr,
				"ibpart apply: cannot read %s port %u (%s): "
				"not discovered\n",
				lc_guid(ibp_fabric_node_guid(c->f, n), g), p,
				ibp_fabric_node_desc(c->f, n));
			unreadable++;
			continue;
		}
		/* Compare on the port's capacity, as the SM will write. */
		ibp_pkey_table *wc =
		    ibp_pkey_table_new(ibp_pkey_table_capacity(h));
		for (unsigned k = 0; wc && k < ibp_pkey_table_used(w); k++)
			ibp_pkey_table_set(wc, k, ibp_pkey_table_get(w, k),
					   NULL);
		unsigned blocks[IBP_PKEY_TABLE_MAX / IBP_PKEY_BLOCK_SIZE + 1];
		unsigned nd =
		    wc ? ibp_pkey_table_diff_blocks(
			     h, wc, blocks, sizeof(blocks) / sizeof(*blocks))
		       : 0;
		ibp_pkey_table_free(wc);
		if (!nd)
			continue;
		pl[npl].node = n;
		pl[npl].port = p;
		for (unsigned b = 0; b < nd && b < 8; b++)
			pl[npl].blocks[pl[npl].nblocks++] = blocks[b];
		pl[npl].more_blocks = nd > 8;
		npl++;
		ibp_pkey_table *cp = ibp_pkey_table_copy(w);
		if (!cp || ibp_tables_put(sub, n, p, cp, &err)) {
			ibp_pkey_table_free(cp);
			rc = CLI_EXIT_SYSTEM;
			goto out;
		}
	}
	if (unreadable) {
		fprintf(stderr,
			"ibpart apply: %zu port(s) of the plan cannot be read; "
			"nothing was changed\n",
			unreadable);
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	if (ao->dry_run) {
		print_smp_plan(c, pl, npl, want);
		rc = CLI_EXIT_OK;
		goto out;
	}
	/* The state first: a rollback needs what was there before. */
	char state_buf[64];
	const char *state = ao->state;
	if (!state && npl && !ao->rollback) {
		snprintf(state_buf, sizeof(state_buf), "ibpart-state-%ld.json",
			 (long)time(NULL));
		state = state_buf;
	}
	/* an explicit --state is written even when nothing will change:
	 * a script may roll back to it later */
	if (state && (npl || ao->state)) {
		ibp_tables *saved = ibp_tables_new(c->f);
		for (size_t i = 0; saved && i < nw; i++) {
			size_t n;
			unsigned p;
			ibp_tables_at(want, i, &n, &p);
			ibp_pkey_table *cp =
			    ibp_pkey_table_copy(ibp_tables_get(have, n, p));
			if (cp)
				ibp_tables_put(saved, n, p, cp, NULL);
			bool in, out;
			if (ibp_tables_get_enforcement(have, n, p, &in, &out))
				ibp_tables_set_enforcement(saved, n, p, in,
							   out);
		}
		int src =
		    saved ? ibp_state_save(saved, state, &err) : IBP_ENOMEM;
		ibp_tables_free(saved);
		if (src) {
			cli_print_error(&err);
			fprintf(stderr, "ibpart apply: cannot save the state; "
					"nothing was changed\n");
			rc = CLI_EXIT_SYSTEM;
			goto out;
		}
		ibp_live_progress(c->l, "saved the tables read to %s", state);
	}
	unsigned long smps_before = lc_smps(c);
	int prc = IBP_OK;
	if (npl) {
		ibp_live_progress(c->l, "pushing %zu port(s) ...", npl);
		prc = ibp_sm_push(ibp_live_sm(c->l), sub, &rep, &err);
	} else {
		rep.complete = true;
	}
	unsigned long sets = rep.blocks_written + rep.enforce_ports;
	unsigned long total, tos, res;
	lc_counters(c, &total, &tos, &res);
	long ms = ibp_live_elapsed_ms(c->l);
	/* Ports planned, not changed and not the failed one: not reached. */
	size_t nnot = 0;
	for (size_t i = 0; i < npl; i++) {
		uint64_t ng = ibp_fabric_node_guid(c->f, pl[i].node);
		if (!in_report(rep.changed, rep.nchanged, ng, pl[i].port) &&
		    !in_report(rep.failed, rep.nfailed, ng, pl[i].port))
			nnot++;
	}
	if (json) {
		json_t *root = json_pack(
		    "{s:s, s:b, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
		    "mode", ao->rollback ? "rollback" : c->mode, "complete",
		    prc == IBP_OK && rep.complete, "dry_run", 0,
		    "ports_planned", (int)npl, "smps", (int)total, "smps_set",
		    (int)sets, "smps_push", (int)(total - smps_before),
		    "timeouts", (int)rep.timeouts, "retries", (int)rep.retries,
		    "elapsed_ms", (int)ms);
		json_object_set_new(
		    root, "enforce_ports",
		    json_integer((json_int_t)rep.enforce_ports));
		json_object_set_new(
		    root, "enforce_unsupported",
		    json_integer((json_int_t)rep.enforce_unsupported));
		json_object_set_new(root, "smps_discover",
				    json_integer((json_int_t)c->smps_discover));
		json_object_set_new(root, "smps_read",
				    json_integer((json_int_t)c->smps_read));
		json_object_set_new(root, "timeouts_total",
				    json_integer((json_int_t)tos));
		json_t *ch = json_array(), *fa = json_array(),
		       *nr = json_array();
		for (size_t i = 0; i < rep.nchanged; i++)
			json_array_append_new(
			    ch, port_json(c, rep.changed[i].port_guid,
					  rep.changed[i].port,
					  rep.changed[i].desc, NULL));
		for (size_t i = 0; i < rep.nfailed; i++)
			json_array_append_new(
			    fa,
			    port_json(c, rep.failed[i].port_guid,
				      rep.failed[i].port, rep.failed[i].desc,
				      rep.failed[i].why));
		for (size_t i = 0; i < npl; i++) {
			uint64_t ng = ibp_fabric_node_guid(c->f, pl[i].node);
			if (in_report(rep.changed, rep.nchanged, ng,
				      pl[i].port) ||
			    in_report(rep.failed, rep.nfailed, ng, pl[i].port))
				continue;
			uint64_t pg =
			    ibp_fabric_port_guid(c->f, pl[i].node, pl[i].port);
			json_array_append_new(
			    nr,
			    port_json(c, pg ? pg : ng, pl[i].port,
				      ibp_fabric_node_desc(c->f, pl[i].node),
				      NULL));
		}
		json_object_set_new(root, "ports_changed", ch);
		json_object_set_new(root, "ports_failed", fa);
		json_object_set_new(root, "ports_not_reached", nr);
		if (state && npl)
			json_object_set_new(root, "state_file",
					    json_string(state));
		json_dumpf(root, stdout, JSON_INDENT(1));
		fputc('\n', stdout);
		json_decref(root);
	} else {
		if (npl)
			ibp_sm_report_print(&rep, stdout);
		if (prc != IBP_OK || !rep.complete) {
			printf("  not reached (unchanged): %zu port(s)\n",
			       nnot);
			for (size_t i = 0; i < npl; i++) {
				uint64_t ng =
				    ibp_fabric_node_guid(c->f, pl[i].node);
				if (in_report(rep.changed, rep.nchanged, ng,
					      pl[i].port) ||
				    in_report(rep.failed, rep.nfailed, ng,
					      pl[i].port))
					continue;
				char g[24];
				printf("  %s port %-3u %s\n", lc_guid(ng, g),
				       pl[i].port,
				       ibp_fabric_node_desc(c->f, pl[i].node));
			}
		}
		printf("apply: %zu port%s changed, %lu SMPs sent (%lu "
		       "SubnSet), %lu timed out, %ld ms%s%s\n",
		       rep.nchanged, rep.nchanged == 1 ? "" : "s", total, sets,
		       rep.timeouts, ms,
		       state && npl ? "; before-state in " : "",
		       state && npl ? state : "");
	}
	fflush(stdout);
	if (prc != IBP_OK || !rep.complete) {
		cli_print_error(&err);
		if (state && npl)
			fprintf(stderr,
				"ibpart apply: INCOMPLETE; `ibpart apply "
				"--rollback %s` restores what was there\n",
				state);
		rc = CLI_EXIT_SYSTEM;
	} else {
		rc = CLI_EXIT_OK;
	}
out:
	ibp_sm_report_free(&rep);
	free(pl);
	ibp_tables_free(sub);
	ibp_tables_free(want);
	ibp_tables_free(have);
	return rc;
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)((t.tv_sec - t0->tv_sec) * 1000 +
		      (t.tv_nsec - t0->tv_nsec) / 1000000);
}

/* After SIGHUP: until OpenSM's log says SUBNET UP, or - a log OpenSM
 * buffers (no -d 2, force_log_flush FALSE) says nothing - until the
 * fabric itself holds the plan, re-read every second, for up to --wait. */
static int wait_for_opensm(struct lc *c, const struct apply_opts *ao, long off,
			   const ibp_tables *want, pid_t pid)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		long left = ao->wait_ms - ms_since(&t0);
		long waited = 0;
		ibp_error e;
		if (ibp_wait_log(ao->osm_log, off, "SUBNET UP",
				 left < 1000 ? (left > 0 ? left : 0) : 1000,
				 &waited, &e) == IBP_OK) {
			fprintf(stderr,
				"apply: OpenSM (pid %ld) re-read %s and "
				"reported SUBNET UP %ld ms after SIGHUP; "
				"verifying ...\n",
				(long)pid, ao->osm_conf, ms_since(&t0));
			return CLI_EXIT_OK;
		}
		ibp_tables *now = NULL;
		ibp_drift *d = NULL;
		bool held = lc_read(c, &now) == CLI_EXIT_OK &&
			    ibp_drift_compute(want, now, &d, &e) == IBP_OK &&
			    lc_drift_count(d, LC_DRIFT_NO_INDEX, NULL) == 0;
		ibp_drift_free(d);
		ibp_tables_free(now);
		if (held) {
			fprintf(stderr,
				"apply: the fabric holds the plan %ld ms after "
				"SIGHUP (OpenSM's log %s shows no SUBNET UP: "
				"is it buffered? -d 2 or force_log_flush TRUE "
				"flushes it); verifying ...\n",
				ms_since(&t0), ao->osm_log);
			return CLI_EXIT_OK;
		}
		if (ms_since(&t0) >= ao->wait_ms) {
			fprintf(stderr,
				"ibpart apply: after %d ms OpenSM (pid %ld) "
				"has not reported SUBNET UP in %s and the "
				"fabric does not hold the plan; the new file "
				"is installed, the old one is %s.bak\n",
				ao->wait_ms, (long)pid, ao->osm_log,
				ao->osm_conf);
			return CLI_EXIT_SYSTEM;
		}
	}
}

static int do_via_opensm(struct lc *c, const struct apply_opts *ao)
{
	ibp_error err;
	ibp_error_clear(&err);
	ibp_tables *before = NULL, *want = NULL;
	ibp_conf *conf = NULL;
	char *text = NULL;
	size_t len = 0;
	pid_t pid = (pid_t)ao->osm_pid;
	int rc;
	if (!ao->dry_run && !pid) {
		if (!ao->osm_pidfile)
			return cli_usage_error(
			    "apply", "--via-opensm needs --opensm-pid "
				     "or --opensm-pidfile");
		if (ibp_read_pidfile(ao->osm_pidfile, &pid, &err)) {
			cli_print_error(&err);
			return CLI_EXIT_USAGE;
		}
	}
	rc = lc_read(c, &before);
	if (rc)
		goto out;
	rc = lc_plan(c, before, true, &want, &conf);
	if (rc)
		goto out;
	struct ibp_live_plan_options po = {
	    .conf_path = c->conf,
	    .mode = c->mode,
	    .sm_port_guid = c->sm_guid,
	    .allow_both_pkeys = c->allow_both,
	    .previous = before,
	    .fail_closed = true,
	};
	ibp_diags *d = ibp_diags_new();
	int trc = ibp_live_plan_opensm_text(&po, c->f, conf, want, &text, &len,
					    d, &err);
	if (trc) {
		ibp_diags_print(d, stderr);
		ibp_diags_free(d);
		cli_print_error(&err);
		fprintf(stderr, "ibpart apply: %s left unchanged\n",
			ao->osm_conf);
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	ibp_diags_free(d);
	if (ao->dry_run) {
		fwrite(text, 1, len, stdout);
		fprintf(stderr,
			"apply: dry run: would install this as %s and "
			"signal OpenSM\n",
			ao->osm_conf);
		rc = CLI_EXIT_OK;
		goto out;
	}
	long off = ibp_file_size(ao->osm_log);
	if (ibp_write_file_atomic(ao->osm_conf, text, len, true, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	ibp_live_progress(c->l, "installed %s (old file kept as %s.bak)",
			  ao->osm_conf, ao->osm_conf);
	if (ibp_signal_reread(pid, &err)) {
		cli_print_error(&err);
		rc = CLI_EXIT_SYSTEM;
		goto out;
	}
	rc = wait_for_opensm(c, ao, off, want, pid);
	if (rc)
		goto out;
	/* Indices as the fabric shows them: OpenSM puts a P_Key it held
	 * before back at its old index, which we cannot know. */
	bool drifted = false;
	rc = live_verify_run(c, NULL, false, false, &drifted);
out:
	free(text);
	ibp_conf_free(conf);
	ibp_tables_free(want);
	ibp_tables_free(before);
	return rc;
}

static int run(int argc, char **argv)
{
	struct lc c;
	lc_init(&c, "apply");
	struct apply_opts ao = {
	    .osm_conf = "/etc/opensm/partitions.conf",
	    .osm_log = "/var/log/opensm.log",
	    .wait_ms = 60000,
	};
	unsigned long long v;
	bool enforce_given = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = lc_parse_opt(&c, argc, argv, &i);
		if (r < 0)
			return CLI_EXIT_USAGE;
		if (r > 0)
			continue;
		bool has_val = i + 1 < argc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return CLI_EXIT_OK;
		} else if (!strcmp(a, "--direct"))
			ao.direct = true;
		else if (!strcmp(a, "--via-opensm"))
			ao.via_opensm = true;
		else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n"))
			ao.dry_run = true;
		else if (!strcmp(a, "--force"))
			ao.force = true;
		else if (!strcmp(a, "--rollback") && has_val)
			ao.rollback = argv[++i];
		else if (!strcmp(a, "--state") && has_val)
			ao.state = argv[++i];
		else if (!strcmp(a, "--enforce") && has_val) {
			enforce_given = true;
			ibp_part_enforce e;
			if (!strcmp(argv[i + 1], "unchanged"))
				c.lo.enforce = -1;
			else if (ibp_part_enforce_parse(argv[i + 1], &e))
				return cli_usage_error(
				    "apply", "bad --enforce '%s'", argv[i + 1]);
			else
				c.lo.enforce = (int)e;
			i++;
		} else if (!strcmp(a, "--opensm-conf") && has_val)
			ao.osm_conf = argv[++i];
		else if (!strcmp(a, "--opensm-log") && has_val)
			ao.osm_log = argv[++i];
		else if (!strcmp(a, "--opensm-pidfile") && has_val)
			ao.osm_pidfile = argv[++i];
		else if (!strcmp(a, "--opensm-pid") && has_val) {
			if (!cli_parse_uint(argv[++i], 1, 0x7fffffff, &v))
				return cli_usage_error("apply", "bad pid '%s'",
						       argv[i]);
			ao.osm_pid = (long)v;
		} else if (!strcmp(a, "--wait") && has_val) {
			if (!cli_parse_uint(argv[++i], 1, 3600000, &v))
				return cli_usage_error("apply", "bad --wait");
			ao.wait_ms = (int)v;
		} else if (a[0] != '-' && !c.conf)
			c.conf = a;
		else
			return cli_usage_error("apply", "unknown argument '%s'",
					       a);
	}
	if (ao.rollback) {
		ao.direct = true;
		/* the state file holds the bits to put back (per port);
		 * other ports' are left */
		if (!enforce_given)
			c.lo.enforce = -1;
	}
	if (ao.direct == ao.via_opensm)
		return cli_usage_error("apply",
				       "say --direct (or --rollback) or "
				       "--via-opensm");
	if (ao.rollback && c.conf)
		return cli_usage_error("apply", "--rollback takes no plan");
	if (!ao.rollback && !c.conf)
		return cli_usage_error("apply", "-c CONF is required");
	c.lo.dry_run = ao.dry_run;
	int rc = lc_open(&c);
	if (!rc)
		rc = ao.direct ? do_direct(&c, &ao) : do_via_opensm(&c, &ao);
	lc_close(&c);
	return rc;
}

const struct cli_cmd cli_cmd_apply = {
    .name = "apply",
    .summary = "program a plan into the live fabric (directly or via "
	       "OpenSM)",
    .usage = usage,
    .run = run,
};
