/*
 * live_opensm.c - apply through a running OpenSM (see include/ibpart/
 * apply.h): the plan validated and written in OpenSM's canonical syntax,
 * installed atomically as its partition file, SIGHUP, and the wait for
 * OpenSM to take it.  A partition file ibpartd manages (its marker line,
 * conf/partitions_marker.h) is refused: its generated section is the
 * service's database.
 *
 * The wait has two witnesses: OpenSM's log saying SUBNET UP after the
 * offset it had before the signal, or - for a log OpenSM buffers (no -d 2,
 * force_log_flush FALSE), which says nothing in time - the fabric itself
 * holding the plan (every table read again once a second; index-only
 * differences do not count, OpenSM's index memory is its own).
 */
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibpart/apply.h"
#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "conf/partitions_marker.h"
#include "live/live_lib.h"
#include "util/options_version.h"
#include "conf/conf_lib.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/apply.h"

IBP_OPTIONS_LAYOUT(apply_opensm_options_layout, "apply via OpenSM options",
		   IBP_APPLY_OPENSM_OPTIONS_VERSION,
		   offsetof(struct ibp_apply_opensm_options, alias_guids_path),
		   sizeof(struct ibp_apply_opensm_options));
IBP_RESULT_LAYOUT(apply_opensm_result_layout, "struct ibp_apply_opensm_result",
		  IBP_APPLY_OPENSM_RESULT_VERSION,
		  sizeof(struct ibp_apply_opensm_result));

/* The library's defaults, a whole current struct. */
static void apply_opensm_options_defaults(struct ibp_apply_opensm_options *o)
{
	*o = (struct ibp_apply_opensm_options){0};
	o->version = IBP_APPLY_OPENSM_OPTIONS_VERSION;
	o->mode = "opensm";
	o->opensm_conf = "/etc/opensm/partitions.conf";
	o->opensm_log = "/var/log/opensm.log";
	o->wait_ms = 60000;
}

void ibp_apply_opensm_options_init(struct ibp_apply_opensm_options *o,
				   unsigned version)
{
	struct ibp_apply_opensm_options d;
	apply_opensm_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &apply_opensm_options_layout);
}

int ibp_apply_opensm_partition_file(struct ibp_apply_opensm_options *o,
				    const char *given, const ibp_osm_conf *osm,
				    const char *osm_path, ibp_error *err)
{
	ibp_error_clear(err);
	struct ibp_apply_opensm_options own; /* only checked: all version 1 */
	if (ibp_options_take(&own, o, &apply_opensm_options_layout, err))
		return IBP_EINVAL;
	if (given)
		o->opensm_conf = given;
	else if (osm && osm->partition_config_file[0])
		o->opensm_conf = osm->partition_config_file;
	else if (osm)
		/* the path last: a long one is what ibp_error cuts */
		return ibp_error_set(
		    err, IBP_EINVAL,
		    "give OpenSM's partition file with --opensm-partitions "
		    "(--opensm-conf is OpenSM's opensm.conf, and it names no "
		    "partition_config_file): %s",
		    osm_path ? osm_path : "opensm.conf");
	return IBP_OK;
}

void ibp_apply_opensm_result_clear(struct ibp_apply_opensm_result *r)
{
	struct ibp_apply_opensm_result full;
	if (ibp_result_take(&full, sizeof(full), r, &apply_opensm_result_layout,
			    NULL))
		return;
	free(full.text);
	ibp_result_give(r, NULL, &apply_opensm_result_layout);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)((t.tv_sec - t0->tv_sec) * 1000 +
		      (t.tv_nsec - t0->tv_nsec) / 1000000);
}

static bool fabric_holds(ibp_live *l, const ibp_tables *want)
{
	ibp_tables *now = NULL;
	ibp_drift *d = NULL;
	ibp_error e;
	bool held = ibp_live_read_tables(l, &now, &e) == IBP_OK &&
		    ibp_drift_compute(want, now, &d, &e) == IBP_OK &&
		    ibp_drift_count_sel(d, IBP_DRIFT_SEL_NO_INDEX, NULL) == 0;
	ibp_drift_free(d);
	ibp_tables_free(now);
	return held;
}

IBP_OPTIONS_LAYOUT(opensm_reload_options_layout, "OpenSM reload options",
		   IBP_OPENSM_RELOAD_OPTIONS_VERSION,
		   sizeof(struct ibp_opensm_reload_options));

/* The library's defaults, a whole current struct. */
static void opensm_reload_options_defaults(struct ibp_opensm_reload_options *o)
{
	*o = (struct ibp_opensm_reload_options){0};
	o->version = IBP_OPENSM_RELOAD_OPTIONS_VERSION;
	o->wait_ms = 60000;
}

void ibp_opensm_reload_options_init(struct ibp_opensm_reload_options *o,
				    unsigned version)
{
	struct ibp_opensm_reload_options d;
	opensm_reload_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &opensm_reload_options_layout);
}

/* One witness of OpenSM taking the file: its log within up to a second,
 * else the fabric holding want (l and want given); waits a fifth of a
 * second when there is neither a log nor tables. */
static ibp_opensm_seen witness(ibp_live *l,
			       const struct ibp_opensm_reload_options *o,
			       long off, long left)
{
	long waited = 0;
	ibp_error e;
	long slice = left < 1000 ? (left > 0 ? left : 0) : 1000;
	if (o->log) {
		if (ibp_wait_log(o->log, off, "SUBNET UP", (int)slice, &waited,
				 &e) == IBP_OK)
			return IBP_OPENSM_SUBNET_UP;
	} else {
		struct timespec nap = {0, 200000000};
		nanosleep(&nap, NULL);
	}
	if (l && o->want && fabric_holds(l, o->want))
		return IBP_OPENSM_FABRIC_HOLDS;
	return IBP_OPENSM_NOT_ASKED;
}

static int wait_for_opensm(ibp_live *l,
			   const struct ibp_opensm_reload_options *o, long off,
			   struct ibp_apply_opensm_result *r, ibp_error *err)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!o->log && !(l && o->want)) {
		r->seen = IBP_OPENSM_NO_WITNESS;
		return IBP_OK;
	}
	for (;;) {
		r->seen = witness(l, o, off, o->wait_ms - ms_since(&t0));
		r->ms = ms_since(&t0);
		if (r->seen != IBP_OPENSM_NOT_ASKED)
			return IBP_OK;
		if (l && ibp_live_cancelled(l))
			return ibp_error_set(err, IBP_ECANCELED,
					     "cancelled while waiting for "
					     "OpenSM; the new file is "
					     "installed, the old one is %s.bak",
					     o->partitions);
		if (r->ms >= o->wait_ms)
			return ibp_error_set(
			    err, IBP_ETIMEDOUT,
			    "after %d ms OpenSM (pid %ld) has not reported "
			    "SUBNET UP%s%s%s; the new file is installed, the "
			    "old one is %s.bak",
			    o->wait_ms, (long)r->pid, o->log ? " in " : "",
			    o->log ? o->log : "",
			    l && o->want ? " and the fabric does not hold "
					   "the plan"
					 : "",
			    o->partitions);
	}
}

static int make_text(ibp_live *l, const struct ibp_apply_opensm_options *o,
		     ibp_tables **want, struct ibp_apply_opensm_result *r,
		     ibp_diags *diags, ibp_error *err)
{
	ibp_tables *before = NULL;
	ibp_conf *conf = NULL;
	int rc = ibp_live_read_tables(l, &before, err);
	if (rc == IBP_EINVAL || rc == IBP_EPARSE) {
		if (err)
			err->status = IBP_EIO;
		return IBP_EIO;
	}
	if (rc)
		return rc;
	struct ibp_live_plan_options po = {
	    .conf_path = o->conf_path,
	    .mode = o->mode,
	    .sm_port_guid = ibp_live_sm_port_guid(l),
	    .allow_both_pkeys = o->allow_both_pkeys,
	    .previous = before,
	    .fail_closed = true,
	    .max_input_size = o->max_input_size,
	    .alias_guids_path = o->alias_guids_path,
	    .vf_guids = o->vf_guids,
	};
	const ibp_fabric *f = ibp_live_fabric(l);
	rc = ibp_live_plan(&po, f, want, &conf, diags, err);
	if (!rc)
		rc = ibp_live_plan_opensm_text(&po, f, conf, *want, &r->text,
					       &r->len, diags, err);
	if (rc && rc != IBP_ENOMEM && rc != IBP_EPARSE)
		rc = IBP_EINVAL; /* the plan is input, not the fabric */
	if (err && rc)
		err->status = rc;
	ibp_conf_free(conf);
	ibp_tables_free(before);
	return rc;
}

/* Is pid an OpenSM?  Its /proc comm says so (Debian's /usr/sbin/opensm;
 * a process that renamed itself is not ours to guess about). */
static bool is_opensm(pid_t pid)
{
	char path[64], comm[64] = "";
	snprintf(path, sizeof(path), "/proc/%ld/comm", (long)pid);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return false;
	bool ok = fgets(comm, sizeof(comm), fp) &&
		  !strncmp(comm, "opensm", 6) &&
		  (comm[6] == '\n' || comm[6] == 0);
	fclose(fp);
	return ok;
}

bool ibp_opensm_is_process(pid_t pid)
{
	return is_opensm(pid);
}

/* pid is a live OpenSM (the file path for the message); 0 or
 * IBP_EINVAL. */
static int check_opensm(pid_t pid, const char *file, ibp_error *err)
{
	/* the process must exist before its file is replaced: a stale pid
	 * file changes nothing */
	if (pid <= 0 || (kill(pid, 0) && errno == ESRCH))
		return ibp_error_set(err, IBP_EINVAL,
				     "no OpenSM process %ld (a stale pid "
				     "file?); %s left unchanged",
				     (long)pid, file);
	/* and it must be OpenSM: a pid file left behind and its pid reused
	 * by another program must not get our SIGHUP */
	if (!is_opensm(pid))
		return ibp_error_set(err, IBP_EINVAL,
				     "process %ld is not OpenSM (a stale pid "
				     "file?); %s left unchanged",
				     (long)pid, file);
	return IBP_OK;
}

/* ibp_opensm_reload on the library's whole current result. */
static int reload(ibp_live *l, const struct ibp_opensm_reload_options *o,
		  struct ibp_apply_opensm_result *r, ibp_error *err)
{
	r->seen = IBP_OPENSM_NOT_ASKED;
	r->ms = 0;
	struct ibp_opensm_reload_options own;
	opensm_reload_options_defaults(&own);
	if (ibp_options_take(&own, o, &opensm_reload_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	r->pid = o->pid;
	if (!o->partitions)
		return ibp_error_set(err, IBP_EINVAL, "no partition file");
	if (!r->pid) {
		if (!o->pidfile)
			return ibp_error_set(err, IBP_EINVAL,
					     "no OpenSM pid or pid file");
		int rc = ibp_read_pidfile(o->pidfile, &r->pid, err);
		if (rc)
			return rc == IBP_ENOMEM ? rc : IBP_EINVAL;
	}
	if (check_opensm(r->pid, o->partitions, err))
		return IBP_EINVAL;
	long off = o->log ? ibp_file_size(o->log) : 0;
	if (o->text) {
		int rc = ibp_write_file_atomic(o->partitions, o->text, o->len,
					       true, err);
		if (rc)
			return rc;
	}
	int rc = ibp_signal_reread(r->pid, err);
	if (rc && err) { /* say what was done: the file is OpenSM's now */
		char why[sizeof(err->message)];
		snprintf(why, sizeof(why), "%s", err->message);
		ibp_error_set(err, rc,
			      "installed %s (the old one is %s.bak) but could "
			      "not signal OpenSM: %s; it reads the file at its "
			      "next SIGHUP or restart",
			      o->partitions, o->partitions, why);
	}
	return rc ? rc : wait_for_opensm(l, o, off, r, err);
}

/* The caller's result read into a whole current one, reloaded, and given
 * back as far as its version goes (its text kept). */
int ibp_opensm_reload(ibp_live *l, const struct ibp_opensm_reload_options *o,
		      struct ibp_apply_opensm_result *caller, ibp_error *err)
{
	struct ibp_apply_opensm_result r;
	if (ibp_result_take(&r, sizeof(r), caller, &apply_opensm_result_layout,
			    err))
		return IBP_EINVAL;
	int rc = reload(l, o, &r, err);
	ibp_result_give(caller, &r, &apply_opensm_result_layout);
	return rc;
}

/* ibp_apply_via_opensm on the library's whole current result. */
static int via_opensm(ibp_live *l, const struct ibp_apply_opensm_options *o,
		      struct ibp_apply_opensm_result *r, ibp_diags *diags,
		      ibp_error *err)
{
	struct ibp_apply_opensm_options own;
	apply_opensm_options_defaults(&own);
	if (ibp_options_take(&own, o, &apply_opensm_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	if (!o->conf_path)
		return ibp_error_set(err, IBP_EINVAL, "no plan (conf_path)");
	/* a file ibpartd manages is its database's rendering: replacing it
	 * would lose the API's partitions at the next change */
	if (ibp_partitions_file_managed(o->opensm_conf))
		return ibp_error_set(err, IBP_EINVAL,
				     "%s is managed by ibpartd (it has its "
				     "generated section): change partitions "
				     "through its API, or edit the operator's "
				     "lines above the marker",
				     o->opensm_conf);
	r->pid = o->opensm_pid;
	if (!o->dry_run && !r->pid) {
		if (!o->opensm_pidfile)
			return ibp_error_set(err, IBP_EINVAL,
					     "--via-opensm needs --opensm-pid "
					     "or --opensm-pidfile");
		int rc = ibp_read_pidfile(o->opensm_pidfile, &r->pid, err);
		if (rc)
			return rc == IBP_ENOMEM ? rc : IBP_EINVAL;
	}
	/* checked before the plan is made: a missing OpenSM is the
	 * caller's input (exit 2), found before any SMP is sent */
	if (!o->dry_run && check_opensm(r->pid, o->opensm_conf, err))
		return IBP_EINVAL;
	ibp_tables *want = NULL;
	int rc = make_text(l, o, &want, r, diags, err);
	if (rc || o->dry_run)
		goto out;
	struct ibp_opensm_reload_options ro;
	ibp_opensm_reload_options_init(&ro, IBP_OPENSM_RELOAD_OPTIONS_VERSION);
	ro.partitions = o->opensm_conf;
	ro.text = r->text;
	ro.len = r->len;
	ro.pid = r->pid;
	ro.log = o->opensm_log;
	ro.want = want;
	ro.wait_ms = o->wait_ms;
	ibp_live_progress(l, "installing %s (old file kept as %s.bak)",
			  o->opensm_conf, o->opensm_conf);
	rc = reload(l, &ro, r, err);
	if (rc == IBP_EINVAL || rc == IBP_EPARSE) {
		rc = IBP_EIO; /* past the plan: the system's fault */
		if (err)
			err->status = rc;
	}
out:
	ibp_tables_free(want);
	return rc;
}

int ibp_apply_via_opensm(ibp_live *l, const struct ibp_apply_opensm_options *o,
			 struct ibp_apply_opensm_result *caller,
			 ibp_diags *diags, ibp_error *err)
{
	if (ibp_result_check(caller, &apply_opensm_result_layout, err))
		return IBP_EINVAL;
	struct ibp_apply_opensm_result r = {
	    .version = IBP_APPLY_OPENSM_RESULT_VERSION};
	int rc = via_opensm(l, o, &r, diags, err);
	ibp_result_give(caller, &r, &apply_opensm_result_layout);
	return rc;
}
