/*
 * fabric_gen_lib.h - the library's own half of ibpart/sys/fabric_gen.h: what
 * other modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/sys/fabric_gen.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_TOPO_FABRIC_GEN_LIB_H
#define IBPART_TOPO_FABRIC_GEN_LIB_H

#include "ibpart/sys/fabric_gen.h"

/* Each reads o, and o->fabric, as far as their versions go (NULL: the
 * defaults); for a version it cannot read it gives zeros, 0 or
 * IBP_EINVAL (err naming the struct). */

/* Number of leaf switches, and of the other switches (spines and
 * cores), the options produce. */
void ibp_fabric_gen_counts(const ibp_fabric_gen_options *o, unsigned *leaves,
			   unsigned *spines);

/* The whole shape of the tree the options give, into *out. */
void ibp_fabric_gen_shape_of(const ibp_fabric_gen_options *o,
			     ibp_fabric_gen_shape *out);

/* Write the OpenSM partitions.conf for a fabric made by
 * ibp_fabric_generate() with the same options: "Default=0x7fff, ipoib"
 * with the management hosts as full members (SELF when there are none),
 * and per tenant "t0001=0x0001, ipoib" with its nodes full and every
 * storage node limited. */
int ibp_partition_plan_write(const ibp_fabric_gen_options *o,
			     const ibp_fabric *f, FILE *out, ibp_error *err);

/* How many CA ports of that plan hold more P_Keys than their P_KeyTable
 * (o->fabric->ca_partition_cap, NodeInfo PartitionCap) has entries, as
 * OpenSM 3.3.23 programs it: every end port gets 0x7fff, a tenant node
 * its tenant's P_Key, a storage node one per tenant.  OpenSM drops what
 * does not fit (ERR 0512).  *most: the most P_Keys one port needs. */
unsigned ibp_partition_plan_overfull(const ibp_fabric_gen_options *o,
				     unsigned *most);

#endif
