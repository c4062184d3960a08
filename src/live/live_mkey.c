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
	char line[256], word[64] = "";
	while (!word[0] && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "#")] = 0;
		if (sscanf(line, "%63s", word) != 1)
			word[0] = 0;
	}
	fclose(fp);
	if (!word[0] || ibp_mkey_parse(word, mkey))
		return ibp_error_set(err, IBP_EINVAL,
				     "the M_Key file %s holds no number", path);
	return IBP_OK;
}
