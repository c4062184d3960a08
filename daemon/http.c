/*
 * http.c - ibpartd's HTTP side, on libmicrohttpd (epoll, or poll where
 * there is no epoll) with its own thread pool (HTTPS through its GnuTLS
 * unless --http).  Credentials come first (issue 28): the first call of
 * a request - its headers read, none of its body - checks the framing
 * and the bytes (request_check.c), the failed-login limit
 * (login_limit.c), the credentials for the prefix (/ufmRest and
 * /ibpart/v1: Basic user:password from the users file; /ufmRestV3:
 * Basic <token>; /ufmRestKrb: Negotiate <Kerberos token>, krb.c; on
 * any prefix a client certificate --client-ca
 * signed, verified with GnuTLS, as NICo's mTLS presents it), the
 * route's role, Origin and Content-Type, and the route's body limit
 * against Content-Length; a refusal is answered there, before a byte of
 * the body is kept.  Only then is the body gathered (never past the
 * route's limit), the request routed (routes.c) and the JSON answer
 * sent.  Every request, refused or not, is one access-log line on
 * stderr (the journal under systemd) with the client's address; what
 * libmicrohttpd refuses itself (the connection limits, a request too
 * large for its buffer) is logged through its logger.
 */
#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <time.h>

#include "ibpart/sys/escape.h"
#include "ibpartd.h"

static struct MHD_Daemon *mhd;

/* One request, from the URI log callback (the raw request target) to
 * the completed notification. */
struct conn {
	char *raw_uri;
	bool admitted, too_big, busy;
	struct timespec t0;
	size_t prefix; /* index into prefixes[] */
	struct route_info route;
	struct principal who;
	char addr[INET6_ADDRSTRLEN];
	char *body;
	size_t len;
	char *krb_reply; /* Negotiate's mutual-authentication token */
};

/* How a prefix's requests authenticate. */
enum scheme { SCHEME_BASIC, SCHEME_TOKEN, SCHEME_KRB };

/* UFM's prefixes first (UFM_PREFIXES of them), then ibpart's own. */
static const struct {
	const char *prefix;
	enum scheme scheme;
} prefixes[] = {{"/ufmRestV3", SCHEME_TOKEN},
		{"/ufmRestKrb", SCHEME_KRB},
		{"/ufmRest", SCHEME_BASIC},
		{"", SCHEME_BASIC}};
#define UFM_PREFIXES 3

static bool flag(struct MHD_Connection *c, const char *name)
{
	const char *v =
	    MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
	/* OSK sends True/False; a bare flag means true */
	return v && (!*v || !strcasecmp(v, "true") || !strcmp(v, "1"));
}

static const char *header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* A browser's request: a Basic challenge would make it ask for (and
 * then keep sending) credentials, which another site's page could then
 * ride on; API clients send theirs unasked. */
static bool from_browser(struct MHD_Connection *c)
{
	const char *accept = header(c, MHD_HTTP_HEADER_ACCEPT);
	return header(c, "Sec-Fetch-Mode") || header(c, "Origin") ||
	       (accept && strstr(accept, "text/html"));
}

/* The answer; challenge: the WWW-Authenticate value of a 401 (NULL:
 * none), krb_reply: Negotiate's token for a success (NULL: none). */
static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status,
				 char *body, const char *type,
				 const char *challenge, const char *krb_reply)
{
	const char *b = body ? body : "{}";
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    strlen(b), (void *)b, MHD_RESPMEM_MUST_COPY);
	free(body);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type",
				type ? type : "application/json");
	if (status == 401 && challenge)
		MHD_add_response_header(r, "WWW-Authenticate", challenge);
	if (status < 400 && krb_reply) {
		char *v = NULL;
		if (asprintf(&v, "Negotiate %s", krb_reply) > 0)
			MHD_add_response_header(r, "WWW-Authenticate", v);
		free(v);
	}
	if (status == 429)
		MHD_add_response_header(r, "Retry-After", "60");
	enum MHD_Result ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

/* A client certificate verified against --client-ca (libmicrohttpd
 * asks for one in the handshake when it has a trust list): true and
 * its subject's CN (printable ASCII only) into cn. */
static bool client_cert(struct MHD_Connection *c, char *cn, size_t cn_size)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	gnutls_session_t s = ci ? (gnutls_session_t)ci->tls_session : NULL;
	unsigned status = 1, n = 0;
	if (!s || gnutls_certificate_verify_peers2(s, &status) || status)
		return false;
	const gnutls_datum_t *peers = gnutls_certificate_get_peers(s, &n);
	gnutls_x509_crt_t crt;
	if (!peers || !n || gnutls_x509_crt_init(&crt))
		return false;
	size_t len = cn_size;
	if (gnutls_x509_crt_import(crt, &peers[0], GNUTLS_X509_FMT_DER) ||
	    gnutls_x509_crt_get_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0,
					  0, cn, &len))
		snprintf(cn, cn_size, "-");
	gnutls_x509_crt_deinit(crt);
	for (char *p = cn; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			*p = '?';
	return true;
}

/* HTTP Basic's user and password, decoded with GnuTLS's base64: 0, 1
 * when there is no Basic header, -1 when it is malformed or holds a
 * NUL (then nothing to free). */
static int basic_credentials(struct MHD_Connection *c, char **user, char **pass)
{
	const char *h = header(c, MHD_HTTP_HEADER_AUTHORIZATION);
	if (!h || strncasecmp(h, "Basic ", 6))
		return 1;
	h += 6 + strspn(h + 6, " ");
	gnutls_datum_t in = {(unsigned char *)h, (unsigned)strlen(h)}, out;
	if (gnutls_base64_decode2(&in, &out))
		return -1;
	char *colon = memchr(out.data, ':', out.size);
	if (!colon || memchr(out.data, 0, out.size)) {
		gnutls_free(out.data);
		return -1;
	}
	size_t ul = (size_t)(colon - (char *)out.data);
	*user = strndup((char *)out.data, ul);
	*pass = strndup(colon + 1, out.size - ul - 1);
	memset(out.data, 0, out.size);
	gnutls_free(out.data);
	if (!*user || !*pass) {
		free(*user);
		free(*pass);
		return -1;
	}
	return 0;
}

/* A Negotiate token into k->who (krb.c); the refusal when it fails:
 * 401 without one or refused, 429 past the failed-login limit, 403
 * for a principal the users file does not name. */
static bool authenticate_krb(struct ibpartd *d, struct MHD_Connection *c,
			     struct conn *k, struct refusal *why)
{
	static _Thread_local char err[320];
	char name[128];
	const char *h = header(c, MHD_HTTP_HEADER_AUTHORIZATION);
	if (login_limited(d->logins, k->addr, NULL)) {
		why->status = 429;
		why->why = "too many failed logins from this address "
			   "(--login-failures a minute)";
		return false;
	}
	int rc = krb_accept(d->krb, h, name, sizeof(name), &k->krb_reply, err,
			    sizeof(err));
	if (rc) {
		if (rc < 0)
			login_failed(d->logins, k->addr, NULL);
		why->status = 401;
		why->why = err;
		return false;
	}
	if (!auth_krb(d->users, name, &k->who)) {
		snprintf(err, sizeof(err),
			 "the Kerberos principal %s has no line in the users "
			 "file",
			 name);
		why->status = 403;
		why->why = err;
		return false;
	}
	return true;
}

/* The credentials for the prefix into k->who; the refusal when they
 * fail (401, 429 past the failed-login limit, 400 malformed). */
static bool authenticate(struct ibpartd *d, struct MHD_Connection *c,
			 struct conn *k, struct refusal *why)
{
	char cn[128];
	if (d->client_ca && client_cert(c, cn, sizeof(cn))) {
		auth_cert(d->users, cn, &k->who);
		return true;
	}
	if (prefixes[k->prefix].scheme == SCHEME_KRB)
		return authenticate_krb(d, c, k, why);
	bool token = prefixes[k->prefix].scheme == SCHEME_TOKEN;
	char *user = NULL, *pass = NULL;
	int rc = token ? 1 : basic_credentials(c, &user, &pass);
	/* no credentials at all is no failed login */
	bool tried =
	    token ? header(c, MHD_HTTP_HEADER_AUTHORIZATION) != NULL : rc == 0;
	bool ok = false;
	if (rc < 0) {
		why->status = 400;
		why->why = "malformed Basic credentials (base64 of "
			   "user:password, no NUL)";
	} else if (login_limited(d->logins, k->addr, user)) {
		why->status = 429;
		why->why = "too many failed logins from this address or for "
			   "this user (--login-failures a minute)";
	} else {
		ok = token
			 ? auth_token(d->svc, d->users,
				      header(c, MHD_HTTP_HEADER_AUTHORIZATION),
				      &k->who)
			 : auth_basic(d->users, user, pass, &k->who);
		if (!ok && tried)
			login_failed(d->logins, k->addr, user);
		if (!ok) {
			why->status = 401;
			why->why = token ? "a valid token is needed "
					   "(Authorization: Basic <token>)"
					 : "valid credentials are needed (HTTP "
					   "Basic)";
		}
	}
	if (pass)
		memset(pass, 0, strlen(pass));
	free(user);
	free(pass);
	return ok;
}

void daemon_log(const char *fmt, ...)
{
	char *line = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&line, fmt, ap);
	va_end(ap);
	char *esc = n < 0 ? NULL : ibp_escape_text(line, (size_t)n);
	/* one fprintf: the threads' lines do not interleave */
	fprintf(stderr, "%s\n", esc ? esc : "ibpartd: (a log line lost)");
	free(esc);
	free(line);
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* The access-log line, the status counted for /metrics, the answer
 * queued. */
static enum MHD_Result answer(struct ibpartd *d, struct MHD_Connection *c,
			      const char *url, const char *method,
			      struct conn *k, struct response *r)
{
	const char *who = k->who.name[0] ? k->who.name : "-";
	daemon_log("ibpartd: access: %s %s %u user=%s via=%s from=%s %ldms",
		   method, url, r->status, who,
		   k->who.via[0] ? k->who.via : "-", k->addr, ms_since(&k->t0));
	atomic_fetch_add(&d->requests[r->status >= 100 && r->status < 600
					  ? r->status / 100 - 1
					  : 5],
			 1);
	const char *challenge = NULL;
	if (k->prefix < UFM_PREFIXES && !from_browser(c))
		challenge = prefixes[k->prefix].scheme == SCHEME_KRB
				? "Negotiate"
				: "Basic realm=\"ibpartd\"";
	return send_json(c, r->status, r->body, r->content_type, challenge,
			 k->krb_reply);
}

static enum MHD_Result refuse(struct ibpartd *d, struct MHD_Connection *c,
			      const char *url, const char *method,
			      struct conn *k, const struct refusal *why)
{
	struct response r = {why->status, json_error(why->why, why->status),
			     NULL};
	return answer(d, c, url, method, k, &r);
}

/* The path after the prefix, one trailing slash dropped (IBK, NCM, OSK
 * send one); malloc'd. */
static char *route_path(const char *url, size_t prefix_len)
{
	char *p = strdup(url + prefix_len);
	size_t n = p ? strlen(p) : 0;
	if (n > 1 && p[n - 1] == '/')
		p[n - 1] = 0;
	return p;
}

static unsigned long long content_length(struct MHD_Connection *c)
{
	const char *v = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
	return v ? strtoull(v, NULL, 10) : 0;
}

/* Everything known before the body: true to read it, else the refusal
 * into *why. */
static bool admit(struct ibpartd *d, struct MHD_Connection *c, const char *url,
		  const char *method, const char *version, struct conn *k,
		  struct refusal *why)
{
	if (!request_check_framing(c, method, version, k->raw_uri, why))
		return false;
	size_t i = 0;
	for (; i < UFM_PREFIXES; i++) {
		size_t n = strlen(prefixes[i].prefix);
		/* /ufmRestKrb exists only with --krb-keytab */
		if (!strncmp(url, prefixes[i].prefix, n) && url[n] == '/' &&
		    (prefixes[i].scheme != SCHEME_KRB || d->krb))
			break;
	}
	k->prefix = i;
	char *path = route_path(url, strlen(prefixes[i].prefix));
	unsigned found =
	    path ? routes_lookup(prefixes[i].prefix, method, path, &k->route)
		 : 404;
	free(path);
	if (!request_check_origin(c, method, why))
		return false;
	if (!(d->metrics_no_auth && !strcmp(url, "/metrics")) &&
	    !authenticate(d, c, k, why))
		return false;
	bool has_body = content_length(c) > 0 ||
			header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING);
	if (found != 200) {
		why->status = found;
		why->why = found == 405 ? "method not allowed here"
					: "no such endpoint";
		return false;
	}
	if (k->who.name[0] && k->who.role < k->route.role) {
		why->status = 403;
		why->why = k->route.role == ROLE_ADMIN
			       ? "this needs the role admin"
			       : "this needs the role change or admin";
		return false;
	}
	if (content_length(c) > k->route.body_max) {
		why->status = 413;
		why->why = k->route.body_max >= (1u << 20)
			       ? "the request body is over 1 MiB (the limit)"
			   : k->route.body_max
			       ? "the request body is over 4 KiB (this "
				 "endpoint's limit)"
			       : "this endpoint takes no request body";
		return false;
	}
	return !(has_body && k->route.json && !request_check_json(c, why));
}

static enum MHD_Result serve(struct ibpartd *d, struct MHD_Connection *c,
			     const char *url, const char *method,
			     struct conn *k)
{
	struct response r = {0};
	const char *pfx = prefixes[k->prefix].prefix;
	char *path = route_path(url, strlen(pfx));
	if (k->too_big) {
		struct refusal why = {413, k->route.body_max
					       ? "the request body is over "
						 "this endpoint's limit"
					       : "this endpoint takes no "
						 "request body"};
		return refuse(d, c, url, method, k, &why);
	}
	const char *query = k->raw_uri ? strchr(k->raw_uri, '?') : NULL;
	struct request q = {
	    .method = method,
	    .path = path ? path : "",
	    .body = k->body,
	    .body_len = k->len,
	    .guids_data = flag(c, "guids_data"),
	    .qos_conf = flag(c, "qos_conf"),
	    .sys_type = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND,
						    "sys_type"),
	    .user = k->who.name,
	    .who = &k->who,
	    .client = k->addr,
	    .query = query ? query + 1 : "",
	    .d = d,
	};
	if (!path || !routes_dispatch(pfx, &q, &r)) {
		r.status = 404;
		r.body = json_error("no such endpoint", 404);
	}
	free(path);
	return answer(d, c, url, method, k, &r);
}

static void *uri_log(void *cls, const char *uri, struct MHD_Connection *c)
{
	(void)cls;
	struct conn *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, &k->t0);
	/* libmicrohttpd's buffer bounds it; past IBPD_URL_MAX only its
	 * length matters (414) */
	size_t n = strlen(uri);
	k->raw_uri = strndup(uri, n > IBPD_URL_MAX ? IBPD_URL_MAX + 1 : n);
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	const struct sockaddr *sa = ci ? ci->client_addr : NULL;
	snprintf(k->addr, sizeof(k->addr), "-");
	if (sa && sa->sa_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
			  k->addr, sizeof(k->addr));
	else if (sa && sa->sa_family == AF_INET6)
		inet_ntop(AF_INET6,
			  &((const struct sockaddr_in6 *)sa)->sin6_addr,
			  k->addr, sizeof(k->addr));
	return k;
}

static void *socket_context(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return ci ? ci->socket_context : NULL;
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c,
			       const char *url, const char *method,
			       const char *version, const char *upload,
			       size_t *upload_size, void **con_cls)
{
	struct ibpartd *d = cls;
	struct conn *k = *con_cls;
	if (!k)
		return MHD_NO; /* out of memory in uri_log */
	if (!k->admitted) {
		k->admitted = true;
		struct refusal why = {0};
		if (!admit(d, c, url, method, version, k, &why))
			return refuse(d, c, url, method, k, &why);
		return MHD_YES;
	}
	if (*upload_size) {
		if (k->too_big || k->len + *upload_size > k->route.body_max) {
			k->too_big = true; /* the rest is read, not kept */
			free(k->body);
			k->body = NULL;
			k->len = 0;
		} else {
			char *b = realloc(k->body, k->len + *upload_size + 1);
			if (!b)
				return MHD_NO;
			memcpy(b + k->len, upload, *upload_size);
			k->len += *upload_size;
			b[k->len] = 0;
			k->body = b;
		}
		*upload_size = 0;
		return MHD_YES;
	}
	void *sc = socket_context(c);
	conn_watch_busy(sc, true);
	enum MHD_Result rc = serve(d, c, url, method, k);
	conn_watch_busy(sc, false);
	return rc;
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)c;
	(void)toe;
	struct conn *k = *con_cls;
	if (k) {
		free(k->raw_uri);
		free(k->body);
		free(k->krb_reply);
		free(k);
	}
	*con_cls = NULL;
}

/* libmicrohttpd's own messages (a connection over a limit, a request
 * too large for its buffer): the daemon's log, marked as refusals. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	char *line = NULL;
	if (vasprintf(&line, fmt, ap) < 0)
		return;
	line[strcspn(line, "\r\n")] = 0;
	daemon_log("ibpartd: refused by libmicrohttpd: %s", line);
	free(line);
}

/* libmicrohttpd's buffer for a connection's request line, headers and
 * answer headers: the longest request target (IBPD_URL_MAX) and room
 * for the headers; what a connection without credentials can make the
 * daemon hold (with its struct) before it is refused. */
#define CONN_MEMORY (24u << 10)

/* --max-connections, below the descriptors the process may open (its
 * soft limit raised to the hard one): 64 kept for the database, the
 * files, the fabric's sockets. */
static unsigned connection_limit(struct ibpartd *d)
{
	struct rlimit rl;
	unsigned limit = d->max_connections;
	if (!getrlimit(RLIMIT_NOFILE, &rl)) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
			getrlimit(RLIMIT_NOFILE, &rl);
		}
		if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < limit + 64u)
			limit =
			    rl.rlim_cur > 128 ? (unsigned)rl.rlim_cur - 64 : 64;
	}
	return limit;
}

/* ADDR:PORT or [ADDR6]:PORT */
static int parse_listen(const char *s, struct sockaddr_storage *ss)
{
	char host[128];
	const char *colon = strrchr(s, ':');
	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = 0;
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535)
		return -1;
	memset(ss, 0, sizeof(*ss));
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	size_t n = strlen(host);
	if (n > 2 && host[0] == '[' && host[n - 1] == ']') {
		host[n - 1] = 0;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		return inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1 ? 0
									   : -1;
	}
	in4->sin_family = AF_INET;
	in4->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &in4->sin_addr) == 1 ? 0 : -1;
}

/* A PEM file whole, NUL-terminated (libmicrohttpd takes them in
 * memory); NULL after saying why. */
static char *read_pem(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;
	if (f) {
		FILE *m = open_memstream(&text, &len);
		char buf[4096];
		size_t n;
		while (m && (n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, m);
		if (m)
			fclose(m);
		fclose(f);
	}
	if (!text || !len) {
		daemon_log("ibpartd: error: %s: cannot read", path);
		free(text);
		return NULL;
	}
	return text;
}

int http_start(struct ibpartd *d)
{
	struct sockaddr_storage ss;
	if (parse_listen(d->listen, &ss)) {
		daemon_log("ibpartd: error: --listen %s: not ADDR:PORT "
			   "(127.0.0.1:8080, [::1]:8080)",
			   d->listen);
		return -1;
	}
	/* epoll (poll without it): select's FD_SETSIZE (1,024) once made
	 * idle sockets lock every other client out */
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
			 MHD_USE_ITC |
			 (MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES
			      ? MHD_USE_EPOLL
			      : MHD_USE_POLL);
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	unsigned limit = connection_limit(d);
	char *cert = NULL, *key = NULL, *trust = NULL;
	if (!d->http) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			daemon_log("ibpartd: error: this libmicrohttpd "
				   "has no TLS: use --http");
			return -1;
		}
		if (!(cert = read_pem(d->cert)) || !(key = read_pem(d->key)) ||
		    (d->client_ca && !(trust = read_pem(d->client_ca)))) {
			if (key)
				memset(key, 0, strlen(key));
			free(cert);
			free(key);
			return -1;
		}
		flags |= MHD_USE_TLS;
	}
	/* the TLS options last: without TLS they end the list early */
	mhd = MHD_start_daemon(
	    flags, 0, NULL, NULL, handler, d, MHD_OPTION_EXTERNAL_LOGGER,
	    mhd_log, d, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
	    MHD_OPTION_THREAD_POOL_SIZE, (unsigned)d->threads,
	    MHD_OPTION_NOTIFY_COMPLETED, completed, d,
	    MHD_OPTION_URI_LOG_CALLBACK, uri_log, d,
	    MHD_OPTION_NOTIFY_CONNECTION, conn_watch_event, d,
	    MHD_OPTION_CONNECTION_TIMEOUT, d->request_timeout,
	    MHD_OPTION_CONNECTION_LIMIT, limit,
	    MHD_OPTION_PER_IP_CONNECTION_LIMIT, d->per_ip_connections,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY,
	    MHD_OPTION_LISTEN_BACKLOG_SIZE, 128u,
	    cert ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, cert,
	    MHD_OPTION_HTTPS_MEM_KEY, key,
	    trust ? MHD_OPTION_HTTPS_MEM_TRUST : MHD_OPTION_END, trust,
	    MHD_OPTION_END);
	/* libmicrohttpd keeps its own copy of what it parsed */
	if (key)
		memset(key, 0, strlen(key));
	free(cert);
	free(key);
	free(trust);
	if (!mhd) {
		daemon_log("ibpartd: error: cannot listen on %s", d->listen);
		return -1;
	}
	const union MHD_DaemonInfo *info =
	    MHD_get_daemon_info(mhd, MHD_DAEMON_INFO_BIND_PORT);
	d->bound_port = info ? info->port : 0;
	daemon_log("ibpartd: limits: %u connections (%u per address), a "
		   "request within %u s, 1 MiB bodies, %d-byte targets, %u "
		   "failed logins a minute",
		   limit, d->per_ip_connections, d->request_timeout,
		   IBPD_URL_MAX, d->login_failures);
	if (conn_watch_start(d)) {
		http_stop();
		return -1;
	}
	return 0;
}

void http_stop(void)
{
	conn_watch_stop();
	if (mhd) {
		MHD_quiesce_daemon(mhd);
		MHD_stop_daemon(mhd);
		mhd = NULL;
	}
}
