/*
 * analysis_input_lib.h - the library's own half of ibpart/analysis_input.h:
 * what other modules of libibpart and its unit tests call, but no program
 * outside the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/analysis_input.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_ANALYSIS_ANALYSIS_INPUT_LIB_H
#define IBPART_ANALYSIS_ANALYSIS_INPUT_LIB_H

#include "ibpart/alias_map.h"
#include "ibpart/analysis_input.h"
#include "analysis/analysis_lib.h"
#include "policy/policy_lib.h"

/* How the SM port was chosen: given (--sm-port, or the tables file's
 * sm_port_guid), or assumed - the port the topology says ran the
 * discovery, else its first CA port (ibp_fabric_default_sm_port).  An
 * assumed port is an audit finding (sm-port-assumed, info) of the
 * input's audit. */
typedef enum ibp_sm_port_source {
	IBP_SM_PORT_GIVEN = 0,
	IBP_SM_PORT_FROM_INITIATOR,
	IBP_SM_PORT_FIRST_CA
} ibp_sm_port_source;

/* Which of those the input's SM port is (no exported function gives
 * it: private). */
ibp_sm_port_source
ibp_analysis_input_sm_port_source(const ibp_analysis_input *in);

/* The alias map the input was loaded with (alias_guids_path), or NULL;
 * lives as long as in. */
const ibp_alias_map *ibp_analysis_input_aliases(const ibp_analysis_input *in);

/* The SM (and SA) port. */
void ibp_analysis_input_sm_port(const ibp_analysis_input *in, size_t *node,
				unsigned *port);

/* The name the plan gives the partition with this base (P_Key without
 * the membership bit), or NULL; always NULL for tables from a file. */
const char *ibp_analysis_input_partition_name(const ibp_analysis_input *in,
					      uint16_t base);

/* All of them as the [0x8000] array by base that
 * ibp_matrix_report_options and ibp_audit_input take. */
const char *const *
ibp_analysis_input_partition_names(const ibp_analysis_input *in);

/* Whether any switch port's partition enforcement is known: read from
 * the tables file ("enforcement"), or, for a plan, the ports OpenSM turns
 * enforcement off on (ibp_policy_unenforced). */
bool ibp_analysis_input_has_enforcement(const ibp_analysis_input *in);

/* An ibp_enforcement_fn (analysis.h) over that: ctx is the
 * (const ibp_analysis_input *); false when the port's enforcement is not
 * known. */
bool ibp_analysis_input_enforcement(void *ctx, size_t sw_node, unsigned sw_port,
				    bool *inbound, bool *outbound);

/* What the policy could not place for a plan (P_Keys a table cannot
 * hold, switch ports left unenforced; policy.h); NULL for tables read
 * from a file. */
const ibp_policy_unplaced *
ibp_analysis_input_unplaced(const ibp_analysis_input *in);

/* Fill *ai (every field set) to audit this input: tables, SM port,
 * partition names, and the enforcement callback when some is known;
 * tenants and osm are NULL for the caller to set. */
void ibp_analysis_input_audit_input(const ibp_analysis_input *in,
				    ibp_audit_input *ai);

/* Append the findings about the plan itself, in the audit's words:
 * plan-rejected (OpenSM's verdict), plan-misread (with the ports its
 * message names and the partition at its line), capacity-overflow (one
 * per port the policy drops P_Keys on), shared-physical-port (judged by
 * tenant with tenants, may be NULL).  Returns 0 or IBP_ENOMEM. */
int ibp_analysis_input_plan_findings(const ibp_analysis_input *in,
				     const ibp_tenant_map *tenants,
				     ibp_findings *out);

/* The audit of this input as `ibpart audit` runs it: the plan's own
 * findings (above), then every rule ibp_audit_run() allows with the
 * tenants map and opensm.conf given (either may be NULL: tenant =
 * partition; the opensm.conf rules not checked), sorted, into a new *out
 * (free with ibp_findings_free; NULL on failure).  Returns 0 or
 * IBP_ENOMEM (err says so).  Reads in only: distinct calls may run at
 * once. */
int ibp_analysis_input_audit(const ibp_analysis_input *in,
			     const ibp_tenant_map *tenants,
			     const ibp_osm_conf *osm, ibp_findings **out,
			     ibp_error *err);

/* The codes of the rules that audit did not check for want of an
 * opensm.conf (osm NULL), comma-separated, for a report to say so (a
 * clean report must not hide them); NULL when osm is given.  A static
 * string. */
const char *ibp_analysis_input_unchecked(const ibp_analysis_input *in,
					 const ibp_osm_conf *osm);

#endif
