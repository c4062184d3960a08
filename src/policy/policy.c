/*
 * policy.c - the partition manager (include/ibpart/policy.h): which P_Key
 * goes at which index of every port, as OpenSM 3.3.23 decides it, or by
 * the strict model.
 *
 * The work is split in three passes so that 48,000 end ports and 4,000
 * partitions stay well under a second:
 *   1. membership: for each partition (in OpenSM's visiting order) the
 *      ports it holds and how, appended to one flat list of (port, P_Key)
 *      then bucketed per port with a stable counting sort - each port's
 *      "pending" list in the order OpenSM builds it;
 *   2. placement: per port, OpenSM's index rules replayed on that list
 *      (policy_place.c), with scratch maps over the 16-bit P_Key space
 *      reset after each port;
 *   3. mirroring onto the switch external port facing each CA/router port.
 * The rules themselves, and the run that shows each, are in
 * docs/opensm-behaviour.md.
 */
#include <stdlib.h>
#include <string.h>

#include "ibpart/pkey.h"
#include "ibpart/policy.h"
#include "policy/policy_lib.h"
#include "policy/policy_internal.h"
#include "conf/conf_lib.h"
#include "util/diag_lib.h"
#include "pkey/index_memory_lib.h"
#include "pkey/opensm_partitions_lib.h"
#include "topo/topo_lib.h"
#include "pkey/tables_lib.h"
#include "util/progress_lib.h"
#include "ibpart/sys/topo.h"
#include "util/error_lib.h"
#include "util/options_version.h"

IBP_OPTIONS_LAYOUT(policy_options_layout, "policy options",
		   IBP_POLICY_OPTIONS_VERSION, sizeof(ibp_policy_options));

/* The library's defaults, a whole current struct. */
static void policy_options_defaults(ibp_policy_options *o)
{
	memset(o, 0, sizeof(*o));
	o->version = IBP_POLICY_OPTIONS_VERSION;
	o->mode = IBP_POLICY_OPENSM;
	o->part_enforce = IBP_ENFORCE_BOTH;
}

void ibp_policy_options_init(ibp_policy_options *o, unsigned version)
{
	ibp_policy_options d;
	policy_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &policy_options_layout);
}

void ibp_policy_run_init(ibp_policy_run *r)
{
	*r = (ibp_policy_run){.mode = IBP_POLICY_OPENSM,
			      .part_enforce = IBP_ENFORCE_BOTH};
}

int ibp_policy_options_take(ibp_policy_run *run, const ibp_policy_options *o,
			    ibp_error *err)
{
	ibp_policy_run_init(run);
	ibp_policy_options full;
	policy_options_defaults(&full);
	if (ibp_options_take(&full, o, &policy_options_layout, err))
		return IBP_EINVAL;
	run->mode = full.mode;
	run->allow_both_pkeys = full.allow_both_pkeys;
	run->part_enforce = full.part_enforce;
	run->compact_pkey_indexes = full.compact_pkey_indexes;
	run->progress = full.progress;
	return IBP_OK;
}

int ibp_policy_mode_parse(const char *s, ibp_policy_mode *out)
{
	if (s && !strcmp(s, "opensm"))
		*out = IBP_POLICY_OPENSM;
	else if (s && !strcmp(s, "strict"))
		*out = IBP_POLICY_STRICT;
	else
		return IBP_EINVAL;
	return 0;
}

const char *ibp_policy_mode_str(ibp_policy_mode m)
{
	return m == IBP_POLICY_STRICT ? "strict" : "opensm";
}

int ibp_policy_sm_port(const ibp_fabric *f, const ibp_policy_run *o,
		       uint64_t *guid, ibp_error *err)
{
	size_t n;
	unsigned p;
	if (o && o->sm_port_guid) {
		if (ibp_fabric_find_port_guid(f, o->sm_port_guid, &n, &p))
			return ibp_error_set(
			    err, IBP_ENOENT,
			    "SM port 0x%016llx is not in the "
			    "fabric",
			    (unsigned long long)o->sm_port_guid);
		*guid = o->sm_port_guid;
		return 0;
	}
	if (ibp_fabric_default_sm_port(f, &n, &p))
		return ibp_error_set(err, IBP_ENOENT,
				     "the fabric has no CA port for the SM");
	*guid = ibp_fabric_port_guid(f, n, p);
	return 0;
}

/* ---- the end ports OpenSM's discovery reaches ---- */

static bool fabric_has_lids(const ibp_fabric *f)
{
	size_t nn = ibp_fabric_node_count(f);
	for (size_t n = 0; n < nn; n++) {
		unsigned np = ibp_fabric_node_nports(f, n);
		for (unsigned p = 0; p <= np; p++)
			if (ibp_fabric_port_lid(f, n, p))
				return true;
	}
	return false;
}

static int collect_end_ports(struct pol *P)
{
	const ibp_fabric *f = P->f;
	size_t nn = ibp_fabric_node_count(f);
	bool lids = fabric_has_lids(f);
	P->node_base = malloc((nn + 1) * sizeof(*P->node_base));
	if (!P->node_base)
		return IBP_ENOMEM;
	size_t total = 0;
	for (size_t n = 0; n < nn; n++) {
		P->node_base[n] = total;
		total += ibp_fabric_node_nports(f, n) + 1;
	}
	P->node_base[nn] = total;
	P->ep_of = malloc((total ? total : 1) * sizeof(*P->ep_of));
	P->eps = malloc((total ? total : 1) * sizeof(*P->eps));
	if (!P->ep_of || !P->eps)
		return IBP_ENOMEM;
	for (size_t i = 0; i < total; i++)
		P->ep_of[i] = NO_EP;
	for (size_t n = 0; n < nn; n++) {
		ibp_node_type t = ibp_fabric_node_type(f, n);
		unsigned np = ibp_fabric_node_nports(f, n);
		for (unsigned p = 0; p <= np; p++) {
			if (!ibp_fabric_is_end_port(f, n, p))
				continue;
			uint64_t guid = ibp_fabric_port_guid(f, n, p);
			if (guid == P->sm_guid) {
				/* always programmed */
			} else if (lids) {
				/* reached from the SM: a LID, or none because
				 * the LIDs ran out - OpenSM sets P_KeyTables by
				 * directed route on every port it discovered,
				 * LID or not (docs/opensm-behaviour.md, rule
				 * 1a) */
				if (!ibp_fabric_port_lid(f, n, p) &&
				    !ibp_fabric_port_is_lidless(f, n, p))
					continue;
			} else if (t != IBP_NODE_SWITCH &&
				   !ibp_fabric_port_peer(f, n, p, NULL, NULL)) {
				continue;
			}
			struct ep *e = &P->eps[P->neps];
			memset(e, 0, sizeof(*e));
			e->node = n;
			e->port = p;
			e->guid = guid;
			e->type = t;
			e->cap = ibp_fabric_port_capacity(f, n, p);
			P->ep_of[P->node_base[n] + p] = (uint32_t)P->neps;
			P->neps++;
		}
	}
	return 0;
}

static uint32_t ep_by_guid(const struct pol *P, uint64_t guid)
{
	size_t n;
	unsigned p;
	if (!guid || ibp_fabric_find_port_guid(P->f, guid, &n, &p))
		return NO_EP;
	return P->ep_of[P->node_base[n] + p];
}

/* ---- pass 1: membership ---- */

static int push_pending(struct pol *P, uint32_t ep, uint16_t pkey, uint32_t grp)
{
	if (P->npend == P->cappend) {
		size_t nc = P->cappend ? P->cappend * 2 : 1024;
		struct pend *np = realloc(P->pend, nc * sizeof(*np));
		if (!np)
			return IBP_ENOMEM;
		P->pend = np;
		P->cappend = nc;
	}
	P->pend[P->npend].ep = ep;
	P->pend[P->npend].pkey = pkey;
	P->pend[P->npend].grp = grp;
	P->npend++;
	return 0;
}

/* How OpenSM adds a port of membership m to a partition: limited entries
 * (its part_guid_tbl) are visited before full ones, so a "both" port gets
 * the limited P_Key first.  This pushes only one of the two phases. */
static int add_member(struct pol *P, uint32_t ep, uint16_t base,
		      ibp_membership m, bool full_phase, uint32_t grp)
{
	bool lim = m == IBP_MEMB_LIMITED ||
		   (m == IBP_MEMB_BOTH && P->o.allow_both_pkeys);
	bool full = m == IBP_MEMB_FULL || m == IBP_MEMB_BOTH;
	if (full_phase && full)
		return push_pending(P, ep, (uint16_t)(base | 0x8000u), grp);
	if (!full_phase && lim)
		return push_pending(P, ep, base, grp);
	return 0;
}

static bool blanket_applies(ibp_member_kind k, ibp_node_type t)
{
	return k == IBP_MEMBER_ALL ||
	       (k == IBP_MEMBER_ALL_CAS && t == IBP_NODE_CA) ||
	       (k == IBP_MEMBER_ALL_SWITCHES && t == IBP_NODE_SWITCH) ||
	       (k == IBP_MEMBER_ALL_ROUTERS && t == IBP_NODE_ROUTER);
}

/* Which blanket words (ALL, ALL_CAS, ...) a group's lines use, as a bit
 * mask of ibp_member_kind values. */
static unsigned group_blankets(const ibp_conf_group *g)
{
	unsigned mask = 0;
	size_t np = ibp_conf_group_partition_count(g);
	for (size_t i = 0; i < np; i++) {
		const ibp_conf_partition *p = ibp_conf_group_partition(g, i);
		size_t nm = ibp_conf_partition_member_count(p);
		for (size_t j = 0; j < nm; j++) {
			ibp_member_kind k =
			    ibp_conf_partition_member(p, j)->kind;
			if (k == IBP_MEMBER_ALL || k == IBP_MEMBER_ALL_CAS ||
			    k == IBP_MEMBER_ALL_SWITCHES ||
			    k == IBP_MEMBER_ALL_ROUTERS)
				mask |= 1u << k;
		}
	}
	return mask;
}

static void take(struct pol *P, uint32_t ep, ibp_membership m)
{
	if (m == IBP_MEMB_NONE || P->memb[ep])
		return;
	P->memb[ep] = (uint8_t)m;
	P->touched[P->ntouched++] = ep;
}

/* Membership of every end port in one group (OpenSM's rules: conf.h,
 * ibp_conf_group_port_membership).  Fills P->memb[ep] for the ports it
 * lists in P->touched.  Ports named by GUID are looked up one by one; a
 * group with a blanket word (or the default partition in opensm mode,
 * which holds every port) visits every port. */
static int group_members(struct pol *P, const ibp_conf_group *g, uint16_t base)
{
	bool is_default = base == IBP_PKEY_DEFAULT_BASE;
	bool strict = P->o.mode == IBP_POLICY_STRICT;
	unsigned blankets = group_blankets(g);
	P->ntouched = 0;
	if (is_default && strict) {
		uint32_t sm = ep_by_guid(P, P->sm_guid);
		if (sm != NO_EP)
			take(P, sm, IBP_MEMB_FULL);
	}
	if (blankets || (is_default && !strict)) {
		for (uint32_t i = 0; i < P->neps; i++) {
			const struct ep *e = &P->eps[i];
			if (strict && is_default) {
				bool named = false;
				for (unsigned k = 0; k < 8 && !named; k++)
					named =
					    (blankets >> k & 1) &&
					    blanket_applies((ibp_member_kind)k,
							    e->type);
				if (!named)
					continue;
			}
			take(P, i,
			     ibp_conf_group_port_membership(g, e->guid, e->type,
							    P->sm_guid, NULL));
		}
	}
	size_t np = ibp_conf_group_partition_count(g);
	for (size_t i = 0; i < np; i++) {
		const ibp_conf_partition *p = ibp_conf_group_partition(g, i);
		size_t nm = ibp_conf_partition_member_count(p);
		for (size_t j = 0; j < nm; j++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, j);
			uint64_t guid = 0;
			if (m->kind == IBP_MEMBER_GUID ||
			    m->kind == IBP_MEMBER_NAME)
				guid = m->guid;
			else if (m->kind == IBP_MEMBER_SELF)
				guid = P->sm_guid;
			uint32_t ep = ep_by_guid(P, guid);
			if (ep == NO_EP || P->memb[ep])
				continue;
			const struct ep *e = &P->eps[ep];
			take(P, ep,
			     ibp_conf_group_port_membership(g, e->guid, e->type,
							    P->sm_guid, NULL));
		}
	}
	return 0;
}

static uint16_t bswap16(uint16_t v)
{
	return (uint16_t)((v << 8) | (v >> 8));
}

struct grp_ref {
	uint16_t base;
	int32_t conf_group; /* -1: the implicit default partition */
};

static int cmp_grp(const void *a, const void *b)
{
	const struct grp_ref *x = a, *y = b;
	uint16_t kx = bswap16(x->base), ky = bswap16(y->base);
	return kx < ky ? -1 : kx > ky;
}

/* The implicit default partition when the file has no 0x7fff line:
 * every end port limited, the SM port full (opensm); only the SM port
 * (strict).  A rejected file: every port full. */
static int implicit_default(struct pol *P)
{
	P->ntouched = 0;
	for (uint32_t i = 0; i < P->neps; i++) {
		ibp_membership m;
		if (P->fallback || P->eps[i].guid == P->sm_guid)
			m = IBP_MEMB_FULL;
		else if (P->o.mode == IBP_POLICY_STRICT)
			continue;
		else
			m = IBP_MEMB_LIMITED;
		P->memb[i] = (uint8_t)m;
		P->touched[P->ntouched++] = i;
	}
	return 0;
}

static int build_pending(struct pol *P)
{
	size_t ng = P->fallback ? 0 : ibp_conf_group_count(P->conf);
	struct grp_ref *gs = calloc(ng + 1, sizeof(*gs));
	if (!gs)
		return IBP_ENOMEM;
	size_t n = 0;
	bool have_default = false;
	for (size_t i = 0; i < ng; i++) {
		const ibp_conf_group *g = ibp_conf_group_at(P->conf, i);
		uint16_t base = ibp_pkey_base(ibp_conf_group_pkey(g));
		if (!base)
			continue;
		if (base == IBP_PKEY_DEFAULT_BASE)
			have_default = true;
		gs[n].base = base;
		gs[n].conf_group = (int32_t)i;
		n++;
	}
	if (!have_default) {
		gs[n].base = IBP_PKEY_DEFAULT_BASE;
		gs[n].conf_group = -1;
		n++;
	}
	qsort(gs, n, sizeof(*gs), cmp_grp);
	P->grp_conf = malloc(n * sizeof(*P->grp_conf));
	if (!P->grp_conf) {
		free(gs);
		return IBP_ENOMEM;
	}
	P->ngrp = n;
	int rc = 0;
	if (P->o.partitions_out)
		ibp_osm_partitions_clear(P->o.partitions_out);
	for (size_t k = 0; k < n && !rc; k++) {
		P->grp_conf[k] = gs[k].conf_group;
		const ibp_conf_group *g =
		    gs[k].conf_group < 0
			? NULL
			: ibp_conf_group_at(P->conf, (size_t)gs[k].conf_group);
		if (!g)
			rc = implicit_default(P);
		else
			rc = group_members(P, g, gs[k].base);
		/* OpenSM keeps the partition objects that got a member */
		if (!rc && P->o.partitions_out && P->ntouched)
			rc = ibp_osm_partitions_add(
			    P->o.partitions_out, gs[k].base,
			    g ? ibp_conf_group_name(g) : "Default");
		for (int phase = 0; phase < 2 && !rc; phase++)
			for (size_t t = 0; t < P->ntouched && !rc; t++) {
				uint32_t ep = P->touched[t];
				rc = add_member(P, ep, gs[k].base,
						(ibp_membership)P->memb[ep],
						phase == 1, (uint32_t)k);
			}
		for (size_t t = 0; t < P->ntouched; t++)
			P->memb[P->touched[t]] = 0;
	}
	free(gs);
	if (rc)
		return rc;
	/* bucket per port, stable */
	P->pstart = calloc(P->neps + 1, sizeof(*P->pstart));
	uint32_t *sorted = malloc((P->npend ? P->npend : 1) * sizeof(*sorted));
	if (!P->pstart || !sorted) {
		free(sorted);
		return IBP_ENOMEM;
	}
	for (size_t i = 0; i < P->npend; i++)
		P->pstart[P->pend[i].ep + 1]++;
	for (uint32_t i = 0; i < P->neps; i++)
		P->pstart[i + 1] += P->pstart[i];
	size_t *fill = malloc((P->neps ? P->neps : 1) * sizeof(*fill));
	if (!fill) {
		free(sorted);
		return IBP_ENOMEM;
	}
	for (uint32_t i = 0; i < P->neps; i++)
		fill[i] = P->pstart[i];
	for (size_t i = 0; i < P->npend; i++)
		sorted[fill[P->pend[i].ep]++] = (uint32_t)i;
	free(fill);
	P->porder = sorted;
	return 0;
}

/* indx0: OpenSM remembers per port one P_Key to put at index 0, set by
 * each member line of a partition flagged indx0 and cleared by a later
 * line of the same P_Key without the flag - in file order. */
static void apply_indx0_line(struct pol *P, uint32_t ep, uint16_t base,
			     const ibp_conf_member *m)
{
	ibp_membership mm = m->membership;
	bool full = mm != IBP_MEMB_LIMITED;
	bool lim = mm == IBP_MEMB_LIMITED ||
		   (mm == IBP_MEMB_BOTH && P->o.allow_both_pkeys);
	for (int call = 0; call < 2; call++) {
		bool is_full = call == 0;
		if ((is_full && !full) || (!is_full && !lim))
			continue;
		if (m->indx0)
			P->eps[ep].indx0 =
			    (uint16_t)(base | (is_full ? 0x8000u : 0));
		else if (ibp_pkey_base(P->eps[ep].indx0) == base &&
			 P->eps[ep].indx0)
			P->eps[ep].indx0 = 0;
	}
}

static bool pos_before(ibp_conf_pos a, ibp_conf_pos b)
{
	return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* Per port, the indx0 P_Key OpenSM holds when it places the P_Keys.  A
 * rejected file is read up to the point where OpenSM gives up, and the
 * indx0 lines read until then stay recorded through the fallback
 * (osm_prtn_add_port sets it while parsing; only the fallback's own
 * default partition, added without indx0, clears a 0x7fff one). */
static void compute_indx0(struct pol *P)
{
	const ibp_conf_verdict *v = ibp_conf_opensm_verdict(P->conf);
	size_t np = ibp_conf_partition_count(P->conf);
	bool any = false;
	for (size_t i = 0; i < np && !any; i++)
		any =
		    ibp_conf_partition_flags(ibp_conf_partition_at(P->conf, i))
			->indx0;
	if (!any)
		return;
	for (size_t i = 0; i < np; i++) {
		const ibp_conf_partition *p = ibp_conf_partition_at(P->conf, i);
		uint16_t base = ibp_pkey_base(ibp_conf_partition_pkey(p));
		if (!base)
			continue;
		size_t nm = ibp_conf_partition_member_count(p);
		for (size_t j = 0; j < nm; j++) {
			const ibp_conf_member *m =
			    ibp_conf_partition_member(p, j);
			if (P->fallback && !pos_before(m->pos, v->pos))
				continue;
			switch (m->kind) {
			case IBP_MEMBER_GUID:
			case IBP_MEMBER_NAME:
			case IBP_MEMBER_SELF: {
				uint32_t ep = ep_by_guid(
				    P, m->kind == IBP_MEMBER_SELF ? P->sm_guid
								  : m->guid);
				if (ep != NO_EP)
					apply_indx0_line(P, ep, base, m);
				break;
			}
			case IBP_MEMBER_NONE:
				break;
			default:
				for (uint32_t e = 0; e < P->neps; e++)
					if (blanket_applies(m->kind,
							    P->eps[e].type))
						apply_indx0_line(P, e, base, m);
				break;
			}
		}
	}
	if (!P->fallback)
		return;
	for (uint32_t e = 0; e < P->neps; e++) {
		if (ibp_pkey_base(P->eps[e].indx0) == IBP_PKEY_DEFAULT_BASE)
			P->eps[e].indx0 = 0;
		if (P->eps[e].indx0 && P->diags)
			ibp_diags_add(
			    P->diags, IBP_SEV_WARNING, "opensm-fallback-indx0",
			    P->file, v->pos.line, v->pos.col,
			    "%s (0x%016llx) port %u: OpenSM keeps the indx0 "
			    "P_Key 0x%04x it read before rejecting the file, "
			    "so the fallback's 0xffff does not go to index 0 "
			    "(index 0 stays empty: an IPoIB parent interface "
			    "there has no partition)",
			    ibp_fabric_node_desc(P->f, P->eps[e].node),
			    (unsigned long long)P->eps[e].guid, P->eps[e].port,
			    P->eps[e].indx0);
	}
}

/* Where a finding about P_Key `pkey` points: the first definition of its
 * partition in the file. */
void pol_group_pos(const struct pol *P, uint16_t pkey, unsigned *line,
		   unsigned *col)
{
	*line = *col = 0;
	if (P->fallback || !P->conf)
		return;
	const ibp_conf_group *g = ibp_conf_group_find(P->conf, pkey);
	if (!g || !ibp_conf_group_partition_count(g))
		return;
	ibp_conf_pos pos =
	    ibp_conf_partition_pos(ibp_conf_group_partition(g, 0));
	*line = pos.line;
	*col = pos.col;
}

static void pol_free(struct pol *P)
{
	free(P->node_base);
	free(P->ep_of);
	free(P->eps);
	free(P->pend);
	free(P->pstart);
	free(P->porder);
	free(P->memb);
	free(P->touched);
	free(P->grp_conf);
	pol_scratch_free(P);
}

int ibp_policy_compute(const ibp_conf *conf, const ibp_fabric *fabric,
		       const ibp_policy_run *opts, ibp_tables **out,
		       ibp_diags *findings, ibp_error *err)
{
	return ibp_policy_compute_state(conf, fabric, opts, out, NULL, findings,
					err);
}

static int compute(const ibp_conf *conf, const ibp_fabric *fabric,
		   const ibp_policy_run *opts, ibp_tables **out,
		   ibp_tables **remembered_out, ibp_index_memory **memory_out,
		   ibp_diags *findings, ibp_error *err);

int ibp_policy_compute_state(const ibp_conf *conf, const ibp_fabric *fabric,
			     const ibp_policy_run *opts, ibp_tables **out,
			     ibp_tables **remembered_out, ibp_diags *findings,
			     ibp_error *err)
{
	return compute(conf, fabric, opts, out, remembered_out, NULL, findings,
		       err);
}

int ibp_policy_compute_memory(const ibp_conf *conf, const ibp_fabric *fabric,
			      const ibp_policy_run *opts, ibp_tables **out,
			      ibp_index_memory **memory_out,
			      ibp_diags *findings, ibp_error *err)
{
	return compute(conf, fabric, opts, out, NULL, memory_out, findings,
		       err);
}

static int compute(const ibp_conf *conf, const ibp_fabric *fabric,
		   const ibp_policy_run *opts, ibp_tables **out,
		   ibp_tables **remembered_out, ibp_index_memory **memory_out,
		   ibp_diags *findings, ibp_error *err)
{
	if (memory_out)
		*memory_out = NULL;
	if (!conf || !fabric || !out)
		return ibp_error_set(err, IBP_EINVAL,
				     "policy: conf, fabric and out required");
	*out = NULL;
	if (remembered_out)
		*remembered_out = NULL;
	struct pol P;
	memset(&P, 0, sizeof(P));
	if (opts)
		P.o = *opts;
	else
		ibp_policy_run_init(&P.o);
	if (P.o.unplaced)
		pol_unplaced_clear(P.o.unplaced);
	P.conf = conf;
	P.f = fabric;
	P.diags = findings;
	P.file = ibp_conf_file(conf) ? ibp_conf_file(conf) : "";
	int rc = ibp_policy_sm_port(fabric, &P.o, &P.sm_guid, err);
	if (rc)
		return rc;
	if (!P.o.sm_port_guid && findings) {
		size_t sn = 0;
		unsigned sp = 0;
		char nb[160];
		ibp_fabric_find_port_guid(fabric, P.sm_guid, &sn, &sp);
		bool init = P.sm_guid == ibp_fabric_initiator_port_guid(fabric);
		ibp_diags_add(
		    findings, IBP_SEV_NOTE, "sm-port-default", "", 0, 0,
		    "SM port not given: assumed 0x%016llx (%s), %s; "
		    "give --sm-port with the port OpenSM runs on",
		    (unsigned long long)P.sm_guid,
		    ibp_fabric_port_name(fabric, sn, sp, nb, sizeof(nb)),
		    init ? "the port the topology says ran the "
			   "discovery ('# Initiated from')"
			 : "the first CA port of the topology");
	}
	if (findings && ibp_fabric_lidless_count(fabric)) {
		char msg[1024];
		ibp_fabric_lidless_message(fabric, 4, msg, sizeof(msg));
		ibp_diags_add(findings, IBP_SEV_WARNING, "no-lid", "", 0, 0,
			      "%s", msg);
	}
	/* OpenSM's verdict is about a file handed to OpenSM.  A plan in the
	 * seed's block dialect never is (convert and apply --via-opensm
	 * write it in OpenSM syntax first): it means what it says. */
	const ibp_conf_verdict *v =
	    ibp_conf_get_dialect(conf) == IBP_CONF_DIALECT_SEED
		? NULL
		: ibp_conf_opensm_verdict(conf);
	if (v && v->rejected) {
		if (P.o.mode == IBP_POLICY_STRICT) {
			if (findings)
				ibp_diags_add(findings, IBP_SEV_ERROR,
					      "opensm-rejects", P.file,
					      v->pos.line, v->pos.col,
					      "OpenSM rejects this file (%s); "
					      "strict mode refuses it",
					      v->reason ? v->reason : "?");
			return ibp_error_set_at(err, IBP_EPARSE, P.file,
						v->pos.line, v->pos.col,
						"OpenSM rejects this file: %s",
						v->reason ? v->reason : "?");
		}
		P.fallback = true;
		if (findings)
			ibp_diags_add(
			    findings, IBP_SEV_ERROR, "opensm-fallback", P.file,
			    v->pos.line, v->pos.col,
			    "OpenSM rejects the whole file (%s) and programs "
			    "\"Default=0x7fff : ALL=full ;\": every port a "
			    "full member of 0xffff, no isolation",
			    v->reason ? v->reason : "?");
	}
	if (v && v->indeterminate && P.o.mode == IBP_POLICY_OPENSM && findings)
		ibp_diags_add(
		    findings, IBP_SEV_ERROR, "opensm-indeterminate", P.file,
		    v->indeterminate_pos.line, v->indeterminate_pos.col,
		    "an mgid item ends this statement: OpenSM 3.3.23 "
		    "reads on past the ';' into bytes it never "
		    "initialised, so whether it accepts the file, and "
		    "the tables it programs, depend on the line's "
		    "length and the process; the tables shown are "
		    "one possible outcome (put the mgid items before "
		    "the members)");
	rc = collect_end_ports(&P);
	if (!rc) {
		P.memb = calloc(P.neps ? P.neps : 1, 1);
		P.touched = malloc((P.neps ? P.neps : 1) * sizeof(*P.touched));
		if (!P.memb || !P.touched)
			rc = IBP_ENOMEM;
	}
	if (!rc)
		rc = build_pending(&P);
	if (!rc)
		compute_indx0(&P);
	ibp_tables *ts = NULL;
	if (!rc) {
		ts = ibp_tables_new(fabric);
		if (remembered_out)
			P.rem_out = ibp_tables_new(fabric);
		if (memory_out)
			P.mem_out = ibp_index_memory_new(fabric);
		if (!ts || (remembered_out && !P.rem_out) ||
		    (memory_out && !P.mem_out))
			rc = IBP_ENOMEM;
	}
	ibp_progress_report(P.o.progress, "computing tables", 0, P.neps);
	if (!rc)
		rc = pol_place_all(&P, ts);
	ibp_progress_report(P.o.progress, "computing tables", P.neps, P.neps);
	pol_free(&P);
	if (rc) {
		ibp_tables_free(ts);
		ibp_tables_free(P.rem_out);
		ibp_index_memory_free(P.mem_out);
		return ibp_error_set(err, rc, "policy: %s", ibp_status_str(rc));
	}
	*out = ts;
	if (remembered_out)
		*remembered_out = P.rem_out;
	if (memory_out)
		*memory_out = P.mem_out;
	return 0;
}
