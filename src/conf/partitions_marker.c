/*
 * partitions_marker.c - finding ibpartd's marker line in a partitions
 * file (partitions_marker.h).
 */
#include <stdlib.h>
#include <string.h>

#include "conf/partitions_marker.h"
#include "util/file_read.h"

const char *ibp_partitions_marker_find(const char *text)
{
	const char *m = text;
	size_t ml = strlen(IBP_PARTITIONS_MARKER);
	while ((m = strstr(m, IBP_PARTITIONS_MARKER))) {
		if ((m == text || m[-1] == '\n') &&
		    (m[ml] == '\n' || m[ml] == 0))
			return m;
		m += ml;
	}
	return NULL;
}

bool ibp_partitions_file_managed(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	bool yes = !ibp_file_read_all(path, 0, &text, &len, NULL) &&
		   ibp_partitions_marker_find(text);
	free(text);
	return yes;
}
