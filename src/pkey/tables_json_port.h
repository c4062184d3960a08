/*
 * tables_json_port.h - private to the pkey module: one port's entry of
 * the P_KeyTables JSON (node_guid, port_guid, port, node_type,
 * node_desc, capacity, pkeys) and how an entry names its port, written
 * by tables_json.c and reused by state_file.c, whose ports carry the
 * same fields and more.  Not installed.
 */
#ifndef IBPART_PKEY_TABLES_JSON_PORT_H
#define IBPART_PKEY_TABLES_JSON_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "pkey/pkey_table_lib.h"
#include "ibpart/topo.h"

/* The entry of (n, p) holding t; NULL when out of memory. */
json_t *tables_json_port(const ibp_fabric *f, size_t n, unsigned p,
			 const ibp_pkey_table *t);
/* The port an entry po names: by node_guid and port when the fabric has
 * that node, else by port_guid (and port: a switch's ports share its
 * GUID).  0 found (*n, *p), 1 the fabric has no such port, -1 the entry
 * names none. */
int tables_json_find_port(const ibp_fabric *f, json_t *po, size_t *n,
			  unsigned *p);

/* A GUID as the writers write it: "0x" (or "0X") and 1 to 16 hex
 * digits, nothing else (strtoull alone would take blanks and a sign,
 * and wrap "-0x1" to 0xffffffffffffffff). */
bool tables_json_guid(const char *s, uint64_t *out);

/* Whether the object o at JSON path `path` ("" for the root) has only
 * fields of known (NULL-terminated): 0, or -1 with "PATH: unknown field
 * 'x'" in msg. */
int tables_json_known(json_t *o, const char *path, const char *const *known,
		      char *msg, size_t size);

/* The fields of entry ports[i] of a tables or state document, each
 * checked where present: only known fields, GUIDs by tables_json_guid,
 * port 0..254, node_type CA/SW/RT, node_desc (and node_desc_hex) a
 * string, capacity 1..65535 and at least the P_Keys listed.  0, or -1
 * with the JSON path and the reason in msg. */
int tables_json_check_port(json_t *po, size_t i, char *msg, size_t size);

/* The root of a tables or state document: only its known fields,
 * sm_port_guid a GUID, mode a string.  0, or -1 with the reason
 * in msg. */
int tables_json_check_root(json_t *root, char *msg, size_t size);

#endif
