/*
 * stop_at_push.c - an LD_PRELOAD shim for the interop tests: a process
 * that loads it, with IBP_STOP_AT_PUSH=1 in its environment, stops itself
 * (SIGSTOP) just before it sends its first SubnSet(P_KeyTable) SMP - at
 * the first port of a push, once.  A test can then act while an apply is
 * provably mid-push (holding the apply lock, no port yet changed, every
 * other port still to come) instead of racing a push that, on ibsim,
 * ends a few milliseconds after its "pushing" line.  Not part of ibpart:
 * built only with the tests.
 *
 * The SMP is recognised in the MAD that follows libibumad's header: the
 * method (byte 3, 0x02 = Set) and the attribute ID (bytes 16-17,
 * 0x0016 = P_KeyTable), IBA vol. 1 13.4.2 and 14.2.5.
 */
#include <dlfcn.h>
#include <infiniband/umad.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef int (*send_fn)(int, int, void *, int, int, int);

int umad_send(int fd, int agentid, void *umad, int length, int timeout_ms,
	      int retries)
{
	static send_fn next;
	static int stopped;
	if (!next)
		next = (send_fn)dlsym(RTLD_NEXT, "umad_send");
	const char *want = getenv("IBP_STOP_AT_PUSH");
	if (!stopped && want && !strcmp(want, "1")) {
		const unsigned char *mad =
		    (const unsigned char *)umad + sizeof(struct ib_user_mad);
		if (mad[3] == 0x02 && mad[16] == 0x00 && mad[17] == 0x16) {
			stopped = 1;
			raise(SIGSTOP);
		}
	}
	return next(fd, agentid, umad, length, timeout_ms, retries);
}
