/*
 * conf_seed.c - the seed document's partition dialect:
 *
 *   PartitionConfig {
 *   mgmt = ipoib, rate=NDR, mtu=4096, scope=0x00 ;
 *   sm-01 = full ;
 *   TenantA = ipoib, rate=NDR, mtu=4096 ;
 *   0x506b4b0300a1b200 = full ; # tenantA-node-01
 *   }
 *
 * A "Name = flags ;" line opens a partition; a "GUID-or-node-name =
 * full|limited|both ;" line adds a member to the one above.  Names are
 * node descriptions (or node-name-map names, or ibnetdiscover ids) of
 * the topology; rates are IBTA names (SDR … XDR) or codes, MTUs byte
 * sizes or codes.  mgmt / management / Default is the default partition
 * 0x7fff; the others are numbered as OpenSM numbers partitions written
 * without a P_Key.  OpenSM itself rejects this text (no ':'), so the
 * point of reading it is `ibpart convert`.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "conf/conf_internal.h"
#include "conf/conf_lib.h"
#include "topo/topo_lib.h"

struct sd {
	ibp_conf *c;
	const char *text, *end;
	struct ibp_conf_partition *part;
	const char *mark; /* spos() cache */
	ibp_conf_pos mark_pos;
};

static ibp_conf_pos spos(struct sd *s, const char *p)
{
	/* walk on from the last position asked for when we can */
	if (!s->mark || p < s->mark) {
		s->mark = s->text;
		s->mark_pos = (ibp_conf_pos){1, 1};
	}
	ibp_conf_pos pos = s->mark_pos;
	const char *q = s->mark;
	for (; q < p && q < s->end; q++) {
		if (*q == '\n') {
			pos.line++;
			pos.col = 1;
		} else {
			pos.col++;
		}
	}
	s->mark = q;
	s->mark_pos = pos;
	return pos;
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* trimmed copy of [a, b) */
static char *trim_dup(struct sd *s, const char *a, const char *b,
		      const char **start)
{
	while (a < b && is_blank(*a))
		a++;
	while (b > a && is_blank(b[-1]))
		b--;
	if (start)
		*start = a;
	return conf_arena_strndup(&s->c->arena, a, (size_t)(b - a));
}

static ibp_membership seed_word(const char *w)
{
	if (!strcasecmp(w, "full"))
		return IBP_MEMB_FULL;
	if (!strcasecmp(w, "limited"))
		return IBP_MEMB_LIMITED;
	if (!strcasecmp(w, "both"))
		return IBP_MEMB_BOTH;
	return IBP_MEMB_NONE;
}

static bool parse_num(const char *v, unsigned long long *out)
{
	if (!*v || *v == '-' || *v == '+')
		return false;
	char *end;
	unsigned long long n = strtoull(v, &end, 0);
	if (*end)
		return false;
	*out = n;
	return true;
}

static void seed_flag(struct sd *s, ibp_conf_flags *f, const char *item,
		      const char *at)
{
	ibp_conf *c = s->c;
	ibp_conf_pos pos = spos(s, at);
	const char *eq = strchr(item, '=');
	char key[32];
	size_t kl = eq ? (size_t)(eq - item) : strlen(item);
	while (kl && is_blank(item[kl - 1]))
		kl--;
	if (kl >= sizeof(key))
		kl = sizeof(key) - 1;
	memcpy(key, item, kl);
	key[kl] = 0;
	const char *v = eq ? eq + 1 : NULL;
	while (v && is_blank(*v))
		v++;
	unsigned long long n = 0;
	if (!strcasecmp(key, "ipoib")) {
		f->ipoib = true;
	} else if (!strcasecmp(key, "indx0")) {
		f->indx0 = true;
	} else if (!v || !*v) {
		conf_diag(c, IBP_SEV_ERROR, "missing-value", pos, false,
			  "flag '%s' needs a value", key);
	} else if (!strcasecmp(key, "rate")) {
		unsigned code = ibp_conf_rate_code(v);
		if (!code && parse_num(v, &n) && n >= 2 && n <= 23)
			code = (unsigned)n;
		if (!code)
			conf_diag(c, IBP_SEV_ERROR, "rate-range", pos, false,
				  "rate=%s: write an IBTA name (SDR, DDR, QDR, "
				  "FDR, EDR, HDR, NDR, XDR) or a rate code",
				  v);
		else {
			f->rate = code;
			f->has_rate = true;
			if (code == 23)
				conf_diag(
				    c, IBP_SEV_WARNING, "rate-range", pos,
				    false,
				    "rate %s (code 23, 800 Gb/s) is newer "
				    "than OpenSM 3.3.23 (up to 22)",
				    v);
		}
	} else if (!strcasecmp(key, "mtu")) {
		unsigned code = 0;
		if (parse_num(v, &n)) {
			if (n >= 1 && n <= 5)
				code = (unsigned)n;
			else if (n <= 4096)
				code = ibp_conf_mtu_code((unsigned)n);
		}
		if (!code)
			conf_diag(c, IBP_SEV_ERROR, "mtu-range", pos, false,
				  "mtu=%s: write 256, 512, 1024, 2048 or 4096 "
				  "(or the code 1..5)",
				  v);
		else {
			f->mtu = code;
			f->has_mtu = true;
		}
	} else if (!strcasecmp(key, "scope")) {
		if (!parse_num(v, &n) || n > 15)
			conf_diag(c, IBP_SEV_ERROR, "scope-range", pos, false,
				  "scope=%s is not a multicast scope (1..15)",
				  v);
		else if (n == 0)
			conf_diag(c, IBP_SEV_WARNING, "scope-range", pos, false,
				  "scope=%s is not a multicast scope (1..15); "
				  "left out (OpenSM uses link-local, 2)",
				  v);
		else
			f->scope_mask |= (uint16_t)(1u << n);
	} else if (!strcasecmp(key, "sl")) {
		if (!parse_num(v, &n) || n > 15)
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos, false,
				  "sl=%s is not a service level (0..15)", v);
		else {
			f->sl = (unsigned)n;
			f->has_sl = true;
		}
	} else if (!strcasecmp(key, "Q_Key")) {
		if (!parse_num(v, &n) || !n || n > 0xffffffffull)
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos, false,
				  "Q_Key=%s is not a 32-bit Q_Key", v);
		else {
			f->qkey = (uint32_t)n;
			f->has_qkey = true;
		}
	} else if (!strcasecmp(key, "TClass")) {
		if (!parse_num(v, &n) || n > 255)
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos, false,
				  "TClass=%s is not an 8-bit traffic class", v);
		else {
			f->tclass = (uint8_t)n;
			f->has_tclass = true;
		}
	} else if (!strcasecmp(key, "FlowLabel")) {
		if (!parse_num(v, &n) || n > 0xfffff)
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos, false,
				  "FlowLabel=%s is not a 20-bit flow label", v);
		else {
			f->flow_label = (uint32_t)n;
			f->has_flow_label = true;
		}
	} else if (!strcasecmp(key, "defmember")) {
		ibp_membership m = seed_word(v);
		if (m == IBP_MEMB_NONE)
			conf_diag(c, IBP_SEV_ERROR, "bad-value", pos, false,
				  "defmember=%s: full, limited or both", v);
		else {
			f->defmember = m;
			f->has_defmember = true;
		}
	} else {
		conf_diag(c, IBP_SEV_ERROR, "unknown-flag", pos, false,
			  "unknown partition flag '%s'", key);
	}
}

static bool is_default_name(const char *n)
{
	return !strcasecmp(n, "mgmt") || !strcasecmp(n, "management") ||
	       !strcasecmp(n, "Default");
}

static int seed_header(struct sd *s, const char *name, const char *name_at,
		       const char *rhs, const char *rhs_at)
{
	ibp_conf *c = s->c;
	struct ibp_conf_partition *p = conf_add_partition(c);
	if (!p)
		return IBP_ENOMEM;
	p->name = name;
	p->pos = spos(s, name_at);
	bool dflt = is_default_name(name);
	if (dflt) {
		p->has_pkey = true;
		p->pkey_written = IBP_CONF_DEFAULT_PKEY;
	}
	/* flags, comma separated */
	const char *a = rhs;
	while (*a) {
		const char *b = strchr(a, ',');
		if (!b)
			b = a + strlen(a);
		const char *st;
		char *item = trim_dup(s, a, b, &st);
		if (!item)
			return IBP_ENOMEM;
		if (*item)
			seed_flag(s, &p->flags, item, rhs_at + (st - rhs));
		else if (*b)
			conf_diag(c, IBP_SEV_WARNING, "empty-flag",
				  spos(s, rhs_at + (a - rhs)), false,
				  "empty flag (a stray comma?)");
		a = *b ? b + 1 : b;
	}
	if (!*name || isdigit((unsigned char)*name) || strpbrk(name, " \t,:=#"))
		conf_diag(c, IBP_SEV_ERROR, "bad-name", p->pos, false,
			  "'%s' is not a usable partition name (letters, "
			  "digits, '-', '_', '.'; not starting with a digit)",
			  name);
	int g = conf_assign_pkey(c, p, name, dflt,
				 dflt ? IBP_CONF_DEFAULT_PKEY : 0);
	if (g == IBP_ENOMEM)
		return IBP_ENOMEM;
	if (g < 0) {
		conf_diag(c, IBP_SEV_ERROR, "pkey-exhausted", p->pos, false,
			  "no P_Key left for this partition");
		return 0;
	}
	s->part = p;
	return 0;
}

static int seed_member(struct sd *s, const char *who, const char *who_at,
		       ibp_membership m, const char *word)
{
	ibp_conf *c = s->c;
	ibp_conf_pos pos = spos(s, who_at);
	if (!s->part) {
		conf_diag(c, IBP_SEV_ERROR, "member-outside", pos, false,
			  "member '%s' before any partition header "
			  "('Name = flags ;')",
			  who);
		return 0;
	}
	ibp_conf_member *mb = conf_add_member(c, s->part);
	if (!mb)
		return IBP_ENOMEM;
	mb->text = who;
	mb->written = m;
	mb->written_word = word;
	mb->membership = m;
	mb->indx0 = s->part->flags.indx0;
	mb->pos = pos;
	unsigned long long n;
	if (isdigit((unsigned char)*who) && parse_num(who, &n) && n) {
		mb->kind = IBP_MEMBER_GUID;
		mb->guid = n;
		return 0;
	}
	static const struct {
		const char *kw;
		ibp_member_kind k;
	} kws[] = {{"ALL", IBP_MEMBER_ALL},
		   {"ALL_CAS", IBP_MEMBER_ALL_CAS},
		   {"ALL_SWITCHES", IBP_MEMBER_ALL_SWITCHES},
		   {"ALL_ROUTERS", IBP_MEMBER_ALL_ROUTERS},
		   {"SELF", IBP_MEMBER_SELF}};
	for (size_t i = 0; i < sizeof(kws) / sizeof(kws[0]); i++)
		if (!strcmp(who, kws[i].kw)) {
			mb->kind = kws[i].k;
			return 0;
		}
	mb->kind = IBP_MEMBER_NAME;
	if (!c->opts.fabric) {
		conf_diag(c, IBP_SEV_ERROR, "unresolved-name", pos, false,
			  "node name '%s' needs a topology to resolve "
			  "(-t TOPO)",
			  who);
		return 0;
	}
	size_t node;
	unsigned port;
	ibp_error err;
	ibp_error_clear(&err);
	if (ibp_fabric_find_desc(c->opts.fabric, who, &node) == IBP_EINVAL) {
		conf_diag(c, IBP_SEV_ERROR, "ambiguous-name", pos, false,
			  "several nodes of the topology are named '%s'; "
			  "write the port GUID",
			  who);
		return 0;
	}
	int rc =
	    ibp_fabric_resolve_port(c->opts.fabric, who, &node, &port, &err);
	if (rc && rc != IBP_ENOENT) {
		/* a dual-port CA named without "/port", a bad port number */
		conf_diag(c, IBP_SEV_ERROR, "ambiguous-name", pos, false,
			  "%s; write NAME/PORT or the port GUID", err.message);
		return 0;
	}
	if (rc ||
	    !(mb->guid = ibp_fabric_port_guid(c->opts.fabric, node, port))) {
		conf_diag(c, IBP_SEV_ERROR, "unresolved-name", pos, false,
			  "no node named '%s' in the topology", who);
		return 0;
	}
	return 0;
}

int conf_read_seed(ibp_conf *c, const char *text, size_t len)
{
	struct sd sd = {.c = c, .text = text, .end = text + len};
	struct sd *s = &sd;
	enum { BEFORE, IN, AFTER } state = BEFORE;
	const char *p = text, *end = text + len;
	/* work on a copy with comments blanked, so ';' and '{' in comments
	 * do not count and columns stay */
	char *buf = malloc(len + 1);
	if (!buf)
		return IBP_ENOMEM;
	memcpy(buf, text, len);
	buf[len] = 0;
	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '#')
			while (i < len && buf[i] != '\n')
				buf[i++] = ' ';
		else if (buf[i] == 0)
			buf[i] = ' ';
	}
	int rc = 0;
	p = buf;
	end = buf + len;
	s->text = buf;
	s->end = end;
	while (p < end) {
		while (p < end && is_blank(*p))
			p++;
		if (p >= end)
			break;
		if (state == BEFORE) {
			static const char kw[] = "PartitionConfig";
			if (!strncmp(p, kw, sizeof(kw) - 1)) {
				const char *q = p + sizeof(kw) - 1;
				while (q < end && is_blank(*q))
					q++;
				if (q < end && *q == '{') {
					state = IN;
					p = q + 1;
					continue;
				}
			}
			conf_diag(c, IBP_SEV_ERROR, "outside-block", spos(s, p),
				  false,
				  "text before 'PartitionConfig {' (the seed "
				  "dialect has its partitions inside the "
				  "block)");
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl + 1 : end;
			continue;
		}
		if (state == AFTER) {
			conf_diag(c, IBP_SEV_ERROR, "outside-block", spos(s, p),
				  false, "text after the closing '}'");
			break;
		}
		if (*p == '}') {
			state = AFTER;
			p++;
			continue;
		}
		/* a statement up to ';' (or '}' / end: missing ';') */
		const char *q = p;
		while (q < end && *q != ';' && *q != '}')
			q++;
		if (q >= end || *q == '}') {
			conf_diag(c, IBP_SEV_ERROR, "no-semicolon", spos(s, q),
				  false, "missing ';' at the end of '%.*s'",
				  (int)(q - p > 40 ? 40 : q - p), p);
		}
		const char *eq = memchr(p, '=', (size_t)(q - p));
		if (!eq) {
			conf_diag(c, IBP_SEV_ERROR, "no-equals", spos(s, p),
				  false,
				  "expected 'Name = flags ;' or 'member = "
				  "full|limited ;'");
		} else {
			const char *lhs_at, *rhs_at;
			char *lhs = trim_dup(s, p, eq, &lhs_at);
			char *rhs = trim_dup(s, eq + 1, q, &rhs_at);
			if (!lhs || !rhs) {
				rc = IBP_ENOMEM;
				break;
			}
			ibp_membership m = seed_word(rhs);
			if (!*lhs)
				conf_diag(c, IBP_SEV_ERROR, "no-name",
					  spos(s, p), false,
					  "nothing before '='");
			else if (m != IBP_MEMB_NONE)
				rc = seed_member(s, lhs, lhs_at, m, rhs);
			else
				rc = seed_header(s, lhs, lhs_at, rhs, rhs_at);
			if (rc)
				break;
		}
		p = q < end && *q == ';' ? q + 1 : q;
	}
	if (!rc && state == BEFORE)
		conf_diag(c, IBP_SEV_ERROR, "no-block", (ibp_conf_pos){0, 0},
			  false, "no 'PartitionConfig {' block");
	else if (!rc && state == IN)
		conf_diag(c, IBP_SEV_ERROR, "no-closing-brace", spos(s, end),
			  false,
			  "the PartitionConfig block has no closing '}'");
	free(buf);
	return rc;
}
