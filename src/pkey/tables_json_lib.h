/*
 * tables_json_lib.h - the library's own half of ibpart/tables_json.h: what
 * other modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/tables_json.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_PKEY_TABLES_JSON_LIB_H
#define IBPART_PKEY_TABLES_JSON_LIB_H

#include "ibpart/tables_json.h"

/* How the reader treats what a file may carry beyond the fabric. */
typedef struct ibp_tables_json_options {
	/* A port entry the fabric does not have: skipped (false, the
	 * default: a file from a larger fabric) or IBP_ENOENT (true: the
	 * file is about this topology and must match it). */
	bool unknown_ports_fail;
	/* Each table's capacity: the port's in the fabric (false, the
	 * default; a longer table is IBP_EPARSE), or the entry's
	 * "capacity", at least its P_Key count, at most 65535 (true: the
	 * file read from the ports knows better than the topology). */
	bool capacity_from_file;
	/* Read at most this many bytes of a file (0: 64 MiB,
	 * IBP_SMALL_INPUT_MAX_DEFAULT); a longer one is IBP_ERANGE. */
	size_t max_input_size;
} ibp_tables_json_options;

/* The JSON text (compact with indent 0, else pretty with that indent,
 * 1..31), malloc'd, caller frees with free(); NULL on ENOMEM.  mode may be
 * NULL (omitted). */
char *ibp_tables_to_json(const ibp_tables *ts, const char *mode,
			 uint64_t sm_port_guid, int indent);

/* Write it, indented by 1, to a stream (with a final newline), or to a
 * path atomically (atomic_file.h: temp file in the same directory,
 * fsync, rename; no backup).  IBP_ENOMEM, IBP_EIO when the stream or the
 * file cannot be written (the target untouched for a path). */
int ibp_tables_write_json_path(const ibp_tables *ts, const char *mode,
			       uint64_t sm_port_guid, const char *path,
			       ibp_error *err);

/* Every field false (the defaults).  Cannot fail. */
void ibp_tables_json_options_init(ibp_tables_json_options *o);

/* Read that JSON back against fabric f into *out (the caller frees it
 * with ibp_tables_free).  Each entry is found by node_guid and port when
 * the fabric has that node, else by port_guid (and port: a switch's ports
 * share its GUID); o (NULL: defaults) says what an entry the fabric does
 * not have means.  *mode_out / *sm_out (may be NULL) get "mode"
 * (malloc'd, caller frees, or NULL) and sm_port_guid (or 0).
 * Errors: malformed JSON, IBP_EPARSE located at its line and column in
 * `name` (err->file; may be NULL); a bad P_Key, a table longer than its
 * capacity, an "enforcement" other than both/in/out/off, IBP_EPARSE;
 * IBP_ENOENT (unknown_ports_fail); IBP_ENOMEM.  Nothing is allocated on
 * failure. */
int ibp_tables_json_read(const ibp_fabric *f, const char *name,
			 const char *text, size_t len,
			 const ibp_tables_json_options *o, ibp_tables **out,
			 char **mode_out, uint64_t *sm_out, ibp_error *err);

/* The same from a file (err->file is the path for every error about the
 * file; IBP_EIO when it cannot be opened or read, a missing file
 * included; IBP_ENOENT only as above). */
int ibp_tables_json_read_path(const ibp_fabric *f, const char *path,
			      const ibp_tables_json_options *o,
			      ibp_tables **out, char **mode_out,
			      uint64_t *sm_out, ibp_error *err);

/* The defaults of ibp_tables_json_read(), kept for existing callers:
 * from memory (no name), and from a path without mode and SM port.
 * Ownership and errors as there. */
int ibp_tables_from_json(const ibp_fabric *f, const char *text, size_t len,
			 ibp_tables **out, char **mode_out, uint64_t *sm_out,
			 ibp_error *err);
int ibp_tables_read_json_path(const ibp_fabric *f, const char *path,
			      ibp_tables **out, ibp_error *err);

/* The --state file: the same JSON, each port also carrying
 * "remembered" - what OpenSM remembers of the port's P_Key indexes
 * (policy.h, ibp_policy_run.remembered).  rem may be NULL; on
 * reading, *remembered is NULL when the file has none, else a set the
 * caller frees with ibp_tables_free() like *out (both NULL on error).
 * Writing and reading fail as ibp_tables_write_json_path() and
 * ibp_tables_json_read_path() with default options. */
int ibp_tables_write_state_path(const ibp_tables *ts, const ibp_tables *rem,
				const char *mode, uint64_t sm_port_guid,
				const char *path, ibp_error *err);
int ibp_tables_read_state_path(const ibp_fabric *f, const char *path,
			       ibp_tables **out, ibp_tables **remembered,
			       ibp_error *err);

/* ibp_tables_read_state_path() read as o says (NULL: the defaults; its
 * max_input_size bounds the file). */
int ibp_tables_json_read_state(const ibp_fabric *f, const char *path,
			       const ibp_tables_json_options *o,
			       ibp_tables **out, ibp_tables **remembered,
			       ibp_error *err);

#endif
