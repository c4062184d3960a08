/*
 * profile.c - how ibpartd serves each API user: the operator's profiles
 * (--profile NAME:SETTINGS, repeatable).  A user is served by the one its
 * users-file line names (profile=NAME), else by the one named after the
 * user, else by "*"'s.  UFM's clients disagree where UFM
 * is silent (an unknown P_Key: NICo wants 200 with "{}", NCM and
 * OpenStack 404), and a Slurm user's shared node is the operator's
 * choice where a Kubernetes user's bridge is not: both are said here, per
 * user, never by weakening what everyone gets.  docs/ufm-api.md names
 * the profile each client needs.
 *
 *   not_found=empty-200|404   GET /resources/pkeys/{pkey} of a P_Key
 *                             nobody defines: 200 with exactly "{}" as
 *                             UFM answers (the default: NICo needs it,
 *                             ib-kubernetes and NCM accept it), or 404
 *                             (what NCM's and OpenStack's code was
 *                             written for; /ibpart/v1 answers 404)
 *   warn=CODE[+CODE...]       audit findings (docs/audit.md) that only
 *                             warn for this user: the change is made and
 *                             the findings come back in its answer's
 *                             "warnings", the log and the status; "*" is
 *                             every code (default: none, every new
 *                             finding at high or above refuses)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ibpartd.h"

static void profile_free(struct profile *p)
{
	free(p->user);
	for (size_t i = 0; p->warn && p->warn[i]; i++)
		free(p->warn[i]);
	free(p->warn);
}

void profiles_free(struct ibpartd *d)
{
	for (size_t i = 0; i < d->nprofiles; i++)
		profile_free(&d->profiles[i]);
	free(d->profiles);
	d->profiles = NULL;
	d->nprofiles = 0;
}

/* A --profile usage error (printed the CLI's way); -1. */
__attribute__((format(printf, 2, 3))) static int usage(const char *cmd,
						       const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	cli_usage_error(cmd, "--profile: %s", n < 0 ? fmt : msg);
	free(msg);
	return -1;
}

/* "a+b+c" into p->warn (NULL-terminated); -1 on ENOMEM or a bad code. */
static int take_warn(struct profile *p, const char *v, const char **bad)
{
	size_t n = 1;
	for (const char *c = v; *c; c++)
		n += *c == '+';
	if (!(p->warn = calloc(n + 1, sizeof(*p->warn))))
		return -1;
	size_t k = 0;
	for (const char *c = v; k < n; k++) {
		size_t len = strcspn(c, "+");
		bool ok = len > 0 && len < 64;
		for (size_t i = 0; ok && i < len; i++)
			ok = (c[i] >= 'a' && c[i] <= 'z') ||
			     (c[i] >= '0' && c[i] <= '9') || c[i] == '-' ||
			     (c[i] == '*' && len == 1);
		if (!ok) {
			*bad = c;
			return -1;
		}
		if (!(p->warn[k] = strndup(c, len)))
			return -1;
		c += len + (c[len] == '+');
	}
	return 0;
}

/* One KEY=VALUE of a profile; -1 after the usage error. */
static int take_setting(struct profile *p, const char *cmd, const char *kv)
{
	const char *eq = strchr(kv, '=');
	size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
	const char *v = eq ? eq + 1 : "";
	if (klen == 9 && !strncmp(kv, "not_found", 9)) {
		if (!strcmp(v, "404"))
			p->not_found_404 = true;
		else if (!strcmp(v, "empty-200"))
			p->not_found_404 = false;
		else
			return usage(cmd,
				     "not_found is empty-200 or 404, "
				     "not '%s'",
				     v);
		return 0;
	}
	if (klen == 4 && !strncmp(kv, "warn", 4)) {
		const char *bad = NULL;
		if (p->warn || take_warn(p, v, &bad))
			return usage(cmd,
				     "warn is audit codes joined by '+' (or "
				     "*), given once, not '%s'",
				     bad ? bad : v);
		return 0;
	}
	return usage(cmd, "unknown setting '%.*s' (not_found, warn)", (int)klen,
		     kv);
}

int profile_take(const char *cmd, void *dest, const char *val)
{
	struct ibpartd *d = dest;
	const char *colon = strchr(val, ':');
	if (!colon || colon == val)
		return usage(cmd,
			     "NAME:KEY=VALUE[,...] (NAME a profile= of the "
			     "users file, a user, or *), not '%s'",
			     val);
	for (size_t i = 0; i < d->nprofiles; i++)
		if (strlen(d->profiles[i].user) == (size_t)(colon - val) &&
		    !strncmp(d->profiles[i].user, val, (size_t)(colon - val)))
			return usage(cmd, "'%.*s' is defined already",
				     (int)(colon - val), val);
	struct profile p = {.user = strndup(val, (size_t)(colon - val))};
	char *settings = strdup(colon + 1);
	int rc = p.user && settings ? 0 : -1;
	char *save = NULL;
	for (char *t = settings ? strtok_r(settings, ",", &save) : NULL;
	     !rc && t; t = strtok_r(NULL, ",", &save))
		rc = take_setting(&p, cmd, t);
	free(settings);
	struct profile *n =
	    rc ? NULL : realloc(d->profiles, (d->nprofiles + 1) * sizeof(*n));
	if (!n) {
		profile_free(&p);
		return -1;
	}
	d->profiles = n;
	d->profiles[d->nprofiles++] = p;
	return 0;
}

const struct profile *profile_of(const struct ibpartd *d, const char *user)
{
	static const struct profile none = {0};
	const struct profile *any = &none;
	/* the users file's profile=NAME first, else the user's own name */
	const char *named =
	    user ? auth_user_attr(d->users, user, "profile") : NULL;
	const char *want = named ? named : user;
	for (size_t i = 0; i < d->nprofiles; i++) {
		if (want && !strcmp(d->profiles[i].user, want))
			return &d->profiles[i];
		if (!strcmp(d->profiles[i].user, "*"))
			any = &d->profiles[i];
	}
	return any;
}
