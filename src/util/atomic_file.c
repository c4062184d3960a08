/*
 * atomic_file.c - whole-or-nothing output files (see
 * include/ibpart/atomic_file.h): mkstemp next to the real target
 * (symbolic links followed), fsync, the old file's mode, rename, fsync of
 * the directory; devices and FIFOs written in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ibpart/atomic_file.h"

struct ibp_atomic_file {
	FILE *fp;
	char *target; /* the file to replace (links followed) */
	char *tmp;    /* NULL when writing a device in place */
	mode_t mode;
};

/* The file a path names once symbolic links are followed (the path
 * itself when it is not a link).  A dangling link resolves to where it
 * points, relative to the link's directory. */
static char *resolve(const char *path)
{
	char *cur = strdup(path);
	for (int depth = 0; cur && depth < 40; depth++) {
		struct stat st;
		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
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

int ibp_atomic_file_open(const char *path, ibp_atomic_file **out, FILE **fp,
			 ibp_error *err)
{
	*out = NULL;
	*fp = NULL;
	ibp_atomic_file *a = calloc(1, sizeof(*a));
	if (!a || !(a->target = resolve(path))) {
		free(a);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	a->mode = 0644;
	struct stat st;
	if (stat(a->target, &st) == 0) {
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
	}
	if (asprintf(&a->tmp, "%s.tmpXXXXXX", a->target) < 0) {
		free(a->target);
		free(a);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	int fd = mkstemp(a->tmp);
	if (fd < 0 || !(a->fp = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
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
	if (a->tmp)
		unlink(a->tmp);
	free_file(a);
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
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
	if (fflush(a->fp) || ferror(a->fp) || fsync(fileno(a->fp)) ||
	    fchmod(fileno(a->fp), a->mode))
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
			if (copy_file(a->target, bak, st.st_mode & 07777))
				rc = ibp_error_set(err, IBP_EIO,
						   "cannot keep the old file "
						   "as %s: %s",
						   bak, strerror(errno));
			free(bak);
		}
	}
	if (rc == IBP_OK && rename(a->tmp, a->target))
		rc = ibp_error_set_at(err, IBP_EIO, a->target, 0, 0,
				      "cannot rename into place: %s",
				      strerror(errno));
	if (rc != IBP_OK) {
		unlink(a->tmp);
	} else {
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
