/*
 * version.c - ibp_version(): the library's own version, from the same
 * generated header the programs see (version.h, made from CMake's
 * project version).
 */
#include "ibpart/version.h"

#include <stddef.h>

const char *ibp_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = IBP_VERSION_MAJOR;
	if (minor)
		*minor = IBP_VERSION_MINOR;
	if (patch)
		*patch = IBP_VERSION_PATCH;
	return IBP_VERSION_STRING;
}
