/*
 * tables_json_port.h - private to the pkey module: one port's entry of
 * the P_KeyTables JSON (node_guid, port_guid, port, node_type,
 * node_desc, capacity, pkeys), written by tables_json.c and reused by
 * state_file.c, whose ports carry the same fields and more.  Not
 * installed.
 */
#ifndef IBPART_PKEY_TABLES_JSON_PORT_H
#define IBPART_PKEY_TABLES_JSON_PORT_H

#include <jansson.h>

#include "ibpart/pkey_table.h"
#include "ibpart/topo.h"

/* The entry of (n, p) holding t; NULL when out of memory. */
json_t *tables_json_port(const ibp_fabric *f, size_t n, unsigned p,
			 const ibp_pkey_table *t);

#endif
