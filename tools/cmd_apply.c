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

#include "cli.h"
#include "ibpart/apply.h"
#include "ibpart/pkey_table.h"
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
    "                       Outbound on every switch port facing an end\n"
    "                       port, checked on each apply as OpenSM does\n"
    "                       and Set where they differ (also where no\n"
    "                       table changes): both (default, OpenSM's\n"
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
	const char *state;
	struct ibp_apply_options ap;
	struct ibp_apply_opensm_options osm;
};

/* Refuse the push while a plan port is unreadable: name each one. */
static int check_readable(const ibp_apply *a)
{
	size_t n = ibp_apply_unreadable_count(a);
	for (size_t i = 0; i < n; i++) {
		const struct ibp_apply_port *p = ibp_apply_unreadable_at(a, i);
		char g[24];
		fprintf(stderr,
			"ibpart apply: cannot read %s port %u (%s): not "
			"discovered\n",
			lc_guid(p->node_guid, g), p->port, p->desc);
	}
	if (!n)
		return CLI_EXIT_OK;
	fprintf(stderr,
		"ibpart apply: %zu port(s) of the plan cannot be read; "
		"nothing was changed\n",
		n);
	return CLI_EXIT_SYSTEM;
}

static int do_direct(struct lc *c, struct apply_opts *ao)
{
	ibp_error err;
	ibp_error_clear(&err);
	ao->ap.conf_path = c->in.conf;
	ao->ap.mode = c->in.mode;
	ao->ap.allow_both_pkeys = c->allow_both;
	ibp_apply *a = NULL;
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_apply_plan(c->l, &ao->ap, &a, d, &err);
	lc_print_diags(d);
	ibp_diags_free(d);
	if (rc)
		return lc_fail(&err, rc);
	if ((rc = check_readable(a)) || ao->dry_run) {
		if (!rc)
			ibp_apply_print_plan(a, stdout);
		ibp_apply_free(a);
		return rc;
	}
	/* The default state file: a rollback needs what was there. */
	char buf[64];
	struct ibp_apply_run_options ro;
	ibp_apply_run_options_init(&ro);
	ro.state_path = ao->state;
	ro.state_always = ao->state != NULL;
	if (!ao->state && !ao->ap.rollback) {
		snprintf(buf, sizeof(buf), "ibpart-state-%ld.json",
			 (long)time(NULL));
		ro.state_path = buf;
	}
	int prc = ibp_apply_run(a, &ro, &err);
	if (prc && !ibp_apply_pushed(a)) {
		cli_print_error(&err);
		fprintf(stderr, "ibpart apply: cannot save the state; nothing "
				"was changed\n");
		ibp_apply_free(a);
		return CLI_EXIT_SYSTEM;
	}
	if (!strcmp(c->format, "json")) {
		char *s = ibp_apply_json(a);
		if (s)
			printf("%s\n", s);
		free(s);
	} else {
		ibp_apply_print(a, stdout);
	}
	fflush(stdout);
	rc = CLI_EXIT_OK;
	if (prc || !ibp_apply_complete(a)) {
		cli_print_error(&err);
		if (ibp_apply_state_file(a) && ibp_apply_port_count(a))
			fprintf(stderr,
				"ibpart apply: INCOMPLETE; `ibpart apply "
				"--rollback %s` restores what was there\n",
				ibp_apply_state_file(a));
		rc = CLI_EXIT_SYSTEM;
	}
	ibp_apply_free(a);
	return rc;
}

static int do_via_opensm(struct lc *c, struct apply_opts *ao)
{
	struct ibp_apply_opensm_options *o = &ao->osm;
	o->conf_path = c->in.conf;
	o->mode = c->in.mode;
	o->allow_both_pkeys = c->allow_both;
	o->dry_run = ao->dry_run;
	struct ibp_apply_opensm_result r;
	ibp_error err;
	ibp_error_clear(&err);
	ibp_diags *d = ibp_diags_new();
	int rc = ibp_apply_via_opensm(c->l, o, &r, d, &err);
	lc_print_diags(d);
	ibp_diags_free(d);
	if (rc) {
		int ex = lc_fail(&err, rc);
		if (ex == CLI_EXIT_USAGE && r.text == NULL)
			fprintf(stderr, "ibpart apply: %s left unchanged\n",
				o->opensm_conf);
		ibp_apply_opensm_result_clear(&r);
		return ex;
	}
	if (ao->dry_run) {
		fwrite(r.text, 1, r.len, stdout);
		fprintf(stderr,
			"apply: dry run: would install this as %s and signal "
			"OpenSM\n",
			o->opensm_conf);
	} else if (r.seen == IBP_OPENSM_SUBNET_UP) {
		fprintf(
		    stderr,
		    "apply: OpenSM (pid %ld) re-read %s and reported SUBNET "
		    "UP %ld ms after SIGHUP; verifying ...\n",
		    (long)r.pid, o->opensm_conf, r.ms);
	} else {
		fprintf(stderr,
			"apply: the fabric holds the plan %ld ms after SIGHUP "
			"(OpenSM's log %s shows no SUBNET UP: is it buffered? "
			"-d 2 or force_log_flush TRUE flushes it); verifying "
			"...\n",
			r.ms, o->opensm_log);
	}
	ibp_apply_opensm_result_clear(&r);
	/* Indices as the fabric shows them: OpenSM puts a P_Key it held
	 * before back at its old index, which we cannot know. */
	return ao->dry_run ? CLI_EXIT_OK : lc_verify(c, NULL, false, false);
}

static int parse_value(struct lc *c, struct apply_opts *ao, const char *a,
		       const char *val, bool *enforce_given)
{
	unsigned long long v;
	if (!strcmp(a, "--rollback"))
		ao->ap.rollback = val;
	else if (!strcmp(a, "--state"))
		ao->state = val;
	else if (!strcmp(a, "--enforce")) {
		*enforce_given = true;
		return lc_enforce_opt(c, val);
	} else if (!strcmp(a, "--opensm-conf"))
		ao->osm.opensm_conf = val;
	else if (!strcmp(a, "--opensm-log"))
		ao->osm.opensm_log = val;
	else if (!strcmp(a, "--opensm-pidfile"))
		ao->osm.opensm_pidfile = val;
	else if (!strcmp(a, "--opensm-pid")) {
		if (!cli_parse_uint(val, 1, 0x7fffffff, &v))
			return cli_usage_error("apply", "bad pid '%s'", val);
		ao->osm.opensm_pid = (pid_t)v;
	} else if (!strcmp(a, "--wait")) {
		if (!cli_parse_uint(val, 1, 3600000, &v))
			return cli_usage_error("apply", "bad --wait");
		ao->osm.wait_ms = (int)v;
	} else
		return -1;
	return 0;
}

/* argv into c and ao: 0, or an exit status (usage printed); -1 for
 * --help (printed). */
static int parse_args(struct lc *c, struct apply_opts *ao, int argc,
		      char **argv, bool *enforce_given)
{
	static const char *const with_value[] = {
	    "--rollback",   "--state",		"--enforce",	"--opensm-conf",
	    "--opensm-log", "--opensm-pidfile", "--opensm-pid", "--wait"};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int r = lc_parse_opt(c, argc, argv, &i);
		if (r < 0)
			return CLI_EXIT_USAGE;
		if (r > 0)
			continue;
		bool valued = false;
		for (size_t k = 0; k < sizeof(with_value) / sizeof(*with_value);
		     k++)
			valued = valued || !strcmp(a, with_value[k]);
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return -1;
		} else if (!strcmp(a, "--direct"))
			ao->direct = true;
		else if (!strcmp(a, "--via-opensm"))
			ao->via_opensm = true;
		else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n"))
			ao->dry_run = true;
		else if (!strcmp(a, "--force"))
			ao->ap.force = true;
		else if (valued && i + 1 < argc) {
			int rc =
			    parse_value(c, ao, a, argv[++i], enforce_given);
			if (rc)
				return rc;
		} else if (a[0] != '-' && !c->in.conf)
			c->in.conf = a;
		else
			return cli_usage_error("apply", "unknown argument '%s'",
					       a);
	}
	return 0;
}

static int run(int argc, char **argv)
{
	struct lc c;
	lc_init(&c, "apply");
	struct apply_opts ao = {0};
	ibp_apply_options_init(&ao.ap);
	ibp_apply_opensm_options_init(&ao.osm);
	bool enforce_given = false;
	int rc = parse_args(&c, &ao, argc, argv, &enforce_given);
	if (rc)
		return rc < 0 ? CLI_EXIT_OK : rc;
	if (ao.ap.rollback) {
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
	if (ao.ap.rollback && c.in.conf)
		return cli_usage_error("apply", "--rollback takes no plan");
	if (!ao.ap.rollback && !c.in.conf)
		return cli_usage_error("apply", "-c CONF is required");
	c.lo.dry_run = ao.dry_run;
	rc = lc_open(&c);
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
