/*
 * conf_parser.c - partitions.conf read exactly as OpenSM 3.3.23 reads it
 * (osm_prtn_config.c), building the policy AST and, at each place where
 * OpenSM decides something, reporting what a careful reader would want
 * to know: constructs OpenSM rejects (the whole file falls back to
 * "Default=0x7fff : ALL=full ;") and constructs it accepts with another
 * meaning than the author's (silent misreadings).
 *
 * OpenSM's reader works in place on a line buffer: ';' ends a statement
 * (and is replaced by NUL), a statement's header runs to the first ':',
 * items are split at ',' and "name=value" at the first '='; lengths are
 * added up to find where to continue, and in a few cases (an mgid item
 * that ends a statement) that arithmetic runs past the end of the line.
 * This file follows the same steps on the same kind of buffer so that
 * every such corner comes out as OpenSM has it.  Whitespace is only
 * ' ', '\t' and '\n' (a '\r' of a CRLF file is part of the word).
 *
 * After OpenSM would have given up, reading continues (skipping the bad
 * statement or item) so that every problem is reported, not just the
 * first.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf_internal.h"
#include "conf/conf_lexer.h"
#include "util/file_read.h"
#include "conf/conf_lib.h"

#define CONF_RELEASE_STEP ((size_t)8 << 20)

/* The state OpenSM keeps for the statement being read (struct part_conf). */
struct stmt {
	bool active;			 /* a statement has begun */
	struct ibp_conf_partition *part; /* its header has been read */
	bool skipping;			 /* after a rejected header */
	ibp_conf_flags flags;		 /* defmember and indx0 included */
};

struct rd {
	ibp_conf *c;
	struct conf_lexer lx;
	struct stmt st;
	bool any_success; /* OpenSM's is_parse_success == 1 */
	bool stale_reported;
	char *seg_end; /* the NUL ending the current segment */
	bool seg_semi; /* ... which was a ';' */
	unsigned last_line;
};

static ibp_conf_pos pos_of(struct rd *r, const char *p)
{
	return conf_lex_pos(&r->lx, p);
}

static void reject(struct rd *r, const char *p, const char *reason)
{
	conf_reject(r->c, pos_of(r, p), r->lx.osm_line, reason);
}

static const char rejects_text[] =
    "; OpenSM 3.3.23 rejects the whole file and falls back to "
    "\"Default=0x7fff : ALL=full ;\" (every port a full member of 0xffff)";

static bool has_ws(const char *s)
{
	for (; *s; s++)
		if (isspace((unsigned char)*s))
			return true;
	return false;
}

/* s, shortened, control characters as '?' */
static const char *printable(const char *s, char *buf, size_t n)
{
	size_t i = 0;
	for (; s[i] && i + 1 < n; i++)
		buf[i] = (unsigned char)s[i] < ' ' ? '?' : s[i];
	buf[i] = 0;
	return buf;
}

static bool ends_cr(const char *s)
{
	size_t n = strlen(s);
	return n && s[n - 1] == '\r';
}

/* ---- flags ---- */
enum flag_id {
	F_MTU,
	F_RATE,
	F_SCOPE,
	F_QKEY,
	F_TCLASS,
	F_SL,
	F_FLOW,
	F_IPOIB,
	F_DEFMEMBER,
	F_INDX0,
	F_UNKNOWN
};

static const char *const flag_names[] = {
    "mtu", "rate",	"scope", "Q_Key",     "TClass",
    "sl",  "FlowLabel", "ipoib", "defmember", "indx0"};

/* OpenSM's order of prefix tests; indx0 must be exact. */
static enum flag_id classify_flag(const char *flag, bool partition)
{
	for (int i = F_MTU; i <= F_FLOW; i++)
		if (conf_prefix_of(flag, flag_names[i]))
			return (enum flag_id)i;
	if (!partition)
		return F_UNKNOWN;
	if (conf_prefix_of(flag, "ipoib"))
		return F_IPOIB;
	if (conf_prefix_of(flag, "defmember"))
		return F_DEFMEMBER;
	if (!strcmp(flag, "indx0"))
		return F_INDX0;
	return F_UNKNOWN;
}

/* OpenSM's verify_val(): strtoul, a warning (only) on trailing text. */
static unsigned long num_val(struct rd *r, const char *flag, const char *val,
			     bool *junk)
{
	(void)r;
	(void)flag;
	char *end;
	unsigned long v = strtoul(val, &end, 0);
	*junk = *end != 0;
	return v;
}

static void diag_junk(struct rd *r, const char *flag, const char *val)
{
	ibp_conf_pos pos = pos_of(r, val);
	const char *sp = val;
	while (*sp && !isspace((unsigned char)*sp))
		sp++;
	if (*sp && (strchr(sp, '=') || isalpha((unsigned char)sp[1])))
		conf_diag(r->c, IBP_SEV_ERROR, "missing-comma", pos, true,
			  "missing comma? OpenSM reads '%s' as the value of "
			  "'%s' (it takes the leading number and ignores "
			  "the rest)",
			  val, flag);
	else
		conf_diag(r->c, IBP_SEV_ERROR, "bad-value", pos, true,
			  "'%s=%s' is not a number; OpenSM takes the leading "
			  "digits, if any, and ignores the rest",
			  flag, val);
}

static void check_rate(struct rd *r, const char *val, unsigned v, bool junk)
{
	ibp_conf_pos pos = pos_of(r, val);
	unsigned code = ibp_conf_rate_code(val);
	if (code) {
		conf_diag(r->c, IBP_SEV_ERROR, "rate-name", pos, true,
			  "OpenSM takes IBTA rate codes, not names: it reads "
			  "rate=%s as rate=0 and ignores it; write rate=%u",
			  val, code);
		return;
	}
	if (junk) {
		diag_junk(r, "rate", val);
		return;
	}
	if (v < 2 || v > 23)
		conf_diag(r->c, IBP_SEV_ERROR, "rate-range", pos, true,
			  "rate=%s is not an IBTA rate code (2..22; 3 = 10, 7 "
			  "= 40, 12 = 56, 16 = 100, 17 = 200, 21 = 400 Gb/s)",
			  val);
	else if (v == 23)
		conf_diag(r->c, IBP_SEV_WARNING, "rate-range", pos, false,
			  "rate=23 (800 Gb/s, 4x XDR) is newer than OpenSM "
			  "3.3.23, which knows rates up to 22 (600 Gb/s)");
}

static void check_mtu(struct rd *r, const char *val, unsigned v, bool junk)
{
	ibp_conf_pos pos = pos_of(r, val);
	if (junk) {
		diag_junk(r, "mtu", val);
		return;
	}
	if (v >= 1 && v <= 5)
		return;
	unsigned code = ibp_conf_mtu_code(v);
	if (code)
		conf_diag(r->c, IBP_SEV_ERROR, "mtu-range", pos, true,
			  "OpenSM takes IBTA MTU codes, not sizes: mtu=%s is "
			  "read as %u (a byte in the group record); %s bytes "
			  "is mtu=%u",
			  val, v & 0xff, val, code);
	else
		conf_diag(r->c, IBP_SEV_ERROR, "mtu-range", pos, true,
			  "mtu=%s is not an IBTA MTU code (1 = 256, 2 = 512, "
			  "3 = 1024, 4 = 2048, 5 = 4096 bytes)",
			  val);
}

/* Apply one "flag[=val]" as OpenSM does (parse_group_flag, then for a
 * partition header partition_add_flag); report on it. */
static void apply_flag(struct rd *r, ibp_conf_flags *f, char *flag, char *val,
		       bool partition)
{
	ibp_conf *c = r->c;
	ibp_conf_pos pos = pos_of(r, flag);
	const char *what = partition ? "partition" : "mgid";
	if (!*flag && !val)
		return; /* a trailing comma: OpenSM skips it too */
	if (!*flag) {
		conf_diag(c, IBP_SEV_ERROR, "empty-flag", pos, true,
			  "a %s flag with no name before '='; OpenSM reads "
			  "it as 'mtu'",
			  what);
	}
	enum flag_id id = classify_flag(flag, partition);
	if (id == F_UNKNOWN) {
		if (has_ws(flag))
			conf_diag(c, IBP_SEV_ERROR, "missing-comma", pos, true,
				  "missing comma? OpenSM reads '%s' as one "
				  "%s flag, does not know it and ignores it",
				  flag, what);
		else
			conf_diag(c, IBP_SEV_ERROR, "unknown-flag", pos, true,
				  "unknown %s flag '%s'; OpenSM ignores it%s",
				  what, flag,
				  partition ? ""
					    : " (an item after an mgid is "
					      "read as a flag of the group)");
		return;
	}
	if (*flag && strcmp(flag, flag_names[id])) {
		bool ambiguous = false;
		for (int i = F_MTU; i <= F_INDX0; i++)
			if (i != (int)id && conf_prefix_of(flag, flag_names[i]))
				ambiguous = true;
		conf_diag(c, ambiguous ? IBP_SEV_WARNING : IBP_SEV_NOTE,
			  "abbreviation", pos, false,
			  "OpenSM reads the flag '%s' as '%s'%s", flag,
			  flag_names[id],
			  ambiguous ? " (it abbreviates other flags too)" : "");
	}
	if (!val && id != F_IPOIB && id != F_INDX0) {
		conf_diag(c, IBP_SEV_ERROR, "missing-value", pos, true,
			  "flag '%s' needs a value; OpenSM ignores it",
			  flag_names[id]);
		return;
	}
	bool junk = false;
	unsigned long v;
	char *end;
	switch (id) {
	case F_MTU:
		f->mtu = (unsigned)num_val(r, flag, val, &junk);
		f->has_mtu = true;
		check_mtu(r, val, f->mtu, junk);
		break;
	case F_RATE:
		f->rate = (unsigned)num_val(r, flag, val, &junk);
		f->has_rate = true;
		check_rate(r, val, f->rate, junk);
		break;
	case F_SCOPE: {
		unsigned s = (unsigned)num_val(r, flag, val, &junk);
		if (junk)
			diag_junk(r, "scope", val);
		if (s == 0 || s > 15)
			conf_diag(c, IBP_SEV_ERROR, "scope-range",
				  pos_of(r, val), true,
				  "scope=%s is not a multicast scope (1..15, 2 "
				  "= link-local, 5 = site-local, 8 = "
				  "organization, 14 = global); OpenSM ignores "
				  "it",
				  val);
		else
			f->scope_mask |= (uint16_t)(1u << s);
		break;
	}
	case F_QKEY:
		f->qkey = (uint32_t)num_val(r, flag, val, &junk);
		f->has_qkey = true;
		if (junk)
			diag_junk(r, "Q_Key", val);
		else if (!f->qkey)
			conf_diag(c, IBP_SEV_WARNING, "bad-value",
				  pos_of(r, val), false,
				  "Q_Key=0: OpenSM uses its default");
		break;
	case F_TCLASS:
		v = num_val(r, flag, val, &junk);
		f->tclass = (uint8_t)v;
		f->has_tclass = true;
		if (junk)
			diag_junk(r, "TClass", val);
		else if (v > 255)
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos_of(r, val),
				  true,
				  "TClass=%s does not fit in 8 bits; OpenSM "
				  "keeps 0x%02x",
				  val, (unsigned)(v & 0xff));
		break;
	case F_SL:
		v = *val ? strtoul(val, &end, 0) : 0;
		if (!*val || (unsigned)v > 15 ||
		    (*end && !isspace((unsigned char)*end))) {
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos_of(r, val),
				  true,
				  "sl=%s is not a service level (0..15); "
				  "OpenSM ignores it",
				  val);
		} else {
			f->sl = (unsigned)v;
			f->has_sl = true;
		}
		break;
	case F_FLOW:
		v = *val ? strtoul(val, &end, 0) : 0;
		if (!*val || (uint32_t)v > 0xfffff ||
		    (*end && !isspace((unsigned char)*end))) {
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos_of(r, val),
				  true,
				  "FlowLabel=%s is not a 20-bit flow label; "
				  "OpenSM ignores it",
				  val);
		} else {
			f->flow_label = (uint32_t)v;
			f->has_flow_label = true;
		}
		break;
	case F_IPOIB:
		f->ipoib = true;
		if (val)
			conf_diag(c, IBP_SEV_WARNING, "bad-value",
				  pos_of(r, val), false,
				  "ipoib takes no value; OpenSM ignores '%s'",
				  val);
		break;
	case F_DEFMEMBER:
		if (conf_prefix_of(val, "full")) {
			f->defmember = IBP_MEMB_FULL;
		} else if (conf_prefix_of(val, "both")) {
			f->defmember = IBP_MEMB_BOTH;
		} else if (conf_prefix_of(val, "limited")) {
			f->defmember = IBP_MEMB_LIMITED;
		} else {
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos_of(r, val),
				  true,
				  "defmember=%s: OpenSM knows full, limited "
				  "and both; it ignores this and members "
				  "without a word stay limited",
				  val);
			break;
		}
		f->has_defmember = true;
		if (!*val)
			conf_diag(c, IBP_SEV_ERROR, "empty-membership",
				  pos_of(r, val), true,
				  "empty defmember= is read by OpenSM as full");
		break;
	case F_INDX0:
		f->indx0 = true;
		if (val)
			conf_diag(c, IBP_SEV_WARNING, "bad-value",
				  pos_of(r, val), false,
				  "indx0 takes no value; OpenSM ignores '%s'",
				  val);
		break;
	default:
		break;
	}
}

/* ---- header ---- */
static int create_partition(struct rd *r, char *name, char *id)
{
	ibp_conf *c = r->c;
	struct stmt *st = &r->st;
	char *name_p = name;
	if (!id && isdigit((unsigned char)*name)) {
		id = name;
		name = NULL;
	}
	uint16_t pkey = 0;
	unsigned long v = 0;
	if (id) {
		char *end;
		v = strtoul(id, &end, 0);
		if (end == id || *end) {
			conf_diag(c, IBP_SEV_ERROR, "bad-pkey", pos_of(r, id),
				  false, "'%s' is not a P_Key%s%s", id,
				  name ? ""
				       : " (a name may not begin with a "
					 "digit)",
				  rejects_text);
			reject(r, id, "bad partition definition");
			return -1;
		}
		pkey = (uint16_t)v;
	}
	struct ibp_conf_partition *p = conf_add_partition(c);
	if (!p)
		return IBP_ENOMEM;
	p->name = name ? conf_arena_strdup(&c->arena, name) : "";
	p->has_pkey = id != NULL;
	p->pkey_written = pkey;
	p->flags = st->flags;
	p->pos = pos_of(r, name_p);
	if (!p->name)
		return IBP_ENOMEM;
	if (id) {
		ibp_conf_pos ip = pos_of(r, id);
		if (v > 0xffff)
			conf_diag(c, IBP_SEV_ERROR, "pkey-range", ip, true,
				  "P_Key %s does not fit in 16 bits; OpenSM "
				  "keeps 0x%04x",
				  id, pkey);
		else if (!(pkey & 0x7fff))
			conf_diag(c, IBP_SEV_WARNING, "pkey-zero", ip, false,
				  "P_Key %s is not a partition number; OpenSM "
				  "reads it as 'no P_Key' and picks one itself",
				  id);
		else if (pkey & 0x8000)
			conf_diag(c, IBP_SEV_WARNING, "pkey-high-bit", ip,
				  false,
				  "OpenSM ignores the membership bit of a "
				  "P_Key here: %s is partition 0x%04x; "
				  "membership comes from =full / =limited",
				  id, pkey & 0x7fff);
	}
	int g = conf_assign_pkey(c, p, name, id != NULL, pkey);
	if (g == IBP_ENOMEM)
		return IBP_ENOMEM;
	if (g < 0) {
		conf_diag(c, IBP_SEV_ERROR, "pkey-exhausted", p->pos, false,
			  "OpenSM has no P_Key left to give this partition%s",
			  rejects_text);
		reject(r, name_p, "bad partition definition");
		return -1;
	}
	if (!c->opts.qos && p->flags.has_sl && p->flags.sl)
		conf_diag(c, IBP_SEV_WARNING, "sl-without-qos", p->pos, false,
			  "OpenSM ignores sl=%u while QoS is off (its "
			  "default) and uses SL 0",
			  p->flags.sl);
	st->part = p;
	return 0;
}

/* ---- members ---- */
static ibp_member_kind keyword(const char *name)
{
	if (conf_prefix_of(name, "ALL"))
		return IBP_MEMBER_ALL;
	if (conf_prefix_of(name, "ALL_CAS"))
		return IBP_MEMBER_ALL_CAS;
	if (conf_prefix_of(name, "ALL_SWITCHES"))
		return IBP_MEMBER_ALL_SWITCHES;
	if (conf_prefix_of(name, "ALL_ROUTERS"))
		return IBP_MEMBER_ALL_ROUTERS;
	if (conf_prefix_of(name, "SELF"))
		return IBP_MEMBER_SELF;
	return IBP_MEMBER_GUID;
}

static ibp_membership read_word(struct rd *r, const char *name,
				const char *flag, ibp_membership dflt)
{
	ibp_conf *c = r->c;
	if (!strcmp(flag, "full"))
		return IBP_MEMB_FULL;
	if (!strcmp(flag, "limited"))
		return IBP_MEMB_LIMITED;
	ibp_conf_pos pos = pos_of(r, flag);
	if (conf_prefix_of(flag, "full")) {
		if (!*flag)
			conf_diag(c, IBP_SEV_ERROR, "empty-membership", pos,
				  true,
				  "nothing after '=': OpenSM reads an empty "
				  "membership word as full");
		else if (strcmp(flag, "full"))
			conf_diag(c, IBP_SEV_NOTE, "abbreviation", pos, false,
				  "OpenSM reads '%s' as full", flag);
		return IBP_MEMB_FULL;
	}
	if (conf_prefix_of(flag, "both")) {
		if (strcmp(flag, "both"))
			conf_diag(c, IBP_SEV_NOTE, "abbreviation", pos, false,
				  "OpenSM reads '%s' as both", flag);
		if (!c->opts.allow_both_pkeys)
			conf_diag(c, IBP_SEV_WARNING, "both-without-allow", pos,
				  true,
				  "'both' without allow_both_pkeys (off by "
				  "default) gives %s a full entry only",
				  name);
		return IBP_MEMB_BOTH;
	}
	if (conf_prefix_of(flag, "limited")) {
		if (strcmp(flag, "limited"))
			conf_diag(c, IBP_SEV_NOTE, "abbreviation", pos, false,
				  "OpenSM reads '%s' as limited", flag);
		return IBP_MEMB_LIMITED;
	}
	(void)dflt;
	if (ends_cr(flag))
		conf_diag(c, IBP_SEV_ERROR, "carriage-return", pos, true,
			  "the word '%.*s' ends with a carriage return (a "
			  "CRLF file): OpenSM does not know it and makes %s "
			  "a limited member",
			  (int)strlen(flag) - 1, flag, name);
	else if (strchr(flag, ':'))
		conf_diag(c, IBP_SEV_ERROR, "missing-semicolon",
			  pos_of(r, name), true,
			  "missing ';' before this? OpenSM reads '%s=%s' as a "
			  "member %s of the partition above, with the unknown "
			  "membership word '%s' (limited), not as a new "
			  "partition",
			  name, flag, name, flag);
	else if (has_ws(flag)) {
		const char *rest = flag;
		while (*rest && !isspace((unsigned char)*rest))
			rest++;
		while (isspace((unsigned char)*rest))
			rest++;
		conf_diag(c, IBP_SEV_ERROR, "missing-comma", pos, true,
			  "missing comma: OpenSM reads the membership of %s as "
			  "the word '%s', which it does not know, so %s is a "
			  "limited member and '%s' is ignored",
			  name, flag, name, rest);
	} else
		conf_diag(c, IBP_SEV_ERROR, "unknown-membership", pos, true,
			  "unknown membership '%s' (full, limited or both); "
			  "OpenSM makes %s a limited member",
			  flag, name);
	return IBP_MEMB_LIMITED;
}

/* partition_add_port(); 0, or -1 when OpenSM rejects the GUID */
static int add_member(struct rd *r, char *name, char *flag)
{
	ibp_conf *c = r->c;
	struct stmt *st = &r->st;
	if (!*name)
		return 0;
	ibp_conf_pos pos = pos_of(r, name);
	ibp_member_kind kind;
	if (*name >= '0' && *name <= '9')
		kind = IBP_MEMBER_GUID; /* no keyword starts with a digit */
	else if (conf_prefix_of(name, "NONE"))
		kind = IBP_MEMBER_NONE;
	else
		kind = keyword(name);
	ibp_membership written = IBP_MEMB_UNSPECIFIED,
		       eff = st->flags.defmember;
	uint64_t guid = 0;
	if (kind == IBP_MEMBER_NONE) {
		/* OpenSM returns before even looking at the word */
		if (flag)
			written = IBP_MEMB_LIMITED;
	} else if (flag) {
		written = read_word(r, name, flag, eff);
		eff = written;
	}
	if (kind == IBP_MEMBER_GUID) {
		char *end;
		guid = strtoull(name, &end, 0);
		if (!guid || *end) {
			const char *hint = "";
			if (has_ws(name))
				hint = " (a missing comma?)";
			else if (!strcasecmp(name, "all") ||
				 !strcasecmp(name, "self") ||
				 !strcasecmp(name, "none") ||
				 !strncasecmp(name, "all_", 4))
				hint = " (keywords are upper case)";
			else if (ends_cr(name))
				hint = " (a carriage return: CRLF file?)";
			conf_diag(c, IBP_SEV_ERROR, "bad-guid", pos, false,
				  "'%s' is not a port GUID or keyword%s%s",
				  name, hint, rejects_text);
			reject(r, name, "bad PortGUID");
			return -1;
		}
		if (*name == '-')
			conf_diag(c, IBP_SEV_WARNING, "bad-guid", pos, false,
				  "negative GUID '%s': OpenSM reads it as "
				  "0x%016llx",
				  name, (unsigned long long)guid);
	} else {
		static const char *const full_kw[] = {
		    [IBP_MEMBER_ALL] = "ALL",
		    [IBP_MEMBER_ALL_CAS] = "ALL_CAS",
		    [IBP_MEMBER_ALL_SWITCHES] = "ALL_SWITCHES",
		    [IBP_MEMBER_ALL_ROUTERS] = "ALL_ROUTERS",
		    [IBP_MEMBER_SELF] = "SELF",
		    [IBP_MEMBER_NONE] = "NONE"};
		if (strcmp(name, full_kw[kind]))
			conf_diag(c,
				  !strcmp(name, "ALL_") ? IBP_SEV_WARNING
							: IBP_SEV_NOTE,
				  "abbreviation", pos, false,
				  "OpenSM reads '%s' as %s", name,
				  full_kw[kind]);
	}
	ibp_conf_member *m = conf_add_member(c, st->part);
	if (!m)
		return IBP_ENOMEM;
	m->kind = kind;
	m->guid = guid;
	m->text = conf_arena_strdup(&c->arena, name);
	m->written = written;
	m->written_word = !flag			     ? NULL
			  : !strcmp(flag, "full")    ? "full"
			  : !strcmp(flag, "limited") ? "limited"
			  : !strcmp(flag, "both")
			      ? "both"
			      : conf_arena_strdup(&c->arena, flag);
	m->membership = kind == IBP_MEMBER_NONE ? IBP_MEMB_NONE : eff;
	m->indx0 = st->flags.indx0;
	m->pos = pos;
	if (!m->text || (flag && !m->written_word))
		return IBP_ENOMEM;
	return 0;
}

/* ---- mgid ---- */
static bool mgid_is_ip(const uint8_t *g)
{
	return (g[2] == 0x40 || g[2] == 0x60) && g[3] == 0x1b;
}

/* mgroup_create(): p is where OpenSM starts reading the group's flags. */
static size_t add_mgid(struct rd *r, char *name, char *p, char *text)
{
	ibp_conf *c = r->c;
	struct stmt *st = &r->st;
	ibp_conf_pos pos = pos_of(r, name);
	if (!text) {
		conf_diag(c, IBP_SEV_ERROR, "mgid-no-value", pos, false,
			  "'mgid' without '=': OpenSM 3.3.23 passes a NULL "
			  "address to inet_pton and crashes (segmentation "
			  "fault) before it programs any port");
		reject(r, name, "mgid without a value (OpenSM crashes)");
		c->verdict.crashes = true;
		return 0;
	}
	uint8_t raw[16];
	if (inet_pton(AF_INET6, text, raw) != 1 || raw[0] != 0xff) {
		conf_diag(c, IBP_SEV_ERROR, "mgid-bad", pos_of(r, text), true,
			  "'%s' is not a multicast GID (ff..:...); OpenSM "
			  "skips the group, and reads what follows it in "
			  "this statement as a new statement",
			  text);
		return 0;
	}
	ibp_conf_flags f = st->flags;
	f.tclass = 0; /* OpenSM does not inherit TClass */
	f.has_tclass = false;
	f.ipoib = false;
	f.indx0 = false;
	f.has_defmember = false;
	size_t len = 0;
	char *q;
	bool overrun = p > r->seg_end;
	if (overrun && r->seg_semi)
		conf_diag(c, IBP_SEV_WARNING, "mgid-last", pos, false,
			  "an mgid item that ends a statement makes OpenSM "
			  "3.3.23 read on past the ';' (the rest of the line, "
			  "then bytes left from earlier lines) as flags of "
			  "the group and as new statements; put the mgid "
			  "items before the members");
	do {
		char *flag, *val;
		q = strchr(p, ',');
		if (q)
			*q++ = 0;
		size_t ret = conf_lex_name_token(p, &flag, &val);
		if (!overrun) {
			apply_flag(r, &f, flag, val, false);
		} else if (*flag && val &&
			   classify_flag(flag, false) != F_UNKNOWN) {
			conf_diag(
			    c, IBP_SEV_WARNING, "mgid-overrun", pos, false,
			    "OpenSM reads '%s=%s' after this mgid (past "
			    "the end of its item: in a comment, after ';' "
			    "or left from an earlier line) as a flag of "
			    "the group",
			    flag, val);
			apply_flag(r, &f, flag, val, false);
		}
		p += ret;
		len += ret;
	} while (q);

	if (mgid_is_ip(raw)) {
		uint16_t mp = (uint16_t)(raw[4] << 8 | raw[5]);
		uint16_t pk = (uint16_t)(st->part->pkey | 0x8000);
		static const uint8_t bcast[16] = {
		    0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0,    0,
		    0,	  0,	0,    0,    0xff, 0xff, 0xff, 0xff};
		const char *why = NULL;
		if (!(memcmp(raw, bcast, 16) == 0 || mp == 0 || mp == pk))
			why = "its P_Key bytes do not match the partition";
		else if (f.rate != st->flags.rate)
			why = "its rate differs from the partition's";
		else if (f.mtu != st->flags.mtu)
			why = "its MTU differs from the partition's";
		if (why) {
			conf_diag(c, IBP_SEV_WARNING, "mgid-ip", pos, false,
				  "OpenSM does not create IP multicast group "
				  "%s: %s",
				  text, why);
			goto out;
		}
		raw[4] = (uint8_t)(pk >> 8);
		raw[5] = (uint8_t)pk;
		if (!f.qkey)
			f.qkey = IBP_CONF_IPOIB_QKEY;
	}
	ibp_conf_mgid *m = conf_add_mgid(c, st->part);
	if (!m)
		return len;
	memcpy(m->mgid, raw, 16);
	m->text = conf_arena_strdup(&c->arena, text);
	if (!m->text)
		m->text = "";
	m->flags = f;
	m->pos = pos;
out:
	return len;
}

/* ---- a statement segment (parse_part_conf) ---- */
static long parse_segment(struct rd *r, char *str)
{
	ibp_conf *c = r->c;
	struct stmt *st = &r->st;
	size_t len = 0;
	char *p = str, *q;
	if (!*p && !st->skipping)
		conf_diag(c, IBP_SEV_WARNING, "empty-statement", pos_of(r, p),
			  false,
			  "an empty statement (a ';' with nothing before it) "
			  "makes OpenSM 3.3.23 step over the end of the text "
			  "and read on from there (the rest of the line, or "
			  "bytes left from an earlier line)");
	/* OpenSM steps over one tab, newline or NUL here - also over the
	 * NUL of an empty statement */
	if (*p == '\t' || *p == 0 || *p == '\n')
		p++;
	len += (size_t)(p - str);
	str = p;
	if (st->skipping)
		return (long)(strlen(p) + 1 + len);
	if (!st->part) {
		char *colon = strchr(p, ':');
		if (!colon) {
			/* "... ;\r": the CR of a CR LF line is the header */
			bool cr = strchr(p, '\r') && !p[strspn(p, "\r \t\n")];
			conf_diag(
			    c, IBP_SEV_ERROR, "no-colon", pos_of(r, p), false,
			    "no ':' in this partition header%s%s",
			    cr ? ": it is only the CR that ends the line, "
				 "after the last ';'"
			       : " (a header 'Name[=P_Key][,flag...] :' "
				 "must be on one line)",
			    rejects_text);
			reject(r, p, "no partition definition found");
			st->skipping = true;
			return (long)(strlen(p) + 1 + len);
		}
		*colon = 0;
		str = colon + 1;
		q = strchr(p, ',');
		if (q)
			*q = 0;
		char *name, *id;
		size_t ret = conf_lex_name_token(p, &name, &id);
		p += ret;
		len += ret;
		while (q) {
			char *flag, *val;
			q = strchr(p, ',');
			if (q)
				*q++ = 0;
			ret = conf_lex_name_token(p, &flag, &val);
			p += ret;
			len += ret;
			apply_flag(r, &st->flags, flag, val, true);
		}
		if (p != str) {
			conf_diag(c, IBP_SEV_ERROR, "bad-header",
				  pos_of(r, name), false,
				  "OpenSM cannot read this header%s",
				  rejects_text);
			reject(r, name, "bad partition definition");
			st->skipping = true;
			return (long)(strlen(p) + 1 + len);
		}
		int rc = create_partition(r, name, id);
		if (rc == IBP_ENOMEM)
			return IBP_ENOMEM - 1000;
		if (rc < 0) {
			st->skipping = true;
			return (long)(strlen(p) + 1 + len);
		}
	}
	do {
		char *name, *flag;
		q = strchr(p, ',');
		if (q)
			*q++ = 0;
		size_t ret = conf_lex_name_token(p, &name, &flag);
		len += ret;
		if (!strcmp(name, "mgid")) {
			len += add_mgid(r, name, p + ret, flag);
			return (long)len;
		}
		int rc = add_member(r, name, flag);
		if (rc == IBP_ENOMEM)
			return IBP_ENOMEM - 1000;
		p += ret;
	} while (q);
	return (long)len;
}

int conf_read_opensm(ibp_conf *c, const char *text, size_t len)
{
	struct rd *r = calloc(1, sizeof(*r));
	if (!r)
		return IBP_ENOMEM;
	r->c = c;
	conf_lex_init(&r->lx, text, len);
	conf_crlf_begin(c, text, len);
	int rc = 0;
	size_t released = 0;
	while (conf_lex_next(&r->lx)) {
		struct conf_lexer *lx = &r->lx;
		char *p = lx->buf;
		/* the text of a mapped file, once read into the line buffer,
		 * is given back every few MB: a 50 MB plan is not resident
		 * whole beside its AST (a finding quoted later faults its
		 * line in again) */
		if (c->text_mapped && lx->off - released >= CONF_RELEASE_STEP) {
			ibp_file_text_release(text, released, lx->off);
			released = lx->off;
		}
		if (r->st.active && r->st.part && !r->st.skipping &&
		    !c->no_fastline) {
			/* a line of GUID members: conf_fastline.c */
			bool ended, segment;
			int f = conf_fast_members(
			    c, lx, r->st.part, &r->st.flags, &ended, &segment);
			if (f < 0) {
				rc = f;
				goto done;
			}
			if (f) {
				if (segment)
					r->any_success = true;
				if (ended)
					r->st.active = false;
				r->last_line = lx->line;
				continue;
			}
		}
		if (lx->split)
			conf_diag(c, IBP_SEV_ERROR, "long-line",
				  conf_lex_pos(lx, lx->buf + lx->n), true,
				  "line longer than %d bytes: OpenSM reads the "
				  "rest as a new line from here",
				  CONF_LINE_MAX);
		if (lx->has_nul)
			conf_diag(c, IBP_SEV_ERROR, "nul-byte",
				  conf_lex_pos(lx, lx->buf + strlen(lx->buf)),
				  true,
				  "NUL byte: OpenSM ignores the rest of the "
				  "line");
		char *hash = strchr(p, '#');
		if (hash)
			*hash = 0;
		char *semi;
		do {
			while (conf_is_ws(*p))
				p++;
			if (!*p)
				break;
			if (p > lx->buf + lx->n && !r->stale_reported) {
				char shown[48];
				r->stale_reported = true;
				conf_diag(
				    c, IBP_SEV_ERROR, "stale-read",
				    conf_lex_pos(lx, p), true,
				    "OpenSM 3.3.23 continues reading past "
				    "the end of this line, into bytes left "
				    "in its buffer by an earlier line "
				    "(after an mgid item that ends a "
				    "statement); it reads '%s'",
				    printable(p, shown, sizeof(shown)));
			}
			if (!r->st.active) {
				memset(&r->st, 0, sizeof(r->st));
				r->st.active = true;
				conf_flags_default(&r->st.flags);
			}
			semi = strchr(p, ';');
			if (semi)
				*semi = 0;
			r->seg_end = semi ? semi : p + strlen(p);
			r->seg_semi = semi != NULL;
			long n = parse_segment(r, p);
			if (n <= IBP_ENOMEM - 1000) {
				rc = IBP_ENOMEM;
				goto done;
			}
			if (!r->st.skipping)
				r->any_success = true;
			p += n;
			if (semi)
				r->st.active = false;
		} while (semi);
		r->last_line = lx->line;
	}
	if (r->st.active && r->st.part && !r->st.skipping)
		conf_diag(c, IBP_SEV_WARNING, "no-semicolon",
			  conf_lex_pos(&r->lx, r->lx.buf + r->lx.n), false,
			  "the last partition is not ended with ';' (OpenSM "
			  "accepts it)");
	if (!r->any_success && !c->verdict.rejected) {
		conf_diag(c, IBP_SEV_ERROR, "empty-file", (ibp_conf_pos){0, 0},
			  false, "no partition definition in the file%s",
			  rejects_text);
		conf_reject(c, (ibp_conf_pos){0, 0}, 0,
			    "no partition definition in the file");
	}
done:
	conf_crlf_end(c);
	free(r);
	return rc;
}
