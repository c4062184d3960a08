/*
 * suggest.h - "did you mean": the closest of a list of words to a
 * mistyped one (part of module util, src/util/suggest.c).  Pure: no
 * state, safe from any thread.
 */
#ifndef IBPART_SUGGEST_H
#define IBPART_SUGGEST_H

#include <stddef.h>

#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* The candidate closest to word when it is a likely typo of it (at most
 * 2 edits, 3 for words over 4 letters; an edit inserts, deletes or
 * changes one letter or swaps two neighbours), the first of the closest;
 * NULL when none is that close.  Returns one of cands (borrowed). */
const char *ibp_suggest(const char *word, const char *const *cands, size_t n);

IBP_END_DECLS
#endif
