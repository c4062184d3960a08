/*
 * tables_compute.c - `ibpart tables` as one operation (see
 * include/ibpart/tables_compute.h): topology, SM port and LIDs, plan,
 * state file, policy.
 */
#include <stddef.h>
#include <arpa/inet.h>
#include <string.h>
#include <unistd.h>

#include "ibpart/tables_compute.h"
#include "policy/opensm_prtn_sweep.h"
#include "pkey/pkey_table_lib.h"
#include "ibpart/tables_json.h"
#include "conf/conf_lib.h"
#include "util/diag_lib.h"
#include "pkey/index_memory_lib.h"
#include "pkey/opensm_partitions_lib.h"
#include "policy/policy_lib.h"
#include "pkey/state_file_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "util/options_version.h"
#include "util/error_lib.h"
#include "ibpart/sys/tables_compute.h"

IBP_OPTIONS_LAYOUT(tables_compute_options_layout, "tables options",
		   IBP_TABLES_COMPUTE_OPTIONS_VERSION,
		   offsetof(ibp_tables_compute_options, vf_guids),
		   sizeof(ibp_tables_compute_options));
IBP_RESULT_LAYOUT(tables_result_layout, "ibp_tables_result",
		  IBP_TABLES_RESULT_VERSION, sizeof(ibp_tables_result));

/* The library's defaults, a whole current struct. */
static void tables_compute_options_defaults(ibp_tables_compute_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_TABLES_COMPUTE_OPTIONS_VERSION;
}

void ibp_tables_compute_options_init(ibp_tables_compute_options *o,
				     unsigned version)
{
	ibp_tables_compute_options d;
	tables_compute_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &tables_compute_options_layout);
}

/* Free what a whole current result holds. */
static void tables_result_release(ibp_tables_result *r)
{
	ibp_tables_free(r->tables);
	ibp_tables_free(r->remembered);
	ibp_index_memory_free(r->memory);
	ibp_state_file_free(r->state);
	ibp_conf_free(r->conf);
	ibp_fabric_free(r->fabric);
}

void ibp_tables_result_free(ibp_tables_result *r)
{
	ibp_tables_result full;
	if (ibp_result_take(&full, sizeof(full), r, &tables_result_layout,
			    NULL))
		return;
	tables_result_release(&full);
	ibp_result_give(r, NULL, &tables_result_layout);
}

/* The topology, its findings sorted into d; the failure is its first
 * error finding. */
static int load_fabric(const ibp_tables_compute_options *o,
		       ibp_tables_result *r, ibp_diags *d, ibp_error *err)
{
	int rc = ibp_fabric_load(o->topology_path, o->fabric, &r->fabric, d);
	ibp_diags_sort(d); /* in file order, as the plan's are */
	if (!rc)
		return 0;
	for (size_t i = 0; i < ibp_diags_count(d); i++) {
		const ibp_diag *x = ibp_diags_get(d, i);
		if (x->severity == IBP_SEV_ERROR)
			return ibp_error_set_at(err, rc, x->file, x->line,
						x->col, "%s", x->message);
	}
	return ibp_error_set_at(err, rc, o->topology_path, 0, 0,
				"the topology does not load");
}

/* The SM port and the LIDs OpenSM assigns from it: LIDs need the SM
 * first, so a LID is read against the default SM's numbering. */
static int sm_port(const ibp_tables_compute_options *o, ibp_tables_result *r,
		   ibp_policy_run *po, ibp_error *err)
{
	int rc;
	if (o->sm_port) {
		size_t n;
		unsigned p;
		if ((rc = ibp_fabric_assign_lids(r->fabric, 0, err)) ||
		    (rc = ibp_fabric_resolve_port(r->fabric, o->sm_port, &n, &p,
						  err)))
			return rc;
		po->sm_port_guid = ibp_fabric_port_guid(r->fabric, n, p);
	}
	if ((rc = ibp_policy_sm_port(r->fabric, po, &r->sm_port_guid, err)))
		return rc;
	return ibp_fabric_assign_lids(r->fabric, r->sm_port_guid, err);
}

/* The plan, read as the policy will apply it - by a running OpenSM
 * (the state records one), with the partitions it still holds.  Its own
 * findings are not reported, but for those that say the plan means
 * something else to this OpenSM than to a fresh one, and those that say
 * which of its GUIDs OpenSM skips (conf_guids.c), which go to out. */
static int read_plan(const ibp_tables_compute_options *o, ibp_tables_result *r,
		     const ibp_policy_run *po, bool vports, ibp_diags *out,
		     ibp_error *err)
{
	ibp_conf_options co;
	ibp_conf_options_init(&co, IBP_CONF_OPTIONS_VERSION);
	co.fabric = r->fabric;
	co.alias_guids_path = o->alias_guids_path;
	co.vf_guids = o->vf_guids;
	co.vports = vports;
	co.allow_both_pkeys = po->allow_both_pkeys;
	co.max_input_size = o->max_input_size;
	ibp_state_opensm so;
	if (r->state && ibp_state_file_opensm(r->state, &so))
		co.opensm_partitions = ibp_state_file_partitions(r->state);
	ibp_diags *d = ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = o->plan_text
		     ? ibp_conf_parse_buffer(
			   o->plan_path ? o->plan_path : "<plan>", o->plan_text,
			   o->plan_len, &co, &r->conf, d, err)
		     : ibp_conf_parse_file(o->plan_path, &co, &r->conf, d, err);
	for (size_t i = 0; !rc && i < ibp_diags_count(d); i++) {
		const ibp_diag *x = ibp_diags_get(d, i);
		if (strcmp(x->code, "opensm-earlier-partition") &&
		    strcmp(x->code, "guid-unknown") &&
		    strcmp(x->code, "guid-alias-ignored") &&
		    strcmp(x->code, "guid-alias-physical") &&
		    strcmp(x->code, "vf-physical-full") &&
		    strcmp(x->code, "vport-unmodelled"))
			continue;
		if (ibp_diags_add(out, x->severity, x->code, x->file, x->line,
				  x->col, "%s", x->message))
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
		r->nfound += x->severity != IBP_SEV_NOTE;
	}
	ibp_diags_free(d);
	return rc;
}

/* The state the run starts from: the file, or a fresh fabric under a
 * fresh OpenSM (nothing remembered) when it does not exist yet. */
static int read_state(const ibp_tables_compute_options *o, ibp_tables_result *r,
		      ibp_error *err)
{
	if (!o->state_path)
		return 0;
	if (access(o->state_path, F_OK) != 0) {
		r->state = ibp_state_file_new(r->fabric);
		ibp_index_memory *m = ibp_index_memory_new(r->fabric);
		if (!r->state || !m) {
			ibp_index_memory_free(m);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		ibp_state_file_set_memory(r->state, m);
		return 0;
	}
	ibp_state_read_options so;
	ibp_state_read_options_init(&so);
	so.max_input_size = o->max_input_size;
	int rc =
	    ibp_state_file_read(r->fabric, o->state_path, &so, &r->state, err);
	if (rc || ibp_state_file_memory(r->state))
		return rc;
	/* a state that says nothing of OpenSM (`apply --state`): a fresh
	 * OpenSM, which finds the tables as they are */
	ibp_index_memory *m = ibp_index_memory_new(r->fabric);
	if (!m)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	ibp_state_file_set_memory(r->state, m);
	return 0;
}

/* The OpenSM options of this run.  A state that records them is a
 * running OpenSM: allow_both_pkeys (read at start only) stays, a SIGHUP
 * re-reads the others from the opensm.conf where it has them.  Without
 * one this run is OpenSM's start.  Flags the caller gives win. */
static int osm_options(const ibp_tables_compute_options *o,
		       ibp_tables_result *r, ibp_policy_run *po, bool *vports,
		       ibp_diags *d, ibp_error *err)
{
	ibp_state_opensm so = {po->allow_both_pkeys, po->compact_pkey_indexes,
			       po->part_enforce, false};
	bool running = r->state && ibp_state_file_opensm(r->state, &so);
	if (o->opensm_conf_path) {
		ibp_osm_conf c = {.version = IBP_OSM_CONF_VERSION};
		int rc =
		    ibp_osm_conf_load_diags(o->opensm_conf_path, &c, d, err);
		if (rc)
			return rc;
		*vports = c.virt_enabled == 2; /* NVIDIA's virtualization */
		if (!running) {
			so.allow_both_pkeys = c.allow_both_pkeys;
			so.compact_pkey_indexes = !c.keep_pkey_indexes;
			so.part_enforce = c.part_enforce;
			so.no_partition_enforcement =
			    c.no_partition_enforcement;
		} else {
			if (c.have_keep_pkey_indexes)
				so.compact_pkey_indexes = !c.keep_pkey_indexes;
			if (c.have_part_enforce)
				so.part_enforce = c.part_enforce;
			if (c.have_no_partition_enforcement)
				so.no_partition_enforcement =
				    c.no_partition_enforcement;
		}
	}
	if (o->allow_both_pkeys_given)
		so.allow_both_pkeys = po->allow_both_pkeys;
	if (o->compact_pkey_indexes_given)
		so.compact_pkey_indexes = po->compact_pkey_indexes;
	if (o->part_enforce_given) {
		so.part_enforce = po->part_enforce;
		so.no_partition_enforcement = false;
	}
	/* OpenSM's check of its options writes "off" into the part_enforce
	 * string it shares with what it read from the file: that string
	 * stays "off" once no_partition_enforcement was TRUE, until a
	 * part_enforce line reads another value (docs/opensm-behaviour.md,
	 * rule 26a) */
	if (so.no_partition_enforcement)
		so.part_enforce = IBP_ENFORCE_OFF;
	r->opensm = so;
	po->allow_both_pkeys = so.allow_both_pkeys;
	po->compact_pkey_indexes = so.compact_pkey_indexes;
	po->part_enforce =
	    so.no_partition_enforcement ? IBP_ENFORCE_OFF : so.part_enforce;
	return 0;
}

/* The state after the run: the tables programmed now over those the
 * ports held (a port not programmed keeps its table: a card that left
 * the fabric for a sweep still holds it), OpenSM's memory, options. */
static int next_state(ibp_policy_mode mode, ibp_tables_result *r,
		      const ibp_osm_partitions *prtns, bool dead,
		      ibp_error *err)
{
	ibp_state_file *s = r->state;
	ibp_tables *t = ibp_state_file_tables_mut(s);
	size_t cnt = ibp_tables_count(r->tables);
	int rc = 0;
	for (size_t i = 0; i < cnt && !rc; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *pt = ibp_tables_at(r->tables, i, &n, &p);
		ibp_pkey_table *c = ibp_pkey_table_copy(pt);
		if (!c || (rc = ibp_tables_put(t, n, p, c, NULL))) {
			ibp_pkey_table_free(c);
			rc = IBP_ENOMEM;
		}
	}
	ibp_index_memory *m = rc ? NULL : ibp_index_memory_copy(r->memory);
	if (!rc && !m)
		rc = IBP_ENOMEM;
	if (!rc) {
		ibp_state_file_set_memory(s, m);
		/* an OpenSM that died runs no more: the next is a fresh one */
		ibp_state_file_set_opensm(s, dead ? NULL : &r->opensm);
		rc = ibp_state_file_set_partitions(s, dead ? NULL : prtns);
	}
	if (!rc) {
		ibp_state_file_set_sm_port(s, r->sm_port_guid);
		rc = ibp_state_file_set_mode(s, ibp_policy_mode_str(mode));
	}
	return rc ? ibp_error_set(err, rc, "out of memory") : 0;
}

/* After the policy of a --state run: the old one-P_Key-per-index view
 * of what OpenSM remembers, for existing callers, and the next state. */
static int place_state(ibp_tables_result *r, ibp_policy_run *po,
		       const ibp_osm_partitions *prtns, bool dead,
		       ibp_error *err)
{
	r->remembered = ibp_tables_new(r->fabric);
	if (!r->remembered)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t nn = ibp_fabric_node_count(r->fabric);
	for (size_t n = 0; n < nn; n++) {
		unsigned np = ibp_fabric_node_nports(r->fabric, n);
		for (unsigned p = 0; p <= np; p++) {
			size_t k = ibp_index_memory_size(r->memory, n, p);
			if (!ibp_index_memory_has_port(r->memory, n, p))
				continue;
			ibp_pkey_table *t =
			    ibp_tables_get_or_create(r->remembered, n, p);
			if (!t)
				return ibp_error_set(err, IBP_ENOMEM,
						     "out of memory");
			for (size_t i = 0; i < k; i++) {
				uint16_t key = 0;
				unsigned idx = 0;
				ibp_index_memory_entry(r->memory, n, p, i, &key,
						       &idx);
				if (idx < ibp_pkey_table_capacity(t) &&
				    !ibp_pkey_table_get(t, idx) &&
				    ibp_pkey_table_set(t, idx, key, NULL))
					return ibp_error_set(err, IBP_ENOMEM,
							     "out of memory");
			}
		}
	}
	/* previous borrowed the state's tables, which next_state changes */
	po->previous = NULL;
	po->memory = NULL;
	return next_state(po->mode, r, prtns, dead, err);
}

/* OpenSM's partition objects through this sweep (opensm_prtn_sweep.h),
 * from those the state says the running OpenSM holds.  When the sweep
 * kills OpenSM: the finding, and the tables are those the ports held
 * (it dies before programming any), OpenSM remembering nothing. */
static int sweep_partitions(const ibp_tables_compute_options *o,
			    ibp_tables_result *r,
			    const ibp_osm_partitions *kept,
			    ibp_osm_partitions *after, bool *dead, ibp_diags *d,
			    ibp_error *err)
{
	ibp_state_opensm so;
	const ibp_osm_partitions *before =
	    ibp_state_file_opensm(r->state, &so)
		? ibp_state_file_partitions(r->state)
		: NULL;
	ibp_osm_crash c;
	int rc = ibp_osm_partitions_sweep(before, r->conf, kept, after, &c);
	*dead = c.crash;
	if (rc || !c.crash)
		return rc ? ibp_error_set(err, rc, "out of memory") : 0;
	char g[INET6_ADDRSTRLEN] = "?";
	inet_ntop(AF_INET6, c.mgid, g, sizeof(g));
	ibp_diags_add(d, IBP_SEV_ERROR, "opensm-crash", o->plan_path, 0, 0,
		      "OpenSM deletes partition '%s' (0x%04x), emptied by this "
		      "plan, which still points at multicast group %s that "
		      "OpenSM freed when it deleted another partition tracking "
		      "it: OpenSM 3.3.23 reads freed memory and dies "
		      "(segfault) before it programs any table, so every port "
		      "keeps the table it holds (shown); restart OpenSM",
		      c.name, c.pkey, g);
	r->nfound++;
	/* the ports this sweep would have programmed, as they are: what
	 * they held, or nothing listed when they were never programmed */
	const ibp_tables *st = ibp_state_file_tables(r->state);
	ibp_tables *held = ibp_tables_new(r->fabric);
	ibp_index_memory *none = ibp_index_memory_new(r->fabric);
	size_t cnt = ibp_tables_count(r->tables);
	for (size_t i = 0; held && none && i < cnt; i++) {
		size_t n;
		unsigned p;
		ibp_tables_at(r->tables, i, &n, &p);
		const ibp_pkey_table *t = ibp_tables_get(st, n, p);
		ibp_pkey_table *tc = t ? ibp_pkey_table_copy(t) : NULL;
		if (t && (!tc || ibp_tables_put(held, n, p, tc, NULL))) {
			ibp_pkey_table_free(tc);
			ibp_tables_free(held);
			held = NULL;
		}
	}
	if (!held || !none) {
		ibp_tables_free(held);
		ibp_index_memory_free(none);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	ibp_tables_free(r->tables);
	r->tables = held;
	ibp_index_memory_free(r->memory);
	r->memory = none;
	return 0;
}

/* The policy, its findings into d and counted; with a state, the
 * partition objects OpenSM keeps go into the next one. */
static int place(const ibp_tables_compute_options *o, ibp_tables_result *r,
		 ibp_policy_run *po, ibp_diags *d, ibp_error *err)
{
	if (r->state) {
		po->previous = ibp_state_file_tables(r->state);
		po->memory = ibp_state_file_memory(r->state);
	}
	size_t before = ibp_diags_count_severity(d, IBP_SEV_WARNING) +
			ibp_diags_count_severity(d, IBP_SEV_ERROR);
	ibp_osm_partitions prtns;
	ibp_osm_partitions_init(&prtns);
	if (r->state)
		po->partitions_out = &prtns;
	int rc =
	    ibp_policy_compute_memory(r->conf, r->fabric, po, &r->tables,
				      r->state ? &r->memory : NULL, d, err);
	po->partitions_out = NULL;
	r->nfound += ibp_diags_count_severity(d, IBP_SEV_WARNING) +
		     ibp_diags_count_severity(d, IBP_SEV_ERROR) - before;
	ibp_osm_partitions after;
	ibp_osm_partitions_init(&after);
	bool dead = false;
	if (!rc && r->state && po->mode == IBP_POLICY_OPENSM)
		rc = sweep_partitions(o, r, &prtns, &after, &dead, d, err);
	if (!rc && r->state)
		rc = place_state(
		    r, po, po->mode == IBP_POLICY_OPENSM ? &after : &prtns,
		    dead, err);
	ibp_osm_partitions_clear(&after);
	ibp_osm_partitions_clear(&prtns);
	return rc;
}

int ibp_tables_result_write_state(const ibp_tables_result *r, const char *path,
				  ibp_error *err)
{
	ibp_tables_result full;
	if (ibp_result_take(&full, sizeof(full), r, &tables_result_layout, err))
		return IBP_EINVAL;
	if (!full.state)
		return ibp_error_set(err, IBP_EINVAL, "no state to write");
	return ibp_state_file_write(full.state, path, err);
}

static int compute(const ibp_tables_compute_options *o, ibp_tables_result *out,
		   ibp_diags *diags, ibp_error *err);

int ibp_tables_compute(const ibp_tables_compute_options *o,
		       ibp_tables_result *caller, ibp_diags *diags,
		       ibp_error *err)
{
	if (ibp_result_check(caller, &tables_result_layout, err))
		return IBP_EINVAL;
	/* the library's own whole result, given as far as the caller's
	 * version goes (a failure's too: the caller frees it) */
	ibp_tables_result r = {.version = IBP_TABLES_RESULT_VERSION};
	int rc = compute(o, &r, diags, err);
	ibp_result_give(caller, &r, &tables_result_layout);
	return rc;
}

static int compute(const ibp_tables_compute_options *o, ibp_tables_result *out,
		   ibp_diags *diags, ibp_error *err)
{
	ibp_tables_compute_options own;
	tables_compute_options_defaults(&own);
	if (ibp_options_take(&own, o, &tables_compute_options_layout, err))
		return IBP_EINVAL;
	/* the caller's policy options, as far as their version goes; the
	 * SM port, the tables held, what OpenSM remembers and the records
	 * are this operation's to set */
	ibp_policy_run po;
	if (ibp_policy_options_take(&po, own.policy, err))
		return IBP_EINVAL;
	own.policy = NULL;
	o = &own;
	if (!o->topology_path || !(o->plan_path || o->plan_text))
		return ibp_error_set(err, IBP_EINVAL,
				     "a topology and a plan are required");
	ibp_diags *d = diags ? diags : ibp_diags_new();
	if (!d)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = load_fabric(o, out, d, err);
	if (!rc)
		rc = sm_port(o, out, &po, err);
	if (!rc)
		rc = read_state(o, out, err);
	size_t before = ibp_diags_count_severity(d, IBP_SEV_WARNING);
	bool vports = false;
	if (!rc)
		rc = osm_options(o, out, &po, &vports, d, err);
	out->nfound = ibp_diags_count_severity(d, IBP_SEV_WARNING) - before;
	if (!rc)
		rc = read_plan(o, out, &po, vports, d, err);
	if (!rc)
		rc = place(o, out, &po, d, err);
	if (d != diags)
		ibp_diags_free(d);
	return rc;
}
