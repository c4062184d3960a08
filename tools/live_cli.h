/*
 * live_cli.h - what `ibpart verify` and `ibpart apply` share: the common
 * options (-C, -P, --mkey, --timeout, --retries, -t, -c, --mode,
 * --sm-port, -W, -q), opening the local port and discovering the fabric,
 * reading every P_KeyTable, turning the plan into tables, and printing
 * drift in text or JSON.
 */
#ifndef IBPART_TOOLS_LIVE_CLI_H
#define IBPART_TOOLS_LIVE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/conf.h"
#include "ibpart/live.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"

struct lc {
	const char *cmd;
	struct ibp_live_options lo;
	const char *topo;
	const char *conf;
	const char *mode; /* "opensm" (default) or "strict" */
	const char *sm_port;
	const char *format; /* "text" (default) or "json" */
	bool allow_both;
	/* filled by lc_open */
	ibp_fabric *topo_fabric; /* owned, with -t */
	ibp_live *l;
	const ibp_fabric *f; /* the plan's fabric: -t's, else discovered */
	uint64_t sm_guid;
	bool sm_running;	     /* a master SM answers and has IsSM set */
	unsigned long smps_discover; /* SMPs the discovery took */
	unsigned long smps_read;     /* SMPs reading the tables took */
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
	"      --mkey KEY       M_Key for every SMP\n"                         \
	"      --timeout MS     wait per SMP (default 100)\n"                  \
	"      --retries N      re-sends of an unanswered SMP (default 3)\n"   \
	"      --max-wire-smps N  SMPs in flight at once (default 4, as\n"     \
	"                       OpenSM's max_wire_smps; 1..64)\n"              \
	"      --format F       text (default) or json (stdout)\n"             \
	"  -q, --quiet          no progress on stderr\n"

void lc_init(struct lc *c, const char *cmd);
/* Consume one common option at argv[*i]: 1 taken, 0 not ours, -1 usage
 * error (printed). */
int lc_parse_opt(struct lc *c, int argc, char **argv, int *i);
/* Load -t, open the port, discover, resolve the SM port.  Returns 0 or
 * an exit status (printed). */
int lc_open(struct lc *c);
/* Every P_KeyTable the fabric holds, keyed by c->f.  0 or exit status. */
int lc_read(struct lc *c, ibp_tables **have);
/* The plan's tables on c->f (diagnostics printed).  0 or exit status. */
int lc_plan(struct lc *c, const ibp_tables *previous, bool fail_closed,
	    ibp_tables **want, ibp_conf **conf);
void lc_close(struct lc *c);

/* SMPs sent so far through the session; timeouts and retries so far. */
unsigned long lc_smps(const struct lc *c);
void lc_counters(const struct lc *c, unsigned long *smps,
		 unsigned long *timeouts, unsigned long *retries);

/* Which drift items: all of them, all but index-only differences, or
 * only those (verify without --previous cannot know where OpenSM puts a
 * P_Key it had before: index differences are then notes). */
enum lc_drift_sel { LC_DRIFT_ALL, LC_DRIFT_NO_INDEX, LC_DRIFT_INDEX_ONLY };

/* Drift: text lines to out, one per difference, or a JSON array value
 * (the caller embeds it); the items, and the ports, selected. */
void lc_print_drift_text(const struct lc *c, const ibp_drift *d,
			 enum lc_drift_sel sel, const char *prefix, FILE *out);
struct json_t;
struct json_t *lc_drift_json(const struct lc *c, const ibp_drift *d,
			     enum lc_drift_sel sel);
size_t lc_drift_count(const ibp_drift *d, enum lc_drift_sel sel, size_t *ports);
/* The whole of `verify` on an open session (cmd_verify.c); also run by
 * `apply --via-opensm` once OpenSM has re-read its file.  Returns an exit
 * status (1 on drift). */
int live_verify_run(struct lc *c, const ibp_tables *previous, bool matrix,
		    bool audit, bool *drifted);

/* "0x%016llx" of a GUID into buf. */
const char *lc_guid(uint64_t g, char buf[24]);

#endif
