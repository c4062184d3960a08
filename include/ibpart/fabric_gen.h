/*
 * fabric_gen.h - generated fabrics and partition plans, for benchmarks
 * and tests: a two-level fat tree (leaf and spine switches) with N CA
 * ports, deterministic GUIDs and descriptions, and an OpenSM
 * partitions.conf with one partition per tenant.
 *
 * Layout.  CAs have one port each and come in this order (which is also
 * the file order, so the first management host is the default SM port):
 * M management hosts "mgmt-0001"…, S storage nodes "storage-0001"…, then
 * the tenant nodes "t0001-node-0001"… spread evenly over P tenants (with
 * P = 0: "node-00001"…).  Each leaf switch "leaf-0001"… has radix R ports:
 * R - U down to CAs, U up to spines "spine-0001"…; with a single leaf
 * there are no spines.  Leaf i's uplinks go to consecutive spines,
 * overlapping the next leaf's by one so the fabric is connected, and a
 * spine that is full passes the link on to the next one.  The fat tree is
 * full-bisection when U = R/2 and the spines suffice; bigger fabrics are
 * oversubscribed (what matters here is ports and GUIDs, not bandwidth).
 *
 * GUIDs: CA k (0-based) has node GUID IBP_GEN_CA_GUID_BASE + 2k and port
 * GUID node + 1 (ibsim's rule); switch s has IBP_GEN_SWITCH_GUID_BASE + s.
 */
#ifndef IBPART_FABRIC_GEN_H
#define IBPART_FABRIC_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/error.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

#define IBP_GEN_CA_GUID_BASE	 0xe41d2d0300000000ULL
#define IBP_GEN_SWITCH_GUID_BASE 0xe41d2d0400000000ULL
#define IBP_GEN_MAX_CAS		 100000u

typedef struct ibp_fabric_gen_options {
	unsigned cas;	     /* CA ports in all (mgmt + storage + tenants) */
	unsigned radix;	     /* switch ports, default 36 */
	unsigned uplinks;    /* leaf ports up to spines, 0 = radix / 2 */
	unsigned partitions; /* tenants (P_Keys 0x0001…), 0 = none */
	unsigned storage;    /* shared storage nodes (limited in each tenant) */
	unsigned mgmt;	     /* management hosts (full in Default), default 1 */
	ibp_fabric_options fabric; /* capacities of the generated fabric */
} ibp_fabric_gen_options;

/* The defaults of `ibpart gen` (see the fields). */
void ibp_fabric_gen_options_init(ibp_fabric_gen_options *o);

/* Build the fat tree.  IBP_EINVAL/IBP_ERANGE for impossible options
 * (fewer CAs than management + storage hosts, radix < 4, …). */
int ibp_fabric_generate(const ibp_fabric_gen_options *o, ibp_fabric **out,
			ibp_error *err);

/* Number of leaf and spine switches the options produce. */
void ibp_fabric_gen_counts(const ibp_fabric_gen_options *o, unsigned *leaves,
			   unsigned *spines);

/* Write the OpenSM partitions.conf for a fabric made by
 * ibp_fabric_generate() with the same options: "Default=0x7fff, ipoib"
 * with the management hosts as full members (SELF when there are none),
 * and per tenant "t0001=0x0001, ipoib" with its nodes full and every
 * storage node limited. */
int ibp_partition_plan_write(const ibp_fabric_gen_options *o,
			     const ibp_fabric *f, FILE *out, ibp_error *err);

/* How many CA ports of that plan hold more P_Keys than their P_KeyTable
 * (o->fabric.ca_partition_cap, NodeInfo PartitionCap) has entries, as
 * OpenSM 3.3.23 programs it: every end port gets 0x7fff, a tenant node
 * its tenant's P_Key, a storage node one per tenant.  OpenSM drops what
 * does not fit (ERR 0512).  *most: the most P_Keys one port needs. */
unsigned ibp_partition_plan_overfull(const ibp_fabric_gen_options *o,
				     unsigned *most);

/* The same as one sentence for a warning (no prefix, no newline) in buf
 * (truncated to len): what overflows, what OpenSM does, the --partitions
 * that fits.  Returns false (buf untouched) when nothing overflows. */
bool ibp_partition_plan_overfull_message(const ibp_fabric_gen_options *o,
					 char *buf, size_t len);

/* Write f to topo_path and, when conf_path is not NULL, o's plan for it
 * to conf_path, each atomically (a temporary file, synced, renamed); both
 * are written whole before either replaces anything.  Returns IBP_OK or
 * the first error (err set; no file replaced then, unless the second
 * rename fails after the first). */
int ibp_fabric_gen_write_files(const ibp_fabric_gen_options *o,
			       const ibp_fabric *f, const char *topo_path,
			       const char *conf_path, ibp_error *err);

IBP_END_DECLS
#endif
