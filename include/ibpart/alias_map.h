/*
 * alias_map.h - alias GUIDs (the GUIDs of SR-IOV virtual functions) and
 * what every GUID a plan or a client names is to the fabric.
 *
 * A port answers to its port GUID (GUIDInfo index 0) and may hold more
 * GUIDs in its GUIDInfo table (IBA vol. 1 14.2.5.5: blocks of 8, up to
 * PortInfo GUIDCap entries): alias GUIDs.  In the ConnectX-3 (mlx4)
 * model a virtual function's GUID is the alias at index VF number of its
 * physical port.  A topology file cannot carry them, so they travel in
 * an alias map: a text file of lines
 *
 *     ALIAS-GUID  PORT-GUID  INDEX
 *
 * (GUIDs as 0x-prefixed hex, INDEX the GUIDInfo index 1..255 in
 * decimal; blank lines and '#' comments ignored; an alias given twice,
 * an alias equal to a port GUID of the map or an INDEX out of range is
 * an error).  `ibpart discover` writes one beside the topology; every
 * command that takes -t takes one with --alias-guids.
 *
 * OpenSM 3.3.23 looks partition members up among base port GUIDs only
 * (osm_prtn.c, osm_prtn_add_port, osm_get_port_by_guid): a GUID that is
 * no port GUID of the fabric - unknown, a node GUID, or an alias - is
 * skipped with a log line, and no table holds its P_Keys.
 * ibp_guid_classify() says which of those a GUID is.
 */
#ifndef IBPART_ALIAS_MAP_H
#define IBPART_ALIAS_MAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/export.h"
#include "ibpart/topo.h"

IBP_BEGIN_DECLS

typedef struct ibp_alias_map ibp_alias_map;

/* One alias GUID: the physical port whose GUIDInfo holds it, and where. */
struct ibp_alias {
	uint64_t alias;	    /* the alias GUID (a VF's GUID) */
	uint64_t port_guid; /* the physical port's GUID (index 0) */
	unsigned index;	    /* its GUIDInfo index, 1..255 (mlx4: VF n) */
};

/* An empty map; NULL when out of memory. */
ibp_alias_map *ibp_alias_map_new(void);
/* Free a map (NULL is fine). */
void ibp_alias_map_free(ibp_alias_map *m);
/* Add an alias.  IBP_ERANGE when the alias is already in the map (the
 * map is unchanged), IBP_EINVAL for an index out of 1..255, a zero GUID
 * or an alias equal to its port GUID, IBP_ENOMEM. */
int ibp_alias_map_add(ibp_alias_map *m, const struct ibp_alias *a);
/* How many aliases; the i-th in the order they were added (NULL past the
 * end). */
size_t ibp_alias_map_count(const ibp_alias_map *m);
const struct ibp_alias *ibp_alias_map_at(const ibp_alias_map *m, size_t i);
/* The alias entry of a GUID, or NULL when the map (may be NULL) does not
 * hold it. */
const struct ibp_alias *ibp_alias_map_find(const ibp_alias_map *m,
					   uint64_t alias);

/* Read an alias map (the format above) from text; findings go to diags
 * (file:line:col, codes "alias-map-syntax", "alias-map-duplicate").
 * IBP_EPARSE when a line is wrong (*out NULL, the error in err located
 * at its first one), IBP_ENOMEM. */
int ibp_alias_map_load_buffer(const char *name, const char *text, size_t len,
			      ibp_alias_map **out, ibp_diags *diags,
			      ibp_error *err);
/* The same from a file ("-": the standard input) of at most max bytes
 * (0: IBP_SMALL_INPUT_MAX_DEFAULT); IBP_EIO / IBP_ERANGE when it cannot
 * be read whole. */
int ibp_alias_map_load(const char *path, size_t max, ibp_alias_map **out,
		       ibp_diags *diags, ibp_error *err);
/* Write the map in the format above, with a header comment naming the
 * fabric's ports where f (may be NULL) has them.  IBP_EIO when the
 * stream fails. */
int ibp_alias_map_write(const ibp_alias_map *m, const ibp_fabric *f, FILE *out);

/* What a GUID is to a fabric (and an alias map). */
typedef enum ibp_guid_kind {
	IBP_GUID_PORT = 0, /* a port GUID of the fabric: OpenSM programs it */
	IBP_GUID_ALIAS,	   /* an alias GUID of a port of the fabric (a VF) */
	IBP_GUID_NODE,	   /* a node GUID given where a port GUID belongs */
	IBP_GUID_UNKNOWN   /* nothing of the fabric has it */
} ibp_guid_kind;
/* "port", "alias", "node-guid", "unknown". */
const char *ibp_guid_kind_str(ibp_guid_kind k);

/* A GUID classified: its kind, and for PORT and ALIAS the port of the
 * fabric (node, port, port GUID) and for ALIAS its GUIDInfo index. */
struct ibp_guid_class {
	ibp_guid_kind kind;
	size_t node;
	unsigned port;
	uint64_t port_guid;
	unsigned index;
};
/* Classify guid against fabric f and alias map m (may be NULL).  A port
 * GUID wins over an alias entry; an alias whose physical port the fabric
 * lacks is UNKNOWN (nothing the SM sees has it).  c may be NULL.
 * Returns the kind. */
ibp_guid_kind ibp_guid_classify(const ibp_fabric *f, const ibp_alias_map *m,
				uint64_t guid, struct ibp_guid_class *c);

IBP_END_DECLS

#endif
