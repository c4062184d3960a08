/*
 * live_files.c - files and processes around a live apply (see
 * include/ibpart/live.h): the rollback state file (JSON through jansson),
 * OpenSM's pid file, SIGHUP, and waiting for OpenSM's log to show the re-read
 * took effect.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "ibpart/live.h"
#include "live/live_lib.h"
#include "util/file_read.h"
#include "util/json_text.h"
#include "ibpart/pkey.h"
#include "ibpart/state_file.h"
#include "pkey/state_file_lib.h"
#include "pkey/tables_lib.h"
#include "ibpart/sys/live.h"

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The rollback state is the one state file (state_file.h), without
 * OpenSM's memory: what the ports held and their enforcement bits. */
int ibp_state_save(const ibp_tables *ts, const char *path, ibp_error *err)
{
	ibp_state_file *s = ibp_state_file_new(ibp_tables_fabric(ts));
	ibp_tables *c = s ? ibp_tables_copy(ts) : NULL;
	if (!c) {
		ibp_state_file_free(s);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	ibp_state_file_set_tables(s, c);
	int rc = ibp_state_file_write(s, path, err);
	ibp_state_file_free(s);
	return rc;
}

int ibp_state_load(const ibp_fabric *f, const char *path, bool skip_missing,
		   ibp_tables **out, ibp_error *err)
{
	return ibp_state_load_limit(f, path, 0, skip_missing, out, err);
}

/* The tables of a state file read (or parsed, text non-NULL). */
static int load(const ibp_fabric *f, const char *path, const char *text,
		size_t len, size_t max_input_size, bool skip_missing,
		ibp_tables **out, ibp_error *err)
{
	*out = NULL;
	ibp_state_read_options o;
	ibp_state_read_options_init(&o);
	o.unknown_ports_fail = !skip_missing;
	o.max_input_size = max_input_size;
	ibp_state_file *s;
	int rc = text ? ibp_state_file_parse(f, path, text, len, &o, &s, err)
		      : ibp_state_file_read(f, path, &o, &s, err);
	if (rc)
		return rc;
	*out = ibp_state_file_take_tables(s);
	ibp_state_file_free(s);
	return *out ? IBP_OK : ibp_error_set(err, IBP_ENOMEM, "out of memory");
}

int ibp_state_load_limit(const ibp_fabric *f, const char *path,
			 size_t max_input_size, bool skip_missing,
			 ibp_tables **out, ibp_error *err)
{
	return load(f, path, NULL, 0, max_input_size, skip_missing, out, err);
}

int ibp_state_load_buffer(const ibp_fabric *f, const char *path,
			  const char *text, size_t len, bool skip_missing,
			  ibp_tables **out, ibp_error *err)
{
	return load(f, path ? path : "<buffer>", text ? text : "", len, 0,
		    skip_missing, out, err);
}

/* ------------------------------------------------------ OpenSM side */

int ibp_read_pidfile(const char *path, pid_t *out, ibp_error *err)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return ibp_error_set(err, IBP_EIO,
				     "cannot read pid file %s: %s", path,
				     strerror(errno));
	long v = 0;
	int n = fscanf(fp, "%ld", &v);
	fclose(fp);
	if (n != 1 || v <= 0)
		return ibp_error_set(err, IBP_EINVAL,
				     "pid file %s holds no process id", path);
	*out = (pid_t)v;
	return IBP_OK;
}

int ibp_signal_reread(pid_t pid, ibp_error *err)
{
	if (pid <= 0)
		return ibp_error_set(err, IBP_EINVAL, "bad pid %ld", (long)pid);
	if (kill(pid, SIGHUP) == 0)
		return IBP_OK;
	if (errno == ESRCH)
		return ibp_error_set(err, IBP_ENOENT, "no process %ld",
				     (long)pid);
	return ibp_error_set(err, IBP_EIO, "cannot signal process %ld: %s",
			     (long)pid, strerror(errno));
}

long ibp_file_size(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return 0;
	return (long)st.st_size;
}

long ibp_log_read_lines(const char *path, long *offset,
			void (*fn)(void *ctx, const char *line, size_t len),
			void *ctx)
{
	FILE *f = path && offset ? fopen(path, "r") : NULL;
	if (!f)
		return -1;
	long n = 0, end = -1;
	if (fseek(f, 0, SEEK_END) || (end = ftell(f)) < *offset) {
		*offset =
		    0; /* rotated or truncated: from its start next time */
		n = -1;
	} else if (fseek(f, *offset, SEEK_SET)) {
		n = -1;
	} else {
		char *line = NULL;
		size_t cap = 0;
		ssize_t len;
		while ((len = getline(&line, &cap, f)) > 0 &&
		       line[len - 1] == '\n') {
			*offset += (long)len;
			n++;
			if (fn)
				fn(ctx, line, (size_t)len);
		}
		free(line);
	}
	fclose(f);
	return n;
}

struct needle_count {
	const char *needle;
	size_t nlen;
	long n;
};

static void count_needle(void *ctx, const char *line, size_t len)
{
	struct needle_count *c = ctx;
	if (memmem(line, len, c->needle, c->nlen))
		c->n++;
}

long ibp_log_count_lines(const char *path, const char *needle, long *offset)
{
	if (!needle)
		return -1;
	struct needle_count c = {needle, strlen(needle), 0};
	return ibp_log_read_lines(path, offset, count_needle, &c) < 0 ? -1
								      : c.n;
}

int ibp_wait_log(const char *log_path, long offset, const char *needle,
		 int timeout_ms, long *found_ms, ibp_error *err)
{
	long long start = now_ms();
	long pos = offset;
	int rc = IBP_ETIMEDOUT;
	for (;;) {
		if (ibp_log_count_lines(log_path, needle, &pos) > 0) {
			rc = IBP_OK;
			break;
		}
		if (now_ms() - start >= timeout_ms)
			break;
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (found_ms)
		*found_ms = (long)(now_ms() - start);
	if (rc)
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "\"%s\" did not appear in %s within %d "
				     "ms",
				     needle, log_path, timeout_ms);
	return IBP_OK;
}
