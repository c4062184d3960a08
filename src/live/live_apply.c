/*
 * live_apply.c - the direct apply (see include/ibpart/apply.h): read,
 * plan, diff by 32-entry block, reconcile every leaf port's partition
 * enforcement (live_enforce.c), save the state, push, and say what
 * happened to each port.
 *
 * Fail closed, in this order: a running SM (its next heavy sweep would
 * undo us) refuses before anything is read; a bad plan refuses before a
 * port is touched; a plan port that cannot be read refuses the push; the
 * state is written before the first Set, so a push that stops half-way
 * can always be rolled back.  The SM itself (sm.c) writes and reads back
 * each block; this file only decides what to give it and keeps score.
 */
#include <limits.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ibpart/apply.h"
#include "live/apply_lib.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "live/live_enforce.h"
#include "live/live_json.h"
#include "live/live_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"
#include "ibpart/sys/apply.h"
#include "ibpart/sys/live.h"

struct ibp_apply {
	ibp_live *l;
	const ibp_fabric *f;
	char mode[16];
	bool rollback;
	ibp_tables *have, *want, *sub; /* sub: the ports that change */
	ibp_policy_unplaced *unplaced; /* what the plan cannot place */
	struct ibp_apply_port *ports, *unreadable;
	size_t nports, nunreadable;
	bool ran, pushed, complete;
	struct ibp_sm_report rep;
	char *state_file;
	unsigned long smps_before_push;
	struct ibp_live_counts counts;
	long elapsed_ms;
};

IBP_OPTIONS_LAYOUT(apply_options_layout, "apply options",
		   IBP_APPLY_OPTIONS_VERSION,
		   offsetof(struct ibp_apply_options, alias_guids_path),
		   sizeof(struct ibp_apply_options));

/* The library's defaults, a whole current struct. */
static void apply_options_defaults(struct ibp_apply_options *o)
{
	*o = (struct ibp_apply_options){0};
	o->version = IBP_APPLY_OPTIONS_VERSION;
	o->mode = "opensm";
}

void ibp_apply_options_init(struct ibp_apply_options *o, unsigned version)
{
	struct ibp_apply_options d;
	apply_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &apply_options_layout);
}

IBP_OPTIONS_LAYOUT(apply_run_options_layout, "apply run options",
		   IBP_APPLY_RUN_OPTIONS_VERSION,
		   offsetof(struct ibp_apply_run_options, state_default),
		   sizeof(struct ibp_apply_run_options));
IBP_RESULT_LAYOUT(apply_counts_layout, "struct ibp_apply_counts",
		  IBP_APPLY_COUNTS_VERSION, sizeof(struct ibp_apply_counts));

/* The library's defaults, a whole current struct. */
static void apply_run_options_defaults(struct ibp_apply_run_options *o)
{
	*o = (struct ibp_apply_run_options){0};
	o->version = IBP_APPLY_RUN_OPTIONS_VERSION;
}

void ibp_apply_run_options_init(struct ibp_apply_run_options *o,
				unsigned version)
{
	struct ibp_apply_run_options d;
	apply_run_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &apply_run_options_layout);
}

void ibp_apply_free(ibp_apply *a)
{
	if (!a)
		return;
	ibp_sm_report_free(&a->rep);
	free(a->state_file);
	free(a->ports);
	free(a->unreadable);
	ibp_tables_free(a->sub);
	ibp_tables_free(a->want);
	ibp_policy_unplaced_free(a->unplaced);
	ibp_tables_free(a->have);
	free(a);
}

static struct ibp_apply_port describe(const ibp_fabric *f, size_t n, unsigned p)
{
	return (struct ibp_apply_port){
	    .node = n,
	    .port = p,
	    .node_guid = ibp_fabric_node_guid(f, n),
	    .port_guid = ibp_fabric_port_guid(f, n, p),
	    .desc = ibp_fabric_node_desc(f, n),
	};
}

/* The blocks of h that differ from w, compared on h's capacity (the SM
 * writes the port's own table size).  0: none; UINT_MAX: out of memory
 * (never "nothing to change"). */
static unsigned diff_blocks(const ibp_pkey_table *h, const ibp_pkey_table *w,
			    unsigned *blocks, unsigned max)
{
	ibp_pkey_table *wc = ibp_pkey_table_new(ibp_pkey_table_capacity(h));
	if (!wc)
		return UINT_MAX;
	for (unsigned k = 0; k < ibp_pkey_table_used(w); k++)
		if (ibp_pkey_table_set(wc, k, ibp_pkey_table_get(w, k), NULL)) {
			ibp_pkey_table_free(wc);
			return UINT_MAX;
		}
	unsigned nd = ibp_pkey_table_diff_blocks(h, wc, blocks, max);
	ibp_pkey_table_free(wc);
	return nd;
}

/* One plan port: unreadable, unchanged, or to change (into a->sub). */
static int plan_port(ibp_apply *a, size_t n, unsigned p,
		     const ibp_pkey_table *w, ibp_error *err)
{
	const ibp_pkey_table *h = ibp_tables_get(a->have, n, p);
	if (!h) {
		a->unreadable[a->nunreadable++] = describe(a->f, n, p);
		return IBP_OK;
	}
	unsigned blocks[IBP_PKEY_TABLE_MAX / IBP_PKEY_BLOCK_SIZE + 1];
	unsigned nd =
	    diff_blocks(h, w, blocks, sizeof(blocks) / sizeof(*blocks));
	if (nd == UINT_MAX)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (!nd)
		return IBP_OK;
	struct ibp_apply_port *ap = &a->ports[a->nports++];
	*ap = describe(a->f, n, p);
	for (unsigned b = 0; b < nd && b < 8; b++)
		ap->blocks[ap->nblocks++] = blocks[b];
	ap->more_blocks = nd > 8;
	ibp_pkey_table *cp = ibp_pkey_table_copy(w);
	if (!cp || ibp_tables_put(a->sub, n, p, cp, err)) {
		ibp_pkey_table_free(cp);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	return IBP_OK;
}

/* Every leaf port whose enforcement bits differ from what it should
 * hold (live_enforce.c): marked on its entry when its table changes too,
 * else a port of its own, whose table (as read) goes into a->sub so the
 * SM writes no block there, only the bits. */
static int plan_enforcement(ibp_apply *a, ibp_error *err)
{
	struct live_enforce_port *ep;
	size_t n;
	int rc = live_enforce_check(a->l, a->have, a->rollback ? a->want : NULL,
				    a->unplaced, &ep, &n, err);
	/* room for every one of them besides the plan's ports */
	struct ibp_apply_port *np =
	    rc ? NULL
	       : realloc(a->ports, (a->nports + n + 1) * sizeof(*a->ports));
	if (!rc && !np)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	if (np)
		a->ports = np;
	/* which entry of a->ports each (node, port) is: O(1) per look-up */
	size_t nn = ibp_fabric_node_count(a->f);
	size_t *base = rc ? NULL : malloc((nn + 1) * sizeof(*base));
	size_t *slot = NULL;
	if (base) {
		base[0] = 0;
		for (size_t k = 0; k < nn; k++)
			base[k + 1] =
			    base[k] + ibp_fabric_node_nports(a->f, k) + 1;
		slot = malloc((base[nn] ? base[nn] : 1) * sizeof(*slot));
	}
	if (!rc && !slot)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t k = 0; !rc && k < base[nn]; k++)
		slot[k] = SIZE_MAX;
	for (size_t k = 0; !rc && k < a->nports; k++)
		slot[base[a->ports[k].node] + a->ports[k].port] = k;
	for (size_t i = 0; !rc && i < n; i++) {
		size_t k = slot[base[ep[i].node] + ep[i].port];
		struct ibp_apply_port *ap = k == SIZE_MAX ? NULL : &a->ports[k];
		/* a port pushed anyway gets the bits it should hold (not the
		 * SM's one mode: ERR 0507 wants off), one that only drifts
		 * a Set of its own */
		if (!ep[i].differs) {
			if (ap && ibp_tables_set_enforcement(
				      a->sub, ep[i].node, ep[i].port,
				      ep[i].want_in, ep[i].want_out))
				rc = ibp_error_set(err, IBP_ENOMEM,
						   "out of memory");
			continue;
		}
		/* a port between switches has no table: its bits alone */
		const ibp_pkey_table *held =
		    ibp_tables_get(a->have, ep[i].node, ep[i].port);
		if (!ap && held) {
			ibp_pkey_table *cp = ibp_pkey_table_copy(held);
			if (!cp || ibp_tables_put(a->sub, ep[i].node,
						  ep[i].port, cp, NULL)) {
				ibp_pkey_table_free(cp);
				rc = ibp_error_set(err, IBP_ENOMEM,
						   "out of memory");
				break;
			}
		}
		if (!ap) {
			ap = &a->ports[a->nports++];
			*ap = describe(a->f, ep[i].node, ep[i].port);
		}
		ap->enforce = true;
		ap->enforce_have =
		    ibp_part_enforce_from_bits(ep[i].have_in, ep[i].have_out);
		ap->enforce_want =
		    ibp_part_enforce_from_bits(ep[i].want_in, ep[i].want_out);
		if (ibp_tables_set_enforcement(a->sub, ep[i].node, ep[i].port,
					       ep[i].want_in, ep[i].want_out))
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	free(slot);
	free(base);
	free(ep);
	return rc;
}

static int plan_diff(ibp_apply *a, ibp_error *err)
{
	size_t nw = ibp_tables_count(a->want);
	a->ports = calloc(nw ? nw : 1, sizeof(*a->ports));
	a->unreadable = calloc(nw ? nw : 1, sizeof(*a->unreadable));
	a->sub = ibp_tables_new(a->f);
	if (!a->ports || !a->unreadable || !a->sub)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	for (size_t i = 0; i < nw; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *w = ibp_tables_at(a->want, i, &n, &p);
		int rc = plan_port(a, n, p, w, err);
		if (rc)
			return rc;
	}
	return plan_enforcement(a, err);
}

static int make_want(ibp_apply *a, const struct ibp_apply_options *o,
		     ibp_diags *diags, ibp_error *err)
{
	if (o->rollback) {
		int rc = ibp_state_load_limit(
		    a->f, o->rollback, o->max_input_size, false, &a->want, err);
		if (rc && rc != IBP_ENOMEM && rc != IBP_EPARSE)
			rc = IBP_EINVAL;
		return rc;
	}
	int enf = ibp_live_enforce(a->l);
	a->unplaced = ibp_policy_unplaced_new();
	if (!a->unplaced)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	struct ibp_live_plan_options po = {
	    .conf_path = o->conf_path,
	    .mode = a->mode,
	    .sm_port_guid = ibp_live_sm_port_guid(a->l),
	    .allow_both_pkeys = o->allow_both_pkeys,
	    .previous = a->have,
	    .compact_pkey_indexes = o->compact_pkey_indexes,
	    .fail_closed = true,
	    .max_input_size = o->max_input_size,
	    .part_enforce = enf < 0 ? IBP_ENFORCE_BOTH : (ibp_part_enforce)enf,
	    .unplaced = a->unplaced,
	    .alias_guids_path = o->alias_guids_path,
	    .vf_guids = o->vf_guids,
	};
	int rc = ibp_live_plan(&po, a->f, &a->want, NULL, diags, err);
	if (rc && rc != IBP_ENOMEM && rc != IBP_EPARSE)
		rc = IBP_EINVAL; /* the plan is input, not the fabric */
	if (err && rc)
		err->status = rc;
	return rc;
}

int ibp_apply_plan(ibp_live *l, const struct ibp_apply_options *o,
		   ibp_apply **out, ibp_diags *diags, ibp_error *err)
{
	*out = NULL;
	struct ibp_apply_options own;
	apply_options_defaults(&own);
	if (ibp_options_take(&own, o, &apply_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	if (!o->conf_path == !o->rollback)
		return ibp_error_set(err, IBP_EINVAL,
				     "give a plan or a state to roll back to");
	if (ibp_live_sm_running(l) && !o->force && !ibp_live_dry_run(l))
		return ibp_error_set(
		    err, IBP_EINVAL,
		    "an SM is running on port 0x%016llx (the local port's "
		    "MasterSMLID, IsSM set; or a MasterSMLID that does not "
		    "answer, so one may be): it would put its own tables "
		    "back at its next heavy sweep.  Use --via-opensm to "
		    "hand it the plan, or --force to push anyway; nothing "
		    "was changed",
		    (unsigned long long)ibp_live_sm_port_guid(l));
	ibp_apply *a = calloc(1, sizeof(*a));
	if (!a)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	a->l = l;
	a->f = ibp_live_fabric(l);
	a->rollback = o->rollback != NULL;
	snprintf(a->mode, sizeof(a->mode), "%s",
		 a->rollback ? "rollback" : (o->mode ? o->mode : "opensm"));
	int rc = ibp_live_read_tables(l, &a->have, err);
	if (rc == IBP_EINVAL || rc == IBP_EPARSE) {
		rc = IBP_EIO; /* the fabric's, not the input's */
		if (err)
			err->status = rc;
	}
	if (!rc) /* nodes the discovery left out */
		rc = ibp_live_discovery_findings(l, diags, err);
	if (!rc)
		rc = make_want(a, o, diags, err);
	if (!rc)
		rc = plan_diff(a, err);
	if (rc) {
		ibp_apply_free(a);
		return rc;
	}
	*out = a;
	return IBP_OK;
}

const ibp_tables *ibp_apply_want(const ibp_apply *a)
{
	return a->want;
}

size_t ibp_apply_port_count(const ibp_apply *a)
{
	return a->nports;
}

const struct ibp_apply_port *ibp_apply_port_at(const ibp_apply *a, size_t i)
{
	return i < a->nports ? &a->ports[i] : NULL;
}

size_t ibp_apply_unreadable_count(const ibp_apply *a)
{
	return a->nunreadable;
}

const struct ibp_apply_port *ibp_apply_unreadable_at(const ibp_apply *a,
						     size_t i)
{
	return i < a->nunreadable ? &a->unreadable[i] : NULL;
}

bool ibp_apply_is_rollback(const ibp_apply *a)
{
	return a->rollback;
}

/* Port (n, p) as read, table and enforcement bits, into saved (once). */
static bool save_port(ibp_apply *a, ibp_tables *saved, size_t n, unsigned p)
{
	if (ibp_tables_get(saved, n, p))
		return true;
	ibp_pkey_table *cp = ibp_pkey_table_copy(ibp_tables_get(a->have, n, p));
	if (!cp || ibp_tables_put(saved, n, p, cp, NULL)) {
		ibp_pkey_table_free(cp);
		return false;
	}
	bool in, out;
	return !ibp_tables_get_enforcement(a->have, n, p, &in, &out) ||
	       !ibp_tables_set_enforcement(saved, n, p, in, out);
}

/* The tables the plan's ports held, and the leaf ports whose enforcement
 * changes, with their enforcement bits. */
static int save_state(ibp_apply *a, const char *path, ibp_error *err)
{
	/* every port's table, or no state file at all: a partial one
	 * could not roll those ports back */
	ibp_tables *saved = ibp_tables_new(a->f);
	bool oom = !saved;
	const ibp_tables *from[] = {a->want, a->sub};
	for (size_t k = 0; k < 2 && !oom; k++)
		for (size_t i = 0; !oom && i < ibp_tables_count(from[k]); i++) {
			size_t n;
			unsigned p;
			ibp_tables_at(from[k], i, &n, &p);
			oom = !save_port(a, saved, n, p);
		}
	int rc = !oom ? ibp_state_save(saved, path, err)
		      : ibp_error_set(err, IBP_ENOMEM,
				      "out of memory saving the state; "
				      "nothing was changed");
	ibp_tables_free(saved);
	if (rc)
		return rc;
	a->state_file = strdup(path);
	if (!a->state_file)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_live_progress(a->l, "saved the tables read to %s", path);
	return IBP_OK;
}

static bool in_list(const struct ibp_sm_port *list, size_t n, uint64_t ng,
		    unsigned port)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].node_guid == ng && list[i].port == port)
			return true;
	return false;
}

/* Each planned port's state from the SM's report. */
static void score(ibp_apply *a)
{
	for (size_t i = 0; i < a->nports; i++) {
		struct ibp_apply_port *p = &a->ports[i];
		if (in_list(a->rep.changed, a->rep.nchanged, p->node_guid,
			    p->port))
			p->state = IBP_APPLY_CHANGED;
		else if (in_list(a->rep.failed, a->rep.nfailed, p->node_guid,
				 p->port))
			p->state = IBP_APPLY_FAILED;
		else
			p->state = IBP_APPLY_NOT_REACHED;
	}
}

int ibp_apply_run(ibp_apply *a, const struct ibp_apply_run_options *o,
		  ibp_error *err)
{
	struct ibp_apply_run_options own;
	apply_run_options_defaults(&own);
	if (ibp_options_take(&own, o, &apply_run_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	if (a->ran)
		return ibp_error_set(err, IBP_EINVAL, "already run");
	if (ibp_live_dry_run(a->l))
		return ibp_error_set(err, IBP_EINVAL,
				     "a dry-run session sends no Set");
	if (a->nunreadable)
		return ibp_error_set(err, IBP_EIO,
				     "%zu port(s) of the plan cannot be "
				     "read; nothing was changed",
				     a->nunreadable);
	char buf[4096];
	const char *state = o ? o->state_path : NULL;
	if (!state && o && o->state_default && !a->rollback) {
		int rc =
		    ibp_state_default_path(o->state_dir, buf, sizeof(buf), err);
		if (rc)
			return rc;
		state = buf;
	}
	a->ran = true;
	if (state && (a->nports || o->state_always)) {
		int rc = save_state(a, state, err);
		if (rc)
			return rc;
	}
	struct ibp_live_counts c;
	ibp_live_counts_get(a->l, &c);
	a->smps_before_push = c.smps;
	a->pushed = true;
	int rc = IBP_OK;
	if (a->nports) {
		ibp_live_progress(a->l, "pushing %zu port(s) ...", a->nports);
		rc = ibp_live_cancelled(a->l)
			 ? ibp_error_set(err, IBP_ECANCELED, "cancelled")
			 : ibp_sm_push(ibp_live_sm(a->l), a->sub, &a->rep, err);
	} else {
		a->rep.complete = true;
	}
	a->complete = rc == IBP_OK && a->rep.complete;
	score(a);
	ibp_live_counts_get(a->l, &a->counts);
	a->elapsed_ms = ibp_live_elapsed_ms(a->l);
	return rc;
}

bool ibp_apply_complete(const ibp_apply *a)
{
	return a->complete;
}

bool ibp_apply_pushed(const ibp_apply *a)
{
	return a->pushed;
}

const struct ibp_sm_report *ibp_apply_report(const ibp_apply *a)
{
	return &a->rep;
}

size_t ibp_apply_ports_changed(const ibp_apply *a, size_t *failed)
{
	if (failed)
		*failed = a->rep.nfailed;
	return a->rep.nchanged;
}

const char *ibp_apply_state_file(const ibp_apply *a)
{
	return a->state_file;
}

size_t ibp_apply_not_reached_count(const ibp_apply *a)
{
	size_t n = 0;
	for (size_t i = 0; i < a->nports; i++)
		n += a->ports[i].state == IBP_APPLY_NOT_REACHED;
	return n;
}

int ibp_apply_counts_get(const ibp_apply *a, struct ibp_apply_counts *out,
			 ibp_error *err)
{
	if (ibp_result_check(out, &apply_counts_layout, err))
		return IBP_EINVAL;
	if (!a)
		return ibp_error_set(err, IBP_EINVAL, "no apply");
	struct ibp_apply_counts c = {
	    .version = IBP_APPLY_COUNTS_VERSION,
	    .smps = a->counts.smps,
	    .smps_set = a->rep.blocks_written + a->rep.enforce_ports,
	    .smps_push = a->counts.smps - a->smps_before_push,
	    .smps_discover = a->counts.smps_discover,
	    .smps_read = a->counts.smps_read,
	    .timeouts = a->rep.timeouts,
	    .retries = a->rep.retries,
	    .timeouts_total = a->counts.timeouts,
	    .enforce_ports = a->rep.enforce_ports,
	    .enforce_unsupported = a->rep.enforce_unsupported,
	    .elapsed_ms = a->elapsed_ms,
	};
	ibp_result_give(out, &c, &apply_counts_layout);
	return IBP_OK;
}

static json_t *ports_json(const ibp_apply *a)
{
	json_t *ch = json_array(), *fa = json_array(), *nr = json_array();
	const struct ibp_sm_report *r = &a->rep;
	for (size_t i = 0; i < r->nchanged; i++)
		json_array_append_new(ch,
				      live_json_port(r->changed[i].port_guid,
						     r->changed[i].port,
						     r->changed[i].desc, NULL));
	for (size_t i = 0; i < r->nfailed; i++)
		json_array_append_new(fa, live_json_port(r->failed[i].port_guid,
							 r->failed[i].port,
							 r->failed[i].desc,
							 r->failed[i].why));
	for (size_t i = 0; i < a->nports; i++) {
		const struct ibp_apply_port *p = &a->ports[i];
		if (p->state != IBP_APPLY_NOT_REACHED)
			continue;
		json_array_append_new(
		    nr,
		    live_json_port(p->port_guid ? p->port_guid : p->node_guid,
				   p->port, p->desc, NULL));
	}
	json_t *o = json_object();
	json_object_set_new(o, "ports_changed", ch);
	json_object_set_new(o, "ports_failed", fa);
	json_object_set_new(o, "ports_not_reached", nr);
	return o;
}

char *ibp_apply_json(const ibp_apply *a)
{
	struct ibp_apply_counts c = {.version = IBP_APPLY_COUNTS_VERSION};
	ibp_apply_counts_get(a, &c, NULL);
	json_t *root = json_pack(
	    "{s:s, s:b, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "mode",
	    a->mode, "complete", a->complete, "dry_run", 0, "ports_planned",
	    (int)a->nports, "smps", (int)c.smps, "smps_set", (int)c.smps_set,
	    "smps_push", (int)c.smps_push, "timeouts", (int)c.timeouts,
	    "retries", (int)c.retries, "elapsed_ms", (int)c.elapsed_ms);
	if (!root)
		return NULL;
	json_object_set_new(root, "enforce_ports",
			    json_integer((json_int_t)c.enforce_ports));
	json_object_set_new(root, "enforce_unsupported",
			    json_integer((json_int_t)c.enforce_unsupported));
	json_object_set_new(root, "smps_discover",
			    json_integer((json_int_t)c.smps_discover));
	json_object_set_new(root, "smps_read",
			    json_integer((json_int_t)c.smps_read));
	json_object_set_new(root, "timeouts_total",
			    json_integer((json_int_t)c.timeouts_total));
	json_t *pj = ports_json(a);
	json_object_update(root, pj);
	json_decref(pj);
	if (a->state_file && a->nports)
		json_object_set_new(root, "state_file",
				    json_string(a->state_file));
	char *s = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	return s;
}
