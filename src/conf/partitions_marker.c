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

unsigned ibp_partitions_marker_line(const char *text, size_t len)
{
	size_t ml = strlen(IBP_PARTITIONS_MARKER);
	unsigned line = 1;
	for (size_t at = 0; at + ml <= len; line++) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		if (end - at == ml &&
		    !memcmp(text + at, IBP_PARTITIONS_MARKER, ml))
			return line;
		if (!nl)
			break;
		at = end + 1;
	}
	return 0;
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
