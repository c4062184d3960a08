/*
 * live_state_dir.c - where `apply` keeps the state file nobody named
 * (ibp_state_default_path, live.h).  A rollback needs what the ports
 * held before, so apply always saves it; the default used to be
 * ibpart-state-<unix time>.json in the working directory, which two runs
 * in the same second overwrote and which landed wherever the operator
 * happened to stand.  Now: one directory per user (the system's for
 * root, XDG's otherwise), private (0700), and a name no file there has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ibpart/live.h"
#include "live/live_lib.h"

/* mkdir -p path with mode for the parts it creates. */
static int make_dirs(char *path, mode_t mode)
{
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p)
			continue;
		char c = *p;
		*p = 0;
		int rc = mkdir(path, mode);
		*p = c;
		if (rc && errno != EEXIST)
			return -1;
		if (!c)
			return 0;
	}
}

int ibp_state_default_path(const char *dir, char *buf, size_t len,
			   ibp_error *err)
{
	char d[4096];
	const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (dir && *dir)
		snprintf(d, sizeof(d), "%s", dir);
	else if (geteuid() == 0)
		snprintf(d, sizeof(d), "/var/lib/ibpart");
	else if (xdg && xdg[0] == '/')
		snprintf(d, sizeof(d), "%s/ibpart", xdg);
	else if (home && home[0] == '/')
		snprintf(d, sizeof(d), "%s/.local/state/ibpart", home);
	else
		return ibp_error_set(err, IBP_EINVAL,
				     "no state directory: HOME is not set");
	struct stat st;
	if (make_dirs(d, 0700) || stat(d, &st) || !S_ISDIR(st.st_mode))
		return ibp_error_set(err, IBP_EIO,
				     "cannot make the state directory %s: %s",
				     d, strerror(errno ? errno : ENOTDIR));
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", gmtime_r(&now, &tm));
	for (unsigned n = 1; n < 1000; n++) {
		char sfx[16] = "";
		if (n > 1)
			snprintf(sfx, sizeof(sfx), "-%u", n);
		int w = snprintf(buf, len, "%s/ibpart-state-%s-%ld%s.json", d,
				 stamp, (long)getpid(), sfx);
		if (w < 0 || (size_t)w >= len)
			return ibp_error_set(err, IBP_ERANGE,
					     "state directory path too long");
		if (lstat(buf, &st) && errno == ENOENT)
			return IBP_OK;
	}
	return ibp_error_set(err, IBP_EIO, "no free state file name in %s", d);
}
