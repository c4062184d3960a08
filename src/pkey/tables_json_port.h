/*
 * tables_json_port.h - private to the pkey module: one port's entry of
 * the P_KeyTables JSON (node_guid, port_guid, port, node_type,
 * node_desc, capacity, pkeys) and how an entry names its port, written
 * by tables_json.c and reused by state_file.c, whose ports carry the
 * same fields and more.  Not installed.
 */
#ifndef IBPART_PKEY_TABLES_JSON_PORT_H
#define IBPART_PKEY_TABLES_JSON_PORT_H

#include <jansson.h>

#include "ibpart/pkey_table.h"
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

#endif
