/*
 * tables_json.h - a set of P_KeyTables as JSON (`ibpart tables --format
 * json`, docs/json-schemas.md), and back: the form the partition manager
 * prints and `tables --state` files keep between runs.  (`matrix` and
 * `audit --tables` read the same form with a parser of their own; the
 * state file of `apply --state` / `verify --previous` is another format,
 * docs/live.md.)
 *
 *   {"mode": "opensm", "sm_port_guid": "0x…",
 *    "ports": [{"node_guid", "port_guid", "port", "node_type",
 *               "node_desc", "capacity", "pkeys": ["0x7fff", …],
 *               "enforcement": "both"|"in"|"out"|"off"}…]}
 *
 * "pkeys" runs in index order up to the last used entry, an empty entry
 * in between written "0x0000"; ports in (node, port) order of the fabric.
 * "enforcement" (optional, a switch external port's partition
 * enforcement as read from the switch; the simulator's and a live
 * fabric's state) is read into the set and
 * not written by the writers below.
 *
 * This file is the one reader and the one writer of that schema.  No
 * function here keeps state between calls: distinct objects may be used
 * from different threads, and the writers only read ts (a set nobody
 * changes may be written out from several threads at once).
 */
#ifndef IBPART_TABLES_JSON_H
#define IBPART_TABLES_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* Write it, indented by 1, to a stream (with a final newline), or to a
 * path atomically (atomic_file.h: temp file in the same directory,
 * fsync, rename; no backup).  IBP_ENOMEM, IBP_EIO when the stream or the
 * file cannot be written (the target untouched for a path). */
int ibp_tables_write_json(const ibp_tables *ts, const char *mode,
			  uint64_t sm_port_guid, FILE *out, ibp_error *err);

IBP_END_DECLS
#endif
