/*
 * escape.h - one escaping rule per output format, in one place.
 *
 * Bytes that reach ibpart's outputs come from files operators write and
 * from the wire (a NodeDescription is whatever a tenant's HCA says).  A
 * terminal must never receive them raw (`\r\e[2K` would erase a DRIFT
 * line), and a JSON reader must never lose a finding because a string
 * was not UTF-8.  So:
 *
 *  text   printable ASCII, tabs and valid UTF-8 pass; every other byte is
 *         `\xNN` and the backslash itself `\\`, so the bytes are
 *         recoverable and nothing is hidden.  Valid UTF-8 a terminal
 *         acts on is not printable either: the C1 controls U+0080..
 *         U+009F (xterm runs U+009B as CSI), the bidirectional
 *         overrides and isolates (U+200E/F, U+202A..E, U+2066..9) and
 *         U+2028/9 go out as the `\xNN` of their bytes.
 *  JSON   valid UTF-8 passes; each invalid byte becomes U+FFFD, and the
 *         writer puts the exact bytes in a sibling `..._hex` field
 *         (hex digits) wherever the string was not valid UTF-8.
 *  HTML   text and attribute values: the text rule first (a control
 *         byte, an invalid one, a C1 or bidi control shows as \xNN, as
 *         on a terminal, so the page is valid UTF-8 and holds none raw),
 *         then < > & " ' as entities.
 *  CSV    RFC 4180: a field holding , " CR or LF is quoted, " doubled;
 *         a cell a spreadsheet would run as a formula (starting with
 *         = + - @, tab or CR: OWASP's "CSV injection") is quoted and
 *         starts with a ' so it is shown, not run.
 *  Markdown  a table cell of text already escaped by the text rule:
 *         | as \| (it would split the cell), the punctuation that
 *         formats (\ ` * _ [ ] # ! ~) backslash-escaped, < > & as
 *         entities (renderers pass HTML through), so the rendered cell
 *         shows the text form.
 *  Prometheus  a label value of the text exposition format: valid
 *         UTF-8, with \ " and line feed as \\ \" \n (the only escapes
 *         the format has); NUL and invalid bytes as U+FFFD.
 *  topology files have no escape syntax (ibsim's and ibnetdiscover's
 *         readers): the writer (topo.h) replaces quotes and line breaks
 *         and warns.
 *
 * Threads: pure functions of their arguments.
 */
#ifndef IBPART_ESCAPE_H
#define IBPART_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* s[0..len) for a terminal, by the text rule above: a malloc'd,
 * NUL-terminated string (caller frees), NULL on ENOMEM. */
char *ibp_escape_text(const char *s, size_t len);

/* The same, written to out as it goes: no allocation, and printable
 * text goes out in one fwrite. */
void ibp_escape_write(FILE *out, const char *s, size_t len);

IBP_END_DECLS
#endif
