/*
 * tables_json.c - P_KeyTables <-> the JSON of `ibpart tables --format
 * json` and of `tables --state` (docs/json-schemas.md, and
 * include/ibpart/tables_json.h), with jansson.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "util/file_read.h"
#include "ibpart/atomic_file.h"
#include "ibpart/pkey.h"
#include "ibpart/tables_json.h"

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

static json_t *tables_json(const ibp_tables *ts, const ibp_tables *rem,
			   const char *mode, uint64_t sm)
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
		json_t *o = json_object();
		json_t *keys = keys_json(t);
		if (!o || !keys) {
			json_decref(o);
			json_decref(keys);
			goto fail;
		}
		json_object_set_new(o, "node_guid",
				    guid_str(ibp_fabric_node_guid(f, n)));
		json_object_set_new(o, "port_guid",
				    guid_str(ibp_fabric_port_guid(f, n, p)));
		json_object_set_new(o, "port", json_integer(p));
		json_object_set_new(
		    o, "node_type",
		    json_string(ibp_node_type_str(ibp_fabric_node_type(f, n))));
		json_object_set_new(o, "node_desc",
				    json_string(ibp_fabric_node_desc(f, n)));
		json_object_set_new(o, "capacity",
				    json_integer(ibp_pkey_table_capacity(t)));
		json_object_set_new(o, "pkeys", keys);
		const ibp_pkey_table *r =
		    rem ? ibp_tables_get(rem, n, p) : NULL;
		if (r)
			json_object_set_new(o, "remembered", keys_json(r));
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
	json_t *j = tables_json(ts, NULL, mode, sm_port_guid);
	if (!j)
		return NULL;
	size_t flags = JSON_PRESERVE_ORDER;
	flags |= indent > 0 ? JSON_INDENT(indent) : JSON_COMPACT;
	char *s = json_dumps(j, flags);
	json_decref(j);
	return s;
}

static char *dump(const ibp_tables *ts, const ibp_tables *rem, const char *mode,
		  uint64_t sm)
{
	json_t *j = tables_json(ts, rem, mode, sm);
	if (!j)
		return NULL;
	char *s = json_dumps(j, JSON_PRESERVE_ORDER | JSON_INDENT(1));
	json_decref(j);
	return s;
}

static int write_stream(const ibp_tables *ts, const ibp_tables *rem,
			const char *mode, uint64_t sm_port_guid, FILE *out,
			ibp_error *err)
{
	char *s = dump(ts, rem, mode, sm_port_guid);
	if (!s)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc = 0;
	if (fputs(s, out) == EOF || fputc('\n', out) == EOF)
		rc = ibp_error_set(err, IBP_EIO, "write failed: %s",
				   strerror(errno));
	free(s);
	return rc;
}

int ibp_tables_write_json(const ibp_tables *ts, const char *mode,
			  uint64_t sm_port_guid, FILE *out, ibp_error *err)
{
	return write_stream(ts, NULL, mode, sm_port_guid, out, err);
}

static int write_path(const ibp_tables *ts, const ibp_tables *rem,
		      const char *mode, uint64_t sm_port_guid, const char *path,
		      ibp_error *err)
{
	ibp_atomic_file *a;
	FILE *out;
	int rc = ibp_atomic_file_open(path, &a, &out, err);
	if (rc)
		return rc;
	rc = write_stream(ts, rem, mode, sm_port_guid, out, err);
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
	return write_path(ts, NULL, mode, sm_port_guid, path, err);
}

int ibp_tables_write_state_path(const ibp_tables *ts, const ibp_tables *rem,
				const char *mode, uint64_t sm_port_guid,
				const char *path, ibp_error *err)
{
	return write_path(ts, rem, mode, sm_port_guid, path, err);
}

static int parse_guid(const json_t *v, uint64_t *out)
{
	const char *s = json_string_value(v);
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	unsigned long long g = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = g;
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
		if (pk)
			ibp_pkey_table_set(t, (unsigned)k, pk, NULL);
	}
	*out = t;
	return 0;
}

static int from_json(const ibp_fabric *f, const char *text, size_t len,
		     ibp_tables **out, ibp_tables **rem_out, char **mode_out,
		     uint64_t *sm_out, ibp_error *err)
{
	*out = NULL;
	ibp_tables *rem = NULL;
	if (rem_out)
		*rem_out = NULL;
	if (mode_out)
		*mode_out = NULL;
	if (sm_out)
		*sm_out = 0;
	json_error_t je;
	json_t *root = json_loadb(text, len, 0, &je);
	if (!root)
		return ibp_error_set_at(err, IBP_EPARSE, "", (unsigned)je.line,
					(unsigned)je.column, "JSON: %s",
					je.text);
	int rc = 0;
	ibp_tables *ts = ibp_tables_new(f);
	json_t *ports = json_object_get(root, "ports");
	if (!ts) {
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
		goto done;
	}
	if (!json_is_array(ports)) {
		rc = ibp_error_set(err, IBP_EPARSE, "JSON: no \"ports\" array");
		goto done;
	}
	size_t i;
	json_t *po;
	json_array_foreach(ports, i, po)
	{
		uint64_t guid;
		json_t *jp = json_object_get(po, "port");
		json_t *keys = json_object_get(po, "pkeys");
		if (parse_guid(json_object_get(po, "port_guid"), &guid) ||
		    !json_is_integer(jp) || !json_is_array(keys)) {
			rc = ibp_error_set(err, IBP_EPARSE,
					   "JSON: ports[%zu] needs port_guid, "
					   "port and pkeys",
					   i);
			goto done;
		}
		size_t n;
		unsigned p;
		if (ibp_fabric_find_port_guid(f, guid, &n, &p))
			continue; /* not in this fabric */
		json_int_t pn = json_integer_value(jp);
		if (pn < 0 || pn > (json_int_t)ibp_fabric_node_nports(f, n))
			continue;
		p = (unsigned)pn;
		unsigned cap = ibp_fabric_port_capacity(f, n, p);
		ibp_pkey_table *t;
		rc = parse_keys(keys, cap, i, "pkeys", &t, err);
		if (rc)
			goto done;
		json_t *rk = json_object_get(po, "remembered");
		if (rem_out && json_is_array(rk)) {
			ibp_pkey_table *r;
			if (!rem && !(rem = ibp_tables_new(f))) {
				ibp_pkey_table_free(t);
				rc = ibp_error_set(err, IBP_ENOMEM,
						   "out of memory");
				goto done;
			}
			rc = parse_keys(rk, cap, i, "remembered", &r, err);
			if (!rc && (rc = ibp_tables_put(rem, n, p, r, err)))
				ibp_pkey_table_free(r);
			if (rc) {
				ibp_pkey_table_free(t);
				goto done;
			}
		}
		rc = ibp_tables_put(ts, n, p, t, err);
		if (rc) {
			ibp_pkey_table_free(t);
			goto done;
		}
	}
	if (mode_out && json_is_string(json_object_get(root, "mode")))
		*mode_out =
		    strdup(json_string_value(json_object_get(root, "mode")));
	if (sm_out) {
		uint64_t g;
		if (!parse_guid(json_object_get(root, "sm_port_guid"), &g))
			*sm_out = g;
	}
done:
	json_decref(root);
	if (rc) {
		ibp_tables_free(ts);
		ibp_tables_free(rem);
		return rc;
	}
	*out = ts;
	if (rem_out)
		*rem_out = rem;
	return 0;
}

int ibp_tables_from_json(const ibp_fabric *f, const char *text, size_t len,
			 ibp_tables **out, char **mode_out, uint64_t *sm_out,
			 ibp_error *err)
{
	return from_json(f, text, len, out, NULL, mode_out, sm_out, err);
}

static int read_path(const ibp_fabric *f, const char *path, ibp_tables **out,
		     ibp_tables **rem, ibp_error *err)
{
	*out = NULL;
	char *buf;
	size_t len;
	int rrc = ibp_file_read_all(path, &buf, &len, err);
	if (rrc)
		return rrc;
	int rc = from_json(f, buf ? buf : "", len, out, rem, NULL, NULL, err);
	free(buf);
	if (rc && err && !err->file[0])
		snprintf(err->file, sizeof(err->file), "%s", path);
	return rc;
}

int ibp_tables_read_json_path(const ibp_fabric *f, const char *path,
			      ibp_tables **out, ibp_error *err)
{
	return read_path(f, path, out, NULL, err);
}

int ibp_tables_read_state_path(const ibp_fabric *f, const char *path,
			       ibp_tables **out, ibp_tables **remembered,
			       ibp_error *err)
{
	return read_path(f, path, out, remembered, err);
}
