/*
 * opensm_conf.c - opensm.conf as OpenSM 3.3.23 reads it
 * (include/ibpart/opensm_conf.h): its line reader (fgets of 1023 bytes,
 * '#' comments, strtok for the key, clean_val for the value) and its
 * parsers for the options ibpart uses - booleans TRUE only when exactly
 * "TRUE", part_enforce falling back to "both" - so that a file ibpart
 * reads means what it means to OpenSM.  The M_Key options keep the
 * audit's strict reading (a value that is not a number is an error: the
 * audit must not guess a key).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/file_read.h"
#include "ibpart/opensm_conf.h"
#include "policy/opensm_conf_lib.h"
#include "util/diag_lib.h"
#include "pkey/tables_lib.h"
#include "ibpart/sys/opensm_conf.h"
#include "util/error_lib.h"
#include "util/options_version.h"

/* OpenSM's fgets(line, 1023, ...): at most 1022 bytes a piece. */
#define OSM_PIECE 1022

static int bad(ibp_error *err, const char *name, unsigned line, const char *key,
	       const char *val)
{
	return ibp_error_set_at(err, IBP_EPARSE, name, line, 1,
				"bad value '%s' for %s", val, key);
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

/* osm_subnet.c clean_val(): blanks around, then one pair of quotes. */
static char *clean_val(char *val)
{
	while (isspace((unsigned char)*val))
		val++;
	if (!*val)
		return val;
	char *p = val + strlen(val) - 1;
	while (p > val && isspace((unsigned char)*p))
		p--;
	p[1] = '\0';
	if ((*val == '"' && *p == '"') || (*val == '\'' && *p == '\'')) {
		val++;
		*p = '\0';
	}
	return val;
}

struct rd {
	const char *name;
	ibp_diags *diags;
	unsigned line;
};

static void warn(struct rd *r, const char *key, const char *val,
		 const char *means)
{
	if (r->diags)
		ibp_diags_add(r->diags, IBP_SEV_WARNING, "opensm-conf-value",
			      r->name, r->line, 1, "%s '%s': %s", key, val,
			      means);
}

/* opts_parse_boolean(): TRUE only when exactly "TRUE". */
static bool osm_bool(struct rd *r, const char *key, const char *val)
{
	bool v = !strcmp(val, "TRUE");
	if (!v && strcmp(val, "FALSE"))
		warn(r, key, val,
		     "OpenSM takes a boolean as TRUE only when it is exactly "
		     "TRUE, so it reads FALSE");
	return v;
}

static void take(struct rd *r, ibp_osm_conf *o, const char *key, char *val,
		 int *rc, ibp_error *err)
{
	if (!strcmp(key, "m_key")) {
		if (!parse_u64(val, &o->m_key))
			*rc = bad(err, r->name, r->line, key, val);
		o->have_m_key = true;
	} else if (!strcmp(key, "m_key_protection_level")) {
		uint64_t v;
		if (!parse_u64(val, &v) || v > 3)
			*rc = bad(err, r->name, r->line, key, val);
		else
			o->m_key_protect_bits = (unsigned)v;
	} else if (!strcmp(key, "part_enforce")) {
		/* osm_subn_verify_config(): anything else is "both" */
		if (ibp_part_enforce_parse(val, &o->part_enforce)) {
			warn(r, key, val,
			     "not both, in, out or off: OpenSM uses both");
			o->part_enforce = IBP_ENFORCE_BOTH;
		}
		o->have_part_enforce = true;
	} else if (!strcmp(key, "no_partition_enforcement")) {
		o->no_partition_enforcement = osm_bool(r, key, val);
		o->have_no_partition_enforcement = true;
	} else if (!strcmp(key, "allow_both_pkeys")) {
		o->allow_both_pkeys = osm_bool(r, key, val);
		o->have_allow_both_pkeys = true;
	} else if (!strcmp(key, "keep_pkey_indexes")) {
		o->keep_pkey_indexes = osm_bool(r, key, val);
		o->have_keep_pkey_indexes = true;
	} else if (!strcmp(key, "sm_key") || !strcmp(key, "sa_key")) {
		bool sm = key[1] == 'm';
		if (!parse_u64(val, sm ? &o->sm_key : &o->sa_key))
			*rc = bad(err, r->name, r->line, key, val);
		*(sm ? &o->have_sm_key : &o->have_sa_key) = true;
	} else if (!strcmp(key, "subnet_prefix")) {
		if (!parse_u64(val, &o->subnet_prefix))
			*rc = bad(err, r->name, r->line, key, val);
		o->have_subnet_prefix = true;
	} else if (!strcmp(key, "m_key_per_port")) {
		o->m_key_per_port = osm_bool(r, key, val);
		o->have_m_key_per_port = o->have_nvidia = true;
	} else if (!strcmp(key, "allowed_sm_guids")) {
		snprintf(o->allowed_sm_guids, sizeof(o->allowed_sm_guids), "%s",
			 val);
		o->have_allowed_sm_guids = o->have_nvidia = true;
	} else if (!strcmp(key, "sa_enhanced_trust_model")) {
		o->sa_enhanced_trust_model = osm_bool(r, key, val);
		o->have_sa_enhanced_trust_model = o->have_nvidia = true;
	} else if (!strcmp(key, "virt_enabled")) {
		uint64_t v;
		if (!parse_u64(val, &v) || v > 2) {
			warn(r, key, val,
			     "not 0, 1 or 2: read as 0 (virtualization "
			     "ignored)");
			v = 0;
		}
		o->virt_enabled = (unsigned)v;
		o->have_virt_enabled = o->have_nvidia = true;
	} else if (!strcmp(key, "partition_config_file")) {
		snprintf(o->partition_config_file,
			 sizeof(o->partition_config_file), "%s", val);
	}
}

IBP_RESULT_LAYOUT(osm_conf_layout, "ibp_osm_conf", IBP_OSM_CONF_VERSION,
		  sizeof(ibp_osm_conf));

/* Read text into the library's whole current *out. */
static int read_full(const char *name, const char *text, size_t len,
		     ibp_osm_conf *out, ibp_diags *diags, ibp_error *err)
{
	*out = (ibp_osm_conf){.version = IBP_OSM_CONF_VERSION};
	out->part_enforce = IBP_ENFORCE_BOTH;
	out->keep_pkey_indexes = true;
	out->sm_key = out->sa_key = 1; /* OSM_DEFAULT_SM_KEY, _SA_KEY */
	out->subnet_prefix =
	    0xfe80000000000000ULL; /* IB_DEFAULT_SUBNET_PREFIX */
	struct rd r = {name ? name : "<buffer>", diags, 1};
	char buf[OSM_PIECE + 1];
	size_t i = 0;
	int rc = 0;
	while (i < len && !rc) {
		/* one fgets(): up to a newline or 1022 bytes */
		size_t n = 0;
		while (i + n < len && n < OSM_PIECE && text[i + n] != '\n')
			n++;
		bool nl = i + n < len && n < OSM_PIECE;
		if (nl)
			n++;
		memcpy(buf, text + i, n);
		buf[n] = '\0'; /* a NUL inside ends the string, as in C */
		i += n;
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		char *val = NULL;
		char *key = strtok_r(buf, " \t\n", &val);
		if (key)
			take(&r, out, key, clean_val(val ? val : ""), &rc, err);
		if (nl)
			r.line++;
	}
	return rc;
}

int ibp_osm_conf_read(const char *name, const char *text, size_t len,
		      ibp_osm_conf *out, ibp_diags *diags, ibp_error *err)
{
	if (ibp_result_check(out, &osm_conf_layout, err))
		return IBP_EINVAL;
	ibp_osm_conf c;
	int rc = read_full(name, text, len, &c, diags, err);
	ibp_result_give(out, &c, &osm_conf_layout);
	return rc;
}

int ibp_osm_conf_take(ibp_osm_conf *full, const ibp_osm_conf *c, ibp_error *err)
{
	read_full(NULL, "", 0, full, NULL, NULL); /* OpenSM's defaults */
	if (ibp_result_check(c, &osm_conf_layout, err))
		return IBP_EINVAL;
	memcpy(full, c, ibp_result_size(c, &osm_conf_layout));
	return IBP_OK;
}

int ibp_osm_conf_parse(const char *name, const char *text, size_t len,
		       ibp_osm_conf *out, ibp_error *err)
{
	return ibp_osm_conf_read(name, text, len, out, NULL, err);
}

int ibp_osm_conf_load_diags(const char *path, ibp_osm_conf *out,
			    ibp_diags *diags, ibp_error *err)
{
	return ibp_osm_conf_load_limit_diags(path, 0, out, diags, err);
}

int ibp_osm_conf_load_limit(const char *path, size_t max_input_size,
			    ibp_osm_conf *out, ibp_error *err)
{
	return ibp_osm_conf_load_limit_diags(path, max_input_size, out, NULL,
					     err);
}

int ibp_osm_conf_load_limit_diags(const char *path, size_t max_input_size,
				  ibp_osm_conf *out, ibp_diags *diags,
				  ibp_error *err)
{
	if (ibp_result_check(out, &osm_conf_layout, err))
		return IBP_EINVAL;
	char *buf;
	size_t len;
	int rrc = ibp_file_read_all(
	    path, max_input_size ? max_input_size : IBP_SMALL_INPUT_MAX_DEFAULT,
	    &buf, &len, err);
	if (rrc)
		return rrc;
	int rc = ibp_osm_conf_read(path, buf, len, out, diags, err);
	free(buf);
	return rc;
}

ibp_part_enforce ibp_osm_conf_enforce(const ibp_osm_conf *c)
{
	return c->no_partition_enforcement ? IBP_ENFORCE_OFF : c->part_enforce;
}
