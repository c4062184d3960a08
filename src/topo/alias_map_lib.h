/*
 * alias_map_lib.h - the library's own half of ibpart/alias_map.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/alias_map.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_TOPO_ALIAS_MAP_LIB_H
#define IBPART_TOPO_ALIAS_MAP_LIB_H

#include "ibpart/alias_map.h"

/* One alias GUID: the physical port whose GUIDInfo holds it, and where. */
struct ibp_alias {
	uint64_t alias;	    /* the alias GUID (a VF's GUID) */
	uint64_t port_guid; /* the physical port's GUID (index 0) */
	unsigned index;	    /* its GUIDInfo index, 1..255 (mlx4: VF n) */
};

/* A GUID classified: its kind, and for PORT and ALIAS the port of the
 * fabric (node, port, port GUID) and for ALIAS its GUIDInfo index. */
struct ibp_guid_class {
	ibp_guid_kind kind;
	size_t node;
	unsigned port;
	uint64_t port_guid;
	unsigned index;
};

/* An empty map; NULL when out of memory. */
ibp_alias_map *ibp_alias_map_new(void);

/* Add an alias.  IBP_ERANGE when the alias is already in the map,
 * IBP_EBUSY when its slot (port GUID, index) already holds another
 * alias - a GUIDInfo index holds one GUID, so the one there first wins:
 * a port's own table over the SA's records, the fabric over a file -
 * (the map is unchanged either way), IBP_EINVAL for an index out of
 * 1..255, a zero GUID or an alias equal to its port GUID, IBP_ENOMEM. */
int ibp_alias_map_add(ibp_alias_map *m, const struct ibp_alias *a);

/* The alias at GUIDInfo index `index` of port port_guid, or NULL. */
const struct ibp_alias *ibp_alias_map_slot(const ibp_alias_map *m,
					   uint64_t port_guid, unsigned index);

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

/* Classify guid against fabric f and alias map m (may be NULL).  A port
 * GUID wins over an alias entry; an alias whose physical port the fabric
 * lacks is UNKNOWN (nothing the SM sees has it).  c may be NULL.
 * Returns the kind. */
ibp_guid_kind ibp_guid_classify(const ibp_fabric *f, const ibp_alias_map *m,
				uint64_t guid, struct ibp_guid_class *c);

/* The first `shown` of the GUIDs g[0..n) named into buf (size bytes):
 * "0x..." each, an alias of a port of f with " (VF i of DESC port p)",
 * joined by ", ", then ", ..." when there are more: how a finding or a
 * warning names the GUIDs OpenSM skips. */
void ibp_guid_list_describe(const ibp_fabric *f, const ibp_alias_map *m,
			    const uint64_t *g, size_t n, size_t shown,
			    char *buf, size_t size);

#endif
