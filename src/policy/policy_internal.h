/*
 * policy_internal.h - state shared by the partition manager's passes
 * (policy.c: membership, policy_place.c: index placement and mirroring).
 * Not installed.
 */
#ifndef IBPART_POLICY_INTERNAL_H
#define IBPART_POLICY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ibpart/conf.h"
#include "ibpart/diag.h"
#include "policy/policy_lib.h"
#include "pkey/index_memory_lib.h"
#include "pkey/opensm_partitions_lib.h"
#include "ibpart/tables.h"
#include "ibpart/topo.h"

#define NO_EP UINT32_MAX

/* One end port OpenSM programs (CA/router port, switch port 0). */
struct ep {
	size_t node;
	unsigned port;
	uint64_t guid;
	ibp_node_type type;
	unsigned cap;	/* P_KeyTable capacity */
	uint16_t indx0; /* OpenSM's indx0_pkey for the port, 0 if none */
};

/* One entry of a port's pending list: P_Key (with the full bit) from the
 * k-th visited partition. */
struct pend {
	uint32_t ep;
	uint16_t pkey;
	uint32_t grp;
};

struct pol {
	ibp_policy_run o;
	const ibp_conf *conf;
	const ibp_fabric *f;
	ibp_diags *diags;
	const char *file;
	uint64_t sm_guid;
	bool fallback; /* OpenSM's "Default=0x7fff : ALL=full" */

	size_t *node_base; /* flat port index of (node, 0) */
	uint32_t *ep_of;   /* flat port index -> ep or NO_EP */
	struct ep *eps;
	uint32_t neps;

	/* pass 1 */
	uint8_t *memb; /* per ep, scratch of one group */
	uint32_t *touched;
	size_t ntouched;
	int32_t *grp_conf; /* visiting order -> conf group (-1 implicit) */
	size_t ngrp;
	struct pend *pend;
	size_t npend, cappend;
	size_t *pstart;	  /* per ep: first of its entries in porder */
	uint32_t *porder; /* indexes into pend, bucketed per ep */

	ibp_tables *rem_out;	   /* what OpenSM remembers, or NULL */
	ibp_index_memory *mem_out; /* the same, exactly, or NULL */

	/* pass 2 scratch (policy_place.c) */
	struct pol_scratch *scr;
};

int pol_place_all(struct pol *P, ibp_tables *ts);

/* policy_unplaced.c: the record behind ibp_policy_run.unplaced */
void pol_unplaced_clear(ibp_policy_unplaced *u);
/* Port e (whose plan gives it `wanted` P_Keys) drops pkey. */
int pol_unplaced_drop(ibp_policy_unplaced *u, const struct ep *e,
		      unsigned wanted, uint16_t pkey);
/* End port e's table (`entries` P_Keys) does not fit switch port (sw,
 * swp), which holds `capacity`. */
int pol_unplaced_unenforced(ibp_policy_unplaced *u, const struct ep *e,
			    size_t sw, unsigned swp, unsigned entries,
			    unsigned capacity);
void pol_scratch_free(struct pol *P);
void pol_group_pos(const struct pol *P, uint16_t pkey, unsigned *line,
		   unsigned *col);

#endif
