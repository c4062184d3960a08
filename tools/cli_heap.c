/*
 * cli_heap.c - the CLI's heap, set for a command that reads a fabric,
 * computes, writes and exits.
 *
 * At 48,000 ports a command touches some 60 MB: the topology reader's
 * port lines, the fabric, the P_KeyTables, the output.  By default glibc
 * gives every block over 128 KiB a mapping of its own and returns it to
 * the kernel when freed, and the heap's memory is faulted in 4 KiB at a
 * time: the command paid some 16,000 page faults, dear on a virtual
 * machine (a quarter of `tables --format json`'s CPU time at that size).
 * Here large blocks come from the heap too (up to glibc's 32 MiB
 * ceiling), freed memory stays for the next allocation instead of being
 * trimmed (the reader's temporaries become the policy's tables without
 * a fault), the heap grows in steps of 256 MiB of address space (only
 * what is touched becomes resident) and that first step is advised to
 * be backed by transparent huge pages (MADV_HUGEPAGE: 2 MiB a fault).
 * Where THP is "never", under a sanitizer's allocator or when any call
 * fails, nothing changes but the speed.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

void cli_heap_setup(void)
{
	if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) ||
	    !mallopt(M_TRIM_THRESHOLD, 1 << 30) ||
	    !mallopt(M_TOP_PAD, 256 << 20))
		return;
	/* a block from the heap makes it grow by the pad: advise that */
	void *p = malloc(256 << 10);
	void *brk = sbrk(0);
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t e = (uintptr_t)brk & ~(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
	if (p && brk != (void *)-1 && e > a && e - a <= ((uintptr_t)1 << 30))
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#endif
	free(p);
}
