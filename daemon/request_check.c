/*
 * request_check.c - what a request must be before ibpartd reads its
 * body or its credentials (issue 28): one framing (a Content-Length
 * alone or a Transfer-Encoding alone, never both, never two lengths: a
 * proxy in front would read another request than ibpartd), no NUL
 * anywhere (a %00 once cut a path short and deleted a whole P_Key), a
 * bounded request target, a browser page of another origin refused on
 * state-changing requests, and JSON bodies labelled as JSON (a form or
 * text/plain body is what a cross-site page can send without asking).
 */
#include <string.h>
#include <strings.h>

#include "ibpartd.h"

struct framing {
	unsigned lengths, encodings;
	bool nul, bad_length;
	size_t bytes; /* the headers as "Key: value\r\n" */
};

static enum MHD_Result look(void *cls, enum MHD_ValueKind kind, const char *key,
			    size_t key_size, const char *value,
			    size_t value_size)
{
	(void)kind;
	struct framing *f = cls;
	f->bytes += key_size + 2 + (value ? value_size : 0) + 2;
	if (memchr(key, 0, key_size) ||
	    (value && memchr(value, 0, value_size)) ||
	    strlen(key) != key_size || (value && strlen(value) != value_size))
		f->nul = true;
	if (!strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH)) {
		f->lengths++;
		if (!value || !*value ||
		    strspn(value, "0123456789") != strlen(value))
			f->bad_length = true;
	}
	if (!strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		f->encodings++;
	return MHD_YES;
}

static bool refuse(struct refusal *r, unsigned status, const char *why)
{
	r->status = status;
	r->why = why;
	return false;
}

bool request_check_framing(struct MHD_Connection *c, const char *method,
			   const char *version, const char *raw_uri,
			   struct refusal *r)
{
	size_t n = raw_uri ? strlen(raw_uri) : 0;
	if (n > IBPD_URL_MAX)
		return refuse(r, 414,
			      "the request target is over 8192 bytes (the "
			      "limit; at most 480 GUIDs in one path)");
	for (const char *p = raw_uri; p && (p = strchr(p, '%')); p++)
		if (p[1] == '0' && p[2] == '0')
			return refuse(r, 400,
				      "a NUL (%00) in the request target");
	struct framing f = {0};
	MHD_get_connection_values_n(c, MHD_HEADER_KIND, look, &f);
	/* libmicrohttpd ends a header value at a NUL: the bytes it read
	 * for the request line and headers then outnumber those it kept
	 * (one space after each colon allowed, as every client sends) */
	const union MHD_ConnectionInfo *ci =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
	size_t line = strlen(method) + 1 + n + 1 + strlen(version) + 2;
	if (ci && ci->header_size > line + f.bytes + 2)
		f.nul = true;
	if (f.nul)
		return refuse(r, 400,
			      "a NUL byte (or stray bytes) in the request "
			      "line or a header");
	if (f.lengths > 1)
		return refuse(r, 400, "more than one Content-Length");
	if (f.bad_length)
		return refuse(r, 400, "Content-Length is not a number");
	if (f.lengths && f.encodings)
		return refuse(r, 400,
			      "both Content-Length and Transfer-Encoding");
	if (f.encodings > 1)
		return refuse(r, 400, "more than one Transfer-Encoding");
	return true;
}

static const char *header(struct MHD_Connection *c, const char *name)
{
	return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

/* Is origin (scheme://host[:port]) the host the request was sent to? */
static bool same_origin(const char *origin, const char *host)
{
	const char *o = strstr(origin, "://");
	return o && host && !strcasecmp(o + 3, host);
}

bool request_check_origin(struct MHD_Connection *c, const char *method,
			  struct refusal *r)
{
	if (!strcmp(method, "GET") || !strcmp(method, "HEAD"))
		return true;
	const char *site = header(c, "Sec-Fetch-Site");
	if (site && strcasecmp(site, "same-origin") && strcasecmp(site, "none"))
		return refuse(r, 403,
			      "a cross-site request (Sec-Fetch-Site) may not "
			      "change anything");
	const char *origin = header(c, "Origin");
	if (origin && !same_origin(origin, header(c, MHD_HTTP_HEADER_HOST)))
		return refuse(r, 403,
			      "a request from another origin (Origin) may "
			      "not change anything");
	return true;
}

bool request_check_json(struct MHD_Connection *c, struct refusal *r)
{
	const char *type = header(c, MHD_HTTP_HEADER_CONTENT_TYPE);
	size_t n = type ? strcspn(type, "; \t") : 0;
	bool json =
	    type && ((n == 16 && !strncasecmp(type, "application/json", 16)) ||
		     (n > 17 && !strncasecmp(type, "application/", 12) &&
		      !strncasecmp(type + n - 5, "+json", 5)));
	return json || refuse(r, 415,
			      "the body must be JSON: Content-Type: "
			      "application/json");
}
