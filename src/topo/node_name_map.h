/*
 * node_name_map.h - rdma-core's node-name-map: a file of "GUID name" lines
 * that infiniband-diags and OpenSM use to give nodes readable names.
 *
 * Format (as infiniband-diags' --node-name-map reads it): one entry a
 * line, a node GUID (0x… hex or decimal), white space, and the name,
 * either in double quotes or bare up to a '#' or the end of the line.
 * Blank lines and lines whose first non-blank character is '#' are
 * comments.  A GUID given twice keeps its last name (with a warning).
 */
#ifndef IBPART_NODE_NAME_MAP_H
#define IBPART_NODE_NAME_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"

typedef struct ibp_node_name_map ibp_node_name_map;

/* Read a map; findings go to diags (file:line:col).  IBP_EPARSE when a
 * line is malformed (then *out is NULL), IBP_EIO when the file cannot be
 * read. */
int ibp_node_name_map_load(const char *path, ibp_node_name_map **out,
			   ibp_diags *diags);
/* ibp_node_name_map_load() reading at most max_input_size bytes (0: 64
 * MiB, IBP_SMALL_INPUT_MAX_DEFAULT); a longer file is IBP_ERANGE, with a
 * "too-large" finding. */
int ibp_node_name_map_load_limit(const char *path, size_t max_input_size,
				 ibp_node_name_map **out, ibp_diags *diags);
int ibp_node_name_map_load_buffer(const char *name, const char *text,
				  size_t len, ibp_node_name_map **out,
				  ibp_diags *diags);
void ibp_node_name_map_free(ibp_node_name_map *m);

/* How many GUIDs the map names. */
size_t ibp_node_name_map_count(const ibp_node_name_map *m);
/* The name for a node GUID, or NULL when the map has none. */
const char *ibp_node_name_map_lookup(const ibp_node_name_map *m, uint64_t guid);

#endif
