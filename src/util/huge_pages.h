/*
 * huge_pages.h - private to the library: a large array's memory asked of
 * the kernel in transparent huge pages (huge_pages.c).
 */
#ifndef IBPART_UTIL_HUGE_PAGES_H
#define IBPART_UTIL_HUGE_PAGES_H

#include <stddef.h>

/* Advise that the len bytes at p (from malloc or realloc) be backed by
 * huge pages where whole 2 MiB pages fit; nothing for a smaller block,
 * and nothing happens where the kernel does not offer them.  The bytes
 * are not touched. */
void ibp_huge_pages(void *p, size_t len);

#endif
