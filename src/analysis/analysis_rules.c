/*
 * analysis_rules.c - the catalog of the audit's rules: every code the
 * audit (analysis_audit.c, analysis_input_audit.c) can report, the
 * severity it usually has and one line saying what it means.  One table,
 * so that `ibpart audit --help` (which prints it), a third-party front
 * end and the tests that hold docs/audit.md to it list the same rules;
 * the reasoning and the fix of each are docs/audit.md's.
 */
#include <string.h>

#include "ibpart/analysis.h"
#include "analysis/analysis_lib.h"

static const ibp_audit_rule rules[] = {
    {"plan-rejected", IBP_AUDIT_CRITICAL,
     "OpenSM rejects the file and falls back to ALL=full (high for a plan "
     "in the seed dialect, audited as written)"},
    {"default-full-member", IBP_AUDIT_CRITICAL,
     "a tenant port is a full member of the default partition"},
    {"cross-tenant-reach", IBP_AUDIT_CRITICAL,
     "ports of two tenants share a partition with a full member "
     "(--tenants)"},
    {"tenant-bridge", IBP_AUDIT_HIGH,
     "one port is a full member of two tenants' partitions"},
    {"plan-misread", IBP_AUDIT_HIGH,
     "OpenSM reads the plan otherwise than it says (e.g. a missing comma)"},
    {"fallback-indx0", IBP_AUDIT_HIGH,
     "OpenSM's fallback after an indx0 partition leaves index 0 empty"},
    {"plan-indeterminate", IBP_AUDIT_HIGH,
     "an mgid= item ends a statement: OpenSM reads memory it never set"},
    {"capacity-overflow", IBP_AUDIT_HIGH,
     "a port's P_KeyTable cannot hold its entries"},
    {"no-lid", IBP_AUDIT_HIGH,
     "end ports past the subnet's last LID get none: tables, no traffic"},
    {"part-enforce-off", IBP_AUDIT_HIGH,
     "switch partition enforcement off on leaf ports (--opensm-conf)"},
    {"shared-physical-port", IBP_AUDIT_HIGH,
     "VFs (alias GUIDs) of one physical port in different partitions: one "
     "P_KeyTable holds both tenants' keys (--alias-guids)"},
    {"mkey-not-set", IBP_AUDIT_HIGH,
     "no M_Key: any host can rewrite P_KeyTables (--opensm-conf)"},
    {"shared-limited-member", IBP_AUDIT_MEDIUM,
     "a node shared by tenants (limited): isolated on the wire, a trust "
     "point"},
    {"no-sa-path", IBP_AUDIT_MEDIUM, "a port cannot reach the SA"},
    {"partition-no-full-member", IBP_AUDIT_MEDIUM, "no two members can talk"},
    {"part-enforce-partial", IBP_AUDIT_MEDIUM,
     "enforcement in one direction only"},
    {"mkey-readable", IBP_AUDIT_MEDIUM, "M_Key set, protection level 0"},
    {"smkey-default", IBP_AUDIT_MEDIUM,
     "sm_key at OpenSM's default 0x1 (--opensm-conf)"},
    {"sm-guids-open", IBP_AUDIT_MEDIUM,
     "NVIDIA OpenSM: allowed_sm_guids empty (--opensm-conf)"},
    {"mkey-per-port-off", IBP_AUDIT_MEDIUM,
     "NVIDIA OpenSM: one M_Key for every port (--opensm-conf)"},
    {"guid-unknown", IBP_AUDIT_MEDIUM,
     "the plan names GUIDs that are no port of the fabric: OpenSM skips "
     "them"},
    {"guid-alias-ignored", IBP_AUDIT_MEDIUM,
     "the plan names VFs' alias GUIDs: OpenSM 3.3.23 skips them "
     "(--alias-guids)"},
    {"default-limited-member", IBP_AUDIT_INFO,
     "tenant ports limited in 0x7fff"},
    {"partition-single-member", IBP_AUDIT_INFO, "a partition with one member"},
    {"multicast-groups", IBP_AUDIT_INFO,
     "the MLIDs the IPoIB partitions need (high past MulticastFDBCap)"},
    {"sakey-default", IBP_AUDIT_INFO, "sa_key at OpenSM's default 0x1"},
    {"sa-trust-basic", IBP_AUDIT_INFO,
     "NVIDIA OpenSM: sa_enhanced_trust_model FALSE"},
    {"vport-unmodelled", IBP_AUDIT_INFO,
     "NVIDIA OpenSM's virtualization may program the plan's non-port "
     "GUIDs as vports: not modelled (--opensm-conf)"},
    {"sm-port-assumed", IBP_AUDIT_INFO,
     "no --sm-port: the SM's port was taken from the topology"},
};

size_t ibp_audit_rule_count(void)
{
	return sizeof(rules) / sizeof(rules[0]);
}

const ibp_audit_rule *ibp_audit_rule_get(size_t i)
{
	return i < ibp_audit_rule_count() ? &rules[i] : NULL;
}

const ibp_audit_rule *ibp_audit_rule_find(const char *code)
{
	for (size_t i = 0; code && i < ibp_audit_rule_count(); i++)
		if (!strcmp(rules[i].code, code))
			return &rules[i];
	return NULL;
}
