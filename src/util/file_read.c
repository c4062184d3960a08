/*
 * file_read.c - read a whole file into a NUL-terminated buffer (see
 * file_read.h): a regular file in one read(2) into a buffer of its size
 * (refused unread when over the limit), a stream in a loop that doubles
 * the buffer; restarting on EINTR, keeping errno for the caller's
 * message.  A large regular file can instead be mapped (ibp_file_map).
 * And the parser of a limit as a person writes it (limits.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_read.h"
#include "ibpart/error.h"
#include "ibpart/limits.h"
#include "ibpart/sys/limits.h"
#include "util/error_lib.h"

int ibp_file_read_all(const char *path, size_t max, char **text, size_t *len,
		      ibp_error *err)
{
	*text = NULL;
	*len = 0;
	if (!max)
		max = IBP_INPUT_MAX_DEFAULT;
	/* "-" is the standard input (a pipe, a redirected file) */
	bool is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
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
		if (!is_stdin)
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
	if (!is_stdin)
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

int ibp_file_map(const char *path, size_t max, struct ibp_file_text *out,
		 ibp_error *err)
{
	*out = (struct ibp_file_text){0};
	if (!max)
		max = IBP_INPUT_MAX_DEFAULT;
	if (!strcmp(path, "-")) /* the standard input: read, never mapped */
		return ibp_file_read_all(path, max, &out->text, &out->len, err);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (uintmax_t)st.st_size < IBP_FILE_MAP_MIN ||
	    (uintmax_t)st.st_size > max || (uintmax_t)st.st_size >= SIZE_MAX) {
		/* a stream, a small file, one over the limit or one that
		 * cannot be opened: the reader says it */
		if (fd >= 0)
			close(fd);
		return ibp_file_read_all(path, max, &out->text, &out->len, err);
	}
	size_t len = (size_t)st.st_size;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t whole = (len + 1 + page - 1) / page * page;
	/* an anonymous (zero) page after the file's pages: text[len] is a
	 * NUL also when the size is a multiple of the page size */
	char *base =
	    mmap(NULL, whole, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base != MAP_FAILED &&
	    mmap(base, len, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE,
		 fd, 0) == MAP_FAILED) {
		munmap(base, whole);
		base = MAP_FAILED;
	}
	close(fd);
	if (base == MAP_FAILED)
		return ibp_file_read_all(path, max, &out->text, &out->len, err);
	out->text = base;
	out->len = len;
	out->mapped = whole;
	return IBP_OK;
}

void ibp_file_text_release(const char *text, size_t from, size_t to)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uintptr_t a =
	    ((uintptr_t)text + from + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t b = ((uintptr_t)text + to) & ~(uintptr_t)(page - 1);
	if (b > a)
		(void)madvise((void *)a, b - a, MADV_DONTNEED);
}

void ibp_file_text_free(struct ibp_file_text *t)
{
	if (t->text && t->mapped)
		munmap(t->text, t->mapped);
	else
		free(t->text);
	*t = (struct ibp_file_text){0};
}

bool ibp_input_size_parse(const char *s, size_t *out)
{
	if (!s || *s < '0' || *s > '9') /* a digit first: no blank, sign */
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || end == s)
		return false;
	unsigned shift = 0;
	if (*end == 'k' || *end == 'K')
		shift = 10;
	else if (*end == 'm' || *end == 'M')
		shift = 20;
	else if (*end == 'g' || *end == 'G')
		shift = 30;
	if (shift)
		end++;
	if (*end || v > (SIZE_MAX >> shift))
		return false;
	*out = (size_t)(v << shift);
	return true;
}
