/*
 * analysis_osmconf.c - the few options of OpenSM's opensm.conf that decide
 * how safe a partition plan is in practice: the M_Key (m_key,
 * m_key_protection_level) and switch partition enforcement (part_enforce,
 * the deprecated no_partition_enforcement).
 *
 * opensm.conf is "key value" per line with '#' comments (what `opensm -c`
 * writes).  Unknown keys are ignored, as OpenSM ignores what it does not
 * use here; a malformed value of a key we read is an error at file:line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/file_read.h"
#include "ibpart/analysis.h"

static int bad(ibp_error *err, const char *name, unsigned line, const char *key,
	       const char *val)
{
	return ibp_error_set_at(err, IBP_EPARSE, name, line, 1,
				"bad value '%s' for %s", val, key);
}

static bool parse_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "TRUE")) {
		*out = true;
		return true;
	}
	if (!strcasecmp(v, "FALSE")) {
		*out = false;
		return true;
	}
	return false;
}

static bool parse_u64(const char *v, uint64_t *out)
{
	if (!*v || *v == '-')
		return false;
	errno = 0;
	char *end;
	unsigned long long x = strtoull(v, &end, 0);
	if (errno || *end)
		return false;
	*out = x;
	return true;
}

int ibp_osm_conf_parse(const char *name, const char *text, size_t len,
		       ibp_osm_conf *out, ibp_error *err)
{
	memset(out, 0, sizeof(*out));
	out->part_enforce = IBP_ENFORCE_BOTH;
	unsigned line = 0;
	size_t i = 0;
	char buf[1024];
	while (i < len) {
		size_t ls = i;
		while (i < len && text[i] != '\n')
			i++;
		size_t n = i - ls;
		if (i < len)
			i++;
		line++;
		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, text + ls, n);
		buf[n] = 0;
		char *h = strchr(buf, '#');
		if (h)
			*h = 0;
		char *save = NULL;
		char *key = strtok_r(buf, " \t\r", &save);
		if (!key)
			continue;
		char *val = strtok_r(NULL, " \t\r", &save);
		if (!val)
			val = "";
		if (!strcmp(key, "m_key")) {
			if (!parse_u64(val, &out->m_key))
				return bad(err, name, line, key, val);
			out->have_m_key = true;
		} else if (!strcmp(key, "m_key_protection_level")) {
			uint64_t v;
			if (!parse_u64(val, &v) || v > 3)
				return bad(err, name, line, key, val);
			out->m_key_protect_bits = (unsigned)v;
		} else if (!strcmp(key, "part_enforce")) {
			if (ibp_part_enforce_parse(val, &out->part_enforce))
				return bad(err, name, line, key, val);
			out->have_part_enforce = true;
		} else if (!strcmp(key, "no_partition_enforcement")) {
			if (!parse_bool(val, &out->no_partition_enforcement))
				return bad(err, name, line, key, val);
		} else if (!strcmp(key, "allow_both_pkeys")) {
			if (!parse_bool(val, &out->allow_both_pkeys))
				return bad(err, name, line, key, val);
		} else if (!strcmp(key, "partition_config_file")) {
			snprintf(out->partition_config_file,
				 sizeof(out->partition_config_file), "%s", val);
		}
	}
	return 0;
}

int ibp_osm_conf_load(const char *path, ibp_osm_conf *out, ibp_error *err)
{
	return ibp_osm_conf_load_limit(path, 0, out, err);
}

int ibp_osm_conf_load_limit(const char *path, size_t max_input_size,
			    ibp_osm_conf *out, ibp_error *err)
{
	char *buf;
	size_t len;
	int rrc = ibp_file_read_all(
	    path, max_input_size ? max_input_size : IBP_SMALL_INPUT_MAX_DEFAULT,
	    &buf, &len, err);
	if (rrc)
		return rrc;
	int rc = ibp_osm_conf_parse(path, buf, len, out, err);
	free(buf);
	return rc;
}
