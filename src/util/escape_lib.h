/*
 * escape_lib.h - the library's own half of ibpart/sys/escape.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/sys/escape.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_UTIL_ESCAPE_LIB_H
#define IBPART_UTIL_ESCAPE_LIB_H

#include "ibpart/sys/escape.h"

/* True when s[0..len) is valid UTF-8 (no overlong forms, no surrogates,
 * nothing past U+10FFFF). */
bool ibp_utf8_valid(const char *s, size_t len);

/* The length of the valid UTF-8 sequence at s (1..4), or 0 when the
 * byte at s starts none (len > 0). */
size_t ibp_utf8_seq(const char *s, size_t len);

/* Whether s[0..len) may need ibp_escape_text(): false for printable
 * ASCII and tabs (nearly every name), so a caller can use it as it is
 * without an allocation; true for anything else, valid UTF-8 included. */
bool ibp_escape_needed(const char *s, size_t len);

/* s[0..len) as valid UTF-8 for JSON: invalid bytes become U+FFFD.  A
 * malloc'd string (caller frees), NULL on ENOMEM. */
char *ibp_utf8_lossy(const char *s, size_t len);

/* s[0..len) as lowercase hex digits (2 per byte), malloc'd; NULL on
 * ENOMEM. */
char *ibp_hex(const char *s, size_t len);

/* s[0..len) as a Prometheus label value, by the rule above (without
 * the surrounding quotes): a malloc'd, NUL-terminated string (caller
 * frees), NULL on ENOMEM. */
char *ibp_escape_prometheus(const char *s, size_t len);

/* s[0..len) to out as HTML text or a quoted attribute value, by the
 * rule above. */
void ibp_escape_html_write(FILE *out, const char *s, size_t len);

/* Whether a spreadsheet would take s[0..len) as a formula (it starts
 * with = + - @, tab or CR). */
bool ibp_csv_formula(const char *s, size_t len);

/* s[0..len) to out as one CSV field, by the rule above. */
void ibp_escape_csv_write(FILE *out, const char *s, size_t len);

/* s[0..len), text already escaped by ibp_escape_text(), to out as a
 * Markdown table cell by the rule above (a control byte left is written
 * \\xNN all the same). */
void ibp_escape_markdown_write(FILE *out, const char *s, size_t len);

#endif
