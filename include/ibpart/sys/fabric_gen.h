/*
 * fabric_gen.h - generated fabrics and partition plans, for benchmarks
 * and tests: a fat tree (a folded Clos network of one, two or three
 * tiers) with N CA ports, deterministic GUIDs and descriptions, and an
 * OpenSM partitions.conf with one partition per tenant.
 *
 * Layout.  CAs have one port each and come in this order (which is also
 * the file order, so the first management host is the default SM port):
 * M management hosts "mgmt-0001"…, S storage nodes "storage-0001"…, then
 * the tenant nodes "t0001-node-0001"… spread evenly over P tenants (with
 * P = 0: "node-00001"…).  Switches have radix R ports.  With N <= R one
 * switch "leaf-0001" holds every CA.  Otherwise each leaf "leaf-0001"…
 * has D = R - U ports down to CAs (CA i on leaf i / D, port i % D + 1)
 * and U up:
 *  - two tiers, while the leaves (ceil(N / D)) are at most R: every leaf
 *    reaches every spine "spine-0001"…, with k parallel links to each of
 *    U / k spines (k as large as the spines' ports allow, so small trees
 *    have few spines); any two CAs are at most 4 links apart.
 *  - three tiers beyond: pods of Lp leaves (R/2, more when the pods would
 *    not fit the cores' ports) and U spines, each leaf one link to each
 *    spine of its pod; spine j of every pod reaches every core switch
 *    "core-0001"… of core group j (R - Lp links up, k parallel to each
 *    core).  Any two CAs are at most 6 links apart; at most R D
 *    CAs.
 * The tree is full-bisection when U = R/2; the node order is CAs,
 * leaves, spines, cores.  A fabric needing more LIDs than the subnet has
 * (one per CA port and switch, 2^LMC each; the unicast space or
 * fabric->linear_fdb_cap) is refused unless `force`.
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

#define IBP_FABRIC_GEN_OPTIONS_VERSION 1
typedef struct ibp_fabric_gen_options {
	unsigned version;    /* IBP_FABRIC_GEN_OPTIONS_VERSION (set by _init) */
	unsigned cas;	     /* CA ports in all (mgmt + storage + tenants) */
	unsigned radix;	     /* switch ports, default 36 */
	unsigned uplinks;    /* leaf ports up to spines, 0 = radix / 2 */
	unsigned partitions; /* tenants (P_Keys 0x0001…), 0 = none */
	unsigned storage;    /* shared storage nodes (limited in each tenant) */
	unsigned mgmt;	     /* management hosts (full in Default), default 1 */
	bool force;	     /* build it even when the subnet's LIDs run out */
	/* Capacities of the generated fabric (linear_fdb_cap and lmc bound
	 * the LIDs; its own version, ibp_fabric_options_init; NULL: the
	 * defaults).  A pointer, not the struct: a newer fabric struct
	 * would move the fields after it. */
	const ibp_fabric_options *fabric;
} ibp_fabric_gen_options;

/* The shape the options give (all zero for options that give none). */
typedef struct ibp_fabric_gen_shape {
	unsigned tiers;	     /* 1, 2 or 3 */
	unsigned down, up;   /* a leaf's ports to CAs and to spines */
	unsigned leaves;     /* leaf switches */
	unsigned spines;     /* second-tier switches (all pods') */
	unsigned cores;	     /* third-tier switches */
	unsigned pods;	     /* three tiers: pods, leaves per pod */
	unsigned pod_leaves; /* ... */
	unsigned spine_up;   /* three tiers: a spine's ports to cores */
	unsigned leaf_links; /* parallel links leaf -> spine (two tiers) */
	unsigned core_links; /* parallel links spine -> core */
	uint64_t lids;	     /* LIDs the fabric needs (2^LMC per end port) */
	unsigned max_lid;    /* the last LID the subnet can give */
} ibp_fabric_gen_shape;

/* The defaults of `ibpart gen` (see the fields; fabric NULL).  A version
 * out of range: only the version field, which the functions below then
 * refuse.  The functions below read o, and o->fabric, only as far as
 * each one's version goes. */
void ibp_fabric_gen_options_init(ibp_fabric_gen_options *o, unsigned version);

/* Build the fat tree.  IBP_EINVAL/IBP_ERANGE for impossible options
 * (fewer CAs than management + storage hosts, radix < 4, more CAs than
 * three tiers of that radix hold, more LIDs than the subnet has without
 * `force`, …), err saying why; IBP_EINVAL for a version of o or
 * o->fabric that is 0 or newer than the library's, err naming the
 * struct. */
int ibp_fabric_generate(const ibp_fabric_gen_options *o, ibp_fabric **out,
			ibp_error *err);

/* What the options generate, as one line (no prefix, no newline) in buf
 * (truncated to len): "TOPO: N CAs, L leaf + S spine + C core switches
 * (radix R, T tiers, K LIDs of M)", then "; CONF" when conf_path is not
 * NULL ("TOPO: bad generator options" for a version it cannot read). */
void ibp_fabric_gen_summary(const ibp_fabric_gen_options *o,
			    const char *topo_path, const char *conf_path,
			    char *buf, size_t len);
/* When the fabric needs more LIDs than the subnet has (--force), that
 * as one sentence for a warning in buf; false (buf untouched) when they
 * fit or the options' version cannot be read. */
bool ibp_fabric_gen_lid_message(const ibp_fabric_gen_options *o, char *buf,
				size_t len);

/* The same as one sentence for a warning (no prefix, no newline) in buf
 * (truncated to len): what overflows, what OpenSM does, the --partitions
 * that fits.  Returns false (buf untouched) when nothing overflows (or
 * the options' version cannot be read). */
bool ibp_partition_plan_overfull_message(const ibp_fabric_gen_options *o,
					 char *buf, size_t len);

/* Write f to topo_path and, when conf_path is not NULL, o's plan for it
 * to conf_path, each atomically (a temporary file, synced, renamed); both
 * are written whole before either replaces anything.  Returns IBP_OK or
 * the first error (err set; no file replaced then, unless the second
 * rename fails after the first); IBP_EINVAL for a version of o or
 * o->fabric it cannot read. */
int ibp_fabric_gen_write_files(const ibp_fabric_gen_options *o,
			       const ibp_fabric *f, const char *topo_path,
			       const char *conf_path, ibp_error *err);

IBP_END_DECLS
#endif
