/*
 * huge_pages.c - large arrays in transparent huge pages (huge_pages.h).
 *
 * The first touch of each 4 KiB page of a fresh array is a page fault,
 * and on a virtual machine a fault is dear: the topology reader's arrays
 * at 48,000 ports (tens of MB: the port lines as read, the fabric's port
 * slots) cost it more in faults than in reading.  With MADV_HUGEPAGE the
 * kernel fills 2 MiB at a time.  Only the 2 MiB-aligned interior of the
 * block is advised: malloc's large blocks are mappings of their own, so
 * the advice never reaches another allocation's memory.  Where THP is
 * "never", or madvise fails, nothing changes but the speed.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "util/huge_pages.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

void ibp_huge_pages(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t e = ((uintptr_t)p + len) & ~(HUGE_PAGE - 1);
	if (p && e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}
