/*
 * verify_lib.h - the library's own half of ibpart/verify.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/verify.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_LIVE_VERIFY_LIB_H
#define IBPART_LIVE_VERIFY_LIB_H

#include "ibpart/verify.h"

/* Which drift items count as drift: all of them with `previous`, all but
 * index-only differences without. */
ibp_drift_sel ibp_verify_result_selection(const ibp_verify_result *r);

/* Differences that count as drift, and (*ports, may be NULL) on how many
 * ports; index notes (0 with `previous`). */
size_t ibp_verify_result_index_notes(const ibp_verify_result *r);

/* Leaf ports whose PortInfo partition enforcement was compared with the
 * session's part_enforce (those of switches implementing the bits; 0
 * when the session leaves enforcement as it is). */
size_t ibp_verify_result_enforcement_checked(const ibp_verify_result *r);

/* The matrix and the findings when asked for, else NULL. */
const ibp_matrix *ibp_verify_result_matrix(const ibp_verify_result *r);

/* The SM's port, the mode, and the session's SMPs and time when the
 * verification ended. */
const char *ibp_verify_result_mode(const ibp_verify_result *r);
unsigned long ibp_verify_result_smps(const ibp_verify_result *r);
long ibp_verify_result_elapsed_ms(const ibp_verify_result *r);

/* One drift item as a line: "PREFIX GUID port N DESC KIND what". */
void ibp_drift_item_print(const ibp_fabric *f, const struct ibp_drift_item *it,
			  const char *prefix, FILE *out);

#endif
