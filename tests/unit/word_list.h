/*
 * word_list.h - for the unit tests: the k-th word of an option's word
 * list ("a|b|c", args.h IBP_ARG_WORD/IBP_ARG_INDEX), so a test can hold
 * a library's *_WORDS constant to the parser of the same names.
 */
#ifndef IBPART_TEST_WORD_LIST_H
#define IBPART_TEST_WORD_LIST_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The k-th word of words into buf; false past the last. */
static inline bool nth_word(const char *words, int k, char *buf, size_t size)
{
	for (; k > 0 && words; k--)
		words = strchr(words, '|') ? strchr(words, '|') + 1 : NULL;
	if (!words)
		return false;
	size_t n = strcspn(words, "|");
	snprintf(buf, size, "%.*s", (int)n, words);
	return n < size;
}

#endif
