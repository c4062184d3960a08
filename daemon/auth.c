/*
 * auth.c - who may call ibpartd and what they may do.  The users file
 * holds one "name:hash[:key=value ...]" line per user: the hash as
 * crypt(3) makes it (`openssl passwd -6`; "*": no password, a client
 * certificate of that CN only), then attributes separated by blanks:
 * role=read|change|admin (without one: admin, as every user was before
 * roles), pkeys=RANGES (0x100-0x1ff,0x300: the P_Keys the user may
 * change; none: every one), profile=NAME (the --profile it is served
 * by, profile.c).  Another key is an
 * error, so a typo cannot grant more than meant.  The file must be the
 * daemon user's, readable by it alone, and not reached through a
 * directory or symlink someone else could change; its lines are read
 * whole, however long.  A password is checked with crypt(3) whether or
 * not the user exists (a user not there is checked against a real
 * user's hash and fails), so the answer and its time are the same.
 * Tokens (UFM's /ufmRestV3, "Authorization: Basic <token>") are stored
 * in the service's database only as a crypt(3) hash, found by their
 * first 16 characters, with a role, an expiry and a revocation; a token
 * works only while its user is in the users file.
 */
#include <crypt.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ibpartd.h"

struct attr {
	char *key, *value;
};
struct user {
	char *name, *hash;
	enum role role;
	struct pkey_range *ranges;
	size_t nranges;
	struct attr *attrs; /* every key=value of the line, in order */
	size_t nattrs;
};
struct users {
	size_t n;
	struct user *u;
	char dummy_token[128]; /* a token hash no token matches */
	const char *dummy_pw;  /* a user's hash, for the users not there */
	struct cred_cache *verified; /* checks passed (cred_cache.c) */
};

static const char *const role_names[] = {"read", "change", "admin"};

const char *role_name(enum role r)
{
	return (unsigned)r < 3 ? role_names[r] : "?";
}

bool role_parse(const char *s, enum role *r)
{
	for (int i = 0; i < 3; i++)
		if (s && !strcmp(s, role_names[i])) {
			*r = (enum role)i;
			return true;
		}
	return false;
}

void users_free(struct users *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++) {
		free(u->u[i].name);
		free(u->u[i].hash);
		free(u->u[i].ranges);
		for (size_t j = 0; j < u->u[i].nattrs; j++) {
			free(u->u[i].attrs[j].key);
			free(u->u[i].attrs[j].value);
		}
		free(u->u[i].attrs);
	}
	free(u->u);
	cred_cache_free(u->verified);
	free(u);
}

static bool parse_pkey(const char *s, size_t n, uint16_t *out)
{
	char buf[16];
	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	errno = 0;
	unsigned long v = strtoul(buf, &end, 0);
	if (*end || errno || v < 1 || v > 0x7fff || buf[0] == '-' ||
	    buf[0] == '+')
		return false;
	*out = (uint16_t)v;
	return true;
}

/* pkeys=0x100-0x1ff,0x300 */
static bool parse_ranges(const char *v, struct user *u)
{
	for (const char *p = v; *p;) {
		size_t n = strcspn(p, ",");
		const char *dash = memchr(p, '-', n);
		struct pkey_range r;
		if (!(dash ? parse_pkey(p, (size_t)(dash - p), &r.lo) &&
				 parse_pkey(dash + 1,
					    n - (size_t)(dash - p) - 1, &r.hi)
			   : parse_pkey(p, n, &r.lo)))
			return false;
		if (!dash)
			r.hi = r.lo;
		if (r.hi < r.lo)
			return false;
		struct pkey_range *nr =
		    realloc(u->ranges, (u->nranges + 1) * sizeof(*nr));
		if (!nr)
			return false;
		u->ranges = nr;
		u->ranges[u->nranges++] = r;
		p += n;
		if (*p == ',' && *++p == 0)
			return false;
	}
	return u->nranges > 0;
}

/* One key=value of a user's line into u; false after printing why. */
static bool add_attr(struct user *u, const char *path, unsigned line,
		     unsigned col, char *kv)
{
	char *eq = strchr(kv, '=');
	if (!eq || eq == kv || !eq[1]) {
		daemon_log("%s:%u:%u: error: '%s' is not key=value (role=, "
			   "pkeys=, profile=)",
			   path, line, col, kv);
		return false;
	}
	*eq = 0;
	const char *k = kv, *v = eq + 1;
	for (size_t i = 0; i < u->nattrs; i++)
		if (!strcmp(u->attrs[i].key, k)) {
			daemon_log("%s:%u:%u: error: %s= twice", path, line,
				   col, k);
			return false;
		}
	bool ok = true;
	if (!strcmp(k, "role"))
		ok = role_parse(v, &u->role);
	else if (!strcmp(k, "pkeys"))
		ok = parse_ranges(v, u);
	else if (strcmp(k, "profile")) {
		daemon_log("%s:%u:%u: error: unknown attribute '%s' (role=, "
			   "pkeys=, profile=)",
			   path, line, col, k);
		return false;
	}
	if (!ok) {
		daemon_log("%s:%u:%u: error: %s=%s: %s", path, line, col, k, v,
			   !strcmp(k, "role")
			       ? "the role is read, change or admin"
			       : "P_Keys are ranges such as "
				 "0x100-0x1ff,0x300 (0x1-0x7fff)");
		return false;
	}
	struct attr *na = realloc(u->attrs, (u->nattrs + 1) * sizeof(*na));
	if (!na)
		return false;
	u->attrs = na;
	u->attrs[u->nattrs].key = strdup(k);
	u->attrs[u->nattrs].value = strdup(v);
	return u->attrs[u->nattrs++].value != NULL;
}

static int add_user(struct users *us, const char *path, unsigned line,
		    char *text)
{
	char *colon = strchr(text, ':');
	char *hash = colon ? colon + 1 : NULL;
	char *rest = hash ? strchr(hash, ':') : NULL;
	if (rest)
		*rest++ = 0;
	if (!colon || colon == text || !*hash) {
		daemon_log("%s:%u:1: error: not a name:hash[:key=value ...] "
			   "line (make the hash with `openssl passwd -6`)",
			   path, line);
		return -1;
	}
	*colon = 0;
	for (size_t i = 0; i < us->n; i++)
		if (!strcmp(us->u[i].name, text)) {
			daemon_log("%s:%u:1: error: user '%s' twice", path,
				   line, text);
			return -1;
		}
	struct user *n = realloc(us->u, (us->n + 1) * sizeof(*n));
	if (!n)
		return -1;
	us->u = n;
	struct user *u = &us->u[us->n++];
	*u = (struct user){
	    .name = strdup(text), .hash = strdup(hash), .role = ROLE_ADMIN};
	if (!u->name || !u->hash)
		return -1;
	char *save = NULL;
	for (char *kv = rest ? strtok_r(rest, " \t", &save) : NULL; kv;
	     kv = strtok_r(NULL, " \t", &save))
		if (!add_attr(u, path, line, (unsigned)(kv - text) + 1, kv))
			return -1;
	return 0;
}

/* May someone other than the daemon's user (or root) change what dir
 * holds?  A sticky directory (/tmp) lets others add entries, not
 * replace ours. */
static bool dir_unsafe(const struct stat *st)
{
	uid_t me = geteuid();
	return (st->st_uid != me && st->st_uid != 0) ||
	       ((st->st_mode & 022) && !(st->st_mode & S_ISVTX));
}

/* The path, every directory up to / and, for a symlink, the link
 * itself and its directory: the daemon's user's or root's, and not
 * writable by others.  0, or -1 after saying why. */
static int path_safe(const char *path)
{
	struct stat st;
	char real[PATH_MAX], buf[PATH_MAX];
	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		snprintf(buf, sizeof(buf), "%s", path);
		char *slash = strrchr(buf, '/');
		struct stat ds;
		if (slash)
			*slash = 0;
		if ((st.st_uid != geteuid() && st.st_uid != 0) ||
		    lstat(slash ? (*buf ? buf : "/") : ".", &ds) ||
		    ((ds.st_mode & 022) && !(ds.st_mode & S_ISVTX))) {
			daemon_log("%s: error: the users file is a symlink "
				   "another user could have made or replace",
				   path);
			return -1;
		}
	}
	if (!realpath(path, real)) {
		daemon_log("%s: error: cannot read the users file", path);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", real);
	for (char *slash; (slash = strrchr(buf, '/'));) {
		slash[slash == buf] = 0; /* "/" stays */
		if (stat(buf, &st) || dir_unsafe(&st)) {
			daemon_log("%s: error: directory %s of the users file "
				   "is another user's or writable by others",
				   path, buf);
			return -1;
		}
		if (slash == buf)
			break;
	}
	return 0;
}

static int file_safe(const char *path, int fd)
{
	struct stat st;
	if (fstat(fd, &st)) {
		daemon_log("%s: error: cannot read the users file", path);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		daemon_log("%s: error: the users file is not a file", path);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		daemon_log("%s: error: the users file is owned by uid %u, not "
			   "by the daemon's user (uid %u): chown it",
			   path, (unsigned)st.st_uid, (unsigned)geteuid());
		return -1;
	}
	if (st.st_mode & 077) {
		daemon_log(
		    "%s: error: group or others may access the users file "
		    "(mode %03o): chmod 600 it",
		    path, (unsigned)(st.st_mode & 0777));
		return -1;
	}
	return 0;
}

static bool make_dummy_token(struct users *u)
{
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	const char *h = NULL;
	if (cd && crypt_gensalt_rn("$6$", 1000, NULL, 0, salt, sizeof(salt)))
		h = crypt_r("not a token", salt, cd);
	bool ok = h && h[0] != '*' && strlen(h) < sizeof(u->dummy_token);
	if (ok)
		snprintf(u->dummy_token, sizeof(u->dummy_token), "%s", h);
	free(cd);
	return ok;
}

int users_load(const char *path, struct users **out)
{
	*out = NULL;
	if (path_safe(path))
		return -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno == ELOOP) /* a symlink path_safe accepted */
		fd = open(path, O_RDONLY | O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f || file_safe(path, fd)) {
		if (!f)
			daemon_log("%s: error: cannot read the users file",
				   path);
		if (f)
			fclose(f);
		else if (fd >= 0)
			close(fd);
		return -1;
	}
	struct users *u = calloc(1, sizeof(*u));
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned line = 0;
	int rc =
	    u && make_dummy_token(u) && (u->verified = cred_cache_new()) != NULL
		? 0
		: -1;
	while (!rc && (len = getline(&buf, &cap, f)) >= 0) {
		line++;
		if (memchr(buf, 0, (size_t)len)) {
			daemon_log("%s:%u:1: error: a NUL byte in the line",
				   path, line);
			rc = -1;
			break;
		}
		buf[strcspn(buf, "\r\n")] = 0;
		char *t = buf + strspn(buf, " \t");
		if (*t && *t != '#')
			rc = add_user(u, path, line, t);
	}
	free(buf);
	fclose(f);
	if (!rc && !u->n) {
		daemon_log("%s: error: no users", path);
		rc = -1;
	}
	for (size_t i = 0; !rc && i < u->n && !u->dummy_pw; i++)
		if (u->u[i].hash[0] == '$')
			u->dummy_pw = u->u[i].hash;
	if (!rc && !u->dummy_pw)
		u->dummy_pw = u->dummy_token;
	if (rc) {
		users_free(u);
		return -1;
	}
	*out = u;
	return 0;
}

/* crypt(3) of secret with hash's settings equals hash.  cacheable: the
 * caller accepts the login when it does (a real user, a token found),
 * so a pass is kept and the same secret and hash pass again without
 * crypt(3) (cred_cache.c); any other check runs crypt(3). */
static bool crypt_match(const struct users *u, const char *secret,
			const char *hash, bool cacheable)
{
	if (cacheable && cred_cache_has(u->verified, hash, secret))
		return true;
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	cred_cache_crypt_ran(u->verified);
	const char *h = crypt_r(secret, hash, cd);
	bool ok =
	    h && h[0] != '*' && strlen(h) == strlen(hash) && !strcmp(h, hash);
	free(cd);
	if (ok && cacheable)
		cred_cache_put(u->verified, hash, secret);
	return ok;
}

void auth_metrics(const struct users *u, FILE *f)
{
	cred_cache_metrics(u ? u->verified : NULL, f);
}

static const struct user *find_user(const struct users *u, const char *name)
{
	const struct user *hit = NULL;
	for (size_t i = 0; i < u->n; i++)
		if (!strcmp(u->u[i].name, name))
			hit = &u->u[i];
	return hit;
}

static void principal_of(const struct user *u, const char *via,
			 struct principal *p)
{
	snprintf(p->name, sizeof(p->name), "%s", u->name);
	snprintf(p->via, sizeof(p->via), "%s", via);
	p->role = u->role;
	p->ranges = u->ranges;
	p->nranges = u->nranges;
}

bool auth_basic(const struct users *u, const char *user, const char *pass,
		struct principal *p)
{
	if (!user || !pass)
		return false;
	const struct user *hit = find_user(u, user);
	/* a user not there, or one without a password ("*"), costs one
	 * crypt(3) too, with a real user's settings, and fails */
	bool real = hit && hit->hash[0] == '$';
	bool ok =
	    crypt_match(u, pass, real ? hit->hash : u->dummy_pw, real) && real;
	if (ok)
		principal_of(hit, "basic", p);
	return ok;
}

#define TOKEN_ID_LEN 16

bool auth_token(ibp_service *svc, const struct users *u, const char *header,
		struct principal *p)
{
	if (!header || strncmp(header, "Basic ", 6))
		return false;
	const char *token = header + 6;
	char id[TOKEN_ID_LEN + 1];
	if (strlen(token) <= TOKEN_ID_LEN)
		return false;
	memcpy(id, token, TOKEN_ID_LEN);
	id[TOKEN_ID_LEN] = 0;
	ibp_service_token t;
	ibp_error err;
	bool found = ibp_service_token_find(svc, id, &t, &err) == IBP_OK;
	bool ok =
	    crypt_match(u, token, found ? t.hash : u->dummy_token, found) &&
	    found;
	long now = (long)time(NULL);
	const struct user *owner = ok ? find_user(u, t.user) : NULL;
	enum role role;
	if (!owner || t.revoked || (t.expires_at && now >= t.expires_at) ||
	    !role_parse(t.role, &role))
		return false;
	principal_of(owner, "", p);
	snprintf(p->via, sizeof(p->via), "token:%s", id);
	if (role < p->role) /* never more than its user has now */
		p->role = role;
	if (now - t.last_used >= 60) /* at most one write a minute */
		ibp_service_token_touch(svc, id, now, &err);
	return true;
}

bool auth_krb(const struct users *u, const char *name, struct principal *p)
{
	const struct user *hit = find_user(u, name);
	char via[160];
	snprintf(via, sizeof(via), "krb:%.120s", name);
	if (hit)
		principal_of(hit, via, p);
	return hit != NULL;
}

void auth_cert(const struct users *u, const char *cn, struct principal *p)
{
	const struct user *hit = find_user(u, cn);
	char via[160];
	snprintf(via, sizeof(via), "cert:%.120s", cn);
	if (hit) {
		principal_of(hit, via, p);
		return;
	}
	snprintf(p->name, sizeof(p->name), "cert:%.120s", cn);
	snprintf(p->via, sizeof(p->via), "%s", via);
	p->role = ROLE_CHANGE;
	p->ranges = NULL;
	p->nranges = 0;
}

char *auth_token_issue(ibp_service *svc, const struct principal *p,
		       enum role role, long lifetime, long *issued_at)
{
	unsigned char rnd[24];
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return NULL;
	char *token = malloc(2 * sizeof(rnd) + 1);
	if (!token)
		return NULL;
	for (size_t i = 0; i < sizeof(rnd); i++)
		sprintf(token + 2 * i, "%02x", rnd[i]);
	char salt[CRYPT_GENSALT_OUTPUT_SIZE];
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	const char *h = NULL;
	if (cd && crypt_gensalt_rn("$6$", 1000, NULL, 0, salt, sizeof(salt)))
		h = crypt_r(token, salt, cd);
	ibp_service_token t = {0};
	memcpy(t.id, token, TOKEN_ID_LEN);
	*issued_at = (long)time(NULL);
	t.issued_at = *issued_at;
	t.expires_at = lifetime > 0 ? *issued_at + lifetime : 0;
	snprintf(t.user, sizeof(t.user), "%s", p->name);
	snprintf(t.role, sizeof(t.role), "%s",
		 role_name(role < p->role ? role : p->role));
	ibp_error err;
	if (!h || h[0] == '*' || strlen(h) >= sizeof(t.hash)) {
		free(token);
		token = NULL;
	} else {
		snprintf(t.hash, sizeof(t.hash), "%s", h);
		if (ibp_service_token_add(svc, &t, &err)) {
			free(token);
			token = NULL;
		}
	}
	free(cd);
	return token;
}

const char *auth_user_attr(const struct users *u, const char *user,
			   const char *key)
{
	const struct user *hit = find_user(u, user);
	for (size_t i = 0; hit && i < hit->nattrs; i++)
		if (!strcmp(hit->attrs[i].key, key))
			return hit->attrs[i].value;
	return NULL;
}
