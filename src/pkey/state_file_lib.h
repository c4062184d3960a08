/*
 * state_file_lib.h - the library's own half of ibpart/state_file.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/state_file.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_PKEY_STATE_FILE_LIB_H
#define IBPART_PKEY_STATE_FILE_LIB_H

#include "ibpart/state_file.h"
#include "pkey/index_memory_lib.h"
#include "pkey/opensm_partitions_lib.h"

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
 * (opensm_partitions_lib.h; "opensm"."partitions", written only with the
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

#endif
