/*
 * opensm_conf_lib.h - the library's own half of ibpart/opensm_conf.h: what
 * other modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/opensm_conf.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_POLICY_OPENSM_CONF_LIB_H
#define IBPART_POLICY_OPENSM_CONF_LIB_H

#include "ibpart/opensm_conf.h"

/* ibp_osm_conf_load_diags reading at most max_input_size bytes (0: 64
 * MiB, IBP_SMALL_INPUT_MAX_DEFAULT); a longer file is IBP_ERANGE. */
int ibp_osm_conf_load_limit(const char *path, size_t max_input_size,
			    ibp_osm_conf *out, ibp_error *err);
int ibp_osm_conf_load_limit_diags(const char *path, size_t max_input_size,
				  ibp_osm_conf *out, ibp_diags *diags,
				  ibp_error *err);
int ibp_osm_conf_parse(const char *name, const char *text, size_t len,
		       ibp_osm_conf *out, ibp_error *err);

/* A caller's *c (as far as its version goes) over OpenSM's defaults (an
 * empty file's reading) in the library's whole current *full: how the
 * library reads an ibp_osm_conf a program gives it.  IBP_EINVAL naming
 * it for NULL c or a version 0 or newer than the library's (*full then
 * holds the defaults). */
int ibp_osm_conf_take(ibp_osm_conf *full, const ibp_osm_conf *c,
		      ibp_error *err);

#endif
