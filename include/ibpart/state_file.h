/*
 * state_file.h - the one state file of ibpart (module pkey,
 * src/pkey/state_file.c): what the ports of a fabric hold and what a
 * running OpenSM remembers of them, carried from one run to the next by
 * `ibpart tables --state`, saved by `apply --state` and put back by
 * `apply --rollback` (docs/json-schemas.md, "State file").
 *
 *   {"format": "ibpart-state", "version": 2,
 *    "mode": "opensm", "sm_port_guid": "0x…",
 *    "opensm": {"allow_both_pkeys": false, "keep_pkey_indexes": true,
 *               "part_enforce": "both",
 *               "no_partition_enforcement": false,
 *               "partitions": [{"pkey": "0x7fff", "name": "Default"}, …]},
 *    "ports": [{"node_guid", "port_guid", "port", "node_type",
 *               "node_desc", "capacity", "pkeys": ["0x7fff", …],
 *               "enforcement": "both"|"in"|"out"|"off",
 *               "remembered": {"last_pkey_idx": 2,
 *                              "pkeys": {"0x7fff": 0, "0x8001": 1,
 *                                        "0x0001": 1}}}…]}
 *
 * "pkeys" is the table the port holds, in index order up to its last
 * used entry (absent on a port of which only the enforcement bits are
 * known, a switch port facing a switch); "enforcement" (optional) a
 * switch external port's PartitionEnforcementInbound/Outbound bits
 * (held by the state's tables); "remembered" (optional)
 * OpenSM's memory of the port (its index memory), present exactly when
 * OpenSM knows the port; "opensm" (optional) the options OpenSM ran
 * with (allow_both_pkeys is read once at its start, so it sticks).
 * Ports the fabric of a run does not have are kept as they were (less
 * their "remembered": OpenSM dropped them) and written back, so a card
 * that leaves the fabric for a while keeps its table in the file.
 *
 * Older files still load: version 0 is `ibpart tables --format json`
 * output with, per port, "remembered" as an array in index order (the
 * first `tables --state` format; a port without it remembers what its
 * table holds); version 1 is "format": "ibpart-pkey-state-1" (the first
 * `apply --state` format: tables and enforcement, nothing remembered).
 * Files are always written as version 2, atomically.
 *
 * Threads: no global state; an object is used by one thread at a time.
 */
#ifndef IBPART_STATE_FILE_H
#define IBPART_STATE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* The version this library writes, and the newest it reads. */
#define IBP_STATE_FILE_VERSION 2

typedef struct ibp_state_file ibp_state_file;

/* The options of OpenSM a state records. */
typedef struct ibp_state_opensm {
	bool allow_both_pkeys;	       /* as OpenSM started (-W, the file) */
	bool compact_pkey_indexes;     /* keep_pkey_indexes FALSE */
	ibp_part_enforce part_enforce; /* the part_enforce option */
	bool no_partition_enforcement; /* TRUE: enforcement off whatever
					  part_enforce says */
} ibp_state_opensm;

IBP_END_DECLS
#endif
