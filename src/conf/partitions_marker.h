/*
 * partitions_marker.h - the line that marks a partitions file as
 * ibpartd's: above it the operator's lines, below it the section the
 * service generates from its database (src/service/service_render.c).
 *
 * It belongs to the partitions file format (module conf), not to the
 * service, so that `ibpart apply --via-opensm` (module live) can refuse
 * a file the service manages without depending on the service.
 */
#ifndef IBPART_PARTITIONS_MARKER_H
#define IBPART_PARTITIONS_MARKER_H

#include <stdbool.h>
#include <stddef.h>

/* The marker line (the same text as IBP_SERVICE_MARKER, service.h). */
#define IBP_PARTITIONS_MARKER                                                  \
	"# ---- ibpartd: generated section, managed through its API; "         \
	"do not edit below this line ----"

/* Where the marker starts in text, as a whole line; NULL if absent. */
const char *ibp_partitions_marker_find(const char *text);

/* The line number (from 1) of the marker line in text[0..len), which
 * need not end in NUL; 0 if absent. */
unsigned ibp_partitions_marker_line(const char *text, size_t len);

/* Does the file at path hold the marker line?  false when it cannot be
 * read. */
bool ibp_partitions_file_managed(const char *path);

#endif
