/*
 * file_read.h - reading a whole input file into memory, the one way every
 * reader of the library does it (partitions.conf, topologies,
 * node-name-maps, tenant maps, opensm.conf, JSON tables).  Internal to
 * the library.
 */
#ifndef IBPART_FILE_READ_H
#define IBPART_FILE_READ_H

#include <stddef.h>

#include "ibpart/error.h"
#include "ibpart/limits.h"

/* The whole file at path, malloc'd and NUL-terminated (*len bytes before
 * the NUL); the caller frees *text.  At most max bytes (0: the default
 * of limits.h for plans and topologies): a longer input - /dev/zero, an
 * endless pipe - is IBP_ERANGE ("larger than the input limit of N
 * bytes", located at path; errno EFBIG) after reading max + 1 bytes.
 * IBP_EIO ("cannot open: <why>", located at path; errno kept) when it
 * cannot be opened or read, IBP_ENOMEM.  err may be NULL. */
int ibp_file_read_all(const char *path, size_t max, char **text, size_t *len,
		      ibp_error *err);

#endif
