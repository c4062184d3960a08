/*
 * results_v1.h - the result structs a caller allocates and libibpart
 * fills, as the stable headers declared them at version 1 (ibp_plan,
 * ibp_tables_result, ibp_apply_opensm_result, ibp_apply_counts,
 * ibp_explanation, ibp_osm_conf): what a program built then holds.
 * Frozen here under their own names, so the old caller's guard pages
 * stay at version 1's size when a later version adds fields, and a
 * library that wrote its whole newer struct faults.
 */
#ifndef IBPART_TESTS_RESULTS_V1_H
#define IBPART_TESTS_RESULTS_V1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ibpart/analysis.h>
#include <ibpart/apply.h>
#include <ibpart/opensm_conf.h>
#include <ibpart/plan.h>
#include <ibpart/tables_compute.h>

struct old_plan {
	unsigned version;
	ibp_fabric *fabric;
	ibp_conf *conf;
	ibp_diags *diags;
};

struct old_tables_result {
	unsigned version;
	ibp_fabric *fabric;
	ibp_conf *conf;
	ibp_tables *tables;
	ibp_tables *remembered;
	uint64_t sm_port_guid;
	struct ibp_index_memory *memory;
	ibp_state_file *state;
	struct {
		bool allow_both_pkeys, compact_pkey_indexes;
		ibp_part_enforce part_enforce;
		bool no_partition_enforcement;
	} opensm;
	size_t nfound;
};

struct old_apply_opensm_result {
	unsigned version;
	char *text;
	size_t len;
	pid_t pid;
	ibp_opensm_seen seen;
	long ms;
};

struct old_apply_counts {
	unsigned version;
	unsigned long smps, smps_set, smps_push, smps_discover, smps_read;
	unsigned long timeouts, retries, timeouts_total;
	unsigned long enforce_ports, enforce_unsupported;
	long elapsed_ms;
};

struct old_explanation {
	unsigned version;
	size_t src, dst;
	bool can_talk;
	ibp_match_rule rule;
	size_t nshared;
	ibp_explain_entry *shared;
};

struct old_osm_conf {
	unsigned version;
	bool have_m_key;
	uint64_t m_key;
	unsigned m_key_protect_bits;
	bool have_part_enforce;
	ibp_part_enforce part_enforce;
	bool no_partition_enforcement;
	bool allow_both_pkeys;
	char partition_config_file[512];
	bool have_no_partition_enforcement;
	bool have_allow_both_pkeys;
	bool have_keep_pkey_indexes;
	bool keep_pkey_indexes;
	bool have_sm_key, have_sa_key;
	uint64_t sm_key, sa_key;
	bool have_nvidia;
	bool have_m_key_per_port, m_key_per_port;
	bool have_allowed_sm_guids;
	char allowed_sm_guids[512];
	bool have_sa_enhanced_trust_model;
	bool sa_enhanced_trust_model;
	bool have_subnet_prefix;
	uint64_t subnet_prefix;
	bool have_virt_enabled;
	unsigned virt_enabled;
};

/* While the headers are at version 1, the frozen copies are theirs. */
#define OLD_SAME_(old, cur, v)                                                 \
	_Static_assert((v) != 1 || sizeof(struct old) == sizeof(cur),          \
		       #cur " version 1 is frozen in results_v1.h")
OLD_SAME_(old_plan, ibp_plan, IBP_PLAN_VERSION);
OLD_SAME_(old_tables_result, ibp_tables_result, IBP_TABLES_RESULT_VERSION);
OLD_SAME_(old_apply_opensm_result, struct ibp_apply_opensm_result,
	  IBP_APPLY_OPENSM_RESULT_VERSION);
OLD_SAME_(old_apply_counts, struct ibp_apply_counts, IBP_APPLY_COUNTS_VERSION);
OLD_SAME_(old_explanation, ibp_explanation, IBP_EXPLANATION_VERSION);
OLD_SAME_(old_osm_conf, ibp_osm_conf, IBP_OSM_CONF_VERSION);

#endif
