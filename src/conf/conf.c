/*
 * conf.c - the partition policy object (see include/ibpart/conf.h): its
 * storage and lifetime, the accessors, and the parse entry points that
 * read a file and hand the text to the right reader.
 *
 * The OpenSM emulation (conf_parser.c) always runs, because OpenSM's
 * verdict is wanted for every input; for the seed dialect its AST is
 * thrown away and the seed reader (conf_seed.c) builds the policy.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "util/diag_source.h"
#include "util/file_read.h"
#include "topo/alias_map_lib.h"
#include "conf/conf_lib.h"
#include "conf/partitions_marker.h"
#include "util/diag_lib.h"
#include "util/options_version.h"
#include "ibpart/sys/alias_map.h"

/* ---- arena ---- */
void *conf_arena_alloc(struct conf_arena *a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	struct conf_arena_block *b = a->head;
	if (b)
		b->used = (b->used + 7) & ~(size_t)7;
	if (b && b->used > b->cap)
		b->used = b->cap;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > 60000 ? n : 65536 - sizeof(*b);
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		b->cap = cap;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	void *p = b->data + b->used;
	b->used += n;
	return p;
}

/* strings need no alignment: packed, they take less memory */
static char *arena_bytes(struct conf_arena *a, size_t n)
{
	struct conf_arena_block *b = a->head;
	if (!b || b->cap - b->used < n) {
		if (!conf_arena_alloc(a, n))
			return NULL;
		b = a->head;
		b->used -= (n + 7) & ~(size_t)7;
	}
	char *p = b->data + b->used;
	b->used += n;
	return p;
}

char *conf_arena_strndup(struct conf_arena *a, const char *s, size_t n)
{
	char *p = arena_bytes(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *conf_arena_strdup(struct conf_arena *a, const char *s)
{
	return conf_arena_strndup(a, s, strlen(s));
}

void conf_arena_free(struct conf_arena *a)
{
	struct conf_arena_block *b = a->head;
	while (b) {
		struct conf_arena_block *n = b->next;
		free(b);
		b = n;
	}
	a->head = NULL;
}

/* ---- helpers ---- */
bool conf_is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n';
}

bool conf_prefix_of(const char *word, const char *full)
{
	return strncmp(word, full, strlen(word)) == 0;
}

/* Version 2 put vports and vf_guids in version 1's padding: the same size, and
 * a version 1 caller's padding is not read (parse_text resets it). */
IBP_OPTIONS_LAYOUT(conf_options_layout, "plan options",
		   IBP_CONF_OPTIONS_VERSION, sizeof(ibp_conf_options),
		   sizeof(ibp_conf_options));
_Static_assert(offsetof(ibp_conf_options, vports) >
		       offsetof(ibp_conf_options, allow_both_pkeys) &&
		   offsetof(ibp_conf_options, vf_guids) +
			   sizeof(ibp_vf_guids) <=
		       offsetof(ibp_conf_options, max_input_size),
	       "vports and vf_guids sit in version 1's padding");

/* The library's defaults, a whole current struct. */
static void conf_options_defaults(ibp_conf_options *o)
{
	memset(o, 0, sizeof(*o));
	o->dialect = IBP_CONF_DIALECT_AUTO;
	o->version = IBP_CONF_OPTIONS_VERSION;
}

void ibp_conf_options_init(ibp_conf_options *o, unsigned version)
{
	ibp_conf_options d;
	conf_options_defaults(&d);
	ibp_options_init_as(o, version, &d, &conf_options_layout);
}

int conf_options_take(ibp_conf_options *full, const ibp_conf_options *o,
		      ibp_error *err)
{
	conf_options_defaults(full);
	return ibp_options_take(full, o, &conf_options_layout, err);
}

void conf_flags_default(ibp_conf_flags *f)
{
	memset(f, 0, sizeof(*f));
	f->rate = IBP_CONF_DEFAULT_RATE;
	f->mtu = IBP_CONF_DEFAULT_MTU;
	f->sl = IBP_CONF_DEFAULT_SL;
	f->defmember = IBP_MEMB_LIMITED;
}

const char *ibp_membership_str(ibp_membership m)
{
	switch (m) {
	case IBP_MEMB_NONE:
		return "none";
	case IBP_MEMB_UNSPECIFIED:
		return "unspecified";
	case IBP_MEMB_LIMITED:
		return "limited";
	case IBP_MEMB_FULL:
		return "full";
	case IBP_MEMB_BOTH:
		return "both";
	}
	return "?";
}

const char *ibp_member_kind_str(ibp_member_kind k)
{
	static const char *const names[] = {
	    "GUID",	   "ALL",  "ALL_CAS", "ALL_SWITCHES",
	    "ALL_ROUTERS", "SELF", "NONE",    "NAME"};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

unsigned ibp_conf_rate_code(const char *name)
{
	/* IBA vol. 1, 15.2.5.16 (PathRecord Rate), for 4x links */
	static const struct {
		const char *name;
		unsigned code;
	} rates[] = {{"SDR", 3},  {"DDR", 6},  {"QDR", 7},  {"FDR", 12},
		     {"EDR", 16}, {"HDR", 17}, {"NDR", 21}, {"XDR", 23}};
	for (size_t i = 0; name && i < sizeof(rates) / sizeof(rates[0]); i++)
		if (!strcasecmp(name, rates[i].name))
			return rates[i].code;
	return 0;
}

unsigned ibp_conf_mtu_code(unsigned bytes)
{
	switch (bytes) {
	case 256:
		return 1;
	case 512:
		return 2;
	case 1024:
		return 3;
	case 2048:
		return 4;
	case 4096:
		return 5;
	}
	return 0;
}

/* ---- building ---- */
ibp_conf *conf_new(const char *file, const ibp_conf_options *o)
{
	ibp_conf *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->file = strdup(file ? file : "");
	if (!c->file) {
		free(c);
		return NULL;
	}
	if (o)
		c->opts = *o;
	else
		ibp_conf_options_init(&c->opts, IBP_CONF_OPTIONS_VERSION);
	c->dialect = IBP_CONF_DIALECT_OPENSM;
	if (conf_semantics_init(c) != IBP_OK) {
		ibp_conf_free(c); /* no Default partition: no plan */
		return NULL;
	}
	return c;
}

static bool grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	void *p = realloc(*arr, n * elem);
	if (!p)
		return false;
	*arr = p;
	*cap = n;
	return true;
}

struct ibp_conf_partition *conf_add_partition(ibp_conf *c)
{
	if (!grow((void **)&c->parts, &c->capparts, c->nparts + 1,
		  sizeof(*c->parts)))
		return NULL;
	struct ibp_conf_partition *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->name = "";
	p->osm_name = "";
	conf_flags_default(&p->flags);
	c->parts[c->nparts++] = p;
	return p;
}

ibp_conf_member *conf_add_member(ibp_conf *c, struct ibp_conf_partition *p)
{
	/* all members live in one array, each partition's contiguous (a
	 * statement's members are added before the next statement begins);
	 * one array grows by mremap where per-partition arrays would copy */
	if (!c->nparts || c->parts[c->nparts - 1] != p)
		return NULL;
	if (!grow((void **)&c->members, &c->capmembers, c->nmembers + 1,
		  sizeof(*c->members)))
		return NULL;
	if (!p->nmembers)
		p->first = c->nmembers;
	ibp_conf_member *m = &c->members[c->nmembers++];
	p->nmembers++;
	memset(m, 0, sizeof(*m));
	m->text = "";
	return m;
}

void conf_fix_members(ibp_conf *c)
{
	for (size_t i = 0; i < c->nparts; i++)
		c->parts[i]->members = c->parts[i]->nmembers
					   ? c->members + c->parts[i]->first
					   : NULL;
}

ibp_conf_mgid *conf_add_mgid(ibp_conf *c, struct ibp_conf_partition *p)
{
	(void)c;
	if (!grow((void **)&p->mgids, &p->capmgids, p->nmgids + 1,
		  sizeof(*p->mgids)))
		return NULL;
	ibp_conf_mgid *m = &p->mgids[p->nmgids++];
	memset(m, 0, sizeof(*m));
	m->text = "";
	return m;
}

void ibp_conf_free(ibp_conf *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nparts; i++) {
		free(c->parts[i]->mgids);
		free(c->parts[i]);
	}
	free(c->parts);
	free(c->members);
	conf_semantics_free(c);
	free(c->misreadings);
	conf_arena_free(&c->arena);
	free(c->file);
	free(c);
}

/* ---- parsing ---- */
bool conf_looks_seed(const char *text, size_t len)
{
	/* "PartitionConfig" then optional blanks then "{", at the start of a
	 * line (after blanks, so never in a comment); found by memmem, which
	 * skips the rest of a large file at memory speed */
	static const char kw[] = "PartitionConfig";
	const size_t kn = sizeof(kw) - 1;
	const char *end = text + len, *p = text;
	while (p < end) {
		const char *k = memmem(p, (size_t)(end - p), kw, kn);
		if (!k)
			return false;
		const char *b = k;
		while (b > text &&
		       (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
			b--;
		const char *q = k + kn;
		if (b == text || b[-1] == '\n') {
			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			if (q < end && *q == '{')
				return true;
		}
		p = k + 1;
	}
	return false;
}

int ibp_conf_parse_buffer(const char *name, const char *text, size_t len,
			  const ibp_conf_options *o, ibp_conf **out,
			  ibp_diags *diags, ibp_error *err)
{
	return conf_parse_buffer_fast(name, text, len, o, out, diags, err,
				      true);
}

static int parse_text(const char *name, const char *text, size_t len,
		      const ibp_conf_options *o, ibp_conf **out,
		      ibp_diags *diags, ibp_error *err, bool fastline,
		      bool mapped);

int conf_parse_buffer_fast(const char *name, const char *text, size_t len,
			   const ibp_conf_options *o, ibp_conf **out,
			   ibp_diags *diags, ibp_error *err, bool fastline)
{
	return parse_text(name, text, len, o, out, diags, err, fastline, false);
}

static int parse_read(const char *name, const char *text, size_t len,
		      const ibp_conf_options *o, ibp_conf **out,
		      ibp_diags *diags, ibp_error *err, bool fastline,
		      bool mapped);

/* The alias map o names by path (alias_guids_path, with a fabric and no
 * map given) is read for the call only: its failure is the call's (in
 * err, located), and the plan keeps no pointer to it. */
static int parse_text(const char *name, const char *text, size_t len,
		      const ibp_conf_options *o, ibp_conf **out,
		      ibp_diags *diags, ibp_error *err, bool fastline,
		      bool mapped)
{
	ibp_conf_options own;
	conf_options_defaults(&own);
	if (ibp_options_take(&own, o, &conf_options_layout, err)) {
		if (out)
			*out = NULL;
		return IBP_EINVAL;
	}
	if (own.version < 2) {
		own.vf_guids = IBP_VF_GUIDS_ALIAS;
		own.vports = false;
	}
	o = &own;
	if (!o->alias_guids_path || o->aliases || !o->fabric)
		return parse_read(name, text, len, o, out, diags, err, fastline,
				  mapped);
	ibp_conf_options oo = *o;
	ibp_alias_map *m;
	int rc = ibp_alias_map_load(o->alias_guids_path, o->max_input_size, &m,
				    NULL, err);
	if (rc) {
		if (out)
			*out = NULL;
		return rc;
	}
	oo.aliases = m;
	rc =
	    parse_read(name, text, len, &oo, out, diags, err, fastline, mapped);
	if (out && *out) {
		(*out)->opts.aliases = NULL;
		(*out)->opts.alias_guids_path = NULL;
	}
	ibp_alias_map_free(m);
	return rc;
}

/* mapped: text is a file mapping of ours (ibp_file_map), whose pages
 * the reader gives back as it passes them (conf_parser.c). */
static int parse_read(const char *name, const char *text, size_t len,
		      const ibp_conf_options *o, ibp_conf **out,
		      ibp_diags *diags, ibp_error *err, bool fastline,
		      bool mapped)
{
	if (!out || (!text && len))
		return ibp_error_set(err, IBP_EINVAL, "conf: bad argument");
	*out = NULL;
	if (!name)
		name = "<buffer>";
	if (!text)
		text = "";
	ibp_conf_options defo;
	if (!o) {
		ibp_conf_options_init(&defo, IBP_CONF_OPTIONS_VERSION);
		o = &defo;
	}
	ibp_conf_dialect dialect = o->dialect;
	if (dialect == IBP_CONF_DIALECT_AUTO)
		dialect = conf_looks_seed(text, len) ? IBP_CONF_DIALECT_SEED
						     : IBP_CONF_DIALECT_OPENSM;
	if (diags && ibp_diags_set_source(diags, name, text, len))
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");

	ibp_conf *c = conf_new(name, o);
	if (!c)
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	int rc;
	c->no_fastline = !fastline;
	c->text_mapped = mapped;
	if (o->vf_guids == IBP_VF_GUIDS_PHYSICAL_GENERATED) {
		unsigned ml = ibp_partitions_marker_line(text, len);
		c->vf_after_line = ml ? ml : UINT_MAX;
	}
	if (dialect == IBP_CONF_DIALECT_OPENSM) {
		c->diags = diags;
		rc = conf_read_opensm(c, text, len);
		if (rc == 0)
			rc = conf_finish(c);
	} else {
		/* OpenSM's verdict on the raw text, silently */
		ibp_conf *osm = conf_new(name, o);
		if (!osm) {
			ibp_conf_free(c);
			return ibp_error_set(err, IBP_ENOMEM, "out of memory");
		}
		osm->quiet = true;
		rc = conf_read_opensm(osm, text, len);
		if (rc == 0) {
			c->verdict.rejected = osm->verdict.rejected;
			c->verdict.reason =
			    osm->verdict.reason
				? conf_arena_strdup(&c->arena,
						    osm->verdict.reason)
				: NULL;
			c->verdict.pos = osm->verdict.pos;
			c->verdict.opensm_line = osm->verdict.opensm_line;
			c->verdict.crashes = osm->verdict.crashes;
		}
		ibp_conf_free(osm);
		c->dialect = IBP_CONF_DIALECT_SEED;
		c->diags = diags;
		if (rc == 0 && c->verdict.rejected)
			conf_diag(
			    c, IBP_SEV_NOTE, "seed-dialect", c->verdict.pos,
			    false,
			    "this is the seed's 'PartitionConfig { ... }' "
			    "dialect: OpenSM 3.3.23 itself rejects it (%s) "
			    "and makes every port a full member of 0xffff; "
			    "use 'ibpart convert' to get an OpenSM file",
			    c->verdict.reason);
		if (rc == 0)
			rc = conf_read_seed(c, text, len);
		if (rc == 0)
			rc = conf_finish(c);
	}
	c->diags = NULL;
	if (rc) {
		ibp_conf_free(c);
		return ibp_error_set(err, rc, "conf: %s", ibp_status_str(rc));
	}
	*out = c;
	return IBP_OK;
}

int ibp_conf_parse_file(const char *path, const ibp_conf_options *o,
			ibp_conf **out, ibp_diags *diags, ibp_error *err)
{
	if (!path || !out)
		return ibp_error_set(err, IBP_EINVAL, "conf: bad argument");
	*out = NULL;
	ibp_conf_options own;
	conf_options_defaults(&own);
	if (ibp_options_take(&own, o, &conf_options_layout, err))
		return IBP_EINVAL;
	o = &own;
	struct ibp_file_text t;
	int rrc = ibp_file_map(path, o ? o->max_input_size : 0, &t, err);
	if (rrc)
		return rrc;
	/* the text becomes the source diags quote (no copy of the file) */
	int kept = diags_adopt_source(diags, path, &t);
	if (kept < 0) {
		ibp_file_text_free(&t);
		return ibp_error_set(err, IBP_ENOMEM, "out of memory");
	}
	int rc = parse_text(path, t.text, t.len, o, out, diags, err, true,
			    t.mapped != 0);
	if (kept)
		ibp_file_text_free(&t);
	return rc;
}

/* ---- accessors ---- */
const char *ibp_conf_file(const ibp_conf *c)
{
	return c->file;
}

ibp_conf_dialect ibp_conf_get_dialect(const ibp_conf *c)
{
	return c->dialect;
}

size_t ibp_conf_error_count(const ibp_conf *c)
{
	return c->nerrors;
}

size_t ibp_conf_warning_count(const ibp_conf *c)
{
	return c->nwarnings;
}

size_t ibp_conf_partition_count(const ibp_conf *c)
{
	return c->nparts;
}

const ibp_conf_partition *ibp_conf_partition_at(const ibp_conf *c, size_t i)
{
	return i < c->nparts ? c->parts[i] : NULL;
}

const char *ibp_conf_partition_name(const ibp_conf_partition *p)
{
	return p->name;
}

bool ibp_conf_partition_pkey_written(const ibp_conf_partition *p,
				     uint16_t *pkey)
{
	if (p->has_pkey && pkey)
		*pkey = p->pkey_written;
	return p->has_pkey;
}

uint16_t ibp_conf_partition_pkey(const ibp_conf_partition *p)
{
	return p->pkey;
}

const ibp_conf_flags *ibp_conf_partition_flags(const ibp_conf_partition *p)
{
	return &p->flags;
}

ibp_conf_pos ibp_conf_partition_pos(const ibp_conf_partition *p)
{
	return p->pos;
}

size_t ibp_conf_partition_member_count(const ibp_conf_partition *p)
{
	return p->nmembers;
}

const ibp_conf_member *ibp_conf_partition_member(const ibp_conf_partition *p,
						 size_t i)
{
	return i < p->nmembers ? &p->members[i] : NULL;
}

size_t ibp_conf_partition_mgid_count(const ibp_conf_partition *p)
{
	return p->nmgids;
}

const ibp_conf_mgid *ibp_conf_partition_mgid(const ibp_conf_partition *p,
					     size_t i)
{
	return i < p->nmgids ? &p->mgids[i] : NULL;
}

size_t ibp_conf_partition_group(const ibp_conf_partition *p)
{
	return p->group;
}

size_t ibp_conf_group_count(const ibp_conf *c)
{
	return c->ngroups;
}

const ibp_conf_group *ibp_conf_group_at(const ibp_conf *c, size_t i)
{
	return i < c->ngroups ? c->groups[i] : NULL;
}

const ibp_conf_group *ibp_conf_group_find(const ibp_conf *c, uint16_t pkey)
{
	int g = c->group_of_pkey[pkey & 0x7fff];
	return g >= 0 ? c->groups[g] : NULL;
}

uint16_t ibp_conf_group_pkey(const ibp_conf_group *g)
{
	return g->pkey;
}

const char *ibp_conf_group_name(const ibp_conf_group *g)
{
	return g->name;
}

size_t ibp_conf_group_partition_count(const ibp_conf_group *g)
{
	return g->nparts;
}

bool ibp_conf_group_ipoib(const ibp_conf_group *g)
{
	return g->ipoib;
}

unsigned ibp_conf_group_sl(const ibp_conf_group *g)
{
	return g->sl;
}

const ibp_conf_verdict *ibp_conf_opensm_verdict(const ibp_conf *c)
{
	return &c->verdict;
}

const ibp_conf_partition *ibp_conf_group_partition(const ibp_conf_group *g,
						   size_t i)
{
	return i < g->nparts ? g->parts[i] : NULL;
}
