/*
 * conf_fastline.c - the common line of a large partitions.conf read at
 * memory speed: a line of port GUID members inside a partition,
 *
 *     <ws> 0x<hex>[=full|=limited] {, 0x<hex>[=full|=limited]} [,] [;]
 *     [# comment]
 *
 * OpenSM 3.3.23's reading (conf_parser.c) takes a dozen string calls per
 * item (strchr, strlen, strcmp, strtoull, ...); on a million-member file
 * that is most of the time.  This file recognises such a line with one
 * pass over a character table and decodes the GUIDs with a hex table,
 * and then does to the line buffer and to the AST exactly what the
 * general reader would: the same NUL bytes written into the buffer (they
 * stay behind as the stale bytes a later overrun reads, see
 * conf_lexer.h), the same members with the same text, membership and
 * positions.  Such a line gives OpenSM no occasion to complain, so the
 * general reader would report nothing on it either.  A line of any other
 * shape (a header, an mgid, a keyword, a word other than full and
 * limited, a GUID OpenSM would not read, 17 or more digits, a CR,
 * anything after ';') is left untouched for the general reader.
 */
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_lexer.h"

/* OpenSM's whitespace (conf_is_ws): ' ', '\t', '\n' */
static const unsigned char is_ws[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1};

/* a hex digit's value + 1; 0 for every other byte */
static const unsigned char hex1[256] = {
    ['0'] = 1,	['1'] = 2,  ['2'] = 3,	['3'] = 4,  ['4'] = 5,	['5'] = 6,
    ['6'] = 7,	['7'] = 8,  ['8'] = 9,	['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
    ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};

#define FAST_MAX_ITEMS 128

struct fast_item {
	uint64_t guid;
	unsigned short name, name_end; /* the GUID as written */
	unsigned short eq;	       /* '=' (0: none; never at 0) */
	unsigned short word_end;       /* end of full/limited */
	unsigned short sep;	       /* ',' or ';' or the line's end */
	unsigned char word;	       /* 0 none, 1 full, 2 limited */
};

static inline size_t skip_ws(const unsigned char *b, size_t i, size_t lim)
{
	while (i < lim && is_ws[b[i]])
		i++;
	return i;
}

/* Recognise the n bytes of the line in b (b[n] is its NUL): the items
 * into it[], *semi_at the ';' (or 0) and *lim where OpenSM's text ends
 * (the first '#', else n).  No '#' can be inside an item of this shape,
 * so the first one met where an item or the line may end is that '#';
 * one met anywhere else makes the line another shape.  Returns the item
 * count, or -1 when the line is not of this shape. */
static int recognise(const unsigned char *b, size_t n, struct fast_item *it,
		     size_t *semi_at, size_t *lim)
{
#define AT_END(j) ((j) == n || b[j] == '#' ? (*lim = (j), true) : false)
	size_t i = skip_ws(b, 0, n);
	int k = 0;
	*semi_at = 0;
	if (AT_END(i))
		return 0; /* blank, or only a comment */
	for (;;) {
		if (k == FAST_MAX_ITEMS)
			return -1;
		struct fast_item *t = &it[k++];
		/* b[n] is the NUL: reading one past a token never leaves
		 * the piece, and no table below takes a NUL or '#' */
		if (b[i] != '0' || (b[i + 1] | 0x20) != 'x')
			return -1;
		size_t h = i + 2;
		uint64_t v = 0;
		/* the common GUID, 16 digits then a non-digit: decoded with
		 * no data-dependent branch (b[n] is the NUL, so b[h + 16]
		 * is inside the piece) */
		unsigned all = 0;
		if (n - h >= 16) {
			all = 1;
			for (int d = 0; d < 16; d++) {
				unsigned x = hex1[b[h + d]];
				all &= x != 0;
				v = v << 4 | (uint64_t)((x - 1) & 0xf);
			}
			all &= !hex1[b[h + 16]];
		}
		if (all) {
			h += 16;
		} else {
			v = 0;
			while (h < n && hex1[b[h]]) {
				v = v << 4 | (uint64_t)(hex1[b[h]] - 1);
				h++;
			}
		}
		/* strtoull would wrap 17+ digits to ULLONG_MAX; 0 is not a
		 * GUID: both for the general reader */
		if (h == i + 2 || h - (i + 2) > 16 || !v)
			return -1;
		t->guid = v;
		t->name = (unsigned short)i;
		t->name_end = (unsigned short)h;
		t->eq = 0;
		t->word = 0;
		size_t j = skip_ws(b, h, n);
		if (j < n && b[j] == '=') {
			t->eq = (unsigned short)j;
			j = skip_ws(b, j + 1, n);
			if (n - j >= 4 && !memcmp(b + j, "full", 4)) {
				t->word = 1;
				j += 4;
			} else if (n - j >= 7 && !memcmp(b + j, "limited", 7)) {
				t->word = 2;
				j += 7;
			} else {
				return -1;
			}
			t->word_end = (unsigned short)j;
			j = skip_ws(b, j, n);
		}
		t->sep = (unsigned short)j;
		if (AT_END(j))
			return k;
		if (b[j] == ';') {
			*semi_at = j;
			j = skip_ws(b, j + 1, n);
			return AT_END(j) ? k : -1;
		}
		if (b[j] != ',')
			return -1;
		j = skip_ws(b, j + 1, n);
		if (AT_END(j))
			return k; /* a trailing comma: an empty item */
		if (b[j] == ';') {
			/* an empty item, then the statement's end */
			*semi_at = j;
			j = skip_ws(b, j + 1, n);
			return AT_END(j) ? k : -1;
		}
		i = j;
	}
#undef AT_END
}

int conf_fast_members(ibp_conf *c, struct conf_lexer *lx,
		      struct ibp_conf_partition *part,
		      const ibp_conf_flags *flags, bool *ended, bool *segment)
{
	*ended = *segment = false;
	if (lx->split || lx->has_nul || lx->n > CONF_LINE_MAX)
		return 0;
	unsigned char *b = (unsigned char *)lx->buf;
	struct fast_item it[FAST_MAX_ITEMS];
	size_t semi_at, lim;
	int k = recognise(b, lx->n, it, &semi_at, &lim);
	if (k < 0)
		return 0;
	/* what the general reader writes into the buffer: NUL for '#',
	 * for each ',', '=' and ';', and over the whitespace that ends a
	 * GUID or a word (its strip_tail) */
	if (lim < lx->n)
		b[lim] = 0;
	for (int i = 0; i < k; i++) {
		const struct fast_item *t = &it[i];
		size_t sep = t->sep;
		if (t->eq) {
			memset(b + t->name_end, 0, t->eq - t->name_end + 1u);
			memset(b + t->word_end, 0, sep - t->word_end);
		} else {
			memset(b + t->name_end, 0, sep - t->name_end);
		}
		if (sep < lim)
			b[sep] = 0;
	}
	if (semi_at)
		b[semi_at] = 0;
	*segment = k > 0;
	*ended = semi_at != 0;
	for (int i = 0; i < k; i++) {
		const struct fast_item *t = &it[i];
		ibp_conf_member *m = conf_add_member(c, part);
		if (!m)
			return IBP_ENOMEM;
		m->kind = IBP_MEMBER_GUID;
		m->guid = t->guid;
		m->text = conf_arena_strndup(&c->arena, (char *)b + t->name,
					     t->name_end - t->name);
		if (!m->text)
			return IBP_ENOMEM;
		m->written = t->word == 1   ? IBP_MEMB_FULL
			     : t->word == 2 ? IBP_MEMB_LIMITED
					    : IBP_MEMB_UNSPECIFIED;
		m->written_word = t->word == 1	 ? "full"
				  : t->word == 2 ? "limited"
						 : NULL;
		m->membership = t->word ? m->written : flags->defmember;
		m->indx0 = flags->indx0;
		m->pos.line = lx->line;
		m->pos.col = lx->col0 + t->name;
	}
	return 1;
}
