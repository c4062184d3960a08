/*
 * opensm_conf.h - the options of OpenSM's opensm.conf that ibpart reads
 * (module policy, src/policy/opensm_conf.c): those that change the
 * P_KeyTables OpenSM programs (allow_both_pkeys, keep_pkey_indexes,
 * part_enforce, no_partition_enforcement) and those the audit weighs
 * (m_key, m_key_protection_level, sm_key, sa_key, and NVIDIA OpenSM's
 * m_key_per_port, allowed_sm_guids, sa_enhanced_trust_model), read as
 * OpenSM 3.3.23 reads them (osm_subnet.c), and how each one reaches the
 * partition manager at OpenSM's start and on SIGHUP.
 *
 * OpenSM's reading: lines of at most 1022 bytes (a longer one is read
 * as several), '#' starts a comment, the key is the first word, the
 * value the rest of the line with blanks around it and one pair of
 * quotes removed.  A boolean is TRUE only when the value is exactly
 * "TRUE": "true", "yes" or "1" are FALSE, silently (a warning here).  A
 * part_enforce other than both/in/out/off is "both" (OpenSM logs
 * "Invalid Cached Option Value").  no_partition_enforcement TRUE makes
 * part_enforce off.  A key given twice: the last line wins.
 *
 * Start and SIGHUP: OpenSM reads every option once at its start; on
 * SIGHUP it re-reads the file but takes only the options it may change
 * while running - keep_pkey_indexes, part_enforce and
 * no_partition_enforcement here, never allow_both_pkeys - and only the
 * keys the file has (a line removed leaves the option as it was).
 * no_partition_enforcement TRUE also writes "off" into OpenSM's
 * part_enforce itself, so a later FALSE leaves enforcement off until a
 * part_enforce line with another value is read (tables_compute.c).
 *
 * Ownership and threads: an ibp_osm_conf is plain data (no pointers) the
 * caller owns; reading a file touches only the struct it is given, so
 * distinct reads may run in different threads at once.  It carries the
 * version of the header the caller was built with,
 * `ibp_osm_conf c = {.version = IBP_OSM_CONF_VERSION};` (export.h): the
 * library fills only the fields that version has, and where it is given
 * one to read (ibp_monitor_options.osm) reads only those, OpenSM's
 * defaults standing for the rest.
 */
#ifndef IBPART_OPENSM_CONF_H
#define IBPART_OPENSM_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

/* part_enforce is an ibp_part_enforce (tables.h); the names below are
 * the same values under their former analysis spelling, kept for
 * existing callers. */
typedef ibp_part_enforce ibp_osm_enforce;
#define IBP_OSM_ENFORCE_BOTH IBP_ENFORCE_BOTH
#define IBP_OSM_ENFORCE_IN   IBP_ENFORCE_IN
#define IBP_OSM_ENFORCE_OUT  IBP_ENFORCE_OUT
#define IBP_OSM_ENFORCE_OFF  IBP_ENFORCE_OFF

#define IBP_OSM_CONF_VERSION 1
typedef struct ibp_osm_conf {
	unsigned version;	     /* IBP_OSM_CONF_VERSION, the caller's */
	bool have_m_key;	     /* an m_key line was present */
	uint64_t m_key;		     /* 0 = not set */
	unsigned m_key_protect_bits; /* m_key_protection_level */
	bool have_part_enforce;
	/* part_enforce as the option reads (an unknown value: both);
	 * no_partition_enforcement is not folded in (see
	 * ibp_osm_conf_enforce) */
	ibp_part_enforce part_enforce;
	bool no_partition_enforcement; /* no_partition_enforcement TRUE */
	bool allow_both_pkeys;
	char partition_config_file[512]; /* "" when absent */
	/* which of the options that change tables the file gives */
	bool have_no_partition_enforcement;
	bool have_allow_both_pkeys;
	bool have_keep_pkey_indexes;
	bool keep_pkey_indexes; /* default TRUE */
	/* The SM's and the SA's keys (SMInfo SM_Key, IBA 14.2.5.13; the SA
	 * header's SA_Key, 15.2.1.1): OpenSM's default for both is 1
	 * (OSM_DEFAULT_SM_KEY, OSM_DEFAULT_SA_KEY), also when absent. */
	bool have_sm_key, have_sa_key;
	uint64_t sm_key, sa_key;
	/* NVIDIA (MLNX) OpenSM's options; OpenSM 3.3.23 has none of them
	 * and ignores them.  have_nvidia: the file has at least one. */
	bool have_nvidia;
	bool have_m_key_per_port, m_key_per_port; /* default FALSE */
	bool have_allowed_sm_guids;
	char allowed_sm_guids[512]; /* "" when absent or empty */
	bool have_sa_enhanced_trust_model;
	bool sa_enhanced_trust_model; /* default FALSE */
	/* The subnet's GID prefix (IBA 4.1.1): OpenSM's default is
	 * 0xfe80000000000000 (IB_DEFAULT_SUBNET_PREFIX), also when absent;
	 * a value that is not a number is an error as the keys are. */
	bool have_subnet_prefix;
	uint64_t subnet_prefix;
	/* NVIDIA OpenSM's virtualization (virt_enabled: 0 ignore, 1
	 * disable, 2 enable virtualization on the ports that support it;
	 * default 0; MLNX_OFED 4.x and UFM 5.x/6.x opensm.conf).  Enabled,
	 * the SM manages SR-IOV VFs as virtual ports (vports) with their own
	 * GUIDs and P_KeyTables, which ibpart does not model. */
	bool have_virt_enabled;
	unsigned virt_enabled;
} ibp_osm_conf;

/* Read the opensm.conf at path as OpenSM does (above); unknown keys are
 * ignored.  Values OpenSM silently reads otherwise than written (a
 * boolean not exactly TRUE/FALSE, an unknown part_enforce) are warnings
 * "opensm-conf-value" in diags (may be NULL), at file:line:col.  A value
 * of m_key, m_key_protection_level, sm_key or sa_key that is not a
 * number is an error
 * (IBP_EPARSE, file:line; the audit refuses to guess the M_Key).
 * IBP_EIO when the file cannot be read (a missing file included), *out
 * untouched; IBP_EINVAL, nothing read or written, for out's version 0
 * or newer than the library's.  Otherwise *out is filled as far as its
 * version goes, its version kept. */
int ibp_osm_conf_load_diags(const char *path, ibp_osm_conf *out,
			    ibp_diags *diags, ibp_error *err);

/* The switch enforcement OpenSM runs with: off when
 * no_partition_enforcement is TRUE, else part_enforce (fields every
 * version has: c's version is not read). */
ibp_part_enforce ibp_osm_conf_enforce(const ibp_osm_conf *c);

IBP_END_DECLS
#endif
