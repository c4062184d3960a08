/*
 * error.h - how every ibpart function reports failure.
 *
 * Functions return an ibp_status (0 on success, a negative code otherwise)
 * and, when the caller passes a non-NULL ibp_error, fill it with the status,
 * a one-line message and, where the failure is about a place in an input
 * file, that place (file, 1-based line and column).  The struct is plain
 * data on the caller's stack: no allocation, nothing to free.
 */
#ifndef IBPART_ERROR_H
#define IBPART_ERROR_H

#include <stddef.h>
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef enum ibp_status {
	IBP_OK = 0,
	IBP_EINVAL = -1,    /* bad argument or malformed input */
	IBP_ENOMEM = -2,    /* out of memory */
	IBP_EPARSE = -3,    /* an input file does not parse */
	IBP_ERANGE = -4,    /* a value or index is out of range */
	IBP_ENOENT = -5,    /* the thing asked for does not exist */
	IBP_EIO = -6,	    /* the system or the fabric failed */
	IBP_ETIMEDOUT = -7, /* no answer in time */
	IBP_EMAD = -8,	    /* a MAD came back with a non-zero status */
	IBP_EFULL = -9,	    /* a P_KeyTable has no free entry */
	IBP_ESHORT = -10,   /* a buffer is too short to decode */
	IBP_ECANCELED = -11 /* the caller's cancel callback said stop */
} ibp_status;

typedef struct ibp_error {
	ibp_status status;
	char file[256]; /* "" when the error is not about a file */
	unsigned line;	/* 1-based; 0 when unknown */
	unsigned col;	/* 1-based; 0 when unknown */
	char message[512];
} ibp_error;

/* Reset to IBP_OK with empty text.  NULL is allowed. */
void ibp_error_clear(ibp_error *err);

/* Fill err (NULL allowed) and return st, so callers can write
 * `return ibp_error_set(err, IBP_EINVAL, "bad %s", x);`. */
int ibp_error_set(ibp_error *err, ibp_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The same with a position in a file. */
int ibp_error_set_at(ibp_error *err, ibp_status st, const char *file,
		     unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* A short constant name for a status ("invalid argument", …). */
const char *ibp_status_str(int st);

/* "file:line:col: error: message" (the position part omitted when
 * unknown) into buf; returns what snprintf returns. */
int ibp_error_format(const ibp_error *err, char *buf, size_t len);

IBP_END_DECLS
#endif
