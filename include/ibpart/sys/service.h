/*
 * Module service (src/service/): the partition service behind ibpartd -
 * the P_Keys that clients manage through UFM's REST API, kept durable in
 * SQLite and rendered into OpenSM's partitions.conf.  Files: service.c
 * (the object, its lock, the operations), service_input.c (request
 * values as UFM's clients write them: P_Keys, GUIDs, memberships, the
 * QoS units), service_model.c (the plan in memory), service_db.c (the
 * database), service_render.c (the operator's file kept verbatim plus a
 * generated section), service_guard.c (the isolation guard), service_json.c
 * (UFM's response shapes), service_status.c (revisions on the fabric,
 * tokens), service_ports.c (UFM's port list), service_adopt.c (an
 * operator's P_Key handed to the API), service_hosts.c (Slurm's host
 * lists as port GUIDs), service_views.c (the plan's tables, matrix,
 * audit and posture as the CLI prints them), service_memory.c (OpenSM's
 * index memory, recorded), service_capacity.c (the guard's table-overflow
 * judgment), service_topology.c (the topology held, reloaded when its
 * file changes), service_guard_state.c (the guard's kept answer),
 * service_commit.c (group commit), service_audit.c (who made each
 * revision), service_tokens.c (/ufmRestV3's tokens), service_store.c,
 * service_store_tokens.c and service_store_migrate.c (the shared
 * PostgreSQL store), service_json_list.c (the P_Key list written as it
 * goes), service_vf.c (--vf-guids physical), service_web.c (the page at
 * `/`), service_view.c (the key of the views a caller may keep),
 * service_revision_end.c (a revision's end state from the facts of
 * ibpartd's cycle); private
 * service_internal.h, service_lib.h.  Depends on util, topo, conf, pkey (the
 * state file), policy (OpenSM's placement), analysis (the audit), report (the
 * web view), SQLite, libpq and jansson.
 *
 * Unstable API (include/ibpart/sys/): ibpartd's half of the service.  A
 * program outside ibpart reaches the store through ibpartd's REST API
 * (docs/ufm-api.md), not through these functions, which follow the
 * daemon's needs (HTTP statuses, the web view, the SM pair's store).
 *
 * service.h - the store and its semantics; the HTTP front end (daemon/)
 * only routes requests here and sends back what these functions return.
 *
 *  - The database (WAL, synchronous=FULL) holds every API-managed
 *    partition: P_Key, name, who manages it, ip_over_ib, the QoS (UFM's
 *    mtu_limit, rate_limit, service_level), its members (port GUID ->
 *    full/limited, index0).  Each accepted change is one transaction with
 *    a new revision number, durable when the call returns.  Tokens are
 *    stored as the hash the caller made of them.
 *  - partitions.conf is the operator's file verbatim (comments included)
 *    up to a marker line, then a generated section with one statement
 *    per partition (a second statement of the same name for the members
 *    asking for index 0: OpenSM's indx0 applies per statement).  A
 *    P_Key the operator's own lines define is refused (conflict) to the
 *    API.
 *  - The isolation guard: every change is rendered and audited (with
 *    the topology, when one is given; OpenSM's verdict on the file
 *    always) before and after; a finding at high or above that the
 *    change introduces refuses it (conflict, with the findings).  A
 *    table overflow is judged with the PartitionCaps discovery read and
 *    OpenSM's index memory, which the service records after each
 *    verified revision (ibp_service_note_opensm; service_memory.c,
 *    service_capacity.c).
 *
 * Errors: a struct ibp_service_error - the ibp_error, the request field
 * at fault, whether the change was refused as a conflict, and the
 * guard's findings as JSON.  ibp_service_error_http() maps it: IBP_EINVAL
 * 400, IBP_ENOENT 404, a conflict 409, anything else 500.
 *
 * Threads: the one object of the library meant to be shared: every
 * function takes the service's mutex, so any thread may call any of them
 * at any time (libmicrohttpd's pool and the applier do).
 */
#ifndef IBPART_SYS_SERVICE_H
#define IBPART_SYS_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/alias_map.h"
#include "ibpart/analysis.h"
#include "ibpart/sys/report.h"
#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef struct ibp_service ibp_service;

#define IBP_SERVICE_OPTIONS_VERSION 3 /* 3: vf_guids, vports */
struct ibp_service_options {
	unsigned version;	      /* IBP_SERVICE_OPTIONS_VERSION */
	const char *db_path;	      /* the database (created if missing) */
	const char *partitions_path;  /* OpenSM's partitions.conf */
	const char *topology_path;    /* the fabric the guard audits; NULL:
					 only OpenSM's verdict is checked */
	const char *sm_port;	      /* the SM's port for the audit (NULL:
					 the topology's) */
	bool allow_both_pkeys;	      /* OpenSM's allow_both_pkeys */
	const char *opensm_conf_path; /* OpenSM's opensm.conf: the tables
					 as OpenSM programs them with it, and
					 the audit's posture rules (M_Key,
					 SM_Key, SA_Key, enforcement); NULL:
					 none */
	const char *store_url;	      /* the shared store of every SM host:
					 postgresql://...; NULL: db_path
					 alone (one host).  With it, db_path
					 is this host's cache of the store */
	const char *host_name;	      /* this host in the store's list of
					 hosts (NULL: none) */
	const char *alias_guids_path; /* the fabric's alias GUIDs (VFs,
					 alias_map.h), read with the
					 topology at each audit: the guard's
					 shared-physical-port; NULL: none */
	ibp_vf_guids vf_guids;	      /* version 3: PHYSICAL (with the
					 topology) writes each alias GUID of
					 the generated section on its physical
					 port in the file OpenSM is given
					 (conf.h's vf_guids), and the guard,
					 the audit and the views judge that
					 rendering; default ALIAS */
	bool vports;		      /* version 3: NVIDIA OpenSM's
					 virtualization (opensm.conf
					 virt_enabled 2): the plan's GUIDs
					 that are no port of the fabric may be
					 vports (conf.h's vports): the audit's
					 "vport-unmodelled" */
};
/* Set version; everything else NULL/false.  Cannot fail. */
void ibp_service_options_init(struct ibp_service_options *o, unsigned version);

/* Open (or create) the database and load the plan.  IBP_EINVAL when a
 * path is missing, IBP_EIO when the database cannot be opened or is not
 * ours, IBP_ENOMEM.  The caller frees *out with ibp_service_close. */
int ibp_service_open(const struct ibp_service_options *o, ibp_service **out,
		     ibp_error *err);
/* Close the database and free everything.  NULL is allowed. */
void ibp_service_close(ibp_service *s);

/* A P_Key's text as UFM's clients write it: "0x" (or "0X") and 1-6 hex
 * digits, or 1-6 decimal digits ("0x000A", "0xa", "10"); *value the
 * number, in no range yet: the operations refuse what is outside
 * 0x0001-0x7ffe (0x7fff for a P_Key only looked at) with a 400 naming the
 * field, ibpartd reads a caller's P_Key against its users file's ranges
 * with it.  IBP_EINVAL (*value untouched) for anything else, NULL too. */
int ibp_service_parse_pkey(const char *text, unsigned long *value);

/* Why a call failed. */
struct ibp_service_error {
	ibp_error err;	  /* status and message */
	char field[64];	  /* the request field at fault ("pkey", "guids[2]",
			     "rate_limit"), "" when none */
	bool conflict;	  /* refused: the guard or an operator's P_Key */
	bool unavailable; /* the shared store could not be reached:
			     nothing changed, try again (503) */
	char *findings;	  /* a conflict's findings, a JSON array (malloc'd),
			     or NULL */
};
/* Zero e.  Cannot fail. */
void ibp_service_error_init(struct ibp_service_error *e);
/* Free e->findings and zero e. */
void ibp_service_error_clear(struct ibp_service_error *e);
/* The HTTP status e means: 400 for IBP_EINVAL, 404 for IBP_ENOENT, 409
 * for a conflict, 503 when the shared store is unavailable, 500
 * otherwise. */
int ibp_service_error_http(const struct ibp_service_error *e);
/* The JSON body of an error response: {"error", "status", "field"?,
 * "findings"?}.  A malloc'd string, NULL on ENOMEM. */
char *ibp_service_error_json(const struct ibp_service_error *e);

/* The changes UFM's API makes, each from its JSON request body. */
typedef enum ibp_service_op {
	IBP_SERVICE_ADD_GUIDS = 0, /* POST /resources/pkeys: add members,
				      the P_Key created when missing */
	IBP_SERVICE_SET_GUIDS,	   /* PUT /resources/pkeys: the member set
				      replaced (created when missing) */
	IBP_SERVICE_CREATE,	   /* POST /resources/pkeys/add: a P_Key
				      with no members, its QoS and name */
	IBP_SERVICE_QOS,	   /* PUT /resources/pkeys/qos_conf */
	IBP_SERVICE_REMOVE_GUIDS   /* POST /actions/remove_guids_from_pkey */
} ibp_service_op;

/* Who asks for a change, and how the isolation guard treats them: an
 * operator's policy per API user (ibpartd's --profile).  A new finding
 * at high or above refuses the change, unless its code is in
 * warn_rules: then the change is made and the finding is handed back in
 * warnings.  Initialise with ibp_service_caller_init(); a caller may be
 * NULL everywhere one is taken: nobody in particular, every finding
 * refuses.  The functions taking one refuse a version of 0 or newer
 * than the library's (IBP_EINVAL, nothing changed). */
#define IBP_SERVICE_CALLER_VERSION 1
struct ibp_service_caller {
	unsigned version;
	const char *user; /* for the log and the warnings; may be NULL */
	/* audit codes (docs/audit.md) that only warn for this caller,
	 * NULL-terminated; "*" is every code; NULL: none */
	const char *const *warn_rules;
	/* out: what the change was let through with, a JSON array of
	 * findings ({"code", "severity", "message", ...}; a Slurm host
	 * the topology lacks is {"code": "unknown-host", "hosts": [...]}),
	 * malloc'd; NULL when none.  The caller frees it. */
	char *warnings;
};
/* Set version; no user, no warn_rules (every finding refuses), no
 * warnings.  c must not be NULL.  Cannot fail. */
void ibp_service_caller_init(struct ibp_service_caller *c, unsigned version);

/* The same on behalf of c (may be NULL), whose policy the guard applies
 * and whose c->warnings it fills. */
int ibp_service_change_as(ibp_service *s, struct ibp_service_caller *c,
			  ibp_service_op op, const char *body, size_t len,
			  uint64_t *rev, struct ibp_service_error *e);
/* DELETE /resources/pkeys/{pkey}: the partition and its members.
 * IBP_ENOENT when the service does not manage that P_Key. */
int ibp_service_delete_pkey(ibp_service *s, const char *pkey, uint64_t *rev,
			    struct ibp_service_error *e);
/* DELETE /resources/pkeys/{pkey}/guids/{g1,g2,...}: csv as in the path.
 * IBP_ENOENT for an unknown P_Key; GUIDs that are not members are
 * ignored. */
int ibp_service_remove_guids_csv(ibp_service *s, const char *pkey,
				 const char *csv, uint64_t *rev,
				 struct ibp_service_error *e);

/* The same on behalf of c (may be NULL; its warnings filled). */
int ibp_service_add_hosts_as(ibp_service *s, struct ibp_service_caller *c,
			     const char *body, size_t len, uint64_t *rev,
			     struct ibp_service_error *e);
/* DELETE /resources/pkeys/{pkey}/hosts/{hosts}: the ports of those
 * hosts removed as ibp_service_remove_guids_csv removes GUIDs. */
int ibp_service_remove_hosts(ibp_service *s, const char *pkey,
			     const char *hosts, uint64_t *rev,
			     struct ibp_service_error *e);

/* POST /ibpart/v1/adopt {"pkey"}: the operator's P_Key becomes the
 * API's - its statements (GUID members only) move from the operator's
 * lines to the generated section, one revision, the file rewritten at
 * once.  IBP_ENOENT when the operator's lines do not define it,
 * IBP_EINVAL (field "pkey") for a member or flag the API cannot hold, a
 * conflict when the guard objects. */
int ibp_service_adopt(ibp_service *s, const char *pkey, uint64_t *rev,
		      struct ibp_service_error *e);

/* GET /resources/pkeys: every P_Key of the plan (0x7fff and the
 * operator's included, each with "managed_by"), in UFM's shape, with the
 * members and/or the QoS when asked; *json is malloc'd. */
int ibp_service_list(ibp_service *s, bool guids_data, bool qos_conf,
		     char **json, struct ibp_service_error *e);
/* GET /resources/pkeys/{pkey}: one P_Key; IBP_ENOENT when the plan has
 * no such P_Key, IBP_EINVAL (field "pkey") when pkey is not one. */
int ibp_service_get(ibp_service *s, const char *pkey, bool guids_data,
		    bool qos_conf, char **json, struct ibp_service_error *e);

/* The partition file for the current revision (operator's text and the
 * generated section) into *text (malloc'd, *len bytes) and its revision
 * into *rev (may be NULL): the file OpenSM is given (with vf_guids
 * PHYSICAL, every alias GUID of the generated section on its port). */
int ibp_service_render(ibp_service *s, char **text, size_t *len, uint64_t *rev,
		       ibp_error *err);
/* Render and install it as the partitions file, atomically (the old one
 * kept as FILE.bak); the revision written in *rev (may be NULL).
 * IBP_EBUSY, the file left as it is, when it cannot be written safely
 * (ibp_service_file_problem says why). */
int ibp_service_write_partitions(ibp_service *s, uint64_t *rev, ibp_error *err);
/* The isolation guard's kept answer (the audit's findings for the plan,
 * updated change by change) checked against a whole audit of the plan's
 * file, off the request path: the service's lock is held only to copy
 * the answer and render the file.  true, with what differs first in
 * why (size bytes), when they differ: the kept answer is then dropped
 * (the next change builds it again from the file) and counted in
 * *drifts (may be NULL: the count since the start).  false when they
 * agree or there is nothing to check (no topology, no kept answer for
 * the current revision). */
bool ibp_service_guard_check(ibp_service *s, char *why, size_t size,
			     unsigned long *drifts);
/* What keeps the partitions file from being written, into problem
 * (size bytes; "" when nothing) - true when something does: the file
 * missing or unreadable, or without the generated section's marker line,
 * once the service has seen it (the operator's lines last seen are kept
 * in the database and still define the operator's P_Keys to the API),
 * or a P_Key both the operator's lines and the API define (OpenSM would
 * merge the two partitions).  It lasts until the file is mended. */
bool ibp_service_file_problem(ibp_service *s, char *problem, size_t size);
/* How many times the service read the partitions file whole since it
 * was opened: once per change of the file (its inode, size, mtime or
 * ctime), not once per request (ibpartd's
 * ibpartd_partitions_file_reads_total). */
unsigned long ibp_service_partitions_file_reads(ibp_service *s);
/* How many times the service read the topology file (--topology) since
 * it was opened: once per change of the file (its inode, size or
 * mtime), not once per request - the page, the views, the audits, the
 * ports and OpenSM's index memory all read the one fabric held
 * (ibpartd's ibpartd_topology_loads_total). */
unsigned long ibp_service_topology_loads(ibp_service *s);
/* How many database transactions recorded changes since the service
 * was opened: one per group of changes committed together (the group
 * commit: the changes that arrived while the one before was being
 * written share one transaction and one fsync), so fewer than the
 * revisions under concurrent changes (ibpartd's ibpartd_commits_total). */
unsigned long ibp_service_commits(ibp_service *s);
/* A number that changes whenever what the status (ibp_service_status_json) and
 * the page (ibp_service_web_html_extras, less its caller's extras) show may
 * have: the revision, the states, absent GUIDs, drift and warnings recorded
 * since, the partitions file, the topology and the opensm.conf (by their stat).
 * A caller may serve a view it rendered again while the key is the same.  0:
 * render (a file changed too lately to be told by its times, or a shared store
 * is in use). */
uint64_t ibp_service_view_key(ibp_service *s);

/* What became of a revision on the fabric (docs/ibpartd.md says when
 * each is reported). */
typedef enum ibp_service_state {
	IBP_SERVICE_PENDING = 0,       /* recorded, not yet on the fabric */
	IBP_SERVICE_APPLIED,	       /* OpenSM has the file and was signalled,
					  but that it took this revision is not
					  demonstrated (the reason says why) */
	IBP_SERVICE_VERIFIED,	       /* OpenSM took it (its log, or the fabric
					  changing as predicted) and every port
					  holds what it predicts */
	IBP_SERVICE_FAILED,	       /* applying or verifying it failed */
	IBP_SERVICE_APPLIED_PARTIALLY, /* taken and held, but it names
					  GUIDs the fabric has no port of
					  (its "absent" list): OpenSM
					  programs only the others */
	IBP_SERVICE_DRIFTED /* it was held; a later reading of the fabric
			       found ports that no longer hold it */
} ibp_service_state;
/* "pending", "applied", "verified", "failed", "applied-partially",
 * "drifted". */
const char *ibp_service_state_str(ibp_service_state st);

/* The newest revision recorded (0: none yet). */
uint64_t ibp_service_revision(ibp_service *s);
/* The newest revision the fabric was verified to hold (0: none). */
uint64_t ibp_service_fabric_revision(ibp_service *s);
/* Wait up to ms milliseconds for a revision newer than after; returns
 * the newest revision then (at once when it already is newer). */
uint64_t ibp_service_wait(ibp_service *s, uint64_t after, int ms);
/* Record what became of every revision up to rev not yet verified (nor
 * applied-partially or drifted): state, and the reason (may be NULL).
 * VERIFIED and APPLIED_PARTIALLY also move the fabric's revision and
 * (for a revision above 0) last_updated, and record for revision rev
 * the plan's fields SMPs cannot verify (the status's "not_verifiable").
 * IBP_EIO when the database fails. */
int ibp_service_mark(ibp_service *s, uint64_t rev, ibp_service_state st,
		     const char *reason, ibp_error *err);
/* A GUID a revision names that the fabric has no port of. */
struct ibp_service_absent {
	uint64_t guid;
	const char *kind; /* "node-guid": a node's GUID given where its
			     port GUID belongs; "alias": a VF's alias GUID
			     of a port of the fabric; "unknown": nothing
			     of the fabric has it (alias_map.h) */
	const char *hint; /* may be NULL: how it is probably meant */
};
/* From now on the audits (the guard's shared-physical-port, the web
 * view, GET /ibpart/v1/audit) read the alias map at path (NULL: none),
 * also when only the file at the same path changed: the guard's kept
 * answer is dropped and the views are rendered again (ibpartd learns
 * the fabric's aliases at each sweep, ibp_live_learn_alias_guids).
 * IBP_ENOMEM.  Any thread. */
int ibp_service_set_alias_guids(ibp_service *s, const char *path,
				ibp_error *err);
/* Record, for revision rev, the n GUIDs it names that the fabric has no
 * port of (verify's absent list; n 0 clears it): the status's
 * "absent" of that revision.  IBP_ENOENT when there is no such
 * revision, IBP_EIO when the database fails. */
int ibp_service_note_absent(ibp_service *s, uint64_t rev,
			    const struct ibp_service_absent *a, size_t n,
			    ibp_error *err);
/* A reading of the fabric against revision rev (the collector's): when
 * rev is the fabric's revision and held (verified or applied-partially),
 * ports > 0 makes it DRIFTED with detail (the ports) as its reason;
 * when it is DRIFTED and ports is 0 it is held again (verified, or
 * applied-partially when it has absent GUIDs).  *changed (may be NULL)
 * says whether the state moved.  IBP_EIO when the database fails. */
int ibp_service_note_drift(ibp_service *s, uint64_t rev, size_t ports,
			   const char *detail, bool *changed, ibp_error *err);
/* What became of revision rev: its state, and the reason of a failure
 * into reason (cut to reason_size; "" when none).  IBP_ENOENT when the
 * database has no such revision. */
int ibp_service_revision_state(ibp_service *s, uint64_t rev,
			       ibp_service_state *st, char *reason,
			       size_t reason_size, ibp_error *err);
/* The facts of ibpartd's cycle for a revision OpenSM was signalled for,
 * from which ibp_service_revision_end decides its end state. */
#define IBP_SERVICE_CYCLE_FACTS_VERSION 1
struct ibp_service_cycle_facts {
	unsigned version;	   /* IBP_SERVICE_CYCLE_FACTS_VERSION */
	int reload_rc;		   /* ibp_opensm_reload's result (apply.h) */
	const char *reload_why;	   /* its message (NULL: none) */
	long opensm_pid;	   /* the OpenSM signalled */
	bool logged_subnet_up;	   /* its log said SUBNET UP after the signal
				      (IBP_OPENSM_SUBNET_UP) */
	bool fabric_held;	   /* the fabric changed as predicted
				      (IBP_OPENSM_FABRIC_HOLDS) */
	bool opensm_log;	   /* its log was watched (--opensm-log) */
	bool fabric_read;	   /* the fabric could be opened */
	const char *no_fabric_why; /* why not (NULL: none) */
	bool verified;		   /* verify ran: the counts below hold */
	size_t differences;	   /* verify's differences ... */
	size_t ports;		   /* ... on this many ports */
	size_t vports;		   /* absent GUIDs that may be NVIDIA
				      OpenSM's vports (virt_enabled 2) */
	size_t absent;		   /* GUIDs named that the fabric has no
				      port of (vports included) */
};
/* Set version; everything else 0/NULL/false.  Cannot fail. */
void ibp_service_cycle_facts_init(struct ibp_service_cycle_facts *f,
				  unsigned version);
/* What became of the revision (docs/ibpartd.md, "States"): *st and the
 * reason into why ("" when none), the first that holds of:
 *  - a reload error other than IBP_ETIMEDOUT: FAILED, its message;
 *  - no fabric read: APPLIED, "OpenSM <pid> signalled[ and logged SUBNET
 *    UP]; not verified: <why>";
 *  - not yet verified: PENDING - verify, then ask again with its counts;
 *  - differences: FAILED, "drift: N differences on P ports after OpenSM
 *    took the file" (after a timeout: "<its message>: N differences on P
 *    ports");
 *  - vports: APPLIED, "not verifiable: ...";
 *  - SUBNET UP logged or the fabric held: VERIFIED, or APPLIED_PARTIALLY
 *    with absent GUIDs ("N GUIDs it names are not ports of the fabric:
 *    ...");
 *  - else APPLIED, "not demonstrated: ...".
 * Pure.  IBP_EINVAL for a facts version this library cannot read or a
 * NULL argument. */
int ibp_service_revision_end(const struct ibp_service_cycle_facts *f,
			     ibp_service_state *st, char *why, size_t why_size,
			     ibp_error *err);
/* GET /ibpart/v1/status: {"revision", "fabric_revision", "state",
 * "revisions": [{"revision", "state", "reason"?, "op", "pkey", "time",
 * "absent"?: [{"guid", "kind", "hint"?}], "not_verifiable"?: [{"pkey",
 * "fields"}]}]} (the newest 50); *json malloc'd. */
int ibp_service_status_json(ibp_service *s, char **json, ibp_error *err);
/* OpenSM has loaded the partitions file as it is now (revision rev)
 * and the fabric was verified to hold it: record, durably, what OpenSM
 * remembers of each port's P_Key indexes (its index memory) for the
 * guard's table-overflow judgment.  live is the fabric discovery found
 * (its PartitionCaps are recorded too), sm_port_guid OpenSM's port and
 * have the tables verify read there; the memory is the one recorded
 * after the revision before replayed through the file by the policy's
 * model, or - for the first record, for an
 * OpenSM whose pid is not the one recorded (a new OpenSM remembers
 * nothing), or where the model's tables are not what the fabric holds -
 * what the ports hold.  live and have NULL: the model alone, on the
 * topology (no fabric to read; tests and dry runs).  *from_ports (NULL
 * allowed) says which: true when the memory is what the ports hold.
 * IBP_EINVAL for one of live/have without the other, IBP_ENOENT without
 * live or a topology, IBP_EIO (the partitions file, the database),
 * IBP_ENOMEM. */
int ibp_service_note_opensm(ibp_service *s, uint64_t rev,
			    const ibp_fabric *live, uint64_t sm_port_guid,
			    const ibp_tables *have, long opensm_pid,
			    bool *from_ports, ibp_error *err);
/* GET /resources/pkeys/last_updated as UFM writes it: {"last_updated":
 * "Thu Sep  3 11:42:39 UTC 2020"} (strftime "%a %b %e %H:%M:%S UTC %Y",
 * UTC), the time the fabric last took a change (VERIFIED, or
 * ibp_service_touch_last_updated); null before any.  ib-kubernetes
 * waits for it to reach the server's Date of its previous call before
 * it makes the next.  *json malloc'd. */
int ibp_service_last_updated_json(ibp_service *s, char **json, ibp_error *err);
/* Move last_updated to now: a revision reached its end without a fabric
 * to verify (the file written, no OpenSM to signal), or an accepted call
 * that changed nothing found every change already on the fabric.
 * IBP_EIO when the database fails. */
int ibp_service_touch_last_updated(ibp_service *s, ibp_error *err);

/* GET /: the web view (`ibpart matrix --format html`) of the current
 * plan on the topology, with the caller's sections (more: its drift and
 * series; its findings and status are the service's own; NULL: none);
 * *html malloc'd.  IBP_ENOENT without a topology. */
int ibp_service_web_html_extras(ibp_service *s, const ibp_web_extras *more,
				char **html, size_t *len, ibp_error *err);

/* The audit of the current plan on the topology (what GET
 * /ibpart/v1/audit prints) as findings, *out the caller's
 * (ibp_findings_free).  IBP_ENOENT without a topology. */
int ibp_service_audit_findings(ibp_service *s, ibp_findings **out,
			       ibp_error *err);

/* GET /ibpart/v1/audit: the audit of the current plan (the file the
 * newest revision renders) on the topology, as `ibpart audit
 * [--opensm-conf FILE] --format json` prints it (with the service's
 * opensm.conf, when it has one); *json malloc'd.  IBP_ENOENT without a
 * topology.  (service_views.c) */
int ibp_service_audit_json(ibp_service *s, char **json, ibp_error *err);
/* GET /ibpart/v1/tables: every port's P_KeyTable for the current plan
 * on the topology, as `ibpart tables [--opensm-conf FILE] --format
 * json` prints it; *json malloc'd.  IBP_ENOENT without a topology. */
int ibp_service_tables_json(ibp_service *s, char **json, ibp_error *err);
/* GET /ibpart/v1/matrix: the reachability matrix of the current plan
 * on the topology, as `ibpart matrix --format json` prints it (form
 * auto); *json malloc'd.  IBP_ENOENT without a topology. */
int ibp_service_matrix_json(ibp_service *s, char **json, ibp_error *err);

/* The same for UFM's ?sys_type=: "Computer" (CA ports), "Switch" (switch
 * ports), any other value nothing; NULL: all. */
int ibp_service_ports_json_of(ibp_service *s, const char *sys_type, char **json,
			      ibp_error *err);

/* The line that starts the generated section of a partitions file the
 * service manages. */
#define IBP_SERVICE_MARKER                                                     \
	"# ---- ibpartd: generated section, managed through its API; "         \
	"do not edit below this line ----"

/* A token of /ufmRestV3 as the service stores it (service_tokens.c):
 * never its secret, only the caller's crypt(3) hash of it.  id is the
 * public part a client's token starts with; role "read", "change" or
 * "admin"; expires_at and last_used 0 when never. */
typedef struct ibp_service_token {
	char id[32];
	char hash[256];
	char user[128];
	char role[16];
	long issued_at, expires_at, last_used;
	bool revoked;
} ibp_service_token;

/* Store token t.  IBP_EIO when the database fails. */
int ibp_service_token_add(ibp_service *s, const ibp_service_token *t,
			  ibp_error *err);
/* Token id into *t; IBP_ENOENT when there is none. */
int ibp_service_token_find(ibp_service *s, const char *id, ibp_service_token *t,
			   ibp_error *err);
/* Record that token id was used at when (seconds since the epoch). */
int ibp_service_token_touch(ibp_service *s, const char *id, long when,
			    ibp_error *err);
/* Revoke token id - of user only, unless user is NULL.  IBP_ENOENT when
 * there is no such token (of that user). */
int ibp_service_token_revoke(ibp_service *s, const char *id, const char *user,
			     ibp_error *err);
/* GET /app/tokens: user's tokens (every user's when user is NULL),
 * oldest first, as UFM's objects without the secret: [{"token_id" (the
 * public part a token starts with), "revoked", "issued_at",
 * "expires_in" (its lifetime in seconds, as UFM's; 0: none),
 * "username", "role", "last_used" (0: never), "expires_at" (0: never)}];
 * *json malloc'd.  IBP_EIO when the database fails. */
int ibp_service_tokens_json(ibp_service *s, const char *user, char **json,
			    ibp_error *err);

/* `ibpartd token` while a daemon holds the database at db_path: revoke
 * token id (any user's), or every token as JSON, with the shared store
 * (a postgresql:// URL; NULL: the database alone) as the truth, db_path
 * the host's cache: a revocation goes to the
 * store first, so it holds on every host; the list is the store's
 * tokens, each host's last use from db_path.  IBP_EINVAL: not a store
 * URL; IBP_EIO: the store or the database fails. */
int ibp_service_store_token_revoke(const char *store, const char *db_path,
				   const char *id, ibp_error *err);
int ibp_service_store_tokens_json(const char *store, const char *db_path,
				  char **json, ibp_error *err);

/* Who makes the changes the calling thread makes next (service_audit.c):
 * each revision it commits records user, via ("basic", "token:ID",
 * "cert:CN"), client (the address) and request ("METHOD PATH" and the
 * body, cut to 4 KiB).  NULL clears it (then the fields stay empty). */
typedef struct ibp_service_actor {
	const char *user, *via, *client, *request;
} ibp_service_actor;
/* Name a (its strings must outlive the change; per thread, the one
 * piece of state the library keeps outside its objects) or clear it. */
void ibp_service_actor_set(const ibp_service_actor *a);
/* GET /ibpart/v1/revisions: the newest limit revisions (of user only
 * when user is not NULL), newest first: {"revisions": [{"revision",
 * "time", "op", "pkey", "state", "reason"?, "user", "via", "client",
 * "request"}]}; *json malloc'd.  IBP_EIO when the database fails. */
int ibp_service_revisions_json(ibp_service *s, const char *user, unsigned limit,
			       char **json, ibp_error *err);

/* ---- the shared store of an SM pair (service_store.c, docs/ha.md) ---- */

/* Wait up to ms for the store to announce a revision (LISTEN/NOTIFY),
 * then bring the service to the store's newest revision (the periodic
 * catch-up: call it in a loop from one thread).  No-op without a store.
 * IBP_EIO: the store is unreachable (the plan and the file stay as they
 * are; the next call reconnects). */
int ibp_service_store_poll(ibp_service *s, int ms, ibp_error *err);
/* false while a service with a store has not yet caught up with it: the
 * file must not be written from a plan that may be old. */
bool ibp_service_store_synced(ibp_service *s);

/* What one host reports of itself into the store's list of hosts. */
struct ibp_service_host {
	const char *sm_state;	 /* its OpenSM: "MASTER", "STANDBY",
				    "DISCOVERING", "NOT ACTIVE", "down" */
	long opensm_pid;	 /* 0: not running */
	uint64_t file_rev;	 /* the revision its partitions file holds */
	uint64_t fabric_rev;	 /* the revision it verified on the fabric */
	unsigned long failovers; /* times its OpenSM became master */
};
/* Record h as this host's row (the options' host_name).  No-op without
 * a store; IBP_EIO when the store fails. */
int ibp_service_store_report_host(ibp_service *s,
				  const struct ibp_service_host *h,
				  ibp_error *err);

/* `ibpartd migrate`: copy the records of the SQLite database at
 * sqlite_path (partitions, members, revisions, tokens, OpenSM's index
 * memory, PartitionCaps) into the empty shared store at url, in one
 * transaction; *rows the number of rows copied.  IBP_EINVAL: the store
 * already holds revisions; IBP_EIO: either database fails. */
int ibp_service_store_migrate(const char *sqlite_path, const char *url,
			      size_t *rows, ibp_error *err);

IBP_END_DECLS
#endif
