/*
 * conf_internal.h - what the conf_*.c files share and nobody else sees:
 * the AST's storage, the string arena, the diagnostic emitter and the
 * entry points of the readers (OpenSM emulation, seed dialect), of the
 * semantic passes and of the writer.
 */
#ifndef IBPART_CONF_INTERNAL_H
#define IBPART_CONF_INTERNAL_H

#include <stdarg.h>

#include "ibpart/conf.h"
#include "conf/conf_lib.h"

/* ---- arena: strings and small objects that live as long as the AST ---- */
struct conf_arena_block {
	struct conf_arena_block *next;
	size_t used, cap;
	char data[];
};

struct conf_arena {
	struct conf_arena_block *head;
};

void *conf_arena_alloc(struct conf_arena *a, size_t n);
char *conf_arena_strndup(struct conf_arena *a, const char *s, size_t n);
char *conf_arena_strdup(struct conf_arena *a, const char *s);
void conf_arena_free(struct conf_arena *a);

/* ---- AST ---- */
struct ibp_conf_partition {
	const char *name;     /* as written, "" if none */
	const char *osm_name; /* what OpenSM stores (31 chars, or "%04x") */
	bool has_pkey;
	uint16_t pkey_written;
	uint16_t pkey;	/* assigned */
	bool generated; /* assigned by OpenSM's counter */
	bool by_name;	/* found an earlier partition of the same name */
	ibp_conf_flags flags;
	ibp_conf_pos pos;
	ibp_conf_member *members; /* into ibp_conf.members, set by
				     conf_fix_members() */
	size_t first, nmembers;
	ibp_conf_mgid *mgids;
	size_t nmgids, capmgids;
	size_t group;
};

/* one "who" of a group in the merged view, for membership look-ups */
struct conf_name_ent {
	struct conf_name_ent *next;
	const char *name;
	size_t group;
};

struct conf_op {
	ibp_member_kind kind; /* ALL*, SELF */
	ibp_membership membership;
	bool indx0;
	uint32_t seq;
};

struct ibp_conf_group {
	uint16_t pkey;
	const char *name;
	struct ibp_conf_partition **parts;
	size_t nparts, capparts;
	bool ipoib;
	unsigned sl;
	/* membership index, built when parsing ends */
	struct conf_op *ops;
	size_t nops;
	/* per GUID the last member naming it: its index in the plan's
	 * members array + 1 (0 = empty slot), 4 bytes a slot where a copy
	 * of GUID, order and membership took 24 (a million-member plan
	 * holds two million slots) */
	uint32_t *slots;
	size_t nslots;			/* power of two */
	const ibp_conf_member *members; /* the plan's members array */
	bool indexed;			/* built by conf_finish */
	bool allow_both;
	bool earlier; /* a partition OpenSM holds from its previous sweep */
};

struct ibp_conf {
	char *file;
	ibp_conf_dialect dialect;
	ibp_conf_options opts;
	struct ibp_conf_partition **parts;
	size_t nparts, capparts;
	ibp_conf_member *members; /* every partition's, in file order */
	size_t nmembers, capmembers;
	struct ibp_conf_group **groups;
	size_t ngroups, capgroups;
	int16_t group_of_pkey[0x8000]; /* -1 or group index; P_Key & 0x7fff */
	/* OpenSM's partition table, by stored name (conf_semantics.c) */
	struct conf_name_ent **name_tab;
	size_t name_tab_size, nnames;
	uint64_t name_seed;   /* name_hash()'s (util/hash_seed.h) */
	unsigned gen_counter; /* OpenSM's global_pkey_counter */
	ibp_conf_verdict verdict;
	ibp_conf_misreading *misreadings;
	size_t capmis;
	size_t nerrors, nwarnings;
	struct conf_arena arena;
	/* diagnostic emission */
	ibp_diags *diags;
	bool quiet;	  /* record nothing (OpenSM emulation for seed) */
	bool no_fastline; /* every line through the general reader */
	bool text_mapped; /* the text is our file mapping (give pages back) */
	/* vf_guids PHYSICAL_GENERATED: members on lines after this one (the
	 * marker's; UINT_MAX without one) are read as their ports; PHYSICAL:
	 * 0 (every member) */
	unsigned vf_after_line;
	/* the text OpenSM's reading is at, while it runs: a finding on a
	 * line that ends in CR says so (conf_diag.c) */
	struct {
		const char *text;
		size_t len;
		bool any;   /* the text holds a CR LF */
		size_t off; /* cache: where line `line` starts */
		unsigned line;
	} crlf;
	struct {
		const char *code;
		size_t n;
	} diag_counts[64];
	size_t ndiag_codes;
};

/* ---- building ---- */
ibp_conf *conf_new(const char *file, const ibp_conf_options *o);
struct ibp_conf_partition *conf_add_partition(ibp_conf *c);
ibp_conf_member *conf_add_member(ibp_conf *c, struct ibp_conf_partition *p);
ibp_conf_mgid *conf_add_mgid(ibp_conf *c, struct ibp_conf_partition *p);
/* Point each partition at its members once reading is done. */
void conf_fix_members(ibp_conf *c);
void conf_flags_default(ibp_conf_flags *f);

/* The warnings "guid-unknown" and "guid-alias-ignored": the plan's GUIDs
 * OpenSM skips, counted (conf_guids.c; with a fabric only). */
void conf_guid_summary(ibp_conf *c);

/* --vf-guids physical: alias members read as their physical ports'
 * GUIDs, memberships merged (conf_vf.c; with a fabric and aliases only).
 * Before the groups are indexed.  0 or IBP_ENOMEM. */
int conf_vf_physical(ibp_conf *c);

/* ---- diagnostics (conf_diag.c) ---- */
/* Report a finding.  misreading: also list it in OpenSM's verdict as a
 * silent misreading. */
void conf_diag(ibp_conf *c, ibp_severity sev, const char *code,
	       ibp_conf_pos pos, bool misreading, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* While OpenSM's reading of text runs: an error or warning on a line that
 * ends in CR (or, without a line, in a file with CR LF line ends) gets a
 * hint that the CR is the cause.  conf_crlf_end() stops it. */
void conf_crlf_begin(ibp_conf *c, const char *text, size_t len);
void conf_crlf_end(ibp_conf *c);
/* OpenSM rejects the file here (first one wins). */
void conf_reject(ibp_conf *c, ibp_conf_pos pos, unsigned osm_line,
		 const char *reason);

/* ibp_conf_parse_buffer(); fastline false reads every line with the
 * general reader (conf_fastline.c off), for tests that compare both. */
int conf_parse_buffer_fast(const char *name, const char *text, size_t len,
			   const ibp_conf_options *o, ibp_conf **out,
			   ibp_diags *diags, ibp_error *err, bool fastline);

/* ---- readers ---- */
/* OpenSM 3.3.23's reading of text (conf_parser.c). */
int conf_read_opensm(ibp_conf *c, const char *text, size_t len);
/* The seed's "PartitionConfig { ... }" block (conf_seed.c). */
int conf_read_seed(ibp_conf *c, const char *text, size_t len);
/* Whether text looks like the seed dialect. */
bool conf_looks_seed(const char *text, size_t len);

/* ---- semantics (conf_semantics.c) ---- */
/* Assign the P_Key OpenSM gives a new header; returns the group index or
 * -1 when OpenSM would fail (counter exhausted). */
int conf_assign_pkey(ibp_conf *c, struct ibp_conf_partition *p,
		     const char *name, bool has_id, uint16_t id);
int conf_semantics_init(ibp_conf *c); /* IBP_ENOMEM */
void conf_semantics_free(ibp_conf *c);
/* After reading: membership index, duplicate/empty/no-full/topology
 * checks. */
int conf_finish(ibp_conf *c);

/* ---- small shared helpers ---- */
bool conf_is_ws(char ch); /* OpenSM's whitespace: ' ', '\t', '\n' */
/* Does word abbreviate full (prefix, as OpenSM's strncmp(w, full,
 * strlen(w)))? */
bool conf_prefix_of(const char *word, const char *full);

#endif
