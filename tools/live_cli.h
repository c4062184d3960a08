/*
 * live_cli.h - what `ibpart verify` and `ibpart apply` share: the common
 * options (-C, -P, --mkey, --timeout, --retries, -t, -c, --mode,
 * --sm-port, -W, -q), opening the session (the library's ibp_live), and
 * printing a verification.  The operations themselves are the library's
 * (verify.h, apply.h).
 */
#ifndef IBPART_TOOLS_LIVE_CLI_H
#define IBPART_TOOLS_LIVE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/live.h"
#include "ibpart/opensm_conf.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"

struct lc {
	const char *cmd;
	struct ibp_live_options lo;
	struct cli_input in; /* -t, -c, --mode, --sm-port (cli.h) */
	const char *format;  /* "text" (default) or "json" */
	bool allow_both;
	int fail_on; /* an ibp_audit_severity: verify --audit exits 1 from it */
	bool quiet;
	int mkey_env_rc; /* lc_mkey_env's: refused at lc_open */
	int enforce;	 /* --enforce (LC_ENFORCE); INT_MIN: not given */
	/* --opensm-conf: OpenSM's options (lc_opensm_conf reads them) */
	const char *osm_conf_path;
	bool have_osm;
	ibp_osm_conf osm;
	/* filled by lc_open */
	ibp_fabric *topo_fabric; /* owned, with -t */
	ibp_live *l;
};

void lc_init(struct lc *c, const char *cmd);
/* Read --opensm-conf, when given, into c->osm (its warnings printed):
 * allow_both_pkeys TRUE there sets c->allow_both; then the session's
 * enforcement: --enforce, else opensm.conf's part_enforce, else both.
 * 0, or an exit status. */
int lc_opensm_conf(struct lc *c);
/* The port and SMP options every live command takes, as entries of a
 * command's table, into lo (a struct ibp_live_options *), and -q into
 * quiet (a bool *); the defaults the help states (strings) are the
 * command's own: monitor's differ (monitor.h). */
#define LC_PORT_OPTS_DEFAULTS(lo, quiet, tmo, tries, wire)                     \
	CLI_STR("-C|--Ca", &(lo)->ca, "CA", "local CA (default: the first)"),  \
	    CLI_NUM("-P|--Port", &(lo)->port, 0, 254, "PORT",                  \
		    "local port (default: the first active)"),                 \
	    CLI_NUM("--mkey", &(lo)->mkey, 0, UINT64_MAX, "KEY",               \
		    "M_Key for every SMP (visible to ps: prefer --mkey-file "  \
		    "or $IBPART_MKEY)"),                                       \
	    CLI_FN("--mkey-file", &(lo)->mkey, lc_take_mkey_file, "FILE",      \
		   "the M_Key from a file only its owner reads"),              \
	    CLI_NUM("--timeout", &(lo)->timeout_ms, 1, 600000, "MS",           \
		    "wait per SMP (default " tmo ")"),                         \
	    CLI_NUM("--retries", &(lo)->retries, 0, 100, "N",                  \
		    "re-sends of an unanswered SMP (default " tries ")"),      \
	    CLI_NUM("--max-wire-smps", &(lo)->max_wire_smps, 1, 64, "N",       \
		    "SMPs in flight at once (default " wire ")"),              \
	    CLI_FLAG("-q|--quiet", quiet, "no progress on stderr")
/* ... with the defaults of the live commands (verify, apply, discover). */
#define LC_PORT_OPTS(lo, quiet)                                                \
	LC_PORT_OPTS_DEFAULTS(lo, quiet, "100", "3",                           \
			      "4, as OpenSM's max_wire_smps")
/* LC_PORT_OPTS (quiet in c) and the plan options of
 * verify and apply (struct lc *): -t, --sm-port described as they are
 * live, -W, --format. */
#define LC_OPTS(c)                                                             \
	CLI_CONF(&(c)->in), CLI_MODE(&(c)->in), CLI_ALIASES(&(c)->in),         \
	    CLI_VF_GUIDS(&(c)->in), LC_PORT_OPTS(&(c)->lo, &(c)->quiet),       \
	    CLI_STR("-t|--topo|--topology", &(c)->in.topo, "TOPO",             \
		    "the fabric's topology (ibnetdiscover format) for names "  \
		    "and LIDs; the live fabric is discovered anyway and "      \
		    "matched to it by GUID"),                                  \
	    CLI_STR(                                                           \
		"--sm-port", &(c)->in.sm_port, "PORT",                         \
		"the SM's port (GUID, name or LID); default: the master SM's " \
		"port when an SM runs (the local PortInfo MasterSMLID), else " \
		"the local port (ibpart is the partition manager)"),           \
	    CLI_FLAG("-W|--allow-both-pkeys", &(c)->allow_both,                \
		     "OpenSM's allow_both_pkeys"),                             \
	    CLI_STR("--opensm-conf", &(c)->osm_conf_path, "FILE",              \
		    "OpenSM's opensm.conf, read as OpenSM does: "              \
		    "allow_both_pkeys (or -W), keep_pkey_indexes (FALSE: "     \
		    "tables packed); apply: its part_enforce and "             \
		    "partition_config_file too"),                              \
	    CLI_WORD("--format", &(c)->format, "text|json",                    \
		     "text (default) or json (stdout)")
/* CLI_FN for --mkey-file FILE (ibp_mkey_file_read) into a uint64_t. */
int lc_take_mkey_file(const char *cmd, void *dest, const char *path);
/* --enforce both|in|out|off|unchanged into c->enforce: the words' order
 * is ibp_part_enforce's, then LC_UNCHANGED (lc_opensm_conf makes it the
 * -1 of ibp_live_options.enforce). */
#define LC_ENFORCE(c, help)                                                    \
	CLI_INDEX("--enforce", &(c)->enforce,                                  \
		  IBP_PART_ENFORCE_WORDS "|unchanged", help)
#define LC_UNCHANGED 4
/* $IBPART_MKEY into lo (before the options, which override it).  0, or
 * -1 when it is set and not a number: a mistyped key must not become
 * "no M_Key"; the command refuses it with lc_mkey_env_refused() once its
 * options are parsed (so --help still works). */
int lc_mkey_env(struct ibp_live_options *lo);
/* Say that IBPART_MKEY is not an M_Key (never its value); returns
 * CLI_EXIT_USAGE. */
int lc_mkey_env_refused(const char *cmd);

/* Load -t, open the port, discover, decide the SM port.  Returns 0 or
 * an exit status (printed). */
int lc_open(struct lc *c);
void lc_close(struct lc *c);

/* Run ibp_verify() and print its result (text or JSON): what `verify`
 * does after lc_open, and `apply --via-opensm` once OpenSM has taken the
 * file.  Returns an exit status (1 on drift). */
int lc_verify(struct lc *c, const ibp_tables *previous, bool matrix,
	      bool audit);

#endif
