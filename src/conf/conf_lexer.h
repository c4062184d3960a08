/*
 * conf_lexer.h - the lexical layer of OpenSM's partitions.conf reader, as
 * OpenSM 3.3.23 has it: the file is read in "lines" of at most 4094 bytes
 * (fgets into a 4096-byte buffer that is never cleared, so bytes of an
 * earlier, longer line stay behind the terminating NUL), a '#' cuts the
 * line, and items are split by replacing delimiters with NUL in place.
 * The lexer keeps the map from buffer offsets back to file line:column.
 */
#ifndef IBPART_CONF_LEXER_H
#define IBPART_CONF_LEXER_H

#include <stdbool.h>
#include <stddef.h>

#include "ibpart/conf.h"

#define CONF_LINE_BUF 4096		  /* OpenSM's char line[4096] */
#define CONF_LINE_MAX (CONF_LINE_BUF - 2) /* fgets(line, 4095): 4094 bytes */

struct conf_lexer {
	const char *text;
	size_t len, off;     /* next byte of the file to read */
	unsigned osm_line;   /* OpenSM's line counter (pieces) */
	unsigned line, col0; /* file position of buf[0] */
	unsigned next_line, next_col0;
	size_t n;     /* bytes in buf from the last read */
	bool split;   /* this piece is not a whole line */
	bool has_nul; /* a NUL byte inside this piece */
	bool any_nul; /* a NUL byte anywhere in the text */
	/* the buffer, and slack so that reads past OpenSM's end stay inside
	 * our memory (all zero) */
	char buf[CONF_LINE_BUF + 16];
};

void conf_lex_init(struct conf_lexer *lx, const char *text, size_t len);
/* Read the next piece into buf as fgets would; false at end of file. */
bool conf_lex_next(struct conf_lexer *lx);
/* File position of a pointer into buf (past the piece: its end). */
ibp_conf_pos conf_lex_pos(const struct conf_lexer *lx, const char *p);
/* Whether p lies within the bytes read for this piece. */
bool conf_lex_in_piece(const struct conf_lexer *lx, const char *p);

/* OpenSM's "name[=value]" splitter: str runs to its NUL; leading and
 * trailing ' ', '\t', '\n' are dropped from both parts (in place); *val
 * is NULL when there is no '='.  Returns how far OpenSM advances: past
 * the NUL that ends the value (or the name). */
size_t conf_lex_name_token(char *str, char **name, char **val);

/* The common line of a large file, a list of port GUID members inside
 * a partition, read at memory speed (conf_fastline.c): when the piece in
 * lx->buf is such a line, its members are added to part (flags: the
 * statement's) with the buffer changed exactly as OpenSM's reading
 * changes it, and 1 is returned; *segment: it held a statement segment
 * (OpenSM read something), *ended: a ';' ended the statement.  0 when
 * the line has another shape (the buffer is then untouched),
 * IBP_ENOMEM. */
struct ibp_conf_partition;
int conf_fast_members(ibp_conf *c, struct conf_lexer *lx,
		      struct ibp_conf_partition *part,
		      const ibp_conf_flags *flags, bool *ended, bool *segment);

#endif
