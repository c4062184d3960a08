/*
 * conf_lexer.c - OpenSM 3.3.23's lexical reading of partitions.conf (see
 * conf_lexer.h): fgets-sized pieces, a buffer that keeps stale bytes, the
 * in-place "name=value" splitter, and the way back from buffer offsets to
 * file positions.
 */
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_lexer.h"

void conf_lex_init(struct conf_lexer *lx, const char *text, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->text = text;
	lx->len = len;
	lx->next_line = 1;
	lx->next_col0 = 1;
	/* one pass over the whole text, instead of one per line */
	lx->any_nul = len && memchr(text, 0, len) != NULL;
}

bool conf_lex_next(struct conf_lexer *lx)
{
	if (lx->off >= lx->len)
		return false;
	const char *s = lx->text + lx->off;
	size_t avail = lx->len - lx->off;
	size_t max = avail < CONF_LINE_MAX ? avail : CONF_LINE_MAX;
	const char *nl = memchr(s, '\n', max);
	size_t n = nl ? (size_t)(nl - s) + 1 : max;
	memcpy(lx->buf, s, n);
	lx->buf[n] = 0;
	lx->has_nul = lx->any_nul && memchr(s, 0, n) != NULL;
	lx->n = n;
	lx->off += n;
	lx->osm_line++;
	lx->line = lx->next_line;
	lx->col0 = lx->next_col0;
	lx->split = !nl && lx->off < lx->len;
	if (nl) {
		lx->next_line = lx->line + 1;
		lx->next_col0 = 1;
	} else {
		lx->next_col0 = lx->col0 + (unsigned)n;
	}
	return true;
}

bool conf_lex_in_piece(const struct conf_lexer *lx, const char *p)
{
	return p >= lx->buf && p < lx->buf + lx->n;
}

ibp_conf_pos conf_lex_pos(const struct conf_lexer *lx, const char *p)
{
	ibp_conf_pos pos = {lx->line, lx->col0};
	if (p < lx->buf)
		return pos;
	size_t off = (size_t)(p - lx->buf);
	if (off > lx->n)
		off = lx->n;
	/* a position on the newline reads better as the end of the line */
	if (off == lx->n && off && lx->buf[off - 1] == '\n')
		off--;
	pos.col = lx->col0 + (unsigned)off;
	return pos;
}

static void strip_tail(char *p)
{
	char *q = p + strlen(p);
	while (q != p && (*q == 0 || conf_is_ws(*q)))
		*q-- = 0;
}

size_t conf_lex_name_token(char *str, char **name, char **val)
{
	char *p = str;
	*name = *val = NULL;
	while (conf_is_ws(*p))
		p++;
	char *eq = strchr(p, '=');
	if (eq)
		*eq++ = 0;
	size_t len = strlen(str) + 1;
	strip_tail(p);
	*name = p;
	if (!eq)
		return len;
	char *v = eq;
	while (conf_is_ws(*v))
		v++;
	char *end = v + strlen(v);
	len += (size_t)(end - eq) + 1;
	strip_tail(v);
	*val = v;
	return len;
}
