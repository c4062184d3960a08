/*
 * diag.h - a list of located findings (errors, warnings, notes), the way a
 * compiler reports them.
 *
 * Readers of input files (partitions.conf, topology) do not stop at the
 * first problem: they append every finding to an ibp_diags and keep going
 * where they can.  The list remembers each file's text, so it can print
 * the offending line with a caret under the column, and it can render
 * itself as JSON for scripts.
 *
 * Threads: no global state.  A list is used by one thread at a time,
 * except that its const functions (count, get, print, to_json) only read
 * it and may run concurrently with each other, never with add, sort,
 * append or set_source on the same list.
 */
#ifndef IBPART_DIAG_H
#define IBPART_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef enum ibp_severity {
	IBP_SEV_NOTE = 0,
	IBP_SEV_WARNING = 1,
	IBP_SEV_ERROR = 2
} ibp_severity;

/* One finding.  Strings are owned by the list. */
typedef struct ibp_diag {
	ibp_severity severity;
	const char *code;   /* stable identifier, e.g. "missing-comma" */
	const char *file;   /* may be "" */
	unsigned line, col; /* 1-based; 0 = unknown */
	const char *message;
	const char *subject; /* what it is about (a port's name), or NULL */
} ibp_diag;

typedef struct ibp_diags ibp_diags;

/* An empty list, to be freed with ibp_diags_free(), or NULL when out of
 * memory.  Free releases the list with every string and file text it
 * owns (NULL is allowed); the ibp_diag pointers it gave out die with it. */
ibp_diags *ibp_diags_new(void);
void ibp_diags_free(ibp_diags *d);

/* A list keeps this many findings of one code in one file; the rest
 * are counted (ibp_diags_count_severity), so a file
 * with a finding on each of its lines stays within memory. */
#define IBP_DIAGS_KEEP_PER_CODE 10000u

/* How many findings the list keeps, 0 for a NULL list; and finding i
 * (0-based, in the order added or sorted), or NULL when i >= count: a
 * caller walks the findings with these two.  The ibp_diag and its
 * strings are borrowed: valid until the list is freed, sorted, or added
 * to (adding may move the array). */
size_t ibp_diags_count(const ibp_diags *d);
const ibp_diag *ibp_diags_get(const ibp_diags *d, size_t i);

/* How many findings of severity sev, with those past
 * IBP_DIAGS_KEEP_PER_CODE that were only counted; 0 for a NULL list. */
size_t ibp_diags_count_severity(const ibp_diags *d, ibp_severity sev);

/* "error", "warning" or "note" (for any other value too): a static
 * string. */
const char *ibp_severity_str(ibp_severity sev);

/* {"findings":[{"file","line","column","severity","code","message"}…],
 *  "errors":N,"warnings":N} as a malloc'd string, or NULL when out of
 * memory.  Strings are valid UTF-8: where a file name or message was
 * not, the invalid bytes are U+FFFD and "file_hex"/"message_hex" hold
 * the exact bytes, so no finding is ever dropped.  Indented; the caller
 * frees it with free().  A NULL d gives the empty list. */
char *ibp_diags_to_json(const ibp_diags *d);

/* Sort findings by file name (strcmp), line, column; stable, so equal
 * positions keep their order.  NULL is allowed.  Cannot fail. */
void ibp_diags_sort(ibp_diags *d);

/* Does d hold a finding with this code (e.g. "opensm-fallback")?  NULL
 * d holds none. */
bool ibp_diags_has_code(const ibp_diags *d, const char *code);

/* Append src's findings to dst, in their order, with the texts of the
 * files they quote: all of them when file is NULL, else only those about
 * that file.  Everything is copied; src is not changed and may be NULL
 * (nothing to append).  Returns 0, or IBP_ENOMEM (dst then holds a
 * prefix). */
int ibp_diags_append(ibp_diags *dst, const ibp_diags *src, const char *file);

/* Every finding as "file:line:col: error: message [code]", then the
 * source line (a 100-byte window around the column) and a caret under
 * it when the file's text is known.  File names, messages and quoted
 * lines are escaped for a terminal (`\xNN`, `\\`): one finding is
 * always its own lines.  NULL d prints nothing; write errors on out are
 * not reported.  (The CLI's limits on how many are shown are
 * sys/diag.h's.) */
void ibp_diags_print(const ibp_diags *d, FILE *out);

IBP_END_DECLS
#endif
