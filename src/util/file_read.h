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
 * the NUL); the caller frees *text.  Path "-" is the standard input
 * (read to its end, not closed); a file named "-" is "./-".  At most max bytes
 * (0: the default of limits.h for plans and topologies): a longer input -
 * /dev/zero, an endless pipe - is IBP_ERANGE ("larger than the input limit of N
 * bytes", located at path; errno EFBIG) after reading max + 1 bytes.
 * IBP_EIO ("cannot open: <why>", located at path; errno kept) when it
 * cannot be opened or read, IBP_ENOMEM.  err may be NULL. */
int ibp_file_read_all(const char *path, size_t max, char **text, size_t *len,
		      ibp_error *err);

/* A whole input file as ibp_file_map() gives it: text[len] is a NUL;
 * mapped is the length of the mapping that holds it (0: malloc'd). */
struct ibp_file_text {
	char *text;
	size_t len, mapped;
};
/* ibp_file_read_all(), but a regular file of IBP_FILE_MAP_MIN bytes or
 * more is mapped (read-only, pages populated at once) instead of copied:
 * a 50 MB plan then costs no copy and no fresh zeroed pages.  The text
 * must not be written.  A file truncated by another process while it is
 * mapped makes the reader fault (SIGBUS) - as for every program that
 * maps its input; ibpart's own writers replace files by rename, which
 * does not.  Free with ibp_file_text_free(). */
#define IBP_FILE_MAP_MIN ((size_t)1 << 20)
int ibp_file_map(const char *path, size_t max, struct ibp_file_text *out,
		 ibp_error *err);
/* Give back the resident pages of a mapped text (ibp_file_map) that lie
 * wholly inside [from, to): they are read again from the file if
 * touched later.  Only for a text whose mapped is not 0. */
void ibp_file_text_release(const char *text, size_t from, size_t to);
/* Unmap or free t's text (NULL text: nothing); t is zeroed. */
void ibp_file_text_free(struct ibp_file_text *t);

#endif
