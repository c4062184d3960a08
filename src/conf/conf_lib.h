/*
 * conf_lib.h - the library's own half of ibpart/conf.h: what other
 * modules of libibpart and its unit tests call, but no program outside
 * the library does.  Not installed, not exported (libibpart.map): a
 * function moves to ibpart/conf.h when a front end or a third party
 * needs it, and is added to the map then (docs/ARCHITECTURE.md, "Two
 * tiers of API").
 */
#ifndef IBPART_CONF_CONF_LIB_H
#define IBPART_CONF_CONF_LIB_H

#include "ibpart/conf.h"

/*
 * Parse.  Every finding goes to diags (may be NULL), located.  Returns 0
 * and sets *out whenever the text could be read, even when it has errors
 * (the AST then holds OpenSM's reading, see the verdict; count errors
 * with ibp_conf_error_count() or the diags).  Negative: IBP_EIO (cannot
 * open or read the file, a missing one included; also reported in err),
 * IBP_ENOMEM, IBP_EINVAL (out or path NULL, or text NULL with len > 0);
 * *out is then NULL.  *out is the caller's, freed with ibp_conf_free()
 * (NULL allowed).  The text and name (NULL: "<buffer>") are copied; the
 * text need not be NUL-terminated; o (NULL: defaults) and its fabric are
 * only used during the call.  diags also gets a copy of the text so it
 * can quote it.
 */
int ibp_conf_parse_buffer(const char *name, const char *text, size_t len,
			  const ibp_conf_options *o, ibp_conf **out,
			  ibp_diags *diags, ibp_error *err);
/* The same from the file at path; ibp_conf_free frees a parse's AST. */
int ibp_conf_parse_file(const char *path, const ibp_conf_options *o,
			ibp_conf **out, ibp_diags *diags, ibp_error *err);
void ibp_conf_free(ibp_conf *c);

/* The dialect it was read in (SEED or OPENSM, never AUTO); its file
 * name is ibpart/conf.h's ibp_conf_file(). */

/* Errors/warnings found while parsing (the same as in diags). */
size_t ibp_conf_warning_count(const ibp_conf *c);

/* ---- partitions as written, file order ----
 * Counts, and the i-th item (NULL when i >= the count) of a conf, a
 * partition or a group, borrowed from the conf.  None of them fails. */
const ibp_conf_partition *ibp_conf_partition_at(const ibp_conf *c, size_t i);

/* The name as written ("" when none; OpenSM then names it "%04x"). */
const char *ibp_conf_partition_name(const ibp_conf_partition *p);

/* true and the P_Key as written (high bit included) when one was. */
bool ibp_conf_partition_pkey_written(const ibp_conf_partition *p,
				     uint16_t *pkey);

/* The P_Key OpenSM assigns (15 bits, high bit clear): written & 0x7fff,
 * or by name (a partition of that name defined earlier), or generated
 * 1, 2, … in order skipping values taken so far; 0 when OpenSM would
 * fail to assign one. */
uint16_t ibp_conf_partition_pkey(const ibp_conf_partition *p);
const ibp_conf_flags *ibp_conf_partition_flags(const ibp_conf_partition *p);
ibp_conf_pos ibp_conf_partition_pos(const ibp_conf_partition *p);
size_t ibp_conf_partition_mgid_count(const ibp_conf_partition *p);
const ibp_conf_mgid *ibp_conf_partition_mgid(const ibp_conf_partition *p,
					     size_t i);

/* Index of its group in the merged view. */
size_t ibp_conf_partition_group(const ibp_conf_partition *p);

/* ---- merged view: one group per distinct P_Key ---- */
/* The group of a P_Key (high bit ignored), or NULL. */
const ibp_conf_group *ibp_conf_group_find(const ibp_conf *c, uint16_t pkey);

/* ipoib if any definition says ipoib; sl of the last definition. */
bool ibp_conf_group_ipoib(const ibp_conf_group *g);
unsigned ibp_conf_group_sl(const ibp_conf_group *g);

/* Membership of one port in this group as OpenSM 3.3.23 computes it:
 * for 0x7fff the implicit rules first (every port limited, the SM port
 * full), then every member line of every definition in file order, the
 * last that names the port (by GUID, SELF, ALL, ALL_CAS, …) winning.
 * Returns NONE, LIMITED, FULL or BOTH (BOTH only with allow_both_pkeys;
 * without it OpenSM reads BOTH as FULL and so does this).  *indx0 (may be
 * NULL) tells whether that deciding line asked for index 0.  O(1) plus
 * the group's ALL/ALL_CAS/... lines: the per-GUID index is built while
 * parsing, and this only reads it (safe from several threads). */
ibp_membership ibp_conf_group_port_membership(const ibp_conf_group *g,
					      uint64_t port_guid,
					      ibp_node_type type,
					      uint64_t sm_port_guid,
					      bool *indx0);

/* ---- small helpers (pure; the strings are static) ---- */
const char *ibp_membership_str(ibp_membership m);   /* "full", "limited", … */
const char *ibp_member_kind_str(ibp_member_kind k); /* "ALL_CAS", "GUID" */

/* IBTA names: "SDR" … "XDR" (4x link rates) -> rate code; 0 if unknown. */
unsigned ibp_conf_rate_code(const char *name);

/* 256 … 4096 -> MTU code 1 … 5; 0 if not an MTU size. */
unsigned ibp_conf_mtu_code(unsigned bytes);

/* The caller's versioned *o (NULL: the defaults) over a whole current
 * struct of the defaults, its version kept (util/options_version.h).
 * IBP_EINVAL for version 0 or a newer one. */
int conf_options_take(ibp_conf_options *full, const ibp_conf_options *o,
		      ibp_error *err);

#endif
