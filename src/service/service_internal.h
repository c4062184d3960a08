/*
 * service_internal.h - what the files of the service module share: the
 * plan in memory (svc_plan: the API's partitions, sorted by P_Key, each
 * with its members sorted by GUID), the request-value readers, the
 * database, the renderer and the guard.  Private to src/service/.
 */
#ifndef IBPART_SERVICE_INTERNAL_H
#define IBPART_SERVICE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include "ibpart/analysis_input.h"
#include "ibpart/conf.h"
#include "ibpart/sys/service.h"
#include "ibpart/state_file.h"
#include "conf/partitions_marker.h"
#include "policy/policy_lib.h"
#include "ibpart/sys/report.h"

/* Who manages a partition the list shows. */
#define SVC_BY_API	"ibpartd"
#define SVC_BY_OPERATOR "operator"
#define SVC_BY_OPENSM	"opensm"

/* The marker line that starts the generated section. */
#define SVC_MARKER IBP_PARTITIONS_MARKER

struct svc_member {
	uint64_t guid;
	bool full;
	bool index0;
};

struct svc_part {
	uint16_t pkey;
	char name[32];
	bool ipoib;
	bool index0;	    /* the default of members added without one */
	bool created_empty; /* made by /add (or adopted) with no member
			       yet: kept while it has never had one; once
			       a member has joined, the last one to leave
			       deletes it, as UFM does */
	bool has_qos;	    /* mtu/rate/sl written to the file */
	unsigned mtu_limit; /* UFM: 2 or 4 (KiB) */
	double rate_limit;  /* UFM: Gb/s */
	unsigned sl;
	size_t n, cap;
	struct svc_member *m; /* sorted by guid */
};

struct svc_plan {
	size_t n, cap;
	struct svc_part *p; /* sorted by pkey */
};

#define SVC_WARNINGS_KEPT 32

/* The operator's lines as last read and parsed (service.c), shared by
 * reference: a change keeps its reference through the guard while a
 * read may find the file changed and put a new reading in its place. */
struct svc_opc {
	_Atomic unsigned refs;
	ibp_conf *conf;
	char *text;
	size_t len;
};

/* Two locks (docs/ibpartd.md, "Concurrency"):
 *  - write_lock serialises the writers: the changes, the store's
 *    catch-up, OpenSM's memory recorded, the guard's drift check.  It
 *    alone covers what only writers touch: the plan's replacement, rev,
 *    guard, record - but the kept answer (guard) is also read by the
 *    changes tried before it (guard_rw's readers), so it is changed
 *    only with guard_rw written (after write_lock; the lock dropped
 *    while waiting for it, so that the reads do not wait for trials);
 *  - lock covers everything else and is held only briefly: a change
 *    drops it while the isolation guard judges (without a shared
 *    store), so the reads (the list, a P_Key, the status, the page, the
 *    metrics, the tokens) never wait for a guard.
 * Order: write_lock before lock.  plan, rev are changed with both held,
 * so either one is enough to read them. */
struct ibp_service {
	pthread_mutex_t write_lock;
	pthread_mutex_t lock;
	void (*guard_hook)(void *); /* tests: called inside the guard
				       (ibp_service_set_guard_hook) */
	void *guard_hook_arg;
	bool guard_whole; /* tests: every change judged by the whole-plan
			     guard (ibp_service_set_guard_whole) */
	pthread_cond_t changed;
	sqlite3 *db;
	int lock_fd; /* the database file's flock (service_db.c); -1: none */
	char *db_path, *partitions_path, *topology_path, *sm_port;
	char *opensm_conf_path;	   /* the audit's posture rules; NULL: none */
	struct svc_opfile *opfile; /* service_render.c: the operator's lines
				      as last read, by the file's stat */
	char *alias_guids_path;	   /* the audit's VFs (alias map); NULL: none;
				      swapped under lock and alias_lock
				      (ibp_service_set_alias_guids) */
	pthread_mutex_t alias_lock;
	bool allow_both_pkeys;
	ibp_vf_guids vf_guids; /* PHYSICAL: aliases written on their ports
				  in OpenSM's file (service_vf.c) */
	bool vports;	       /* virt_enabled 2: vport-unmodelled */
	struct svc_plan plan;  /* snap's plan (read-only), not owned */
	struct svc_snap *snap; /* service_model.c: the plan published */
	uint64_t rev, fabric_rev;
	uint64_t view_gen;	   /* service_view.c: bumped when a revision's
				      state, absent GUIDs, drift or warnings are
				      recorded (what the views show beside rev) */
	struct svc_record *record; /* service_memory.c: what the guard
				      judges capacity with, cached */
	pthread_mutex_t topo_lock; /* service_topology.c: */
	struct svc_topology *topo; /* the topology held, or NULL */
	unsigned long topo_loads;  /* the file read, since the open */
	/* the last changes let through with warnings (a caller's policy,
	 * unknown Slurm hosts), newest at warn_next - 1, for the status */
	struct svc_warning {
		uint64_t rev;
		char user[64];
		char *json; /* the caller's warnings array */
	} warnings[SVC_WARNINGS_KEPT];
	size_t nwarnings, warn_next;
	/* the shared store (service_store.c); store_url NULL: none */
	char *store_url, *host;
	PGconn *pg;	   /* changes, catch-up, status: under the lock */
	PGconn *pg_listen; /* LISTEN: ibp_service_store_poll's caller only */
	bool store_txn;	   /* a transaction of pg is open */
	bool store_synced; /* the cache has caught up at least once */
	bool store_schema; /* the store's schema checked (and migrated) */
	char store_error[256]; /* why the store failed last ("": fine) */
	/* service_guard_state.c: the audit's answer for the plan, kept */
	struct svc_guard_base *guard;
	uint64_t guard_fast, guard_full; /* changes judged each way */
	/* changes tried on it outside the writers' lock (a readers' lock:
	 * guard_rw), and those then applied as tried or judged again;
	 * guard_gen names the kept answer a trial read */
	pthread_rwlock_t guard_rw;
	_Atomic unsigned guard_trying; /* trials under way */
	uint64_t guard_gen, guard_tried, guard_rejudged;
	unsigned long guard_drifts; /* kept answers the check refuted */
	struct svc_opc *opc;	    /* service.c: the operator's lines as read,
				       kept (under lock) */
	/* service_commit.c: group commit.  Under write_lock: the writers'
	 * plan (the plan published and the changes accepted since, not yet
	 * durable) and its revision; the guard's kept answer is for it. */
	struct svc_snap *wsnap;
	uint64_t wrev;
	/* under commit_lock (taken last): the changes queued, whether a
	 * waiter is committing, the newest durable revision, the failed
	 * commits (epoch) and whether the writers' plan must be reset */
	pthread_mutex_t commit_lock;
	pthread_cond_t durable_cond;
	struct svc_commit *queue, **queue_tail;
	bool committing, broken, commit_ready;
	uint64_t durable, epoch;
	_Atomic unsigned long commits; /* transactions that recorded changes */
	char commit_error[256];
	sqlite3 *wdb; /* the committer's connection (none with a store) */
	pthread_mutex_t file_lock; /* the partitions file written by one
				      thread at a time */
};

/* A copy of the alias map's path (NULL: none, or out of memory), taken
 * under alias_lock: any thread, with or without the service's lock. */
char *svc_alias_path(const ibp_service *s);

/* ---- service_input.c: request values ---- */
/* A P_Key as clients write it ("0x000A", "0xa", "10", a JSON integer):
 * 0x0001-0x7ffe (0x7fff too for the field "path": a P_Key to look at,
 * not to change), else IBP_EINVAL with e naming field. */
int svc_parse_pkey_text(const char *text, const char *field, uint16_t *out,
			struct ibp_service_error *e);
int svc_parse_pkey_json(const json_t *v, const char *field, uint16_t *out,
			struct ibp_service_error *e);
/* A port GUID: 16 hex digits, case, "0x" and colons allowed. */
int svc_parse_guid(const char *text, const char *field, uint64_t *out,
		   struct ibp_service_error *e);
/* true/false, "true"/"false" (any case); null leaves *out as it was. */
int svc_parse_bool(const json_t *v, const char *field, bool *out,
		   struct ibp_service_error *e);
/* "full"/"limited" (any case) -> *full. */
int svc_parse_membership(const json_t *v, const char *field, bool *full,
			 struct ibp_service_error *e);
/* UFM's QoS units and OpenSM's codes: mtu_limit 2 -> 4, 4 -> 5; a
 * rate_limit in Gb/s -> the IBA rate code; 0 when there is none. */
unsigned svc_mtu_code(unsigned mtu_limit);
unsigned svc_rate_code(double gbps);
/* The other way, for partitions the operator wrote: code -> Gb/s (0 when
 * unknown), code -> KiB. */
double svc_rate_gbps(unsigned code);
double svc_mtu_kib(unsigned code);
/* Set e: status, field (may be NULL), message. */
int svc_fail(struct ibp_service_error *e, int status, const char *field,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* ---- service_model.c: the plan in memory ---- */
void svc_plan_free(struct svc_plan *p);
int svc_plan_clone(const struct svc_plan *src, struct svc_plan *dst);
struct svc_part *svc_plan_find(struct svc_plan *p, uint16_t pkey);
/* A new partition (kept sorted); NULL on ENOMEM. */
struct svc_part *svc_plan_add(struct svc_plan *p, uint16_t pkey);
void svc_plan_remove(struct svc_plan *p, uint16_t pkey);
/* Set (add or change) a member; -1 on ENOMEM, else 1 when something
 * changed, 0 when not. */
int svc_part_set_member(struct svc_part *p, uint64_t guid, bool full,
			bool index0);
/* 1 when guid was a member and is removed, 0 when not. */
int svc_part_remove_member(struct svc_part *p, uint64_t guid);
bool svc_part_equal(const struct svc_part *a, const struct svc_part *b);

/* The plan as published: never changed once it is the service's plan
 * (a change makes a new one), shared by reference, so a read takes a
 * reference under the lock and renders without it. */
struct svc_snap {
	_Atomic unsigned refs;
	struct svc_plan plan;
};
/* An empty one, for svc_plan_publish (NULL on ENOMEM): taken before a
 * change commits, so that publishing cannot fail after it. */
struct svc_snap *svc_snap_new(void);
/* Under both locks: *np (taken, emptied) made the service's plan in
 * snap (taken), the previous one put. */
void svc_plan_publish(ibp_service *s, struct svc_snap *snap,
		      struct svc_plan *np);
/* Under the lock: snap (its reference taken) made the plan published,
 * the previous one put (the group commit's, which leaves the writers'
 * plan alone). */
void svc_plan_publish_snap(ibp_service *s, struct svc_snap *snap);
/* At the open: the plan the database (or the store) loaded published. */
int svc_plan_published(ibp_service *s);
/* Under the lock: a reference to the plan published. */
struct svc_snap *svc_snap_get(ibp_service *s);
void svc_snap_put(struct svc_snap *snap);

/* The writers' plan: under write_lock. */
static inline struct svc_plan *svc_wplan(ibp_service *s)
{
	return &s->wsnap->plan;
}

/* ---- service_commit.c: group commit ---- */
/* At the open, once the plan is published (its own connection to the
 * database, without a shared store); close takes a service whose open
 * failed. */
int svc_commit_open(ibp_service *s, ibp_error *err);
void svc_commit_close(ibp_service *s);
/* Under write_lock and lock, as a writer starts: the writers' plan reset
 * to the plan published when a commit failed since; the epoch to queue
 * and wait with. */
uint64_t svc_writers_begin(ibp_service *s);
/* Under write_lock and lock: the writers' plan made the plan published
 * (after a change committed without the queue: a shared store, adopt). */
void svc_writers_follow(ibp_service *s);
/* Under write_lock and lock: the change np (taken, emptied) of P_Key
 * pkey made the writers' plan and queued as its next revision (*rev);
 * IBP_EIO when a commit failed since epoch (the change was judged on
 * changes that are not recorded). */
int svc_commit_enqueue(ibp_service *s, uint64_t epoch, const char *op,
		       uint16_t pkey, struct svc_plan *np,
		       const struct ibp_service_caller *c, uint64_t *rev,
		       struct ibp_service_error *e);
/* Without any of the service's locks: until revision rev is durable
 * (committing the queue when no one is), or IBP_EIO in e when a commit
 * failed since epoch. */
int svc_commit_wait(ibp_service *s, uint64_t rev, uint64_t epoch,
		    struct ibp_service_error *e);
/* Under the lock: the warnings json (taken; NULL: none) of revision
 * rev by user kept for the status, the oldest dropped. */
void svc_keep_warnings(ibp_service *s, uint64_t rev, const char *user,
		       char *json);
/* Under write_lock only: every change queued made durable (or failed);
 * then take lock and call svc_writers_begin. */
void svc_commit_drain(ibp_service *s);

/* ---- service_db.c ---- */
int svc_db_open(ibp_service *s, const char *path, ibp_error *err);
/* Load the plan and the revisions into s. */
int svc_db_load(ibp_service *s, ibp_error *err);
/* One transaction: the partitions whose P_Keys are listed written as in
 * plan (deleted where plan has none), revision rev recorded (op, pkey). */
int svc_db_commit(ibp_service *s, const struct svc_plan *plan,
		  const uint16_t *pkeys, size_t npkeys, uint64_t rev,
		  const char *op, ibp_error *err);

/* One change of a group commit: the partition of P_Key pkey written as
 * in plan (deleted where plan has none; plan NULL: not written, a later
 * change of the group writes it), revision rev recorded (op, pkey, the
 * actor: may be NULL). */
struct svc_db_change {
	const struct svc_plan *plan;
	uint16_t pkey;
	uint64_t rev;
	const char *op;
	const ibp_service_actor *actor;
};
/* The n changes as one transaction of db (one fsync). */
int svc_db_commit_group(ibp_service *s, sqlite3 *db,
			const struct svc_db_change *c, size_t n,
			ibp_error *err);

/* One revision as the shared store gives it to the local cache. */
struct svc_rev_row {
	uint64_t rev;
	long long time;
	int pkey;
	const char *op, *state, *reason, *user, *via, *client, *request;
};
/* One transaction: the local database's partitions and members made
 * plan's (all of them, or those of the npkeys P_Keys listed when pkeys
 * is not NULL), its revisions after newest dropped, rows added. */
int svc_db_replace(ibp_service *s, const struct svc_plan *plan,
		   const uint16_t *pkeys, size_t npkeys,
		   const struct svc_rev_row *rows, size_t nrows,
		   uint64_t newest, ibp_error *err);

/* ---- service_store.c: the shared store (PostgreSQL) ---- */
/* A URL --store takes (postgresql:// or postgres://). */
bool svc_store_url(const char *url);
/* The writers' lock of the shared store, held to the transaction's end
 * (its key spells "ibpa"). */
#define SVC_STORE_LOCK "SELECT pg_advisory_xact_lock(1768058977)"
/* A connection to url (check PQstatus); client notices off. */
PGconn *svc_pg_connect(const char *url);
/* Run sql with n text parameters (NULL: SQL NULL); true when it did
 * (a command, or rows: into *out when out, the caller's to PQclear). */
bool svc_pg_exec(PGconn *c, const char *sql, int n, const char *const *v,
		 PGresult **out);
/* The store's schema brought to this ibpartd's version, one transaction
 * under the writers' lock (ibpartd_schema: the versions applied). */
int svc_store_schema(PGconn *c, ibp_error *err);
/* Connect, migrate, catch the local database up. */
int svc_store_open(ibp_service *s, const char *url, const char *host,
		   ibp_error *err);
void svc_store_close(ibp_service *s);
/* Under the lock, before a change is computed: a transaction holding
 * the writers' lock, the service caught up to the store's newest
 * revision.  No-op without a store; IBP_EIO: the store failed. */
int svc_store_begin(ibp_service *s, ibp_error *err);
/* The change written into the open transaction and committed (no-op
 * without a store). */
int svc_store_commit(ibp_service *s, const struct svc_plan *plan,
		     const uint16_t *pkeys, size_t npkeys, uint64_t rev,
		     const char *op, ibp_error *err);
/* Commit (or roll back) the open transaction; no-op when none. */
int svc_store_end(ibp_service *s, bool commit, ibp_error *err);
/* The status's "store" object, under the lock. */
json_t *svc_store_status(ibp_service *s);
/* Connected to the store, or reconnected once: true when it is. */
bool svc_store_connected(ibp_service *s);

/* ---- service_store_tokens.c: the tokens in the shared store ---- */
/* Each a no-op without a store; under the lock.  Add t to the store
 * (IBP_EIO: it failed, issue nothing). */
int svc_store_token_add(ibp_service *s, const ibp_service_token *t,
			ibp_error *err);
/* Revoke id (of user, when not NULL) in the store; IBP_ENOENT: no such
 * token there, IBP_EIO: the store failed. */
int svc_store_token_revoke(ibp_service *s, const char *id, const char *user,
			   ibp_error *err);
/* The store's rows of token id (NULL: every token) into the local
 * database; nothing when the store cannot be read. */
void svc_store_token_pull(ibp_service *s, const char *id);
/* One token row into the local database, its last use kept
 * (service_tokens.c). */
void svc_db_token_put(ibp_service *s, const ibp_service_token *t);

/* A text of the meta table (malloc'd; NULL when none), and setting one
 * (len bytes of value). */
char *svc_db_meta(const ibp_service *s, const char *key);
int svc_db_meta_set(ibp_service *s, const char *key, const char *value,
		    size_t len, ibp_error *err);
/* The meta key of the operator's text last seen in the partitions file
 * (up to the marker line), kept so a missing file erases nothing. */
#define SVC_META_OPERATOR "operator_text"

/* The calling thread's actor (service_audit.c); NULL when none. */
const ibp_service_actor *svc_actor(void);

/* OpenSM's index memory (service_memory.c): the state JSON (state_file.h)
 * after revision rev as OpenSM opensm_pid loaded it, and the PartitionCap
 * of each node discovery read (ncaps 0: none read, the last kept); one
 * transaction. */
int svc_db_memory_save(ibp_service *s, uint64_t rev, long opensm_pid,
		       const char *state, const uint64_t *node_guids,
		       const unsigned *caps, size_t ncaps, ibp_error *err);
/* The state recorded last into *state (malloc'd; NULL when none yet),
 * its revision and OpenSM's pid (either may be NULL). */
int svc_db_memory_load(const ibp_service *s, char **state, uint64_t *rev,
		       long *opensm_pid, ibp_error *err);
/* The PartitionCap discovery read for the node: true with *cap. */
bool svc_db_partition_cap(const ibp_service *s, uint64_t node_guid,
			  unsigned *cap);

/* ---- service_memory.c: OpenSM's index memory, kept ---- */
/* A copy of the topology the service holds (parsed from its text, not
 * the file read again) with LIDs assigned from the same SM port (into
 * *sm_guid) and each node's PartitionCap as discovery read it where it
 * did; IBP_ENOENT without a topology. */
int svc_fabric_load(const ibp_service *s, ibp_fabric **f, uint64_t *sm_guid,
		    ibp_error *err);
/* OpenSM loading conf on f, as the policy's model replays it
 * (ibp_policy_compute_memory) from the tables the ports held (previous)
 * and what it remembered (memory; NULL: nothing): the tables and the
 * memory after it. */
int svc_replay(const ibp_conf *c, const ibp_fabric *f, uint64_t sm_guid,
	       const ibp_tables *previous, const ibp_index_memory *memory,
	       ibp_tables **tables, ibp_index_memory **out, ibp_error *err);
/* The recorded state read onto f into *st (NULL when none recorded),
 * and the OpenSM pid it was recorded with. */
int svc_memory_state(const ibp_service *s, const ibp_fabric *f,
		     ibp_state_file **st, long *opensm_pid, ibp_error *err);
/* The cache of the topology (as svc_fabric_load gives it) and the
 * recorded state read onto it (NULL when none, or unreadable: OpenSM
 * then remembers nothing), loaded at first use and again after each
 * record and when the held topology was loaded again; borrowed, valid under the
 * service's lock until the next record.  new/free at open/close (NULL on
 * ENOMEM; free takes NULL). */
struct svc_record *svc_record_new(void);
void svc_record_free(struct svc_record *r);
int svc_record_get(const ibp_service *s, const ibp_fabric **f,
		   uint64_t *sm_guid, const ibp_state_file **st,
		   ibp_error *err);

/* ---- service_topology.c: the one topology the service holds ---- */
/* A reference to the topology as loaded now (OpenSM's LIDs from the
 * SM's port), loaded again first when the file changed; the caller
 * drops it with svc_topology_put.  IBP_ENOENT without --topology,
 * IBP_EIO/IBP_EPARSE when it does not load, IBP_ENOMEM.  Any thread. */
struct svc_topology;
int svc_topology_get(ibp_service *s, struct svc_topology **t, ibp_error *err);
void svc_topology_put(ibp_service *s, struct svc_topology *t);
const ibp_fabric *svc_topology_fabric(const struct svc_topology *t);
/* The port its LIDs are numbered from; the file's text as read. */
uint64_t svc_topology_sm_guid(const struct svc_topology *t);
const char *svc_topology_text(const struct svc_topology *t, size_t *len);
/* Which load t is (1, 2, ...); the held one's, loaded again if the file
 * changed (0 when it does not load). */
unsigned long svc_topology_gen(const struct svc_topology *t);
unsigned long svc_topology_gen_now(const ibp_service *s);
/* Is t the topology held and the file still as t read it?  Loads
 * nothing (a stat): for a holder of t deciding whether to read the
 * topology anew. */
bool svc_topology_current(ibp_service *s, const struct svc_topology *t);
/* Another reference to t, which the caller holds (a reader that
 * keeps t beyond the one who lent it); svc_topology_put drops it. */
void svc_topology_hold(ibp_service *s, struct svc_topology *t);
/* The fabric of a topology's text (named path in messages) as
 * ibp_fabric_load reads the file, LIDs not assigned; the error is its
 * first error finding. */
int svc_topology_parse(const char *path, const char *text, size_t len,
		       ibp_fabric **f, ibp_error *err);

/* ---- service_capacity.c: the guard's table-overflow judgment ---- */
/* The capacity-overflow findings (high) the change from before to after
 * introduces on the topology, with the PartitionCaps discovery read and
 * OpenSM's index memory as recorded; *out the caller's (may be empty). */
int svc_capacity_findings(const ibp_service *s, const char *before, size_t blen,
			  const char *after, size_t alen, ibp_findings **out,
			  ibp_error *err);

/* ---- service_render.c ---- */
/* The operator's part of the partitions file (its lines up to the
 * marker) into *text (malloc'd), recorded in the database as the text
 * last seen when it changed.  When the file cannot be trusted - missing
 * or unreadable once the service has seen its marker, or a file with
 * content but without the marker line once it has - *text is the
 * operator's text last seen and problem (psize bytes) says why; else
 * problem is "".  Before the service ever saw the file, a missing one is
 * an empty operator part and a file without the marker is all the
 * operator's.  Errors: IBP_ENOMEM, IBP_EIO (the database). */
int svc_operator_text(ibp_service *s, char **text, size_t *len, char *problem,
		      size_t psize, ibp_error *err);
/* The cache of the operator's lines (svc_operator_text reads the file
 * only when its inode, size, mtime or ctime changed): new at open (NULL
 * on ENOMEM), free at close (takes NULL). */
struct svc_opfile *svc_opfile_new(void);
void svc_opfile_free(struct svc_opfile *c);
/* What keeps the service from writing the partitions file, into problem
 * (""  when nothing): the file's own problem (svc_operator_text), or a
 * P_Key both the operator's lines (opc) and the API's plan define. */
void svc_file_problem(const ibp_service *s, const ibp_conf *opc, char *problem,
		      size_t psize);
/* The whole file: operator text + marker + the plan's statements. */
/* The plan's file as the clients sent it (the operator's lines and the
 * generated section, aliases as given): what the views audit, read as
 * OpenSM is given it (svc_topology_input, svc_vf_reading).  Takes the
 * lock. */
int svc_render_plan(ibp_service *s, char **text, size_t *len, ibp_error *err);
/* The file OpenSM is given under vf_guids PHYSICAL: text (a rendering,
 * marker included) with its generated section read with every alias on
 * its physical port (conf_vf.c) and written by the canonical writer;
 * the operator's lines as they are.  Needs the topology.  *out
 * malloc'd.  service_vf.c. */
int svc_vf_physical_file(ibp_service *s, const char *text, size_t len,
			 char **out, size_t *olen, ibp_error *err);
/* GUIDs (uint64_t) in order, for qsort and bsearch; v[0..n) sorted with
 * repeats dropped, the count left.  service_vf.c. */
int svc_guid_cmp(const void *a, const void *b);
size_t svc_guid_set(uint64_t *v, size_t n);
int svc_render(const char *operator_text, size_t oplen,
	       const struct svc_plan *plan, char **text, size_t *len);
/* Parse text as OpenSM does (name is for messages). */
int svc_parse_conf(const ibp_service *s, const char *name, const char *text,
		   size_t len, ibp_conf **out, ibp_error *err);
/* How the service reads a whole file of its (operator's lines, marker,
 * generated section) for what OpenSM is given: with vf_guids PHYSICAL,
 * PHYSICAL_GENERATED - the generated section's aliases on their ports
 * (service_vf.c renders them so), the operator's left aliases, which
 * OpenSM skips as written; else ALIAS. */
ibp_vf_guids svc_vf_reading(const ibp_service *s);
/* A whole file of the service's on the fabric f, read as OpenSM is
 * given it (svc_vf_reading) with the alias map in effect (conf_vf.c). */
int svc_parse_conf_on(const ibp_service *s, const ibp_fabric *f,
		      const char *name, const char *text, size_t len,
		      ibp_conf **out, ibp_error *err);
/* The same with the reading vf (PHYSICAL: every alias on its port, as
 * the generated section alone is read to render it). */
int svc_parse_conf_vf(const ibp_service *s, const ibp_fabric *f,
		      ibp_vf_guids vf, const char *name, const char *text,
		      size_t len, ibp_conf **out, ibp_error *err);

/* ---- service_guard.c ---- */
/* Refuse (conflict, with the findings) what after introduces at high
 * or above that before does not have; a finding whose code c's policy
 * only warns of (c may be NULL) is appended to c->warnings instead.  A
 * change that only removes (removes_only) can only reduce reach: never
 * refused by the audit, the high findings that remain go to c->warnings. */
int svc_guard(ibp_service *s, struct ibp_service_caller *c, bool removes_only,
	      const char *before, size_t blen, const char *after, size_t alen,
	      struct ibp_service_error *e);
/* The guard's two judgments on findings: refuse (a conflict naming
 * them) what after has at high or above that before does not (capacity:
 * more findings to judge, may be NULL); and, for a change that only
 * removes, the high findings after it to c's warnings. */
int svc_guard_refuse(const ibp_findings *before, const ibp_findings *after,
		     const ibp_findings *capacity, struct ibp_service_caller *c,
		     struct ibp_service_error *e);
int svc_guard_remaining(const ibp_findings *after, struct ibp_service_caller *c,
			struct ibp_service_error *e);

/* ---- service_guard_state.c: the guard at the change's cost ---- */
/* The kept answer borrows a topology held (svc_topology_get) for its
 * life: free drops it, after the analysis input that reads it. */
struct svc_guard_base;
void svc_guard_base_free(ibp_service *s, struct svc_guard_base *b);
/* Judge the change of P_Key pkey from before to after (either NULL) on
 * the audit's answer kept for the plan (built first when there is none
 * for this revision and operator's text optext/opc): *judged false when
 * the kept answer cannot judge it exactly (svc_guard then does), else
 * the guard's answer as svc_guard's.  The change stays applied to the
 * kept answer until svc_guard_committed. */
int svc_guard_incremental(ibp_service *s, struct ibp_service_caller *c,
			  bool removes_only, const char *optext, size_t oplen,
			  const ibp_conf *opc, uint16_t pkey,
			  const struct svc_part *before,
			  const struct svc_part *after, bool *judged,
			  struct ibp_service_error *e);
/* The change judged last was committed (as s->rev) or not (undone). */
void svc_guard_committed(ibp_service *s, bool committed);
/* A change tried on the kept answer outside the writers' lock
 * (service_guard_state.c, "Trials"): begin takes the readers' lock on
 * the kept answer and the writers' plan it holds (a reference, *snap),
 * false when there is no kept answer a change can be tried on; try
 * judges the change of pkey from before to after (from *snap) on it,
 * read-only, NULL when the kept answer cannot; end drops the lock.
 * Under the writers' lock (and guard_rw written), use applies the trial
 * when nothing it read changed since, as svc_guard_incremental would
 * judge it now (*judged), else leaves it to svc_guard_incremental. */
struct svc_guard_trial;
bool svc_guard_trial_begin(ibp_service *s, struct svc_snap **snap);
struct svc_guard_trial *svc_guard_try(ibp_service *s, const char *optext,
				      size_t oplen, const ibp_conf *opc,
				      uint16_t pkey,
				      const struct svc_part *before,
				      const struct svc_part *after);
void svc_guard_trial_end(ibp_service *s);
int svc_guard_trial_use(ibp_service *s, struct svc_guard_trial *t,
			struct ibp_service_caller *c, const char *optext,
			size_t oplen, uint16_t pkey,
			const struct svc_part *before,
			const struct svc_part *after, bool *judged,
			struct ibp_service_error *e);
void svc_guard_trial_free(struct svc_guard_trial *t);
/* Every finding of the kept answer (sorted as the audit's); IBP_ENOENT
 * when none is kept. */
int svc_guard_base_findings(const ibp_service *s, ibp_findings *out);

/* Append the findings of JSON array arr (stolen) to c->warnings (c may
 * be NULL: arr is dropped).  0, or IBP_ENOMEM. */
int svc_caller_warn(struct ibp_service_caller *c, json_t *arr);
/* IBP_OK for a NULL caller or one of a version this library reads
 * (1..IBP_SERVICE_CALLER_VERSION); else IBP_EINVAL in e, field
 * "caller" (service.c). */
int svc_caller_check(const struct ibp_service_caller *c,
		     struct ibp_service_error *e);

/* The analysis input of text (the plan) on topology t's fabric, which
 * it borrows (t must outlive it); service_guard.c.  No reader loads
 * the topology file itself. */
int svc_topology_input(const ibp_service *s, const struct svc_topology *t,
		       const char *text, size_t len, ibp_analysis_input **in,
		       ibp_error *err);
/* The same on the topology the service holds now (a reference, *t):
 * *in borrows *t's fabric; svc_held_input_free frees both (either may
 * be NULL) - the page, the views and the guard's kept answer read it. */
int svc_held_input(const ibp_service *s, const char *text, size_t len,
		   ibp_analysis_input **in, struct svc_topology **t,
		   ibp_error *err);
void svc_held_input_free(const ibp_service *s, ibp_analysis_input *in,
			 struct svc_topology *t);
/* The audit of text on topology t (held by the caller), as `ibpart
 * audit --format json` prints it. */
int svc_audit_on(const ibp_service *s, const struct svc_topology *t,
		 const char *text, size_t len, ibp_findings **out,
		 ibp_error *err);
/* The web view of text on the topology with findings (the audit's,
 * svc_audit_text) and a status line, *html malloc'd (service_web.c);
 * IBP_ENOENT without a topology. */
int svc_web_html(const ibp_service *s, const char *text, size_t len,
		 const char *status, const ibp_web_extras *more,
		 const ibp_findings *findings, char **html, size_t *hlen,
		 ibp_error *err);
/* The one audit of the service (service_views.c): text on the topology
 * with the service's opensm.conf, as `ibpart audit --opensm-conf
 * --format json`; *posture_codes (may be NULL) the rules only an
 * opensm.conf enables.  Every view of the audit is this result.
 * IBP_ENOENT without a topology. */
int svc_audit_text(const ibp_service *s, const char *text, size_t len,
		   ibp_findings **f, const char **posture_codes,
		   ibp_error *err);
/* The audit of text on the topology (service_guard.c); IBP_ENOENT
 * without a topology. */
int svc_audit(const ibp_service *s, const char *text, size_t len,
	      ibp_findings **out, ibp_error *err);

/* ---- service_render.c ---- */
/* A file time t too close to when (within its granularity: 100 ms, or a
 * second when it has no fraction) to tell a later change from none - git's
 * "racy" entry: whatever was kept by it is read again. */
bool svc_stat_racy(const struct timespec *t, const struct timespec *when);

/* ---- service_json.c: UFM's shapes ---- */
/* One P_Key's object; NULL on ENOMEM. */
json_t *svc_json_part(const struct svc_part *p, bool guids, bool qos);
/* One P_Key the operator's file defines (group g of conf). */
json_t *svc_json_operator(const ibp_conf_group *g, bool guids, bool qos);
/* Walk the members of operator group g: each(ctx, ...) for each GUID
 * member (each may be NULL); the membership of its ALL or ALL_CAS member
 * ("full", "limited"; NULL: none), as the objects above give it. */
const char *svc_operator_members(const ibp_conf_group *g,
				 void (*each)(void *ctx, uint64_t guid,
					      bool full, bool index0),
				 void *ctx);
/* 0x7fff when nobody defines it: OpenSM's implicit default. */
json_t *svc_json_default(bool guids, bool qos);
/* GET /resources/pkeys: every P_Key of plan and of the operator's conf
 * opc (NULL: none), OpenSM's default when nobody defines it, as the
 * objects above dump to, written without building them
 * (service_json_list.c); *json malloc'd.  0 or IBP_ENOMEM. */
int svc_json_list(const struct svc_plan *plan, const ibp_conf *opc, bool guids,
		  bool qos, char **json);
/* Compact text of o into *json (malloc'd); o is released.  false on
 * ENOMEM (o NULL counts as that). */
bool svc_json_take(json_t *o, char **json);
/* "0x%x" */
void svc_pkey_str(uint16_t pkey, char out[8]);

#endif
