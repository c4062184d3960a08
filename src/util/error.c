/*
 * error.c - filling and printing ibp_error (see include/ibpart/error.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ibpart/error.h"
#include "util/error_lib.h"

void ibp_error_clear(ibp_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
}

__attribute__((format(printf, 6, 0))) static void
vset(ibp_error *err, ibp_status st, const char *file, unsigned line,
     unsigned col, const char *fmt, va_list ap)
{
	err->status = st;
	snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
	err->line = line;
	err->col = col;
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
}

int ibp_error_set(ibp_error *err, ibp_status st, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vset(err, st, NULL, 0, 0, fmt, ap);
		va_end(ap);
	}
	return st;
}

int ibp_error_set_at(ibp_error *err, ibp_status st, const char *file,
		     unsigned line, unsigned col, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vset(err, st, file, line, col, fmt, ap);
		va_end(ap);
	}
	return st;
}

const char *ibp_status_str(int st)
{
	switch (st) {
	case IBP_OK:
		return "success";
	case IBP_EINVAL:
		return "invalid argument";
	case IBP_ENOMEM:
		return "out of memory";
	case IBP_EPARSE:
		return "parse error";
	case IBP_ERANGE:
		return "out of range";
	case IBP_ENOENT:
		return "not found";
	case IBP_EIO:
		return "I/O error";
	case IBP_ETIMEDOUT:
		return "timed out";
	case IBP_EMAD:
		return "MAD status error";
	case IBP_EFULL:
		return "table full";
	case IBP_ESHORT:
		return "buffer too short";
	case IBP_ECANCELED:
		return "cancelled";
	case IBP_EBUSY:
		return "busy";
	default:
		return "unknown error";
	}
}

int ibp_error_format(const ibp_error *err, char *buf, size_t len)
{
	const char *msg =
	    err->message[0] ? err->message : ibp_status_str(err->status);
	if (err->file[0] && err->line)
		return snprintf(buf, len, "%s:%u:%u: error: %s", err->file,
				err->line, err->col, msg);
	if (err->file[0])
		return snprintf(buf, len, "%s: error: %s", err->file, msg);
	return snprintf(buf, len, "error: %s", msg);
}
