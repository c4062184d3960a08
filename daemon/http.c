/*
 * http.c - ibpartd's HTTP side, on libmicrohttpd with its own thread
 * pool (HTTPS through its GnuTLS unless --http): the body of a request
 * gathered (at most 1 MiB), the credentials
 * checked for the prefix (/ufmRest and /ibpart/v1: Basic user:password
 * from the users file; /ufmRestV3: Basic <token>; on any prefix a
 * client certificate --client-ca signed, verified with GnuTLS, as
 * NICo's mTLS presents it), UFM's query flags
 * read, the request routed (routes.c), the JSON answer sent, and one
 * access-log line per request on stderr (the journal under systemd).
 */
#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ibpart/escape.h"
#include "ibpartd.h"

#define BODY_MAX (1u << 20)

static struct MHD_Daemon *mhd;

struct conn {
	char *body;
	size_t len;
	bool too_big;
};

static bool flag(struct MHD_Connection *c, const char *name)
{
	const char *v =
	    MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
	/* OSK sends True/False; a bare flag means true */
	return v && (!*v || !strcasecmp(v, "true") || !strcmp(v, "1"));
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status,
				 char *body, const char *type)
{
	const char *b = body ? body : "{}";
	struct MHD_Response *r = MHD_create_response_from_buffer(
	    strlen(b), (void *)b, MHD_RESPMEM_MUST_COPY);
	free(body);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type",
				type ? type : "application/json");
	if (status == 401)
		MHD_add_response_header(r, "WWW-Authenticate",
					"Basic realm=\"ibpartd\"");
	enum MHD_Result ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

/* A client certificate verified against --client-ca (libmicrohttpd
 * asks for one in the handshake when it has a trust list): true and
 * "cert:" + its subject's CN (printable ASCII only) into who. */
static bool client_cert(struct MHD_Connection *c, char *who, size_t who_size)
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
	char cn[128] = "";
	size_t len = sizeof(cn);
	if (gnutls_x509_crt_import(crt, &peers[0], GNUTLS_X509_FMT_DER) ||
	    gnutls_x509_crt_get_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0,
					  0, cn, &len))
		snprintf(cn, sizeof(cn), "-");
	gnutls_x509_crt_deinit(crt);
	for (char *p = cn; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			*p = '?';
	snprintf(who, who_size, "cert:%s", cn);
	return true;
}

/* The credentials for the prefix; the user's name into who. */
static bool authenticated(struct ibpartd *d, struct MHD_Connection *c,
			  bool token, char *who, size_t who_size)
{
	if (d->client_ca && client_cert(c, who, who_size))
		return true;
	if (token)
		return auth_token(
		    d->svc,
		    MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						MHD_HTTP_HEADER_AUTHORIZATION),
		    who, who_size);
	char *pass = NULL;
	char *user = MHD_basic_auth_get_username_password(c, &pass);
	bool ok = auth_basic(d->users, user, pass, who, who_size);
	MHD_free(user);
	MHD_free(pass);
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

static enum MHD_Result serve(struct ibpartd *d, struct MHD_Connection *c,
			     const char *url, const char *method,
			     struct conn *k)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	static const struct {
		const char *prefix;
		bool token;
	} prefixes[] = {{"/ufmRestV3", true}, {"/ufmRest", false}, {"", false}};
	struct response r = {0};
	char who[128] = "-";
	size_t i = 0;
	for (; i < 3; i++) {
		size_t n = strlen(prefixes[i].prefix);
		if (!strncmp(url, prefixes[i].prefix, n) &&
		    (url[n] == '/' || !n))
			break;
	}
	const char *path = url + strlen(prefixes[i].prefix);
	if (k->too_big) {
		r.status = 413;
		r.body = json_error("the request body is over 1 MiB", 413);
	} else if (!(d->metrics_no_auth && !strcmp(url, "/metrics")) &&
		   !authenticated(d, c, prefixes[i].token, who, sizeof(who))) {
		r.status = 401;
		r.body = json_error(prefixes[i].token
					? "a valid token is needed "
					  "(Authorization: Basic <token>)"
					: "valid credentials are needed (HTTP "
					  "Basic)",
				    401);
		snprintf(who, sizeof(who), "-");
	} else {
		/* one trailing slash is the same path (IBK, NCM, OSK) */
		char p[1024];
		snprintf(p, sizeof(p), "%s", path);
		size_t n = strlen(p);
		if (n > 1 && p[n - 1] == '/')
			p[n - 1] = 0;
		struct request q = {
		    .method = method,
		    .path = p,
		    .body = k->body,
		    .body_len = k->len,
		    .guids_data = flag(c, "guids_data"),
		    .qos_conf = flag(c, "qos_conf"),
		    .sys_type = MHD_lookup_connection_value(
			c, MHD_GET_ARGUMENT_KIND, "sys_type"),
		    .user = who,
		    .d = d,
		};
		if (!routes_dispatch(prefixes[i].prefix, &q, &r)) {
			r.status = 404;
			r.body = json_error("no such endpoint", 404);
		}
	}
	daemon_log("ibpartd: access: %s %s %u user=%s %ldms", method, url,
		   r.status, who, ms_since(&t0));
	atomic_fetch_add(
	    &d->requests[r.status >= 100 && r.status < 600 ? r.status / 100 - 1
							   : 5],
	    1);
	return send_json(c, r.status, r.body, r.content_type);
}

static enum MHD_Result handler(void *cls, struct MHD_Connection *c,
			       const char *url, const char *method,
			       const char *version, const char *upload,
			       size_t *upload_size, void **con_cls)
{
	(void)version;
	struct conn *k = *con_cls;
	if (!k) {
		k = calloc(1, sizeof(*k));
		*con_cls = k;
		return k ? MHD_YES : MHD_NO;
	}
	if (*upload_size) {
		if (k->len + *upload_size > BODY_MAX) {
			k->too_big = true;
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
	return serve(cls, c, url, method, k);
}

static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)c;
	(void)toe;
	struct conn *k = *con_cls;
	if (k) {
		free(k->body);
		free(k);
	}
	*con_cls = NULL;
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
	unsigned flags =
	    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG | MHD_USE_ITC;
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
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
	    flags, 0, NULL, NULL, handler, d, MHD_OPTION_SOCK_ADDR,
	    (struct sockaddr *)&ss, MHD_OPTION_THREAD_POOL_SIZE,
	    (unsigned)d->threads, MHD_OPTION_NOTIFY_COMPLETED, completed, d,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
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
	return 0;
}

void http_stop(void)
{
	if (mhd) {
		MHD_quiesce_daemon(mhd);
		MHD_stop_daemon(mhd);
		mhd = NULL;
	}
}
