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
 * (ibp_tables_set_enforcement on the state's tables); "remembered" (optional)
 * OpenSM's memory of the port (index_memory.h), present exactly when
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
#include "ibpart/index_memory.h"
#include "ibpart/opensm_partitions.h"
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

/* An empty state over fabric f (borrowed; it must outlive the state):
 * no table, nothing remembered (memory NULL), no options; NULL when out
 * of memory.  Free releases what it holds (NULL allowed). */
ibp_state_file *ibp_state_file_new(const ibp_fabric *f);
void ibp_state_file_free(ibp_state_file *s);

/* The tables the ports hold (never NULL; enforcement bits ride on them,
 * ibp_tables_set_enforcement), owned by the state.  set_tables takes
 * ownership of ts (over the same fabric; NULL: an empty set) and frees
 * the previous one.  IBP_ENOMEM only for NULL when no empty set can be
 * made. */
const ibp_tables *ibp_state_file_tables(const ibp_state_file *s);
ibp_tables *ibp_state_file_tables_mut(ibp_state_file *s);
int ibp_state_file_set_tables(ibp_state_file *s, ibp_tables *ts);
/* Hand the tables (or the memory, NULL when none) over to the caller,
 * who frees them; the state is left with an empty set (no memory).
 * take_tables returns NULL when no empty set can be made (out of
 * memory); the state then still holds its tables. */
ibp_tables *ibp_state_file_take_tables(ibp_state_file *s);
ibp_index_memory *ibp_state_file_take_memory(ibp_state_file *s);

/* What OpenSM remembers, owned by the state; NULL when the file does not
 * say (version 1, or a version 0 file that is plain tables JSON).  The
 * setter takes ownership of m (same fabric; NULL allowed) and frees the
 * previous one. */
const ibp_index_memory *ibp_state_file_memory(const ibp_state_file *s);
void ibp_state_file_set_memory(ibp_state_file *s, ibp_index_memory *m);

/* The options OpenSM ran with: true with *out when recorded.  The
 * setter records o (NULL: none). */
bool ibp_state_file_opensm(const ibp_state_file *s, ibp_state_opensm *out);
void ibp_state_file_set_opensm(ibp_state_file *s, const ibp_state_opensm *o);

/* The partition objects the running OpenSM holds after its last sweep
 * (opensm_partitions.h; "opensm"."partitions", written only with the
 * options; never NULL, empty when none are recorded). */
const ibp_osm_partitions *ibp_state_file_partitions(const ibp_state_file *s);
/* Replace them with a copy of l (NULL: none); IBP_ENOMEM. */
int ibp_state_file_set_partitions(ibp_state_file *s,
				  const ibp_osm_partitions *l);

/* "mode" (NULL: none; a string owned by the state) and "sm_port_guid"
 * (0: none).  set_mode copies m (NULL clears); IBP_ENOMEM. */
const char *ibp_state_file_mode(const ibp_state_file *s);
int ibp_state_file_set_mode(ibp_state_file *s, const char *m);
uint64_t ibp_state_file_sm_port(const ibp_state_file *s);
void ibp_state_file_set_sm_port(ibp_state_file *s, uint64_t guid);

/* The version the state was read from (0, 1 or 2), or 2 for a new one. */
int ibp_state_file_version(const ibp_state_file *s);
/* Ports of the file the fabric does not have (kept, written back). */
size_t ibp_state_file_absent_count(const ibp_state_file *s);

typedef struct ibp_state_read_options {
	/* A port the fabric does not have: kept aside and written back
	 * (false, the default) or IBP_ENOENT (true: a rollback must put
	 * back every port it names). */
	bool unknown_ports_fail;
	/* Read at most this many bytes of a file (0: the default of
	 * limits.h, IBP_SMALL_INPUT_MAX_DEFAULT); a longer one is
	 * IBP_ERANGE. */
	size_t max_input_size;
} ibp_state_read_options;

/* Every field false.  Cannot fail. */
void ibp_state_read_options_init(ibp_state_read_options *o);

/* Read a state file of any version onto fabric f into *out (the
 * caller's, ibp_state_file_free).  Ports are found by node GUID and port
 * number when the fabric has that node, else by port GUID (and port).
 * Errors: IBP_EIO (cannot read it, missing included); IBP_EPARSE
 * (malformed JSON at its line and column, a duplicate key, a version
 * newer than IBP_STATE_FILE_VERSION, a bad P_Key, index or port, a port
 * listed twice, a table longer than the port's capacity); IBP_ENOENT
 * (unknown_ports_fail); IBP_ENOMEM.  err->file is the path.  *out is
 * NULL on error. */
int ibp_state_file_read(const ibp_fabric *f, const char *path,
			const ibp_state_read_options *o, ibp_state_file **out,
			ibp_error *err);
/* The same from memory (name: for messages, may be NULL). */
int ibp_state_file_parse(const ibp_fabric *f, const char *name,
			 const char *text, size_t len,
			 const ibp_state_read_options *o, ibp_state_file **out,
			 ibp_error *err);

/* The version-2 JSON text (indented by 1, final newline), malloc'd,
 * caller frees; NULL on ENOMEM. */
char *ibp_state_file_to_json(const ibp_state_file *s);
/* Write it to path whole or not at all (atomic_file.h; no backup).
 * IBP_ENOMEM, IBP_EIO (the target untouched). */
int ibp_state_file_write(const ibp_state_file *s, const char *path,
			 ibp_error *err);

IBP_END_DECLS
#endif
