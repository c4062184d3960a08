/*
 * sys/live.h - a live session over a transport the caller made
 * (sys/transport.h): the simulator's, or another; and what only ibpart's
 * front ends need around a session: an M_Key read from an argument or a
 * key file, `ibpart discover`'s files, and the host's lock on the local
 * port that `ibpart apply` and ibpartd take while they change the fabric.
 *
 * Unstable API (include/ibpart/sys/): the unstable half of
 * ibpart/live.h, exported for ibpart's own front ends (the exact text
 * they print, the simulator and transport entries, their inputs and
 * files), and free to change in any release.  A program outside ibpart
 * uses ibpart/live.h.
 */
#ifndef IBPART_SYS_LIVE_H
#define IBPART_SYS_LIVE_H

#include <stdio.h>

#include "ibpart/live.h"
#include "ibpart/sys/transport.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* A session over a transport the caller made (transport_sim's built-in
 * fabric, or another): borrowed, it must outlive the session, which
 * never closes it.  local_port_guid is the port the SMPs leave from
 * (the SM's port when ibpart is the SM); o->ca only names it in
 * progress lines. */
int ibp_live_open_transport(const struct ibp_live_options *o, ibp_transport *t,
			    uint64_t local_port_guid, ibp_live **out,
			    ibp_error *err);

/* The session's SM (sys/sm.h): what verify, apply and the monitor
 * drive, and what ibpartd's collector keeps a discovery from. */
struct ibp_sm *ibp_live_sm(ibp_live *l);
struct ibp_sm_discovery;
/* Instead of ibp_live_discover: the session takes a discovery kept from
 * an earlier session on the same port (ibp_sm_discovery_take on its
 * ibp_live_sm(), sm.h; d consumed) and sends no SMP for it.  Whoever
 * keeps it must know nothing changed since (the SM's sweep counters);
 * reads along its routes that fail say it did. */
void ibp_live_discover_reuse(ibp_live *l, struct ibp_sm_discovery *d);
/* The fabric's alias GUIDs as ibpartd learns them at start and at each
 * sweep, after ibp_live_discover and ibp_live_find_sm: every port's
 * GUIDInfo read over SMPs and, when a master SM runs, its SA's
 * GUIDInfoRecords (ibp_sm_read_alias_guids_sa, sm.h), then the alias
 * map `file` (may be NULL: `--alias-guids FILE`) merged in: an alias the
 * fabric places on another port or index than the file keeps the
 * fabric's place (what the ports and the SM hold now wins over what was
 * written down), and counts as a conflict.  The map is written to
 * out_path (atomic; alias_map.h's format) only when its text differs
 * from the file there: *changed (may be NULL) says so.  *count (may be
 * NULL): the aliases in it.  summary (may be NULL): one line saying
 * where they came from.  Errors as for discovery (the SA not answering
 * is none: the SMPs' alone), the file's reader's (IBP_EPARSE, IBP_EIO),
 * IBP_EIO when out_path cannot be written; out_path is then untouched. */
int ibp_live_learn_alias_guids(ibp_live *l, const char *file,
			       const char *out_path, bool *changed,
			       size_t *count, char *summary,
			       size_t summary_size, ibp_error *err);

/* The pid in an OpenSM pid file (or any pid file): what ibpartd's
 * applier signals.  IBP_EINVAL when it does not hold a positive number,
 * IBP_EIO when it cannot be read. */
int ibp_read_pidfile(const char *path, pid_t *out, ibp_error *err);
/* OpenSM's log (--opensm-log) read on from *offset: each line written
 * since is handed to fn (NUL-terminated, its newline included, valid
 * during the call only), in order; returns how many.  Whole lines only:
 * *offset moves past the last line ended by a newline, so a line still
 * being written is handed on once it is finished.  -1 when the file
 * cannot be read, or is shorter than *offset - rotated or truncated:
 * *offset is then 0, the next call reads it from its start.  The one
 * reader of the log: ibp_opensm_reload's wait (apply.h), ibpartd's
 * collector (SUBNET UP) and its SM-state watch (Entering MASTER state).
 */
long ibp_log_read_lines(const char *path, long *offset,
			void (*fn)(void *ctx, const char *line, size_t len),
			void *ctx);
/* The same, counting the lines that contain needle ("SUBNET UP"). */
long ibp_log_count_lines(const char *path, const char *needle, long *offset);

/* ------------------------------------------------ the front ends' inputs */

/* Read the state file at path (what `apply --state` saved, docs/live.md)
 * into tables over f (`ibpart verify --previous`), reading at most
 * max_input_size bytes (0: the default of limits.h,
 * IBP_SMALL_INPUT_MAX_DEFAULT); a longer file, or an endless stream, is
 * IBP_ERANGE. */
int ibp_state_load_limit(const ibp_fabric *f, const char *path,
			 size_t max_input_size, bool skip_missing,
			 ibp_tables **out, ibp_error *err);

/* An M_Key written as a number, decimal or 0x hex, 0..2^64-1: IBP_OK and
 * *mkey, or IBP_EINVAL (*mkey untouched).  Pure, safe from any thread. */
int ibp_mkey_parse(const char *s, uint64_t *mkey);
/* The M_Key in the file at path, so it need not be on a command line
 * where ps shows it: its one word outside '#' comments, as
 * ibp_mkey_parse() reads it (a second word, a NUL byte or over 4096
 * bytes is refused: not a key file).  The file must not be readable or
 * writable by group or others.  IBP_OK and *mkey, or
 * IBP_EINVAL with err saying why (never the key).  Reads only path; safe
 * from any thread. */
int ibp_mkey_file_read(const char *path, uint64_t *mkey, ibp_error *err);

/* What `ibpart discover` writes, after ibp_live_discover: every port's
 * alias GUIDs read (ibp_sm_read_alias_guids_sa, sm.h: the ports'
 * GUIDInfo, and the SA's GUIDInfoRecords when a master SM runs), then the
 * discovered topology to topo_path (NULL: stdout; findings - the
 * discovery's nodes left out for a GUID of 0 (ibp_sm_discovery_findings),
 * replaced descriptions - to diags, may be NULL) and the alias map
 * (alias_map.h) to
 * alias_path, or when that is NULL to topo_path + ".aliases" (none when
 * both are NULL).  Each file atomic; nothing written when the aliases
 * cannot be read.  On success a one-line summary (nodes, aliases and
 * those another port held first, SMPs, time) to summary (NULL: none).
 * Errors as for discovery, IBP_EIO for a file. */
int ibp_live_write_discovery(ibp_live *l, const char *topo_path,
			     const char *alias_path, ibp_diags *diags,
			     FILE *summary, ibp_error *err);

/* ------------------------------------------------ one change at a time */

/* The host's lock on the local port a session opened, held while an
 * operation changes the fabric from it (apply --direct, --rollback,
 * --via-opensm; the partition service takes the same), so two of them
 * cannot interleave their SubnSets or save each other's half-done tables
 * as "what was there".  An flock(2) on DIR/ibpart-<CA>-<port>.lock (dir;
 * NULL: /run/lock/ibpart for root, else $XDG_RUNTIME_DIR/ibpart, else
 * /tmp/ibpart-<uid>), released by the kernel however the holder ends;
 * the file names the holder's pid.  wait_ms: how long to wait for a
 * holder to finish (0: not at all).  IBP_OK and *out (release with
 * ibp_live_lock_release); IBP_EBUSY when another process holds it (err
 * names its pid and says how to wait); IBP_EIO when the lock file cannot
 * be made; IBP_ENOMEM. */
typedef struct ibp_live_lock ibp_live_lock;
/* Take it (see above). */
int ibp_live_lock_acquire(const ibp_live *l, const char *dir, int wait_ms,
			  ibp_live_lock **out, ibp_error *err);
/* Release the lock (NULL allowed). */
void ibp_live_lock_release(ibp_live_lock *k);

IBP_END_DECLS
#endif
