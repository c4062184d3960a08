/*
 * live_mkey.c - the M_Key from a file (see ibp_mkey_file_read in
 * include/ibpart/live.h).  A key given on a command line is visible to
 * every user through ps and /proc; a file only its owner can read is not,
 * and the service (ibpartd --mkey-file) reads the same file the CLI does.
 * The key itself never goes into a message.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ibpart/live.h"
#include "ibpart/sys/live.h"

int ibp_mkey_parse(const char *s, uint64_t *mkey)
{
	if (!s || *s < '0' || *s > '9') /* no blank, no sign */
		return IBP_EINVAL;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return IBP_EINVAL;
	*mkey = v;
	return IBP_OK;
}

int ibp_mkey_file_read(const char *path, uint64_t *mkey, ibp_error *err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	FILE *fp = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!fp || fstat(fd, &st)) {
		int e = errno;
		if (fp)
			fclose(fp);
		else if (fd >= 0)
			close(fd);
		return ibp_error_set(err, IBP_EINVAL,
				     "cannot read the M_Key file %s: %s", path,
				     strerror(e));
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		fclose(fp);
		return ibp_error_set(err, IBP_EINVAL,
				     "the M_Key file %s is readable by others "
				     "(chmod 600 it)",
				     path);
	}
	/* the whole file, bounded: one key and comments fit in 4 KiB */
	char text[4097], word[64] = "";
	size_t len = fread(text, 1, sizeof(text), fp), words = 0;
	fclose(fp);
	if (len == sizeof(text) || memchr(text, 0, len))
		return ibp_error_set(
		    err, IBP_EINVAL, "the M_Key file %s is not a key file (%s)",
		    path,
		    len == sizeof(text) ? "over 4096 bytes" : "a NUL byte");
	text[len] = 0;
	for (size_t i = 0; i < len;) {
		if (text[i] == '#') { /* to the end of the line */
			while (i < len && text[i] != '\n')
				i++;
		} else if (strchr(" \t\r\n\v\f", text[i])) {
			i++;
		} else {
			size_t n = strcspn(text + i, " \t\r\n\v\f#");
			if (!words++ && n < sizeof(word))
				memcpy(word, text + i, n);
			i += n;
		}
	}
	/* a second word (another key?) is a mistake, not something to skip */
	if (words > 1)
		return ibp_error_set(err, IBP_EINVAL,
				     "the M_Key file %s holds %zu words; one "
				     "M_Key expected",
				     path, words);
	if (!word[0] || ibp_mkey_parse(word, mkey))
		return ibp_error_set(err, IBP_EINVAL,
				     "the M_Key file %s holds no number", path);
	return IBP_OK;
}
