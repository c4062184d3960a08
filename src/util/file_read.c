/*
 * file_read.c - read a whole file into a NUL-terminated buffer (see
 * file_read.h): a regular file in one read(2) into a buffer of its size
 * (refused unread when over the limit), a stream in a loop that doubles
 * the buffer; restarting on EINTR, keeping errno for the caller's
 * message.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_read.h"
#include "ibpart/error.h"

int ibp_file_read_all(const char *path, size_t max, char **text, size_t *len,
		      ibp_error *err)
{
	*text = NULL;
	*len = 0;
	if (!max)
		max = IBP_INPUT_MAX_DEFAULT;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		ibp_error_set_at(err, IBP_EIO, path, 0, 0, "cannot open: %s",
				 strerror(e));
		errno = e;
		return IBP_EIO;
	}
	/* read at most max + 1 bytes (one past the limit tells a file of
	 * exactly max bytes from a longer one), never wrapping */
	size_t lim = max == SIZE_MAX ? max : max + 1;
	size_t cap = lim < 65536 ? lim : 65536, n = 0;
	/* a regular file: its size says the buffer (one read, no copies;
	 * a file that grows meanwhile still goes through the loop), and
	 * one larger than the limit is refused unread */
	struct stat st;
	bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (regular && (uintmax_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return ibp_error_set_at(err, IBP_ERANGE, path, 0, 0,
					"larger than the input limit of %zu "
					"bytes",
					max);
	}
	if (regular && (size_t)st.st_size + 1 > cap)
		cap =
		    (size_t)st.st_size + 1 < lim ? (size_t)st.st_size + 1 : lim;
	char *buf = malloc(cap + 1);
	int rc = buf ? IBP_OK : IBP_ENOMEM;
	while (rc == IBP_OK) {
		if (n > max) {
			rc = IBP_ERANGE;
			break;
		}
		if (n == cap) {
			/* grow to at most max + 1: one byte past the limit
			 * tells a file of exactly max bytes from a longer one
			 */
			size_t ncap = cap > lim / 2 ? lim : cap * 2;
			char *p = realloc(buf, ncap + 1);
			if (!p) {
				rc = IBP_ENOMEM;
				break;
			}
			buf = p;
			cap = ncap;
		}
		ssize_t k = read(fd, buf + n, cap - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			rc = IBP_EIO;
		else if (k == 0)
			break;
		else
			n += (size_t)k;
	}
	int e = rc == IBP_ENOMEM ? ENOMEM : rc == IBP_ERANGE ? EFBIG : errno;
	close(fd);
	if (rc != IBP_OK) {
		free(buf);
		if (rc == IBP_ERANGE)
			ibp_error_set_at(err, IBP_ERANGE, path, 0, 0,
					 "larger than the input limit of %zu "
					 "bytes",
					 max);
		else if (rc == IBP_ENOMEM)
			ibp_error_set(err, IBP_ENOMEM, "out of memory");
		else
			ibp_error_set_at(err, IBP_EIO, path, 0, 0,
					 "cannot read: %s", strerror(e));
		errno = e;
		return rc;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return IBP_OK;
}
