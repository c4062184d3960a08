/*
 * Module policy (src/policy/): the partition manager.  Owns the rule
 * from plan (conf) and fabric (topo) to the desired P_KeyTable of every
 * port (pkey's ibp_tables), in OpenSM's mode and in strict mode, index
 * stability across runs (previous tables, OpenSM's remembered indexes)
 * and the record of what does not fit (private ibp_policy_unplaced).  Files:
 * policy.c (membership, entry points), policy_place.c (index placement,
 * the copy onto switch ports), policy_unplaced.c, opensm_conf.c
 * (opensm.conf, opensm_conf.h), opensm_prtn_sweep.c (a sweep of OpenSM's
 * partition objects), tables_compute.c (`ibpart tables` in one call,
 * tables_compute.h); private policy_internal.h, policy_lib.h.  Depends
 * on conf, topo, pkey and util.
 *
 * policy.h - the partition manager: a partition policy (conf.h) and a
 * fabric (topo.h) in, the P_KeyTable the subnet manager programs into
 * every port out (tables.h).
 *
 * Two modes (docs/opensm-behaviour.md; README.md's `ibpart tables`):
 *
 *  - IBP_POLICY_OPENSM: exactly what OpenSM 3.3.23 programs, index for
 *    index, on a fabric whose tables are ibsim's/fresh hardware's initial
 *    ones (0xffff at index 0), or - with a state (tables_compute.h) - on a
 * fabric that holds those previous tables (OpenSM keeps every surviving P_Key
 * at its index).  The rules, each verified against OpenSM on ibsim, are in
 * docs/opensm-behaviour.md; in short: every end port is a limited member of
 * 0x7fff and the SM port a full one, the file's lines apply on top (last one
 * naming a port wins); partitions are visited in the order of their P_Key's
 * bytes swapped (OpenSM's map is keyed by the network-order value), limited
 * members before full ones; an entry the port already holds keeps its index,
 * 0x7fff goes to index 0 (unless a partition says indx0), new entries follow
 * the last used index; what does not fit the port's capacity is dropped (a
 * finding); each CA or router port's table is copied, packed and with limited
 * entries whose full twin is there left out, onto the switch external port
 * facing it (switch partition enforcement, IBA vol. 1 10.9.4), up to the
 *    switch's PartitionEnforcementCap; a file OpenSM rejects is replaced
 *    by "Default=0x7fff : ALL=full ;" (fail-open, a finding).
 *
 *  - IBP_POLICY_STRICT: the seed's model: the default partition holds only
 *    the ports the plan names, plus the SM port (always full); entries
 *    are packed from index 0; a rejected file is an error, never a
 *    fallback.
 *
 * Ports programmed (and so present in the result): every CA/router port
 * and every switch port 0 that OpenSM's discovery reaches from the SM port
 * (the fabric's LIDs when assigned, see ibp_fabric_assign_lids; otherwise
 * every linked CA/router port and every switch), and every switch
 * external port facing one of those CA/router ports (unless enforcement
 * is off or the switch's PartitionEnforcementCap is 0).  Other ports are
 * left untouched and are absent from the result.
 *
 * Threads: no global state.  A computation only reads its conf, fabric
 * and the tables it is given, so several may run at once on the same
 * ones.
 */
#ifndef IBPART_POLICY_H
#define IBPART_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef enum ibp_policy_mode {
	IBP_POLICY_OPENSM = 0,
	IBP_POLICY_STRICT = 1
} ibp_policy_mode;

/* OpenSM's part_enforce option (which direction switch external ports
 * facing an end port check; OFF leaves those ports' tables untouched) is
 * an ibp_part_enforce, tables.h. */

#define IBP_POLICY_OPTIONS_VERSION 1
/* Initialise with ibp_policy_options_init(&o, IBP_POLICY_OPTIONS_VERSION)
 * (options_version: the library reads only the fields o's version has). */
typedef struct ibp_policy_options {
	unsigned version;	       /* IBP_POLICY_OPTIONS_VERSION */
	ibp_policy_mode mode;	       /* default OPENSM */
	bool allow_both_pkeys;	       /* OpenSM's allow_both_pkeys (-W) */
	ibp_part_enforce part_enforce; /* default BOTH */
	/* OpenSM's keep_pkey_indexes FALSE: before each sweep OpenSM forgets
	 * what it remembers and the table the port holds, so every table is
	 * packed as on a fresh fabric (default false: keep_pkey_indexes
	 * TRUE, OpenSM's default). */
	bool compact_pkey_indexes;
	/* "computing tables" (ports) while it runs; NULL: none. */
	const ibp_progress *progress;
} ibp_policy_options;

/* Set version, OPENSM mode, part_enforce BOTH, everything else
 * false (a version out of range: only the version field, which
 * the operation then refuses).  Cannot fail. */
void ibp_policy_options_init(ibp_policy_options *o, unsigned version);

/* Parse "opensm"/"strict"; IBP_EINVAL (*out untouched) if not, NULL
 * included.  ("both"/"in"/"out"/"off": IBP_PART_ENFORCE_WORDS, tables.h.)
 * ibp_policy_mode_str is the reverse, a static string ("opensm" for any
 * value but STRICT). */
int ibp_policy_mode_parse(const char *s, ibp_policy_mode *out);
const char *ibp_policy_mode_str(ibp_policy_mode m);

IBP_END_DECLS
#endif
