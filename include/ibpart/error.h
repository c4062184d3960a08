/*
 * Module util (src/util/): what every other module uses.  Owns
 * ibp_error and the status codes (this header, error.c), lists of located
 * findings (diag.h, diag.c), whole-or-nothing output files
 * (atomic_file.h, atomic_file.c), reading a whole input file (private
 * file_read.h, file_read.c) and the library's version (version.h from
 * version.h.in, version.c); beside them the escaping of each output
 * format (sys/escape.h, escape.c), progress (progress.h, progress.c),
 * "did you mean" (sys/suggest.h, suggest.c), options read as far as the
 * caller's version goes (private options_version.h, options_version.c),
 * strings into JSON (json_text.c), hash seeds (hash_seed.c) and huge-page
 * arrays (huge_pages.c).  Depends on nothing of ibpart; diag.c uses
 * jansson.
 *
 * error.h - how every ibpart function reports failure.
 *
 * Functions return an ibp_status (0 on success, a negative code otherwise)
 * and, when the caller passes a non-NULL ibp_error, fill it with the status,
 * a one-line message and, where the failure is about a place in an input
 * file, that place (file, 1-based line and column).  The struct is plain
 * data on the caller's stack: no allocation, nothing to free.
 *
 * Threads: no global state here; each function touches only the ibp_error
 * it is given, so distinct ones may be used from different threads.
 */
#ifndef IBPART_ERROR_H
#define IBPART_ERROR_H

#include <stddef.h>
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef enum ibp_status {
	IBP_OK = 0,
	IBP_EINVAL = -1,     /* bad argument or malformed input */
	IBP_ENOMEM = -2,     /* out of memory */
	IBP_EPARSE = -3,     /* an input file does not parse */
	IBP_ERANGE = -4,     /* a value or index is out of range */
	IBP_ENOENT = -5,     /* the thing asked for does not exist */
	IBP_EIO = -6,	     /* the system or the fabric failed */
	IBP_ETIMEDOUT = -7,  /* no answer in time */
	IBP_EMAD = -8,	     /* a MAD came back with a non-zero status */
	IBP_EFULL = -9,	     /* a P_KeyTable has no free entry */
	IBP_ESHORT = -10,    /* a buffer is too short to decode */
	IBP_ECANCELED = -11, /* the caller's cancel callback said stop */
	IBP_EBUSY = -12	     /* another operation holds what is needed */
} ibp_status;

typedef struct ibp_error {
	ibp_status status;
	char file[256]; /* "" when the error is not about a file */
	unsigned line;	/* 1-based; 0 when unknown */
	unsigned col;	/* 1-based; 0 when unknown */
	char message[512];
} ibp_error;

/* Reset to IBP_OK with empty text (all bytes zero).  NULL is allowed and
 * does nothing.  Cannot fail. */
void ibp_error_clear(ibp_error *err);

/* Fill err (NULL allowed: then nothing is written) with st and the
 * formatted message, truncated to fit; file, line and col become ""/0.
 * Returns st, so callers can write
 * `return ibp_error_set(err, IBP_EINVAL, "bad %s", x);`.  Cannot fail. */
int ibp_error_set(ibp_error *err, ibp_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A short description of a status ("invalid argument", …), a static
 * string never to be freed; "unknown error" for a value not in
 * ibp_status. */
const char *ibp_status_str(int st);

/* "file:line:col: error: message" into buf, as snprintf would (always
 * terminated when len > 0): "file: error: message" when the line is
 * unknown, "error: message" when the file is; the message is
 * ibp_status_str(status) when err's is empty.  err must not be NULL.
 * Returns what snprintf returns (the length it wanted, or < 0). */
int ibp_error_format(const ibp_error *err, char *buf, size_t len);

IBP_END_DECLS
#endif
