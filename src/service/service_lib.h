/*
 * service_lib.h - the library's own half of ibpart/sys/service.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/sys/service.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_SERVICE_SERVICE_LIB_H
#define IBPART_SERVICE_SERVICE_LIB_H

#include "ibpart/sys/service.h"

/* Validate body (len bytes of JSON) for op and make the change: one
 * transaction, a new revision in *rev (may be NULL; unchanged when the
 * change changes nothing, e.g. removing a GUID that is not a member).
 * IBP_EINVAL with e->field for bad input (nothing changed); a conflict
 * for what the guard or an operator's P_Key refuses; IBP_EIO when the
 * database fails (nothing changed). */
int ibp_service_change(ibp_service *s, ibp_service_op op, const char *body,
		       size_t len, uint64_t *rev, struct ibp_service_error *e);

/* For tests: hook(arg) is called by each change once it is judged by
 * the isolation guard: while it is tried on the kept answer, with no
 * lock but the kept answer's readers' one (several changes at once), or
 * judged with the service's lock dropped and its writers' lock held
 * (docs/ibpartd.md, "Concurrency"); a hook that blocks holds the change
 * there.  NULL: none.  Set before the changes start. */
void ibp_service_set_guard_hook(ibp_service *s, void (*hook)(void *),
				void *arg);

/* For tests: whole true has every change judged by the whole-plan
 * guard (service_guard.c) instead of the kept answer
 * (service_guard_state.c), so that the two can be compared; the
 * changes each judged so far into *fast and *whole (either may be
 * NULL).  Set before the changes start. */
void ibp_service_set_guard_whole(ibp_service *s, bool whole);
void ibp_service_guard_counts(ibp_service *s, uint64_t *fast, uint64_t *whole);
/* For tests and the status: the changes judged outside the writers'
 * lock and applied as tried, and those judged again under it because
 * a change they could interact with went first (either may be NULL). */
void ibp_service_guard_trials(ibp_service *s, uint64_t *applied,
			      uint64_t *rejudged);

/* POST /resources/pkeys/hosts {"hosts_names", "pkey", "ip_over_ib"?,
 * "index0"?, "membership"?} (UFM's Slurm integration): hosts_names is a
 * Slurm host list ("node[01-04],gpu7"), each host every port of the
 * topology's CAs whose NodeDescription's first word it is; then the
 * add of IBP_SERVICE_ADD_GUIDS with those GUIDs.  Hosts the topology
 * does not have are left out and reported (an "unknown-host" warning)
 * as long as one host is known; IBP_EINVAL (field "hosts_names") for a
 * list that does not parse, no known host, or no topology; otherwise as
 * ibp_service_change.  (service_hosts.c) */
int ibp_service_add_hosts(ibp_service *s, const char *body, size_t len,
			  uint64_t *rev, struct ibp_service_error *e);

/* GET /: the web view (`ibpart matrix --format html`, docs/matrix.md)
 * of the current plan (the file the newest revision renders) on the
 * topology, with its audit findings and the revisions in the database
 * and on the fabric as its status line; *html malloc'd, *len its
 * length.  IBP_ENOENT without a topology. */
int ibp_service_web_html(ibp_service *s, char **html, size_t *len,
			 ibp_error *err);

/* The posture findings alone: those of the audit above that only run
 * with an opensm.conf (mkey-*, smkey-default, sakey-default,
 * part-enforce-*, the NVIDIA OpenSM ones), as {"findings": [...]};
 * *json malloc'd.  IBP_ENOENT without an opensm.conf or a topology. */
int ibp_service_posture_json(ibp_service *s, char **json, ibp_error *err);

/* GET /resources/ports: the topology's CA ports and cabled switch ports
 * in UFM's shape (an array of objects with UFM's port and peer fields;
 * empty without a topology), LIDs numbered from the service's SM port;
 * *json malloc'd.  IBP_EPARSE when the topology does not load. */
int ibp_service_ports_json(ibp_service *s, char **json, ibp_error *err);

/* Does the file at path have that line (ibpartd manages it: `ibpart
 * apply --via-opensm` must not replace it)?  false when it cannot be
 * read. */
bool ibp_service_manages_file(const char *path);

/* The same on the database at db_path, while a daemon holds it (`ibpartd
 * token`): revoke token id (any user's), or every token as JSON.
 * IBP_ENOENT: no such token; IBP_EIO: the database fails. */
int ibp_service_db_token_revoke(const char *db_path, const char *id,
				ibp_error *err);
int ibp_service_db_tokens_json(const char *db_path, char **json,
			       ibp_error *err);

#endif
