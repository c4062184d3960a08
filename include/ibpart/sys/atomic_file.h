/*
 * atomic_file.h - output files that appear whole or not at all, the one
 * way every writer of ibpart creates a file (-o, --state, the topology
 * and partitions.conf writers, OpenSM's partition file in apply
 * --via-opensm).
 *
 * A temporary file in the target's directory is written, flushed and
 * fsynced, given the old file's permissions (0644 for a new one), and
 * renamed over the target; the directory is fsynced so the rename lasts.
 * The temporary has no name until it is whole (O_TMPFILE, then linkat;
 * a named mkstemp file where the file system or /proc lacks that), so a
 * process killed while writing leaves nothing behind; SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT are held (pthread_sigmask) for the few calls that
 * name and rename it.
 * A target that is a symbolic link is followed: the file it points to is
 * replaced and the link stays (OpenSM's /etc/opensm/partitions.conf is
 * often a link into a managed tree).  A target that exists and is not a
 * regular file (a device such as /dev/stdout, a FIFO) cannot be replaced
 * and is written in place instead, with no atomicity.
 *
 * Threads: no global state; an ibp_atomic_file is used by one thread.
 * Two writers of the same target at once each replace it whole; the last
 * rename wins.
 */
#ifndef IBPART_ATOMIC_FILE_H
#define IBPART_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_atomic_file ibp_atomic_file;

/* An output that is stdout when path is NULL or "-", else an atomic
 * file at path (a temporary file renamed over path on close: *out the
 * handle, NULL for stdout).  IBP_EIO when it cannot be created. */
int ibp_output_open(const char *path, ibp_atomic_file **out, FILE **fp,
		    ibp_error *err);
/* Finish an output of ibp_output_open: a file is committed (ok) or
 * discarded (!ok: IBP_OK, nothing left behind); stdout is flushed and
 * IBP_EIO when that or an earlier write failed. */
int ibp_output_close(ibp_atomic_file *a, bool ok, ibp_error *err);

IBP_END_DECLS
#endif
