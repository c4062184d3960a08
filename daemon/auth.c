/*
 * auth.c - who may call ibpartd: the users file (one "name:hash" line
 * each, the hash as crypt(3) makes it, e.g. `openssl passwd -6`; a file
 * group or others may read is refused, as sshd refuses such a key),
 * HTTP Basic credentials checked against it, and the tokens UFM's
 * /ufmRestV3 clients send as "Authorization: Basic <token>": issued by
 * POST /ufmRest/app/tokens, stored in the service's database only as a
 * crypt(3) hash, found by their first 16 characters.
 */
#include <crypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#include "ibpartd.h"

struct user {
	char *name, *hash;
};
struct users {
	size_t n;
	struct user *u;
};

void users_free(struct users *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++) {
		free(u->u[i].name);
		free(u->u[i].hash);
	}
	free(u->u);
	free(u);
}

static int add_user(struct users *u, const char *path, unsigned line,
		    char *text)
{
	char *colon = strchr(text, ':');
	if (!colon || colon == text || !colon[1]) {
		daemon_log("%s:%u:1: error: not a name:hash line (make the "
			   "hash with `openssl passwd -6`)",
			   path, line);
		return -1;
	}
	*colon = 0;
	struct user *n = realloc(u->u, (u->n + 1) * sizeof(*n));
	if (!n)
		return -1;
	u->u = n;
	u->u[u->n].name = strdup(text);
	u->u[u->n].hash = strdup(colon + 1);
	u->n++;
	return 0;
}

int users_load(const char *path, struct users **out)
{
	*out = NULL;
	FILE *f = fopen(path, "r");
	struct stat st;
	if (!f || fstat(fileno(f), &st)) {
		daemon_log("%s: error: cannot read the users file", path);
		if (f)
			fclose(f);
		return -1;
	}
	if (st.st_mode & 077) {
		daemon_log(
		    "%s: error: group or others may access the users file "
		    "(mode %03o): chmod 600 it",
		    path, (unsigned)(st.st_mode & 0777));
		fclose(f);
		return -1;
	}
	struct users *u = calloc(1, sizeof(*u));
	char buf[1024];
	unsigned line = 0;
	int rc = u ? 0 : -1;
	while (!rc && fgets(buf, sizeof(buf), f)) {
		line++;
		buf[strcspn(buf, "\r\n")] = 0;
		if (buf[0] && buf[0] != '#')
			rc = add_user(u, path, line, buf);
	}
	fclose(f);
	if (!rc && !u->n) {
		daemon_log("%s: error: no users", path);
		rc = -1;
	}
	if (rc) {
		users_free(u);
		return -1;
	}
	*out = u;
	return 0;
}

/* crypt(3) of secret with hash's settings equals hash. */
static bool crypt_match(const char *secret, const char *hash)
{
	struct crypt_data *cd = calloc(1, sizeof(*cd));
	if (!cd)
		return false;
	const char *h = crypt_r(secret, hash, cd);
	bool ok =
	    h && h[0] != '*' && strlen(h) == strlen(hash) && !strcmp(h, hash);
	free(cd);
	return ok;
}

bool auth_basic(const struct users *u, const char *user, const char *pass,
		char *who, size_t who_size)
{
	for (size_t i = 0; user && pass && i < u->n; i++)
		if (!strcmp(u->u[i].name, user) &&
		    crypt_match(pass, u->u[i].hash)) {
			snprintf(who, who_size, "%s", user);
			return true;
		}
	return false;
}

#define TOKEN_ID_LEN 16

bool auth_token(ibp_service *svc, const char *header, char *who,
		size_t who_size)
{
	if (!header || strncmp(header, "Basic ", 6))
		return false;
	const char *token = header + 6;
	char id[TOKEN_ID_LEN + 1], hash[256];
	if (strlen(token) <= TOKEN_ID_LEN)
		return false;
	memcpy(id, token, TOKEN_ID_LEN);
	id[TOKEN_ID_LEN] = 0;
	return ibp_service_token_find(svc, id, hash, sizeof(hash), who,
				      who_size, NULL) == IBP_OK &&
	       crypt_match(token, hash);
}

char *auth_token_issue(ibp_service *svc, const char *user, long *issued_at)
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
	char id[TOKEN_ID_LEN + 1];
	memcpy(id, token, TOKEN_ID_LEN);
	id[TOKEN_ID_LEN] = 0;
	*issued_at = (long)time(NULL);
	ibp_error err;
	if (!h || h[0] == '*' ||
	    ibp_service_token_add(svc, id, h, user, *issued_at, &err)) {
		free(token);
		token = NULL;
	}
	free(cd);
	return token;
}
