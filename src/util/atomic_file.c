/*
 * atomic_file.c - whole-or-nothing output files (see
 * include/ibpart/sys/atomic_file.h): an unnamed file (O_TMPFILE) in the
 * real target's directory (symbolic links followed), fsync, the old
 * file's mode and owner, a name given only once it is whole (linkat),
 * rename, fsync of the directory; devices and FIFOs written in place.
 *
 * The file has no name while it is written, so a run killed then (^C,
 * SIGTERM, even SIGKILL, a crash) leaves nothing behind: a named
 * temporary (mkstemp) was left half-written by every signal.  Between
 * the linkat and the rename, a few system calls, SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT are held.  Where O_TMPFILE or /proc is missing
 * (some file systems, no procfs) a named temporary is the fallback.
 *
 * Links are followed so that /etc/opensm/partitions.conf -> a managed
 * copy stays a link - but not where that lets another user aim root's
 * write: a link in a world-writable sticky directory (/tmp) whose owner
 * is neither the directory's owner nor us is refused, the rule the
 * kernel's fs.protected_symlinks applies to opening it; so is such a
 * link met as a directory on the way (/tmp/d/x.conf with /tmp/d a link).
 * The .bak is
 * a second name of the old file (link(2) after removing the old .bak),
 * so keeping it costs no copy however big the file: the rename then
 * only moves the target's name to the new file.  Where a hard link is
 * refused (file systems without them, fs.protected_hardlinks for a
 * file we do not own) the old contents are copied instead, into a file
 * created with O_NOFOLLOW | O_EXCL; either way a planted FILE.bak link
 * is replaced, never written through.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "util/error_lib.h"

struct ibp_atomic_file {
	FILE *fp;
	char *target; /* the file to replace (links followed) */
	char *tmp;    /* NULL when writing a device in place */
	bool unnamed; /* tmp is only a name pattern: the file is O_TMPFILE */
	mode_t mode;
	bool keep_owner; /* the file existed: give the new one its owner */
	uid_t uid;
	gid_t gid;
};

/* May a link at `link` (lstat'ed as lst) be followed?  Not in a sticky,
 * world-writable directory when it belongs to someone else than the
 * directory's owner and us (fs.protected_symlinks). */
static bool link_trusted(const char *link, const struct stat *lst)
{
	char *d = strdup(link);
	struct stat dst;
	bool ok = true;
	if (d && stat(dirname(d), &dst) == 0 && (dst.st_mode & S_ISVTX) &&
	    (dst.st_mode & S_IWOTH) && lst->st_uid != dst.st_uid &&
	    lst->st_uid != geteuid())
		ok = false;
	free(d);
	return ok;
}

/* Whether a directory on the way to path (a prefix ending before a
 * '/') is a link that link_trusted() refuses: the kernel's rule is for
 * every link a lookup follows, so root's `-o /tmp/d/x.conf` must not go
 * through a /tmp/d -> /etc/opensm another user planted. */
static bool dirs_untrusted(const char *path)
{
	char *p = strdup(path);
	bool bad = false;
	for (char *slash = p ? strchr(p + 1, '/') : NULL; slash && !bad;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		struct stat st;
		bad = lstat(p, &st) == 0 && S_ISLNK(st.st_mode) &&
		      !link_trusted(p, &st);
		*slash = '/';
	}
	free(p);
	return bad;
}

/* The file a path names once symbolic links are followed (the path
 * itself when it is not a link).  A dangling link resolves to where it
 * points, relative to the link's directory.  *untrusted: a link that
 * link_trusted() refuses was met (NULL is returned). */
static char *resolve(const char *path, bool *untrusted)
{
	char *cur = strdup(path);
	*untrusted = false;
	for (int depth = 0; cur && depth < 40; depth++) {
		struct stat st;
		if (dirs_untrusted(cur)) {
			*untrusted = true;
			free(cur);
			return NULL;
		}
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		if (!link_trusted(cur, &st)) {
			*untrusted = true;
			free(cur);
			return NULL;
		}
		char buf[PATH_MAX];
		ssize_t n = readlink(cur, buf, sizeof(buf) - 1);
		if (n < 0)
			return cur;
		buf[n] = '\0';
		char *next;
		if (buf[0] == '/') {
			next = strdup(buf);
		} else {
			char *d = strdup(cur);
			char *dir = d ? dirname(d) : NULL;
			next = dir && asprintf(&next, "%s/%s", dir, buf) >= 0
				   ? next
				   : NULL;
			free(d);
		}
		free(cur);
		cur = next;
	}
	return cur;
}

/* An unnamed file in target's directory, or -1 (no O_TMPFILE there, no
 * /proc to name it by later: the caller falls back to mkstemp). */
static int open_unnamed(const char *target)
{
#ifdef O_TMPFILE
	if (access("/proc/self/fd", X_OK))
		return -1;
	char *d = strdup(target);
	int fd =
	    d ? open(dirname(d), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600) : -1;
	free(d);
	return fd;
#else
	(void)target;
	return -1;
#endif
}

/* Give the unnamed file fd a fresh name from the pattern a->tmp
 * ("...XXXXXX", rewritten): 0, or -1 with errno. */
static int link_unnamed(ibp_atomic_file *a, int fd)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	size_t n = strlen(a->tmp);
	for (int tries = 0; tries < 100; tries++) {
		/* a name mkstemp found free, taken back for linkat (which
		 * never replaces: EEXIST if someone took it meanwhile) */
		memcpy(a->tmp + n - 6, "XXXXXX", 6);
		int t = mkstemp(a->tmp);
		if (t < 0)
			return -1;
		close(t);
		unlink(a->tmp);
		if (!linkat(AT_FDCWD, proc, AT_FDCWD, a->tmp,
			    AT_SYMLINK_FOLLOW))
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int ibp_atomic_file_open(const char *path, ibp_atomic_file **out, FILE **fp,
			 ibp_error *err)
{
	*out = NULL;
	*fp = NULL;
	ibp_atomic_file *a = calloc(1, sizeof(*a));
	bool untrusted = false;
	if (!a || !(a->target = resolve(path, &untrusted))) {
		free(a);
		if (untrusted)
			return ibp_error_set_at(
			    err, IBP_EIO, path, 0, 0,
			    "is or goes through a symbolic link another user "
			    "owns in a "
			    "world-writable sticky directory: not followed "
			    "(as fs.protected_symlinks); nothing written");
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	a->mode = 0644;
	struct stat st;
	if (stat(a->target, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			/* the caller named a directory where a file goes:
			 * their mistake (usage), not the system's */
			free(a->target);
			free(a);
			return ibp_error_set_at(err, IBP_EINVAL, path, 0, 0,
						"is a directory, not a file; "
						"nothing written");
		}
		if (!S_ISREG(st.st_mode)) {
			/* a device or FIFO: write it in place */
			a->fp = fopen(a->target, "w");
			if (!a->fp) {
				int e = errno;
				free(a->target);
				free(a);
				return ibp_error_set_at(err, IBP_EIO, path, 0,
							0, "cannot open: %s",
							strerror(e));
			}
			*out = a;
			*fp = a->fp;
			return IBP_OK;
		}
		a->mode = st.st_mode & 07777;
		a->uid = st.st_uid;
		a->gid = st.st_gid;
		a->keep_owner = true;
	}
	if (asprintf(&a->tmp, "%s.tmpXXXXXX", a->target) < 0) {
		free(a->target);
		free(a);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	int fd = open_unnamed(a->target);
	a->unnamed = fd >= 0;
	if (fd < 0)
		fd = mkstemp(a->tmp);
	if (fd < 0 || !(a->fp = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			if (!a->unnamed)
				unlink(a->tmp);
		}
		free(a->tmp);
		free(a->target);
		free(a);
		return ibp_error_set_at(err, IBP_EIO, path, 0, 0,
					"cannot create a temporary file "
					"next to it: %s",
					strerror(e));
	}
	*out = a;
	*fp = a->fp;
	return IBP_OK;
}

static void free_file(ibp_atomic_file *a)
{
	free(a->tmp);
	free(a->target);
	free(a);
}

void ibp_atomic_file_discard(ibp_atomic_file *a)
{
	if (!a)
		return;
	if (a->fp)
		fclose(a->fp);
	if (a->tmp && !a->unnamed)
		unlink(a->tmp);
	free_file(a);
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	/* the old backup goes, and a new one is made, never through a link
	 * someone planted as FILE.bak */
	if (unlink(to) && errno != ENOENT) {
		close(in);
		return -1;
	}
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		       mode);
	if (out < 0) {
		close(in);
		return -1;
	}
	char buf[8192];
	ssize_t r;
	int rc = 0;
	while (rc == 0 && (r = read(in, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno != EINTR)
				rc = -1;
			continue;
		}
		for (ssize_t off = 0; off < r && rc == 0;) {
			ssize_t w = write(out, buf + off, (size_t)(r - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				rc = -1;
			else
				off += w;
		}
	}
	if (fsync(out))
		rc = -1;
	close(in);
	if (close(out))
		rc = -1;
	return rc;
}

/* FILE.bak as a second name of the file about to be replaced; a copy
 * where the file system or the kernel's link rules refuse that.  The
 * directory's fsync after the rename makes the new name durable. */
static int keep_old(const char *target, const char *bak, mode_t mode)
{
	if (unlink(bak) && errno != ENOENT)
		return -1;
	if (link(target, bak) == 0)
		return 0;
	if (errno != EPERM && errno != EXDEV && errno != EMLINK &&
	    errno != ENOTSUP && errno != EOPNOTSUPP)
		return -1;
	return copy_file(target, bak, mode);
}

int ibp_atomic_file_commit(ibp_atomic_file *a, bool keep_backup, ibp_error *err)
{
	int rc = IBP_OK;
	if (!a->tmp) { /* in place */
		if (fflush(a->fp) || ferror(a->fp))
			rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
					      "cannot write: %s",
					      strerror(errno));
		if (fclose(a->fp) && rc == IBP_OK)
			rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
					      "cannot write: %s",
					      strerror(errno));
		a->fp = NULL;
		free_file(a);
		return rc;
	}
	/* the replaced file's owner, where we may give it (root may; a
	 * user's chown to another fails and the file stays theirs) */
	if (a->keep_owner && fchown(fileno(a->fp), a->uid, a->gid) &&
	    errno != EPERM)
		rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
				      "cannot keep the owner: %s",
				      strerror(errno));
	if (rc == IBP_OK &&
	    (fflush(a->fp) || ferror(a->fp) || fsync(fileno(a->fp)) ||
	     fchmod(fileno(a->fp), a->mode)))
		rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
				      "cannot write: %s", strerror(errno));
	/* an unnamed file is named by its descriptor, kept past fclose */
	int keep = a->unnamed ? dup(fileno(a->fp)) : -1;
	if (a->unnamed && keep < 0 && rc == IBP_OK)
		rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
				      "cannot write: %s", strerror(errno));
	if (fclose(a->fp) && rc == IBP_OK)
		rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
				      "cannot write: %s", strerror(errno));
	a->fp = NULL;
	struct stat st;
	if (rc == IBP_OK && keep_backup && stat(a->target, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		char *bak;
		if (asprintf(&bak, "%s.bak", a->target) < 0) {
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
		} else {
			if (keep_old(a->target, bak, st.st_mode & 07777))
				rc = ibp_error_set(err, IBP_EIO,
						   "cannot keep the old file "
						   "as %s: %s",
						   bak, strerror(errno));
			free(bak);
		}
	}
	/* named and renamed with the stopping signals held: a ^C now
	 * leaves neither a temporary nor half a file */
	sigset_t hold, old;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &hold, &old);
	if (rc == IBP_OK && a->unnamed) {
		if (link_unnamed(a, keep))
			rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
					      "cannot create a temporary "
					      "file next to it: %s",
					      strerror(errno));
		else
			a->unnamed = false;
	}
	if (keep >= 0)
		close(keep);
	if (rc == IBP_OK && rename(a->tmp, a->target))
		rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
				      "cannot rename into place: %s",
				      strerror(errno));
	if (rc != IBP_OK && !a->unnamed)
		unlink(a->tmp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == IBP_OK) {
		/* make the rename itself durable */
		char *d = strdup(a->target);
		int dfd =
		    d ? open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		      : -1;
		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
		free(d);
	}
	free_file(a);
	return rc;
}

int ibp_output_open(const char *path, ibp_atomic_file **out, FILE **fp,
		    ibp_error *err)
{
	if (path && strcmp(path, "-"))
		return ibp_atomic_file_open(path, out, fp, err);
	*out = NULL;
	*fp = stdout;
	return IBP_OK;
}

int ibp_output_close(ibp_atomic_file *a, bool ok, ibp_error *err)
{
	if (!a)
		return fflush(stdout) || ferror(stdout)
			   ? ibp_error_set(err, IBP_EIO,
					   "cannot write the output: %s",
					   strerror(errno))
			   : IBP_OK;
	if (ok)
		return ibp_atomic_file_commit(a, false, err);
	ibp_atomic_file_discard(a);
	return IBP_OK;
}

int ibp_write_file_atomic(const char *path, const void *data, size_t len,
			  bool keep_backup, ibp_error *err)
{
	ibp_atomic_file *a;
	FILE *fp;
	int rc = ibp_atomic_file_open(path, &a, &fp, err);
	if (rc)
		return rc;
	if (len && fwrite(data, 1, len, fp) != len) {
		int e = errno;
		ibp_atomic_file_discard(a);
		return ibp_error_set_at(err, IBP_EIO, path, 0, 0,
					"cannot write: %s", strerror(e));
	}
	return ibp_atomic_file_commit(a, keep_backup, err);
}
