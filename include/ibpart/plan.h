/*
 * plan.h - a partition plan read the way `ibpart check` and `ibpart
 * convert` read it, in one call: the fabric it is checked against (a
 * topology with its node-name-map, optional: node names resolve and
 * GUIDs are checked only with one), then the plan (conf.h) parsed against
 * it, with the findings of each kept apart so a front end can show the
 * topology's before it decides what to do with the plan's.
 *
 * Thread safety: no mutable global state; distinct reads may run at
 * once.  Nothing is written to stdout or stderr: findings go to the
 * caller's ibp_diags and the result's, the failure to its ibp_error.
 */
#ifndef IBPART_PLAN_H
#define IBPART_PLAN_H

#include <stddef.h>

#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/export.h"
#include "ibpart/topo.h"

IBP_BEGIN_DECLS

#define IBP_PLAN_READ_OPTIONS_VERSION 1
/* What to read.  Initialise with ibp_plan_read_options_init(). */
typedef struct ibp_plan_read_options {
	unsigned version;	   /* IBP_PLAN_READ_OPTIONS_VERSION */
	const char *topology_path; /* NULL: no fabric */
	const char *node_name_map; /* rdma-core node-name-map, may be NULL */
	const char *plan_path;	   /* partitions.conf or the seed's block */
	/* How to read it (its own version, ibp_conf_options_init; NULL:
	 * the defaults); its fabric is ignored (the loaded one is used).
	 * A pointer, not the struct: a newer conf struct would move the
	 * fields after it. */
	const ibp_conf_options *conf;
	/* Read at most this many bytes of each input (0: limits.h's
	 * defaults); conf->max_input_size, when set, wins for the plan. */
	size_t max_input_size;
} ibp_plan_read_options;

/* Fill o with the defaults: nothing to read, conf NULL
 * (ibp_conf_options_init()'s reading).  o must not be NULL. */
void ibp_plan_read_options_init(ibp_plan_read_options *o, unsigned version);

/* A plan read: the fabric (NULL without a topology), the parsed plan and
 * its findings sorted by position.  All owned; ibp_plan_clear() frees
 * them.  The caller allocates it with its version set,
 * `ibp_plan p = {.version = IBP_PLAN_VERSION};` (export.h: the library
 * fills only the fields that version has). */
#define IBP_PLAN_VERSION 1
typedef struct ibp_plan {
	unsigned version; /* IBP_PLAN_VERSION, set by the caller */
	ibp_fabric *fabric;
	ibp_conf *conf;
	ibp_diags *diags;
} ibp_plan;

/* Read o->topology_path (when given) and then o->plan_path against it
 * into *out (zeroed first but for its version).  The topology's findings,
 * sorted, are appended to topo_diags (may be NULL); the plan's are in
 * out->diags. A plan with errors is no failure: they are findings.  Errors
 * (*out then left empty; err says why): the topology does not load: its status
 * (IBP_EPARSE, IBP_EIO, IBP_ERANGE...), err repeating its first error finding;
 *   the plan cannot be read: IBP_ENOENT,
 *       IBP_EIO, IBP_ERANGE, err naming the file;
 *   IBP_EINVAL: o or out NULL, a wrong version (of o, o->conf or
 *       out: nothing is written to *out then), no plan_path;
 *   IBP_ENOMEM. */
int ibp_plan_read(const ibp_plan_read_options *o, ibp_plan *out,
		  ibp_diags *topo_diags, ibp_error *err);

/* Free what p holds and zero it but for its version (it may be read
 * into again).  NULL, and a version this library does not fill (nothing
 * is done), are allowed. */
void ibp_plan_clear(ibp_plan *p);

IBP_END_DECLS
#endif
