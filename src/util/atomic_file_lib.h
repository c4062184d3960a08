/*
 * atomic_file_lib.h - the library's own half of ibpart/sys/atomic_file.h: what
 * other modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/sys/atomic_file.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_UTIL_ATOMIC_FILE_LIB_H
#define IBPART_UTIL_ATOMIC_FILE_LIB_H

#include "ibpart/sys/atomic_file.h"

/* Start writing path: *out is the handle and *fp the stream to write to;
 * the stream belongs to the handle (do not fclose it), and the handle is
 * freed by exactly one of commit or discard.  IBP_EIO when the temporary
 * file (or the device) cannot be opened, IBP_ENOMEM; on error *out and
 * *fp are NULL and nothing is left behind. */
int ibp_atomic_file_open(const char *path, ibp_atomic_file **out, FILE **fp,
			 ibp_error *err);

/* Finish: flush, fsync, and put the file in place; with keep_backup an
 * existing regular target is first copied to "<target>.bak".  On error
 * the target is untouched (for a regular file) and everything is freed;
 * a is freed in every case.  IBP_EIO when writing, fsync, the backup or
 * the rename fails (err names the target), IBP_ENOMEM. */
int ibp_atomic_file_commit(ibp_atomic_file *a, bool keep_backup,
			   ibp_error *err);

/* Give up: the stream is closed, the temporary file removed, the target
 * untouched (a device written in place keeps what was written) and a
 * freed.  NULL is allowed. */
void ibp_atomic_file_discard(ibp_atomic_file *a);

/* The whole of data[0..len) to path, atomically, as above (open, write,
 * commit).  IBP_EIO or IBP_ENOMEM as those; the target is untouched on
 * error. */
int ibp_write_file_atomic(const char *path, const void *data, size_t len,
			  bool keep_backup, ibp_error *err);

#endif
