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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "ibpart/apply.h"
#include "live_cli.h"
#include "ibpart/sys/apply.h"
#include "front/print.h"
#include "ibpart/sys/live.h"

static const char usage[] =
    "usage: ibpart apply -c CONF --direct [--dry-run] [--state FILE] "
    "[--force]\n"
    "                    [--enforce both|in|out|off|unchanged] [options]\n"
    "       ibpart apply --rollback STATE [--dry-run] [options]\n"
    "       ibpart apply -c CONF --via-opensm (--opensm-pid PID |\n"
    "                    --opensm-pidfile FILE) [--opensm-partitions FILE]\n"
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
    "log to say SUBNET UP, then verifies the fabric (as `ibpart verify`).\n";

static const char tail[] =
    "Exit: 0 the fabric holds the plan, 1 drift after --via-opensm, 2 bad\n"
    "input (nothing changed), 3 the fabric or the system failed (see the\n"
    "report for what was changed).\n";

struct apply_opts {
	bool direct, via_opensm, dry_run;
	unsigned lock_wait; /* --lock-wait, seconds */
	const char *state;
	const char *partitions; /* --opensm-partitions */
	struct ibp_apply_options ap;
	struct ibp_apply_opensm_options osm;
};

static int do_direct(struct lc *c, struct apply_opts *ao)
{
	ibp_error err;
	ibp_error_clear(&err);
	ao->ap.conf_path = c->in.conf;
	ao->ap.mode = c->in.mode;
	ao->ap.allow_both_pkeys = c->allow_both;
	ao->ap.compact_pkey_indexes = c->have_osm && !c->osm.keep_pkey_indexes;
	ao->ap.alias_guids_path = c->in.alias_guids;
	ao->ap.vf_guids = (ibp_vf_guids)c->in.vf_guids;
	ibp_apply *a = NULL;
	struct cli_op op;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	int rc = ibp_apply_plan(c->l, &ao->ap, &a, op.diags, &op.err);
	if ((rc = cli_op_end(&op, rc, CLI_OP_SERIOUS | CLI_OP_ERROR)))
		return rc;
	/* Refuse the push while a plan port is unreadable. */
	if (ibp_apply_print_unreadable(a, stderr))
		rc = CLI_EXIT_SYSTEM;
	if (rc || ao->dry_run) {
		if (!rc)
			ibp_apply_print_plan(a, stdout);
		ibp_apply_free(a);
		return rc;
	}
	struct ibp_apply_run_options ro;
	ibp_apply_run_options_init(&ro, IBP_APPLY_RUN_OPTIONS_VERSION);
	ro.state_path = ao->state;
	ro.state_always = ao->state != NULL;
	ro.state_default = true;
	ro.state_dir = getenv("IBPART_STATE_DIR");
	int prc = ibp_apply_run(a, &ro, &err);
	if (prc && !ibp_apply_pushed(a)) {
		cli_print_error(&err);
		fprintf(stderr, "ibpart apply: cannot save the state; nothing "
				"was changed\n");
		ibp_apply_free(a);
		return CLI_EXIT_SYSTEM;
	}
	if (!strcmp(c->format, "json"))
		cli_put_json(ibp_apply_json(a), stdout);
	else
		ibp_apply_print(a, stdout);
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

/* How OpenSM took the file, one line before apply verifies: a dry
 * run's "would install", SUBNET UP after N ms, or the fabric holding the
 * plan though the log said nothing. */
static void print_opensm_result(const struct ibp_apply_opensm_result *r,
				const struct ibp_apply_opensm_options *o,
				FILE *out)
{
	if (r->seen == IBP_OPENSM_NOT_ASKED)
		fprintf(out,
			"apply: dry run: would install this as %s and signal "
			"OpenSM\n",
			o->opensm_conf);
	else if (r->seen == IBP_OPENSM_SUBNET_UP)
		fprintf(
		    out,
		    "apply: OpenSM (pid %ld) re-read %s and reported SUBNET "
		    "UP %ld ms after SIGHUP; verifying ...\n",
		    (long)r->pid, o->opensm_conf, r->ms);
	else
		fprintf(out,
			"apply: the fabric holds the plan %ld ms after SIGHUP "
			"(OpenSM's log %s shows no SUBNET UP: is it buffered? "
			"-d 2 or force_log_flush TRUE flushes it); verifying "
			"...\n",
			r->ms, o->opensm_log);
}

static int do_via_opensm(struct lc *c, struct apply_opts *ao)
{
	struct ibp_apply_opensm_options *o = &ao->osm;
	o->conf_path = c->in.conf;
	o->mode = c->in.mode;
	o->allow_both_pkeys = c->allow_both;
	o->dry_run = ao->dry_run;
	o->alias_guids_path = c->in.alias_guids;
	o->vf_guids = (ibp_vf_guids)c->in.vf_guids;
	struct ibp_apply_opensm_result r = {
	    .version = IBP_APPLY_OPENSM_RESULT_VERSION};
	struct cli_op op;
	if (cli_op_begin(&op))
		return CLI_EXIT_SYSTEM;
	int rc = ibp_apply_via_opensm(c->l, o, &r, op.diags, &op.err);
	if (rc) {
		int ex = cli_op_end(&op, rc, CLI_OP_SERIOUS | CLI_OP_ERROR);
		if (ex == CLI_EXIT_USAGE && r.text == NULL)
			cli_say("ibpart apply: %s left unchanged",
				o->opensm_conf);
		ibp_apply_opensm_result_clear(&r);
		return ex;
	}
	cli_op_end(&op, rc, CLI_OP_SERIOUS);
	if (ao->dry_run)
		fwrite(r.text, 1, r.len, stdout);
	print_opensm_result(&r, o, stderr);
	ibp_apply_opensm_result_clear(&r);
	/* Indices as the fabric shows them: OpenSM puts a P_Key it held
	 * before back at its old index, which we cannot know. */
	return ao->dry_run ? CLI_EXIT_OK : lc_verify(c, NULL, false, false);
}

/* argv into c and ao: 0, or an exit status (usage printed). */
static int parse_args(struct lc *c, struct apply_opts *ao, int argc,
		      char **argv)
{
	struct ibp_apply_opensm_options *o = &ao->osm;
	const struct cli_opt opts[] = {
	    LC_OPTS(c),
	    CLI_FLAG("--direct", &ao->direct, "push the tables ourselves"),
	    CLI_STR("--rollback", &ao->ap.rollback, "STATE",
		    "restore the tables saved in STATE (--direct)"),
	    CLI_FLAG("--force", &ao->ap.force,
		     "--direct even though an SM runs (the local port's "
		     "MasterSMLID answers with IsSM set); without it such an "
		     "apply changes nothing"),
	    CLI_FLAG("-n|--dry-run", &ao->dry_run,
		     "print the plan (SMPs, or the file for OpenSM); send no "
		     "Set, change no file, signal no one"),
	    CLI_STR(
		"--state", &ao->state, "FILE",
		"where --direct saves the tables it read (default: a new "
		"ibpart-state-<UTC time>-<pid> .json in $IBPART_STATE_DIR, "
		"else /var/lib/ibpart for root, else $XDG_STATE_HOME/ibpart)"),
	    LC_ENFORCE(
		c, "PortInfo PartitionEnforcementInbound/Outbound on every "
		   "switch port facing an end port, checked on each apply as "
		   "OpenSM does and Set where they differ (also where no table "
		   "changes): both (default, OpenSM's part_enforce), in, out, "
		   "off (no table copied onto those ports either), or "
		   "unchanged. Only bits a switch implements (SwitchInfo "
		   "In/OutboundEnforcementCap) are written; ibsim's implement "
		   "none. --rollback puts back the bits the state file holds"),
	    CLI_FLAG("--via-opensm", &ao->via_opensm,
		     "hand the plan to a running OpenSM"),
	    CLI_STR("--opensm-partitions", &ao->partitions, "FILE",
		    "its partition file (default: the partition_config_file "
		    "of --opensm-conf, else /etc/opensm/partitions.conf)"),
	    CLI_NUM("--opensm-pid", &o->opensm_pid, 1, 0x7fffffff, "PID",
		    "the OpenSM to signal"),
	    CLI_STR("--opensm-pidfile", &o->opensm_pidfile, "FILE",
		    "or its pid file"),
	    CLI_STR("--opensm-log", &o->opensm_log, "FILE",
		    "its log (default /var/log/opensm.log)"),
	    CLI_NUM("--lock-wait", &ao->lock_wait, 0, 86400, "S",
		    "wait up to S seconds for another apply (or ibpartd) "
		    "changing the fabric from this port to finish, saying "
		    "so as the wait begins unless -q (default 0: refuse at "
		    "once, exit 3)"),
	    CLI_NUM("--wait", &o->wait_ms, 1, 3600000, "MS",
		    "how long to wait for SUBNET UP (default 60000)")};
	struct cli_args a = {"apply", usage, tail, opts, CLI_NOPTS(opts), 1};
	int rc = cli_args_parse(&a, argc, argv);
	return rc ? rc : cli_take_conf("apply", &c->in, &a);
}

static int run(int argc, char **argv)
{
	struct lc c;
	lc_init(&c, "apply");
	struct apply_opts ao = {0};
	ibp_apply_options_init(&ao.ap, IBP_APPLY_OPTIONS_VERSION);
	ibp_apply_opensm_options_init(&ao.osm,
				      IBP_APPLY_OPENSM_OPTIONS_VERSION);
	ao.ap.max_input_size = ao.osm.max_input_size =
	    cli_common.max_input_size;
	int rc = parse_args(&c, &ao, argc, argv);
	if (rc)
		return rc;
	if (c.enforce == INT_MIN && ao.ap.rollback)
		c.enforce = LC_UNCHANGED; /* the state file holds the bits to
				   put back (per port); other ports' are left */
	if ((rc = lc_opensm_conf(&c)))
		return rc;
	ibp_error err;
	if (ao.via_opensm &&
	    ibp_apply_opensm_partition_file(&ao.osm, ao.partitions,
					    c.have_osm ? &c.osm : NULL,
					    c.osm_conf_path, &err))
		return cli_usage_error("apply", "%s", err.message);
	ao.direct = ao.direct || ao.ap.rollback;
	if (ao.direct == ao.via_opensm)
		return cli_usage_error("apply",
				       "say --direct (or --rollback) or "
				       "--via-opensm");
	if (ao.ap.rollback && c.in.conf)
		return cli_usage_error("apply", "--rollback takes no plan");
	if (!ao.ap.rollback && !c.in.conf)
		return cli_usage_error("apply", "-c CONF is required");
	/* the state is written there (and read back by --rollback): a
	 * path, not -; and stdin serves one input */
	if (ao.state && !strcmp(ao.state, "-"))
		return cli_usage_error("apply", "--state needs a file, not -");
	const char *inputs[] = {c.in.topo, c.in.conf, ao.ap.rollback,
				c.osm_conf_path};
	if ((rc = cli_stdin_once("apply", inputs, 4)))
		return rc;
	c.lo.dry_run = ao.dry_run;
	cli_catch_stop(&c.lo.cancel); /* SIGINT/SIGTERM: stop at a port */
	rc = lc_open(&c);
	ibp_live_lock *lock = NULL;
	if (!rc && !ao.dry_run &&
	    ibp_live_lock_acquire(c.l, getenv("IBPART_LOCK_DIR"),
				  (int)ao.lock_wait * 1000, &lock, &err)) {
		cli_print_error(&err);
		rc = cli_exit_status(err.status, &err);
	}
	if (!rc)
		rc = ao.direct ? do_direct(&c, &ao) : do_via_opensm(&c, &ao);
	ibp_live_lock_release(lock);
	lc_close(&c);
	return rc;
}

CLI_COMMAND(apply,
	    "program a plan into the live fabric (directly or via OpenSM)");
