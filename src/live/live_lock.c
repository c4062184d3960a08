/*
 * live_lock.c - one fabric-changing operation at a time per local port
 * (ibp_live_lock_acquire, live.h).  Two `apply` runs from one host, or
 * `apply` and the partition service, would otherwise interleave their
 * SubnSets and their state files: each would save the other's half-done
 * tables as "what was there".  The lock is an flock(2) on a file named
 * after the CA and port, so it is released by the kernel when the
 * holder dies, however it dies; the file holds the holder's pid for the
 * message the next one prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ibpart/live.h"
#include "live/live_lib.h"
#include "ibpart/sys/live.h"

struct ibp_live_lock {
	int fd;
	char path[4096];
};

/* The lock directory: dir, else /run/lock/ibpart for root, else
 * $XDG_RUNTIME_DIR/ibpart, else /tmp/ibpart-<uid>. */
static void lock_dir(const char *dir, char *out, size_t len)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	if (dir && *dir)
		snprintf(out, len, "%s", dir);
	else if (geteuid() == 0)
		snprintf(out, len, "/run/lock/ibpart");
	else if (rt && rt[0] == '/')
		snprintf(out, len, "%s/ibpart", rt);
	else
		snprintf(out, len, "/tmp/ibpart-%ld", (long)geteuid());
}

/* The pid the lock file names, 0 when none. */
static long holder(int fd)
{
	char buf[32] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	return n > 0 ? strtol(buf, NULL, 10) : 0;
}

int ibp_live_lock_acquire(const ibp_live *l, const char *dir, int wait_ms,
			  ibp_live_lock **out, ibp_error *err)
{
	*out = NULL;
	ibp_live_lock *k = calloc(1, sizeof(*k));
	if (!k)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	char d[4000];
	lock_dir(dir, d, sizeof(d));
	if (mkdir(d, 0755) && errno != EEXIST) {
		int e = errno;
		free(k);
		return ibp_error_set(err, IBP_EIO,
				     "cannot make the lock directory %s: %s", d,
				     strerror(e));
	}
	const char *ca = ibp_live_local_ca(l);
	snprintf(k->path, sizeof(k->path), "%s/ibpart-%s-%d.lock", d,
		 ca && *ca && !strchr(ca, '/') ? ca : "ca",
		 ibp_live_local_port(l));
	k->fd = open(k->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (k->fd < 0) {
		int e = errno;
		free(k);
		return ibp_error_set(err, IBP_EIO,
				     "cannot open the lock %s: %s", d,
				     strerror(e));
	}
	struct timespec nap = {0, 20 * 1000 * 1000};
	for (long waited = 0; flock(k->fd, LOCK_EX | LOCK_NB); waited += 20) {
		if (errno == EWOULDBLOCK && waited < wait_ms) {
			if (!waited) /* said once, as the wait begins */
				ibp_live_progress(
				    l,
				    "waiting up to %d s for the lock held "
				    "by pid %ld",
				    (wait_ms + 999) / 1000, holder(k->fd));
			nanosleep(&nap, NULL);
			continue;
		}
		int rc =
		    errno == EWOULDBLOCK
			? ibp_error_set(
			      err, IBP_EBUSY,
			      "another ibpart (pid %ld) is changing the "
			      "fabric from %s port %d (lock %s)%s",
			      holder(k->fd), ca ? ca : "?",
			      ibp_live_local_port(l), k->path,
			      wait_ms ? "" : "; --lock-wait S waits for it")
			: ibp_error_set(err, IBP_EIO, "cannot lock %s: %s",
					k->path, strerror(errno));
		close(k->fd);
		free(k);
		return rc;
	}
	char pid[32];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(k->fd, 0) == 0 && pwrite(k->fd, pid, (size_t)n, 0) < 0)
		(void)0; /* the pid is for the message only */
	*out = k;
	return IBP_OK;
}

void ibp_live_lock_release(ibp_live_lock *k)
{
	if (!k)
		return;
	if (ftruncate(k->fd, 0))
		(void)0;
	close(k->fd); /* drops the flock */
	free(k);
}
