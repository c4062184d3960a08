/*
 * tables_json.c - P_KeyTables <-> the JSON of `ibpart tables --format
 * json` and of `tables --state` (docs/json-schemas.md, and
 * include/ibpart/tables_json.h), with jansson.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "util/file_read.h"
#include "util/json_text.h"
#include "ibpart/sys/atomic_file.h"
#include "util/atomic_file_lib.h"
#include "util/escape_lib.h"
#include "ibpart/pkey.h"
#include "ibpart/state_file.h"
#include "pkey/state_file_lib.h"
#include "ibpart/tables_json.h"
#include "pkey/tables_json_lib.h"
#include "pkey/tables_json_port.h"
#include "pkey/index_memory_lib.h"
#include "pkey/tables_lib.h"
#include "topo/topo_lib.h"
#include "pkey/pkey_table_lib.h"
#include "util/error_lib.h"

static json_t *guid_str(uint64_t g)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "0x%016" PRIx64, g);
	return json_string(buf);
}

static json_t *keys_json(const ibp_pkey_table *t)
{
	json_t *keys = json_array();
	unsigned used = t ? ibp_pkey_table_used(t) : 0;
	for (unsigned k = 0; keys && k < used; k++) {
		char buf[7];
		json_array_append_new(
		    keys, json_string(
			      ibp_pkey_format(ibp_pkey_table_get(t, k), buf)));
	}
	return keys;
}

json_t *tables_json_port(const ibp_fabric *f, size_t n, unsigned p,
			 const ibp_pkey_table *t)
{
	json_t *o = json_object();
	json_t *keys = keys_json(t);
	if (!o || !keys) {
		json_decref(o);
		json_decref(keys);
		return NULL;
	}
	json_object_set_new(o, "node_guid",
			    guid_str(ibp_fabric_node_guid(f, n)));
	json_object_set_new(o, "port_guid",
			    guid_str(ibp_fabric_port_guid(f, n, p)));
	json_object_set_new(o, "port", json_integer(p));
	json_object_set_new(
	    o, "node_type",
	    json_string(ibp_node_type_str(ibp_fabric_node_type(f, n))));
	json_text_set(o, "node_desc", ibp_fabric_node_desc(f, n));
	json_object_set_new(o, "capacity",
			    json_integer(ibp_pkey_table_capacity(t)));
	json_object_set_new(o, "pkeys", keys);
	return o;
}

static json_t *tables_json(const ibp_tables *ts, const char *mode, uint64_t sm)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	json_t *root = json_object();
	json_t *ports = json_array();
	if (!root || !ports)
		goto fail;
	if (mode)
		json_object_set_new(root, "mode", json_string(mode));
	json_object_set_new(root, "sm_port_guid", guid_str(sm));
	size_t cnt = ibp_tables_count(ts);
	for (size_t i = 0; i < cnt; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &n, &p);
		json_t *o = tables_json_port(f, n, p, t);
		if (!o)
			goto fail;
		json_array_append_new(ports, o);
	}
	json_object_set_new(root, "ports", ports);
	return root;
fail:
	json_decref(root);
	json_decref(ports);
	return NULL;
}

char *ibp_tables_to_json(const ibp_tables *ts, const char *mode,
			 uint64_t sm_port_guid, int indent)
{
	json_t *j = tables_json(ts, mode, sm_port_guid);
	if (!j)
		return NULL;
	size_t flags = JSON_PRESERVE_ORDER;
	flags |= indent > 0 ? JSON_INDENT(indent) : JSON_COMPACT;
	char *s = json_dumps(j, flags);
	json_decref(j);
	return s;
}

/* ---- the streaming writer of `tables --format json` ----
 *
 * The document json_dumps() makes of tables_json() with
 * JSON_PRESERVE_ORDER | JSON_INDENT(1), byte for byte, written port by
 * port as it goes: at 48,000 ports the tree of objects jansson would
 * build, dump and free is most of the command's time and memory.  A
 * string that is not plain printable ASCII goes through jansson (its
 * escaping, the lossy UTF-8 and the "_hex" key), so the two writers
 * cannot disagree on it. */

/* a GUID as "0x%016" PRIx64 writes it, 18 bytes, not terminated */
static char *put_guid(char *o, uint64_t g)
{
	static const char hex[] = "0123456789abcdef";
	*o++ = '0';
	*o++ = 'x';
	for (int i = 60; i >= 0; i -= 4)
		*o++ = hex[(g >> i) & 15];
	return o;
}

/* ASCII from ' ' to '~', neither '"' nor '\\': written as it is */
static bool plain(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e ||
		    *s == '"' || *s == '\\')
			return false;
	return true;
}

/* ",\n" + indent + "\"key\": " + the value json_text_set() gives, and
 * its "_hex" twin where the text is no valid UTF-8 */
static int put_text(FILE *out, const char *key, const char *s)
{
	if (!s)
		s = "";
	if (plain(s))
		return fprintf(out, ",\n   \"%s\": \"%s\"", key, s) < 0;
	json_t *v = json_text(s);
	char *t = v ? json_dumps(v, JSON_ENCODE_ANY) : NULL;
	json_decref(v);
	int bad = !t || fprintf(out, ",\n   \"%s\": %s", key, t) < 0;
	free(t);
	size_t n = strlen(s);
	if (!bad && !ibp_utf8_valid(s, n)) {
		char *h = ibp_hex(s, n);
		bad = fprintf(out, ",\n   \"%s_hex\": \"%s\"", key,
			      h ? h : "") < 0;
		free(h);
	}
	return bad ? -1 : 0;
}

static int put_port(FILE *out, const ibp_fabric *f, size_t n, unsigned p,
		    const ibp_pkey_table *t, bool first)
{
	char buf[160], *o = buf;
	o += sprintf(o, "%s  {\n   \"node_guid\": \"", first ? "" : ",\n");
	o = put_guid(o, ibp_fabric_node_guid(f, n));
	o += sprintf(o, "\",\n   \"port_guid\": \"");
	o = put_guid(o, ibp_fabric_port_guid(f, n, p));
	o += sprintf(o, "\",\n   \"port\": %u,\n   \"node_type\": \"%s\"", p,
		     ibp_node_type_str(ibp_fabric_node_type(f, n)));
	if (fwrite(buf, 1, (size_t)(o - buf), out) != (size_t)(o - buf) ||
	    put_text(out, "node_desc", ibp_fabric_node_desc(f, n)))
		return -1;
	unsigned used = t ? ibp_pkey_table_used(t) : 0;
	o = buf + sprintf(buf, ",\n   \"capacity\": %u,\n   \"pkeys\": %s",
			  ibp_pkey_table_capacity(t), used ? "[" : "[]");
	static const char hex[] = "0123456789abcdef";
	for (unsigned k = 0; k < used; k++) {
		if (o - buf > (long)sizeof(buf) - 16) { /* ",\n    \"0x…\"" */
			if (fwrite(buf, 1, (size_t)(o - buf), out) !=
			    (size_t)(o - buf))
				return -1;
			o = buf;
		}
		uint16_t pk = ibp_pkey_table_get(t, k);
		if (k)
			*o++ = ',';
		memcpy(o, "\n    \"0x", 8);
		o += 8;
		for (int i = 12; i >= 0; i -= 4)
			*o++ = hex[(pk >> i) & 15];
		*o++ = '"';
	}
	o += sprintf(o, "%s", used ? "\n   ]\n  }" : "\n  }");
	return fwrite(buf, 1, (size_t)(o - buf), out) == (size_t)(o - buf) ? 0
									   : -1;
}

static int write_stream(const ibp_tables *ts, const char *mode,
			uint64_t sm_port_guid, FILE *out, ibp_error *err)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	char g[19];
	*put_guid(g, sm_port_guid) = 0;
	int bad = fputs("{\n", out) == EOF;
	if (!bad && mode) {
		json_t *m = json_string(mode);
		char *t = m ? json_dumps(m, JSON_ENCODE_ANY) : NULL;
		json_decref(m);
		bad = !t || fprintf(out, " \"mode\": %s,\n", t) < 0;
		free(t);
	}
	size_t cnt = ibp_tables_count(ts);
	if (!bad)
		bad = fprintf(out, " \"sm_port_guid\": \"%s\",\n \"ports\": %s",
			      g, cnt ? "[\n" : "[]") < 0;
	for (size_t i = 0; i < cnt && !bad; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &n, &p);
		bad = put_port(out, f, n, p, t, i == 0) != 0;
	}
	if (!bad)
		bad = fputs(cnt ? "\n ]\n}\n" : "\n}\n", out) == EOF;
	return bad ? ibp_error_set(err, IBP_EIO, "write failed: %s",
				   strerror(errno))
		   : 0;
}

int ibp_tables_write_json(const ibp_tables *ts, const char *mode,
			  uint64_t sm_port_guid, FILE *out, ibp_error *err)
{
	return write_stream(ts, mode, sm_port_guid, out, err);
}

static int write_path(const ibp_tables *ts, const char *mode,
		      uint64_t sm_port_guid, const char *path, ibp_error *err)
{
	ibp_atomic_file *a;
	FILE *out;
	int rc = ibp_atomic_file_open(path, &a, &out, err);
	if (rc)
		return rc;
	rc = write_stream(ts, mode, sm_port_guid, out, err);
	if (rc) {
		ibp_atomic_file_discard(a);
		return rc;
	}
	return ibp_atomic_file_commit(a, false, err);
}

int ibp_tables_write_json_path(const ibp_tables *ts, const char *mode,
			       uint64_t sm_port_guid, const char *path,
			       ibp_error *err)
{
	return write_path(ts, mode, sm_port_guid, path, err);
}

/* The old tables-and-remembered calls, over the one state file
 * (state_file.h): the remembered set is one P_Key per index. */
int ibp_tables_write_state_path(const ibp_tables *ts, const ibp_tables *rem,
				const char *mode, uint64_t sm_port_guid,
				const char *path, ibp_error *err)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	ibp_state_file *s = ibp_state_file_new(f);
	ibp_tables *c = s ? ibp_tables_copy(ts) : NULL;
	ibp_index_memory *m = rem ? ibp_index_memory_new(f) : NULL;
	int rc = c && (!rem || m) ? 0 : IBP_ENOMEM;
	if (!rc) {
		ibp_state_file_set_tables(s, c);
		c = NULL;
		ibp_state_file_set_memory(s, m);
		rc = ibp_state_file_set_mode(s, mode);
	}
	size_t cnt = rem ? ibp_tables_count(rem) : 0;
	for (size_t i = 0; i < cnt && !rc; i++) {
		size_t n;
		unsigned p;
		const ibp_pkey_table *t = ibp_tables_at(rem, i, &n, &p);
		rc = ibp_index_memory_add_port(m, n, p);
		unsigned used = ibp_pkey_table_used(t);
		for (unsigned k = 0; k < used && !rc; k++) {
			uint16_t pk = ibp_pkey_table_get(t, k);
			if (ibp_pkey_is_valid(pk))
				rc = ibp_index_memory_set(m, n, p, pk, k);
		}
	}
	if (rc) {
		ibp_tables_free(c);
		ibp_state_file_free(s);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	ibp_state_file_set_sm_port(s, sm_port_guid);
	rc = ibp_state_file_write(s, path, err);
	ibp_state_file_free(s);
	return rc;
}

bool tables_json_guid(const char *s, uint64_t *out)
{
	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	uint64_t g = 0;
	size_t n = 0;
	for (s += 2; *s; s++, n++) {
		int d = *s >= '0' && *s <= '9'	 ? *s - '0'
			: *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
			: *s >= 'A' && *s <= 'F' ? *s - 'A' + 10
						 : -1;
		if (d < 0 || n == 16)
			return false;
		g = g << 4 | (uint64_t)d;
	}
	if (!n)
		return false;
	*out = g;
	return true;
}

static int parse_guid(const json_t *v, uint64_t *out)
{
	return tables_json_guid(json_string_value(v), out) ? 0 : -1;
}

int tables_json_known(json_t *o, const char *path, const char *const *known,
		      char *msg, size_t size)
{
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v)
	{
		size_t k = 0;
		while (known[k] && strcmp(known[k], key))
			k++;
		if (!known[k]) {
			snprintf(msg, size, "%s%sunknown field '%s'", path,
				 *path ? ": " : "", key);
			return -1;
		}
	}
	return 0;
}

/* Every field a port entry of a tables document (tables_json_port) or
 * a state file (state_file.c, every version) carries. */
static const char *const port_fields[] = {
    "node_guid",   "port_guid",	    "port",	"node_type",
    "node_desc",   "node_desc_hex", "capacity", "pkeys",
    "enforcement", "remembered",    NULL};

#define CHECK_FAIL(...)                                                        \
	do {                                                                   \
		snprintf(msg, size, __VA_ARGS__);                              \
		return -1;                                                     \
	} while (0)

int tables_json_check_port(json_t *po, size_t i, char *msg, size_t size)
{
	char path[40];
	snprintf(path, sizeof(path), "ports[%zu]", i);
	if (!json_is_object(po))
		CHECK_FAIL("%s: not an object", path);
	if (tables_json_known(po, path, port_fields, msg, size))
		return -1;
	static const char *const guids[] = {"node_guid", "port_guid"};
	for (size_t k = 0; k < 2; k++) {
		json_t *v = json_object_get(po, guids[k]);
		uint64_t g;
		if (v && !json_is_string(v))
			CHECK_FAIL("%s.%s: not a GUID string", path, guids[k]);
		if (v && !tables_json_guid(json_string_value(v), &g))
			CHECK_FAIL("%s.%s: '%.40s' is not a GUID (0x and 1 to "
				   "16 hex digits)",
				   path, guids[k], json_string_value(v));
	}
	json_t *v = json_object_get(po, "port");
	if (v && !json_is_integer(v))
		CHECK_FAIL("%s.port: not an integer", path);
	if (v && (json_integer_value(v) < 0 || json_integer_value(v) > 254))
		CHECK_FAIL("%s.port: %lld is not a port number (0..254)", path,
			   (long long)json_integer_value(v));
	const char *t = json_string_value(v = json_object_get(po, "node_type"));
	if (v &&
	    (!t || (strcmp(t, "CA") && strcmp(t, "SW") && strcmp(t, "RT"))))
		CHECK_FAIL("%s.node_type: '%.20s' is not CA, SW or RT", path,
			   t ? t : "?");
	if ((v = json_object_get(po, "node_desc")) && !json_is_string(v))
		CHECK_FAIL("%s.node_desc: not a string", path);
	const char *h =
	    json_string_value(v = json_object_get(po, "node_desc_hex"));
	if (v && (!h || strlen(h) % 2 ||
		  strspn(h, "0123456789abcdefABCDEF") != strlen(h)))
		CHECK_FAIL("%s.node_desc_hex: not hex digits", path);
	json_t *keys = json_object_get(po, "pkeys");
	if (keys && !json_is_array(keys))
		CHECK_FAIL("%s.pkeys: not an array", path);
	size_t k;
	json_array_foreach(keys, k, v)
	{
		uint16_t pk;
		/* also on a port the fabric lacks: kept, and read again */
		if (ibp_pkey_parse(json_string_value(v), &pk, NULL))
			CHECK_FAIL("%s.pkeys[%zu]: not a P_Key", path, k);
	}
	if ((v = json_object_get(po, "capacity"))) {
		json_int_t c = json_integer_value(v);
		if (!json_is_integer(v))
			CHECK_FAIL("%s.capacity: not an integer", path);
		if (c < 1 || c > IBP_PKEY_TABLE_MAX)
			CHECK_FAIL("%s.capacity: %lld is not a P_KeyTable size "
				   "(1..%u)",
				   path, (long long)c,
				   (unsigned)IBP_PKEY_TABLE_MAX);
		if ((size_t)c < json_array_size(keys))
			CHECK_FAIL("%s.capacity: %lld is less than the %zu "
				   "P_Keys listed",
				   path, (long long)c, json_array_size(keys));
	}
	return 0;
}

int tables_json_check_root(json_t *root, char *msg, size_t size)
{
	static const char *const root_fields[] = {
	    "format", "version", "mode", "sm_port_guid",
	    "opensm", "ports",	 NULL};
	if (tables_json_known(root, "", root_fields, msg, size))
		return -1;
	json_t *v = json_object_get(root, "sm_port_guid");
	uint64_t g;
	if (v && !tables_json_guid(json_string_value(v), &g))
		CHECK_FAIL("sm_port_guid: '%.40s' is not a GUID (0x and 1 to "
			   "16 hex digits)",
			   json_is_string(v) ? json_string_value(v) : "?");
	if ((v = json_object_get(root, "mode")) && !json_is_string(v))
		CHECK_FAIL("mode: not a string");
	return 0;
}

static int parse_keys(json_t *keys, unsigned cap, size_t i, const char *what,
		      ibp_pkey_table **out, ibp_error *err)
{
	*out = NULL;
	if (json_array_size(keys) > cap)
		return ibp_error_set(err, IBP_EPARSE,
				     "JSON: ports[%zu].%s has %zu P_Keys, "
				     "capacity %u",
				     i, what, json_array_size(keys), cap);
	ibp_pkey_table *t = ibp_pkey_table_new(cap ? cap : 1);
	if (!t)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t k;
	json_t *kv;
	json_array_foreach(keys, k, kv)
	{
		uint16_t pk;
		const char *s = json_string_value(kv);
		if (!s || ibp_pkey_parse(s, &pk, NULL)) {
			ibp_pkey_table_free(t);
			return ibp_error_set(err, IBP_EPARSE,
					     "JSON: ports[%zu].%s[%zu] is not "
					     "a P_Key",
					     i, what, k);
		}
		/* the capacity was checked: only IBP_ENOMEM */
		if (pk && ibp_pkey_table_set(t, (unsigned)k, pk, NULL)) {
			ibp_pkey_table_free(t);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
	}
	*out = t;
	return 0;
}

void ibp_tables_json_options_init(ibp_tables_json_options *o)
{
	memset(o, 0, sizeof(*o));
}

/* The port an entry is about: by node_guid and port when the fabric has
 * that node, else by port_guid (and port, for a switch whose ports share
 * the GUID).  1 when the fabric has no such port, -1 when the entry names
 * none. */
int tables_json_find_port(const ibp_fabric *f, json_t *po, size_t *n,
			  unsigned *p)
{
	uint64_t ng = 0, pg = 0;
	bool have_ng = !parse_guid(json_object_get(po, "node_guid"), &ng);
	bool have_pg = !parse_guid(json_object_get(po, "port_guid"), &pg);
	json_t *jp = json_object_get(po, "port");
	if (!have_ng && !have_pg)
		return -1;
	if (jp && !json_is_integer(jp))
		return -1;
	json_int_t pn = jp ? json_integer_value(jp) : -1;
	if (have_ng && !ibp_fabric_find_node_guid(f, ng, n) && jp && pn >= 0 &&
	    pn <= (json_int_t)ibp_fabric_node_nports(f, *n)) {
		*p = (unsigned)pn;
		return 0;
	}
	if (!have_pg || ibp_fabric_find_port_guid(f, pg, n, p))
		return 1;
	if (!jp)
		return 0;
	if (pn < 0 || pn > (json_int_t)ibp_fabric_node_nports(f, *n))
		return 1;
	*p = (unsigned)pn;
	return 0;
}

/* The entry's "enforcement", on a switch external port. */
static int parse_enforcement(ibp_tables *ts, json_t *po, size_t i, size_t n,
			     unsigned p, ibp_error *err)
{
	json_t *v = json_object_get(po, "enforcement");
	const ibp_fabric *f = ibp_tables_fabric(ts);
	if (!v || ibp_fabric_node_type(f, n) != IBP_NODE_SWITCH || !p)
		return 0;
	ibp_part_enforce e;
	if (ibp_part_enforce_parse(json_string_value(v), &e))
		return ibp_error_set(err, IBP_EPARSE,
				     "JSON: ports[%zu].enforcement is both, "
				     "in, out or off",
				     i);
	bool in, outb;
	ibp_part_enforce_bits(e, &in, &outb);
	return ibp_tables_set_enforcement(ts, n, p, in, outb);
}

/* The capacity an entry's table gets. */
static int entry_capacity(const ibp_fabric *f, json_t *po, json_t *keys,
			  const ibp_tables_json_options *o, size_t i, size_t n,
			  unsigned p, unsigned *cap, ibp_error *err)
{
	*cap = ibp_fabric_port_capacity(f, n, p);
	if (!o || !o->capacity_from_file)
		return 0;
	json_int_t c = json_integer_value(json_object_get(po, "capacity"));
	if (c <= 0)
		c = (json_int_t)*cap;
	if ((json_int_t)json_array_size(keys) > c)
		c = (json_int_t)json_array_size(keys);
	if (c > IBP_PKEY_TABLE_MAX)
		return ibp_error_set(err, IBP_EPARSE,
				     "JSON: ports[%zu]: a capacity above %u", i,
				     (unsigned)IBP_PKEY_TABLE_MAX);
	*cap = (unsigned)c;
	return 0;
}

static int read_port(ibp_tables *ts, json_t *po, size_t i,
		     const ibp_tables_json_options *o, ibp_error *err)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	json_t *keys = json_object_get(po, "pkeys");
	size_t n;
	unsigned p;
	/* a state file's port with enforcement bits and no table */
	bool enf_only = !keys && json_object_get(po, "enforcement");
	int where = json_is_array(keys) || enf_only
			? tables_json_find_port(f, po, &n, &p)
			: -1;
	if (where < 0)
		return ibp_error_set(err, IBP_EPARSE,
				     "JSON: ports[%zu] needs port_guid (or "
				     "node_guid), port and pkeys",
				     i);
	if (where > 0) {
		if (!o || !o->unknown_ports_fail)
			return 0; /* not in this fabric */
		uint64_t ng = 0;
		parse_guid(json_object_get(po, "node_guid"), &ng);
		return ibp_error_set(
		    err, IBP_ENOENT,
		    "ports[%zu]: no such port in the topology (node_guid "
		    "0x%016" PRIx64 ", port %lld)",
		    i, ng,
		    (long long)json_integer_value(json_object_get(po, "port")));
	}
	if (enf_only)
		return parse_enforcement(ts, po, i, n, p, err);
	unsigned cap;
	ibp_pkey_table *t;
	int rc = entry_capacity(f, po, keys, o, i, n, p, &cap, err);
	if (!rc)
		rc = parse_keys(keys, cap, i, "pkeys", &t, err);
	if (rc)
		return rc;
	rc = ibp_tables_put(ts, n, p, t, err);
	if (rc) {
		ibp_pkey_table_free(t);
		return rc;
	}
	return parse_enforcement(ts, po, i, n, p, err);
}

static int from_json(const ibp_fabric *f, const char *text, size_t len,
		     const ibp_tables_json_options *o, ibp_tables **out,
		     char **mode_out, uint64_t *sm_out, ibp_error *err)
{
	*out = NULL;
	if (mode_out)
		*mode_out = NULL;
	if (sm_out)
		*sm_out = 0;
	json_error_t je;
	/* a key given twice is an error, not "the last one wins" */
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return ibp_error_set_at(err, IBP_EPARSE, "", (unsigned)je.line,
					(unsigned)je.column, "JSON: %s",
					je.text);
	int rc = 0;
	char msg[160];
	ibp_tables *ts = ibp_tables_new(f);
	json_t *ports = json_object_get(root, "ports");
	if (!ts) {
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
		goto done;
	}
	if (!json_is_array(ports)) {
		rc = ibp_error_set(err, IBP_EPARSE,
				   "JSON: no \"ports\" array (is this "
				   "`ibpart tables --format json` output?)");
		goto done;
	}
	if (tables_json_check_root(root, msg, sizeof(msg))) {
		rc = ibp_error_set(err, IBP_EPARSE, "JSON: %s", msg);
		goto done;
	}
	size_t i;
	json_t *po;
	json_array_foreach(ports, i, po)
	{
		if (tables_json_check_port(po, i, msg, sizeof(msg))) {
			rc = ibp_error_set(err, IBP_EPARSE, "JSON: %s", msg);
			goto done;
		}
		rc = read_port(ts, po, i, o, err);
		if (rc)
			goto done;
	}
	if (mode_out && json_is_string(json_object_get(root, "mode")) &&
	    !(*mode_out =
		  strdup(json_string_value(json_object_get(root, "mode"))))) {
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
		goto done;
	}
	if (sm_out) {
		uint64_t g;
		if (!parse_guid(json_object_get(root, "sm_port_guid"), &g))
			*sm_out = g;
	}
done:
	json_decref(root);
	if (rc) {
		ibp_tables_free(ts);
		if (mode_out) {
			free(*mode_out);
			*mode_out = NULL;
		}
		return rc;
	}
	*out = ts;
	return 0;
}

int ibp_tables_from_json(const ibp_fabric *f, const char *text, size_t len,
			 ibp_tables **out, char **mode_out, uint64_t *sm_out,
			 ibp_error *err)
{
	return from_json(f, text, len, NULL, out, mode_out, sm_out, err);
}

int ibp_tables_json_read(const ibp_fabric *f, const char *name,
			 const char *text, size_t len,
			 const ibp_tables_json_options *o, ibp_tables **out,
			 char **mode_out, uint64_t *sm_out, ibp_error *err)
{
	int rc = from_json(f, text ? text : "", text ? len : 0, o, out,
			   mode_out, sm_out, err);
	if (rc && err && !err->file[0] && name)
		snprintf(err->file, sizeof(err->file), "%s", name);
	return rc;
}

static int read_path(const ibp_fabric *f, const char *path,
		     const ibp_tables_json_options *o, ibp_tables **out,
		     char **mode_out, uint64_t *sm_out, ibp_error *err)
{
	*out = NULL;
	if (mode_out)
		*mode_out = NULL;
	if (sm_out)
		*sm_out = 0;
	char *buf;
	size_t len;
	size_t max = o && o->max_input_size ? o->max_input_size
					    : IBP_SMALL_INPUT_MAX_DEFAULT;
	int rrc = ibp_file_read_all(path, max, &buf, &len, err);
	if (rrc)
		return rrc;
	int rc =
	    from_json(f, buf ? buf : "", len, o, out, mode_out, sm_out, err);
	free(buf);
	if (rc && err && !err->file[0])
		snprintf(err->file, sizeof(err->file), "%s", path);
	return rc;
}

int ibp_tables_json_read_path(const ibp_fabric *f, const char *path,
			      const ibp_tables_json_options *o,
			      ibp_tables **out, char **mode_out,
			      uint64_t *sm_out, ibp_error *err)
{
	return read_path(f, path, o, out, mode_out, sm_out, err);
}

int ibp_tables_read_json_path(const ibp_fabric *f, const char *path,
			      ibp_tables **out, ibp_error *err)
{
	return read_path(f, path, NULL, out, NULL, NULL, err);
}

int ibp_tables_read_state_path(const ibp_fabric *f, const char *path,
			       ibp_tables **out, ibp_tables **remembered,
			       ibp_error *err)
{
	return ibp_tables_json_read_state(f, path, NULL, out, remembered, err);
}

int ibp_tables_json_read_state(const ibp_fabric *f, const char *path,
			       const ibp_tables_json_options *o,
			       ibp_tables **out, ibp_tables **remembered,
			       ibp_error *err)
{
	*out = NULL;
	if (remembered)
		*remembered = NULL;
	ibp_state_read_options so;
	ibp_state_read_options_init(&so);
	so.max_input_size = o ? o->max_input_size : 0;
	so.unknown_ports_fail = o && o->unknown_ports_fail;
	ibp_state_file *s;
	int rc = ibp_state_file_read(f, path, &so, &s, err);
	if (rc)
		return rc;
	const ibp_index_memory *m = ibp_state_file_memory(s);
	ibp_tables *rem = NULL;
	if (remembered && m && !(rem = ibp_tables_new(f)))
		rc = IBP_ENOMEM;
	size_t nn = ibp_fabric_node_count(f);
	for (size_t n = 0; rem && n < nn && !rc; n++) {
		unsigned np = ibp_fabric_node_nports(f, n);
		for (unsigned p = 0; p <= np && !rc; p++) {
			if (!ibp_index_memory_has_port(m, n, p))
				continue;
			ibp_pkey_table *t = ibp_tables_get_or_create(rem, n, p);
			if (!t) {
				rc = IBP_ENOMEM;
				break;
			}
			size_t cnt = ibp_index_memory_size(m, n, p);
			for (size_t i = 0; i < cnt && !rc; i++) {
				uint16_t k = 0;
				unsigned idx = 0;
				ibp_index_memory_entry(m, n, p, i, &k, &idx);
				if (idx < ibp_pkey_table_capacity(t) &&
				    !ibp_pkey_table_get(t, idx))
					rc =
					    ibp_pkey_table_set(t, idx, k, NULL);
			}
		}
	}
	if (!rc && !(*out = ibp_state_file_take_tables(s)))
		rc = IBP_ENOMEM;
	ibp_state_file_free(s);
	if (rc) {
		ibp_tables_free(rem);
		return ibp_error_set(err, rc, "out of memory");
	}
	if (remembered)
		*remembered = rem;
	return 0;
}
