/*
 * topo_reader.c - reads the topology file that ibnetdiscover prints and
 * ibsim loads, into the fabric model (include/ibpart/topo.h).
 *
 * The grammar is line based, as in ibsim (ibsim/sim_net.c):
 *   top level    "Switch N \"id\" # \"desc\" enhanced port 0 lid L lmc M"
 *                "Ca|Hca|Rt N \"id\" # \"desc\""
 *                "switchguid=G[(P)]", "caguid=G", "hcaguids=G", "rtguid=G"
 *                (or "+OFFSET": relative to the last absolute base),
 *                "sysimgguid=G", "vendid=V", "devid=D", "width=",
 *                "speed=", "extspeed=", comments '#', blank lines;
 *   in a record  "[p](guid) \"peer\"[q](peerguid) w=4 # comment" lines,
 *                '#' lines; anything else ends the record.
 * Node GUIDs come from ibsim's counters: each type has a base (CA 0x100000,
 * switch 0x200000, router none) that "…guid=" sets; a switch takes one
 * GUID, a CA or router nports + 1.  So ibsim's own example nets get the
 * GUIDs ibsim gives them, and ibnetdiscover output (one "…guid=" before
 * each node) gets the real ones.  A CA port GUID is node GUID + port
 * unless the port line gives "(guid)".
 *
 * The reader keeps going after an error and reports every finding with
 * file:line:col; links are resolved after the whole file is read (a link
 * must be listed on both ends, as ibsim demands).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "topo/node_name_map.h"
#include "ibpart/topo.h"
#include "topo/topo_lib.h"
#include "util/diag_source.h"
#include "util/hash_seed.h"
#include "util/file_read.h"
#include "util/huge_pages.h"
#include "topo/topo_priv.h"
#include "util/diag_lib.h"
#include "util/progress_lib.h"

#define IBSIM_CA_GUID_BASE     0x100000ULL
#define IBSIM_SWITCH_GUID_BASE 0x200000ULL

/* A node header as read, before it becomes a fabric node. */
struct pnode {
	ibp_node_type type;
	unsigned nports;
	uint64_t guid, sysimg;
	uint32_t vendid, devid;
	const char *id;
	char *desc;
	uint32_t sym; /* id's symbol (struct rsym) */
	unsigned line, col_id;
	size_t fabric_node;  /* after creation; SIZE_MAX when it failed */
	ibp_port_link port0; /* a switch's "base port 0 lid L lmc M" */
};

/* A port line as read (one per port of the fabric: kept small, the
 * reader's memory is mostly these).  The port's column is always 2. */
#define COL_PORT 2
struct plink {
	uint64_t guid;	    /* "(…)" after [port]; 0 when absent */
	uint64_t peer_guid; /* "(…)" after the peer's [port]; 0 = absent */
	uint32_t peer_sym;  /* the peer's id, a symbol (struct rsym) */
	uint32_t pnode;
	uint8_t port, peer_port;
	ibp_port_link link; /* from the comment: "lid L lmc M … 4xSDR" */
	unsigned line, col_guid, col_peer, col_peer_port;
};

/* A node id as read (a header's or a port line's peer), once per
 * distinct id: the links are resolved by symbol, not by string. */
struct rsym {
	const char *s; /* in the arena, NUL-terminated */
	size_t len;    /* strlen(s) */
	uint32_t node; /* the first fabric node of this id (build) */
	bool bad;      /* bad_id() said so: said again at each use */
};

/* A slot of the ids' hash table: a short id (ibnetdiscover's are 18
 * bytes) is kept in the slot itself, so a look-up reads one cache line
 * and no string elsewhere. */
#define SLOT_KEY 24
struct islot {
	uint32_t hash;
	uint32_t sym1; /* the symbol + 1; 0 when the slot is empty */
	/* the id's length, its bytes and zeros; a longer id: length 255,
	 * compared in the symbol's string */
	uint64_t key[SLOT_KEY / 8];
};

struct reader {
	bool fast; /* fast_port_line() first (topo_load_buffer_general) */
	const char *file;
	ibp_diags *diags;
	unsigned errors;
	/* the current line */
	const char *ls, *le;
	unsigned lineno;
	/* ibsim's GUID counters, indexed by ibp_node_type */
	uint64_t abs_guid[4], cur_guid[4];
	bool have_guid[4];
	uint64_t sysimg_next;
	uint32_t vendid, devid;
	uint64_t initiator_port; /* "# Initiated from node N port P" */
	struct pnode *nodes;
	size_t nn, cap_n;
	struct plink *links;
	size_t nl, cap_l;
	/* the ids and descriptions read: one bump arena, freed whole (no
	 * allocation per token) */
	struct str_block *strs;
	/* the ids read, and their hash table (the hash seeded,
	 * util/hash_seed.h) */
	struct rsym *syms;
	size_t nsym, cap_sym;
	struct islot *itab;
	size_t icap;
	uint64_t seed;
	/* the last port line's peer id as written, and its symbol */
	const char *last_peer;
	size_t last_peer_len;
	uint32_t last_peer_sym;
	const ibp_progress *progress;
};

struct str_block {
	struct str_block *next;
	size_t used, cap;
	char data[];
};

/* A NUL-terminated copy of n bytes at s in r's arena, or NULL. */
static char *keep_str(struct reader *r, const char *s, size_t n)
{
	struct str_block *b = r->strs;
	if (!b || b->cap - b->used < n + 1) {
		/* blocks of 64 KiB, doubling to 4 MiB (in huge pages) */
		size_t whole = b ? (sizeof(*b) + b->cap) * 2 : 65536;
		if (whole > (4u << 20))
			whole = 4u << 20;
		size_t cap = whole - sizeof(*b);
		if (cap < n + 1)
			cap = n + 1;
		b = malloc(sizeof(*b) + cap);
		if (!b)
			return NULL;
		ibp_huge_pages(b, sizeof(*b) + cap);
		b->cap = cap;
		b->used = 0;
		b->next = r->strs;
		r->strs = b;
	}
	char *p = b->data + b->used;
	memcpy(p, s, n);
	p[n] = 0;
	b->used += n + 1;
	return p;
}

__attribute__((format(printf, 5, 6))) static void
finding(struct reader *r, ibp_severity sev, const char *code, const char *at,
	const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	unsigned col = at ? (unsigned)(at - r->ls) + 1 : 0;
	ibp_diags_add(r->diags, sev, code, r->file, r->lineno, col, "%s",
		      msg ? msg : "out of memory");
	free(msg);
	if (sev == IBP_SEV_ERROR)
		r->errors++;
}

#define ERR(r, code, at, ...) finding(r, IBP_SEV_ERROR, code, at, __VA_ARGS__)
#define WARN(r, code, at, ...)                                                 \
	finding(r, IBP_SEV_WARNING, code, at, __VA_ARGS__)

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static bool starts(const char *p, const char *e, const char *kw)
{
	size_t n = strlen(kw);
	return (size_t)(e - p) >= n && !memcmp(p, kw, n);
}

/* a digit's value + 1, by byte; 0 for a byte that is no hex digit */
static const unsigned char digit1[256] = {
    ['0'] = 1,	['1'] = 2,  ['2'] = 3,	['3'] = 4,  ['4'] = 5,	['5'] = 6,
    ['6'] = 7,	['7'] = 8,  ['8'] = 9,	['9'] = 10, ['a'] = 11, ['b'] = 12,
    ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
    ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16};

/* A number: 0x… hex, else decimal (base 0 without octal surprises when
 * hex_default: bare hex digits, as ibnetdiscover writes "(guid)").
 * Table-driven; an overflow of 64 bits is no number. */
static bool read_num(const char **pp, const char *e, bool hex_default,
		     uint64_t *out)
{
	const char *p = *pp;
	bool hex = hex_default;
	if (e - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		hex = true;
		p += 2;
	}
	const char *s = p;
	uint64_t v = 0;
	if (hex) {
		for (unsigned d; p < e && (d = digit1[(unsigned char)*p]);
		     p++) {
			if (v >> 60)
				return false; /* overflow */
			v = v << 4 | (d - 1);
		}
	} else {
		for (unsigned d;
		     p < e && (d = digit1[(unsigned char)*p]) && d <= 10; p++) {
			if (v > (UINT64_MAX - (d - 1)) / 10)
				return false; /* overflow */
			v = v * 10 + (d - 1);
		}
	}
	if (p == s)
		return false;
	*pp = p;
	*out = v;
	return true;
}

#define NO_SYM UINT32_MAX

static bool bad_id(struct reader *r, const char *id, const char *at);
static void *grow(void *arr, size_t *cap, size_t n, size_t size);

/* The symbol of the id s[0..n) (as a C string: up to a NUL), made on
 * first sight (a copy in the arena, checked by bad_id()); NO_SYM when
 * the id is bad (reported at `at`, each time) or memory ran out. */
static uint32_t intern(struct reader *r, const char *s, size_t n,
		       const char *at)
{
	const char *nul = memchr(s, 0, n);
	if (nul)
		n = (size_t)(nul - s);
	if ((r->nsym + 1) * 2 > r->icap) {
		size_t cap = r->icap ? r->icap * 2 : 1024;
		struct islot *t = calloc(cap, sizeof(*t));
		if (!t) {
			ERR(r, "nomem", at, "out of memory");
			return NO_SYM;
		}
		ibp_huge_pages(t, cap * sizeof(*t));
		if (!r->icap)
			r->seed = hash_seed();
		for (size_t i = 0; i < r->icap; i++) {
			if (!r->itab[i].sym1)
				continue;
			size_t j = r->itab[i].hash & (cap - 1);
			while (t[j].sym1)
				j = (j + 1) & (cap - 1);
			t[j] = r->itab[i];
		}
		free(r->itab);
		r->itab = t;
		r->icap = cap;
	}
	uint32_t h = (uint32_t)hash_bytes(s, n, r->seed);
	union {
		unsigned char b[SLOT_KEY];
		uint64_t w[SLOT_KEY / 8];
	} key = {{0}};
	bool inline_key = n < SLOT_KEY;
	key.b[0] = inline_key ? (unsigned char)n : 255;
	if (inline_key)
		memcpy(key.b + 1, s, n);
	size_t j = h & (r->icap - 1);
	for (; r->itab[j].sym1; j = (j + 1) & (r->icap - 1)) {
		const struct islot *v = &r->itab[j];
		if (v->hash != h || v->key[0] != key.w[0] ||
		    v->key[1] != key.w[1] || v->key[2] != key.w[2])
			continue;
		uint32_t k = v->sym1 - 1;
		if (!inline_key &&
		    (r->syms[k].len != n || memcmp(r->syms[k].s, s, n)))
			continue;
		if (r->syms[k].bad) {
			bad_id(r, r->syms[k].s, at);
			return NO_SYM;
		}
		return k;
	}
	struct rsym *syms = grow(r->syms, &r->cap_sym, r->nsym, sizeof(*syms));
	char *copy = syms ? keep_str(r, s, n) : NULL;
	if (syms)
		r->syms = syms;
	if (!copy) {
		ERR(r, "nomem", at, "out of memory");
		return NO_SYM;
	}
	uint32_t k = (uint32_t)r->nsym++;
	r->syms[k].s = copy;
	r->syms[k].len = n;
	r->syms[k].node = TOPO_NONE;
	r->syms[k].bad = bad_id(r, copy, at);
	r->itab[j].hash = h;
	r->itab[j].sym1 = k + 1;
	memcpy(r->itab[j].key, key.w, SLOT_KEY);
	return r->syms[k].bad ? NO_SYM : k;
}

/* "\"id\"" at *pp: the id's symbol, *pp past it; NO_SYM when it is not
 * there or is bad (error reported). */
static uint32_t read_id(struct reader *r, const char **pp, const char *what)
{
	const char *p = *pp;
	if (p >= r->le || *p != '"') {
		ERR(r, "syntax", p, "expected %s in double quotes", what);
		return NO_SYM;
	}
	const char *q = memchr(p + 1, '"', (size_t)(r->le - p - 1));
	if (!q) {
		ERR(r, "unterminated-string", p, "missing closing '\"' of %s",
		    what);
		return NO_SYM;
	}
	uint32_t k = intern(r, p + 1, (size_t)(q - p - 1), p + 1);
	if (k != NO_SYM)
		*pp = q + 1;
	return k;
}

/* ibsim's node description rule: after '#', a quoted string, else the
 * text up to " enhanced port ", " base port ", " lid " or " lmc ". */
static char *read_desc(struct reader *r, const char *p, const char *e)
{
	p = skip_ws(p, e);
	if (p < e && *p == '"') {
		const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
		return keep_str(r, p + 1, (size_t)((q ? q : e) - p - 1));
	}
	const char *stop = e;
	static const char *const marks[] = {" enhanced port ", " base port ",
					    " lid ", " lmc "};
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		const char *m =
		    memmem(p, (size_t)(e - p), marks[i], strlen(marks[i]));
		if (m && m < stop)
			stop = m;
	}
	while (stop > p && isspace((unsigned char)stop[-1]))
		stop--;
	return keep_str(r, p, (size_t)(stop - p));
}

static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return arr;
	size_t c = *cap ? *cap * 2 : 64;
	void *p = realloc(arr, c * size);
	if (p)
		*cap = c;
	ibp_huge_pages(p, c * size);
	return p;
}

static bool bad_id(struct reader *r, const char *id, const char *at)
{
	if (!*id) {
		ERR(r, "bad-node-id", at, "empty node id");
		return true;
	}
	if (strpbrk(id, "#@")) {
		ERR(r, "bad-node-id", at,
		    "node id \"%s\": '#' and '@' are reserved (ibsim)", id);
		return true;
	}
	return false;
}

/* "lid N" at *pp (after blanks): N, *pp past it; false, *pp kept, when
 * the text is not that or N is no LID. */
static bool read_lid_word(const char **pp, const char *e, const char *kw,
			  uint64_t max, uint64_t *v)
{
	const char *p = skip_ws(*pp, e);
	if (!starts(p, e, kw))
		return false;
	p = skip_ws(p + strlen(kw), e);
	if (!read_num(&p, e, false, v) || *v > max)
		return false;
	*pp = p;
	return true;
}

/* What a comment says of the ports, as ibnetdiscover writes it: a
 * switch's "... base port 0 lid L lmc M" (or "enhanced port 0"); a port
 * line's "lid L lmc M" before the peer's quoted description (a CA's own
 * port) and "lid L 4xSDR" after it (the peer's LID, the link's rate).
 * Only a comment: text that is not this is no error, and what is not
 * there stays 0. */
static void read_port0(const char *p, const char *e, ibp_port_link *link)
{
	uint64_t v;
	p = skip_ws(p, e);
	if (p < e && *p == '"') { /* the description may say anything */
		const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
		if (!q)
			return;
		p = q + 1;
	}
	const char *m = memmem(p, (size_t)(e - p), " port 0 ", 8);
	if (!m)
		return;
	p = m + 7;
	if (read_lid_word(&p, e, "lid ", 0xffff, &v)) {
		link->lid = (uint16_t)v;
		if (read_lid_word(&p, e, "lmc ", 7, &v))
			link->lmc = (uint8_t)v;
	}
}

static void read_link_comment(const char *p, const char *e, ibp_port_link *link)
{
	uint64_t v;
	if (read_lid_word(&p, e, "lid ", 0xffff, &v)) {
		link->lid = (uint16_t)v;
		if (read_lid_word(&p, e, "lmc ", 7, &v))
			link->lmc = (uint8_t)v;
	}
	p = skip_ws(p, e);
	if (p >= e || *p != '"')
		return;
	const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
	if (!q)
		return;
	p = q + 1;
	if (!read_lid_word(&p, e, "lid ", 0xffff, &v))
		return;
	p = skip_ws(p, e);
	const char *t = p;
	while (p < e && *p != ' ' && *p != '\t')
		p++;
	topo_link_rate_parse(t, (size_t)(p - t), link);
}

/* "Switch 24 \"id\" # \"desc\" …" and the Ca/Hca/Rt forms. */
static struct pnode *parse_header(struct reader *r, ibp_node_type type,
				  size_t kwlen)
{
	const char *p = r->ls + kwlen, *e = r->le;
	if (p == e || (*p != ' ' && *p != '\t')) {
		ERR(r, "syntax", p, "expected the port count after '%.*s'",
		    (int)kwlen, r->ls);
		return NULL;
	}
	p = skip_ws(p, e);
	const char *np = p;
	uint64_t nports;
	if (!read_num(&p, e, false, &nports)) {
		ERR(r, "syntax", np, "expected the number of ports");
		return NULL;
	}
	if (nports < 1 || nports > IBP_MAX_PORTS) {
		ERR(r, "port-range", np,
		    "a node has 1 to %u ports, not %" PRIu64, IBP_MAX_PORTS,
		    nports);
		return NULL;
	}
	p = skip_ws(p, e);
	const char *idp = p;
	uint32_t sym = read_id(r, &p, "the node id");
	if (sym == NO_SYM)
		return NULL;
	p = skip_ws(p, e);
	char *desc = NULL;
	ibp_port_link port0 = {0};
	if (p < e && *p == '#') {
		desc = read_desc(r, p + 1, e);
		if (type == IBP_NODE_SWITCH)
			read_port0(p + 1, e, &port0);
		/* NodeDescription is 64 bytes (IBA 14.2.5.2); ibsim keeps 63 */
		if (desc && strlen(desc) > 63)
			WARN(r, "long-description", p,
			     "description is %zu bytes; ibsim and the "
			     "NodeDescription attribute keep only the first 63",
			     strlen(desc));
	} else if (p < e)
		WARN(r, "ignored-text", p, "text after the node id is ignored");
	struct pnode *nodes = grow(r->nodes, &r->cap_n, r->nn, sizeof(*nodes));
	if (!nodes) {
		ERR(r, "nomem", NULL, "out of memory");
		return NULL;
	}
	r->nodes = nodes;
	struct pnode *pn = &nodes[r->nn++];
	memset(pn, 0, sizeof(*pn));
	pn->type = type;
	pn->nports = (unsigned)nports;
	pn->id = r->syms[sym].s;
	pn->sym = sym;
	pn->desc = desc;
	pn->line = r->lineno;
	pn->col_id = (unsigned)(idp - r->ls) + 1;
	pn->fabric_node = SIZE_MAX;
	pn->port0 = port0;
	/* ibsim's GUID counters */
	if (!r->have_guid[type]) {
		if (type == IBP_NODE_ROUTER) {
			ERR(r, "missing-guid", r->ls,
			    "a router needs an \"rtguid=\" line before it");
			return pn;
		}
		r->cur_guid[type] = r->abs_guid[type] =
		    type == IBP_NODE_SWITCH ? IBSIM_SWITCH_GUID_BASE
					    : IBSIM_CA_GUID_BASE;
		r->have_guid[type] = true;
	}
	pn->guid = r->cur_guid[type];
	r->cur_guid[type] += type == IBP_NODE_SWITCH ? 1 : nports + 1;
	pn->sysimg = r->sysimg_next;
	pn->vendid = r->vendid;
	pn->devid = r->devid;
	r->sysimg_next = 0; /* ibsim: sysimgguid= and vendid= apply once */
	r->vendid = 0;
	return pn;
}

/* The peer's quoted id at *pp, as read_id(); consecutive port lines
 * often name the same peer (the hosts of one leaf switch), and then
 * take the symbol the line before found without a look-up. */
static uint32_t read_peer(struct reader *r, const char **pp)
{
	const char *p = *pp;
	const char *q = p < r->le && *p == '"'
			    ? memchr(p + 1, '"', (size_t)(r->le - p - 1))
			    : NULL;
	if (q && r->last_peer && r->last_peer_len == (size_t)(q - p - 1) &&
	    !memcmp(r->last_peer, p + 1, r->last_peer_len)) {
		*pp = q + 1;
		return r->last_peer_sym; /* checked when first read */
	}
	uint32_t k = read_id(r, pp, "the peer's node id");
	if (k != NO_SYM) {
		r->last_peer = p + 1;
		r->last_peer_len = (size_t)(q - p - 1);
		r->last_peer_sym = k;
	}
	return k;
}

/* "[p](guid)\t\"peer\"[q](guid) opts # comment" */
static void parse_port_line(struct reader *r, size_t node)
{
	const char *p = r->ls + 1, *e = r->le;
	struct plink l;
	memset(&l, 0, sizeof(l));
	l.pnode = (uint32_t)node;
	l.line = r->lineno;
	uint64_t v;
	if (!read_num(&p, e, false, &v) || p >= e || *p != ']') {
		ERR(r, "syntax", p, "expected \"[port]\"");
		return;
	}
	unsigned nports = r->nodes[node].nports;
	if (v < 1 || v > nports) {
		ERR(r, "port-range", r->ls + 1,
		    "port %" PRIu64 " is out of range: \"%s\" has ports 1..%u",
		    v, r->nodes[node].id, nports);
		return;
	}
	l.port = (uint8_t)v; /* 1..IBP_MAX_PORTS */
	p++;
	if (p < e && *p == '(') {
		l.col_guid = (unsigned)(p - r->ls) + 2;
		p++;
		if (!read_num(&p, e, true, &l.guid) || p >= e || *p != ')') {
			ERR(r, "bad-guid", p, "expected \"(port GUID)\"");
			return;
		}
		if (!l.guid) {
			ERR(r, "bad-guid", r->ls + l.col_guid - 1,
			    "port GUID 0 is invalid");
			return;
		}
		p++;
	}
	p = skip_ws(p, e);
	l.col_peer = (unsigned)(p - r->ls) + 1;
	l.peer_sym = read_peer(r, &p);
	if (l.peer_sym == NO_SYM)
		return;
	l.peer_port = 1; /* ibsim's default when "[q]" is missing */
	if (p < e && *p == '[') {
		l.col_peer_port = (unsigned)(p - r->ls) + 2;
		p++;
		if (!read_num(&p, e, false, &v) || p >= e || *p != ']') {
			ERR(r, "syntax", p, "expected \"[peer port]\"");
			return;
		}
		if (v < 1 || v > IBP_MAX_PORTS) {
			ERR(r, "port-range", r->ls + l.col_peer_port - 1,
			    "peer port %" PRIu64 " is out of range", v);
			return;
		}
		l.peer_port = (uint8_t)v;
		p++;
	} else {
		l.col_peer_port = l.col_peer;
	}
	if (p < e && *p == '(') {
		p++;
		if (!read_num(&p, e, true, &l.peer_guid) || p >= e ||
		    *p != ')') {
			ERR(r, "bad-guid", p, "expected \"(peer port GUID)\"");
			return;
		}
		p++;
	}
	/* ibsim's link options (w=, s=, e=) before a comment */
	for (;;) {
		p = skip_ws(p, e);
		if (p < e && *p == '#')
			read_link_comment(p + 1, e, &l.link);
		if (p >= e || *p == '#')
			break;
		/* A token ends where skip_ws() resumes (space or tab), so
		 * every pass consumes at least one byte: a VT, FF or CR is
		 * part of a token (and warned about), never a stall. */
		const char *t = p;
		while (p < e && *p != ' ' && *p != '\t' && *p != '#')
			p++;
		const char *eq = memchr(t, '=', (size_t)(p - t));
		if (!eq || eq == t)
			WARN(r, "ignored-text", t,
			     "'%.*s' is not a link option; ignored",
			     (int)(p - t), t);
		else if (!strchr("wse", *t) || eq != t + 1)
			WARN(r, "ignored-text", t,
			     "unknown link option '%.*s' ignored", (int)(p - t),
			     t);
	}
	struct plink *links = grow(r->links, &r->cap_l, r->nl, sizeof(*links));
	if (!links) {
		ERR(r, "nomem", NULL, "out of memory");
		return;
	}
	r->links = links;
	links[r->nl++] = l;
}

static bool next_line(struct reader *r, const char **pos, const char *end);

/* bytes an id read by fast_port_line() may not hold: its end, what
 * bad_id() refuses, and what ends a line */
static const unsigned char id_stop[256] = {
    ['"'] = 1, ['#'] = 1, ['@'] = 1, [0] = 1, ['\n'] = 1, ['\r'] = 1};

/* 1 to 3 decimal digits at *pp (a port number): the value and *pp past
 * them; false when there are none or more. */
static inline bool fast_port(const char **pp, const char *e, uint64_t *out)
{
	const char *p = *pp;
	unsigned v = 0, n = 0;
	while (p < e && (unsigned)(*p - '0') < 10) {
		if (++n > 3)
			return false;
		v = v * 10 + (unsigned)(*p++ - '0');
	}
	*pp = p;
	*out = v;
	return n;
}

/* 1 to 16 hex digits at *pp, no "0x" (a GUID): the value and *pp past
 * them; false when there are none or more. */
static inline bool fast_guid(const char **pp, const char *e, uint64_t *out)
{
	const unsigned char *p = (const unsigned char *)*pp, *s = p;
	const unsigned char *lim = (const unsigned char *)e;
	uint64_t v = 0;
	for (unsigned d; p < lim && (d = digit1[*p]); p++) {
		if (p - s == 16)
			return false;
		v = v << 4 | (d - 1);
	}
	if (p == s)
		return false;
	*pp = (const char *)p;
	*out = v;
	return true;
}

/* The port line at p, of the shape ibnetdiscover and ibpart write,
 *     [p](guid)<blanks>"peer"[q](guid)<blanks># comment
 * ("(guid)", "[q]", "(guid)" and the comment optional), read in one pass
 * into the same port line parse_port_line() makes: the position after
 * the line, or NULL when the line is of any other shape (a number out
 * of range, "0x", a bad or new-and-bad id, link options, ...), left to
 * parse_port_line(), which reports what it finds.  Such a line gives
 * parse_port_line() nothing to report either. */
static const char *fast_port_line(struct reader *r, size_t node, const char *ls,
				  const char *end)
{
	/* the line's number and start, for intern()'s report */
	r->lineno++;
	r->ls = ls;
	const char *p = ls + 1;
	struct plink l;
	memset(&l, 0, sizeof(l));
	uint64_t v;
	if (!fast_port(&p, end, &v) || p >= end || *p != ']' || v < 1 ||
	    v > r->nodes[node].nports)
		return NULL;
	l.port = (uint8_t)v;
	p++;
	if (p < end && *p == '(') {
		l.col_guid = (unsigned)(p - ls) + 2;
		p++;
		if (!fast_guid(&p, end, &l.guid) || !l.guid || p >= end ||
		    *p != ')')
			return NULL;
		p++;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '"')
		return NULL;
	l.col_peer = (unsigned)(p - ls) + 1;
	const char *id = ++p;
	while (p < end && !id_stop[(unsigned char)*p])
		p++;
	if (p >= end || *p != '"' || p == id)
		return NULL;
	size_t idn = (size_t)(p - id);
	uint32_t after = r->last_peer ? r->last_peer_sym + 1 : UINT32_MAX;
	if (r->last_peer && r->last_peer_len == idn &&
	    !memcmp(r->last_peer, id, idn)) {
		l.peer_sym = r->last_peer_sym;
	} else if (after < r->nsym && r->syms[after].len == idn &&
		   !memcmp(r->syms[after].s, id, idn) && !r->syms[after].bad) {
		/* the id made after the last peer's: a switch's ports
		 * often name nodes in the order they were first named,
		 * and then no look-up */
		l.peer_sym = after;
		r->last_peer = id;
		r->last_peer_len = idn;
		r->last_peer_sym = after;
	} else {
		l.peer_sym = intern(r, id, idn, id);
		if (l.peer_sym == NO_SYM) {
			/* out of memory, reported: the line is dropped,
			 * as parse_port_line() drops it */
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			r->le = nl ? nl : end;
			return nl ? nl + 1 : end;
		}
		r->last_peer = id;
		r->last_peer_len = idn;
		r->last_peer_sym = l.peer_sym;
	}
	p++;
	l.peer_port = 1;
	l.col_peer_port = l.col_peer;
	if (p < end && *p == '[') {
		l.col_peer_port = (unsigned)(p - ls) + 2;
		p++;
		if (!fast_port(&p, end, &v) || v < 1 || v > IBP_MAX_PORTS ||
		    p >= end || *p != ']')
			return NULL;
		l.peer_port = (uint8_t)v;
		p++;
	}
	if (p < end && *p == '(') {
		p++;
		if (!fast_guid(&p, end, &l.peer_guid) || p >= end || *p != ')')
			return NULL;
		p++;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	const char *le = p, *next = end;
	if (p < end && *p == '#') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		le = nl ? nl : end;
		next = nl ? nl + 1 : end;
		if (le > p && le[-1] == '\r')
			le--;
		read_link_comment(p + 1, le, &l.link);
	} else if (p < end && *p == '\n') {
		next = p + 1;
	} else if (p < end && *p == '\r' && (p + 1 == end || p[1] == '\n')) {
		next = p + 1 < end ? p + 2 : end;
	} else if (p < end) {
		return NULL; /* link options, or text */
	}
	if (r->nl == r->cap_l) {
		struct plink *links =
		    grow(r->links, &r->cap_l, r->nl, sizeof(*links));
		if (!links)
			return NULL;
		r->links = links;
	}
	l.line = r->lineno;
	l.pnode = (uint32_t)node;
	r->links[r->nl++] = l;
	r->le = le;
	return next;
}

/* The next line, past the port lines of node's record that
 * fast_port_line() reads (node SIZE_MAX: none); as next_line(). */
static bool next_record_line(struct reader *r, size_t node, const char **pos,
			     const char *end)
{
	while (r->fast && node != SIZE_MAX && *pos < end && **pos == '[') {
		unsigned line = r->lineno;
		const char *q = fast_port_line(r, node, *pos, end);
		if (!q) {
			r->lineno = line; /* parse_port_line() reads it */
			break;
		}
		*pos = q;
	}
	return next_line(r, pos, end);
}

/* "switchguid=G(P)", "caguid=G", "hcaguids+N", "rtguid=G" */
static void parse_guidbase(struct reader *r, ibp_node_type type, size_t kwlen)
{
	const char *p = skip_ws(r->ls + kwlen, r->le), *e = r->le;
	if (p >= e || (*p != '=' && *p != '+')) {
		ERR(r, "syntax", p, "expected '=' or '+' after '%.*s'",
		    (int)kwlen, r->ls);
		return;
	}
	bool relative = *p == '+';
	p = skip_ws(p + 1, e);
	const char *vp = p;
	uint64_t v, pg;
	if (!read_num(&p, e, false, &v)) {
		ERR(r, "bad-guid", vp, "expected a GUID");
		return;
	}
	if (p < e && *p == '(') { /* ibnetdiscover: the port GUID */
		p++;
		if (!read_num(&p, e, true, &pg) || p >= e || *p != ')') {
			ERR(r, "bad-guid", p, "expected \"(port GUID)\"");
			return;
		}
		p++;
		if (type == IBP_NODE_SWITCH && pg != v)
			WARN(r, "guid-mismatch", vp,
			     "switch port GUID 0x%" PRIx64
			     " differs from its node GUID; ibsim and this "
			     "reader use the node GUID",
			     pg);
	}
	p = skip_ws(p, e);
	if (p < e && *p != '#')
		WARN(r, "ignored-text", p, "text after the GUID is ignored");
	if (relative) {
		if (!r->have_guid[type]) {
			r->abs_guid[type] = type == IBP_NODE_SWITCH
						? IBSIM_SWITCH_GUID_BASE
						: IBSIM_CA_GUID_BASE;
			r->have_guid[type] = type != IBP_NODE_ROUTER;
		}
		r->cur_guid[type] = r->abs_guid[type] + v;
		return;
	}
	if (!v) {
		ERR(r, "bad-guid", vp, "GUID 0 is invalid");
		return;
	}
	r->abs_guid[type] = r->cur_guid[type] = v;
	r->have_guid[type] = true;
}

/* "vendid=0x2c9", "devid=…", "sysimgguid=…", "width=…": '=' and a number */
static bool parse_assign(struct reader *r, size_t kwlen, uint64_t *v)
{
	const char *p = skip_ws(r->ls + kwlen, r->le), *e = r->le;
	if (p >= e || *p != '=') {
		ERR(r, "syntax", p, "expected '=' after '%.*s'", (int)kwlen,
		    r->ls);
		return false;
	}
	p = skip_ws(p + 1, e);
	const char *vp = p;
	if (!read_num(&p, e, false, v)) {
		ERR(r, "bad-number", vp, "expected a number");
		return false;
	}
	p = skip_ws(p, e);
	if (p < e && *p != '#')
		WARN(r, "ignored-text", p, "text after the value is ignored");
	return true;
}

static bool next_line(struct reader *r, const char **pos, const char *end)
{
	if (*pos >= end)
		return false;
	r->ls = *pos;
	const char *le = memchr(r->ls, '\n', (size_t)(end - r->ls));
	*pos = le ? le + 1 : end;
	r->le = le ? le : end;
	if (r->le > r->ls && r->le[-1] == '\r')
		r->le--;
	r->lineno++;
	return true;
}

/* The keyword at the start of a line: up to a blank, '=' or '"', and
 * never past the line's end (the buffer need not be NUL-terminated). */
static size_t word_len(const char *p, const char *e)
{
	size_t n = 0;
	while (p + n < e && !memchr(" \t=\"", p[n], 4))
		n++;
	return n;
}

static bool blank(const char *p, const char *e)
{
	return skip_ws(p, e) == e;
}

static void parse_text(struct reader *r, const char *text, size_t len)
{
	const char *pos = text, *end = text + len;
	/* room for the port lines at once (ibnetdiscover's are 40 to 90
	 * bytes): pages never touched cost nothing, and the array is not
	 * copied as it grows (grow() takes over when the guess is short) */
	size_t guess = len / 40 + 64;
	if ((r->links = malloc(guess * sizeof(*r->links)))) {
		r->cap_l = guess;
		ibp_huge_pages(r->links, guess * sizeof(*r->links));
	}
	bool have = next_line(r, &pos, end);
	size_t lines = 0;
	while (have) {
		if (++lines % 65536 == 0)
			ibp_progress_report(r->progress, "reading topology",
					    (uint64_t)(pos - text), len);
		const char *ls = r->ls, *le = r->le;
		struct pnode *pn = NULL;
		uint64_t v;
		if (starts(ls, le, "Switch")) {
			pn = parse_header(r, IBP_NODE_SWITCH, 6);
		} else if (starts(ls, le, "Hca")) {
			pn = parse_header(r, IBP_NODE_CA, 3);
		} else if (starts(ls, le, "Ca")) {
			pn = parse_header(r, IBP_NODE_CA, 2);
		} else if (starts(ls, le, "Rt")) {
			pn = parse_header(r, IBP_NODE_ROUTER, 2);
		} else if (starts(ls, le, "switchguid")) {
			parse_guidbase(r, IBP_NODE_SWITCH, 10);
		} else if (starts(ls, le, "hcaguids")) {
			parse_guidbase(r, IBP_NODE_CA, 8);
		} else if (starts(ls, le, "caguid")) {
			parse_guidbase(r, IBP_NODE_CA, 6);
		} else if (starts(ls, le, "rtguid")) {
			parse_guidbase(r, IBP_NODE_ROUTER, 6);
		} else if (starts(ls, le, "vendid")) {
			if (parse_assign(r, 6, &v))
				r->vendid = (uint32_t)v;
		} else if (starts(ls, le, "devid")) {
			if (parse_assign(r, 5, &v))
				r->devid = (uint32_t)v;
		} else if (starts(ls, le, "sysimgguid")) {
			if (parse_assign(r, 10, &v))
				r->sysimg_next = v;
		} else if (starts(ls, le, "width")) {
			parse_assign(r, 5, &v);
		} else if (starts(ls, le, "speed")) {
			parse_assign(r, 5, &v);
		} else if (starts(ls, le, "extspeed")) {
			parse_assign(r, 8, &v);
		} else if (starts(ls, le, "module") ||
			   starts(ls, le, "include") ||
			   starts(ls, le, "pdebug") || starts(ls, le, "do")) {
			ERR(r, "unsupported", ls,
			    "ibsim's '%.*s' extension is not supported",
			    (int)word_len(ls, le), ls);
		} else if (ls[0] == '[' || ls[0] == '@') {
			ERR(r, "syntax", ls,
			    "port line outside a node record (a blank line "
			    "ends a record)");
		} else if (starts(ls, le, "DR path ") ||
			   starts(ls, le, "Non-Chassis Nodes") ||
			   starts(ls, le, "Chassis ") ||
			   starts(ls, le, "Spine Nodes") ||
			   starts(ls, le, "Line Nodes")) {
			/* ibnetdiscover -s progress and -g grouping lines,
			 * which ibsim ignores too */
		} else if (starts(ls, le, "# Initiated from node ")) {
			/* ibnetdiscover names the port it ran from:
			 * "# Initiated from node <16 hex> port <16 hex>" */
			const char *q =
			    memmem(ls, (size_t)(le - ls), " port ", 6);
			uint64_t pg;
			if (q) {
				q += 6;
				if (read_num(&q, le, true, &pg) && pg)
					r->initiator_port = pg;
			}
		} else if (ls < le && ls[0] != '#' && !blank(ls, le)) {
			WARN(r, "ignored-line", ls,
			     "line ignored (not a topology keyword)");
		}
		have = next_record_line(
		    r, pn ? (size_t)(pn - r->nodes) : SIZE_MAX, &pos, end);
		if (!pn && !starts(ls, le, "Switch") &&
		    !starts(ls, le, "Hca") && !starts(ls, le, "Ca") &&
		    !starts(ls, le, "Rt"))
			continue;
		/* the record's port lines */
		size_t node = pn ? (size_t)(pn - r->nodes) : SIZE_MAX;
		while (have) {
			if (r->ls < r->le && r->ls[0] == '#') {
				have = next_record_line(r, node, &pos, end);
				continue;
			}
			if (r->ls == r->le ||
			    (r->ls[0] != '[' && r->ls[0] != '@'))
				break;
			if (r->ls[0] == '@')
				ERR(r, "unsupported", r->ls,
				    "ibsim's port aliases are not supported");
			else if (node != SIZE_MAX)
				parse_port_line(r, node);
			have = next_record_line(r, node, &pos, end);
		}
	}
}

/* ---- building the fabric ---- */

static void at_line(struct reader *r, unsigned line)
{
	/* findings after parsing point at a remembered line */
	r->lineno = line;
	r->ls = NULL;
}

__attribute__((format(printf, 6, 7))) static void
finding_at(struct reader *r, ibp_severity sev, const char *code, unsigned line,
	   unsigned col, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	ibp_diags_add(r->diags, sev, code, r->file, line, col, "%s",
		      msg ? msg : "out of memory");
	free(msg);
	if (sev == IBP_SEV_ERROR)
		r->errors++;
}

/* How many keys ahead build()'s loops fetch the hash slots they will
 * probe (the tables are megabytes: each probe is a cache miss, and
 * fetched ahead the misses overlap instead of following one another). */
#define AHEAD 16

/* The check of link i reads four places that are far apart (the peer's
 * symbol, its fabric node, its port's line and that line): each a cache
 * miss that needs the one before.  Fetched in stages, some links ahead
 * for each, so that link i finds them all in cache.  Inlined: a function
 * that only prefetches is "pure" to GCC, and its calls are dropped. */
static inline __attribute__((always_inline)) void
fetch_peer(const struct reader *r, const ibp_fabric *f, const size_t *line_of,
	   size_t i)
{
	if (i + 4 * AHEAD < r->nl)
		__builtin_prefetch(&r->syms[r->links[i + 4 * AHEAD].peer_sym]);
	if (i + 3 * AHEAD < r->nl) {
		uint32_t pn = r->syms[r->links[i + 3 * AHEAD].peer_sym].node;
		if (pn != TOPO_NONE)
			__builtin_prefetch(&f->nodes[pn]);
	}
	for (unsigned d = 1; d <= 2; d++) {
		if (i + d * AHEAD >= r->nl)
			break;
		const struct plink *l = &r->links[i + d * AHEAD];
		uint32_t pn = r->syms[l->peer_sym].node;
		if (pn == TOPO_NONE || l->peer_port > f->nodes[pn].nports)
			continue;
		size_t k = f->nodes[pn].port_base + l->peer_port;
		if (d == 2) {
			__builtin_prefetch(&line_of[k]);
			__builtin_prefetch(&f->ports[k], 1);
		} else if (line_of[k] != SIZE_MAX) {
			__builtin_prefetch(&r->links[line_of[k]].peer_sym);
		}
	}
}

static void build(struct reader *r, ibp_fabric *f, const ibp_node_name_map *map)
{
	at_line(r, 0);
	/* the line of each fabric node's header */
	unsigned *hdr = malloc((r->nn + 1) * sizeof(*hdr));
	if (!hdr) {
		finding_at(r, IBP_SEV_ERROR, "nomem", 0, 0, "out of memory");
		return;
	}
	/* every node and port slot at once (the count is an upper bound:
	 * nodes whose record fails are not added) */
	size_t slots = 0;
	for (size_t i = 0; i < r->nn; i++)
		slots += r->nodes[i].nports + 1;
	if (topo_reserve(f, r->nn, slots)) {
		finding_at(r, IBP_SEV_ERROR, "nomem", 0, 0, "out of memory");
		free(hdr);
		return;
	}
	/* nodes (the GUID look-up's slot fetched some nodes ahead: each is
	 * a cache miss) */
	for (size_t i = 0; i < r->nn; i++) {
		struct pnode *pn = &r->nodes[i];
		if (i + AHEAD < r->nn)
			topo_map64_prefetch(&f->by_node_guid,
					    r->nodes[i + AHEAD].guid);
		if (!pn->guid)
			continue; /* reported */
		const char *desc = pn->desc;
		const char *mapped = ibp_node_name_map_lookup(map, pn->guid);
		if (mapped)
			desc = mapped;
		uint32_t other = r->syms[pn->sym].node;
		if (other != TOPO_NONE) {
			finding_at(r, IBP_SEV_ERROR, "duplicate-node-id",
				   pn->line, pn->col_id,
				   "node id \"%s\" is used again (first on "
				   "line %u)",
				   pn->id, hdr[other]);
			continue;
		}
		other = topo_map64_get(&f->by_node_guid, pn->guid);
		if (other != TOPO_NONE) {
			finding_at(
			    r, IBP_SEV_ERROR, "duplicate-guid", pn->line, 1,
			    "node \"%s\" has node GUID 0x%016" PRIx64
			    ", already the GUID of \"%s\" (line %u)",
			    pn->id, pn->guid, f->nodes[other].id, hdr[other]);
			continue;
		}
		size_t n;
		if (topo_add_node_read(f, pn->type, pn->guid, pn->nports, desc,
				       pn->id, &n)) {
			finding_at(r, IBP_SEV_ERROR, "node", pn->line, 1,
				   "out of memory");
			continue;
		}
		pn->fabric_node = n;
		r->syms[pn->sym].node = (uint32_t)n;
		hdr[n] = pn->line;
		f->nodes[n].sysimg_guid = pn->sysimg;
		f->nodes[n].vendid = pn->vendid;
		f->nodes[n].devid = pn->devid;
		if (pn->type == IBP_NODE_SWITCH)
			ibp_fabric_set_port_link(f, n, 0, &pn->port0);
	}
	if (topo_index_names(f)) {
		finding_at(r, IBP_SEV_ERROR, "nomem", 0, 0, "out of memory");
		free(hdr);
		return;
	}
	/* index the port lines by fabric port */
	size_t *line_of = malloc((f->nports + 1) * sizeof(*line_of));
	ibp_huge_pages(line_of, (f->nports + 1) * sizeof(*line_of));
	if (!line_of) {
		finding_at(r, IBP_SEV_ERROR, "nomem", 0, 0, "out of memory");
		free(hdr);
		return;
	}
	for (size_t i = 0; i < f->nports; i++)
		line_of[i] = SIZE_MAX;
	for (size_t i = 0; i < r->nl; i++) {
		struct plink *l = &r->links[i];
		size_t n = r->nodes[l->pnode].fabric_node;
		if (n == SIZE_MAX)
			continue;
		size_t k = f->nodes[n].port_base + l->port;
		if (line_of[k] != SIZE_MAX) {
			finding_at(r, IBP_SEV_ERROR, "duplicate-port", l->line,
				   COL_PORT,
				   "port %u of \"%s\" is listed twice (also "
				   "line %u)",
				   l->port, f->nodes[n].id,
				   r->links[line_of[k]].line);
			continue;
		}
		line_of[k] = i;
		if (l->link.lid || l->link.width_active) {
			if (f->nodes[n].type == IBP_NODE_SWITCH)
				l->link.lid = l->link.lmc = 0;
			ibp_fabric_set_port_link(f, n, l->port, &l->link);
		}
		if (l->guid) {
			ibp_error err;
			if (f->nodes[n].type == IBP_NODE_SWITCH) {
				if (l->guid != f->nodes[n].guid)
					finding_at(
					    r, IBP_SEV_WARNING, "guid-mismatch",
					    l->line, l->col_guid,
					    "switch port GUID ignored: every "
					    "port of a switch has the node "
					    "GUID 0x%016" PRIx64,
					    f->nodes[n].guid);
			} else if (ibp_fabric_set_port_guid(f, n, l->port,
							    l->guid, &err)) {
				finding_at(r, IBP_SEV_ERROR, "bad-guid",
					   l->line, l->col_guid, "%s",
					   err.message);
			}
		}
	}
	/* links: both ends must list each other */
	for (size_t i = 0; i < r->nl; i++) {
		struct plink *l = &r->links[i];
		fetch_peer(r, f, line_of, i);
		size_t n = r->nodes[l->pnode].fabric_node;
		if (n == SIZE_MAX ||
		    line_of[f->nodes[n].port_base + l->port] != i)
			continue;
		uint32_t pn = r->syms[l->peer_sym].node;
		if (pn == TOPO_NONE) {
			/* a node whose record failed is not "unknown" */
			bool known = false;
			for (size_t j = 0; j < r->nn && !known; j++)
				known = r->nodes[j].fabric_node == SIZE_MAX &&
					r->nodes[j].sym == l->peer_sym;
			if (!known)
				finding_at(r, IBP_SEV_ERROR, "unknown-node",
					   l->line, l->col_peer,
					   "link to unknown node \"%s\"",
					   r->syms[l->peer_sym].s);
			continue;
		}
		if (l->peer_port > f->nodes[pn].nports) {
			finding_at(r, IBP_SEV_ERROR, "port-range", l->line,
				   l->col_peer_port,
				   "port %u is out of range: \"%s\" has ports "
				   "1..%u",
				   l->peer_port, f->nodes[pn].id,
				   f->nodes[pn].nports);
			continue;
		}
		size_t back = line_of[f->nodes[pn].port_base + l->peer_port];
		if (back == SIZE_MAX) {
			finding_at(r, IBP_SEV_ERROR, "peer-mismatch", l->line,
				   l->col_peer,
				   "\"%s\" port %u does not list the link back "
				   "to \"%s\" port %u",
				   f->nodes[pn].id, l->peer_port,
				   f->nodes[n].id, l->port);
			continue;
		}
		struct plink *b = &r->links[back];
		if (b->peer_sym != r->nodes[l->pnode].sym ||
		    b->peer_port != l->port) {
			/* report once per pair: at the later line */
			finding_at(r, IBP_SEV_ERROR, "peer-mismatch", l->line,
				   l->col_peer,
				   "\"%s\" port %u says it is linked to \"%s\" "
				   "port %u (line %u), not to \"%s\" port %u",
				   f->nodes[pn].id, l->peer_port,
				   r->syms[b->peer_sym].s, b->peer_port,
				   b->line, f->nodes[n].id, l->port);
			continue;
		}
		if (pn < n || (pn == n && l->peer_port < l->port))
			continue; /* linked from the other end */
		ibp_error err;
		if (ibp_fabric_link(f, n, l->port, pn, l->peer_port, &err))
			finding_at(r, IBP_SEV_ERROR, "link", l->line, COL_PORT,
				   "%s", err.message);
	}
	/* "(guid)" after a peer must be the peer's port GUID */
	for (size_t i = 0; i < r->nl; i++) {
		struct plink *l = &r->links[i];
		size_t n = r->nodes[l->pnode].fabric_node;
		size_t pn;
		unsigned pp;
		if (n == SIZE_MAX || !l->peer_guid ||
		    !ibp_fabric_port_peer(f, n, l->port, &pn, &pp) ||
		    topo_port_at(f, n, l->port)->peer_node == TOPO_NONE)
			continue;
		uint64_t g = ibp_fabric_port_guid(f, pn, pp);
		if (g != l->peer_guid)
			finding_at(r, IBP_SEV_WARNING, "guid-mismatch", l->line,
				   l->col_peer,
				   "peer port GUID 0x%" PRIx64
				   " differs from 0x%" PRIx64
				   ", the port GUID of \"%s\" port %u",
				   l->peer_guid, g, f->nodes[pn].id, pp);
	}
	/* port GUIDs must be unique among end ports: the fabric's index of
	 * them (topo_port_index) built on the way, the first port of a GUID
	 * kept as there */
	struct topo_map64 *seen = &f->by_port_guid;
	size_t ends = 0;
	bool dups = false;
	topo_map64_free(seen);
	for (size_t n = 0; n < f->nnodes; n++)
		ends += f->nodes[n].type == IBP_NODE_SWITCH
			    ? 1
			    : f->nodes[n].nports;
	if (topo_map64_reserve(seen, ends)) {
		finding_at(r, IBP_SEV_ERROR, "nomem", 0, 0, "out of memory");
		goto out;
	}
	/* the end ports' GUIDs first, in order, so that each slot can be
	 * fetched before it is probed */
	uint64_t *eg = malloc((ends + 1) * sizeof(*eg));
	if (!eg) {
		finding_at(r, IBP_SEV_ERROR, "nomem", 0, 0, "out of memory");
		goto out;
	}
	size_t ne = 0;
	for (size_t n = 0; n < f->nnodes; n++) {
		const struct topo_node *nd = &f->nodes[n];
		unsigned first = nd->type == IBP_NODE_SWITCH ? 0 : 1;
		unsigned last = nd->type == IBP_NODE_SWITCH ? 0 : nd->nports;
		for (unsigned p = first; p <= last; p++)
			eg[ne++] = ibp_fabric_port_guid(f, n, p);
	}
	ne = 0;
	for (size_t n = 0; n < f->nnodes; n++) {
		const struct topo_node *nd = &f->nodes[n];
		unsigned first = nd->type == IBP_NODE_SWITCH ? 0 : 1;
		unsigned last = nd->type == IBP_NODE_SWITCH ? 0 : nd->nports;
		for (unsigned p = first; p <= last; p++) {
			uint64_t g = eg[ne++];
			if (ne + AHEAD <= ends)
				topo_map64_prefetch(seen, eg[ne + AHEAD - 1]);
			uint32_t old;
			int rc =
			    topo_map64_put(seen, g, topo_port_key(n, p), &old);
			if (rc < 0) {
				finding_at(r, IBP_SEV_ERROR, "nomem", 0, 0,
					   "out of memory");
				free(eg);
				goto out;
			}
			if (rc == 0)
				continue;
			dups = true;
			size_t k = f->nodes[n].port_base + p;
			unsigned line = line_of[k] != SIZE_MAX
					    ? r->links[line_of[k]].line
					    : 0;
			unsigned col = line_of[k] != SIZE_MAX
					   ? r->links[line_of[k]].col_guid
					   : 0;
			if (!line) {
				line = hdr[n];
				col = 1;
			}
			finding_at(
			    r, IBP_SEV_ERROR, "duplicate-guid", line, col,
			    "port GUID 0x%016" PRIx64 " of \"%s\" port "
			    "%u is also the GUID of \"%s\" port %u",
			    g, nd->id, p, f->nodes[old >> 8].id, old & 0xff);
		}
	}
	free(eg);
	f->port_guid_dups = dups;
	f->port_index_dirty = false;
out:
	free(line_of);
	free(hdr);
}

static void reader_free(struct reader *r)
{
	while (r->strs) {
		struct str_block *b = r->strs;
		r->strs = b->next;
		free(b);
	}
	free(r->nodes);
	free(r->links);
	free(r->syms);
	free(r->itab);
}

static int load_buffer(const char *name, const char *text, size_t len,
		       const ibp_fabric_options *o, ibp_fabric **out,
		       ibp_diags *diags, bool fast)
{
	*out = NULL;
	if (!name)
		name = "<topology>";
	ibp_fabric_options own;
	ibp_error e;
	if (topo_fabric_options_take(&own, o, &e)) {
		ibp_diags_add(diags, IBP_SEV_ERROR, "bad-options", name, 0, 0,
			      "%s", e.message);
		return IBP_EINVAL;
	}
	o = &own;
	ibp_node_name_map *map = NULL;
	if (o->node_name_map) {
		int rc = ibp_node_name_map_load_limit(
		    o->node_name_map, o->max_input_size, &map, diags);
		if (rc)
			return rc == IBP_EIO || rc == IBP_ERANGE ? rc
								 : IBP_EPARSE;
	}
	ibp_diags_set_source(diags, name, text, len);
	struct reader r;
	memset(&r, 0, sizeof(r));
	r.fast = fast;
	r.file = name;
	r.diags = diags;
	r.progress = o->progress;
	ibp_progress_report(r.progress, "reading topology", 0, len);
	parse_text(&r, text, len);
	ibp_fabric *f = ibp_fabric_new(o);
	if (!f) {
		reader_free(&r);
		ibp_node_name_map_free(map);
		return IBP_ENOMEM;
	}
	build(&r, f, map);
	f->opts.progress = NULL; /* borrowed for the load only */
	ibp_progress_report(r.progress, "reading topology", len, len);
	f->initiator_port_guid = r.initiator_port;
	if (!r.errors && f->nnodes == 0) {
		ibp_diags_add(diags, IBP_SEV_ERROR, "empty", name, 0, 0,
			      "the topology has no nodes");
		r.errors++;
	}
	unsigned errors = r.errors;
	reader_free(&r);
	ibp_node_name_map_free(map);
	if (errors) {
		ibp_fabric_free(f);
		return IBP_EPARSE;
	}
	*out = f;
	return IBP_OK;
}

int ibp_fabric_load_buffer(const char *name, const char *text, size_t len,
			   const ibp_fabric_options *o, ibp_fabric **out,
			   ibp_diags *diags)
{
	return load_buffer(name, text, len, o, out, diags, true);
}

int topo_load_buffer_general(const char *name, const char *text, size_t len,
			     const ibp_fabric_options *o, ibp_fabric **out,
			     ibp_diags *diags)
{
	return load_buffer(name, text, len, o, out, diags, false);
}

int ibp_fabric_load(const char *path, const ibp_fabric_options *o,
		    ibp_fabric **out, ibp_diags *diags)
{
	*out = NULL;
	if (!path)
		return IBP_EINVAL;
	ibp_error e;
	ibp_error_clear(&e);
	ibp_fabric_options own;
	if (topo_fabric_options_take(&own, o, &e)) {
		ibp_diags_add(diags, IBP_SEV_ERROR, "bad-options", path, 0, 0,
			      "%s", e.message);
		return IBP_EINVAL;
	}
	o = &own;
	struct ibp_file_text t;
	int rrc = ibp_file_map(path, o ? o->max_input_size : 0, &t, &e);
	if (rrc == IBP_ERANGE) {
		ibp_diags_add(diags, IBP_SEV_ERROR, "too-large", path, 0, 0,
			      "cannot read topology: %s", e.message);
		return IBP_ERANGE;
	}
	if (rrc) {
		ibp_diags_add(diags, IBP_SEV_ERROR, "io", path, 0, 0,
			      "cannot read topology: %s", strerror(errno));
		return IBP_EIO;
	}
	/* the text becomes the source diags quote (no copy of the file) */
	int kept = diags_adopt_source(diags, path, &t);
	if (kept < 0) {
		ibp_file_text_free(&t);
		return IBP_ENOMEM;
	}
	int rc = ibp_fabric_load_buffer(path, t.text, t.len, o, out, diags);
	if (kept)
		ibp_file_text_free(&t);
	return rc;
}
