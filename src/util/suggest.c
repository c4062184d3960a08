/*
 * suggest.c - "did you mean": the candidate closest to a mistyped word
 * (see include/ibpart/sys/suggest.h), for the CLI's commands and options, the
 * fabric's node names, and the service's field names.  Damerau-
 * Levenshtein distance (insert, delete, substitute, swap two letters),
 * capped so that a long list of long names stays cheap.
 */
#include <string.h>

#include "ibpart/sys/suggest.h"

/* Edit distance of a and b (insert, delete, substitute, swap), capped:
 * anything over 3 is 4. */
static unsigned distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64 || (la > lb ? la - lb : lb - la) > 3)
		return 4;
	unsigned d[66][66];
	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			if (!i || !j) {
				d[i][j] = (unsigned)(i + j);
				continue;
			}
			unsigned c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < c)
				c = d[i - 2][j - 2] + 1;
			d[i][j] = c;
		}
	return d[la][lb] > 3 ? 4 : d[la][lb];
}

const char *ibp_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	unsigned bd = strlen(word) > 4 ? 3 : 2; /* at most this far */
	for (size_t k = 0; k < n; k++) {
		unsigned d = distance(word, cands[k]);
		if (d < bd || (d == bd && !best)) {
			best = d <= bd ? cands[k] : best;
			bd = d;
		}
	}
	return best;
}
