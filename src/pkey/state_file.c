/*
 * state_file.c - the one state file (include/ibpart/state_file.h): the
 * tables ports hold, OpenSM's index memory, its options; version 2
 * written, versions 0, 1 and 2 read, with jansson.  It is the single
 * reader and writer behind `tables --state`, `apply --state` and
 * `--rollback` (live.h's ibp_state_save/ibp_state_load and
 * tables_json.h's state functions are wrappers over it).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "util/file_read.h"
#include "util/json_text.h"
#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "ibpart/pkey.h"
#include "ibpart/state_file.h"
#include "pkey/state_file_lib.h"
#include "pkey/tables_json_port.h"
#include "pkey/index_memory_lib.h"
#include "pkey/opensm_partitions_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "util/error_lib.h"

#define FORMAT_V1 "ibpart-pkey-state-1"
#define FORMAT_V2 "ibpart-state"

struct ibp_state_file {
	const ibp_fabric *f;
	ibp_tables *tables;
	ibp_index_memory *memory;
	bool have_osm;
	ibp_state_opensm osm;
	ibp_osm_partitions prtns; /* OpenSM's partition objects */
	char *mode;
	uint64_t sm;
	int version;
	json_t *absent; /* array of port entries the fabric lacks */
};

ibp_state_file *ibp_state_file_new(const ibp_fabric *f)
{
	ibp_state_file *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->f = f;
	s->version = IBP_STATE_FILE_VERSION;
	s->tables = ibp_tables_new(f);
	s->absent = json_array();
	if (!s->tables || !s->absent) {
		ibp_state_file_free(s);
		return NULL;
	}
	return s;
}

void ibp_state_file_free(ibp_state_file *s)
{
	if (!s)
		return;
	ibp_tables_free(s->tables);
	ibp_index_memory_free(s->memory);
	json_decref(s->absent);
	ibp_osm_partitions_clear(&s->prtns);
	free(s->mode);
	free(s);
}

const ibp_tables *ibp_state_file_tables(const ibp_state_file *s)
{
	return s->tables;
}

ibp_tables *ibp_state_file_tables_mut(ibp_state_file *s)
{
	return s->tables;
}

int ibp_state_file_set_tables(ibp_state_file *s, ibp_tables *ts)
{
	if (!ts && !(ts = ibp_tables_new(s->f)))
		return IBP_ENOMEM;
	if (ts != s->tables)
		ibp_tables_free(s->tables);
	s->tables = ts;
	return IBP_OK;
}

ibp_tables *ibp_state_file_take_tables(ibp_state_file *s)
{
	ibp_tables *empty = ibp_tables_new(s->f);
	if (!empty)
		return NULL;
	ibp_tables *t = s->tables;
	s->tables = empty;
	return t;
}

ibp_index_memory *ibp_state_file_take_memory(ibp_state_file *s)
{
	ibp_index_memory *m = s->memory;
	s->memory = NULL;
	return m;
}

const ibp_index_memory *ibp_state_file_memory(const ibp_state_file *s)
{
	return s->memory;
}

void ibp_state_file_set_memory(ibp_state_file *s, ibp_index_memory *m)
{
	if (m != s->memory)
		ibp_index_memory_free(s->memory);
	s->memory = m;
}

bool ibp_state_file_opensm(const ibp_state_file *s, ibp_state_opensm *out)
{
	if (s->have_osm && out)
		*out = s->osm;
	return s->have_osm;
}

void ibp_state_file_set_opensm(ibp_state_file *s, const ibp_state_opensm *o)
{
	s->have_osm = o != NULL;
	if (o)
		s->osm = *o;
}

const ibp_osm_partitions *ibp_state_file_partitions(const ibp_state_file *s)
{
	return &s->prtns;
}

int ibp_state_file_set_partitions(ibp_state_file *s,
				  const ibp_osm_partitions *l)
{
	if (!l) {
		ibp_osm_partitions_clear(&s->prtns);
		return IBP_OK;
	}
	return ibp_osm_partitions_copy(l, &s->prtns);
}

const char *ibp_state_file_mode(const ibp_state_file *s)
{
	return s->mode;
}

int ibp_state_file_set_mode(ibp_state_file *s, const char *m)
{
	char *c = NULL;
	if (m && !(c = strdup(m)))
		return IBP_ENOMEM;
	free(s->mode);
	s->mode = c;
	return IBP_OK;
}

uint64_t ibp_state_file_sm_port(const ibp_state_file *s)
{
	return s->sm;
}

void ibp_state_file_set_sm_port(ibp_state_file *s, uint64_t guid)
{
	s->sm = guid;
}

int ibp_state_file_version(const ibp_state_file *s)
{
	return s->version;
}

size_t ibp_state_file_absent_count(const ibp_state_file *s)
{
	return json_array_size(s->absent);
}

void ibp_state_read_options_init(ibp_state_read_options *o)
{
	memset(o, 0, sizeof(*o));
}

/* ---------------------------------------------------------- writing */

static json_t *guid_str(uint64_t g)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%016" PRIx64, g);
	return json_string(buf);
}

static json_t *memory_json(const ibp_index_memory *m, size_t n, unsigned p)
{
	json_t *o = json_object(), *keys = json_object();
	if (!o || !keys) {
		json_decref(o);
		json_decref(keys);
		return NULL;
	}
	json_object_set_new(o, "last_pkey_idx",
			    json_integer(ibp_index_memory_last(m, n, p)));
	size_t cnt = ibp_index_memory_size(m, n, p);
	for (size_t i = 0; i < cnt; i++) {
		uint16_t k = 0;
		unsigned idx = 0;
		char buf[7];
		ibp_index_memory_entry(m, n, p, i, &k, &idx);
		json_object_set_new(keys, ibp_pkey_format(k, buf),
				    json_integer(idx));
	}
	json_object_set_new(o, "pkeys", keys);
	return o;
}

static json_t *port_json(const ibp_state_file *s, size_t n, unsigned p,
			 const ibp_pkey_table *t)
{
	json_t *o = tables_json_port(s->f, n, p, t);
	if (!o)
		return NULL;
	bool in, outb;
	if (ibp_tables_get_enforcement(s->tables, n, p, &in, &outb))
		json_object_set_new(o, "enforcement",
				    json_string(ibp_part_enforce_str(
					ibp_part_enforce_from_bits(in, outb))));
	if (s->memory && ibp_index_memory_has_port(s->memory, n, p)) {
		json_t *r = memory_json(s->memory, n, p);
		if (!r) {
			json_decref(o);
			return NULL;
		}
		json_object_set_new(o, "remembered", r);
	}
	return o;
}

/* A port whose enforcement bits are known but whose table is not (a
 * switch port facing another switch): no "pkeys".  NULL when nothing is
 * known or out of memory. */
static json_t *enforcement_json(const ibp_state_file *s, size_t n, unsigned p)
{
	bool in, outb;
	if (!ibp_tables_get_enforcement(s->tables, n, p, &in, &outb))
		return NULL;
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "node_guid",
			    guid_str(ibp_fabric_node_guid(s->f, n)));
	json_object_set_new(o, "port_guid",
			    guid_str(ibp_fabric_port_guid(s->f, n, p)));
	json_object_set_new(o, "port", json_integer(p));
	json_object_set_new(
	    o, "node_type",
	    json_string(ibp_node_type_str(ibp_fabric_node_type(s->f, n))));
	json_text_set(o, "node_desc", ibp_fabric_node_desc(s->f, n));
	json_object_set_new(o, "enforcement",
			    json_string(ibp_part_enforce_str(
				ibp_part_enforce_from_bits(in, outb))));
	return o;
}

static json_t *state_json(const ibp_state_file *s)
{
	json_t *root = json_object(), *ports = json_array();
	if (!root || !ports)
		goto fail;
	json_object_set_new(root, "format", json_string(FORMAT_V2));
	json_object_set_new(root, "version",
			    json_integer(IBP_STATE_FILE_VERSION));
	if (s->mode)
		json_object_set_new(root, "mode", json_string(s->mode));
	json_object_set_new(root, "sm_port_guid", guid_str(s->sm));
	if (s->have_osm) {
		json_t *o = json_object();
		if (!o)
			goto fail;
		json_object_set_new(o, "allow_both_pkeys",
				    json_boolean(s->osm.allow_both_pkeys));
		json_object_set_new(o, "keep_pkey_indexes",
				    json_boolean(!s->osm.compact_pkey_indexes));
		json_object_set_new(
		    o, "part_enforce",
		    json_string(ibp_part_enforce_str(s->osm.part_enforce)));
		json_object_set_new(
		    o, "no_partition_enforcement",
		    json_boolean(s->osm.no_partition_enforcement));
		if (s->prtns.n) {
			json_t *a = json_array();
			if (!a)
				goto fail;
			for (size_t i = 0; i < s->prtns.n; i++) {
				const ibp_osm_partition *p = &s->prtns.v[i];
				char k[8];
				snprintf(k, sizeof(k), "0x%04x", p->pkey);
				json_t *e = json_pack("{s:s,s:s}", "pkey", k,
						      "name", p->name);
				json_t *g = p->nmgroups ? json_array() : NULL;
				for (size_t j = 0; g && j < p->nmgroups; j++) {
					char t[INET6_ADDRSTRLEN];
					inet_ntop(AF_INET6, p->mgroups[j].mgid,
						  t, sizeof(t));
					json_array_append_new(
					    g, json_pack("{s:s,s:b}", "mgid", t,
							 "freed",
							 p->mgroups[j].freed));
				}
				if (g)
					json_object_set_new(e, "mgroups", g);
				json_array_append_new(a, e);
			}
			json_object_set_new(o, "partitions", a);
		}
		json_object_set_new(root, "opensm", o);
	}
	size_t nn = ibp_fabric_node_count(s->f);
	for (size_t n = 0; n < nn; n++) {
		unsigned np = ibp_fabric_node_nports(s->f, n);
		for (unsigned p = 0; p <= np; p++) {
			const ibp_pkey_table *t =
			    ibp_tables_get(s->tables, n, p);
			json_t *o = t ? port_json(s, n, p, t)
				      : enforcement_json(s, n, p);
			if (!t && !o &&
			    !ibp_tables_get_enforcement(s->tables, n, p, NULL,
							NULL))
				continue; /* nothing known of the port */
			if (!o || json_array_append_new(ports, o))
				goto fail;
		}
	}
	size_t k;
	json_t *a;
	json_array_foreach(s->absent, k, a) json_array_append(ports, a);
	json_object_set_new(root, "ports", ports);
	return root;
fail:
	json_decref(root);
	json_decref(ports);
	return NULL;
}

char *ibp_state_file_to_json(const ibp_state_file *s)
{
	json_t *j = state_json(s);
	if (!j)
		return NULL;
	char *text = json_dumps(j, JSON_PRESERVE_ORDER | JSON_INDENT(1));
	json_decref(j);
	if (!text)
		return NULL;
	size_t len = strlen(text);
	char *nl = realloc(text, len + 2);
	if (!nl) {
		free(text);
		return NULL;
	}
	nl[len] = '\n';
	nl[len + 1] = '\0';
	return nl;
}

int ibp_state_file_write(const ibp_state_file *s, const char *path,
			 ibp_error *err)
{
	char *text = ibp_state_file_to_json(s);
	if (!text)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = ibp_write_file_atomic(path, text, strlen(text), false, err);
	free(text);
	return rc;
}

/* ---------------------------------------------------------- reading */

struct rd {
	const char *name;
	ibp_state_file *s;
	const ibp_state_read_options *o;
	ibp_error *err;
};

#define BAD(r, ...)                                                            \
	ibp_error_set_at((r)->err, IBP_EPARSE, (r)->name, 0, 0, __VA_ARGS__)

static int read_pkey(struct rd *r, json_t *v, size_t i, const char *what,
		     size_t k, uint16_t *out)
{
	if (ibp_pkey_parse(json_string_value(v), out, NULL))
		return BAD(r, "ports[%zu].%s[%zu]: not a P_Key", i, what, k);
	return 0;
}

static int read_table(struct rd *r, json_t *keys, size_t i, size_t n,
		      unsigned p)
{
	const ibp_fabric *f = r->s->f;
	unsigned cap = ibp_fabric_port_capacity(f, n, p);
	if (!cap)
		cap = 1;
	if (json_array_size(keys) > cap)
		return ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0, 0,
					"ports[%zu].pkeys has %zu P_Keys, the "
					"port's capacity is %u",
					i, json_array_size(keys), cap);
	if (ibp_tables_get(r->s->tables, n, p))
		return BAD(r, "ports[%zu]: the port is listed twice", i);
	ibp_pkey_table *t = ibp_tables_get_or_create(r->s->tables, n, p);
	if (!t)
		return ibp_error_set(r->err, IBP_ENOMEM, "out of memory");
	size_t k;
	json_t *kv;
	json_array_foreach(keys, k, kv)
	{
		uint16_t pk = 0;
		int rc = read_pkey(r, kv, i, "pkeys", k, &pk);
		if (rc)
			return rc;
		/* the capacity was checked: only IBP_ENOMEM */
		if (pk && ibp_pkey_table_set(t, (unsigned)k, pk, NULL))
			return ibp_error_set(r->err, IBP_ENOMEM,
					     "out of memory");
	}
	return 0;
}

static int read_enforcement(struct rd *r, json_t *po, size_t i, size_t n,
			    unsigned p)
{
	json_t *v = json_object_get(po, "enforcement");
	if (!v)
		return 0;
	ibp_part_enforce e;
	if (ibp_part_enforce_parse(json_string_value(v), &e))
		return BAD(r, "ports[%zu].enforcement: both, in, out or off",
			   i);
	bool in, outb;
	ibp_part_enforce_bits(e, &in, &outb);
	if (ibp_tables_set_enforcement(r->s->tables, n, p, in, outb))
		return ibp_error_set(r->err, IBP_ENOMEM, "out of memory");
	return 0;
}

static int need_memory(struct rd *r)
{
	if (!r->s->memory && !(r->s->memory = ibp_index_memory_new(r->s->f)))
		return ibp_error_set(r->err, IBP_ENOMEM, "out of memory");
	return 0;
}

static int mem_set(struct rd *r, size_t n, unsigned p, uint16_t k, unsigned idx)
{
	int rc = ibp_index_memory_set(r->s->memory, n, p, k, idx);
	if (rc == IBP_ENOMEM)
		return ibp_error_set(r->err, rc, "out of memory");
	return rc;
}

/* Version 0: "remembered" is the port's remembered P_Keys in index
 * order; without it the port remembers what its table holds. */
static int read_memory_v0(struct rd *r, json_t *po, size_t i, size_t n,
			  unsigned p)
{
	json_t *rk = json_object_get(po, "remembered");
	json_t *keys = json_is_array(rk) ? rk : json_object_get(po, "pkeys");
	int rc = need_memory(r);
	if (!rc)
		rc = ibp_index_memory_add_port(r->s->memory, n, p);
	size_t k;
	json_t *kv;
	json_array_foreach(keys, k, kv)
	{
		uint16_t pk = 0;
		if (rc || (rc = read_pkey(r, kv, i, "remembered", k, &pk)))
			return rc;
		if (pk && (pk & 0x7fff) && k < 0xffff &&
		    !ibp_index_memory_get(r->s->memory, n, p, pk, NULL))
			rc = mem_set(r, n, p, pk, (unsigned)k);
	}
	return rc;
}

/* Version 2: {"last_pkey_idx": N, "pkeys": {"0x....": index, ...}}. */
static int read_memory_v2(struct rd *r, json_t *rm, size_t i, size_t n,
			  unsigned p)
{
	json_t *keys = json_object_get(rm, "pkeys");
	json_t *last = json_object_get(rm, "last_pkey_idx");
	if (!json_is_object(rm) || (keys && !json_is_object(keys)) ||
	    (last && !json_is_integer(last)))
		return BAD(r,
			   "ports[%zu].remembered: an object {\"last_pkey_idx\""
			   ": N, \"pkeys\": {\"0x....\": index}}",
			   i);
	static const char *const fields[] = {"last_pkey_idx", "pkeys", NULL};
	char path[48], msg[160];
	snprintf(path, sizeof(path), "ports[%zu].remembered", i);
	if (tables_json_known(rm, path, fields, msg, sizeof(msg)))
		return BAD(r, "%s", msg);
	int rc = need_memory(r);
	if (!rc)
		rc = ibp_index_memory_add_port(r->s->memory, n, p);
	const char *key;
	json_t *v;
	json_object_foreach(keys, key, v)
	{
		uint16_t pk;
		json_int_t idx = json_integer_value(v);
		if (rc)
			return rc;
		if (ibp_pkey_parse(key, &pk, NULL) || !(pk & 0x7fff))
			return BAD(r,
				   "ports[%zu].remembered: '%s' is not a "
				   "P_Key",
				   i, key);
		if (!json_is_integer(v) || idx < 0 || idx >= 0xffff)
			return BAD(r,
				   "ports[%zu].remembered['%s']: not an "
				   "index",
				   i, key);
		rc = mem_set(r, n, p, pk, (unsigned)idx);
	}
	if (!rc && last) {
		json_int_t l = json_integer_value(last);
		if (l < 0 || l > 0xffff)
			return BAD(r, "ports[%zu].remembered.last_pkey_idx: %s",
				   i, "not an index");
		if ((unsigned)l > ibp_index_memory_last(r->s->memory, n, p))
			rc = ibp_index_memory_set_last(r->s->memory, n, p,
						       (unsigned)l);
	}
	return rc;
}

static int read_port(struct rd *r, json_t *po, size_t i)
{
	json_t *keys = json_object_get(po, "pkeys");
	size_t n;
	unsigned p;
	char msg[160];
	if (tables_json_check_port(po, i, msg, sizeof(msg)))
		return BAD(r, "%s", msg);
	/* version 2: a port with enforcement bits and no table */
	bool enf_only =
	    !keys && r->s->version == 2 && json_object_get(po, "enforcement");
	int where = json_is_array(keys) || enf_only
			? tables_json_find_port(r->s->f, po, &n, &p)
			: -1;
	if (where < 0)
		return BAD(r,
			   "ports[%zu] is malformed (needs node_guid or "
			   "port_guid, port 0..254 and pkeys)",
			   i);
	if (where > 0) {
		if (r->o && r->o->unknown_ports_fail)
			return ibp_error_set_at(
			    r->err, IBP_ENOENT, r->name, 0, 0,
			    "ports[%zu]: node %s port %lld is not in the "
			    "fabric",
			    i,
			    json_string_value(json_object_get(po, "node_guid"))
				?: "?",
			    (long long)json_integer_value(
				json_object_get(po, "port")));
		/* kept for the next run; OpenSM has dropped it */
		json_t *c = json_deep_copy(po);
		if (!c)
			return ibp_error_set(r->err, IBP_ENOMEM,
					     "out of memory");
		json_object_del(c, "remembered");
		json_array_append_new(r->s->absent, c);
		return 0;
	}
	if (enf_only) {
		if (ibp_tables_get(r->s->tables, n, p) ||
		    ibp_tables_get_enforcement(r->s->tables, n, p, NULL, NULL))
			return BAD(r, "ports[%zu]: the port is listed twice",
				   i);
		return read_enforcement(r, po, i, n, p);
	}
	int rc = read_table(r, keys, i, n, p);
	if (!rc)
		rc = read_enforcement(r, po, i, n, p);
	if (rc)
		return rc;
	if (r->s->version == 0)
		return read_memory_v0(r, po, i, n, p);
	json_t *rm = json_object_get(po, "remembered");
	if (r->s->version == 2 && rm)
		return read_memory_v2(r, rm, i, n, p);
	return 0;
}

/* "partitions": [{"pkey": "0x0001", "name": "A"}, …] */
static int read_partitions(struct rd *r, json_t *a)
{
	if (!a)
		return 0;
	if (!json_is_array(a))
		return BAD(r, "\"opensm\".partitions: an array expected");
	size_t i;
	json_t *e;
	json_array_foreach(a, i, e)
	{
		json_t *k = json_object_get(e, "pkey");
		json_t *n = json_object_get(e, "name");
		uint16_t pk = 0;
		if (!json_is_object(e) || !json_is_string(n) ||
		    ibp_pkey_parse(json_string_value(k), &pk, NULL) ||
		    !(pk & 0x7fff))
			return BAD(r,
				   "\"opensm\".partitions[%zu]: {\"pkey\": "
				   "\"0x....\", \"name\": \"...\"} expected",
				   i);
		if (ibp_osm_partitions_add(&r->s->prtns, pk,
					   json_string_value(n)))
			return ibp_error_set(r->err, IBP_ENOMEM,
					     "out of memory");
		json_t *g = json_object_get(e, "mgroups");
		if (g && !json_is_array(g))
			return BAD(r,
				   "\"opensm\".partitions[%zu].mgroups: an "
				   "array expected",
				   i);
		size_t j;
		json_t *m;
		json_array_foreach(g, j, m)
		{
			json_t *t = json_object_get(m, "mgid");
			json_t *fr = json_object_get(m, "freed");
			uint8_t raw[16];
			if (!json_is_string(t) || !json_is_boolean(fr) ||
			    inet_pton(AF_INET6, json_string_value(t), raw) != 1)
				return BAD(r,
					   "\"opensm\".partitions[%zu]."
					   "mgroups[%zu]: {\"mgid\": \"ff..\", "
					   "\"freed\": false} expected",
					   i, j);
			if (ibp_osm_partitions_track(&r->s->prtns, pk, raw,
						     json_is_true(fr)))
				return ibp_error_set(r->err, IBP_ENOMEM,
						     "out of memory");
		}
	}
	return 0;
}

static int read_opensm(struct rd *r, json_t *o)
{
	if (!o)
		return 0;
	json_t *ab = json_object_get(o, "allow_both_pkeys");
	json_t *kp = json_object_get(o, "keep_pkey_indexes");
	json_t *pe = json_object_get(o, "part_enforce");
	json_t *np = json_object_get(o, "no_partition_enforcement");
	ibp_state_opensm so = {false, false, IBP_ENFORCE_BOTH, false};
	static const char *const fields[] = {
	    "allow_both_pkeys",		"keep_pkey_indexes", "part_enforce",
	    "no_partition_enforcement", "partitions",	     NULL};
	char msg[160];
	if (json_is_object(o) &&
	    tables_json_known(o, "opensm", fields, msg, sizeof(msg)))
		return ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0, 0, "%s",
					msg);
	if (!json_is_object(o) || (ab && !json_is_boolean(ab)) ||
	    (kp && !json_is_boolean(kp)) || (np && !json_is_boolean(np)) ||
	    (pe &&
	     ibp_part_enforce_parse(json_string_value(pe), &so.part_enforce)))
		return ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0, 0,
					"\"opensm\": allow_both_pkeys, "
					"keep_pkey_indexes and "
					"no_partition_enforcement true or "
					"false, "
					"part_enforce both, in, out or off");
	so.allow_both_pkeys = ab && json_is_true(ab);
	so.compact_pkey_indexes = kp && json_is_false(kp);
	so.no_partition_enforcement = np && json_is_true(np);
	ibp_state_file_set_opensm(r->s, &so);
	return read_partitions(r, json_object_get(o, "partitions"));
}

static int read_root(struct rd *r, json_t *root)
{
	ibp_state_file *s = r->s;
	json_t *fmt = json_object_get(root, "format");
	json_t *ports = json_object_get(root, "ports");
	const char *fs = json_string_value(fmt);
	if (!fmt) {
		s->version = 0;
	} else if (fs && !strcmp(fs, FORMAT_V1)) {
		s->version = 1;
	} else if (fs && !strcmp(fs, FORMAT_V2)) {
		json_t *v = json_object_get(root, "version");
		if (!json_is_integer(v) || json_integer_value(v) < 2)
			return ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0,
						0,
						"\"version\": 2 expected with "
						"format \"%s\"",
						FORMAT_V2);
		if (json_integer_value(v) > IBP_STATE_FILE_VERSION)
			return ibp_error_set_at(
			    r->err, IBP_EPARSE, r->name, 0, 0,
			    "state file version %lld is newer than this "
			    "ibpart reads (%d)",
			    (long long)json_integer_value(v),
			    IBP_STATE_FILE_VERSION);
		s->version = 2;
	} else {
		return ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0, 0,
					"not an ibpart state file (format "
					"\"%s\" expected)",
					FORMAT_V2);
	}
	if (!json_is_array(ports))
		return ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0, 0,
					"no \"ports\" array: not an ibpart "
					"state file");
	char msg[160];
	if (tables_json_check_root(root, msg, sizeof(msg)))
		return ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0, 0, "%s",
					msg);
	int rc = s->version == 2
		     ? read_opensm(r, json_object_get(root, "opensm"))
		     : 0;
	const char *mode = json_string_value(json_object_get(root, "mode"));
	/* every version: the file is written back as version 2 */
	if (!rc && mode && strcmp(mode, "opensm") && strcmp(mode, "strict"))
		rc = ibp_error_set_at(r->err, IBP_EPARSE, r->name, 0, 0,
				      "mode: '%.20s' is not opensm or strict",
				      mode);
	if (!rc && mode && ibp_state_file_set_mode(s, mode))
		rc = ibp_error_set(r->err, IBP_ENOMEM, "out of memory");
	uint64_t sm;
	if (!rc &&
	    tables_json_guid(
		json_string_value(json_object_get(root, "sm_port_guid")), &sm))
		s->sm = sm;
	size_t i;
	json_t *po;
	json_array_foreach(ports, i, po)
	{
		if (rc)
			break;
		rc = read_port(r, po, i);
	}
	return rc;
}

int ibp_state_file_parse(const ibp_fabric *f, const char *name,
			 const char *text, size_t len,
			 const ibp_state_read_options *o, ibp_state_file **out,
			 ibp_error *err)
{
	*out = NULL;
	if (!name)
		name = "<buffer>";
	json_error_t je;
	/* a key given twice is an error, not "the last one wins" */
	json_t *root = json_loadb(text ? text : "", text ? len : 0,
				  JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return ibp_error_set_at(err, IBP_EPARSE, name,
					(unsigned)je.line, (unsigned)je.column,
					"%s", je.text);
	ibp_state_file *s = ibp_state_file_new(f);
	int rc;
	if (!s)
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
	else {
		struct rd r = {name, s, o, err};
		rc = json_is_object(root)
			 ? read_root(&r, root)
			 : ibp_error_set_at(err, IBP_EPARSE, name, 0, 0,
					    "not an ibpart state file");
	}
	json_decref(root);
	if (rc) {
		ibp_state_file_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int ibp_state_file_read(const ibp_fabric *f, const char *path,
			const ibp_state_read_options *o, ibp_state_file **out,
			ibp_error *err)
{
	*out = NULL;
	char *text = NULL;
	size_t len = 0;
	size_t max = o && o->max_input_size ? o->max_input_size
					    : IBP_SMALL_INPUT_MAX_DEFAULT;
	int rc = ibp_file_read_all(path, max, &text, &len, err);
	if (rc)
		return rc;
	rc = ibp_state_file_parse(f, path, text, len, o, out, err);
	free(text);
	return rc;
}
