/*
 * live_lib.h - the library's own half of ibpart/live.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/live.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_LIVE_LIVE_LIB_H
#define IBPART_LIVE_LIVE_LIB_H

#include "ibpart/live.h"
#include "ibpart/sys/live.h"
#include "ibpart/sys/transport.h"

/* The caller's live options over the defaults, as far as their version
 * goes (util/options_version.h; NULL: the defaults); IBP_EINVAL naming
 * the struct for a version this library does not read. */
int ibp_live_options_take(struct ibp_live_options *own,
			  const struct ibp_live_options *o, ibp_error *err);

/* SMPs the session has sent: in all, for the discovery, for reading
 * tables; timeouts and retries in all. */
struct ibp_live_counts {
	unsigned long smps, smps_discover, smps_read;
	unsigned long timeouts, retries;
};

/* ------------------------------------------------------- the plan */

/* What `verify` and `apply` compare the fabric with: the plan (a
 * partitions.conf) turned into tables by the policy module. */
struct ibp_live_plan_options {
	const char *conf_path;
	const char *mode;      /* "opensm" (default) or "strict" */
	uint64_t sm_port_guid; /* the SM's port (0: the fabric's first CA) */
	bool allow_both_pkeys; /* OpenSM's -W */
	const ibp_tables *previous; /* what the ports held before (OpenSM
				       keeps surviving P_Keys at their
				       index); NULL: a fresh fabric */
	bool fail_closed; /* refuse a plan OpenSM would reject/misread */
	bool compact_pkey_indexes; /* opensm.conf keep_pkey_indexes FALSE:
				      tables packed whatever the ports
				      held (policy.h) */
	/* OpenSM's part_enforce (default both): off copies no table onto
	 * the switch ports facing end ports, as OpenSM then leaves them */
	ibp_part_enforce part_enforce;
	/* NULL, or filled with what the plan cannot place, among it the
	 * switch ports whose copy is truncated and left unenforced (ERR
	 * 0507): policy.h */
	struct ibp_policy_unplaced *unplaced;
	size_t max_input_size; /* read at most this many bytes of the plan
				  (0: IBP_INPUT_MAX_DEFAULT, limits.h) */
	const char *alias_guids_path; /* the fabric's alias map (alias_map.h):
					 conf.h's alias_guids_path */
	ibp_vf_guids vf_guids;	      /* conf.h's vf_guids */
};

/* Compare every port that has a table in `want` with the same port in
 * `have` (both over the same fabric); a port absent from `have` is
 * unreachable.  Items come in (node, port) order, then by index. */
int ibp_drift_compute(const ibp_tables *want, const ibp_tables *have,
		      ibp_drift **out, ibp_error *err);

/* Ports compared, and how many of them drifted. */
size_t ibp_drift_ports_drifted(const ibp_drift *d);

/* Items selected; *ports (may be NULL) the ports they are on. */
size_t ibp_drift_count_sel(const ibp_drift *d, ibp_drift_sel sel,
			   size_t *ports);

/* Write the tables of ts (those of the fabric's ports) to path as JSON,
 * atomically (temp file, fsync, rename):
 *   {"format": "ibpart-pkey-state-1", "ports": [{"node_guid", "port_guid",
 *    "port", "node_desc", "capacity", "pkeys": ["0xffff", …],
 *    "enforcement": "both|in|out|off"}…]}
 * `pkeys` lists the whole table up to its last used entry;
 * `enforcement` (PortInfo PartitionEnforcementInbound/Outbound) is there
 * for the switch ports whose bits were read, and a rollback puts them
 * back. */
int ibp_state_save(const ibp_tables *ts, const char *path, ibp_error *err);

/* Read a state file back onto fabric f: each port found by node GUID and
 * port number.  IBP_ENOENT when a port of the file is not in f (unless
 * skip_missing: such ports are then left out), IBP_EPARSE for a
 * malformed file. */
int ibp_state_load(const ibp_fabric *f, const char *path, bool skip_missing,
		   ibp_tables **out, ibp_error *err);

/* ibp_state_load() on the len bytes at text (no NUL needed), named path
 * in messages (NULL: "<buffer>"). */
int ibp_state_load_buffer(const ibp_fabric *f, const char *path,
			  const char *text, size_t len, bool skip_missing,
			  ibp_tables **out, ibp_error *err);

/* A path for the state file of an apply nobody named one for: in dir
 * (NULL: /var/lib/ibpart for root, else $XDG_STATE_HOME/ibpart, default
 * ~/.local/state/ibpart), made 0700 where missing, the file
 * "ibpart-state-YYYYmmddTHHMMSSZ-PID.json" (UTC), with -2, -3...
 * before ".json" while a file of that name exists, so one run never
 * overwrites another's state.  Into buf (len bytes).  IBP_OK; IBP_EIO
 * when the directory cannot be made, IBP_ERANGE when the path does not
 * fit buf, IBP_EINVAL without HOME (non-root, no dir, no XDG). */
int ibp_state_default_path(const char *dir, char *buf, size_t len,
			   ibp_error *err);

/* Send SIGHUP to pid (OpenSM re-reads its partition file and sweeps).
 * IBP_ENOENT when no such process, IBP_EIO otherwise. */
int ibp_signal_reread(pid_t pid, ibp_error *err);

/* Size of the file at path now (0 when absent): remember before the
 * SIGHUP, then wait for what OpenSM logs after it. */
long ibp_file_size(const char *path);

/* Wait until the text appended to log_path after offset contains
 * `needle`, up to timeout_ms.  0 when found (with *found_ms the time it
 * took), IBP_ETIMEDOUT otherwise. */
int ibp_wait_log(const char *log_path, long offset, const char *needle,
		 int timeout_ms, long *found_ms, ibp_error *err);

/* Close the session (and the port it opened); NULL is fine. */
ibp_transport *ibp_live_transport(ibp_live *l);

/* The local port: its GUID is the SM port when we act as the SM. */
uint64_t ibp_live_local_port_guid(const ibp_live *l);

/* The master SM's port, as ibp_sm_master_sm_port() (sm.h) finds it
 * from the session's local port. */
int ibp_live_master_sm_port(ibp_live *l, uint64_t *port_guid, bool *running,
			    ibp_error *err);

/* Report progress through the options' callback (nothing when NULL). */
void ibp_live_progress(const ibp_live *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The session was opened with dry_run: no Set is ever sent. */
bool ibp_live_dry_run(const ibp_live *l);

/* The PortInfo partition enforcement the session wants on the leaf ports
 * (ibp_live_options.enforce: an ibp_part_enforce, or -1 to leave the
 * bits as they are). */
int ibp_live_enforce(const ibp_live *l);

/* True when the options' cancel callback asks to stop. */
bool ibp_live_cancelled(const ibp_live *l);

/* Decide the SM's port (after ibp_live_discover): `spec` (a GUID, name
 * or LID of the plan's fabric) when given, else the master SM's port
 * when an SM runs (the local PortInfo MasterSMLID), else the local port
 * (ibpart is the partition manager).  IBP_ENOENT (or the resolver's
 * status), with the reason, when spec names no port or the port chosen
 * is not in the plan's fabric. */
uint64_t ibp_live_sm_port_guid(const ibp_live *l);

/* The LID of the SM's port (ibp_live_sm_port_guid) as discovery read
 * it, where its SA answers; 0 when unknown. */
uint16_t ibp_live_sa_lid(ibp_live *l);

/* A master SM answers with IsSM set: apply --direct must not fight it. */
bool ibp_live_sm_running(const ibp_live *l);

/* Every P_KeyTable the fabric holds, keyed by ibp_live_fabric() (ports
 * the topology lacks are dropped).  The caller frees *out.  The SM's
 * status when the fabric fails. */
int ibp_live_read_tables(ibp_live *l, ibp_tables **out, ibp_error *err);
/* The findings of the session's discovery (ibp_sm_discovery_findings:
 * nodes left out for a GUID of 0) appended to diags, so that discover,
 * verify and apply say what was not there to read or write.  0, or
 * IBP_ENOMEM (err set). */
int ibp_live_discovery_findings(const ibp_live *l, ibp_diags *diags,
				ibp_error *err);

/* The counts so far into *out (the SM's counters and the session's own).
 * Only reads l; cannot fail. */
void ibp_live_counts_get(const ibp_live *l, struct ibp_live_counts *out);

/* The same tables keyed by another model of the same subnet: each port
 * found by node GUID and port number; ports `to` lacks are dropped. */
int ibp_live_remap(const ibp_tables *src, const ibp_fabric *to,
		   ibp_tables **out, ibp_error *err);

/* Parse the plan against fabric f and compute its tables.  Every finding
 * goes to diags.  IBP_EPARSE when the file cannot be read as a plan.
 * With fail_closed: IBP_EINVAL when the file has any error, when OpenSM
 * 3.3.23 would reject it (and fall back to ALL=full) or misread it, or
 * when the policy finds an error; *want is then NULL.  Without it, the
 * tables are what OpenSM would really program from such a file.  *conf_out (may
 * be NULL) receives the parsed plan. */
int ibp_live_plan(const struct ibp_live_plan_options *po, const ibp_fabric *f,
		  ibp_tables **want, struct ibp_conf **conf_out,
		  ibp_diags *diags, ibp_error *err);

/* The plan in OpenSM's canonical syntax, checked: the text is parsed
 * again and must be accepted by OpenSM's rules (no error, not rejected,
 * not misread) and give the same tables as the plan.  *text is malloc'd.
 */
int ibp_live_plan_opensm_text(const struct ibp_live_plan_options *po,
			      const ibp_fabric *f, const struct ibp_conf *conf,
			      const ibp_tables *want, char **text, size_t *len,
			      ibp_diags *diags, ibp_error *err);

/* Free a drift (NULL is fine); a verify result owns its own. */
void ibp_drift_free(ibp_drift *d);

/* The session's local CA and port: what the library's verify, apply and
 * monitor drive (ibp_live_sm: sys/live.h). */
const char *ibp_live_local_ca(const ibp_live *l);
int ibp_live_local_port(const ibp_live *l);

/* Milliseconds since ibp_live_open. */
long ibp_live_elapsed_ms(const ibp_live *l);

#endif
