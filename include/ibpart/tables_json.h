/*
 * tables_json.h - a set of P_KeyTables as JSON (`ibpart tables --format
 * json`, docs/json-schemas.md), and back: the form the partition manager
 * prints and `tables --state` files keep between runs.  (`matrix` and
 * `audit --tables` read the same form with a parser of their own; the
 * state file of `apply --state` / `verify --previous` is another format,
 * live.h's ibp_state_save.)
 *
 *   {"mode": "opensm", "sm_port_guid": "0x…",
 *    "ports": [{"node_guid", "port_guid", "port", "node_type",
 *               "node_desc", "capacity", "pkeys": ["0x7fff", …]}…]}
 *
 * "pkeys" runs in index order up to the last used entry, an empty entry
 * in between written "0x0000"; ports in (node, port) order of the fabric.
 */
#ifndef IBPART_TABLES_JSON_H
#define IBPART_TABLES_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* The JSON text (compact with indent 0, else pretty with that indent),
 * malloc'd, caller frees; NULL on ENOMEM.  mode may be NULL (omitted). */
char *ibp_tables_to_json(const ibp_tables *ts, const char *mode,
			 uint64_t sm_port_guid, int indent);

/* Write it to a stream (with a final newline), or to a path atomically
 * (temp file in the same directory, fsync, rename). */
int ibp_tables_write_json(const ibp_tables *ts, const char *mode,
			  uint64_t sm_port_guid, FILE *out, ibp_error *err);
int ibp_tables_write_json_path(const ibp_tables *ts, const char *mode,
			       uint64_t sm_port_guid, const char *path,
			       ibp_error *err);

/* Read that JSON back against fabric f: each port is found by port_guid
 * and port (a switch's ports share its GUID); ports the fabric does not
 * have are skipped.  A table longer than the port's capacity, a bad
 * P_Key or malformed JSON: IBP_EPARSE.  *mode_out/ *sm_out (may be NULL)
 * get "mode" (malloc'd, or NULL) and sm_port_guid (or 0). */
int ibp_tables_from_json(const ibp_fabric *f, const char *text, size_t len,
			 ibp_tables **out, char **mode_out, uint64_t *sm_out,
			 ibp_error *err);
int ibp_tables_read_json_path(const ibp_fabric *f, const char *path,
			      ibp_tables **out, ibp_error *err);

/* The --state file: the same JSON, each port also carrying
 * "remembered" - what OpenSM remembers of the port's P_Key indexes
 * (policy.h, ibp_policy_options.remembered).  rem may be NULL; on
 * reading, *remembered is NULL when the file has none. */
int ibp_tables_write_state_path(const ibp_tables *ts, const ibp_tables *rem,
				const char *mode, uint64_t sm_port_guid,
				const char *path, ibp_error *err);
int ibp_tables_read_state_path(const ibp_fabric *f, const char *path,
			       ibp_tables **out, ibp_tables **remembered,
			       ibp_error *err);

IBP_END_DECLS
#endif
