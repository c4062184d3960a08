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
#include "ibpart/tables.h"
#include "ibpart/topo.h"

struct lc {
	const char *cmd;
	struct ibp_live_options lo;
	struct cli_input in; /* -t, -c, --mode, --sm-port (cli.h) */
	const char *format;  /* "text" (default) or "json" */
	bool allow_both;
	bool quiet;
	/* filled by lc_open */
	ibp_fabric *topo_fabric; /* owned, with -t */
	ibp_live *l;
};

#define LC_COMMON_USAGE                                                        \
	"  -c, --conf CONF      the plan (OpenSM partitions.conf or the "      \
	"seed dialect)\n"                                                      \
	"  -t, --topo TOPO      the fabric's topology (ibnetdiscover "         \
	"format) for\n"                                                        \
	"                       names and LIDs; the live fabric is "           \
	"discovered anyway\n"                                                  \
	"                       and matched to it by GUID\n"                   \
	"      --mode M         opensm (default: exactly what OpenSM 3.3.23 "  \
	"programs)\n"                                                          \
	"                       or strict (tenants out of 0x7fff)\n"           \
	"      --sm-port PORT   the SM's port (GUID, name or LID); default:\n" \
	"                       the master SM's port when an SM runs (the\n"   \
	"                       local PortInfo MasterSMLID), else the local\n" \
	"                       port (ibpart is the partition manager)\n"      \
	"  -W, --allow-both-pkeys  OpenSM's allow_both_pkeys\n"                \
	"  -C, --Ca CA          local CA (default: the first)\n"               \
	"  -P, --Port PORT      local port (default: the first active)\n"      \
	"      --mkey KEY       M_Key for every SMP (visible to ps: prefer\n"  \
	"                       --mkey-file or $IBPART_MKEY)\n"                \
	"      --mkey-file F    the M_Key from a file only its owner reads\n"  \
	"      --timeout MS     wait per SMP (default 100)\n"                  \
	"      --retries N      re-sends of an unanswered SMP (default 3)\n"   \
	"      --max-wire-smps N  SMPs in flight at once (default 4, as\n"     \
	"                       OpenSM's max_wire_smps; 1..64)\n"              \
	"      --format F       text (default) or json (stdout)\n"             \
	"  -q, --quiet          no progress on stderr\n"

void lc_init(struct lc *c, const char *cmd);
/* The port and SMP options every live command takes, as entries of a
 * command's table, into lo (a struct ibp_live_options *). */
#define LC_PORT_OPTS(lo)                                                       \
	CLI_STR("-C|--Ca", &(lo)->ca),                                         \
	    CLI_NUM("-P|--Port", &(lo)->port, 0, 254),                         \
	    CLI_NUM("--mkey", &(lo)->mkey, 0, UINT64_MAX),                     \
	    CLI_FN("--mkey-file", &(lo)->mkey, lc_take_mkey_file),             \
	    CLI_NUM("--timeout", &(lo)->timeout_ms, 1, 600000),                \
	    CLI_NUM("--retries", &(lo)->retries, 0, 100),                      \
	    CLI_NUM("--max-wire-smps", &(lo)->max_wire_smps, 1, 64)
/* LC_PORT_OPTS and -q, -W, --format of verify and apply (struct lc *). */
#define LC_OPTS(c)                                                             \
	LC_PORT_OPTS(&(c)->lo), CLI_FLAG("-q|--quiet", &(c)->quiet),           \
	    CLI_FLAG("-W|--allow-both-pkeys", &(c)->allow_both),               \
	    CLI_WORD("--format", &(c)->format, "text|json")
/* CLI_FN for --mkey-file FILE (ibp_mkey_file_read) into a uint64_t. */
int lc_take_mkey_file(const char *cmd, void *dest, const char *path);
/* $IBPART_MKEY into lo (before the options, which override it). */
void lc_mkey_env(struct ibp_live_options *lo);

/* Load -t, open the port, discover, decide the SM port.  Returns 0 or
 * an exit status (printed). */
int lc_open(struct lc *c);
void lc_close(struct lc *c);

/* Print err; the exit status of status (cli_exit_status). */
int lc_fail(const ibp_error *err, int status);
/* The plan's warnings and errors (notes are noise here), if any. */
void lc_print_diags(ibp_diags *d);

/* Run ibp_verify() and print its result (text or JSON): what `verify`
 * does after lc_open, and `apply --via-opensm` once OpenSM has taken the
 * file.  Returns an exit status (1 on drift). */
int lc_verify(struct lc *c, const ibp_tables *previous, bool matrix,
	      bool audit);

/* "0x%016llx" of a GUID into buf. */
const char *lc_guid(uint64_t g, char buf[24]);

#endif
