/*
 * topo_model.c - the fabric model of include/ibpart/topo.h: nodes, ports,
 * GUIDs, links, descriptions, P_KeyTable capacities, and the O(1)
 * look-ups by GUID, description, file id and LID.
 *
 * GUIDs follow ibsim's rule (ibsim/sim_net.c init_ports): a CA or router
 * port is node GUID + port number unless given explicitly, every port of a
 * switch carries the switch's node GUID (IBA vol. 1, 14.2.5.3: a switch
 * has one PortGUID, that of its management port 0).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ibpart/sys/suggest.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "topo/topo_priv.h"
#include "util/hash_seed.h"
#include "util/huge_pages.h"
#include "util/options_version.h"

/* ---- hash tables ---- */

/* A key's slot hash: mixed with the table's seed (util/hash_seed.h). */
static uint64_t mix64(const struct topo_map64 *m, uint64_t key)
{
	return hash_mix(key ^ m->seed);
}

static uint64_t hash_str(const char *s, uint64_t seed)
{
	return hash_bytes(s, strlen(s), seed);
}

void topo_map64_free(struct topo_map64 *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* Room for at least n keys at half load (a power of two, doubled at
 * least once when the table has some). */
static size_t map_cap_for(size_t cap, size_t n)
{
	size_t c = cap ? cap * 2 : 64;
	while (c < n * 2 + 2)
		c *= 2;
	return c;
}

static int map64_grow(struct topo_map64 *m, size_t n)
{
	if (!m->cap)
		m->seed = hash_seed();
	size_t cap = map_cap_for(m->cap, n);
	uint64_t *keys = malloc(cap * sizeof(*keys));
	uint32_t *vals = malloc(cap * sizeof(*vals));
	ibp_huge_pages(keys, cap * sizeof(*keys));
	ibp_huge_pages(vals, cap * sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return IBP_ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		vals[i] = TOPO_NONE;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->vals[i] == TOPO_NONE)
			continue;
		size_t j = mix64(m, m->keys[i]) & (cap - 1);
		while (vals[j] != TOPO_NONE)
			j = (j + 1) & (cap - 1);
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return IBP_OK;
}

int topo_map64_reserve(struct topo_map64 *m, size_t n)
{
	return n * 2 > m->cap ? map64_grow(m, n) : IBP_OK;
}

/* Insert key -> val.  When the key is present its value is left alone,
 * *old receives it and the call returns 1. */
int topo_map64_put(struct topo_map64 *m, uint64_t key, uint32_t val,
		   uint32_t *old)
{
	if ((m->n + 1) * 2 > m->cap) {
		int rc = map64_grow(m, m->n + 1);
		if (rc)
			return rc;
	}
	size_t j = mix64(m, key) & (m->cap - 1);
	while (m->vals[j] != TOPO_NONE) {
		if (m->keys[j] == key) {
			if (old)
				*old = m->vals[j];
			return 1;
		}
		j = (j + 1) & (m->cap - 1);
	}
	m->keys[j] = key;
	m->vals[j] = val;
	m->n++;
	return 0;
}

uint32_t topo_map64_get(const struct topo_map64 *m, uint64_t key)
{
	if (!m->cap)
		return TOPO_NONE;
	size_t j = mix64(m, key) & (m->cap - 1);
	while (m->vals[j] != TOPO_NONE) {
		if (m->keys[j] == key)
			return m->vals[j];
		j = (j + 1) & (m->cap - 1);
	}
	return TOPO_NONE;
}

void topo_mapstr_free(struct topo_mapstr *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static int mapstr_grow(struct topo_mapstr *m, size_t n)
{
	if (!m->cap)
		m->seed = hash_seed();
	size_t cap = map_cap_for(m->cap, n);
	struct topo_strslot *slots = malloc(cap * sizeof(*slots));
	if (!slots)
		return IBP_ENOMEM;
	ibp_huge_pages(slots, cap * sizeof(*slots));
	for (size_t i = 0; i < cap; i++)
		slots[i].val = TOPO_NONE;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->slots[i].val == TOPO_NONE)
			continue;
		size_t j = m->slots[i].hash & (cap - 1);
		while (slots[j].val != TOPO_NONE)
			j = (j + 1) & (cap - 1);
		slots[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
	return IBP_OK;
}

/* topo_mapstr_put() of a key whose hash h is known, the room there:
 * 1 when the key was present (then TOPO_DUP unless val), else 0. */
static int mapstr_put_hashed(struct topo_mapstr *m, const char *key, uint32_t h,
			     uint32_t val)
{
	size_t j = h & (m->cap - 1);
	for (struct topo_strslot *t; (t = &m->slots[j])->val != TOPO_NONE;
	     j = (j + 1) & (m->cap - 1)) {
		if (t->hash == h && !strcmp(t->key, key)) {
			if (t->val != val)
				t->val = TOPO_DUP;
			return 1;
		}
	}
	m->slots[j] = (struct topo_strslot){.key = key, .val = val, .hash = h};
	m->n++;
	return 0;
}

/* Insert key -> val; a key already present becomes TOPO_DUP. */
int topo_mapstr_put(struct topo_mapstr *m, const char *key, uint32_t val)
{
	if ((m->n + 1) * 2 > m->cap) {
		int rc = mapstr_grow(m, m->n + 1);
		if (rc)
			return rc;
	}
	return mapstr_put_hashed(m, key, (uint32_t)hash_str(key, m->seed), val);
}

uint32_t topo_mapstr_get(const struct topo_mapstr *m, const char *key)
{
	if (!m->cap)
		return TOPO_NONE;
	uint32_t h = (uint32_t)hash_str(key, m->seed);
	size_t j = h & (m->cap - 1);
	for (const struct topo_strslot *t; (t = &m->slots[j])->val != TOPO_NONE;
	     j = (j + 1) & (m->cap - 1))
		if (t->hash == h && !strcmp(t->key, key))
			return t->val;
	return TOPO_NONE;
}

/* Rebuild a string map from scratch (after a key changed). */
static int rebuild_strmap(ibp_fabric *f, struct topo_mapstr *m, bool desc)
{
	topo_mapstr_free(m);
	for (size_t i = 0; i < f->nnodes; i++) {
		const char *k = desc ? f->nodes[i].desc : f->nodes[i].id;
		if (topo_mapstr_put(m, k, (uint32_t)i) < 0)
			return IBP_ENOMEM;
	}
	return IBP_OK;
}

/* ---- construction ---- */

int topo_reserve(ibp_fabric *f, size_t nodes, size_t ports)
{
	if (nodes > f->cap_nodes) {
		struct topo_node *p = realloc(f->nodes, nodes * sizeof(*p));
		if (!p)
			return IBP_ENOMEM;
		f->nodes = p;
		f->cap_nodes = nodes;
		ibp_huge_pages(p, nodes * sizeof(*p));
	}
	if (ports > f->cap_ports) {
		struct topo_port *p = realloc(f->ports, ports * sizeof(*p));
		if (!p)
			return IBP_ENOMEM;
		f->ports = p;
		f->cap_ports = ports;
		ibp_huge_pages(p, ports * sizeof(*p));
	}
	if (topo_map64_reserve(&f->by_node_guid, nodes) ||
	    (nodes * 2 > f->by_desc.cap && mapstr_grow(&f->by_desc, nodes)) ||
	    (nodes * 2 > f->by_id.cap && mapstr_grow(&f->by_id, nodes)))
		return IBP_ENOMEM;
	return IBP_OK;
}

IBP_OPTIONS_LAYOUT(fabric_options_layout, "fabric options",
		   IBP_FABRIC_OPTIONS_VERSION, sizeof(ibp_fabric_options));

/* The library's defaults, a whole current struct. */
static void fabric_options_defaults(ibp_fabric_options *o)
{
	if (!o)
		return;
	memset(o, 0, sizeof(*o));
	o->ca_partition_cap = IBP_DEFAULT_CA_PARTITION_CAP;
	o->switch_partition_cap = IBP_DEFAULT_SWITCH_PARTITION_CAP;
	o->enforcement_cap = IBP_DEFAULT_ENFORCEMENT_CAP;
	o->linear_fdb_cap = IBP_DEFAULT_LINEAR_FDB_CAP;
	o->multicast_fdb_cap = IBP_DEFAULT_MULTICAST_FDB_CAP;
	o->version = IBP_FABRIC_OPTIONS_VERSION;
}

void ibp_fabric_options_init(ibp_fabric_options *o, unsigned version)
{
	ibp_fabric_options d;
	fabric_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &fabric_options_layout);
}

int topo_fabric_options_take(ibp_fabric_options *own,
			     const ibp_fabric_options *o, ibp_error *err)
{
	fabric_options_defaults(own);
	return ibp_options_take(own, o, &fabric_options_layout, err);
}

ibp_fabric *ibp_fabric_new(const ibp_fabric_options *o)
{
	ibp_fabric_options own;
	if (topo_fabric_options_take(&own, o, NULL))
		return NULL;
	ibp_fabric *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->opts = own;
	f->opts.node_name_map = NULL; /* applied by the reader, not kept */
	f->opts.progress = NULL;
	return f;
}

void ibp_fabric_free(ibp_fabric *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nnodes; i++) {
		if (!f->nodes[i].desc_kept)
			free(f->nodes[i].desc);
		if (!f->nodes[i].id_kept)
			free(f->nodes[i].id);
	}
	while (f->strs) {
		struct topo_strs *b = f->strs;
		f->strs = b->next;
		free(b);
	}
	free(f->nodes);
	free(f->ports);
	topo_map64_free(&f->by_node_guid);
	topo_map64_free(&f->by_port_guid);
	topo_mapstr_free(&f->by_desc);
	topo_mapstr_free(&f->by_id);
	free(f->by_lid);
	free(f->lidless);
	free(f);
}

static const char *type_prefix(ibp_node_type t)
{
	switch (t) {
	case IBP_NODE_SWITCH:
		return "S";
	case IBP_NODE_ROUTER:
		return "R";
	default:
		return "H";
	}
}

int ibp_fabric_add_node(ibp_fabric *f, ibp_node_type type, uint64_t node_guid,
			unsigned nports, const char *desc, size_t *node_out,
			ibp_error *err)
{
	return topo_add_node(f, type, node_guid, nports, desc, NULL, node_out,
			     err);
}

/* Node slot idx cleared and set: type, ports, GUID and the PartitionCap
 * and enforcement the fabric's options give its kind (one place for the
 * reader's and the builder's nodes). */
static struct topo_node *node_init(ibp_fabric *f, size_t idx,
				   ibp_node_type type, unsigned nports,
				   uint64_t node_guid)
{
	struct topo_node *nd = &f->nodes[idx];
	memset(nd, 0, sizeof(*nd));
	nd->type = type;
	nd->nports = nports;
	nd->guid = node_guid;
	if (type == IBP_NODE_SWITCH) {
		nd->partition_cap = f->opts.switch_partition_cap;
		nd->enforcement_cap = f->opts.enforcement_cap;
	} else {
		nd->partition_cap = f->opts.ca_partition_cap;
	}
	return nd;
}

int topo_add_node(ibp_fabric *f, ibp_node_type type, uint64_t node_guid,
		  unsigned nports, const char *desc, const char *id,
		  size_t *node_out, ibp_error *err)
{
	if (!f)
		return ibp_error_set(err, IBP_EINVAL, "no fabric");
	if (type != IBP_NODE_CA && type != IBP_NODE_SWITCH &&
	    type != IBP_NODE_ROUTER)
		return ibp_error_set(err, IBP_EINVAL, "bad node type %d",
				     (int)type);
	if (nports < 1 || nports > IBP_MAX_PORTS)
		return ibp_error_set(err, IBP_ERANGE,
				     "node has %u ports (1..%u allowed)",
				     nports, IBP_MAX_PORTS);
	if (node_guid == 0)
		return ibp_error_set(err, IBP_EINVAL, "node GUID 0 is invalid");
	if (f->nnodes >= (1u << 24) - 1)
		return ibp_error_set(err, IBP_ERANGE, "too many nodes");
	uint32_t old = topo_map64_get(&f->by_node_guid, node_guid);
	if (old != TOPO_NONE) {
		return ibp_error_set(err, IBP_EINVAL,
				     "duplicate node GUID 0x%016" PRIx64
				     " (already node \"%s\")",
				     node_guid, f->nodes[old].id);
	}
	if (f->nnodes == f->cap_nodes) {
		size_t cap = f->cap_nodes ? f->cap_nodes * 2 : 64;
		struct topo_node *p = realloc(f->nodes, cap * sizeof(*p));
		if (!p)
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		f->nodes = p;
		f->cap_nodes = cap;
	}
	if (f->nports + nports + 1 > f->cap_ports) {
		size_t cap = f->cap_ports ? f->cap_ports * 2 : 512;
		while (cap < f->nports + nports + 1)
			cap *= 2;
		struct topo_port *p = realloc(f->ports, cap * sizeof(*p));
		if (!p)
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		f->ports = p;
		f->cap_ports = cap;
	}
	struct topo_node *nd = node_init(f, f->nnodes, type, nports, node_guid);
	if (id && *id) {
		uint32_t other = topo_mapstr_get(&f->by_id, id);
		if (other != TOPO_NONE)
			return ibp_error_set(err, IBP_EINVAL,
					     "duplicate node id \"%s\"", id);
		nd->id = strdup(id);
	} else if (asprintf(&nd->id, "%s-%016" PRIx64, type_prefix(type),
			    node_guid) < 0) {
		nd->id = NULL;
	}
	if (!nd->id)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	nd->desc = strdup(desc && *desc ? desc : nd->id);
	if (!nd->desc) {
		free(nd->id);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	nd->port_base = f->nports;
	for (unsigned p = 0; p <= nports; p++) {
		struct topo_port *pt = &f->ports[f->nports + p];
		pt->guid = 0;
		pt->peer_node = TOPO_NONE;
		pt->peer_port = 0;
		pt->lid = 0;
		pt->lidless = false;
		pt->pi_lid = 0;
		pt->pi_lmc = 0;
		pt->width_active = pt->speed_active = pt->speed_ext_active = 0;
	}
	uint32_t idx = (uint32_t)f->nnodes;
	if (topo_map64_put(&f->by_node_guid, node_guid, idx, NULL) < 0 ||
	    topo_mapstr_put(&f->by_desc, nd->desc, idx) < 0 ||
	    topo_mapstr_put(&f->by_id, nd->id, idx) < 0) {
		/* leave the maps consistent: rebuild without this node */
		free(nd->id);
		free(nd->desc);
		rebuild_strmap(f, &f->by_desc, true);
		rebuild_strmap(f, &f->by_id, false);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	f->nnodes++;
	f->nports += nports + 1;
	f->port_index_dirty = true;
	if (node_out)
		*node_out = idx;
	return IBP_OK;
}

/* A NUL-terminated copy of s in f's string arena, or NULL. */
static char *keep_str(ibp_fabric *f, const char *s)
{
	size_t n = strlen(s) + 1;
	struct topo_strs *b = f->strs;
	if (!b || b->cap - b->used < n) {
		/* blocks of 64 KiB, doubling to 1 MiB */
		size_t whole = b ? (sizeof(*b) + b->cap) * 2 : 65536;
		if (whole > (1u << 20))
			whole = 1u << 20;
		size_t cap = whole - sizeof(*b);
		if (cap < n)
			cap = n;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->cap = cap;
		b->used = 0;
		b->next = f->strs;
		f->strs = b;
	}
	char *p = memcpy(b->data + b->used, s, n);
	b->used += n;
	return p;
}

int topo_add_node_read(ibp_fabric *f, ibp_node_type type, uint64_t node_guid,
		       unsigned nports, const char *desc, const char *id,
		       size_t *node_out)
{
	if (f->nnodes >= f->cap_nodes || f->nports + nports + 1 > f->cap_ports)
		return IBP_ENOMEM; /* not reserved */
	uint32_t idx = (uint32_t)f->nnodes;
	if (topo_map64_put(&f->by_node_guid, node_guid, idx, NULL) < 0)
		return IBP_ENOMEM;
	struct topo_node *nd = node_init(f, idx, type, nports, node_guid);
	nd->id = keep_str(f, id);
	nd->desc = desc && *desc ? keep_str(f, desc) : nd->id;
	if (!nd->id || !nd->desc) {
		/* the GUID stays in its look-up: the load fails whole */
		nd->id = nd->desc = NULL;
		return IBP_ENOMEM;
	}
	nd->id_kept = nd->desc_kept = true;
	nd->port_base = f->nports;
	for (unsigned p = 0; p <= nports; p++) {
		struct topo_port *pt = &f->ports[f->nports + p];
		memset(pt, 0, sizeof(*pt));
		pt->peer_node = TOPO_NONE;
	}
	f->nnodes++;
	f->nports += nports + 1;
	f->port_index_dirty = true;
	*node_out = idx;
	return IBP_OK;
}

int topo_index_names(ibp_fabric *f)
{
	if ((f->nnodes * 2 > f->by_desc.cap &&
	     mapstr_grow(&f->by_desc, f->nnodes)) ||
	    (f->nnodes * 2 > f->by_id.cap && mapstr_grow(&f->by_id, f->nnodes)))
		return IBP_ENOMEM;
	/* Each slot is a cache miss (the tables are megabytes at 50,000
	 * nodes): the keys are hashed NAMES_AHEAD nodes before they go in
	 * and their slots prefetched, so the misses overlap instead of
	 * following one another.  The same inserts, in the same order. */
	enum { NAMES_AHEAD = 16 };
	uint32_t hd[NAMES_AHEAD], hi[NAMES_AHEAD];
	struct topo_mapstr *md = &f->by_desc, *mi = &f->by_id;
	size_t n = f->nnodes;
	for (size_t i = 0; i < n + NAMES_AHEAD; i++) {
		size_t s = i % NAMES_AHEAD;
		if (i >= NAMES_AHEAD) {
			size_t k = i - NAMES_AHEAD;
			mapstr_put_hashed(md, f->nodes[k].desc, hd[s],
					  (uint32_t)k);
			mapstr_put_hashed(mi, f->nodes[k].id, hi[s],
					  (uint32_t)k);
		}
		if (i < n) {
			hd[s] = (uint32_t)hash_str(f->nodes[i].desc, md->seed);
			hi[s] = (uint32_t)hash_str(f->nodes[i].id, mi->seed);
			__builtin_prefetch(&md->slots[hd[s] & (md->cap - 1)],
					   1);
			__builtin_prefetch(&mi->slots[hi[s] & (mi->cap - 1)],
					   1);
		}
	}
	return IBP_OK;
}

int topo_set_node_id(ibp_fabric *f, size_t n, const char *id)
{
	if (!f || n >= f->nnodes || !id || !*id)
		return IBP_EINVAL;
	uint32_t cur = topo_mapstr_get(&f->by_id, id);
	if (cur != TOPO_NONE && cur != n)
		return IBP_EINVAL;
	char *s = strdup(id);
	if (!s)
		return IBP_ENOMEM;
	if (!f->nodes[n].id_kept)
		free(f->nodes[n].id);
	f->nodes[n].id = s;
	f->nodes[n].id_kept = false;
	return rebuild_strmap(f, &f->by_id, false);
}

int topo_set_node_desc(ibp_fabric *f, size_t n, const char *desc)
{
	if (!f || n >= f->nnodes || !desc)
		return IBP_EINVAL;
	char *s = strdup(*desc ? desc : f->nodes[n].id);
	if (!s)
		return IBP_ENOMEM;
	if (!f->nodes[n].desc_kept)
		free(f->nodes[n].desc);
	f->nodes[n].desc = s;
	f->nodes[n].desc_kept = false;
	return rebuild_strmap(f, &f->by_desc, true);
}

int ibp_fabric_set_port_link(ibp_fabric *f, size_t node, unsigned port,
			     const ibp_port_link *link)
{
	if (!link || !topo_port_exists(f, node, port))
		return IBP_ERANGE;
	struct topo_port *pt = topo_port_at(f, node, port);
	pt->pi_lid = link->lid;
	pt->pi_lmc = link->lmc;
	pt->width_active = link->width_active;
	pt->speed_active = link->speed_active;
	pt->speed_ext_active = link->speed_ext_active;
	return IBP_OK;
}

bool ibp_fabric_port_link(const ibp_fabric *f, size_t node, unsigned port,
			  ibp_port_link *out)
{
	memset(out, 0, sizeof(*out));
	if (!topo_port_exists(f, node, port))
		return false;
	const struct topo_port *pt = topo_port_at(f, node, port);
	out->lid = pt->pi_lid;
	out->lmc = pt->pi_lmc;
	out->width_active = pt->width_active;
	out->speed_active = pt->speed_active;
	out->speed_ext_active = pt->speed_ext_active;
	return pt->pi_lid || pt->width_active;
}

int ibp_fabric_set_port_guid(ibp_fabric *f, size_t node, unsigned port,
			     uint64_t guid, ibp_error *err)
{
	if (!topo_port_exists(f, node, port))
		return ibp_error_set(err, IBP_ERANGE, "no port %u on node %zu",
				     port, node);
	if (guid == 0)
		return ibp_error_set(err, IBP_EINVAL, "port GUID 0 is invalid");
	struct topo_node *nd = &f->nodes[node];
	if (nd->type == IBP_NODE_SWITCH) {
		if (guid != nd->guid)
			return ibp_error_set(err, IBP_EINVAL,
					     "switch ports carry the switch's "
					     "GUID 0x%016" PRIx64,
					     nd->guid);
		return IBP_OK;
	}
	topo_port_at(f, node, port)->guid = guid;
	f->port_index_dirty = true;
	return IBP_OK;
}

int ibp_fabric_set_partition_cap(ibp_fabric *f, size_t node, unsigned cap)
{
	if (!f || node >= f->nnodes)
		return IBP_ERANGE;
	if (cap > 0xffff)
		return IBP_ERANGE;
	f->nodes[node].partition_cap = cap;
	return IBP_OK;
}

int ibp_fabric_set_enforcement_cap(ibp_fabric *f, size_t node, unsigned cap)
{
	if (!f || node >= f->nnodes)
		return IBP_ERANGE;
	if (f->nodes[node].type != IBP_NODE_SWITCH || cap > 0xffff)
		return IBP_EINVAL;
	f->nodes[node].enforcement_cap = cap;
	return IBP_OK;
}

int ibp_fabric_set_fdb_caps(ibp_fabric *f, size_t node, unsigned linear_cap,
			    unsigned multicast_cap)
{
	if (!f || node >= f->nnodes)
		return IBP_ERANGE;
	if (f->nodes[node].type != IBP_NODE_SWITCH || linear_cap > 0xffff ||
	    multicast_cap > 0xffff)
		return IBP_EINVAL;
	f->nodes[node].linear_fdb_cap = linear_cap;
	f->nodes[node].multicast_fdb_cap = multicast_cap;
	return IBP_OK;
}

int ibp_fabric_set_sysimg_guid(ibp_fabric *f, size_t node, uint64_t guid)
{
	if (!f || node >= f->nnodes)
		return IBP_ERANGE;
	f->nodes[node].sysimg_guid = guid;
	return IBP_OK;
}

int ibp_fabric_link(ibp_fabric *f, size_t a, unsigned aport, size_t b,
		    unsigned bport, ibp_error *err)
{
	if (!f)
		return ibp_error_set(err, IBP_EINVAL, "no fabric");
	if (!topo_port_exists(f, a, aport) || aport == 0)
		return ibp_error_set(err, IBP_ERANGE,
				     "no external port %u on node %zu", aport,
				     a);
	if (!topo_port_exists(f, b, bport) || bport == 0)
		return ibp_error_set(err, IBP_ERANGE,
				     "no external port %u on node %zu", bport,
				     b);
	struct topo_port *pa = topo_port_at(f, a, aport);
	struct topo_port *pb = topo_port_at(f, b, bport);
	if (pa->peer_node != TOPO_NONE &&
	    !(pa->peer_node == b && pa->peer_port == bport))
		return ibp_error_set(err, IBP_EINVAL,
				     "port %u of \"%s\" is already linked",
				     aport, f->nodes[a].id);
	if (pb->peer_node != TOPO_NONE &&
	    !(pb->peer_node == a && pb->peer_port == aport))
		return ibp_error_set(err, IBP_EINVAL,
				     "port %u of \"%s\" is already linked",
				     bport, f->nodes[b].id);
	pa->peer_node = (uint32_t)b;
	pa->peer_port = (uint8_t)bport;
	pb->peer_node = (uint32_t)a;
	pb->peer_port = (uint8_t)aport;
	return IBP_OK;
}

/* ---- queries ---- */

size_t ibp_fabric_node_count(const ibp_fabric *f)
{
	return f ? f->nnodes : 0;
}

ibp_node_type ibp_fabric_node_type(const ibp_fabric *f, size_t n)
{
	return f && n < f->nnodes ? f->nodes[n].type : IBP_NODE_UNKNOWN;
}

uint64_t ibp_fabric_node_guid(const ibp_fabric *f, size_t n)
{
	return f && n < f->nnodes ? f->nodes[n].guid : 0;
}

uint64_t ibp_fabric_sysimg_guid(const ibp_fabric *f, size_t n)
{
	if (!f || n >= f->nnodes)
		return 0;
	return f->nodes[n].sysimg_guid ? f->nodes[n].sysimg_guid
				       : f->nodes[n].guid;
}

const char *ibp_fabric_node_desc(const ibp_fabric *f, size_t n)
{
	return f && n < f->nnodes ? f->nodes[n].desc : "";
}

const char *ibp_fabric_node_id(const ibp_fabric *f, size_t n)
{
	return f && n < f->nnodes ? f->nodes[n].id : "";
}

unsigned ibp_fabric_node_nports(const ibp_fabric *f, size_t n)
{
	return f && n < f->nnodes ? f->nodes[n].nports : 0;
}

unsigned ibp_fabric_node_partition_cap(const ibp_fabric *f, size_t n)
{
	return f && n < f->nnodes ? f->nodes[n].partition_cap : 0;
}

unsigned ibp_fabric_node_enforcement_cap(const ibp_fabric *f, size_t n)
{
	return f && n < f->nnodes ? f->nodes[n].enforcement_cap : 0;
}

unsigned ibp_fabric_node_linear_fdb_cap(const ibp_fabric *f, size_t n)
{
	if (!f || n >= f->nnodes || f->nodes[n].type != IBP_NODE_SWITCH)
		return 0;
	unsigned c = f->nodes[n].linear_fdb_cap ? f->nodes[n].linear_fdb_cap
						: f->opts.linear_fdb_cap;
	return c ? c : IBP_DEFAULT_LINEAR_FDB_CAP;
}

unsigned ibp_fabric_node_multicast_fdb_cap(const ibp_fabric *f, size_t n)
{
	if (!f || n >= f->nnodes || f->nodes[n].type != IBP_NODE_SWITCH)
		return 0;
	unsigned c = f->nodes[n].multicast_fdb_cap
			 ? f->nodes[n].multicast_fdb_cap
			 : f->opts.multicast_fdb_cap;
	return c ? c : IBP_DEFAULT_MULTICAST_FDB_CAP;
}

uint64_t ibp_fabric_port_guid(const ibp_fabric *f, size_t n, unsigned port)
{
	if (!topo_port_exists(f, n, port))
		return 0;
	const struct topo_node *nd = &f->nodes[n];
	if (nd->type == IBP_NODE_SWITCH)
		return nd->guid;
	uint64_t g = topo_port_at(f, n, port)->guid;
	return g ? g : nd->guid + port;
}

unsigned ibp_fabric_port_capacity(const ibp_fabric *f, size_t n, unsigned port)
{
	if (!topo_port_exists(f, n, port))
		return 0;
	const struct topo_node *nd = &f->nodes[n];
	if (nd->type == IBP_NODE_SWITCH && port > 0)
		return nd->enforcement_cap;
	return nd->partition_cap;
}

bool ibp_fabric_port_peer(const ibp_fabric *f, size_t n, unsigned port,
			  size_t *peer_node, unsigned *peer_port)
{
	if (!topo_port_exists(f, n, port))
		return false;
	const struct topo_port *p = topo_port_at(f, n, port);
	if (p->peer_node == TOPO_NONE)
		return false;
	if (peer_node)
		*peer_node = p->peer_node;
	if (peer_port)
		*peer_port = p->peer_port;
	return true;
}

bool ibp_fabric_is_end_port(const ibp_fabric *f, size_t n, unsigned port)
{
	if (!topo_port_exists(f, n, port))
		return false;
	return f->nodes[n].type == IBP_NODE_SWITCH ? port == 0 : port > 0;
}

void topo_port_index(const ibp_fabric *cf)
{
	/* The index is a cache of the port GUIDs; rebuilding it does not
	 * change the fabric that callers see. */
	ibp_fabric *f = (ibp_fabric *)cf;
	if (!f->port_index_dirty)
		return;
	topo_map64_free(&f->by_port_guid);
	f->port_guid_dups = false;
	for (size_t n = 0; n < f->nnodes; n++) {
		const struct topo_node *nd = &f->nodes[n];
		unsigned first = nd->type == IBP_NODE_SWITCH ? 0 : 1;
		unsigned last = nd->type == IBP_NODE_SWITCH ? 0 : nd->nports;
		for (unsigned p = first; p <= last; p++) {
			int rc = topo_map64_put(&f->by_port_guid,
						ibp_fabric_port_guid(f, n, p),
						topo_port_key(n, p), NULL);
			if (rc < 0)
				return; /* stays dirty; look-ups miss */
			if (rc > 0)
				f->port_guid_dups = true;
		}
	}
	f->port_index_dirty = false;
}

int ibp_fabric_find_port_guid(const ibp_fabric *f, uint64_t guid, size_t *n,
			      unsigned *port)
{
	if (!f)
		return IBP_EINVAL;
	topo_port_index(f);
	uint32_t k = topo_map64_get(&f->by_port_guid, guid);
	if (k == TOPO_NONE)
		return IBP_ENOENT;
	if (n)
		*n = k >> 8;
	if (port)
		*port = k & 0xff;
	return IBP_OK;
}

int ibp_fabric_find_node_guid(const ibp_fabric *f, uint64_t guid, size_t *n)
{
	if (!f)
		return IBP_EINVAL;
	uint32_t k = topo_map64_get(&f->by_node_guid, guid);
	if (k == TOPO_NONE)
		return IBP_ENOENT;
	if (n)
		*n = k;
	return IBP_OK;
}

int ibp_fabric_find_desc(const ibp_fabric *f, const char *desc, size_t *n)
{
	if (!f || !desc)
		return IBP_EINVAL;
	uint32_t k = topo_mapstr_get(&f->by_desc, desc);
	if (k == TOPO_NONE)
		k = topo_mapstr_get(&f->by_id, desc);
	if (k == TOPO_NONE)
		return IBP_ENOENT;
	if (k == TOPO_DUP)
		return IBP_EINVAL;
	if (n)
		*n = k;
	return IBP_OK;
}

uint64_t ibp_fabric_initiator_port_guid(const ibp_fabric *f)
{
	return f ? f->initiator_port_guid : 0;
}

void ibp_fabric_set_initiator_port_guid(ibp_fabric *f, uint64_t port_guid)
{
	f->initiator_port_guid = port_guid;
}

int ibp_fabric_default_sm_port(const ibp_fabric *f, size_t *n, unsigned *port)
{
	if (!f)
		return IBP_EINVAL;
	/* the port the file says ran the discovery, when it is a CA's */
	size_t in;
	unsigned ip;
	if (f->initiator_port_guid &&
	    ibp_fabric_find_port_guid(f, f->initiator_port_guid, &in, &ip) ==
		IBP_OK &&
	    f->nodes[in].type == IBP_NODE_CA) {
		if (n)
			*n = in;
		if (port)
			*port = ip;
		return IBP_OK;
	}
	for (size_t i = 0; i < f->nnodes; i++) {
		if (f->nodes[i].type != IBP_NODE_CA)
			continue;
		/* the first port the file lists as linked, else port 1 */
		unsigned p = 1;
		for (unsigned q = 1; q <= f->nodes[i].nports; q++)
			if (topo_port_at(f, i, q)->peer_node != TOPO_NONE) {
				p = q;
				break;
			}
		if (n)
			*n = i;
		if (port)
			*port = p;
		return IBP_OK;
	}
	return IBP_ENOENT;
}

/* The first linked port of a node: port 0 for a switch. */
static unsigned first_port(const ibp_fabric *f, size_t n)
{
	if (f->nodes[n].type == IBP_NODE_SWITCH)
		return 0;
	for (unsigned q = 1; q <= f->nodes[n].nports; q++)
		if (topo_port_at(f, n, q)->peer_node != TOPO_NONE)
			return q;
	return 1;
}

unsigned ibp_fabric_node_linked_end_ports(const ibp_fabric *f, size_t n)
{
	if (!f || n >= f->nnodes)
		return 0;
	if (f->nodes[n].type == IBP_NODE_SWITCH)
		return 1;
	unsigned k = 0;
	for (unsigned q = 1; q <= f->nodes[n].nports; q++)
		if (topo_port_at(f, n, q)->peer_node != TOPO_NONE)
			k++;
	return k;
}

const char *ibp_fabric_port_name(const ibp_fabric *f, size_t n, unsigned port,
				 char *buf, size_t len)
{
	const char *d = ibp_fabric_node_desc(f, n);
	if (!buf || !len || ibp_fabric_node_linked_end_ports(f, n) < 2)
		return d;
	snprintf(buf, len, "%s/%u", d, port);
	return buf;
}

static bool parse_u64(const char *s, int base, uint64_t *out)
{
	if (!*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* A bare name of a node with several linked end ports does not say which
 * port: the error lists the names that do. */
static int ambiguous(const ibp_fabric *f, size_t n, const char *spec,
		     ibp_error *err)
{
	char list[400];
	size_t o = 0;
	unsigned k = 0;
	list[0] = 0;
	for (unsigned q = 1; q <= f->nodes[n].nports; q++) {
		if (topo_port_at(f, n, q)->peer_node == TOPO_NONE)
			continue;
		if (o < sizeof(list)) {
			int w = snprintf(list + o, sizeof(list) - o, "%s%s/%u",
					 k ? ", " : "", spec, q);
			o = w < 0 ? sizeof(list) : o + (size_t)w;
		}
		k++;
	}
	if (o >= sizeof(list))
		snprintf(list + sizeof(list) - 5, 5, " ...");
	return ibp_error_set(err, IBP_EINVAL, "'%s' has %u ports: %s", spec, k,
			     list);
}

/* "NAME/N": port N of the node NAME (a description, file id or node
 * GUID).  IBP_ENOENT when spec is not of that form or NAME is unknown. */
static int resolve_slash(const ibp_fabric *f, const char *spec, size_t *n,
			 unsigned *port, ibp_error *err)
{
	const char *slash = strrchr(spec, '/');
	uint64_t v;
	if (!slash || slash == spec || !parse_u64(slash + 1, 10, &v))
		return IBP_ENOENT;
	char base[512];
	size_t bl = (size_t)(slash - spec);
	if (bl >= sizeof(base))
		return IBP_ENOENT;
	memcpy(base, spec, bl);
	base[bl] = 0;
	size_t nn;
	int rc = ibp_fabric_find_desc(f, base, &nn);
	if (rc == IBP_EINVAL)
		return ibp_error_set(err, IBP_EINVAL,
				     "\"%s\" names several nodes; give a GUID",
				     base);
	if (rc && !(base[0] == '0' && (base[1] == 'x' || base[1] == 'X') &&
		    parse_u64(base, 16, &v) &&
		    ibp_fabric_find_node_guid(f, v, &nn) == IBP_OK))
		return IBP_ENOENT;
	parse_u64(slash + 1, 10, &v);
	if (v > IBP_MAX_PORTS || !ibp_fabric_is_end_port(f, nn, (unsigned)v)) {
		if (f->nodes[nn].type == IBP_NODE_SWITCH)
			return ibp_error_set(err, IBP_ERANGE,
					     "'%s' is a switch: its end port "
					     "is port 0 (%s/0)",
					     base, base);
		return ibp_error_set(err, IBP_ERANGE,
				     "'%s' has no port %" PRIu64
				     " (ports 1..%u)",
				     base, v, f->nodes[nn].nports);
	}
	*n = nn;
	*port = (unsigned)v;
	return IBP_OK;
}

int ibp_fabric_resolve_port(const ibp_fabric *f, const char *spec, size_t *n,
			    unsigned *port, ibp_error *err)
{
	if (!f || !spec)
		return ibp_error_set(err, IBP_EINVAL, "nothing to resolve");
	size_t nn;
	unsigned pp;
	uint64_t v;
	if ((spec[0] == '0' && (spec[1] == 'x' || spec[1] == 'X')) &&
	    parse_u64(spec, 16, &v)) {
		if (ibp_fabric_find_port_guid(f, v, &nn, &pp) == IBP_OK)
			goto found;
		if (ibp_fabric_find_node_guid(f, v, &nn) == IBP_OK) {
			pp = first_port(f, nn);
			goto found;
		}
	}
	int rc = ibp_fabric_find_desc(f, spec, &nn);
	if (rc == IBP_OK) {
		if (ibp_fabric_node_linked_end_ports(f, nn) > 1)
			return ambiguous(f, nn, spec, err);
		pp = first_port(f, nn);
		goto found;
	}
	if (rc == IBP_EINVAL)
		return ibp_error_set(err, IBP_EINVAL,
				     "\"%s\" names several nodes; give a GUID",
				     spec);
	rc = resolve_slash(f, spec, &nn, &pp, err);
	if (rc == IBP_OK)
		goto found;
	if (rc != IBP_ENOENT)
		return rc;
	if (parse_u64(spec, 10, &v) && v > 0 && v <= TOPO_MAX_LID) {
		if (!f->lids_assigned)
			return ibp_error_set(err, IBP_ENOENT,
					     "\"%s\": LIDs are not assigned",
					     spec);
		if (ibp_fabric_find_lid(f, (uint16_t)v, &nn, &pp) == IBP_OK)
			goto found;
	}
	const char **names =
	    malloc((f->nnodes ? f->nnodes : 1) * sizeof(*names));
	for (size_t i = 0; names && i < f->nnodes; i++)
		names[i] = f->nodes[i].desc;
	const char *near = names ? ibp_suggest(spec, names, f->nnodes) : NULL;
	rc =
	    ibp_error_set(err, IBP_ENOENT, "no port \"%s\" in the fabric%s%s%s",
			  spec, near ? " (did you mean \"" : "",
			  near ? near : "", near ? "\"?)" : "");
	free(names);
	return rc;
found:
	if (n)
		*n = nn;
	if (port)
		*port = pp;
	return IBP_OK;
}

const char *ibp_node_type_str(ibp_node_type t)
{
	switch (t) {
	case IBP_NODE_CA:
		return "CA";
	case IBP_NODE_SWITCH:
		return "SW";
	case IBP_NODE_ROUTER:
		return "RT";
	default:
		return "??";
	}
}

/* ---- link width and speed as ibnetdiscover names them ---- */

/* LinkWidthActive and LinkSpeed(Ext)Active codes (IBA vol. 1, 14.2.5.6)
 * and the names ibnetdiscover prints and ibsim reads ("4xSDR"). */
static const struct {
	uint8_t code;
	const char *name;
} link_widths[] = {{1, "1"}, {2, "4"}, {4, "8"}, {8, "12"}, {16, "2"}},
  link_speeds[] = {{1, "SDR"}, {2, "DDR"}, {4, "QDR"}},
  link_ext_speeds[] = {{1, "FDR"}, {2, "EDR"}, {4, "HDR"}, {8, "NDR"}};

#define NAME_OF(tab, c, out)                                                   \
	for (size_t i_ = 0; i_ < sizeof(tab) / sizeof(tab[0]); i_++)           \
		if (tab[i_].code == (c))                                       \
			(out) = tab[i_].name;

bool ibp_port_link_rate(const ibp_port_link *link, char *buf, size_t len)
{
	const char *w = NULL, *s = NULL;
	if (len)
		buf[0] = 0;
	if (!link)
		return false;
	NAME_OF(link_widths, link->width_active, w);
	if (link->speed_ext_active) {
		NAME_OF(link_ext_speeds, link->speed_ext_active, s);
	} else {
		NAME_OF(link_speeds, link->speed_active, s);
	}
	if (!w || !s)
		return false;
	int n = snprintf(buf, len, "%sx%s", w, s);
	return n > 0 && (size_t)n < len;
}

bool topo_link_rate_parse(const char *p, size_t n, ibp_port_link *link)
{
	const char *x = memchr(p, 'x', n);
	if (!x || x == p)
		return false;
	size_t wl = (size_t)(x - p), sl = n - wl - 1;
	int w = -1, s = -1, e = -1;
	for (size_t i = 0; i < sizeof(link_widths) / sizeof(link_widths[0]);
	     i++)
		if (strlen(link_widths[i].name) == wl &&
		    !memcmp(link_widths[i].name, p, wl))
			w = link_widths[i].code;
	for (size_t i = 0; i < sizeof(link_speeds) / sizeof(link_speeds[0]);
	     i++)
		if (sl == 3 && !memcmp(link_speeds[i].name, x + 1, 3))
			s = link_speeds[i].code;
	for (size_t i = 0;
	     i < sizeof(link_ext_speeds) / sizeof(link_ext_speeds[0]); i++)
		if (sl == 3 && !memcmp(link_ext_speeds[i].name, x + 1, 3))
			e = link_ext_speeds[i].code;
	if (w < 0 || (s < 0 && e < 0))
		return false;
	link->width_active = (uint8_t)w;
	link->speed_active = s < 0 ? 0 : (uint8_t)s;
	link->speed_ext_active = e < 0 ? 0 : (uint8_t)e;
	return true;
}
