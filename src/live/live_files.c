/*
 * live_files.c - files and processes around a live apply (see
 * include/ibpart/live.h): the rollback state file (JSON through jansson),
 * OpenSM's pid file, SIGHUP, and waiting for OpenSM's log to show the re-read
 * took effect.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "ibpart/live.h"
#include "util/file_read.h"
#include "util/json_text.h"
#include "ibpart/pkey.h"

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define STATE_FORMAT "ibpart-pkey-state-1"

static char *hex64(uint64_t v, char buf[24])
{
	snprintf(buf, 24, "0x%016llx", (unsigned long long)v);
	return buf;
}

int ibp_state_save(const ibp_tables *ts, const char *path, ibp_error *err)
{
	const ibp_fabric *f = ibp_tables_fabric(ts);
	json_t *root = json_object();
	json_t *ports = json_array();
	if (!root || !ports) {
		json_decref(root);
		json_decref(ports);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	json_object_set_new(root, "format", json_string(STATE_FORMAT));
	json_object_set_new(root, "ports", ports);
	size_t n = ibp_tables_count(ts);
	for (size_t i = 0; i < n; i++) {
		size_t node;
		unsigned port;
		const ibp_pkey_table *t = ibp_tables_at(ts, i, &node, &port);
		char b1[24], b2[24];
		json_t *p = json_object();
		json_t *keys = json_array();
		unsigned used = ibp_pkey_table_used(t);
		for (unsigned k = 0; k < used; k++) {
			char kb[8];
			snprintf(kb, sizeof(kb), "0x%04x",
				 ibp_pkey_table_get(t, k));
			json_array_append_new(keys, json_string(kb));
		}
		json_object_set_new(
		    p, "node_guid",
		    json_string(hex64(ibp_fabric_node_guid(f, node), b1)));
		json_object_set_new(
		    p, "port_guid",
		    json_string(
			hex64(ibp_fabric_port_guid(f, node, port), b2)));
		json_object_set_new(p, "port", json_integer(port));
		json_text_set(p, "node_desc", ibp_fabric_node_desc(f, node));
		json_object_set_new(p, "capacity",
				    json_integer(ibp_pkey_table_capacity(t)));
		json_object_set_new(p, "pkeys", keys);
		bool in, outb;
		if (ibp_tables_get_enforcement(ts, node, port, &in, &outb))
			json_object_set_new(
			    p, "enforcement",
			    json_string(ibp_part_enforce_str(
				ibp_part_enforce_from_bits(in, outb))));
		json_array_append_new(ports, p);
	}
	char *text = json_dumps(root, JSON_INDENT(1));
	json_decref(root);
	if (!text)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	size_t len = strlen(text);
	char *withnl = realloc(text, len + 2);
	if (!withnl) {
		free(text);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	withnl[len] = '\n';
	withnl[len + 1] = '\0';
	int rc = ibp_write_file_atomic(path, withnl, len + 1, false, err);
	free(withnl);
	return rc;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return false;
	*out = v;
	return true;
}

int ibp_state_load(const ibp_fabric *f, const char *path, bool skip_missing,
		   ibp_tables **out, ibp_error *err)
{
	return ibp_state_load_limit(f, path, 0, skip_missing, out, err);
}

int ibp_state_load_limit(const ibp_fabric *f, const char *path,
			 size_t max_input_size, bool skip_missing,
			 ibp_tables **out, ibp_error *err)
{
	*out = NULL;
	char *text = NULL;
	size_t len = 0;
	int rrc = ibp_file_read_all(
	    path, max_input_size ? max_input_size : IBP_SMALL_INPUT_MAX_DEFAULT,
	    &text, &len, err);
	if (rrc)
		return rrc;
	int rc =
	    ibp_state_load_buffer(f, path, text, len, skip_missing, out, err);
	free(text);
	return rc;
}

int ibp_state_load_buffer(const ibp_fabric *f, const char *path,
			  const char *text, size_t len, bool skip_missing,
			  ibp_tables **out, ibp_error *err)
{
	*out = NULL;
	if (!path)
		path = "<buffer>";
	json_error_t je;
	/* a key given twice is an error, not "the last one wins" */
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return ibp_error_set_at(err, IBP_EPARSE, path,
					(unsigned)je.line, (unsigned)je.column,
					"%s", je.text);
	int rc = IBP_OK;
	ibp_tables *ts = ibp_tables_new(f);
	json_t *ports = json_object_get(root, "ports");
	const char *fmt = json_string_value(json_object_get(root, "format"));
	if (!ts) {
		rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
		goto out;
	}
	if (!fmt || strcmp(fmt, STATE_FORMAT) || !json_is_array(ports)) {
		rc = ibp_error_set_at(err, IBP_EPARSE, path, 0, 0,
				      "not an ibpart state file (format "
				      "\"%s\" expected)",
				      STATE_FORMAT);
		goto out;
	}
	size_t i;
	json_t *p;
	json_array_foreach(ports, i, p)
	{
		const char *ng =
		    json_string_value(json_object_get(p, "node_guid"));
		json_t *pn = json_object_get(p, "port");
		json_t *keys = json_object_get(p, "pkeys");
		uint64_t guid;
		size_t node;
		if (!ng || !parse_u64(ng, &guid) || !json_is_integer(pn) ||
		    !json_is_array(keys)) {
			rc = ibp_error_set_at(err, IBP_EPARSE, path, 0, 0,
					      "ports[%zu] is malformed (needs "
					      "node_guid, port, pkeys)",
					      i);
			goto out;
		}
		/* a port number is 0..254 (IBA 14.2.5.6): 4294967297 must
		 * not wrap to port 1 */
		json_int_t pv = json_integer_value(pn);
		if (pv < 0 || pv > 254) {
			rc = ibp_error_set_at(err, IBP_EPARSE, path, 0, 0,
					      "ports[%zu].port: %lld is not a "
					      "port number (0..254)",
					      i, (long long)pv);
			goto out;
		}
		unsigned port = (unsigned)pv;
		if (ibp_fabric_find_node_guid(f, guid, &node) ||
		    port > ibp_fabric_node_nports(f, node)) {
			if (skip_missing)
				continue;
			rc = ibp_error_set(err, IBP_ENOENT,
					   "%s: node %s port %u is not in the "
					   "fabric",
					   path, ng, port);
			goto out;
		}
		const char *enf =
		    json_string_value(json_object_get(p, "enforcement"));
		if (enf) {
			ibp_part_enforce e;
			bool in, outb;
			if (ibp_part_enforce_parse(enf, &e)) {
				rc = ibp_error_set_at(
				    err, IBP_EPARSE, path, 0, 0,
				    "ports[%zu].enforcement: both, in, out or "
				    "off",
				    i);
				goto out;
			}
			ibp_part_enforce_bits(e, &in, &outb);
			ibp_tables_set_enforcement(ts, node, port, in, outb);
		}
		if (ibp_tables_get(ts, node, port)) {
			rc = ibp_error_set_at(err, IBP_EPARSE, path, 0, 0,
					      "ports[%zu]: node %s port %u is "
					      "listed twice",
					      i, ng, port);
			goto out;
		}
		ibp_pkey_table *t = ibp_tables_get_or_create(ts, node, port);
		if (!t) {
			rc = ibp_error_set(err, IBP_ENOMEM, "out of memory");
			goto out;
		}
		size_t k;
		json_t *kv;
		json_array_foreach(keys, k, kv)
		{
			const char *s = json_string_value(kv);
			uint64_t v;
			if (!s || !parse_u64(s, &v) || v > 0xffff) {
				rc = ibp_error_set_at(err, IBP_EPARSE, path, 0,
						      0,
						      "ports[%zu].pkeys[%zu]: "
						      "not a P_Key",
						      i, k);
				goto out;
			}
			rc = ibp_pkey_table_set(t, (unsigned)k, (uint16_t)v,
						err);
			if (rc)
				goto out;
		}
	}
out:
	json_decref(root);
	if (rc) {
		ibp_tables_free(ts);
		return rc;
	}
	*out = ts;
	return IBP_OK;
}

/* ------------------------------------------------------ OpenSM side */

int ibp_read_pidfile(const char *path, pid_t *out, ibp_error *err)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return ibp_error_set(err, IBP_EIO,
				     "cannot read pid file %s: %s", path,
				     strerror(errno));
	long v = 0;
	int n = fscanf(fp, "%ld", &v);
	fclose(fp);
	if (n != 1 || v <= 0)
		return ibp_error_set(err, IBP_EINVAL,
				     "pid file %s holds no process id", path);
	*out = (pid_t)v;
	return IBP_OK;
}

int ibp_signal_reread(pid_t pid, ibp_error *err)
{
	if (pid <= 0)
		return ibp_error_set(err, IBP_EINVAL, "bad pid %ld", (long)pid);
	if (kill(pid, SIGHUP) == 0)
		return IBP_OK;
	if (errno == ESRCH)
		return ibp_error_set(err, IBP_ENOENT, "no process %ld",
				     (long)pid);
	return ibp_error_set(err, IBP_EIO, "cannot signal process %ld: %s",
			     (long)pid, strerror(errno));
}

long ibp_file_size(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return 0;
	return (long)st.st_size;
}

int ibp_wait_log(const char *log_path, long offset, const char *needle,
		 int timeout_ms, long *found_ms, ibp_error *err)
{
	long long start = now_ms();
	size_t nlen = strlen(needle);
	char *acc = NULL;
	size_t alen = 0;
	long pos = offset;
	int rc = IBP_ETIMEDOUT;
	for (;;) {
		FILE *fp = fopen(log_path, "r");
		if (fp) {
			if (ibp_file_size(log_path) < pos)
				pos = 0; /* the log was rotated/truncated */
			if (fseek(fp, pos, SEEK_SET) == 0) {
				char buf[8192];
				size_t r;
				while ((r = fread(buf, 1, sizeof(buf), fp))) {
					char *na = realloc(acc, alen + r + 1);
					if (!na) {
						fclose(fp);
						free(acc);
						return ibp_error_set(
						    err, IBP_ENOMEM,
						    "out of memory");
					}
					acc = na;
					memcpy(acc + alen, buf, r);
					alen += r;
					acc[alen] = '\0';
					pos += (long)r;
				}
			}
			fclose(fp);
		}
		if (acc && alen >= nlen && memmem(acc, alen, needle, nlen)) {
			rc = IBP_OK;
			break;
		}
		if (now_ms() - start >= timeout_ms)
			break;
		struct timespec ts = {0, 5 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	free(acc);
	if (found_ms)
		*found_ms = (long)(now_ms() - start);
	if (rc)
		return ibp_error_set(err, IBP_ETIMEDOUT,
				     "\"%s\" did not appear in %s within %d "
				     "ms",
				     needle, log_path, timeout_ms);
	return IBP_OK;
}
