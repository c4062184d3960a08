/*
 * Module conf (src/conf/): partitions.conf read as OpenSM 3.3.23 reads
 * it, and the seed's PartitionConfig { } dialect, into one ibp_conf with
 * OpenSM's verdict and located diagnostics; the canonical OpenSM writer.
 * Files: conf.c (the object, accessors, entry points), conf_lexer.c/.h
 * (OpenSM's 4094-byte lines), conf_parser.c (its grammar), conf_seed.c
 * (seed dialect), conf_semantics.c (P_Keys, merging, misreadings),
 * conf_diag.c (findings), conf_writer.c, conf_fastline.c (the common
 * line of a large file at memory speed), conf_guids.c (the GUIDs OpenSM
 * will skip, summed up), conf_vf.c (--vf-guids physical), conf_json.c
 * (`check --format json`), partitions_marker.c (ibpartd's marker line),
 * plan_read.c (plan.h); private conf_internal.h, conf_lib.h.
 * Depends on util (error, diag, atomic_file, file_read), pkey (the
 * partitions a running OpenSM holds, src/pkey/opensm_partitions_lib.h) and, to
 * resolve names and check GUIDs when a fabric is given, topo.
 *
 * conf.h - a partition policy read from OpenSM's partitions.conf (or from
 * the seed document's "PartitionConfig { ... }" dialect), with OpenSM
 * 3.3.23's exact reading of it and a compiler's diagnostics about it.
 *
 * The policy (ibp_conf) is an AST with source positions:
 *
 *   - partitions in file order, one per header ("Name=PKey,flags :") as
 *     written, each with the P_Key OpenSM 3.3.23 assigns to it, its flags,
 *     its members (as written and as OpenSM applies them) and its mgid
 *     lines;
 *   - groups: the merged view, one per distinct P_Key in order of first
 *     definition, as OpenSM merges repeated definitions (a later
 *     membership for the same port wins);
 *   - OpenSM's verdict: whether OpenSM 3.3.23 rejects the whole file (it
 *     then falls back to "Default=0x7fff : ALL=full ;", every port a full
 *     member of 0xffff), and the silent misreadings it would make.
 *
 * Members of a partition are what OpenSM reads, not what the author may
 * have meant: "0xA=full 0xB=full," is one member 0xA, limited (OpenSM does
 * not know the word "full 0xB=full"), and 0xB is not a member at all; the
 * misreading is reported in the diagnostics and in the verdict.
 *
 * What the file does NOT say and the partition manager must add (OpenSM
 * does it before reading the file): the default partition 0x7fff always
 * exists, every end port is a limited member of it and the SM's port a
 * full one; the file's rules are applied on top, in order.  Partitions
 * that end up with no port of the fabric are dropped by OpenSM.
 * The library's policy applies all of this for each port.
 *
 * Ownership: an ibp_conf owns everything reachable from it (partitions,
 * groups, members, strings, the verdict); every pointer a getter returns
 * is borrowed and valid as long as its owner (the ibp_plan of
 * ibp_plan_read, the input of analysis_input.h, a tables_compute result).
 *
 * Threads: no global state.  A parsed ibp_conf is never changed again:
 * every const function here only reads it (the membership index is built
 * while parsing), so one conf may be read from several threads at once.
 */
#ifndef IBPART_CONF_H
#define IBPART_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ibpart/alias_map.h"
#include "ibpart/diag.h"
#include "ibpart/error.h"
#include "ibpart/topo.h"
#include "ibpart/export.h"

IBP_BEGIN_DECLS

typedef enum ibp_conf_dialect {
	IBP_CONF_DIALECT_AUTO = 0, /* parse option only: detect */
	IBP_CONF_DIALECT_OPENSM = 1,
	IBP_CONF_DIALECT_SEED = 2 /* "PartitionConfig { ... }" */
} ibp_conf_dialect;

typedef enum ibp_member_kind {
	IBP_MEMBER_GUID = 0, /* a port GUID (hex or decimal in the file) */
	IBP_MEMBER_ALL,	     /* every end port */
	IBP_MEMBER_ALL_CAS,
	IBP_MEMBER_ALL_SWITCHES,
	IBP_MEMBER_ALL_ROUTERS,
	IBP_MEMBER_SELF, /* the SM's own port */
	IBP_MEMBER_NONE, /* written, means nothing */
	IBP_MEMBER_NAME	 /* seed dialect: a node name; guid once resolved */
} ibp_member_kind;

typedef enum ibp_membership {
	IBP_MEMB_NONE = 0,	  /* not a member (results only) */
	IBP_MEMB_UNSPECIFIED = 1, /* nothing written after the member */
	IBP_MEMB_LIMITED = 2,
	IBP_MEMB_FULL = 3,
	IBP_MEMB_BOTH = 4 /* full only, unless allow_both_pkeys */
} ibp_membership;

/* OpenSM's defaults (osm_base.h) for what a partition does not say. */
#define IBP_CONF_DEFAULT_RATE 3 /* 10 Gb/s */
#define IBP_CONF_DEFAULT_MTU  4 /* 2048 bytes */
#define IBP_CONF_DEFAULT_SL   0
#define IBP_CONF_IPOIB_QKEY   0x0b1bu /* IPoIB broadcast group Q_Key */
#define IBP_CONF_DEFAULT_PKEY 0x7fffu /* the default partition */

/* A place in the input (1-based; 0 = unknown). */
typedef struct ibp_conf_pos {
	unsigned line, col;
} ibp_conf_pos;

/* Flags of a partition header or an mgid line.  Values are what OpenSM
 * stores (defaults above when not written; a written value OpenSM cannot
 * read is stored as OpenSM stores it, e.g. rate=NDR becomes 0 - the
 * diagnostics say so).  has_* tells whether the flag was written. */
typedef struct ibp_conf_flags {
	bool ipoib;
	bool has_rate, has_mtu, has_sl, has_qkey, has_tclass, has_flow_label;
	unsigned rate;	     /* IBTA rate code (3 = 10 Gb/s … 21 = 400) */
	unsigned mtu;	     /* IBTA MTU code (1 = 256 … 5 = 4096) */
	unsigned sl;	     /* as written; OpenSM uses 0 unless QoS is on */
	uint16_t scope_mask; /* bit s set for each scope=s (1..15) */
	uint32_t qkey;
	uint8_t tclass;
	uint32_t flow_label;
	bool has_defmember;
	ibp_membership defmember; /* LIMITED unless written */
	bool indx0;
} ibp_conf_flags;

typedef struct ibp_conf_member {
	uint64_t guid;	  /* GUID; NAME once resolved; else 0 */
	const char *text; /* the member as written (name/GUID), never NULL */
	const char *written_word; /* the membership word as written, or
				     NULL */
	ibp_conf_pos pos;
	ibp_member_kind kind;
	ibp_membership written;	   /* the word written, UNSPECIFIED if none */
	ibp_membership membership; /* as OpenSM applies it: LIMITED, FULL or
				      BOTH (defmember applied, an unknown
				      word read as LIMITED) */
	bool indx0;		   /* the partition's indx0 flag */
	/* With vf_guids PHYSICAL (ibp_conf_options): the alias GUID written,
	 * guid then being its physical port's GUID; else 0. */
	uint64_t alias;
} ibp_conf_member;

/* A multicast group line "mgid=ff12:...,flags" inside a partition. */
typedef struct ibp_conf_mgid {
	uint8_t mgid[16];
	const char *text;
	ibp_conf_flags flags; /* partition flags overridden by the line's */
	ibp_conf_pos pos;
} ibp_conf_mgid;

typedef struct ibp_conf ibp_conf;
typedef struct ibp_conf_partition ibp_conf_partition;
typedef struct ibp_conf_group ibp_conf_group;

#define IBP_CONF_OPTIONS_VERSION 2 /* 2: vf_guids */
typedef struct ibp_conf_options {
	unsigned version;	  /* IBP_CONF_OPTIONS_VERSION (set by _init) */
	ibp_conf_dialect dialect; /* AUTO: seed if the file has a
				     "PartitionConfig {" block */
	/* The fabric: resolves names (seed dialect) and enables the
	 * "GUID not in the topology" warnings.  May be NULL. */
	const ibp_fabric *fabric;
	/* The fabric's alias GUIDs (alias_map.h; may be NULL): with a
	 * fabric, every GUID member is classified and the GUIDs OpenSM
	 * 3.3.23 will skip are summed up in the warnings "guid-unknown"
	 * and "guid-alias-ignored" (counts and the first GUIDs). */
	const ibp_alias_map *aliases;
	/* An alias map file (alias_map.h) read for the call when aliases
	 * is NULL and there is a fabric (`--alias-guids FILE`); a file that
	 * does not read fails the call (IBP_EPARSE, IBP_EIO, located in
	 * err).  May be NULL. */
	const char *alias_guids_path;
	/* OpenSM options that change the reading (both off by default,
	 * as in OpenSM). */
	bool qos;
	bool allow_both_pkeys;
	/* NVIDIA OpenSM with virtualization enabled (opensm.conf
	 * virt_enabled 2, ibp_osm_conf; version 2, in what was padding):
	 * the plan's GUIDs that are no port of the fabric - unknown, or
	 * aliases not written on their ports - may be virtual ports
	 * (vports) to that SM, whose tables ibpart does not model: they
	 * are summed up as "vport-unmodelled" instead of guid-unknown and
	 * guid-alias-ignored (node GUIDs stay guid-unknown).  Default
	 * false. */
	bool vports;
	/* What the plan's alias GUIDs become (alias_map.h; version 2, in
	 * what was padding, so the struct's size is that of version 1):
	 * PHYSICAL, with a fabric and aliases, reads each alias member as
	 * its physical port's GUID (ibp_conf_member.alias keeps it), and
	 * makes a port named limited and full in one P_Key through its
	 * GUIDs full, with allow_both_pkeys both (the warning
	 * "vf-physical-full").  PHYSICAL_GENERATED: the same below
	 * ibpartd's marker line only.  Default ALIAS. */
	ibp_vf_guids vf_guids;
	/* A plan read from a file (ibp_plan_read) is at most this many bytes
	 * (0: IBP_INPUT_MAX_DEFAULT, limits.h); a longer file is IBP_ERANGE. */
	size_t max_input_size;
	/* The partitions a running OpenSM still holds from its previous
	 * sweep (NULL: a fresh OpenSM; a private type, which
	 * ibp_tables_compute reads from a state file: a program outside
	 * leaves it NULL).  OpenSM reads
	 * the file before it deletes them: a statement without a P_Key
	 * finds one by name, a P_Key defined again keeps its old name, a
	 * generated P_Key skips theirs; each such reading is the warning
	 * "opensm-earlier-partition" (the plan means something else on a
	 * fresh OpenSM).  Only read during the call. */
	const struct ibp_osm_partitions *opensm_partitions;
} ibp_conf_options;

/* dialect AUTO, no fabric, qos and allow_both_pkeys off.  Cannot fail. */
void ibp_conf_options_init(ibp_conf_options *o, unsigned version);

/* The file name it was read as (the path, the buffer's name, never
 * NULL), and the dialect it was read in (SEED or OPENSM, never AUTO). */
ibp_conf_dialect ibp_conf_get_dialect(const ibp_conf *c);
/* Errors/warnings found while parsing (the same as in diags). */
size_t ibp_conf_error_count(const ibp_conf *c);

/* ---- OpenSM 3.3.23's verdict ---- */
typedef struct ibp_conf_misreading {
	const char *code; /* the diagnostic code, e.g. "missing-comma" */
	ibp_conf_pos pos;
	const char *message;
} ibp_conf_misreading;

typedef struct ibp_conf_verdict {
	/* OpenSM rejects the whole file: it programs "Default=0x7fff :
	 * ALL=full ;" instead (every port a full member of 0xffff). */
	bool rejected;
	const char *reason;   /* OpenSM's log text, e.g. "no partition
				 definition found"; NULL if accepted */
	ibp_conf_pos pos;     /* where OpenSM gave up */
	unsigned opensm_line; /* the line number in OpenSM's log (it
				 counts 4094-byte pieces of long lines) */
	size_t nmisreadings;
	const ibp_conf_misreading *misreadings; /* accepted, but read
						   otherwise than meant */
	/* OpenSM 3.3.23 crashes (segmentation fault) reading the file, e.g.
	 * on an "mgid" item without "=": no SM at all.  rejected is set
	 * too; pos and reason say where and why. */
	bool crashes;
	/* OpenSM 3.3.23's reading depends on memory it never initialised:
	 * an "mgid" item that ends a statement makes it read on past the
	 * ';' into bytes left on its stack, so whether the file is
	 * accepted, and how, varies with the line's length and the
	 * process.  indeterminate_pos is the first such item. */
	bool indeterminate;
	ibp_conf_pos indeterminate_pos;
} ibp_conf_verdict;

/* The verdict, owned by the conf (never NULL).  For a seed-dialect file,
 * rejected/reason/pos/crashes are OpenSM's reading of the raw text and
 * there are no misreadings. */
const ibp_conf_verdict *ibp_conf_opensm_verdict(const ibp_conf *c);

/* ---- the plan as read: pure reads, borrowed from c ---- */
/* The file name it was read as (the path, or the buffer's name); never
 * NULL. */
const char *ibp_conf_file(const ibp_conf *c);

/* How many partition definitions the file has, as written. */
size_t ibp_conf_partition_count(const ibp_conf *c);

/* The members of a definition, in file order; NULL when i >= the count. */
size_t ibp_conf_partition_member_count(const ibp_conf_partition *p);
const ibp_conf_member *ibp_conf_partition_member(const ibp_conf_partition *p,
						 size_t i);

/* OpenSM's merged view: one group per distinct P_Key, in the order OpenSM
 * creates them; NULL when i >= the count. */
size_t ibp_conf_group_count(const ibp_conf *c);
const ibp_conf_group *ibp_conf_group_at(const ibp_conf *c, size_t i);

/* A group's P_Key (15 bits) and name (OpenSM keeps the first
 * definition's). */
uint16_t ibp_conf_group_pkey(const ibp_conf_group *g);
const char *ibp_conf_group_name(const ibp_conf_group *g);

/* The definitions merged into a group, in file order; NULL when i >= the
 * count. */
size_t ibp_conf_group_partition_count(const ibp_conf_group *g);
const ibp_conf_partition *ibp_conf_group_partition(const ibp_conf_group *g,
						   size_t i);

/* `ibpart check --format json`: the findings d (the object
 * docs/json-schemas.md describes for diagnostics) plus "dialect" ("opensm" or
 * "seed") and, with opensm, an "opensm" object: rejected, crashes, reason,
 * line, opensm_log_line, misreadings [{code, line, column, message}],
 * partitions [{pkey, name, definitions}] (empty when rejected).  Returns a
 * malloc'd string the caller frees (no trailing newline), NULL when out of
 * memory. */
char *ibp_conf_check_json(const ibp_conf *c, const ibp_diags *d, bool opensm);

/* ---- writing ---- */
/* Canonical OpenSM syntax: one partition per header, explicit P_Keys,
 * explicit membership words, names resolved to GUIDs (fabric, if given,
 * adds the node description as a comment).  A file OpenSM rejects is
 * written as OpenSM's reading of it; callers should refuse such input
 * first.  Returns 0 or IBP_EIO / IBP_EINVAL (unresolved name). */
int ibp_conf_write_opensm(const ibp_conf *c, const ibp_fabric *f, FILE *out,
			  ibp_error *err);
IBP_END_DECLS
#endif
